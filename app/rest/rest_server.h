// The REST API of `diamondctl serve` (docs/rest-api.md, OpenAPI document: openApiDocument()).
//
// Contracts:
// - Every request, including unknown paths and the OpenAPI document, needs "Authorization: Bearer <token>";
//   otherwise 401 {"error": {"code": "unauthorized", ...}}, decided on the headers before any body byte is read.
//   The token is the workspace's own (the owner: every route, compared in constant time) or a user's
//   (user_store.h). Every route declares the roles it allows (routeTable(), shown in the OpenAPI document as
//   x-diamond-roles); another role gets 403 forbidden. Students see and act on their own runs only (403 on
//   another's), start runs within their quota (429 quota_exceeded) and publish only when allowed.
// - Errors are JSON {"error": {"code": STABLE_CODE, "message": TEXT}} with a matching HTTP status.
// - HTTP is served by HttpServer (http_server.h): headers at most 64 KiB (431) within headerTimeoutMs (408),
//   bodies at most Options::maxBodyBytes (gallery uploads: maxUploadBytes) by Content-Length (413), chunked
//   bodies refused (411), slow bodies cut off (408), idle connections closed. Gallery uploads are streamed into a
//   file under <workspace>/gallery/tmp, never held in memory.
// - Data files named by a client (run and sweep configs, execution.init_weights) must be relative paths inside
//   <workspace>/data; the server rewrites them to that folder (400 path_not_allowed otherwise). Run messages sent
//   back carry no server paths and no quoted file content (clientRunJson()).
// - Path parameters are integers matched by the route patterns; nothing from a request becomes a file path:
//   packages are found through the gallery database (GalleryStore::packageFile), uploads go to generated
//   temporary names.
// - Live metrics: GET /api/v1/runs/{id}/metrics/live is a Server-Sent Events stream (text/event-stream) of
//   the run's stored points, then new ones as they arrive, then an `end` event when the run ends.
// Run and sweep lifecycle goes through the server's app::RunService (one per workspace, the same operations as the
// desktop app and diamondctl): runs start on any configured target ("target"), cancel/resume reach cluster jobs, and
// runs started elsewhere are followed (RunService::followAll() at start). Gallery publish/import run on worker threads
// (own workspace connection), so the server keeps answering while the engine exports or re-runs test inputs; clients
// must not pipeline requests.
#pragma once

#include "app/workspace/workspace.h"

#include "app/rest/http_server.h"
#include "app/rest/user_store.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QList>
#include <QPointer>

#include <functional>
#include <memory>

class QTcpSocket;

namespace diamond::app {
class RunService;
}

namespace diamond::app::rest {

/// The bearer token of a workspace: <workspace>/rest-token (mode 0600), created with 32 random bytes (hex)
/// when missing. Refuses a token file readable by group or others. Empty with *error on failure.
QString ensureToken(const QString &workspaceFolder, QString *error);

/// The OpenAPI 3 document of the API (served at /api/v1/openapi.json).
QJsonObject openApiDocument();

class RestServer : public QObject {
    Q_OBJECT
public:
    struct Options {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0; ///< 0: any free port
        QString token;
        qint64 maxBodyBytes = qint64(4) << 20;     ///< JSON request bodies
        qint64 maxUploadBytes = qint64(512) << 20; ///< POST /api/v1/gallery (a .diamond file)
        int headerTimeoutMs = 10000;               ///< a request's headers must arrive within this
        int idleTimeoutMs = 60000;                 ///< a kept-alive connection without a request closes
        int quotaCheckMs = 60000; ///< how often students' running runs are checked against their hour quotas
    };
    /// One route: HTTP method, OpenAPI path template ("/api/v1/runs/{id}") and the roles it allows.
    struct RouteInfo {
        QByteArray method;
        QString path;
        QList<Role> roles;
    };

    /// `workspace` must be open and outlive the server.
    RestServer(Workspace &workspace, const Options &options, QObject *parent = nullptr);
    ~RestServer() override;

    /// Starts listening; false with errorString() when the address or port cannot be used.
    bool start();
    /// The run service of the server's workspace (set its cluster prompter before start()).
    RunService *service() const { return service_; }
    quint16 port() const { return port_; }
    QString errorString() const { return error_; }

    /// Every route the server dispatches (the test compares it with openApiDocument()).
    static QList<RouteInfo> routeTable();

