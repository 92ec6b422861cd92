// Handlers of the users routes and the per-user checks of the run routes (see rest_server.h, user_store.h,
// docs/rest-api.md "Users and roles").
#include "rest_server.h"

#include "app/rest/user_store.h"
#include "app/run/run_store.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

/// Reads "role", "can_publish" and "max_active_runs" of a users request body over *role, *publish, *runs;
/// an error reply when one has the wrong type or value.
std::optional<RestServer::Reply> readUserFields(const QJsonObject &body, Role *role, bool *publish, int *runs) {
    if (body.contains(QStringLiteral("role"))) {
        const auto r = roleFromName(body.value(QStringLiteral("role")).toString());
        if (!r)
            return errorReply(400, QStringLiteral("bad_request"), tr("\"role\" must be student, instructor or admin"));
        *role = *r;
    }
    if (body.contains(QStringLiteral("can_publish"))) {
        if (!body.value(QStringLiteral("can_publish")).isBool())
            return errorReply(400, QStringLiteral("bad_request"), tr("\"can_publish\" must be true or false"));
        *publish = body.value(QStringLiteral("can_publish")).toBool();
    }
    if (body.contains(QStringLiteral("max_active_runs"))) {
        const QJsonValue v = body.value(QStringLiteral("max_active_runs"));
        if (!v.isDouble() || v.toDouble() != double(v.toInt()) || v.toInt() < 0 || v.toInt() > 10000)
            return errorReply(400, QStringLiteral("bad_request"),
                              tr("\"max_active_runs\" must be a whole number from 0 to 10000"));
        *runs = v.toInt();
    }
    return std::nullopt;
}

} // namespace

std::optional<RestServer::Reply> RestServer::refuseRunAccess(const Request &req, qint64 runId) {
    const auto run = RunStore(ws_).run(runId);
    if (!run) return errorReply(404, QStringLiteral("not_found"), tr("no run %1").arg(runId));
    if (!req.caller.mayActOn(run->owner))
        return errorReply(403, QStringLiteral("forbidden"),
                          tr("run %1 belongs to another user; students see their own runs").arg(runId));
    return std::nullopt;
}

std::optional<RestServer::Reply> RestServer::refuseOverQuota(const Request &req) {
    if (req.caller.owner || req.caller.user.role != Role::Student) return std::nullopt;
    const int active = RunStore(ws_).activeRunCount(req.caller.user.name);
    if (active < 0) return errorReply(500, QStringLiteral("internal"), tr("cannot count the runs of the user"));
    if (active < req.caller.user.maxActiveRuns) return std::nullopt;
    return errorReply(429, QStringLiteral("quota_exceeded"),
                      tr("%1 has %2 runs queued or running, the most allowed at once; wait for one to end or "
                         "cancel one")
                          .arg(req.caller.user.name)
                          .arg(active));
}

RestServer::Reply RestServer::whoAmI(const Request &req) {
    QJsonObject o = userJson(req.caller.user);
    if (req.caller.owner) {
        o = QJsonObject{{QStringLiteral("name"), req.caller.user.name},
                        {QStringLiteral("role"), roleName(req.caller.user.role)},
                        {QStringLiteral("can_publish"), true}};
    } else if (req.caller.user.role == Role::Student) {
        o.insert(QStringLiteral("active_runs"), RunStore(ws_).activeRunCount(req.caller.user.name));
    }
    o.insert(QStringLiteral("owner"), req.caller.owner);
    return jsonReply(o);
}

RestServer::Reply RestServer::listUsers(const Request &) {
    UserStore store(ws_);
    QJsonArray a;
    for (const User &u : store.users())
        a.append(userJson(u));
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
    if (const auto refused = readUserFields(body, &n.role, &n.canPublish, &n.maxActiveRuns)) return *refused;
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
    if (const auto refused = readUserFields(body, &user->role, &user->canPublish, &user->maxActiveRuns))
        return *refused;
    if (!store.update(user->name, user->role, user->canPublish, user->maxActiveRuns))
        return errorReply(400, QStringLiteral("bad_request"), store.errorString());
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
