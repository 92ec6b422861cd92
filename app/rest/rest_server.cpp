#include "rest_server.h"

#include "app/run/executor.h"
#include "app/run/run_service.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDevice>
#include <QFutureWatcher>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <QtConcurrent/QtConcurrentRun>
#include <memory>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

bool constantTimeEquals(const QByteArray &a, const QByteArray &b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

RestServer::Reply errorReply(int status, const QString &code, const QString &message) {
    RestServer::Reply r;
    r.status = status;
    r.body = HttpServer::errorBody(code.toLatin1(), message);
    return r;
}

RestServer::Reply jsonReply(const QJsonObject &doc, int status) {
    RestServer::Reply r;
    r.status = status;
    r.body = QJsonDocument(doc).toJson(QJsonDocument::Compact);
    return r;
}

QString ensureToken(const QString &folder, QString *error) {
    QFile f(QDir(folder).filePath(QStringLiteral("rest-token")));
    if (f.exists()) {
        const QFileDevice::Permissions others =
            QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
        if (f.permissions() & others) {
            *error = tr("%1 is readable by other users; run chmod 600 on it").arg(f.fileName());
            return {};
        }
        if (!f.open(QIODevice::ReadOnly))
            return *error = tr("cannot read %1: %2").arg(f.fileName(), f.errorString()), QString();
        const QString token = QString::fromLatin1(f.readAll().trimmed());
        if (token.size() < 32)
            return *error = tr("%1 holds no valid token; delete it to make a new one").arg(f.fileName()), QString();
        return token;
    }
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly))
        return *error = tr("cannot create %1: %2").arg(f.fileName(), f.errorString()), QString();
    // Permissions first, secret second: the token is never in a file others could read.
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    const QByteArray token = newBearerToken().toLatin1();
    if (f.write(token + '\n') != token.size() + 1 || !f.flush())
        return *error = tr("cannot write %1: %2").arg(f.fileName(), f.errorString()), QString();
    return QString::fromLatin1(token);
}

namespace {

// The roles a route allows (RestServer::RouteInfo::roles).
enum RoleMask : unsigned { kStudents = 1, kInstructors = 2, kAdmins = 4, kStaff = 6, kEveryone = 7 };

unsigned maskOf(Role role) {
    switch (role) {
    case Role::Student: return kStudents;
    case Role::Instructor: return kInstructors;
    case Role::Admin: return kAdmins;
    }
    return 0;
}

} // namespace

struct RestServer::Route {
    QByteArray method;
    QString path;
    QRegularExpression pattern;
    Handler handler;
    unsigned roles;
};

