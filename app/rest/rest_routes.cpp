// Handlers of the projects, specs, runs, sweeps and clusters routes (see rest_server.h, docs/rest-api.md).
#include "rest_server.h"

#include "app/cluster/cluster_overview.h"
#include "app/cluster/cluster_store.h"
#include "app/rest/client_data.h"
#include "app/run/compute_usage.h"
#include "app/run/leaderboard.h"
#include "app/run/run_json.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_definition.h"
#include "app/sweep/sweep_json.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <QVariant>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

QJsonArray diagnosticsJson(const std::vector<spec::Diagnostic> &diagnostics) {
    QJsonArray a;
    for (const auto &d : diagnostics)
        a.append(QJsonObject{{QStringLiteral("severity"), QString::fromStdString(spec::severityName(d.severity))},
                             {QStringLiteral("code"), QString::fromStdString(d.code)},
                             {QStringLiteral("node"), QString::fromStdString(d.node)},
                             {QStringLiteral("field"), QString::fromStdString(d.field)},
                             {QStringLiteral("message"), QString::fromStdString(d.message)},
                             {QStringLiteral("hint"), QString::fromStdString(d.hint)},
                             {QStringLiteral("line"), d.line},
                             {QStringLiteral("column"), d.column}});
    return a;
}

bool isTerminal(RunState s) {
    return s == RunState::Finished || s == RunState::Failed || s == RunState::Cancelled || s == RunState::Preempted;
}

/// sweepJson() with the definition's data paths as a client may see them.
QJsonObject clientSweepJson(Workspace &ws, const sweep::SweepRow &row, const QList<sweep::TrialRow> &trials) {
    QJsonObject o = sweep::sweepJson(row, trials);
    QJsonObject definition = o.value(QStringLiteral("definition")).toObject();
    definition.insert(QStringLiteral("config"),
                      clientConfig(ws, definition.value(QStringLiteral("config")).toObject()));
    o.insert(QStringLiteral("definition"), definition);
    return o;
}

} // namespace

bool specAndConfig(const QJsonObject &body, QJsonObject *spec, QJsonObject *config, RestServer::Reply *error) {
    *spec = body.value(QStringLiteral("spec")).toObject();
    *config = body.value(QStringLiteral("config")).toObject();
    if (spec->isEmpty() || config->isEmpty())
        return *error = errorReply(400, QStringLiteral("bad_request"),
                                   RestServer::tr("\"spec\" and \"config\" (JSON objects) are required")),
               false;
    const QByteArray specText = QJsonDocument(*spec).toJson(QJsonDocument::Compact);
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specText.constData(), specText.size()));
    if (!parsed.ok() || !spec::analyze(parsed.spec).ok())
        return *error = errorReply(422, QStringLiteral("invalid_spec"),
                                   RestServer::tr("the spec is not valid; POST it to /api/v1/specs/validate for the "
                                                  "diagnostics")),
               false;
    return true;
}

bool jsonBody(const RestServer::Request &req, QJsonObject *out, RestServer::Reply *error) {
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(req.http.body, &e);
    if (!doc.isObject()) {
        *error = errorReply(400, QStringLiteral("invalid_json"),
                            tr("the request body must be a JSON object: %1").arg(e.errorString()));
        return false;
    }
    *out = doc.object();
    return true;
}

RestServer::Reply RestServer::getOpenApi(const Request &) { return jsonReply(openApiDocument()); }

RestServer::Reply RestServer::listProjects(const Request &) {
    QJsonArray a;
    for (const Project &p : RunStore(ws_).projects())
        a.append(projectJson(p));
    return jsonReply({{QStringLiteral("projects"), a}});
}

RestServer::Reply RestServer::getLeaderboard(const Request &req) {
    const QString metric = QUrlQuery(req.http.url).queryItemValue(QStringLiteral("metric"), QUrl::FullyDecoded);
    if (metric.size() > 100)
        return errorReply(400, QStringLiteral("bad_request"), tr("\"metric\" is longer than 100 characters"));
    RunStore store(ws_);
    QString error;
    const auto board = projectLeaderboard(store, req.ids.value(0), metric, &error);
    if (!board) return errorReply(404, QStringLiteral("not_found"), error);
    return jsonReply(leaderboardJson(*board));
}

