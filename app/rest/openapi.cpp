// The OpenAPI 3 document of the REST API, written by hand (tests/app/gallery/tst_it_rest_api.cpp checks it
// against RestServer::routeTable() and the live server). docs/openapi.json is `diamondctl serve --openapi`.
#include "rest_server.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace diamond::app::rest {

namespace {

const char *kDocument = R"JSON({
  "openapi": "3.0.3",
  "info": {
    "title": "Diamond REST API",
    "version": "1.0.0",
    "description": "Drive a Diamond workspace as a web service: projects, specs, runs with live metrics, sweeps, the model gallery and clusters. Every request needs `Authorization: Bearer TOKEN`: the workspace owner's (`diamondctl serve --print-token`, every route) or a user's (`diamondctl user add NAME --role student|instructor|admin`). Each operation lists the roles it allows in `x-diamond-roles`; students see and act on their own runs only, within their quota of active runs. Errors are `{\"error\": {\"code\", \"message\"}}`."
  },
  "servers": [{"url": "http://127.0.0.1:8765"}],
  "security": [{"bearer": []}],
  "paths": {
    "/api/v1/openapi.json": {"get": {"operationId": "getOpenApi", "summary": "This document", "responses": {"200": {"description": "OpenAPI 3 document", "content": {"application/json": {}}}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/me": {"get": {"operationId": "whoAmI", "summary": "The caller: name, role, publishing permission and quota (students: also active_runs)", "responses": {"200": {"description": "User plus owner (true for the workspace's own token)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/projects": {
      "get": {"operationId": "listProjects", "summary": "Projects of the workspace", "responses": {"200": {"description": "{projects: [Project]}", "content": {"application/json": {"schema": {"type": "object", "properties": {"projects": {"type": "array", "items": {"$ref": "#/components/schemas/Project"}}}}}}}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "post": {"operationId": "createProject", "summary": "Create a project", "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "description": {"type": "string"}}}}}}, "responses": {"201": {"description": "{id, name}"}, "409": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/projects/{id}/leaderboard": {"get": {"operationId": "projectLeaderboard", "summary": "The class leaderboard of a project: each user's best finished run by a final metric (default val_accuracy, else val_r2, else val_loss; loss and error metrics rank lower first)", "parameters": [{"$ref": "#/components/parameters/Id"}, {"name": "metric", "in": "query", "schema": {"type": "string", "maxLength": 100}}], "responses": {"200": {"description": "{project_id, project, metric, higher_is_better, entries: [{rank, user, run_id, run_name, value, finished_runs, finished_at}]}"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/specs/validate": {"post": {"operationId": "validateSpec", "summary": "Validate a network spec (diamond.spec/1)", "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}}, "responses": {"200": {"description": "{valid: bool, diagnostics: [Diagnostic]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/specs/info": {"post": {"operationId": "specInfo", "summary": "Layers, shapes, parameters and FLOPs of a spec", "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}}, "responses": {"200": {"description": "{name, params, buffers, flops, layers}"}, "422": {"description": "invalid spec: {error, diagnostics}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/runs": {
      "get": {"operationId": "listRuns", "summary": "Runs (optionally of one project)", "parameters": [{"name": "project", "in": "query", "schema": {"type": "integer"}}], "responses": {"200": {"description": "{runs: [Run]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "post": {"operationId": "createRun", "summary": "Create a run and start it on a target (this computer or a configured cluster)", "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["spec", "config"], "properties": {"spec": {"type": "object"}, "config": {"type": "object", "description": "run config diamond.run/1"}, "project": {"type": "string", "default": "Default"}, "name": {"type": "string"}, "target": {"type": "string", "default": "local", "description": "local, or the name of a cluster profile (GET /api/v1/clusters)"}, "execution": {"type": "object", "description": "{nproc, threads} locally; {job: {partition, nodes, tasks_per_node, time_limit_minutes, signal_seconds, ...}} on a cluster"}, "start": {"type": "boolean", "default": true}}}}}}, "responses": {"201": {"description": "Run", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Run"}}}}, "400": {"$ref": "#/components/responses/Error"}, "422": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/runs/{id}": {"get": {"operationId": "getRun", "summary": "One run", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"200": {"description": "Run", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Run"}}}}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/runs/{id}/cancel": {"post": {"operationId": "cancelRun", "summary": "Stop a run; on a cluster the job is cancelled and the run becomes cancelled once the scheduler confirms", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"202": {"description": "Run"}, "409": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/runs/{id}/resume": {"post": {"operationId": "resumeRun", "summary": "Continue a preempted, failed or cancelled run from its newest checkpoint", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"202": {"description": "Run"}, "409": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/runs/{id}/metrics": {"get": {"operationId": "runMetrics", "summary": "Stored metric points", "parameters": [{"$ref": "#/components/parameters/Id"}, {"name": "since_step", "in": "query", "schema": {"type": "integer"}}, {"name": "name", "in": "query", "schema": {"type": "string"}}], "responses": {"200": {"description": "{run, points: [MetricPoint]}"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/runs/{id}/metrics/live": {"get": {"operationId": "liveMetrics", "summary": "Server-Sent Events: `metric` (MetricPoint), `state` ({run, state}), `end` (Run) then the stream closes", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"200": {"description": "event stream", "content": {"text/event-stream": {}}}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/runs/{id}/publish": {"post": {"operationId": "publishRun", "summary": "Publish a finished run to the gallery", "parameters": [{"$ref": "#/components/parameters/Id"}], "requestBody": {"required": false, "content": {"application/json": {"schema": {"type": "object", "properties": {"name": {"type": "string"}, "version": {"type": "string"}, "title": {"type": "string"}, "card": {"type": "string", "description": "Markdown; default: generated from the run"}, "license": {"type": "string"}, "citation": {"type": "string"}, "domain": {"type": "string"}, "task": {"type": "string"}, "authors": {"type": "array", "items": {"type": "string"}}, "tags": {"type": "array", "items": {"type": "string"}}}}}}}, "responses": {"201": {"description": "GalleryEntry"}, "409": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/sweeps": {
      "get": {"operationId": "listSweeps", "summary": "Sweeps", "responses": {"200": {"description": "{sweeps: [SweepSummary]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "post": {"operationId": "createSweep", "summary": "Start a sweep (a diamond.sweep/1 document, docs/sweeps.md; its target may be a cluster) run by this server", "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object"}}}}, "responses": {"201": {"description": "Sweep"}, "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/sweeps/{id}": {"get": {"operationId": "getSweep", "summary": "One sweep with its definition and trials", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"200": {"description": "Sweep"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/sweeps/{id}/pause": {"post": {"operationId": "pauseSweep", "summary": "No new trials; running ones finish their rung", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"202": {"description": "Sweep"}, "409": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/sweeps/{id}/resume": {"post": {"operationId": "resumeSweep", "summary": "Continue a paused or interrupted sweep", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"202": {"description": "Sweep"}, "409": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/sweeps/{id}/stop": {"post": {"operationId": "stopSweep", "summary": "Cancel running trials and end the sweep as stopped", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"202": {"description": "Sweep"}, "409": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/gallery": {
      "get": {"operationId": "searchGallery", "summary": "Search the gallery (FTS5 over name, title, card, tags)", "parameters": [{"name": "q", "in": "query", "schema": {"type": "string"}}, {"name": "task", "in": "query", "schema": {"type": "string"}}, {"name": "domain", "in": "query", "schema": {"type": "string"}}, {"name": "license", "in": "query", "schema": {"type": "string"}}, {"name": "consistent", "in": "query", "schema": {"type": "boolean"}}, {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["relevance", "metric", "date", "name"]}}, {"name": "order", "in": "query", "schema": {"type": "string", "enum": ["asc", "desc"]}}, {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 50}}, {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0}}], "responses": {"200": {"description": "{total, entries: [GalleryEntry]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "post": {"operationId": "uploadPackage", "summary": "Import a .diamond package (checked, re-run, stored)", "requestBody": {"required": true, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}, "responses": {"201": {"description": "GalleryEntry plus verify_message"}, "200": {"description": "already in the gallery"}, "413": {"$ref": "#/components/responses/Error"}, "422": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/gallery/{id}": {"get": {"operationId": "getGalleryEntry", "summary": "One gallery entry with its card and manifest", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"200": {"description": "GalleryEntry"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/gallery/{id}/package": {"get": {"operationId": "downloadPackage", "summary": "The .diamond file", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"200": {"description": "package", "content": {"application/vnd.diamond.package+zip": {"schema": {"type": "string", "format": "binary"}}}}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/gallery/{id}/thumbnail": {"get": {"operationId": "galleryThumbnail", "summary": "The architecture thumbnail", "parameters": [{"$ref": "#/components/parameters/Id"}], "responses": {"200": {"description": "PNG", "content": {"image/png": {}}}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/clusters": {"get": {"operationId": "listClusters", "summary": "Cluster profiles (read-only; the targets of runs and sweeps)", "responses": {"200": {"description": "{clusters: [ClusterProfile]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/datasets": {
      "get": {"operationId": "listDatasets", "summary": "Registered datasets with their newest version", "responses": {"200": {"description": "{datasets: [{name, versions, latest: DatasetVersion}]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "post": {"operationId": "uploadDataset", "summary": "Register one file as a dataset (a new version when the name exists and the content changed)", "parameters": [{"name": "name", "in": "query", "required": true, "schema": {"type": "string"}}, {"name": "file", "in": "query", "required": true, "schema": {"type": "string"}, "description": "the file name, e.g. iris.csv"}], "requestBody": {"required": true, "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}}, "responses": {"201": {"description": "DatasetVersion"}, "200": {"description": "unchanged: the newest version"}, "400": {"$ref": "#/components/responses/Error"}, "413": {"$ref": "#/components/responses/Error"}, "422": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/datasets/{name}": {
      "get": {"operationId": "getDataset", "summary": "A version with its schema, problems and files (newest unless ?version=N)", "parameters": [{"$ref": "#/components/parameters/Name"}, {"name": "version", "in": "query", "schema": {"type": "integer", "minimum": 1}}], "responses": {"200": {"description": "DatasetVersion with manifest"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "delete": {"operationId": "removeDataset", "summary": "Remove a dataset, its versions and the content no other dataset uses", "parameters": [{"$ref": "#/components/parameters/Name"}], "responses": {"200": {"description": "{removed, freed_bytes}"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/datasets/{name}/versions": {"get": {"operationId": "datasetVersions", "summary": "Every version, oldest first", "parameters": [{"$ref": "#/components/parameters/Name"}], "responses": {"200": {"description": "{name, versions: [DatasetVersion]}"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/datasets/{name}/stage": {"post": {"operationId": "stageDataset", "summary": "Put a version into a cluster's dataset cache; only missing content travels, every file is verified there", "parameters": [{"$ref": "#/components/parameters/Name"}], "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["target"], "properties": {"target": {"type": "string"}, "version": {"type": "integer"}, "verify": {"type": "boolean"}}}}}}, "responses": {"200": {"description": "{dataset, target, remote_dir, bytes_total, bytes_sent, payload_bytes, files, chunks_sent, shards, streamed_files, retries, repaired_files, already_staged, seconds}"}, "404": {"$ref": "#/components/responses/Error"}, "502": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}},
    "/api/v1/users": {
      "get": {"operationId": "listUsers", "summary": "Users of this class server (never their tokens)", "responses": {"200": {"description": "{users: [User]}"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "post": {"operationId": "createUser", "summary": "Add a user; the answer holds its token, shown this once (only its SHA-256 is stored)", "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["name", "role"], "properties": {"name": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"}, "role": {"type": "string", "enum": ["student", "instructor", "admin"]}, "can_publish": {"type": "boolean", "default": false}, "max_active_runs": {"type": "integer", "minimum": 0, "maximum": 10000, "default": 2}}}}}}, "responses": {"201": {"description": "User plus token"}, "400": {"$ref": "#/components/responses/Error"}, "409": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/users/{name}": {
      "patch": {"operationId": "updateUser", "summary": "Change a user's role, publishing permission or quota", "parameters": [{"$ref": "#/components/parameters/Name"}], "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {"role": {"type": "string", "enum": ["student", "instructor", "admin"]}, "can_publish": {"type": "boolean"}, "max_active_runs": {"type": "integer", "minimum": 0, "maximum": 10000}}}}}}, "responses": {"200": {"description": "User"}, "400": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}},
      "delete": {"operationId": "removeUser", "summary": "Remove a user; its token stops working at once (its runs stay)", "parameters": [{"$ref": "#/components/parameters/Name"}], "responses": {"200": {"description": "{removed}"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}
    },
    "/api/v1/users/{name}/token": {"post": {"operationId": "renewUserToken", "summary": "A new token for the user (shown once); the old one stops working at once", "parameters": [{"$ref": "#/components/parameters/Name"}], "responses": {"200": {"description": "User plus token"}, "404": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Unauthorized"}}}}
  },
  "components": {
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    "parameters": {"Id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}, "Name": {"name": "name", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"}}},
    "responses": {
      "Unauthorized": {"description": "missing or wrong bearer token (code unauthorized)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Forbidden": {"description": "the caller's role may not use this operation, or the run belongs to another user (code forbidden)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "QuotaExceeded": {"description": "a student has as many runs queued or running as allowed, or has used up the compute hours (code quota_exceeded)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Error": {"description": "error with a stable code", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    },
    "schemas": {
      "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["code", "message"], "properties": {"code": {"type": "string", "description": "unauthorized, forbidden, quota_exceeded, route_not_found, method_not_allowed, not_found, bad_request, unknown_target, invalid_json, invalid_spec, conflict, payload_too_large, length_required, header_too_large, run_not_finished, export_failed, engine_start_failed, package_missing, package_* (docs/model-package.md), internal"}, "message": {"type": "string"}}}}},
      "User": {"type": "object", "properties": {"name": {"type": "string"}, "role": {"type": "string", "enum": ["student", "instructor", "admin"]}, "can_publish": {"type": "boolean"}, "max_active_runs": {"type": "integer"}, "cpu_hours_quota": {"type": "number", "nullable": true, "description": "compute hours the user's CPU runs may use in all; null: no limit"}, "gpu_hours_quota": {"type": "number", "nullable": true}, "usage": {"type": "object", "description": "hours used so far: running time times the width the engine reported", "properties": {"cpu_hours": {"type": "number"}, "gpu_hours": {"type": "number"}, "running_hours": {"type": "number"}}}, "created_at": {"type": "string"}, "token_issued_at": {"type": "string"}}},
      "Project": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "description": {"type": "string"}, "created_at": {"type": "string"}, "runs": {"type": "integer"}}},
      "Run": {"type": "object", "properties": {"id": {"type": "integer"}, "project_id": {"type": "integer"}, "name": {"type": "string"}, "state": {"type": "string", "enum": ["draft", "queued", "running", "finished", "failed", "cancelled", "preempted", "resumed"]}, "target": {"type": "string"}, "created_at": {"type": "string"}, "started_at": {"type": "string"}, "finished_at": {"type": "string"}, "exit_code": {"type": "integer", "nullable": true}, "exit_message": {"type": "string"}, "final_metrics": {"type": "object"}, "weights_sha256": {"type": "string"}, "owner": {"type": "string", "description": "the user who started it through this API; empty: the workspace's owner"}, "config": {"type": "object"}, "execution": {"type": "object"}, "project": {"type": "string"}, "job": {"$ref": "#/components/schemas/ClusterJob"}}},
      "ClusterJob": {"type": "object", "description": "the newest batch job of a cluster run", "properties": {"cluster": {"type": "string"}, "job_id": {"type": "string"}, "phase": {"type": "string", "enum": ["unknown", "pending", "running", "suspended", "completed", "failed", "cancelled", "timed-out", "node-failed"]}, "reason": {"type": "string"}, "continuation": {"type": "boolean"}, "submitted_at": {"type": "string"}, "updated_at": {"type": "string"}}},
      "MetricPoint": {"type": "object", "properties": {"step": {"type": "integer"}, "name": {"type": "string"}, "split": {"type": "string", "enum": ["train", "val"]}, "value": {"type": "number"}, "wall": {"type": "number"}}},
      "GalleryEntry": {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "version": {"type": "string"}, "title": {"type": "string"}, "task": {"type": "string"}, "domain": {"type": "string"}, "license": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}, "consistent": {"type": "boolean", "description": "the package's test inputs reproduce its expected outputs"}, "signature": {"type": "object", "nullable": true, "description": "null when unsigned", "properties": {"publisher": {"type": "string"}, "fingerprint": {"type": "string"}, "trusted": {"type": "boolean"}}}, "key_metric": {"type": "number", "nullable": true}, "key_metric_name": {"type": "string"}, "package_sha256": {"type": "string"}, "run_id": {"type": "integer", "nullable": true}, "created_at": {"type": "string"}, "updated_at": {"type": "string"}, "card": {"type": "string"}, "manifest": {"type": "object"}}}
    }
  }
})JSON";

} // namespace

QJsonObject openApiDocument() {
    static const QJsonObject doc = [] {
        QJsonObject d = QJsonDocument::fromJson(QByteArray(kDocument)).object();
        // The roles come from the route table: each operation gets x-diamond-roles, and the answers a role or
        // ownership check can give.
        QJsonObject paths = d.value(QStringLiteral("paths")).toObject();
        const QJsonObject forbidden{{QStringLiteral("$ref"), QStringLiteral("#/components/responses/Forbidden")}};
        const QJsonObject quota{{QStringLiteral("$ref"), QStringLiteral("#/components/responses/QuotaExceeded")}};
        for (const RestServer::RouteInfo &route : RestServer::routeTable()) {
            QJsonObject path = paths.value(route.path).toObject();
            const QString method = QString::fromLatin1(route.method).toLower();
            QJsonObject op = path.value(method).toObject();
            QJsonArray roles;
            for (Role role : route.roles)
                roles.append(roleName(role));
            op.insert(QStringLiteral("x-diamond-roles"), roles);
            QJsonObject responses = op.value(QStringLiteral("responses")).toObject();
            const bool runOfAnother = route.path.startsWith(QLatin1String("/api/v1/runs/{id}"));
            const bool publishing = route.method == "POST" && route.path == QLatin1String("/api/v1/gallery");
            if (roles.size() < 3 || runOfAnother || publishing) responses.insert(QStringLiteral("403"), forbidden);
            if (route.method == "POST" && (route.path == QLatin1String("/api/v1/runs") ||
                                           route.path == QLatin1String("/api/v1/runs/{id}/resume")))
                responses.insert(QStringLiteral("429"), quota);
            op.insert(QStringLiteral("responses"), responses);
            path.insert(method, op);
            paths.insert(route.path, path);
        }
        d.insert(QStringLiteral("paths"), paths);
        return d;
    }();
    return doc;
}

} // namespace diamond::app::rest