const QList<RestServer::Route> &RestServer::routes() {
    static const QList<Route> table = [] {
        const QList<std::tuple<const char *, const char *, Handler, unsigned>> spec{
            {"GET", "/api/v1/openapi.json", &RestServer::getOpenApi, kEveryone},
            {"GET", "/api/v1/me", &RestServer::whoAmI, kEveryone},
            {"GET", "/api/v1/projects", &RestServer::listProjects, kEveryone},
            {"POST", "/api/v1/projects", &RestServer::createProject, kStaff},
            {"GET", "/api/v1/projects/{id}/leaderboard", &RestServer::getLeaderboard, kStaff},
            {"POST", "/api/v1/specs/validate", &RestServer::validateSpec, kEveryone},
            {"POST", "/api/v1/specs/info", &RestServer::specInfo, kEveryone},
            {"POST", "/api/v1/plans", &RestServer::planRun, kEveryone},
            {"GET", "/api/v1/runs", &RestServer::listRuns, kEveryone},
            {"POST", "/api/v1/runs", &RestServer::createRun, kEveryone},
            {"GET", "/api/v1/runs/{id}", &RestServer::getRun, kEveryone},
            {"POST", "/api/v1/runs/{id}/cancel", &RestServer::cancelRun, kEveryone},
            {"POST", "/api/v1/runs/{id}/resume", &RestServer::resumeRun, kEveryone},
            {"POST", "/api/v1/runs/{id}/move", &RestServer::moveRun, kStaff},
            {"GET", "/api/v1/runs/{id}/metrics", &RestServer::runMetrics, kEveryone},
            {"GET", "/api/v1/runs/{id}/metrics/live", &RestServer::liveMetrics, kEveryone},
            {"GET", "/api/v1/runs/{id}/events", &RestServer::runEvents, kEveryone},
            {"POST", "/api/v1/runs/{id}/publish", &RestServer::publishRun, kEveryone},
            {"GET", "/api/v1/sweeps", &RestServer::listSweeps, kEveryone},
            {"POST", "/api/v1/sweeps", &RestServer::createSweep, kStaff},
            {"GET", "/api/v1/sweeps/{id}", &RestServer::getSweep, kEveryone},
            {"POST", "/api/v1/sweeps/{id}/pause", &RestServer::pauseSweep, kStaff},
            {"POST", "/api/v1/sweeps/{id}/resume", &RestServer::resumeSweep, kStaff},
            {"POST", "/api/v1/sweeps/{id}/stop", &RestServer::stopSweep, kStaff},
            {"GET", "/api/v1/gallery", &RestServer::searchGallery, kEveryone},
            {"POST", "/api/v1/gallery", &RestServer::uploadPackage, kEveryone},
            {"GET", "/api/v1/gallery/{id}", &RestServer::getGalleryEntry, kEveryone},
            {"GET", "/api/v1/gallery/{id}/package", &RestServer::downloadPackage, kEveryone},
            {"GET", "/api/v1/gallery/{id}/thumbnail", &RestServer::galleryThumbnail, kEveryone},
            {"GET", "/api/v1/clusters", &RestServer::listClusters, kEveryone},
            {"GET", "/api/v1/clusters/status", &RestServer::clusterStatus, kStaff},
            {"GET", "/api/v1/datasets", &RestServer::listDatasets, kEveryone},
            {"POST", "/api/v1/datasets", &RestServer::uploadDataset, kStaff},
            {"GET", "/api/v1/datasets/{name}", &RestServer::getDataset, kEveryone},
            {"DELETE", "/api/v1/datasets/{name}", &RestServer::removeDataset, kStaff},
            {"GET", "/api/v1/datasets/{name}/versions", &RestServer::datasetVersions, kEveryone},
            {"POST", "/api/v1/datasets/{name}/stage", &RestServer::stageDataset, kStaff},
            {"POST", "/api/v1/datasets/{name}/unstage", &RestServer::unstageDataset, kStaff},
            {"POST", "/api/v1/clusters/{name}/dataset-cache/clean", &RestServer::cleanDatasetCache, kStaff},
            {"POST", "/api/v1/clusters/{name}/deploy", &RestServer::deployClusterEngine, kAdmins},
            {"GET", "/api/v1/users", &RestServer::listUsers, kAdmins},
            {"POST", "/api/v1/users", &RestServer::createUser, kAdmins},
            {"PATCH", "/api/v1/users/{name}", &RestServer::updateUser, kAdmins},
            {"DELETE", "/api/v1/users/{name}", &RestServer::removeUser, kAdmins},
            {"POST", "/api/v1/users/{name}/token", &RestServer::renewUserToken, kAdmins},
        };
        QList<Route> out;
        for (const auto &[method, path, handler, roles] : spec) {
            QString re = QRegularExpression::escape(QString::fromLatin1(path));
            re.replace(QStringLiteral("\\{id\\}"), QStringLiteral("([1-9][0-9]{0,17})"));
            re.replace(QStringLiteral("\\{name\\}"), QStringLiteral("([A-Za-z0-9][A-Za-z0-9._-]{0,63})"));
            out.append(Route{QByteArray(method), QString::fromLatin1(path),
                             QRegularExpression(QLatin1Char('^') + re + QLatin1Char('$')), handler, roles});
        }
        return out;
    }();
    return table;
}