RestServer::Reply RestServer::createProject(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    RunStore store(ws_);
    const QString name = body.value(QStringLiteral("name")).toString().trimmed();
    if (name.isEmpty()) return errorReply(400, QStringLiteral("bad_request"), tr("\"name\" is required"));
    if (store.projectByName(name))
        return errorReply(409, QStringLiteral("conflict"), tr("a project named \"%1\" exists").arg(name));
    const auto p = store.createProject(name, body.value(QStringLiteral("description")).toString());
    if (!p) return errorReply(500, QStringLiteral("internal"), store.errorString());
    return jsonReply({{QStringLiteral("id"), p->id}, {QStringLiteral("name"), p->name}}, 201);
}

RestServer::Reply RestServer::validateSpec(const Request &req) {
    const QByteArray text = req.http.body;
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(text.constData(), text.size()));
    std::vector<spec::Diagnostic> all = parsed.diagnostics;
    bool valid = parsed.ok();
    if (valid) {
        const spec::Analysis a = spec::analyze(parsed.spec);
        all.insert(all.end(), a.diagnostics.begin(), a.diagnostics.end());
        valid = a.ok();
    }
    return jsonReply({{QStringLiteral("valid"), valid}, {QStringLiteral("diagnostics"), diagnosticsJson(all)}});
}

RestServer::Reply RestServer::specInfo(const Request &req) {
    const QByteArray text = req.http.body;
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(text.constData(), text.size()));
    if (!parsed.ok())
        return jsonReply(
            {{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), QStringLiteral("invalid_spec")},
                                                   {QStringLiteral("message"), tr("the spec is not valid")}}},
             {QStringLiteral("diagnostics"), diagnosticsJson(parsed.diagnostics)}},
            422);
    const spec::Analysis a = spec::analyze(parsed.spec);
    if (!a.ok())
        return jsonReply(
            {{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), QStringLiteral("invalid_spec")},
                                                   {QStringLiteral("message"), tr("the spec is not valid")}}},
             {QStringLiteral("diagnostics"), diagnosticsJson(a.diagnostics)}},
            422);
    QJsonArray layers;
    for (const auto &n : a.nodes) {
        QJsonArray shape;
        if (!n.outputs.empty())
            for (auto d : n.outputs.front().shape)
                shape.append(d == spec::kBatch ? QJsonValue(QStringLiteral("N")) : QJsonValue(static_cast<qint64>(d)));
        layers.append(QJsonObject{{QStringLiteral("id"), QString::fromStdString(n.id)},
                                  {QStringLiteral("type"), QString::fromStdString(n.type)},
                                  {QStringLiteral("output_shape"), shape},
                                  {QStringLiteral("params"), static_cast<qint64>(n.paramCount)},
                                  {QStringLiteral("flops"), static_cast<qint64>(n.flops)}});
    }
    return jsonReply({{QStringLiteral("name"), QString::fromStdString(parsed.spec.name)},
                      {QStringLiteral("params"), static_cast<qint64>(a.totalParams)},
                      {QStringLiteral("buffers"), static_cast<qint64>(a.totalBuffers)},
                      {QStringLiteral("flops"), static_cast<qint64>(a.totalFlops)},
                      {QStringLiteral("layers"), layers}});
}

RestServer::Reply RestServer::listRuns(const Request &req) {
    RunStore store(ws_);
    const qint64 project = QUrlQuery(req.http.url).queryItemValue(QStringLiteral("project")).toLongLong();
    QJsonArray a;
    for (const Run &r : store.runs(project))
        if (req.caller.mayActOn(r.owner)) a.append(clientRunJson(ws_, r));
    return jsonReply({{QStringLiteral("runs"), a}});
}

