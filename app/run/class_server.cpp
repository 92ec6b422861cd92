#include "app/run/class_server.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace diamond::app {

bool isClassServerTarget(const QString &target) { return target.startsWith(kClassServerTargetPrefix); }

QString classServerName(const QString &target) {
    return target.mid(kClassServerTargetPrefix.size()).section(QLatin1Char('/'), 0, 0);
}

QString classServerRemoteTarget(const QString &target) {
    const QString remote = target.mid(kClassServerTargetPrefix.size()).section(QLatin1Char('/'), 1);
    return remote.isEmpty() ? QStringLiteral("local") : remote;
}

QString classServerTarget(const QString &name, const QString &remoteTarget) {
    return kClassServerTargetPrefix + name +
           (remoteTarget.isEmpty() || remoteTarget == QLatin1String("local") ? QString()
                                                                             : QLatin1Char('/') + remoteTarget);
}

ClassServerClient::ClassServerClient(QUrl url, QString token, QObject *parent)
    : QObject(parent), network_(new QNetworkAccessManager(this)), url_(std::move(url)), token_(std::move(token)) {}

void ClassServerClient::send(const QByteArray &method, const QString &pathAndQuery, const QJsonObject &body,
                             Callback done, int timeoutMs) {
    QUrl target = url_.resolved(QUrl(pathAndQuery));
    QNetworkRequest request(target);
    request.setRawHeader("Authorization", "Bearer " + token_.toUtf8());
    request.setTransferTimeout(timeoutMs);
    QByteArray payload;
    if (!body.isEmpty()) {
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        payload = QJsonDocument(body).toJson(QJsonDocument::Compact);
    }
    QNetworkReply *reply = network_->sendCustomRequest(request, method, payload);
    // Refuse oversized answers while they arrive, before they are buffered whole.
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxServerReplyBytes) reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [reply, done = std::move(done), target] {
        reply->deleteLater();
        Answer a;
        a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        a.body = reply->bytesAvailable() <= kMaxServerReplyBytes ? reply->readAll() : QByteArray();
        a.json = QJsonDocument::fromJson(a.body).object();
        a.nextOffset = reply->rawHeader("X-Diamond-Next-Offset");
        a.runState = reply->rawHeader("X-Diamond-Run-State");
        if (a.status == 0) {
            a.error =
                reply->error() == QNetworkReply::OperationCanceledError
                    ? tr("%1 did not answer in time or sent more than 8 MiB.").arg(target.host())
                    : tr("Cannot reach %1: %2").arg(target.toDisplayString(QUrl::RemoveQuery), reply->errorString());
        } else if (a.status >= 400) {
            const QString message =
                a.json.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
            a.error = tr("The class server answered %1: %2")
                          .arg(a.status)
                          .arg(message.isEmpty() ? QString::fromUtf8(a.body.left(200)) : message);
        }
        done(a);
    });
}

void ClassServerClient::signIn(std::function<void(const ClassServer &, const QString &)> done) {
    if (!url_.isValid() || (url_.scheme() != QLatin1String("http") && url_.scheme() != QLatin1String("https")) ||
        url_.host().isEmpty()) {
        done({}, tr("\"%1\" is not an http:// or https:// address.").arg(url_.toString()));
        return;
    }
    if (token_.trimmed().isEmpty()) {
        done({}, tr("The token is empty: ask your instructor for yours (diamondctl user add)."));
        return;
    }
    send(
        "GET", QStringLiteral("/api/v1/me"), {},
        [this, done](const Answer &a) {
            if (!a.ok()) {
                done({}, a.status == 401 ? tr("The class server does not accept this token.") : a.error);
                return;
            }
            ClassServer s;
            s.url = url_;
            s.token = token_;
            s.user = a.json.value(QStringLiteral("name")).toString();
            s.role = a.json.value(QStringLiteral("role")).toString();
            if (s.user.isEmpty()) {
                done({}, tr("%1 did not answer like a Diamond class server.").arg(url_.toString()));
                return;
            }
            s.name = QStringLiteral("%1@%2:%3")
                         .arg(s.user, url_.host())
                         .arg(url_.port(url_.scheme() == QLatin1String("https") ? 443 : 80));
            // The server's clusters are targets too; without an answer the server's own computer still is.
            send(
                "GET", QStringLiteral("/api/v1/clusters"), {},
                [s, done](const Answer &clusters) mutable {
                    for (const QJsonValue &c : clusters.json.value(QStringLiteral("clusters")).toArray()) {
                        const QString name = c.toObject().value(QStringLiteral("name")).toString();
                        if (!name.isEmpty() && !name.contains(QLatin1Char('/'))) s.clusters << name;
                    }
                    done(s, {});
                },
                10000);
        },
        10000);
}

} // namespace diamond::app
