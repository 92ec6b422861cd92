#include "app/rest/http_server.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryFile>
#include <QTimer>

#include <memory>

namespace diamond::app::rest {

namespace {

constexpr qint64 kDiscardAfterRefusal = qint64(16) << 20;
constexpr qint64 kSocketReadAhead = qint64(1) << 20;

QByteArray reasonPhrase(int status) {
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    default: return "Status";
    }
}

} // namespace

QByteArray HttpRequest::value(const QByteArray &name) const {
    for (const auto &h : headers)
        if (h.first == name) return h.second;
    return {};
}

QByteArray HttpServer::responseHead(int status, const QByteArray &contentType, qint64 length,
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

QByteArray HttpServer::errorBody(const QByteArray &code, const QString &message) {
    return QJsonDocument(
               QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), QString::fromLatin1(code)},
                                                                 {QStringLiteral("message"), message}}}})
        .toJson(QJsonDocument::Compact);
}

/// One connection's state machine (see the header). Lives as a child of its socket.
class HttpExchange : public QObject {
public:
    enum class Phase { Headers, Body, Handling, Streaming, Draining };

    HttpExchange(HttpServer *server, QTcpSocket *socket) : QObject(socket), server_(server), socket_(socket) {
        setObjectName(QStringLiteral("httpExchange"));
        timer_ = new QTimer(this);
        timer_->setInterval(250);
        connect(timer_, &QTimer::timeout, this, &HttpExchange::checkTimes);
        timer_->start();
        idle_.start();
        connect(socket, &QTcpSocket::readyRead, this, &HttpExchange::onReadyRead);
    }
    ~HttpExchange() override { dropBodyFile(); }

    void finish() {
        if (phase_ != Phase::Handling && phase_ != Phase::Streaming) return;
        dropBodyFile();
        if (closeAfter_) {
            socket_->disconnectFromHost();
            return;
        }
        phase_ = Phase::Headers;
        request_ = HttpRequest();
        idle_.start();
        QMetaObject::invokeMethod(this, &HttpExchange::process, Qt::QueuedConnection);
    }
    void setStreaming() {
        if (phase_ == Phase::Handling) phase_ = Phase::Streaming;
    }

private:
    static QString tr(const char *text) { return QCoreApplication::translate("diamond::rest", text); }
    const HttpServer::Limits &limits() const { return server_->limits_; }

    void onReadyRead() {
        const QByteArray data = socket_->readAll();
        if (phase_ == Phase::Draining) {
            discarded_ += data.size();
            if (discarded_ > kDiscardAfterRefusal) socket_->abort();
            return;
        }
        if (phase_ == Phase::Handling || phase_ == Phase::Streaming) {
            // The next request waits for this answer; a client that floods meanwhile is cut off.
            buffer_ += data;
            if (buffer_.size() > limits().maxHeaderBytes + limits().maxBodyBytes) socket_->abort();
            return;
        }
        buffer_ += data;
        process();
    }

    void process() {
        while (!buffer_.isEmpty() && socket_->state() == QAbstractSocket::ConnectedState) {
            if (phase_ == Phase::Headers) {
                if (!requestTimer_.isValid()) requestTimer_.start();
                const qsizetype end = buffer_.indexOf("\r\n\r\n");
                if (end < 0 ? buffer_.size() > limits().maxHeaderBytes : end > limits().maxHeaderBytes)
                    return refuse(431, "header_too_large",
                                  tr("request headers exceed %1 bytes").arg(limits().maxHeaderBytes));
                if (end < 0) return;
                const QByteArray head = buffer_.left(end);
                buffer_.remove(0, end + 4);
                if (!startRequest(head)) return;
                continue;
            }
            if (phase_ == Phase::Body) {
                const qint64 take = qMin<qint64>(bodyRemaining_, buffer_.size());
                if (!takeBody(buffer_.left(take))) return;
                buffer_.remove(0, take);
                if (bodyRemaining_ == 0) complete();
                continue;
            }
            return; // handling: the rest waits for finish()
        }
    }

