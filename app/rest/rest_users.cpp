// Handlers of the users routes and the per-user checks of the run routes (see rest_server.h, user_store.h,
// docs/rest-api.md "Users and roles").
#include "rest_server.h"

#include "app/rest/user_store.h"
#include "app/run/compute_usage.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

/// Reads "role", "can_publish", "max_active_runs", "cpu_hours_quota" and "gpu_hours_quota" (null: no limit) of a
/// users request body over *u; an error reply when one has the wrong type or value.
std::optional<RestServer::Reply> readUserFields(const QJsonObject &body, User *u) {
    if (body.contains(QStringLiteral("role"))) {
        const auto r = roleFromName(body.value(QStringLiteral("role")).toString());
        if (!r)
            return errorReply(400, QStringLiteral("bad_request"), tr("\"role\" must be student, instructor or admin"));
        u->role = *r;
    }
    if (body.contains(QStringLiteral("can_publish"))) {
        if (!body.value(QStringLiteral("can_publish")).isBool())
            return errorReply(400, QStringLiteral("bad_request"), tr("\"can_publish\" must be true or false"));
        u->canPublish = body.value(QStringLiteral("can_publish")).toBool();
    }
    if (body.contains(QStringLiteral("max_active_runs"))) {
        const QJsonValue v = body.value(QStringLiteral("max_active_runs"));
        if (!v.isDouble() || v.toDouble() != double(v.toInt()) || v.toInt() < 0 || v.toInt() > 10000)
            return errorReply(400, QStringLiteral("bad_request"),
                              tr("\"max_active_runs\" must be a whole number from 0 to 10000"));
        u->maxActiveRuns = v.toInt();
    }
    for (const auto &[key, quota] : {std::pair(QStringLiteral("cpu_hours_quota"), &u->cpuHourQuota),
                                     std::pair(QStringLiteral("gpu_hours_quota"), &u->gpuHourQuota)}) {
        if (!body.contains(key)) continue;
        const QJsonValue v = body.value(key);
        if (v.isNull()) {
            *quota = std::nullopt;
            continue;
        }
        if (!v.isDouble() || !(v.toDouble() >= 0 && v.toDouble() <= 1e6))
            return errorReply(400, QStringLiteral("bad_request"),
                              tr("\"%1\" must be a number of hours from 0 to 1000000, or null for no limit").arg(key));
        *quota = v.toDouble();
    }
    return std::nullopt;
}

/// userJson with what the user's runs have used so far ("usage": {cpu_hours, gpu_hours, running_hours}).
QJsonObject userWithUsage(const User &u, const ComputeUsage &usage) {
    QJsonObject o = userJson(u);
    o.insert(QStringLiteral("usage"), computeUsageJson(usage));
    return o;
}

bool isActiveState(RunState s) { return s == RunState::Queued || s == RunState::Running || s == RunState::Resumed; }

} // namespace

std::optional<RestServer::Reply> RestServer::refuseRunAccess(const Request &req, qint64 runId) {
    const auto run = RunStore(ws_).run(runId);
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(runId));
    if (!req.caller.mayActOn(run->owner))
        return errorReply(403, QStringLiteral("forbidden"),
                          tr("run %1 belongs to another user; students see their own runs").arg(runId));
    return std::nullopt;
}

std::optional<RestServer::Reply> RestServer::refuseOverQuota(const Request &req, bool gpu) {
    if (req.caller.owner || req.caller.user.role != Role::Student) return std::nullopt;
    const User &user = req.caller.user;
    RunStore runs(ws_);
    const int active = runs.activeRunCount(user.name);
    if (active < 0) return errorReply(500, QStringLiteral("internal"), tr("cannot count the runs of the user"));
    if (active >= user.maxActiveRuns)
        return errorReply(429, QStringLiteral("quota_exceeded"),
                          tr("%1 has %2 runs queued or running, the most allowed at once; wait for one to end or "
                             "cancel one")
                              .arg(user.name)
                              .arg(active));
    const std::optional<double> quota = gpu ? user.gpuHourQuota : user.cpuHourQuota;
    if (!quota) return std::nullopt;
    const ComputeUsage used = ownerComputeUsage(runs, user.name, QDateTime::currentDateTimeUtc());
    const double hours = gpu ? used.gpuHours : used.cpuHours;
    if (hours < *quota) return std::nullopt;
    return errorReply(429, QStringLiteral("quota_exceeded"),
                      tr("%1 has used %2 of %3 %4 hours; an instructor can raise the quota")
                          .arg(user.name)
                          .arg(hours, 0, 'f', 3)
                          .arg(*quota, 0, 'g', 6)
                          .arg(gpu ? QStringLiteral("GPU") : QStringLiteral("CPU")));
}

