// The REST API as real `diamondctl serve` processes on 127.0.0.1 (free ports), with the real diamond-train:
// every route's happy path and 401s, OpenAPI vs routes, limits (413/411/431), path traversal, zip-slip and
// symlink uploads, publish on one server + browse/download/import/verify on a second workspace's server, and
// the live metrics stream (Server-Sent Events) while a run trains.
#include "common/test_paths.h"

#include "app/cluster/cluster_store.h"
#include "app/rest/rest_server.h"
#include "app/workspace/workspace.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSqlQuery>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>

class TestRestApi : public QObject {
    Q_OBJECT

    struct Response {
        int status = 0;
        QByteArray body;
        QNetworkReply::NetworkError error = QNetworkReply::NoError;
        QMap<QByteArray, QByteArray> headers;
        QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
        QString code() const {
            return json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
        }
    };
    struct Server {
        QProcess process;
        quint16 port = 0;
        QString token;
    };

    QTemporaryDir home_;
    QString ws1_, ws2_, ws3_, spec_;
    QJsonObject specJson_, configJson_;
    Server s1_, s2_;
    QNetworkAccessManager nam_;
    QString listenLine_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HOME"), home_.path());
        e.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        e.insert(QStringLiteral("DIAMOND_TRAIN"), diamond::test::binary(QStringLiteral("diamond-train")));
        return e;
    }

    int ctl(const QString &ws, QStringList args, QString *out = nullptr) {
        args = QStringList{QStringLiteral("--workspace"), ws} + args;
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(diamond::test::binary(QStringLiteral("diamondctl")), args);
        if (!p.waitForFinished(180000)) return -1;
        if (out) *out = QString::fromUtf8(p.readAllStandardOutput());
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

    bool startServer(Server &s, const QString &ws, const QStringList &extra) {
        s.process.setProcessEnvironment(env());
        s.process.setProcessChannelMode(QProcess::SeparateChannels);
        s.process.start(diamond::test::binary(QStringLiteral("diamondctl")),
                        QStringList{QStringLiteral("--workspace"), ws, QStringLiteral("serve"),
                                    QStringLiteral("--port"), QStringLiteral("0")} +
                            extra);
        QElapsedTimer t;
        t.start();
        while (!s.process.canReadLine() && t.elapsed() < 30000)
            s.process.waitForReadyRead(1000);
        const QString line = QString::fromUtf8(s.process.readLine()).trimmed();
        if (listenLine_.isEmpty()) listenLine_ = line;
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral(":(\\d+)/api/v1/")).match(line);
        if (!m.hasMatch()) return false;
        s.port = static_cast<quint16>(m.captured(1).toUInt());
        QString token;
        if (ctl(ws, {QStringLiteral("serve"), QStringLiteral("--print-token")}, &token) != 0) return false;
        s.token = token.trimmed();
        return true;
    }

    Response http(const Server &s, const QByteArray &method, const QString &path, const QByteArray &body = {},
                  std::optional<QString> token = {}, const QByteArray &contentType = "application/json") {
        QNetworkRequest req(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(s.port).arg(path)));
        const QString t = token ? *token : s.token;
        if (!t.isEmpty()) req.setRawHeader("Authorization", "Bearer " + t.toLatin1());
        if (!body.isEmpty()) req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
        QNetworkReply *reply = nam_.sendCustomRequest(req, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(120000, &loop, &QEventLoop::quit);
        loop.exec();
        Response r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.error = reply->error();
        for (const auto &h : reply->rawHeaderPairs())
            r.headers.insert(h.first.toLower(), h.second);
        reply->deleteLater();
        return r;
    }

    /// Sends raw bytes and returns everything the server answers until it closes or `ms` pass.
    QByteArray raw(const Server &s, const QByteArray &data, int ms = 5000) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, s.port);
        if (!socket.waitForConnected(5000)) return {};
        socket.write(data);
        QByteArray out;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms && socket.state() == QAbstractSocket::ConnectedState) {
            socket.waitForReadyRead(200);
            out += socket.readAll();
            if (out.contains("\r\n\r\n") && out.contains("\"error\"") && out.endsWith('}')) break;
        }
        return out + socket.readAll();
    }

    QByteArray runBody(int steps, bool start = true) const {
        QJsonObject config = configJson_;
        config.insert(QStringLiteral("steps"), steps);
        config.insert(QStringLiteral("threads"), 1);
        return QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_},
                                         {QStringLiteral("config"), config},
                                         {QStringLiteral("project"), QStringLiteral("REST")},
                                         {QStringLiteral("start"), start}})
            .toJson();
    }

    QString waitForState(const Server &s, qint64 id, const QStringList &states, int ms = 60000) {
        QElapsedTimer t;
        t.start();
        QString state;
        while (t.elapsed() < ms) {
            state = http(s, "GET", QStringLiteral("/api/v1/runs/%1").arg(id))
                        .json()
                        .value(QStringLiteral("state"))
                        .toString();
            if (states.contains(state)) return state;
            QTest::qWait(100);
        }
        return state;
    }

    bool writePythonZip(const QString &out, const QString &entries) {
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral("-c"),
                 QStringLiteral("import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w')\nfor n,d,m in %1:\n"
                                "    i=zipfile.ZipInfo(n); i.create_system=3; i.external_attr=m<<16; z.writestr(i,d)\n"
                                "z.close()\n")
                     .arg(entries),
                 out});
        return p.waitForFinished(30000) && p.exitCode() == 0;
    }

    static QByteArray readFile(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        QVERIFY2(QFile::exists(diamond::test::binary(QStringLiteral("diamond-train"))), "diamond-train is needed");
        ws1_ = home_.filePath(QStringLiteral("ws1"));
        ws2_ = home_.filePath(QStringLiteral("ws2"));
        ws3_ = home_.filePath(QStringLiteral("ws3"));
        for (const QString &ws : {ws1_, ws2_, ws3_})
            QCOMPARE(ctl(ws, {QStringLiteral("init"), QStringLiteral("--no-examples")}), 0);
        spec_ = diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"));
        specJson_ = QJsonDocument::fromJson(readFile(spec_)).object();
        configJson_ = QJsonDocument::fromJson(
                          readFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json"))))
                          .object();
        QFile config(home_.filePath(QStringLiteral("run.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        QJsonObject c = configJson_;
        c.insert(QStringLiteral("steps"), 300);
        c.insert(QStringLiteral("threads"), 1);
        config.write(QJsonDocument(c).toJson());
        config.close();
        QCOMPARE(ctl(ws1_, {QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"), spec_,
                            QStringLiteral("--config"), config.fileName(), QStringLiteral("--follow")}),
                 0);
        QVERIFY(startServer(s1_, ws1_, {}));
        QVERIFY(startServer(s2_, ws2_,
                            {QStringLiteral("--max-upload"), QStringLiteral("200000"), QStringLiteral("--max-body"),
                             QStringLiteral("65536")}));
    }

    void cleanupTestCase() {
        for (Server *s : {&s1_, &s2_}) {
            s->process.terminate();
            s->process.waitForFinished(5000);
        }
    }

    void listensOnLoopbackWithPrivateToken() {
        QVERIFY2(listenLine_.startsWith(QStringLiteral("Listening on http://127.0.0.1:")), qPrintable(listenLine_));
        const QFileInfo token(QDir(ws1_).filePath(QStringLiteral("rest-token")));
        QCOMPARE(token.permissions() & ~(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser |
                                         QFileDevice::WriteUser),
                 QFileDevice::Permissions());
        QCOMPARE(s1_.token.size(), 64);
        QVERIFY(s1_.token != s2_.token);
    }

    void everyRouteNeedsTheToken() {
        const auto routes = diamond::app::rest::RestServer::routeTable();
        QVERIFY(routes.size() >= 20);
        for (const auto &r : routes) {
            const QString path = QString(r.path).replace(QStringLiteral("{id}"), QStringLiteral("1"));
            for (const std::optional<QString> &token :
                 {std::optional<QString>(QString()), std::optional<QString>(QStringLiteral("wrong"))}) {
                const Response resp =
                    http(s1_, r.method, path, r.method == "POST" ? QByteArray("{}") : QByteArray(), token);
                QVERIFY2(resp.status == 401,
                         qPrintable(
                             QStringLiteral("%1 %2 -> %3").arg(QString::fromLatin1(r.method), path).arg(resp.status)));
                QCOMPARE(resp.code(), QStringLiteral("unauthorized"));
                QVERIFY(resp.headers.value("www-authenticate").startsWith("Bearer"));
            }
        }
        QCOMPARE(http(s1_, "GET", QStringLiteral("/no/such/route"), {}, QString()).status, 401);
        // The token of another workspace's server is wrong here.
        QCOMPARE(http(s1_, "GET", QStringLiteral("/api/v1/projects"), {}, s2_.token).status, 401);
    }

    void openApiMatchesTheRoutes() {
        const Response r = http(s1_, "GET", QStringLiteral("/api/v1/openapi.json"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("openapi")).toString().left(2), QStringLiteral("3."));
        QSet<QString> documented, served;
        const QJsonObject paths = r.json().value(QStringLiteral("paths")).toObject();
        for (auto p = paths.begin(); p != paths.end(); ++p)
            for (const QString &method : p.value().toObject().keys())
                documented.insert(method.toUpper() + QLatin1Char(' ') + p.key());
        for (const auto &route : diamond::app::rest::RestServer::routeTable())
            served.insert(QString::fromLatin1(route.method) + QLatin1Char(' ') + route.path);
        QCOMPARE(documented, served);
        // Every documented operation is answered by a route (not route_not_found / method_not_allowed).
        for (const QString &op : std::as_const(documented)) {
            const QString method = op.section(QLatin1Char(' '), 0, 0);
            const QString path = op.section(QLatin1Char(' '), 1)
                                     .replace(QStringLiteral("{id}"), QStringLiteral("999999"))
                                     .replace(QStringLiteral("{name}"), QStringLiteral("no-such-dataset"));
            if (path.endsWith(QLatin1String("/live"))) continue; // a stream; covered below
            const Response resp =
                http(s1_, method.toLatin1(), path, method == QLatin1String("POST") ? QByteArray("{}") : QByteArray());
            QVERIFY2(resp.code() != QLatin1String("route_not_found") &&
                         resp.code() != QLatin1String("method_not_allowed"),
                     qPrintable(op + QStringLiteral(" -> ") + QString::fromUtf8(resp.body)));
        }
    }

    void unknownRoutesAndMethods() {
        Response r = http(s1_, "GET", QStringLiteral("/api/v1/nothing"));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.code(), QStringLiteral("route_not_found"));
        r = http(s1_, "DELETE", QStringLiteral("/api/v1/projects"));
        QCOMPARE(r.status, 405);
        QCOMPARE(r.code(), QStringLiteral("method_not_allowed"));
    }

    void projects() {
        Response r =
            http(s1_, "POST", QStringLiteral("/api/v1/projects"), R"({"name": "From REST", "description": "d"})");
        QCOMPARE(r.status, 201);
        QVERIFY(r.json().value(QStringLiteral("id")).toInteger() > 0);
        QCOMPARE(http(s1_, "POST", QStringLiteral("/api/v1/projects"), R"({"name": "From REST"})").status, 409);
        r = http(s1_, "POST", QStringLiteral("/api/v1/projects"), "{not json");
        QCOMPARE(r.status, 400);
        QCOMPARE(r.code(), QStringLiteral("invalid_json"));
        r = http(s1_, "GET", QStringLiteral("/api/v1/projects"));
        QCOMPARE(r.status, 200);
        QStringList names;
        for (const QJsonValue &p : r.json().value(QStringLiteral("projects")).toArray())
            names << p.toObject().value(QStringLiteral("name")).toString();
        QVERIFY(names.contains(QStringLiteral("From REST")));
    }

    void specs() {
        Response r = http(s1_, "POST", QStringLiteral("/api/v1/specs/validate"), readFile(spec_));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("valid")).toBool(), true);
        QJsonObject broken = specJson_;
        QJsonArray nodes = broken.value(QStringLiteral("nodes")).toArray();
        QJsonObject first = nodes[0].toObject();
        first.insert(QStringLiteral("inputs"), QJsonArray{QStringLiteral("missing")});
        nodes[0] = first;
        broken.insert(QStringLiteral("nodes"), nodes);
        r = http(s1_, "POST", QStringLiteral("/api/v1/specs/validate"), QJsonDocument(broken).toJson());
        QCOMPARE(r.json().value(QStringLiteral("valid")).toBool(), false);
        QVERIFY(!r.json().value(QStringLiteral("diagnostics")).toArray().isEmpty());
        r = http(s1_, "POST", QStringLiteral("/api/v1/specs/info"), readFile(spec_));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("params")).toInteger(), 4547); // 2*64+64 + 64*64+64 + 64*3+3
        QCOMPARE(http(s1_, "POST", QStringLiteral("/api/v1/specs/info"), QJsonDocument(broken).toJson()).status, 422);
    }

    // POST /api/v1/plans: what `diamondctl run plan --json` prints, computed on a worker thread (the first plan
    // calibrates the server's computer); bad bodies, unknown targets and data paths outside the data folder refused.
    void plans() {
        const QJsonObject config{
            {QStringLiteral("format"), QStringLiteral("diamond.run/1")},
            {QStringLiteral("data"),
             QJsonObject{{QStringLiteral("source"), QStringLiteral("spirals")}, {QStringLiteral("samples"), 3000}}},
            {QStringLiteral("epochs"), 4},
            {QStringLiteral("batch_size"), 32}};
        Response r =
            http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_}, {QStringLiteral("config"), config}})
                     .toJson());
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonObject plan = r.json();
        for (const char *key : {"predicted_step_s", "predicted_peak_memory_bytes", "ranks", "jobs", "time_limit_s",
                                "checkpoint_every_steps", "signal_seconds", "options", "steps", "chain", "profile"})
            QVERIFY2(plan.contains(QLatin1String(key)), key);
        QCOMPARE(plan.value(QStringLiteral("target")).toString(), QStringLiteral("local"));
        QCOMPARE(plan.value(QStringLiteral("steps")).toInteger(), qint64(4 * 2400 / 32));
        QVERIFY(plan.value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        r = http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_},
                                           {QStringLiteral("config"), config},
                                           {QStringLiteral("nproc"), 2}})
                     .toJson());
        QVERIFY2(r.status == 200, r.body.constData());
        QCOMPARE(r.json().value(QStringLiteral("ranks")).toInt(), 2);
        // Measured widths: N processes of 1 thread each, 1 <= N <= 2 (1 process of 1 thread only once).
        r = http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_},
                                           {QStringLiteral("config"), config},
                                           {QStringLiteral("threads"), 1},
                                           {QStringLiteral("measure_width"), true}})
                     .toJson());
        QVERIFY2(r.status == 200, r.body.constData());
        const QJsonArray widths = r.json().value(QStringLiteral("measured_widths")).toArray();
        QCOMPARE(widths.size(), QThread::idealThreadCount() >= 2 ? 2 : 1);
        for (const QJsonValue &w : widths) {
            QCOMPARE(w[QStringLiteral("threads_per_rank")].toInt(), 1);
            QVERIFY(w[QStringLiteral("measured_step_s")].toDouble() > 0);
        }
        for (const QJsonValue &o : r.json().value(QStringLiteral("options")).toArray())
            QCOMPARE(o[QStringLiteral("step_basis")].toString(), QStringLiteral("measured"));
        r = http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_},
                                           {QStringLiteral("config"), config},
                                           {QStringLiteral("measure_width"), QStringLiteral("yes")}})
                     .toJson());
        QCOMPARE(r.status, 400);
        QVERIFY(r.body.contains("measure_width"));

        QCOMPARE(http(s1_, "POST", QStringLiteral("/api/v1/plans"), R"({"spec": {}})").status, 400);
        r = http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_},
                                           {QStringLiteral("config"), config},
                                           {QStringLiteral("nproc"), -3}})
                     .toJson());
        QCOMPARE(r.status, 400);
        QVERIFY(r.body.contains("nproc"));
        r = http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_},
                                           {QStringLiteral("config"), config},
                                           {QStringLiteral("target"), QStringLiteral("nowhere")}})
                     .toJson());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.code(), QStringLiteral("unknown_target"));
        QJsonObject outside = config;
        outside.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                                           {QStringLiteral("path"), QStringLiteral("/etc/passwd")}});
        r = http(s1_, "POST", QStringLiteral("/api/v1/plans"),
                 QJsonDocument(QJsonObject{{QStringLiteral("spec"), specJson_}, {QStringLiteral("config"), outside}})
                     .toJson());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.code(), QStringLiteral("path_not_allowed"));
    }

    void runsAndMetrics() {
        Response r = http(s1_, "GET", QStringLiteral("/api/v1/runs"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json()
                     .value(QStringLiteral("runs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("state"))
                     .toString(),
                 QStringLiteral("finished"));
        r = http(s1_, "GET", QStringLiteral("/api/v1/runs/1"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("id")).toInt(), 1);
        r = http(s1_, "GET", QStringLiteral("/api/v1/runs/1/metrics"));
        QCOMPARE(r.status, 200);
        const QJsonArray points = r.json().value(QStringLiteral("points")).toArray();
        QVERIFY(points.size() > 10);
        r = http(s1_, "GET", QStringLiteral("/api/v1/runs/1/metrics?since_step=250&name=loss"));
        for (const QJsonValue &p : r.json().value(QStringLiteral("points")).toArray()) {
            QVERIFY(p.toObject().value(QStringLiteral("step")).toInt() > 250);
            QCOMPARE(p.toObject().value(QStringLiteral("name")).toString(), QStringLiteral("loss"));
        }
        r = http(s1_, "GET", QStringLiteral("/api/v1/runs/999"));
        QCOMPARE(r.status, 404);
        QCOMPARE(r.code(), QStringLiteral("not_found"));
        QCOMPARE(http(s1_, "POST", QStringLiteral("/api/v1/runs"), R"({"spec": {}})").status, 400);
    }

    void liveMetricsWhileTraining() {
        const Response created = http(s1_, "POST", QStringLiteral("/api/v1/runs"), runBody(3000));
        QCOMPARE(created.status, 201);
        const qint64 id = created.json().value(QStringLiteral("id")).toInteger();
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, s1_.port);
        QVERIFY(socket.waitForConnected(5000));
        socket.write(
            QStringLiteral(
                "GET /api/v1/runs/%1/metrics/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %2\r\n\r\n")
                .arg(id)
                .arg(s1_.token)
                .toLatin1());
        QByteArray stream;
        QElapsedTimer t;
        t.start();
        int metricsWhileRunning = 0;
        qint64 lastStep = -1;
        bool checkedRunning = false;
        while (t.elapsed() < 120000 && !stream.contains("event: end")) {
            if (!socket.waitForReadyRead(1000) && socket.state() != QAbstractSocket::ConnectedState) break;
            stream += socket.readAll();
            if (!checkedRunning && stream.contains("event: metric")) {
                // The first metric arrived: the run is still training.
                checkedRunning = true;
                const QString state = http(s1_, "GET", QStringLiteral("/api/v1/runs/%1").arg(id))
                                          .json()
                                          .value(QStringLiteral("state"))
                                          .toString();
                if (state == QLatin1String("running")) metricsWhileRunning = 1;
            }
        }
        QVERIFY(stream.startsWith("HTTP/1.1 200 OK"));
        QVERIFY(stream.contains("Content-Type: text/event-stream"));
        QVERIFY2(stream.contains("event: end"), stream.right(500).constData());
        QVERIFY2(metricsWhileRunning == 1, "no metric event arrived while the run was running");
        int metrics = 0;
        for (const QByteArray &block : stream.split('\n')) {
            if (!block.startsWith("data: {\"name\"")) continue;
            const QJsonObject p = QJsonDocument::fromJson(block.mid(6)).object();
            if (p.value(QStringLiteral("name")).toString() == QLatin1String("loss") &&
                p.value(QStringLiteral("split")).toString() == QLatin1String("train")) {
                QVERIFY(p.value(QStringLiteral("step")).toInteger() > lastStep);
                lastStep = p.value(QStringLiteral("step")).toInteger();
            }
            ++metrics;
        }
        QVERIFY(metrics > 20);
        QCOMPARE(lastStep, 3000);
        QVERIFY(stream.contains("\"state\":\"running\""));
        const QByteArray end = stream.mid(stream.indexOf("event: end"));
        QVERIFY2(end.contains("\"state\":\"finished\""), end.constData());
        // Every stored point was streamed exactly once.
        const int stored = static_cast<int>(http(s1_, "GET", QStringLiteral("/api/v1/runs/%1/metrics").arg(id))
                                                .json()
                                                .value(QStringLiteral("points"))
                                                .toArray()
                                                .size());
        QCOMPARE(metrics, stored);
    }

    void cancelAndResume() {
        const Response created = http(s1_, "POST", QStringLiteral("/api/v1/runs"), runBody(1000000));
        QCOMPARE(created.status, 201);
        const qint64 id = created.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(waitForState(s1_, id, {QStringLiteral("running")}), QStringLiteral("running"));
        QTest::qWait(1500); // let it write a checkpoint-less history; resume falls back to the start
        Response r = http(s1_, "POST", QStringLiteral("/api/v1/runs/%1/cancel").arg(id));
        QCOMPARE(r.status, 202);
        QCOMPARE(waitForState(s1_, id, {QStringLiteral("cancelled")}), QStringLiteral("cancelled"));
        r = http(s1_, "POST", QStringLiteral("/api/v1/runs/%1/resume").arg(id));
        QVERIFY2(r.status == 202, r.body.constData());
        QCOMPARE(waitForState(s1_, id, {QStringLiteral("running"), QStringLiteral("failed")}),
                 QStringLiteral("running"));
        QCOMPARE(http(s1_, "POST", QStringLiteral("/api/v1/runs/%1/cancel").arg(id)).status, 202);
        QCOMPARE(waitForState(s1_, id, {QStringLiteral("cancelled")}), QStringLiteral("cancelled"));
        r = http(s1_, "POST", QStringLiteral("/api/v1/runs/1/resume")); // finished is final
        QCOMPARE(r.status, 409);
        QCOMPARE(r.code(), QStringLiteral("conflict"));
    }

    void sweepsAndClusters() {
        {
            diamond::app::Workspace ws;
            QVERIFY(ws.open(ws1_));
            QSqlQuery q(ws.database());
            QVERIFY(q.exec(QStringLiteral(
                "INSERT INTO sweeps (project_id, name, strategy, space_json, objective, state, created_at)"
                " VALUES (1, 'lr sweep', 'random', '{\"lr\": [0.1, 0.01]}', 'val_loss', 'running', '2026-01-01')")));
            const qint64 sweep = q.lastInsertId().toLongLong();
            QVERIFY(q.exec(QStringLiteral("INSERT INTO trials (sweep_id, run_id, trial_index, params_json, state, "
                                          "objective_value, created_at)"
                                          " VALUES (%1, 1, 0, '{\"lr\": 0.1}', 'finished', 0.4, '2026-01-01')")
                               .arg(sweep)));
            diamond::remote::ClusterProfile hpc;
            hpc.name = QStringLiteral("hpc");
            hpc.host = QStringLiteral("127.0.0.1");
            hpc.port = 2222;
            hpc.user = QStringLiteral("alice");
            hpc.scratchDir = QStringLiteral("/scratch/alice");
            hpc.enginePath = QStringLiteral("/opt/diamond/diamond-train");
            QVERIFY(diamond::app::ClusterStore(ws).add(hpc));
        }
        Response r = http(s1_, "GET", QStringLiteral("/api/v1/sweeps"));
        QCOMPARE(r.status, 200);
        const QJsonObject sweep = r.json().value(QStringLiteral("sweeps")).toArray().first().toObject();
        QCOMPARE(sweep.value(QStringLiteral("name")).toString(), QStringLiteral("lr sweep"));
        QCOMPARE(sweep.value(QStringLiteral("trials")).toInt(), 1);
        r = http(s1_, "GET", QStringLiteral("/api/v1/sweeps/%1").arg(sweep.value(QStringLiteral("id")).toInteger()));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json()
                     .value(QStringLiteral("trials"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("objective"))
                     .toDouble(),
                 0.4);
        QCOMPARE(http(s1_, "GET", QStringLiteral("/api/v1/sweeps/999")).status, 404);
        r = http(s1_, "GET", QStringLiteral("/api/v1/clusters"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json()
                     .value(QStringLiteral("clusters"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("port"))
                     .toInt(),
                 2222);
    }

    void sweepsStartAndControl() {
        // A sweep started over REST runs in the server's run service; its trials are runs; control is refused once
        // it ended, and an unknown target is refused up front.
        QJsonObject config = configJson_;
        config.insert(QStringLiteral("steps"), 150);
        config.insert(QStringLiteral("threads"), 1);
        QJsonObject sweep{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QStringLiteral("rest sweep")},
            {QStringLiteral("spec"), specJson_},
            {QStringLiteral("config"), config},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(
                 R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.001,"high":0.05}])")
                 .array()},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("loss")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), 2},
                                                   {QStringLiteral("budget_unit"), QStringLiteral("steps")},
                                                   {QStringLiteral("budget_per_trial"), 150}}}};
        QJsonObject elsewhere = sweep;
        elsewhere.insert(QStringLiteral("target"), QStringLiteral("nowhere"));
        Response r = http(s1_, "POST", QStringLiteral("/api/v1/sweeps"), QJsonDocument(elsewhere).toJson());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.code(), QStringLiteral("unknown_target"));
        r = http(s1_, "POST", QStringLiteral("/api/v1/sweeps"), R"({"format": "diamond.sweep/1"})");
        QCOMPARE(r.status, 400);

        r = http(s1_, "POST", QStringLiteral("/api/v1/sweeps"), QJsonDocument(sweep).toJson());
        QVERIFY2(r.status == 201, r.body.constData());
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(r.json().value(QStringLiteral("controller_pid")).toInteger(), s1_.process.processId());
        QString state;
        QVERIFY(QTest::qWaitFor(
            [&] {
                state = http(s1_, "GET", QStringLiteral("/api/v1/sweeps/%1").arg(id))
                            .json()
                            .value(QStringLiteral("state"))
                            .toString();
                return state == QLatin1String("completed");
            },
            120000));
        r = http(s1_, "GET", QStringLiteral("/api/v1/sweeps/%1").arg(id));
        const QJsonArray trials = r.json().value(QStringLiteral("trials")).toArray();
        QCOMPARE(trials.size(), 2);
        for (const QJsonValue &t : trials) {
            const qint64 runId = t.toObject().value(QStringLiteral("run_id")).toInteger();
            QCOMPARE(http(s1_, "GET", QStringLiteral("/api/v1/runs/%1").arg(runId))
                         .json()
                         .value(QStringLiteral("state"))
                         .toString(),
                     QStringLiteral("finished"));
        }
        for (const char *action : {"pause", "stop"}) {
            r = http(s1_, "POST", QStringLiteral("/api/v1/sweeps/%1/%2").arg(id).arg(QLatin1String(action)));
            QCOMPARE(r.status, 409);
            QCOMPARE(r.code(), QStringLiteral("conflict"));
        }
        QCOMPARE(http(s1_, "POST", QStringLiteral("/api/v1/sweeps/999/stop")).status, 404);
    }

    void dataPathsStayInTheDataFolder() {
        // A REST client names data only inside <workspace>/data; what it is told back has no server paths and no
        // file content.
        const QString data = QDir(ws1_).filePath(QStringLiteral("data"));
        QVERIFY(QDir().mkpath(data));
        QFile csv(QDir(data).filePath(QStringLiteral("bad.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("x,y\n1,0\n2,1\nsecretvalue,1\n");
        csv.close();
        QFile::remove(QDir(data).filePath(QStringLiteral("escape.csv")));
        QVERIFY(QFile::link(QStringLiteral("/etc/passwd"), QDir(data).filePath(QStringLiteral("escape.csv"))));
        auto body = [&](const QJsonObject &dataSection, const QJsonObject &execution = {}) {
            QJsonObject config = configJson_;
            config.insert(QStringLiteral("steps"), 20);
            config.insert(QStringLiteral("threads"), 1);
            config.insert(QStringLiteral("data"), dataSection);
            QJsonObject b{{QStringLiteral("spec"), specJson_}, {QStringLiteral("config"), config}};
            if (!execution.isEmpty()) b.insert(QStringLiteral("execution"), execution);
            return QJsonDocument(b).toJson();
        };
        auto csvData = [](const QString &path) {
            return QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                               {QStringLiteral("path"), path},
                               {QStringLiteral("target"), QStringLiteral("y")}};
        };
        for (const QString &path :
             {QStringLiteral("/etc/passwd"), QStringLiteral("../diamond.db"), QStringLiteral("sub/../../diamond.db"),
              QStringLiteral("escape.csv"), QStringLiteral("missing.csv"), QStringLiteral("~/x.csv"),
              QStringLiteral("/dev/zero")}) {
            const Response r = http(s1_, "POST", QStringLiteral("/api/v1/runs"), body(csvData(path)));
            QVERIFY2(r.status == 400, qPrintable(path + QStringLiteral(": ") + QString::fromUtf8(r.body)));
            QCOMPARE(r.code(), QStringLiteral("path_not_allowed"));
            QVERIFY2(!r.body.contains(ws1_.toUtf8()), r.body.constData());
        }
        Response r = http(s1_, "POST", QStringLiteral("/api/v1/runs"),
                          body(csvData(QStringLiteral("bad.csv")),
                               {{QStringLiteral("init_weights"), QStringLiteral("/etc/passwd")}}));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.code(), QStringLiteral("path_not_allowed"));

        r = http(s1_, "POST", QStringLiteral("/api/v1/runs"), body(csvData(QStringLiteral("bad.csv"))));
        QVERIFY2(r.status == 201, r.body.constData());
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(r.json()
                     .value(QStringLiteral("config"))
                     .toObject()
                     .value(QStringLiteral("data"))
                     .toObject()
                     .value(QStringLiteral("path"))
                     .toString(),
                 QStringLiteral("bad.csv"));
        QCOMPARE(waitForState(s1_, id, {QStringLiteral("failed")}), QStringLiteral("failed"));
        r = http(s1_, "GET", QStringLiteral("/api/v1/runs/%1").arg(id));
        const QString message = r.json().value(QStringLiteral("exit_message")).toString();
        QVERIFY2(message.contains(QStringLiteral("bad.csv:4")), qPrintable(message)); // still says where
        QVERIFY2(!r.body.contains("secretvalue"), r.body.constData());
        QVERIFY2(!r.body.contains(ws1_.toUtf8()), r.body.constData());

        QJsonObject sweep{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("spec"), specJson_},
            {QStringLiteral("config"), QJsonObject{{QStringLiteral("data"), csvData(QStringLiteral("/etc/passwd"))}}}};
        r = http(s1_, "POST", QStringLiteral("/api/v1/sweeps"), QJsonDocument(sweep).toJson());
        QCOMPARE(r.status, 400);
        QCOMPARE(r.code(), QStringLiteral("path_not_allowed"));
    }

    void publishBrowseDownloadImportVerify() {
        const QByteArray card = "# Spirals over REST\n\nA *custom* card written by the publisher.";
        Response r = http(s1_, "POST", QStringLiteral("/api/v1/runs/1/publish"),
                          QJsonDocument(QJsonObject{{QStringLiteral("card"), QString::fromUtf8(card)},
                                                    {QStringLiteral("tags"),
                                                     QJsonArray{QStringLiteral("spirals"), QStringLiteral("rest")}},
                                                    {QStringLiteral("domain"), QStringLiteral("toy")},
                                                    {QStringLiteral("authors"), QJsonArray{QStringLiteral("Ada")}}})
                              .toJson());
        QVERIFY2(r.status == 201, r.body.constData());
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        // Browse from a client: search, detail, thumbnail.
        r = http(s1_, "GET", QStringLiteral("/api/v1/gallery?q=custom%20card&domain=toy"));
        QCOMPARE(r.json().value(QStringLiteral("total")).toInt(), 1);
        QCOMPARE(http(s1_, "GET", QStringLiteral("/api/v1/gallery?q=nomatchatall"))
                     .json()
                     .value(QStringLiteral("total"))
                     .toInt(),
                 0);
        QCOMPARE(http(s1_, "GET", QStringLiteral("/api/v1/gallery?sort=bogus")).status, 400);
        r = http(s1_, "GET", QStringLiteral("/api/v1/gallery/%1").arg(id));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("card")).toString().toUtf8(), card);
        const QJsonObject manifest = r.json().value(QStringLiteral("manifest")).toObject();
        QCOMPARE(manifest.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("run_id")).toInt(), 1);
        QCOMPARE(manifest.value(QStringLiteral("inputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("shape"))
                     .toArray(),
                 (QJsonArray{QStringLiteral("N"), 2}));
        QCOMPARE(manifest.value(QStringLiteral("outputs"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("shape"))
                     .toArray(),
                 (QJsonArray{QStringLiteral("N"), 3}));
        r = http(s1_, "GET", QStringLiteral("/api/v1/gallery/%1/thumbnail").arg(id));
        QCOMPARE(r.status, 200);
        QVERIFY(r.body.startsWith("\x89PNG"));
        // Download, check the hash, upload to the second workspace's server.
        r = http(s1_, "GET", QStringLiteral("/api/v1/gallery/%1/package").arg(id));
        QCOMPARE(r.status, 200);
        const QByteArray sha = QCryptographicHash::hash(r.body, QCryptographicHash::Sha256).toHex();
        QCOMPARE(r.headers.value("x-diamond-package-sha256"), sha);
        const QByteArray package = r.body;
        r = http(s2_, "POST", QStringLiteral("/api/v1/gallery"), package, {}, "application/octet-stream");
        QVERIFY2(r.status == 201, r.body.constData());
        QCOMPARE(r.json().value(QStringLiteral("package_sha256")).toString().toLatin1(), sha);
        // "consistent" only when the engine re-ran the test inputs and matched; signed by the publishing user, whom
        // the receiving gallery does not trust.
        QProcess probe;
        probe.start(diamond::test::binary(QStringLiteral("diamond-train")), {QStringLiteral("--help")});
        QVERIFY(probe.waitForFinished(30000));
        const bool enginePredicts = probe.readAllStandardOutput().contains("diamond-train predict");
        QCOMPARE(r.json().value(QStringLiteral("consistent")).toBool(), enginePredicts);
        const QJsonObject signature = r.json().value(QStringLiteral("signature")).toObject();
        QVERIFY2(signature.value(QStringLiteral("fingerprint")).toString().startsWith(QStringLiteral("SHA256:")),
                 r.body.constData());
        QCOMPARE(signature.value(QStringLiteral("trusted")).toBool(), false);
        if (!enginePredicts)
            QVERIFY(r.json().value(QStringLiteral("verify_message")).toString().contains(QStringLiteral("predict")));
        r = http(s2_, "POST", QStringLiteral("/api/v1/gallery"), package, {}, "application/octet-stream");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QStringLiteral("already_present")).toBool(), true);
        QCOMPARE(http(s2_, "GET", QStringLiteral("/api/v1/gallery")).json().value(QStringLiteral("total")).toInt(), 1);
        // The CLI imports the same file into a third workspace.
        const QString file = home_.filePath(QStringLiteral("downloaded.diamond"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(package);
        f.close();
        QString out;
        QCOMPARE(ctl(ws3_, {QStringLiteral("gallery"), QStringLiteral("import"), file, QStringLiteral("--json")}, &out),
                 0);
        QCOMPARE(QJsonDocument::fromJson(out.toUtf8())
                     .object()
                     .value(QStringLiteral("package_sha256"))
                     .toString()
                     .toLatin1(),
                 sha);
        QCOMPARE(ctl(ws3_,
                     {QStringLiteral("gallery"), QStringLiteral("search"), QStringLiteral("spirals"),
                      QStringLiteral("--json")},
                     &out),
                 0);
        QCOMPARE(QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("total")).toInt(), 1);
        const QString exported = home_.filePath(QStringLiteral("exported.diamond"));
        QCOMPARE(ctl(ws3_, {QStringLiteral("gallery"), QStringLiteral("export"), QStringLiteral("1"), exported}), 0);
        QCOMPARE(QCryptographicHash::hash(readFile(exported), QCryptographicHash::Sha256).toHex(), sha);
    }

    /// Publishing waits for the engine on a worker thread: other requests are answered meanwhile.
    void serverAnswersWhilePublishing() {
        QNetworkRequest req(QUrl(QStringLiteral("http://127.0.0.1:%1/api/v1/runs/1/publish").arg(s1_.port)));
        req.setRawHeader("Authorization", "Bearer " + s1_.token.toLatin1());
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        QElapsedTimer t;
        t.start();
        QNetworkReply *publish = nam_.post(req, R"({"name": "concurrent", "tags": ["concurrency"]})");
        qint64 publishDone = -1, readDone = -1;
        connect(publish, &QNetworkReply::finished, this, [&] { publishDone = t.elapsed(); });
        QTest::qWait(50); // the publish request is in the server
        const Response r = http(s1_, "GET", QStringLiteral("/api/v1/projects"));
        readDone = t.elapsed();
        QCOMPARE(r.status, 200);
        QTRY_VERIFY_WITH_TIMEOUT(publishDone >= 0, 120000);
        QCOMPARE(publish->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 201);
        QVERIFY2(readDone < publishDone,
                 qPrintable(QStringLiteral("read %1 ms, publish %2 ms").arg(readDone).arg(publishDone)));
        publish->deleteLater();
    }

    void publishUnfinishedRunRefused() {
        const Response created = http(s1_, "POST", QStringLiteral("/api/v1/runs"), runBody(10, false));
        QCOMPARE(created.status, 201);
        const Response r =
            http(s1_, "POST",
                 QStringLiteral("/api/v1/runs/%1/publish").arg(created.json().value(QStringLiteral("id")).toInteger()));
        QCOMPARE(r.status, 409);
        QCOMPARE(r.code(), QStringLiteral("run_not_finished"));
    }

    void zipSlipAndSymlinkUploadsRefused() {
        const QStringList before = QDir(QDir(ws1_).filePath(QStringLiteral("gallery/packages"))).entryList(QDir::Files);
        const QString slip = home_.filePath(QStringLiteral("slip.diamond"));
        QVERIFY(writePythonZip(
            slip, QStringLiteral("[('manifest.json', b'{}', 0o100644), ('../../evil.txt', b'owned', 0o100644)]")));
        Response r =
            http(s1_, "POST", QStringLiteral("/api/v1/gallery"), readFile(slip), {}, "application/octet-stream");
        QCOMPARE(r.status, 422);
        QCOMPARE(r.code(), QStringLiteral("package_path_traversal"));
        const QString link = home_.filePath(QStringLiteral("link.diamond"));
        QVERIFY(writePythonZip(link, QStringLiteral("[('weights.safetensors', b'/etc/passwd', 0o120777)]")));
        r = http(s1_, "POST", QStringLiteral("/api/v1/gallery"), readFile(link), {}, "application/octet-stream");
        QCOMPARE(r.status, 422);
        QCOMPARE(r.code(), QStringLiteral("package_symlink"));
        const QString abs = home_.filePath(QStringLiteral("abs.diamond"));
        QVERIFY(writePythonZip(abs, QStringLiteral("[('/tmp/evil.txt', b'owned', 0o100644)]")));
        QCOMPARE(
            http(s1_, "POST", QStringLiteral("/api/v1/gallery"), readFile(abs), {}, "application/octet-stream").code(),
            QStringLiteral("package_absolute_path"));
        QCOMPARE(
            http(s1_, "POST", QStringLiteral("/api/v1/gallery"), "not a zip", {}, "application/octet-stream").code(),
            QStringLiteral("package_not_zip"));
        QVERIFY(!QFile::exists(QDir(ws1_).filePath(QStringLiteral("evil.txt"))));
        QVERIFY(!QFile::exists(QDir(ws1_).filePath(QStringLiteral("gallery/evil.txt"))));
        QCOMPARE(QDir(QDir(ws1_).filePath(QStringLiteral("gallery/packages"))).entryList(QDir::Files), before);
        QVERIFY(QDir(QDir(ws1_).filePath(QStringLiteral("gallery/tmp")))
                    .entryList(QDir::AllEntries | QDir::NoDotAndDotDot)
                    .isEmpty());
    }

    void pathTraversalRefused() {
        for (const char *path : {"/api/v1/gallery/../../diamond.db", "/api/v1/gallery/1/../../../../etc/passwd",
                                 "/api/v1/gallery/..%2F..%2Fdiamond.db/package", "/api/v1/gallery/1.diamond/package",
                                 "/api/v1/gallery/-1/package", "/api/v1/runs/1%00/metrics"}) {
            const QByteArray answer = raw(
                s1_, QByteArray("GET ") + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer " +
                         s1_.token.toLatin1() + "\r\n\r\n");
            QVERIFY2(answer.startsWith("HTTP/1.1 404") || answer.startsWith("HTTP/1.1 400"),
                     QByteArray(QByteArray(path) + " -> " + answer.left(200)).constData());
            QVERIFY(!answer.contains("root:"));
            QVERIFY(!answer.contains("SQLite format"));
        }
    }

    /// Peak resident memory of a process in MB (VmHWM).
    static qint64 peakRssMb(qint64 pid) {
        QFile f(QStringLiteral("/proc/%1/status").arg(pid));
        if (!f.open(QIODevice::ReadOnly)) return -1;
        for (const QByteArray &line : f.readAll().split('\n'))
            if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').value(0).toLongLong() / 1024;
        return -1;
    }

    /// Sends `head`, then up to `bodyBytes` of body in 1 MiB pieces while reading; returns what the server answered.
    QByteArray sendHeadThenBody(const Server &s, const QByteArray &head, qint64 bodyBytes, bool *closed = nullptr) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, s.port);
        if (!socket.waitForConnected(5000)) return {};
        socket.write(head);
        socket.waitForBytesWritten(5000);
        QByteArray got;
        const QByteArray chunk(1 << 20, 'z');
        for (qint64 sent = 0; sent < bodyBytes && socket.state() == QAbstractSocket::ConnectedState;
             sent += chunk.size()) {
            socket.write(chunk);
            socket.waitForBytesWritten(2000);
            got += socket.readAll();
        }
        for (int i = 0; i < 20 && !got.contains('}') && socket.state() == QAbstractSocket::ConnectedState; ++i) {
            socket.waitForReadyRead(250);
            got += socket.readAll();
        }
        if (closed) *closed = socket.state() != QAbstractSocket::ConnectedState || socket.waitForDisconnected(7000);
        return got + socket.readAll();
    }

    void unauthenticatedBodiesAreNeverRead() {
        // A request without the token is refused on its headers: the answer comes before the body is sent, and a
        // client that sends the body anyway does not make the server hold it (peak memory).
        const qint64 before = peakRssMb(s1_.process.processId());
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, s1_.port);
        QVERIFY(socket.waitForConnected(5000));
        socket.write("POST /api/v1/gallery HTTP/1.1\r\nHost: x\r\nContent-Length: 400000000\r\n\r\n");
        QByteArray got;
        for (int i = 0; i < 20 && !got.contains('}'); ++i) {
            socket.waitForReadyRead(100);
            got += socket.readAll();
        }
        QVERIFY2(got.startsWith("HTTP/1.1 401"), got.left(200).constData());
        socket.abort();
        got = sendHeadThenBody(s1_, "POST /api/v1/gallery HTTP/1.1\r\nHost: x\r\nContent-Length: 400000000\r\n\r\n",
                               qint64(300) << 20);
        QVERIFY2(got.startsWith("HTTP/1.1 401"), got.left(200).constData());
        const qint64 after = peakRssMb(s1_.process.processId());
        QVERIFY2(after - before < 40, qPrintable(QStringLiteral("peak memory %1 -> %2 MB").arg(before).arg(after)));
        QCOMPARE(http(s1_, "GET", QStringLiteral("/api/v1/projects")).status, 200);
    }

    void uploadsAreStreamedToDisk() {
        // An authenticated 200 MB upload (not a package) goes to a file, not into memory, and is refused as a
        // package afterwards; the temporary file is gone.
        const qint64 before = peakRssMb(s1_.process.processId());
        const QByteArray got =
            sendHeadThenBody(s1_,
                             "POST /api/v1/gallery HTTP/1.1\r\nHost: x\r\nContent-Length: 209715200\r\n"
                             "Authorization: Bearer " +
                                 s1_.token.toLatin1() + "\r\n\r\n",
                             qint64(200) << 20);
        QVERIFY2(got.startsWith("HTTP/1.1 4"), got.left(300).constData());
        QVERIFY(got.contains("package"));
        const qint64 after = peakRssMb(s1_.process.processId());
        QVERIFY2(after - before < 60, qPrintable(QStringLiteral("peak memory %1 -> %2 MB").arg(before).arg(after)));
        QTRY_VERIFY(QDir(QDir(ws1_).filePath(QStringLiteral("gallery/tmp")))
                        .entryList({QStringLiteral("upload-*")}, QDir::Files)
                        .isEmpty());
    }

    void slowAndIdleConnectionsAreClosed() {
        Server s3;
        QVERIFY(startServer(s3, ws3_,
                            {QStringLiteral("--header-timeout"), QStringLiteral("2"), QStringLiteral("--idle-timeout"),
                             QStringLiteral("2")}));
        // Headers trickling in (slowloris): cut off with 408 after the header timeout.
        QTcpSocket slow;
        slow.connectToHost(QHostAddress::LocalHost, s3.port);
        QVERIFY(slow.waitForConnected(5000));
        QElapsedTimer t;
        t.start();
        QByteArray got;
        const QByteArray head = "GET /api/v1/projects HTTP/1.1\r\nHost: x\r\nX-Slow: ";
        for (int i = 0; t.elapsed() < 8000 && slow.state() == QAbstractSocket::ConnectedState && !got.contains('}');
             ++i) {
            slow.write(head.mid(i, 1).isEmpty() ? QByteArray("a") : head.mid(i, 1));
            slow.waitForBytesWritten(500);
            slow.waitForReadyRead(400);
            got += slow.readAll();
        }
        QVERIFY2(got.startsWith("HTTP/1.1 408"), got.left(200).constData());
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        // A connection that sends nothing after its answer is closed.
        QTcpSocket idle;
        idle.connectToHost(QHostAddress::LocalHost, s3.port);
        QVERIFY(idle.waitForConnected(5000));
        idle.write("GET /api/v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + s3.token.toLatin1() +
                   "\r\n\r\n");
        QVERIFY(idle.waitForReadyRead(5000));
        QVERIFY(idle.readAll().startsWith("HTTP/1.1 200"));
        t.restart();
        QVERIFY(idle.state() == QAbstractSocket::UnconnectedState || idle.waitForDisconnected(6000));
        QVERIFY2(t.elapsed() >= 1500, qPrintable(QString::number(t.elapsed())));
        s3.process.terminate();
        QVERIFY(s3.process.waitForFinished(10000));
    }

    void requestLimits() {
        QByteArray big(300000, 'x');
        Response r = http(s2_, "POST", QStringLiteral("/api/v1/gallery"), big, {}, "application/octet-stream");
        QCOMPARE(r.status, 413);
        QCOMPARE(r.code(), QStringLiteral("payload_too_large"));
        r = http(s2_, "POST", QStringLiteral("/api/v1/projects"), "{\"name\": \"" + QByteArray(70000, 'a') + "\"}");
        QCOMPARE(r.status, 413);
        QByteArray answer = raw(
            s2_, "POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer " +
                     s2_.token.toLatin1() + "\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 411"), answer.left(200).constData());
        answer = raw(s2_, "GET /api/v1/projects HTTP/1.1\r\nHost: x\r\nX-Big: " + QByteArray(70000, 'h') + "\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 431"), answer.left(200).constData());
        // Headers announcing a huge body are refused before the body is sent.
        answer = raw(
            s2_, "POST /api/v1/gallery HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000000\r\nAuthorization: Bearer " +
                     s2_.token.toLatin1() + "\r\n\r\n");
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.left(200).constData());
        // Headers split over several writes are checked as well.
        {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, s2_.port);
            QVERIFY(socket.waitForConnected(5000));
            socket.write("POST /api/v1/gallery HTTP/1.1\r\nHost: x\r\nContent-Le");
            QVERIFY(socket.waitForBytesWritten(5000));
            QTest::qWait(300);
            socket.write("ngth: 5000000\r\nAuthorization: Bearer " + s2_.token.toLatin1() + "\r\n\r\n");
            QByteArray got;
            for (int i = 0; i < 25 && !got.contains("}"); ++i) {
                socket.waitForReadyRead(200);
                got += socket.readAll();
            }
            QVERIFY2(got.startsWith("HTTP/1.1 413"), got.left(200).constData());
        }
        // The second request of a kept-alive connection is checked too.
        {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, s2_.port);
            QVERIFY(socket.waitForConnected(5000));
            const QByteArray spec = readFile(spec_);
            socket.write("POST /api/v1/specs/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                         s2_.token.toLatin1() + "\r\nContent-Length: " + QByteArray::number(spec.size()) + "\r\n\r\n" +
                         spec);
            QByteArray got;
            for (int i = 0; i < 25 && !got.contains("\"valid\""); ++i) {
                socket.waitForReadyRead(200);
                got += socket.readAll();
            }
            QVERIFY2(got.startsWith("HTTP/1.1 200"), got.left(200).constData());
            socket.write("POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + s2_.token.toLatin1() +
                         "\r\nContent-Length: 1000000\r\n\r\n");
            got.clear();
            for (int i = 0; i < 25 && !got.contains("payload_too_large"); ++i) {
                socket.waitForReadyRead(200);
                got += socket.readAll();
            }
            QVERIFY2(got.startsWith("HTTP/1.1 413"), got.left(200).constData());
        }
        // The server is still serving.
        QCOMPARE(http(s2_, "GET", QStringLiteral("/api/v1/projects")).status, 200);
        QCOMPARE(s2_.process.state(), QProcess::Running);
    }
};

QTEST_GUILESS_MAIN(TestRestApi)
#include "tst_it_rest_api.moc"