    struct Reply {
        int status = 200;
        QByteArray body;
        QByteArray contentType = "application/json";
        QList<QPair<QByteArray, QByteArray>> headers;
        bool streamed = false; ///< the handler wrote (or is writing) the response itself
        QString filePath;      ///< when set, the body is this file, streamed
    };
    /// Who sent a request: the workspace's owner (its own token) or a class-server user.
    struct Caller {
        bool owner = false;
        User user; ///< the owner: name "owner", role admin
        /// Students act on their own runs only; everyone else on every run.
        bool mayActOn(const QString &runOwner) const {
            return owner || user.role != Role::Student || runOwner == user.name;
        }
        /// The name a run started by this caller records (empty for the owner).
        QString runOwner() const { return owner ? QString() : user.name; }
    };
    struct Request {
        const HttpRequest &http;
        const Caller &caller;
        QTcpSocket *socket;
        QList<qint64> ids; ///< the {id} path parameters, in order
        QStringList names; ///< the {name} path parameters (dataset names), in order
    };

private:
    void handleRequest(HttpRequest &request, QTcpSocket *socket);
    HttpServer::Refusal authorize(const HttpRequest &request) const;
    /// The caller a request's bearer token names; nullopt for a missing or unknown token.
    std::optional<Caller> callerOf(const HttpRequest &request) const;
    using Handler = Reply (RestServer::*)(const Request &);
    struct Route;
    static const QList<Route> &routes();
    void send(QTcpSocket *socket, const Reply &reply);
    /// Runs `work` on a worker thread with its own connection to the workspace and sends its reply when done
    /// (for gallery publish/import, which wait for the engine). Returns a streamed reply.
    Reply deferred(QTcpSocket *socket, std::function<Reply(Workspace &)> work);

    // rest_routes.cpp
    Reply getOpenApi(const Request &);
    Reply listProjects(const Request &);
    Reply getLeaderboard(const Request &);
    Reply createProject(const Request &);
    Reply validateSpec(const Request &);
    Reply specInfo(const Request &);
    Reply listRuns(const Request &);
    Reply createRun(const Request &);
    Reply getRun(const Request &);
    Reply cancelRun(const Request &);
    Reply resumeRun(const Request &);
    Reply moveRun(const Request &);
    Reply runMetrics(const Request &);
    Reply liveMetrics(const Request &);
    Reply runEvents(const Request &);
    Reply listSweeps(const Request &);
    Reply createSweep(const Request &);
    Reply getSweep(const Request &);
    Reply pauseSweep(const Request &);
    Reply resumeSweep(const Request &);
    Reply stopSweep(const Request &);
    Reply listClusters(const Request &);
    Reply clusterStatus(const Request &);
    // rest_plans.cpp
    Reply planRun(const Request &);
    // rest_gallery.cpp
    Reply searchGallery(const Request &);
    Reply uploadPackage(const Request &);
    Reply getGalleryEntry(const Request &);
    Reply downloadPackage(const Request &);
    Reply galleryThumbnail(const Request &);
    Reply publishRun(const Request &);
    // rest_data.cpp
    Reply listDatasets(const Request &);
    Reply uploadDataset(const Request &);
    Reply getDataset(const Request &);
    Reply datasetVersions(const Request &);
    Reply removeDataset(const Request &);
    Reply stageDataset(const Request &);
    Reply unstageDataset(const Request &);
    Reply cleanDatasetCache(const Request &);
    // rest_deploy.cpp
    Reply deployClusterEngine(const Request &);

    // rest_users.cpp
    Reply whoAmI(const Request &);
    Reply listUsers(const Request &);
    Reply createUser(const Request &);
    Reply updateUser(const Request &);
    Reply removeUser(const Request &);
    Reply renewUserToken(const Request &);
    /// 403 unless the caller may act on the run (students: their own runs); the run must exist (404).
    std::optional<Reply> refuseRunAccess(const Request &req, qint64 runId);
    /// Stops the queued and running runs of students past their CPU (or GPU) hour quota, with a run message that
    /// says why; called every Options::quotaCheckMs. Returns how many runs it stopped.
    int enforceQuotas();
    /// 429 quota_exceeded when a student already has as many active runs as the quota allows, or has used up the
    /// CPU-hour quota (the GPU-hour quota when the run asks for a GPU).
    std::optional<Reply> refuseOverQuota(const Request &req, bool gpu);

    Workspace &ws_;
    Options options_;
    HttpServer *http_ = nullptr;
    RunService *service_ = nullptr;
    quint16 port_ = 0;
    QString error_;
};

/// JSON error reply {"error": {"code", "message"}}.
RestServer::Reply errorReply(int status, const QString &code, const QString &message);
/// JSON reply of a document.
RestServer::Reply jsonReply(const QJsonObject &doc, int status = 200);
/// The request body as a JSON object; false with a 400 invalid_json reply in *error otherwise.
bool jsonBody(const RestServer::Request &req, QJsonObject *out, RestServer::Reply *error);
/// The "spec" and "config" objects of a run's body (POST /runs, /plans): 400 when missing, 422 for an invalid spec.
bool specAndConfig(const QJsonObject &body, QJsonObject *spec, QJsonObject *config, RestServer::Reply *error);

} // namespace diamond::app::rest
