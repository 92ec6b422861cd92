#include "rest_server.h"

#include "app/run/executor.h"
#include "app/run/run_service.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDevice>
#include <QFutureWatcher>
#include <QHttpServerRequest>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <QtConcurrent/QtConcurrentRun>
#include <memory>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }

constexpr qint64 kMaxHeaderBytes = 64 * 1024;
constexpr qint64 kDiscardAfterRefusal = qint64(16) << 20;

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 422: return "Unprocessable Entity";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    default: return "Status";
    }
}

QByteArray responseHead(int status, const QByteArray &contentType, qint64 length,
                        const QList<QPair<QByteArray, QByteArray>> &headers, bool close) {
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    head += "Content-Type: " + contentType + "\r\n";
    if (length >= 0) head += "Content-Length: " + QByteArray::number(length) + "\r\n";
    head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n";
    for (const auto &h : headers)
        head += h.first + ": " + h.second + "\r\n";
    if (close) head += "Connection: close\r\n";
    return head + "\r\n";
}

QByteArray errorBody(const QString &code, const QString &message) {
    return QJsonDocument(QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code},
                                                                           {QStringLiteral("message"), message}}}})
        .toJson(QJsonDocument::Compact);
}

bool constantTimeEquals(const QByteArray &a, const QByteArray &b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

/// Refuses oversize requests before QAbstractHttpServer buffers them (see the header). Its readyRead
/// connection is made before the HTTP server's, so it sees every byte first; QAbstractHttpServer reads all
/// available bytes on each readyRead (Qt 6.4), so the bytes available here are exactly the new ones. A small
/// state machine follows the requests of the connection: header bytes (up to the blank line) are collected
/// and checked, then Content-Length body bytes are counted off, so a request split over many reads is
/// checked as well as one that arrives at once.
class GuardedTcpServer : public QTcpServer {
public:
    GuardedTcpServer(qint64 maxBody, qint64 maxUpload, QObject *parent)
        : QTcpServer(parent), maxBody_(maxBody), maxUpload_(maxUpload) {}

protected:
    void incomingConnection(qintptr handle) override {
        auto *socket = new QTcpSocket(this);
        if (!socket->setSocketDescriptor(handle)) {
            delete socket;
            return;
        }
        auto state = std::make_shared<State>();
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket, state] { guard(socket, *state); });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        addPendingConnection(socket);
    }

private:
    struct State {
        QByteArray head;          ///< header bytes of the request being received
        qint64 bodyRemaining = 0; ///< body bytes of the current request still to come
        bool refused = false;
        qint64 discarded = 0;
    };

    void refuse(QTcpSocket *socket, State &state, int status, const char *code, const QString &message) {
        const QByteArray body = errorBody(QString::fromLatin1(code), message);
        socket->write(responseHead(status, "application/json", body.size(), {}, true) + body);
        socket->flush();
        state.refused = true;
        socket->readAll(); // the HTTP server never sees the refused request
        QTimer::singleShot(5000, socket, [socket] { socket->disconnectFromHost(); });
    }

    void guard(QTcpSocket *socket, State &state) {
        if (state.refused) {
            // Drain what the client still sends (so it can read the answer), up to a bound.
            state.discarded += socket->readAll().size();
            if (state.discarded > kDiscardAfterRefusal) socket->abort();
            return;
        }
        QByteArray pending = socket->peek(socket->bytesAvailable());
        while (!pending.isEmpty() && !state.refused) {
            if (state.bodyRemaining > 0) {
                const qint64 take = qMin<qint64>(state.bodyRemaining, pending.size());
                state.bodyRemaining -= take;
                pending.remove(0, take);
                continue;
            }
            state.head += pending;
            pending.clear();
            const qsizetype end = state.head.indexOf("\r\n\r\n");
            if (end < 0 ? state.head.size() > kMaxHeaderBytes : end > kMaxHeaderBytes)
                return refuse(socket, state, 431, "header_too_large",
                              tr("request headers exceed %1 bytes").arg(kMaxHeaderBytes));
            if (end < 0) return;
            pending = state.head.mid(end + 4);
            const QByteArray head = state.head.left(end);
            state.head.clear();
            checkHead(socket, state, head);
        }
    }

    void checkHead(QTcpSocket *socket, State &state, const QByteArray &head) {
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        qint64 length = 0;
        bool expectContinue = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray &h = lines[i];
            const qsizetype colon = h.indexOf(':');
            if (colon < 0) continue;
            const QByteArray key = h.left(colon).trimmed().toLower();
            const QByteArray value = h.mid(colon + 1).trimmed();
            if (key == "content-length") {
                bool ok = false;
                length = value.toLongLong(&ok);
                if (!ok || length < 0) return refuse(socket, state, 400, "bad_request", tr("invalid Content-Length"));
            } else if (key == "transfer-encoding" && value.toLower() != "identity") {
                return refuse(socket, state, 411, "length_required",
                              tr("chunked request bodies are not accepted; send a Content-Length"));
            } else if (key == "expect" && value.toLower() == "100-continue") {
                expectContinue = true;
            }
        }
        const QString path = QString::fromLatin1(requestLine.value(1)).section(QLatin1Char('?'), 0, 0);
        const bool upload = requestLine.value(0) == "POST" && path == QLatin1String("/api/v1/gallery");
        const qint64 limit = upload ? maxUpload_ : maxBody_;
        if (length > limit)
            return refuse(
                socket, state, 413, "payload_too_large",
                tr("the request body is %1 bytes; the limit for %2 is %3 bytes").arg(length).arg(path).arg(limit));
        state.bodyRemaining = length;
        if (expectContinue) socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }

    qint64 maxBody_, maxUpload_;
};

} // namespace

