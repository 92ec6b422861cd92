// Handlers of the projects, specs, runs, sweeps and clusters routes (see rest_server.h, docs/rest-api.md).
#include "rest_server.h"

#include "app/run_manager.h"
#include "app/run_store.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"

#include <QCoreApplication>
#include <QHttpServerRequest>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTimer>
#include <QUrlQuery>
#include <QVariant>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

QString splitName(MetricSplit s) {
    return s == MetricSplit::Validation ? QStringLiteral("val") : QStringLiteral("train");
}

QJsonObject pointJson(const MetricPoint &p) {
    return {{QStringLiteral("step"), p.step},
            {QStringLiteral("name"), p.name},
            {QStringLiteral("split"), splitName(p.split)},
            {QStringLiteral("value"), p.value},
            {QStringLiteral("wall"), p.wall}};
}

QJsonObject runJson(const Run &r) {
    QJsonObject o{{QStringLiteral("id"), r.id},
                  {QStringLiteral("project_id"), r.projectId},
                  {QStringLiteral("name"), r.name},
                  {QStringLiteral("state"), runStateName(r.state)},
                  {QStringLiteral("target"), r.target},
                  {QStringLiteral("created_at"), r.createdAt},
                  {QStringLiteral("started_at"), r.startedAt},
                  {QStringLiteral("finished_at"), r.finishedAt},
                  {QStringLiteral("exit_code"), r.exitCode ? QJsonValue(*r.exitCode) : QJsonValue()},
                  {QStringLiteral("exit_message"), r.exitMessage},
                  {QStringLiteral("final_metrics"), r.finalMetrics},
                  {QStringLiteral("weights_sha256"), r.weightsHash},
                  {QStringLiteral("config"), r.config}};
    if (r.architectureVersionId > 0) o.insert(QStringLiteral("architecture_version_id"), r.architectureVersionId);
    return o;
}

/// The request body as a JSON object, or an error reply in *error.
bool jsonBody(const RestServer::Request &req, QJsonObject *out, RestServer::Reply *error) {
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(req.http.body(), &e);
    if (!doc.isObject()) {
        *error = errorReply(400, QStringLiteral("invalid_json"),
                            tr("the request body must be a JSON object: %1").arg(e.errorString()));
        return false;
    }
    *out = doc.object();
    return true;
}

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

QList<MetricPoint> pointsOf(Workspace &ws, qint64 runId, qint64 sinceStep) {
    QList<MetricPoint> out;
    QSqlQuery q(ws.database());
    q.prepare(QStringLiteral("SELECT p.step, n.name, p.split, p.value, p.wall FROM metric_points p"
                             " JOIN metric_names n ON n.id = p.name_id WHERE p.run_id = ? AND p.step > ?"
                             " ORDER BY p.step, p.split, n.name"));
    q.addBindValue(runId);
    q.addBindValue(sinceStep);
    if (!q.exec()) return out;
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toString(), static_cast<MetricSplit>(q.value(2).toInt()),
                    q.value(3).toDouble(), q.value(4).toDouble()});
    return out;
}

bool isTerminal(RunState s) {
    return s == RunState::Finished || s == RunState::Failed || s == RunState::Cancelled || s == RunState::Preempted;
}

} // namespace

RestServer::Reply RestServer::getOpenApi(const Request &) { return jsonReply(openApiDocument()); }

RestServer::Reply RestServer::listProjects(const Request &) {
    RunStore store(ws_);
    QJsonArray a;
    for (const Project &p : store.projects())
        a.append(QJsonObject{{QStringLiteral("id"), p.id},
                             {QStringLiteral("name"), p.name},
                             {QStringLiteral("description"), p.description},
                             {QStringLiteral("created_at"), p.createdAt},
                             {QStringLiteral("run_count"), p.runCount}});
    return jsonReply({{QStringLiteral("projects"), a}});
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
    const QByteArray text = req.http.body();
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
    const QByteArray text = req.http.body();
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
    const qint64 project = QUrlQuery(req.http.url()).queryItemValue(QStringLiteral("project")).toLongLong();
    QJsonArray a;
    for (const Run &r : store.runs(project))
        a.append(runJson(r));
    return jsonReply({{QStringLiteral("runs"), a}});
}

