// A real `diamondctl serve` process on 127.0.0.1 (free port) for tests, and blocking HTTP requests to it.
#pragma once

#include "common/test_paths.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

#include <optional>

namespace diamond::test {

struct RestResponse {
    int status = 0;
    QByteArray body;
    QList<QNetworkReply::RawHeaderPair> headers;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QByteArray header(const QByteArray &name) const {
        for (const auto &h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0) return h.second;
        return {};
    }
    /// error.code of an error answer.
    QString code() const {
        return json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
    }
};

class RestTestServer {
public:
    ~RestTestServer() { stop(); }

    /// The environment of a server and its diamondctl commands: HOME and XDG_DATA_HOME inside `home`, the build's
    /// diamond-train as the engine.
    static QProcessEnvironment environment(const QTemporaryDir &home) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HOME"), home.path());
        e.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("xdg-data")));
        e.insert(QStringLiteral("DIAMOND_TRAIN"), binary(QStringLiteral("diamond-train")));
        return e;
    }

    /// Runs `diamondctl --workspace ws <args>` with `env`; returns its exit code (-1 on timeout, -2 on a crash).
    static int ctl(const QProcessEnvironment &env, const QString &ws, const QStringList &args, QString *out = nullptr) {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(binary(QStringLiteral("diamondctl")), QStringList{QStringLiteral("--workspace"), ws} + args);
        if (!p.waitForFinished(180000)) return -1;
        if (out) *out = QString::fromUtf8(p.readAllStandardOutput());
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

    /// Starts the server of workspace `ws` (with `extra` serve options) and reads its port and the owner's token;
    /// false when it did not start.
    bool start(const QProcessEnvironment &env, const QString &ws, const QStringList &extra = {}) {
        process_.setProcessEnvironment(env);
        process_.start(binary(QStringLiteral("diamondctl")),
                       QStringList{QStringLiteral("--workspace"), ws, QStringLiteral("serve"), QStringLiteral("--port"),
                                   QStringLiteral("0")} +
                           extra);
        QElapsedTimer t;
        t.start();
        while (!process_.canReadLine() && t.elapsed() < 30000)
            process_.waitForReadyRead(1000);
        const QString line = QString::fromUtf8(process_.readLine()).trimmed();
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral(":(\\d+)/api/v1/")).match(line);
        if (!m.hasMatch()) return false;
        port_ = static_cast<quint16>(m.captured(1).toUInt());
        QString token;
        if (ctl(env, ws, {QStringLiteral("serve"), QStringLiteral("--print-token")}, &token) != 0) return false;
        ownerToken_ = token.trimmed();
        return true;
    }

    void stop() {
        if (process_.state() == QProcess::NotRunning) return;
        process_.terminate();
        process_.waitForFinished(5000);
    }

    QString ownerToken() const { return ownerToken_; }
    quint16 port() const { return port_; }

    /// One request with `token` (the owner's when unset; none when empty); waits at most 120 s.
    RestResponse request(const QByteArray &method, const QString &path, const QByteArray &body = {},
                         std::optional<QString> token = {}) {
        QNetworkRequest req(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port_).arg(path)));
        const QString t = token ? *token : ownerToken_;
        if (!t.isEmpty()) req.setRawHeader("Authorization", "Bearer " + t.toLatin1());
        if (!body.isEmpty()) req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        QNetworkReply *reply = nam_.sendCustomRequest(req, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
        RestResponse r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.headers = reply->rawHeaderPairs();
        reply->deleteLater();
        return r;
    }

private:
    QProcess process_;
    quint16 port_ = 0;
    QString ownerToken_;
    QNetworkAccessManager nam_;
};

} // namespace diamond::test