RestServer::Reply errorReply(int status, const QString &code, const QString &message) {
    RestServer::Reply r;
    r.status = status;
    r.body = errorBody(code, message);
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
    QByteArray random(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(random.data()),
                                         reinterpret_cast<quint32 *>(random.data() + random.size()));
    const QByteArray token = random.toHex();
    if (f.write(token + '\n') != token.size() + 1 || !f.flush())
        return *error = tr("cannot write %1: %2").arg(f.fileName(), f.errorString()), QString();
    return QString::fromLatin1(token);
}

struct RestServer::Route {
    QByteArray method;
    QString path;
    QRegularExpression pattern;
    Handler handler;
};

const QList<RestServer::Route> &RestServer::routes() {
    static const QList<Route> table = [] {
        const QList<std::tuple<const char *, const char *, Handler>> spec{
            {"GET", "/api/v1/openapi.json", &RestServer::getOpenApi},
            {"GET", "/api/v1/projects", &RestServer::listProjects},
            {"POST", "/api/v1/projects", &RestServer::createProject},
            {"POST", "/api/v1/specs/validate", &RestServer::validateSpec},
            {"POST", "/api/v1/specs/info", &RestServer::specInfo},
            {"GET", "/api/v1/runs", &RestServer::listRuns},
            {"POST", "/api/v1/runs", &RestServer::createRun},
            {"GET", "/api/v1/runs/{id}", &RestServer::getRun},
            {"POST", "/api/v1/runs/{id}/cancel", &RestServer::cancelRun},
            {"POST", "/api/v1/runs/{id}/resume", &RestServer::resumeRun},
            {"GET", "/api/v1/runs/{id}/metrics", &RestServer::runMetrics},
            {"GET", "/api/v1/runs/{id}/metrics/live", &RestServer::liveMetrics},
            {"POST", "/api/v1/runs/{id}/publish", &RestServer::publishRun},
            {"GET", "/api/v1/sweeps", &RestServer::listSweeps},
            {"POST", "/api/v1/sweeps", &RestServer::createSweep},
            {"GET", "/api/v1/sweeps/{id}", &RestServer::getSweep},
            {"POST", "/api/v1/sweeps/{id}/pause", &RestServer::pauseSweep},
            {"POST", "/api/v1/sweeps/{id}/resume", &RestServer::resumeSweep},
            {"POST", "/api/v1/sweeps/{id}/stop", &RestServer::stopSweep},
            {"GET", "/api/v1/gallery", &RestServer::searchGallery},
            {"POST", "/api/v1/gallery", &RestServer::uploadPackage},
            {"GET", "/api/v1/gallery/{id}", &RestServer::getGalleryEntry},
            {"GET", "/api/v1/gallery/{id}/package", &RestServer::downloadPackage},
            {"GET", "/api/v1/gallery/{id}/thumbnail", &RestServer::galleryThumbnail},
            {"GET", "/api/v1/clusters", &RestServer::listClusters},
        };
        QList<Route> out;
        for (const auto &[method, path, handler] : spec) {
            QString re = QRegularExpression::escape(QString::fromLatin1(path));
            re.replace(QStringLiteral("\\{id\\}"), QStringLiteral("([1-9][0-9]{0,17})"));
            out.append(Route{QByteArray(method), QString::fromLatin1(path),
                             QRegularExpression(QLatin1Char('^') + re + QLatin1Char('$')), handler});
        }
        return out;
    }();
    return table;
}