int RestServer::enforceQuotas() {
    UserStore users(ws_);
    QList<User> limited;
    for (const User &u : users.users())
        if (u.role == Role::Student && (u.cpuHourQuota || u.gpuHourQuota)) limited << u;
    if (limited.isEmpty()) return 0;
    RunStore runs(ws_);
    const QList<Run> all = runs.runs();
    const QHash<QString, ComputeUsage> usage = computeUsageByOwner(runs, all, QDateTime::currentDateTimeUtc());
    int stopped = 0;
    for (const User &u : std::as_const(limited)) {
        const ComputeUsage used = usage.value(u.name);
        const bool cpuOver = u.cpuHourQuota && used.cpuHours >= *u.cpuHourQuota;
        const bool gpuOver = u.gpuHourQuota && used.gpuHours >= *u.gpuHourQuota;
        if (!cpuOver && !gpuOver) continue;
        for (const Run &r : all) {
            if (r.owner != u.name || !isActiveState(r.state)) continue;
            const bool gpu = runConfigUsesGpu(r.config);
            if (gpu ? !gpuOver : !cpuOver) continue;
            runs.addMessage(r.id, tr("Stopped: %1 has used %2 of %3 %4 hours; an instructor can raise the quota")
                                      .arg(u.name)
                                      .arg(gpu ? used.gpuHours : used.cpuHours, 0, 'f', 4)
                                      .arg(gpu ? *u.gpuHourQuota : *u.cpuHourQuota, 0, 'g', 6)
                                      .arg(gpu ? QStringLiteral("GPU") : QStringLiteral("CPU")));
            if (service_->cancel(r.id))
                ++stopped;
            else
                runs.addMessage(r.id, service_->errorString());
        }
    }
    return stopped;
}

RestServer::Reply RestServer::whoAmI(const Request &req) {
    QJsonObject o = userJson(req.caller.user);
    if (req.caller.owner) {
        o = QJsonObject{{QStringLiteral("name"), req.caller.user.name},
                        {QStringLiteral("role"), roleName(req.caller.user.role)},
                        {QStringLiteral("can_publish"), true}};
    } else {
        RunStore runs(ws_);
        o = userWithUsage(req.caller.user,
                          ownerComputeUsage(runs, req.caller.user.name, QDateTime::currentDateTimeUtc()));
        o.insert(QStringLiteral("active_runs"), RunStore(ws_).activeRunCount(req.caller.user.name));
    }
    o.insert(QStringLiteral("owner"), req.caller.owner);
    return jsonReply(o);
}

RestServer::Reply RestServer::listUsers(const Request &) {
    UserStore store(ws_);
    RunStore runs(ws_);
    // One pass over the runs for every user.
    const QHash<QString, ComputeUsage> usage = computeUsageByOwner(runs, runs.runs(), QDateTime::currentDateTimeUtc());
    QJsonArray a;
    for (const User &u : store.users())
        a.append(userWithUsage(u, usage.value(u.name)));
    if (!store.errorString().isEmpty()) return errorReply(500, QStringLiteral("internal"), store.errorString());
    return jsonReply({{QStringLiteral("users"), a}});
}

RestServer::Reply RestServer::createUser(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    UserStore::NewUser n;
    n.name = body.value(QStringLiteral("name")).toString();
    if (!body.contains(QStringLiteral("role")))
        return errorReply(400, QStringLiteral("bad_request"),
                          tr("\"role\" (student, instructor or admin) is required"));
    User fields;
    if (const auto refused = readUserFields(body, &fields)) return *refused;
    n.role = fields.role;
    n.canPublish = fields.canPublish;
    n.maxActiveRuns = fields.maxActiveRuns;
    n.cpuHourQuota = fields.cpuHourQuota;
    n.gpuHourQuota = fields.gpuHourQuota;
    UserStore store(ws_);
    if (store.user(n.name))
        return errorReply(409, QStringLiteral("conflict"), tr("a user named \"%1\" exists already").arg(n.name));
    const auto token = store.add(n);
    if (!token) return errorReply(400, QStringLiteral("bad_request"), store.errorString());
    QJsonObject o = userJson(*store.user(n.name));
    o.insert(QStringLiteral("token"), *token);
    return jsonReply(o, 201);
}

RestServer::Reply RestServer::updateUser(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    UserStore store(ws_);
    auto user = store.user(req.names.value(0));
    if (!user) return errorReply(404, QStringLiteral("not_found"), store.errorString());
    if (const auto refused = readUserFields(body, &*user)) return *refused;
    if (!store.update(*user)) return errorReply(400, QStringLiteral("bad_request"), store.errorString());
    return jsonReply(userJson(*store.user(user->name)));
}

RestServer::Reply RestServer::removeUser(const Request &req) {
    UserStore store(ws_);
    if (!store.remove(req.names.value(0))) return errorReply(404, QStringLiteral("not_found"), store.errorString());
    return jsonReply({{QStringLiteral("removed"), req.names.value(0)}});
}

RestServer::Reply RestServer::renewUserToken(const Request &req) {
    UserStore store(ws_);
    const auto token = store.renewToken(req.names.value(0));
    if (!token) return errorReply(404, QStringLiteral("not_found"), store.errorString());
    QJsonObject o = userJson(*store.user(req.names.value(0)));
    o.insert(QStringLiteral("token"), *token);
    return jsonReply(o);
}

} // namespace diamond::app::rest