    /// Parses and checks the head of a request; false when it was refused.
    bool startRequest(const QByteArray &head) {
        const QList<QByteArray> lines = head.split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1.") || !requestLine[1].startsWith('/'))
            return refuse(400, "bad_request", tr("malformed request line")), false;
        request_ = HttpRequest();
        request_.method = requestLine[0];
        request_.url = QUrl::fromEncoded(requestLine[1], QUrl::StrictMode);
        if (!request_.url.isValid()) return refuse(400, "bad_request", tr("malformed request target")), false;
        closeAfter_ = requestLine[2] == "HTTP/1.0";
        bool haveLength = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].endsWith('\r') ? lines[i].chopped(1) : lines[i];
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0 || line.startsWith(' ') || line.startsWith('\t'))
                return refuse(400, "bad_request", tr("malformed header line")), false;
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            request_.headers.append({name, value});
            if (name == "content-length") {
                bool ok = false;
                const qint64 length = value.toLongLong(&ok);
                if (!ok || length < 0 || (haveLength && length != request_.contentLength))
                    return refuse(400, "bad_request", tr("invalid Content-Length")), false;
                request_.contentLength = length;
                haveLength = true;
            } else if (name == "transfer-encoding" && value.toLower() != "identity") {
                return refuse(411, "length_required",
                              tr("chunked request bodies are not accepted; send a Content-Length")),
                       false;
            } else if (name == "connection" && value.toLower() == "close") {
                closeAfter_ = true;
            }
        }
        if (server_->authorizer_) {
            const HttpServer::Refusal r = server_->authorizer_(request_);
            if (r.status != 0) return refuse(r.status, r.code, r.message, r.headers), false;
        }
        const QString folder = server_->bodyToFile_ ? server_->bodyToFile_(request_) : QString();
        const qint64 limit = folder.isEmpty() ? limits().maxBodyBytes : limits().maxUploadBytes;
        if (request_.contentLength > limit)
            return refuse(413, "payload_too_large",
                          tr("the request body is %1 bytes; the limit for %2 is %3 bytes")
                              .arg(request_.contentLength)
                              .arg(request_.url.path())
                              .arg(limit)),
                   false;
        if (!folder.isEmpty() && request_.contentLength > 0) {
            QDir().mkpath(folder);
            auto file = std::make_unique<QTemporaryFile>(QDir(folder).filePath(QStringLiteral("upload-XXXXXX")));
            file->setAutoRemove(false);
            if (!file->open()) return refuse(500, "internal", tr("cannot store the upload")), false;
            request_.bodyFile = file->fileName();
            bodyFile_ = std::move(file);
        }
        if (request_.value("expect").toLower() == "100-continue") socket_->write("HTTP/1.1 100 Continue\r\n\r\n");
        bodyRemaining_ = request_.contentLength;
        windowBytes_ = 0;
        window_.start();
        phase_ = Phase::Body;
        if (bodyRemaining_ == 0) complete();
        return true;
    }

    bool takeBody(const QByteArray &bytes) {
        windowBytes_ += bytes.size();
        bodyRemaining_ -= bytes.size();
        if (!bodyFile_) {
            request_.body += bytes;
            return true;
        }
        if (bodyFile_->write(bytes) != bytes.size()) {
            refuse(500, "internal", tr("cannot store the upload"));
            return false;
        }
        return true;
    }

    void complete() {
        if (bodyFile_) bodyFile_->flush();
        phase_ = Phase::Handling;
        requestTimer_.invalidate();
        if (server_->handler_) server_->handler_(request_, socket_);
    }

    void refuse(int status, const QByteArray &code, const QString &message,
                const QList<QPair<QByteArray, QByteArray>> &headers = {}) {
        const QByteArray body = HttpServer::errorBody(code, message);
        socket_->write(HttpServer::responseHead(status, "application/json", body.size(), headers, true) + body);
        socket_->flush();
        phase_ = Phase::Draining;
        buffer_.clear();
        dropBodyFile();
        // Let the client read the answer while what it still sends is dropped; then close.
        QTimer::singleShot(5000, socket_, [s = socket_] { s->disconnectFromHost(); });
    }

    void checkTimes() {
        switch (phase_) {
        case Phase::Headers:
            if (requestTimer_.isValid() && requestTimer_.elapsed() > limits().headerTimeoutMs)
                return refuse(
                    408, "request_timeout",
                    tr("the request headers did not arrive within %1 s").arg(limits().headerTimeoutMs / 1000));
            if (!requestTimer_.isValid() && buffer_.isEmpty() && idle_.elapsed() > limits().idleTimeoutMs)
                socket_->disconnectFromHost();
            return;
        case Phase::Body:
            if (window_.elapsed() < limits().bodyGraceMs) return;
            if (windowBytes_ * 1000 < limits().minBytesPerSecond * window_.elapsed())
                return refuse(408, "request_timeout",
                              tr("the request body arrives slower than %1 bytes/s").arg(limits().minBytesPerSecond));
            windowBytes_ = 0;
            window_.start();
            return;
        case Phase::Handling:
        case Phase::Streaming:
        case Phase::Draining: return;
        }
    }

    void dropBodyFile() {
        if (bodyFile_) {
            bodyFile_->close();
            QFile::remove(bodyFile_->fileName());
            bodyFile_.reset();
        }
    }

    HttpServer *server_;
    QTcpSocket *socket_;
    QTimer *timer_ = nullptr;
    Phase phase_ = Phase::Headers;
    QByteArray buffer_;
    HttpRequest request_;
    qint64 bodyRemaining_ = 0;
    std::unique_ptr<QTemporaryFile> bodyFile_;
    QElapsedTimer requestTimer_; ///< since the first byte of the request's head
    QElapsedTimer idle_;         ///< since the last answer (or the connection)
    QElapsedTimer window_;       ///< body-rate window
    qint64 windowBytes_ = 0;
    qint64 discarded_ = 0;
    bool closeAfter_ = false;
};

HttpServer::HttpServer(const Limits &limits, QObject *parent)
    : QObject(parent), tcp_(new QTcpServer(this)), limits_(limits) {
    connect(tcp_, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = tcp_->nextPendingConnection()) {
            // Qt reads at most this much ahead of the exchange; beyond it TCP makes the client wait. Without it a
            // busy event loop lets a large upload pile up in the socket's buffer (memory, not the upload's file).
            socket->setReadBufferSize(kSocketReadAhead);
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            new HttpExchange(this, socket);
        }
    });
}

HttpServer::~HttpServer() = default;

bool HttpServer::listen(const QHostAddress &address, quint16 port) { return tcp_->listen(address, port); }

quint16 HttpServer::port() const { return tcp_->serverPort(); }

QString HttpServer::errorString() const { return tcp_->errorString(); }

void HttpServer::finish(QTcpSocket *socket) {
    if (!socket) return;
    if (QObject *exchange = socket->findChild<QObject *>(QStringLiteral("httpExchange"), Qt::FindDirectChildrenOnly))
        static_cast<HttpExchange *>(exchange)->finish();
}

void HttpServer::setStreaming(QTcpSocket *socket) {
    if (!socket) return;
    if (QObject *exchange = socket->findChild<QObject *>(QStringLiteral("httpExchange"), Qt::FindDirectChildrenOnly))
        static_cast<HttpExchange *>(exchange)->setStreaming();
}

} // namespace diamond::app::rest