QList<RestServer::RouteInfo> RestServer::routeTable() {
    QList<RouteInfo> out;
    for (const Route &r : routes())
        out.append({r.method, r.path});
    return out;
}

RestServer::RestServer(Workspace &workspace, const Options &options, QObject *parent)
    : QAbstractHttpServer(parent), ws_(workspace), options_(options) {
    service_ = new RunService(ws_, this);
}

RestServer::~RestServer() = default;

bool RestServer::start() {
    auto *tcp = new GuardedTcpServer(options_.maxBodyBytes, options_.maxUploadBytes, this);
    if (!tcp->listen(options_.address, options_.port)) {
        error_ = tr("cannot listen on %1:%2: %3")
                     .arg(options_.address.toString())
                     .arg(options_.port)
                     .arg(tcp->errorString());
        delete tcp;
        return false;
    }
    tcp_ = tcp;
    port_ = tcp->serverPort();
    bind(tcp);
    service_->followAll();
    return true;
}

void RestServer::send(QTcpSocket *socket, const Reply &reply) {
    if (!socket || reply.streamed) return;
    if (reply.filePath.isEmpty()) {
        socket->write(responseHead(reply.status, reply.contentType, reply.body.size(), reply.headers, false) +
                      reply.body);
        return;
    }
    auto *file = new QFile(reply.filePath, socket);
    if (!file->open(QIODevice::ReadOnly)) {
        delete file;
        const Reply e = errorReply(500, QStringLiteral("internal"), tr("cannot read the package file"));
        socket->write(responseHead(e.status, e.contentType, e.body.size(), {}, false) + e.body);
        return;
    }
    socket->write(responseHead(reply.status, reply.contentType, file->size(), reply.headers, false));
    // Feed the file in 1 MiB pieces as the socket drains, so large packages are never held in memory.
    auto pump = [socket, file] {
        while (socket->bytesToWrite() < (4 << 20) && !file->atEnd()) {
            const QByteArray chunk = file->read(1 << 20);
            if (chunk.isEmpty()) break;
            socket->write(chunk);
        }
        if (file->atEnd()) file->deleteLater();
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

bool RestServer::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) {
    const QByteArray auth = request.value("authorization");
    const QByteArray expected = "Bearer " + options_.token.toLatin1();
    if (options_.token.isEmpty() || !constantTimeEquals(auth, expected)) {
        Reply r = errorReply(401, QStringLiteral("unauthorized"),
                             auth.isEmpty() ? tr("this API needs an \"Authorization: Bearer TOKEN\" header "
                                                 "(diamondctl serve --print-token)")
                                            : tr("the bearer token is wrong"));
        r.headers.append(qMakePair(QByteArray("WWW-Authenticate"), QByteArray("Bearer realm=\"diamond\"")));
        send(socket, r);
        return true;
    }
    const QString path = request.url().path();
    QByteArray method;
    switch (request.method()) {
    case QHttpServerRequest::Method::Get: method = "GET"; break;
    case QHttpServerRequest::Method::Post: method = "POST"; break;
    case QHttpServerRequest::Method::Put: method = "PUT"; break;
    case QHttpServerRequest::Method::Delete: method = "DELETE"; break;
    case QHttpServerRequest::Method::Patch: method = "PATCH"; break;
    case QHttpServerRequest::Method::Head: method = "HEAD"; break;
    default: method = "OTHER"; break;
    }
    bool pathMatched = false;
    for (const Route &route : routes()) {
        const auto m = route.pattern.match(path);
        if (!m.hasMatch()) continue;
        pathMatched = true;
        if (route.method != method) continue;
        Request r{request, socket, {}};
        for (int i = 1; i <= m.lastCapturedIndex(); ++i)
            r.ids.append(m.captured(i).toLongLong());
        send(socket, (this->*route.handler)(r));
        return true;
    }
    if (pathMatched)
        send(socket, errorReply(405, QStringLiteral("method_not_allowed"),
                                tr("%1 is not allowed on %2").arg(QString::fromLatin1(method), path)));
    else
        send(socket, errorReply(404, QStringLiteral("route_not_found"), tr("no API route %1").arg(path)));
    return true;
}

void RestServer::missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) {
    send(socket, errorReply(404, QStringLiteral("route_not_found"), tr("no API route %1").arg(request.url().path())));
}

} // namespace diamond::app::rest