RestServer::Reply RestServer::createRun(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    RunService::NewRun n;
    if (!specAndConfig(body, &n.spec, &n.config, &error)) return error;
    n.project = body.value(QStringLiteral("project")).toString(QStringLiteral("Default"));
    n.name = body.value(QStringLiteral("name")).toString();
    n.target = body.value(QStringLiteral("target")).toString(QStringLiteral("local"));
    const QJsonValue execution = body.value(QStringLiteral("execution"));
    if (!execution.isUndefined() && !execution.isObject())
        return errorReply(400, QStringLiteral("bad_request"), tr("\"execution\" must be a JSON object"));
    n.execution = execution.toObject();
    QString problem;
    if (!confineDataPaths(ws_, n.config, &n.execution, &problem))
        return errorReply(400, QStringLiteral("path_not_allowed"), problem);
    if (n.target != QLatin1String("local") && !ClusterStore(ws_).profile(n.target))
        return errorReply(400, QStringLiteral("unknown_target"),
                          tr("no target \"%1\": GET /api/v1/clusters lists them").arg(n.target));
    const bool start = body.value(QStringLiteral("start")).toBool(true);
    if (start)
        if (const auto refused = refuseOverQuota(req, runConfigUsesGpu(n.config))) return *refused;
    const auto run = service_->createRun(n);
    if (!run) return errorReply(400, QStringLiteral("bad_request"), service_->errorString());
    if (!req.caller.owner && !RunStore(ws_).setOwner(run->id, req.caller.runOwner()))
        return errorReply(500, QStringLiteral("internal"), tr("cannot record the run's owner"));
    if (start && !service_->start(run->id))
        return errorReply(502, QStringLiteral("engine_start_failed"), service_->errorString());
    return jsonReply(clientRunJson(ws_, *RunStore(ws_).run(run->id)), 201);
}

RestServer::Reply RestServer::getRun(const Request &req) {
    if (const auto refused = refuseRunAccess(req, req.ids.value(0))) return *refused;
    const auto run = RunStore(ws_).run(req.ids.value(0));
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(req.ids.value(0)));
    return jsonReply(clientRunJson(ws_, *run));
}

RestServer::Reply RestServer::cancelRun(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (const auto refused = refuseRunAccess(req, id)) return *refused;
    if (!service_->cancel(id)) return errorReply(409, QStringLiteral("conflict"), service_->errorString());
    return jsonReply(clientRunJson(ws_, *RunStore(ws_).run(id)), 202);
}

RestServer::Reply RestServer::resumeRun(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (const auto refused = refuseRunAccess(req, id)) return *refused;
    const auto run = RunStore(ws_).run(id);
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    if (const auto refused = refuseOverQuota(req, runConfigUsesGpu(run->config))) return *refused;
    if (!service_->resume(id)) return errorReply(409, QStringLiteral("conflict"), service_->errorString());
    return jsonReply(clientRunJson(ws_, *RunStore(ws_).run(id)), 202);
}

/// {"target": cluster or "local", "job": {...}}: 202 with the run (a running run is moving: it stops at a checkpoint
/// first, then continues on the target; its messages say when), 400, 404 or 409.
RestServer::Reply RestServer::moveRun(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (const auto refused = refuseRunAccess(req, id)) return *refused;
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    const QString target = body.value(QStringLiteral("target")).toString();
    if (target.isEmpty())
        return errorReply(400, QStringLiteral("bad_request"), tr("\"target\" must name a cluster or \"local\""));
    const QJsonValue job = body.value(QStringLiteral("job"));
    if (!job.isUndefined() && !job.isObject())
        return errorReply(400, QStringLiteral("bad_request"), tr("\"job\" must be a JSON object"));
    if (!RunStore(ws_).run(id)) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    if (target != QLatin1String("local") && !ClusterStore(ws_).profile(target))
        return errorReply(400, QStringLiteral("unknown_target"),
                          tr("no target \"%1\": GET /api/v1/clusters lists them").arg(target));
    if (!service_->moveRun(id, target, job.toObject()))
        return errorReply(409, QStringLiteral("conflict"), service_->errorString());
    return jsonReply(clientRunJson(ws_, *RunStore(ws_).run(id)), 202);
}

