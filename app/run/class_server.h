// A class server (`diamondctl serve`) as a place to train: the desktop app signs in with a user's token and its runs
// are created, followed and stopped there through the REST API (docs/rest-api.md); the curves come back as the
// run's events.jsonl, so the local workspace mirrors the run as it mirrors a cluster run.
//
// ClassServerClient sends authenticated requests without blocking (QNetworkAccessManager, the calling thread's
// event loop). Answers larger than kMaxServerReplyBytes are refused.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace diamond::app {

/// A signed-in class server. Its targets in this workspace are "server:NAME" (the server's own computer) and
/// "server:NAME/CLUSTER" for each of the server's cluster profiles.
struct ClassServer {
    QString name;         ///< e.g. "alice@127.0.0.1:8080"
    QUrl url;             ///< base URL, e.g. http://127.0.0.1:8080
    QString token;        ///< the user's bearer token (kept in memory only)
    QString user;         ///< the user name the server answered
    QString role;         ///< student, instructor or admin
    QStringList clusters; ///< the server's cluster profiles (GET /api/v1/clusters) at sign-in
};

/// Prefix of run targets on a class server.
inline const QString kClassServerTargetPrefix = QStringLiteral("server:");
/// True for "server:NAME" and "server:NAME/CLUSTER" targets.
bool isClassServerTarget(const QString &target);
/// NAME of a class-server target.
QString classServerName(const QString &target);
/// The server's own target of a class-server target: "local" or CLUSTER.
QString classServerRemoteTarget(const QString &target);
/// "server:NAME", or "server:NAME/CLUSTER" for a remote target other than "local".
QString classServerTarget(const QString &name, const QString &remoteTarget = QStringLiteral("local"));

inline constexpr qint64 kMaxServerReplyBytes = 8 * 1024 * 1024;

class ClassServerClient : public QObject {
    Q_OBJECT
public:
    /// An answer: HTTP status (0 when the server could not be reached), its JSON body (or {}), the raw body, the
    /// reply's headers, and a translated error when the request failed (status 0 or >= 400).
    struct Answer {
        int status = 0;
        QJsonObject json;
        QByteArray body;
        QByteArray nextOffset; ///< X-Diamond-Next-Offset
        QByteArray runState;   ///< X-Diamond-Run-State
        QString error;
        bool ok() const { return error.isEmpty(); }
    };
    using Callback = std::function<void(const Answer &)>;

    explicit ClassServerClient(QUrl url, QString token, QObject *parent = nullptr);

    /// Sends `method` `path` (with query) and calls `done` on this object's thread. `body` is sent as JSON when not
    /// empty. Requests time out after `timeoutMs`.
    void send(const QByteArray &method, const QString &pathAndQuery, const QJsonObject &body, Callback done,
              int timeoutMs = 30000);

    /// GET /api/v1/me, then GET /api/v1/clusters: on success a ClassServer filled in from the answers (name
    /// "user@host:port").
    void signIn(std::function<void(const ClassServer &, const QString &error)> done);

    QUrl url() const { return url_; }

private:
    QNetworkAccessManager *network_;
    QUrl url_;
    QString token_;
};

} // namespace diamond::app