RestServer::Reply RestServer::createRun(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    const QJsonObject specObject = body.value(QStringLiteral("spec")).toObject();
    const QJsonObject config = body.value(QStringLiteral("config")).toObject();
    if (specObject.isEmpty() || config.isEmpty())
        return errorReply(400, QStringLiteral("bad_request"),
                          tr("\"spec\" and \"config\" (JSON objects) are required"));
    const QByteArray specText = QJsonDocument(specObject).toJson(QJsonDocument::Compact);
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specText.constData(), specText.size()));
    if (!parsed.ok() || !spec::analyze(parsed.spec).ok())
        return errorReply(422, QStringLiteral("invalid_spec"),
                          tr("the spec is not valid; POST it to /api/v1/specs/validate for the diagnostics"));
    RunStore store(ws_);
    const QString projectName = body.value(QStringLiteral("project")).toString(QStringLiteral("Default"));
    auto project = store.projectByName(projectName);
    if (!project) project = store.createProject(projectName);
    if (!project) return errorReply(400, QStringLiteral("bad_request"), store.errorString());
    QString archName = specObject.value(QStringLiteral("name")).toString();
    if (archName.isEmpty()) archName = QStringLiteral("network");
    const auto archId = store.ensureArchitecture(project->id, archName);
    const auto version = archId ? store.addArchitectureVersion(*archId, specObject) : std::nullopt;
    if (!version) return errorReply(500, QStringLiteral("internal"), store.errorString());
    const auto run =
        store.createRun(project->id, version->id, body.value(QStringLiteral("name")).toString(archName), config);
    if (!run) return errorReply(500, QStringLiteral("internal"), store.errorString());
    if (body.value(QStringLiteral("start")).toBool(true) && !manager_->startRun(run->id))
        return errorReply(502, QStringLiteral("engine_start_failed"), manager_->errorString());
    return jsonReply(runJson(*store.run(run->id)), 201);
}

RestServer::Reply RestServer::getRun(const Request &req) {
    RunStore store(ws_);
    const auto run = store.run(req.ids.value(0));
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(req.ids.value(0)));
    return jsonReply(runJson(*run));
}

RestServer::Reply RestServer::cancelRun(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (!RunStore(ws_).run(id)) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    if (!manager_->isActive(id)) manager_->reattach();
    if (!manager_->cancel(id)) return errorReply(409, QStringLiteral("conflict"), manager_->errorString());
    return jsonReply(runJson(*RunStore(ws_).run(id)), 202);
}

RestServer::Reply RestServer::resumeRun(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (!RunStore(ws_).run(id)) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    if (!manager_->resume(id)) return errorReply(409, QStringLiteral("conflict"), manager_->errorString());
    return jsonReply(runJson(*RunStore(ws_).run(id)), 202);
}

RestServer::Reply RestServer::runMetrics(const Request &req) {
    const qint64 id = req.ids.value(0);
    if (!RunStore(ws_).run(id)) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    const QUrlQuery query(req.http.url());
    const qint64 since = query.hasQueryItem(QStringLiteral("since_step"))
                             ? query.queryItemValue(QStringLiteral("since_step")).toLongLong()
                             : -1;
    const QString name = query.queryItemValue(QStringLiteral("name"));
    QJsonArray a;
    for (const MetricPoint &p : pointsOf(ws_, id, since))
        if (name.isEmpty() || p.name == name) a.append(pointJson(p));
    return jsonReply({{QStringLiteral("run"), id}, {QStringLiteral("points"), a}});
}