RestServer::Reply RestServer::runMetrics(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (const auto refused = refuseRunAccess(req, id)) return *refused;
    const QUrlQuery query(req.http.url);
    const qint64 since = query.hasQueryItem(QStringLiteral("since_step"))
                             ? query.queryItemValue(QStringLiteral("since_step")).toLongLong()
                             : -1;
    const QString name = query.queryItemValue(QStringLiteral("name"));
    QJsonArray a;
    for (const MetricPoint &p : RunStore(ws_).metricPointsSince(id, since))
        if (name.isEmpty() || p.name == name) a.append(metricPointJson(p));
    return jsonReply({{QStringLiteral("run"), id}, {QStringLiteral("points"), a}});
}

RestServer::Reply RestServer::liveMetrics(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (const auto refused = refuseRunAccess(req, id)) return *refused;
    const auto run = RunStore(ws_).run(id);
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    if (run->state == RunState::Running && !service_->isActive(id)) service_->adopt(id);
    QPointer<QTcpSocket> socket = req.socket;
    HttpServer::setStreaming(socket); // no timeouts; the stream ends with the connection
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                  "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n");
    // Points already sent, by "split/name", to the step reached; the poll reads the database so that runs
    // ingested by any process stream alike.
    struct State {
        QHash<QString, qint64> sent;
        qint64 minStep = -1;
        QString lastState;
        int idleTicks = 0;
    };
    auto state = std::make_shared<State>();
    auto *timer = new QTimer(socket);
    auto tick = [this, id, socket, state, timer] {
        if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
            if (timer) timer->stop();
            return;
        }
        QByteArray out;
        qint64 newMin = state->minStep;
        for (const MetricPoint &p : RunStore(ws_).metricPointsSince(id, state->minStep)) {
            const QString key = metricSplitName(p.split) + QLatin1Char('/') + p.name;
            if (p.step <= state->sent.value(key, -1)) continue;
            state->sent.insert(key, p.step);
            out += "id: " + QByteArray::number(p.step) +
                   "\nevent: metric\ndata: " + QJsonDocument(metricPointJson(p)).toJson(QJsonDocument::Compact) +
                   "\n\n";
        }
        for (auto it = state->sent.cbegin(); it != state->sent.cend(); ++it)
            newMin = newMin < 0 ? it.value() : qMin(newMin, it.value());
        // Re-read from the smallest step every series reached: a late series cannot be skipped.
        state->minStep = newMin < 0 ? -1 : newMin - 1;
        const auto r = RunStore(ws_).run(id);
        const QString s = r ? runStateName(r->state) : QStringLiteral("unknown");
        if (s != state->lastState) {
            state->lastState = s;
            out += "event: state\ndata: " +
                   QJsonDocument(QJsonObject{{QStringLiteral("run"), id}, {QStringLiteral("state"), s}})
                       .toJson(QJsonDocument::Compact) +
                   "\n\n";
        }
        if (out.isEmpty() && ++state->idleTicks % 60 == 0) out = ": keep-alive\n\n";
        if (!out.isEmpty()) socket->write(out);
        if (!r || (isTerminal(r->state) && !service_->isActive(id))) {
            socket->write("event: end\ndata: " +
                          QJsonDocument(r ? clientRunJson(ws_, *r) : QJsonObject()).toJson(QJsonDocument::Compact) +
                          "\n\n");
            timer->stop();
            socket->disconnectFromHost();
        }
    };
    connect(timer, &QTimer::timeout, socket, tick);
    timer->start(250);
    tick();
    Reply reply;
    reply.streamed = true;
    return reply;
}

RestServer::Reply RestServer::listSweeps(const Request &) {
    sweep::SweepStore store(ws_);
    QJsonArray a;
    for (const sweep::SweepRow &row : store.sweeps())
        a.append(sweep::sweepSummaryJson(row, int(store.trials(row.id).size())));
    return jsonReply({{QStringLiteral("sweeps"), a}});
}

