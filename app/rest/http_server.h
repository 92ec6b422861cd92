// HttpServer: the REST API's own HTTP/1.1 front door (docs/rest-api.md, docs/security.md). It replaces Qt's
// QAbstractHttpServer, which reads a whole request body into memory before anything can look at the request.
//
// Contract, per connection:
// - Headers: at most Limits::maxHeaderBytes (431), complete within Limits::headerTimeoutMs of the request's first
//   byte (408: slow-header clients are cut off).
// - Then, before a single body byte is accepted: the Authorizer sees the headers (false: 401, body never read);
//   Content-Length is checked against the route's limit (413); chunked bodies are refused (411); "Expect:
//   100-continue" is answered.
// - Bodies of requests for which BodyToFile returns a folder are streamed into a new file there (uploads), the
//   others are kept in memory (at most Limits::maxBodyBytes). A body must keep arriving at Limits::minBytesPerSecond
//   averaged over Limits::bodyGraceMs windows (408 otherwise).
// - The complete request goes to the Handler, which answers on the socket (at once or later). The connection is
//   kept for the next request (no pipelining: bytes of the next request wait until the answer is complete, see
//   HttpExchange::finish()) and closed after Limits::idleTimeoutMs without one.
// - A refused request is answered with "Connection: close"; what the client still sends is read and dropped (up to
//   16 MiB) so that it can read the answer, then the connection closes.
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QUrl>

#include <functional>

class QTcpServer;
class QTcpSocket;

namespace diamond::app::rest {

struct HttpRequest {
    QByteArray method;                            ///< "GET", "POST", ...
    QUrl url;                                     ///< path and query
    QList<QPair<QByteArray, QByteArray>> headers; ///< names lower-case, values trimmed
    QByteArray body;                              ///< the body, unless it was streamed to bodyFile
    QString bodyFile;                             ///< the streamed body's file (removed after the request)
    qint64 contentLength = 0;

    /// The value of header `name` (lower-case), empty when absent.
    QByteArray value(const QByteArray &name) const;
};

class HttpServer : public QObject {
    Q_OBJECT
public:
    struct Limits {
        qint64 maxHeaderBytes = 64 * 1024;
        qint64 maxBodyBytes = qint64(4) << 20;     ///< bodies kept in memory
        qint64 maxUploadBytes = qint64(512) << 20; ///< bodies streamed to a file
        int headerTimeoutMs = 10000;
        int idleTimeoutMs = 60000;
        int bodyGraceMs = 10000;         ///< window over which the body rate is measured
        qint64 minBytesPerSecond = 1024; ///< a body slower than this (per window) is cut off
    };
    /// A refusal: status, stable code, message (sent as the API's JSON error).
    struct Refusal {
        int status = 0; ///< 0: accepted
        QByteArray code;
        QString message;
        QList<QPair<QByteArray, QByteArray>> headers;
    };
    /// Sees the headers before the body: a refusal (status != 0) ends the request there.
    using Authorizer = std::function<Refusal(const HttpRequest &)>;
    /// A folder to stream the body into (the upload routes), or empty to keep it in memory.
    using BodyToFile = std::function<QString(const HttpRequest &)>;
    /// The complete request; answer on `socket`, then call HttpServer::finish(socket) (send() does).
    using Handler = std::function<void(HttpRequest &request, QTcpSocket *socket)>;

    HttpServer(const Limits &limits, QObject *parent = nullptr);
    ~HttpServer() override;

    void setAuthorizer(Authorizer authorizer) { authorizer_ = std::move(authorizer); }
    void setBodyToFile(BodyToFile bodyToFile) { bodyToFile_ = std::move(bodyToFile); }
    void setHandler(Handler handler) { handler_ = std::move(handler); }

    bool listen(const QHostAddress &address, quint16 port);
    quint16 port() const;
    QString errorString() const;

    /// The answer to the socket's current request is complete: its next request may be read. Safe with a closed
    /// or deleted socket.
    static void finish(QTcpSocket *socket);
    /// Keeps the socket's connection open without timeouts while the handler streams (Server-Sent Events).
    static void setStreaming(QTcpSocket *socket);
    /// The head of a response: status line, Content-Type, Content-Length (when >= 0), headers, no-store.
    static QByteArray responseHead(int status, const QByteArray &contentType, qint64 length,
                                   const QList<QPair<QByteArray, QByteArray>> &headers, bool close);
    /// {"error": {"code", "message"}}
    static QByteArray errorBody(const QByteArray &code, const QString &message);

private:
    friend class HttpExchange;
    QTcpServer *tcp_;
    Limits limits_;
    Authorizer authorizer_;
    BodyToFile bodyToFile_;
    Handler handler_;
};

} // namespace diamond::app::rest