RestServer::Reply RestServer::liveMetrics(const Request &req) {
    const qint64 id = req.ids.value(0);
    const auto run = RunStore(ws_).run(id);
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(id));
    if (run->state == RunState::Running && !manager_->isActive(id)) manager_->reattach();
    QPointer<QTcpSocket> socket = req.socket;
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
        for (const MetricPoint &p : pointsOf(ws_, id, state->minStep)) {
            const QString key = splitName(p.split) + QLatin1Char('/') + p.name;
            if (p.step <= state->sent.value(key, -1)) continue;
            state->sent.insert(key, p.step);
            out += "id: " + QByteArray::number(p.step) +
                   "\nevent: metric\ndata: " + QJsonDocument(pointJson(p)).toJson(QJsonDocument::Compact) + "\n\n";
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
        if (!r || (isTerminal(r->state) && !manager_->isActive(id))) {
            socket->write("event: end\ndata: " +
                          QJsonDocument(r ? runJson(*r) : QJsonObject()).toJson(QJsonDocument::Compact) + "\n\n");
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
    QSqlQuery q(ws_.database());
    QJsonArray a;
    if (!q.exec(QStringLiteral("SELECT s.id, s.project_id, s.name, s.strategy, s.objective, s.state, s.created_at,"
                               " (SELECT count(*) FROM trials t WHERE t.sweep_id = s.id) FROM sweeps s ORDER BY s.id")))
        return errorReply(500, QStringLiteral("internal"), tr("cannot read the sweeps"));
    while (q.next())
        a.append(QJsonObject{{QStringLiteral("id"), q.value(0).toLongLong()},
                             {QStringLiteral("project_id"), q.value(1).toLongLong()},
                             {QStringLiteral("name"), q.value(2).toString()},
                             {QStringLiteral("strategy"), q.value(3).toString()},
                             {QStringLiteral("objective"), q.value(4).toString()},
                             {QStringLiteral("state"), q.value(5).toString()},
                             {QStringLiteral("created_at"), q.value(6).toString()},
                             {QStringLiteral("trials"), q.value(7).toInt()}});
    return jsonReply({{QStringLiteral("sweeps"), a}});
}

RestServer::Reply RestServer::getSweep(const Request &req) {
    const qint64 id = req.ids.value(0);
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT id, project_id, name, strategy, objective, state, created_at, space_json,"
                             " config_json, state_json FROM sweeps WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next()) return errorReply(404, QStringLiteral("not_found"), tr("no sweep %1").arg(id));
    auto json = [&](int i) { return QJsonDocument::fromJson(q.value(i).toString().toUtf8()).object(); };
    QJsonObject doc{{QStringLiteral("id"), q.value(0).toLongLong()},
                    {QStringLiteral("project_id"), q.value(1).toLongLong()},
                    {QStringLiteral("name"), q.value(2).toString()},
                    {QStringLiteral("strategy"), q.value(3).toString()},
                    {QStringLiteral("objective"), q.value(4).toString()},
                    {QStringLiteral("state"), q.value(5).toString()},
                    {QStringLiteral("created_at"), q.value(6).toString()},
                    {QStringLiteral("space"), json(7)},
                    {QStringLiteral("config"), json(8)},
                    {QStringLiteral("progress"), json(9)}};
    QSqlQuery t(ws_.database());
    t.prepare(QStringLiteral("SELECT trial_index, run_id, state, objective_value, params_json FROM trials"
                             " WHERE sweep_id = ? ORDER BY trial_index"));
    t.addBindValue(id);
    QJsonArray trials;
    if (t.exec())
        while (t.next())
            trials.append(QJsonObject{
                {QStringLiteral("index"), t.value(0).toInt()},
                {QStringLiteral("run_id"), t.value(1).isNull() ? QJsonValue() : QJsonValue(t.value(1).toLongLong())},
                {QStringLiteral("state"), t.value(2).toString()},
                {QStringLiteral("objective_value"),
                 t.value(3).isNull() ? QJsonValue() : QJsonValue(t.value(3).toDouble())},
                {QStringLiteral("params"), QJsonDocument::fromJson(t.value(4).toString().toUtf8()).object()}});
    doc.insert(QStringLiteral("trials"), trials);
    return jsonReply(doc);
}

RestServer::Reply RestServer::listClusters(const Request &) {
    QSqlQuery q(ws_.database());
    QJsonArray a;
    if (!q.exec(QStringLiteral("SELECT id, name, host, port, username, scheduler, created_at, updated_at"
                               " FROM cluster_profiles ORDER BY name")))
        return errorReply(500, QStringLiteral("internal"), tr("cannot read the cluster profiles"));
    while (q.next())
        a.append(QJsonObject{{QStringLiteral("id"), q.value(0).toLongLong()},
                             {QStringLiteral("name"), q.value(1).toString()},
                             {QStringLiteral("host"), q.value(2).toString()},
                             {QStringLiteral("port"), q.value(3).toInt()},
                             {QStringLiteral("user"), q.value(4).toString()},
                             {QStringLiteral("scheduler"), q.value(5).toString()},
                             {QStringLiteral("created_at"), q.value(6).toString()},
                             {QStringLiteral("updated_at"), q.value(7).toString()}});
    return jsonReply({{QStringLiteral("clusters"), a}});
}

} // namespace diamond::app::rest