RestServer::Reply RestServer::createSweep(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    QString problem;
    QJsonObject config = body.value(QStringLiteral("config")).toObject();
    if (!confineDataPaths(ws_, config, nullptr, &problem))
        return errorReply(400, QStringLiteral("path_not_allowed"), problem);
    if (body.contains(QStringLiteral("config"))) body.insert(QStringLiteral("config"), config);
    const auto definition = sweep::SweepDefinition::fromJson(body, ws_.path(), &problem);
    if (!definition) return errorReply(400, QStringLiteral("bad_request"), problem);
    if (!definition->isLocal() && !ClusterStore(ws_).profile(definition->target))
        return errorReply(400, QStringLiteral("unknown_target"),
                          tr("no target \"%1\": GET /api/v1/clusters lists them").arg(definition->target));
    sweep::SweepController *controller = service_->startSweep(*definition);
    if (!controller) return errorReply(400, QStringLiteral("bad_request"), service_->errorString());
    sweep::SweepStore store(ws_);
    const auto row = store.sweep(controller->sweepId());
    if (!row) return errorReply(500, QStringLiteral("internal"), store.errorString());
    return jsonReply(clientSweepJson(ws_, *row, store.trials(row->id)), 201);
}

RestServer::Reply RestServer::getSweep(const Request &req) {
    const qint64 id = req.ids.value(0);
    sweep::SweepStore store(ws_);
    const auto row = store.sweep(id);
    if (!row) return errorReply(404, QStringLiteral("not_found"), tr("no sweep %1").arg(id));
    return jsonReply(clientSweepJson(ws_, *row, store.trials(id)));
}

namespace {

/// pause / resume / stop of a sweep through the service: 202 with the sweep, 404, or 409 when refused.
RestServer::Reply sweepControl(Workspace &ws, qint64 id, const std::function<bool()> &action,
                               const std::function<QString()> &error) {
    sweep::SweepStore store(ws);
    if (!store.sweep(id)) return errorReply(404, QStringLiteral("not_found"), tr("no sweep %1").arg(id));
    if (!action()) return errorReply(409, QStringLiteral("conflict"), error());
    const auto row = store.sweep(id);
    return jsonReply(clientSweepJson(ws, *row, store.trials(id)), 202);
}

} // namespace

RestServer::Reply RestServer::pauseSweep(const Request &req) {
    const qint64 id = req.ids.value(0);
    return sweepControl(
        ws_, id, [&] { return service_->pauseSweep(id); }, [&] { return service_->errorString(); });
}

RestServer::Reply RestServer::resumeSweep(const Request &req) {
    const qint64 id = req.ids.value(0);
    return sweepControl(
        ws_, id, [&] { return service_->continueSweep(id); }, [&] { return service_->errorString(); });
}

RestServer::Reply RestServer::stopSweep(const Request &req) {
    const qint64 id = req.ids.value(0);
    return sweepControl(
        ws_, id, [&] { return service_->stopSweep(id); }, [&] { return service_->errorString(); });
}

RestServer::Reply RestServer::clusterStatus(const Request &req) {
    return deferred(req.socket, [](Workspace &ws) {
        QElapsedTimer clock;
        clock.start();
        ClusterStore store(ws);
        const QList<remote::ClusterProfile> profiles = store.profiles();
        if (!store.errorString().isEmpty()) return errorReply(500, QStringLiteral("internal"), store.errorString());
        QJsonArray a;
        for (const ClusterStatusEntry &e : readAllClusterStatus(profiles, 20000))
            a.append(e.toJson());
        return jsonReply({{QStringLiteral("clusters"), a}, {QStringLiteral("refresh_s"), clock.elapsed() / 1000.0}});
    });
}

RestServer::Reply RestServer::listClusters(const Request &) {
    QJsonArray a;
    for (const remote::ClusterProfile &p : ClusterStore(ws_).profiles())
        a.append(p.toJson());
    return jsonReply({{QStringLiteral("clusters"), a}});
}

} // namespace diamond::app::rest