QList<RestServer::RouteInfo> RestServer::routeTable() {
    QList<RouteInfo> out;
    for (const Route &r : routes()) {
        RouteInfo info{r.method, r.path, {}};
        for (Role role : {Role::Student, Role::Instructor, Role::Admin})
            if (r.roles & maskOf(role)) info.roles.append(role);
        out.append(info);
    }
    return out;
}

RestServer::RestServer(Workspace &workspace, const Options &options, QObject *parent)
    : QObject(parent), ws_(workspace), options_(options) {
    service_ = new RunService(ws_, this);
}

RestServer::~RestServer() = default;

bool RestServer::start() {
    HttpServer::Limits limits;
    limits.maxBodyBytes = options_.maxBodyBytes;
    limits.maxUploadBytes = options_.maxUploadBytes;
    limits.headerTimeoutMs = options_.headerTimeoutMs;
    limits.idleTimeoutMs = options_.idleTimeoutMs;
    auto *http = new HttpServer(limits, this);
    http->setAuthorizer([this](const HttpRequest &request) { return authorize(request); });
    const QString uploads = QDir(ws_.path()).filePath(QStringLiteral("gallery/tmp"));
    const QString dataUploads = QDir(ws_.path()).filePath(QStringLiteral("datasets/tmp"));
    http->setBodyToFile([uploads, dataUploads](const HttpRequest &request) {
        if (request.method != "POST") return QString();
        if (request.url.path() == QLatin1String("/api/v1/gallery")) return uploads;
        if (request.url.path() == QLatin1String("/api/v1/datasets")) return dataUploads;
        return QString();
    });
    http->setHandler([this](HttpRequest &request, QTcpSocket *socket) { handleRequest(request, socket); });
    if (!http->listen(options_.address, options_.port)) {
        error_ = tr("cannot listen on %1:%2: %3")
                     .arg(options_.address.toString())
                     .arg(options_.port)
                     .arg(http->errorString());
        delete http;
        return false;
    }
    http_ = http;
    port_ = http->port();
    // Hour quotas hold for running runs too, not only when a run starts.
    auto *quotaTimer = new QTimer(this);
    connect(quotaTimer, &QTimer::timeout, this, &RestServer::enforceQuotas);
    quotaTimer->start(options_.quotaCheckMs);
    service_->followAll();
    return true;
}

std::optional<RestServer::Caller> RestServer::callerOf(const HttpRequest &request) const {
    const QByteArray auth = request.value("authorization");
    const QByteArray expected = "Bearer " + options_.token.toLatin1();
    if (!options_.token.isEmpty() && constantTimeEquals(auth, expected)) {
        Caller owner;
        owner.owner = true;
        owner.user.name = QStringLiteral("owner");
        owner.user.role = Role::Admin;
        owner.user.canPublish = true;
        return owner;
    }
    if (!auth.startsWith("Bearer ")) return std::nullopt;
    const auto user = UserStore(ws_).userForToken(QString::fromLatin1(auth.mid(7).trimmed()));
    if (!user) return std::nullopt;
    Caller caller;
    caller.user = *user;
    return caller;
}

HttpServer::Refusal RestServer::authorize(const HttpRequest &request) const {
    if (callerOf(request)) return {};
    const QByteArray auth = request.value("authorization");
    HttpServer::Refusal r;
    r.status = 401;
    r.code = "unauthorized";
    r.message = auth.isEmpty() ? tr("this API needs an \"Authorization: Bearer TOKEN\" header "
                                    "(diamondctl serve --print-token)")
                               : tr("the bearer token is wrong");
    r.headers.append(qMakePair(QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"diamond\"")));
    return r;
}

void RestServer::send(QTcpSocket *socket, const Reply &reply) {
    if (!socket || reply.streamed) return;
    if (reply.filePath.isEmpty()) {
        socket->write(
            HttpServer::responseHead(reply.status, reply.contentType, reply.body.size(), reply.headers, false) +
            reply.body);
        HttpServer::finish(socket);
        return;
    }
    auto *file = new QFile(reply.filePath, socket);
    if (!file->open(QIODevice::ReadOnly)) {
        delete file;
        const Reply e = errorReply(500, QStringLiteral("internal"), tr("cannot read the package file"));
        socket->write(HttpServer::responseHead(e.status, e.contentType, e.body.size(), {}, false) + e.body);
        HttpServer::finish(socket);
        return;
    }
    socket->write(HttpServer::responseHead(reply.status, reply.contentType, file->size(), reply.headers, false));
    // Feed the file in 1 MiB pieces as the socket drains, so large packages are never held in memory; the next
    // request of the connection is read once the whole file is out.
    QPointer<QTcpSocket> target = socket;
    auto pump = [target, file] {
        while (target && target->bytesToWrite() < (4 << 20) && !file->atEnd()) {
            const QByteArray chunk = file->read(1 << 20);
            if (chunk.isEmpty()) break;
            target->write(chunk);
        }
        if (file->atEnd()) {
            file->close();
            file->deleteLater();
            HttpServer::finish(target);
        }
    };
    connect(socket, &QTcpSocket::bytesWritten, file, pump);
    pump();
}

RestServer::Reply RestServer::deferred(QTcpSocket *socket, std::function<Reply(Workspace &)> work) {
    QPointer<QTcpSocket> target = socket;
    auto *watcher = new QFutureWatcher<Reply>(this);
    connect(watcher, &QFutureWatcher<Reply>::finished, this, [this, target, watcher] {
        if (target) send(target, watcher->result());
        watcher->deleteLater();
    });
    const QString folder = ws_.path();
    watcher->setFuture(QtConcurrent::run([folder, work = std::move(work)] {
        Workspace ws;
        if (!ws.open(folder)) return errorReply(500, QStringLiteral("internal"), ws.errorString());
        return work(ws);
    }));
    Reply r;
    r.streamed = true;
    return r;
}

void RestServer::handleRequest(HttpRequest &request, QTcpSocket *socket) {
    const QString path = request.url.path();
    bool pathMatched = false;
    for (const Route &route : routes()) {
        const auto m = route.pattern.match(path);
        if (!m.hasMatch()) continue;
        pathMatched = true;
        if (route.method != request.method) continue;
        const std::optional<Caller> caller = callerOf(request);
        if (!caller) { // removed or renewed since the headers were checked
            send(socket, errorReply(401, QStringLiteral("unauthorized"), tr("the bearer token is wrong")));
            return;
        }
        if (!(route.roles & maskOf(caller->user.role))) {
            QStringList allowed;
            for (Role role : {Role::Student, Role::Instructor, Role::Admin})
                if (route.roles & maskOf(role)) allowed.append(roleName(role));
            send(socket, errorReply(403, QStringLiteral("forbidden"),
                                    tr("%1 %2 is for the roles %3; %4 has the role %5")
                                        .arg(QString::fromLatin1(request.method), route.path,
                                             allowed.join(QStringLiteral(", ")), caller->user.name,
                                             roleName(caller->user.role))));
            return;
        }
        Request r{request, *caller, socket, {}, {}};
        for (int i = 1; i <= m.lastCapturedIndex(); ++i) {
            if (route.path.contains(QLatin1String("{name}")))
                r.names.append(m.captured(i));
            else
                r.ids.append(m.captured(i).toLongLong());
        }
        send(socket, (this->*route.handler)(r));
        return;
    }
    if (pathMatched)
        send(socket, errorReply(405, QStringLiteral("method_not_allowed"),
                                tr("%1 is not allowed on %2").arg(QString::fromLatin1(request.method), path)));
    else
        send(socket, errorReply(404, QStringLiteral("route_not_found"), tr("no API route %1").arg(path)));
}

} // namespace diamond::app::rest
