// Training on a class server from another workspace (the desktop app's "server:" target, app/run/server_executor.h)
// against a real `diamondctl serve` on 127.0.0.1 with a student's token: the run is created on the server, its
// events come back into the local run's events.jsonl and the local workspace records the curve and the result as
// for a local run; the events route gives whole lines from an offset, paths reduced to file names, and refuses
// other students and bad offsets.
#include "common/rest_test_server.h"

#include "app/run/class_server.h"
#include "app/run/run_service.h"
#include "app/workspace/workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using test::RestTestServer;

class TestClassServerRuns : public QObject {
    Q_OBJECT

    QTemporaryDir home_;
    QString serverWs_;
    RestTestServer server_;
    QString alice_, bob_;

    QProcessEnvironment env() const { return RestTestServer::environment(home_); }

    QString addStudent(const QString &name) {
        QString out;
        if (RestTestServer::ctl(env(), serverWs_,
                                {QStringLiteral("user"), QStringLiteral("add"), name, QStringLiteral("--role"),
                                 QStringLiteral("student"), QStringLiteral("--json")},
                                &out) != 0)
            return {};
        return QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("token")).toString();
    }

    static QJsonObject readJson(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
    }

    /// The spirals example as a new run on `target`.
    static app::RunService::NewRun spiralsRun(const QString &target) {
        app::RunService::NewRun n;
        n.spec = readJson(QStringLiteral(DIAMOND_SOURCE_DIR "/resources/examples/spirals/spec.json"));
        n.config = readJson(QStringLiteral(DIAMOND_SOURCE_DIR "/resources/examples/spirals/run.json"));
        n.target = target;
        return n;
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(server_.port())); }

    /// Signs in with `token`; the server, or an empty name with *error.
    app::ClassServer signIn(const QString &token, QString *error) {
        app::ClassServerClient client(url(), token);
        app::ClassServer result;
        bool done = false;
        client.signIn([&](const app::ClassServer &s, const QString &e) {
            result = s;
            *error = e;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 20000)) *error = QStringLiteral("no answer");
        return result;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(home_.isValid());
        serverWs_ = home_.filePath(QStringLiteral("server-ws"));
        QCOMPARE(RestTestServer::ctl(env(), serverWs_, {QStringLiteral("init")}), 0);
        alice_ = addStudent(QStringLiteral("alice"));
        bob_ = addStudent(QStringLiteral("bob"));
        QVERIFY(!alice_.isEmpty() && !bob_.isEmpty());
        // Hour quotas are checked every second here (default 60 s).
        QVERIFY(server_.start(env(), serverWs_, {QStringLiteral("--quota-check"), QStringLiteral("1")}));
    }

    void signInChecksTheToken() {
        QString error;
        const app::ClassServer s = signIn(alice_, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(s.user, QStringLiteral("alice"));
        QCOMPARE(s.role, QStringLiteral("student"));
        QCOMPARE(s.name, QStringLiteral("alice@127.0.0.1:%1").arg(server_.port()));
        signIn(QStringLiteral("not-a-token"), &error);
        QVERIFY2(error.contains(QStringLiteral("does not accept")), qPrintable(error));
        app::ClassServerClient bad(QUrl(QStringLiteral("ftp://127.0.0.1/")), alice_);
        bool done = false;
        bad.signIn([&](const app::ClassServer &, const QString &e) {
            error = e;
            done = true;
        });
        QVERIFY(done);
        QVERIFY2(error.contains(QStringLiteral("http://")), qPrintable(error));
    }

    void studentTrainsOnTheServerFromALocalWorkspace() {
        QString error;
        const app::ClassServer alice = signIn(alice_, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        app::Workspace local;
        QVERIFY(local.create(home_.filePath(QStringLiteral("laptop"))));
        app::RunService service(local);
        app::RunService::NewRun n = spiralsRun(app::classServerTarget(alice.name));
        n.project = QStringLiteral("Lesson 1 - Spirals");
        n.config.insert(QStringLiteral("epochs"), 3);
        QVERIFY(!service.createRun(n)); // not signed in yet
        QVERIFY2(service.errorString().contains(QStringLiteral("Not signed in")), qPrintable(service.errorString()));
        service.addClassServer(alice);
        const auto run = service.createRun(n);
        QVERIFY2(run, qPrintable(service.errorString()));
        QSignalSpy ended(&service, &app::RunService::runEnded);
        QVERIFY2(service.start(run->id), qPrintable(service.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 120000);
        QCOMPARE(ended.first().at(1).value<app::RunState>(), app::RunState::Finished);

        app::RunStore store(local);
        const auto done = store.run(run->id);
        QVERIFY(done);
        QVERIFY2(done->finalMetrics.value(QStringLiteral("val_accuracy")).toDouble() > 0.4,
                 QJsonDocument(done->finalMetrics).toJson().constData());
        QVERIFY(store.metricPoints(run->id, QStringLiteral("loss"), app::MetricSplit::Train).size() >= 3);

        // The server has the run, owned by alice, in the lesson's project; its id is in server-run.json.
        const QJsonObject record = readJson(local.runDirectory(run->id) + QStringLiteral("/server-run.json"));
        const qint64 remote = record.value(QStringLiteral("remote_run")).toInteger();
        QVERIFY(remote > 0);
        const auto onServer = server_.request("GET", QStringLiteral("/api/v1/runs/%1").arg(remote), {}, alice_);
        QCOMPARE(onServer.status, 200);
        QCOMPARE(onServer.json().value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(onServer.json().value(QStringLiteral("owner")).toString(), QStringLiteral("alice"));

        // The mirrored events.jsonl is the server's, line for line, with no path of the server in it.
        QFile events(local.runDirectory(run->id) + QStringLiteral("/events.jsonl"));
        QVERIFY(events.open(QIODevice::ReadOnly));
        const QByteArray mirrored = events.readAll();
        QVERIFY(mirrored.contains("\"event\":\"finished\""));
        QVERIFY2(!mirrored.contains(serverWs_.toUtf8()), mirrored.left(400).constData());
        const qint64 lines = mirrored.count('\n');
        QCOMPARE(record.value(QStringLiteral("offset")).toInteger(),
                 QFileInfo(serverWs_ + QStringLiteral("/runs/%1/events.jsonl").arg(remote)).size());
        QVERIFY(lines > 5);

        // The events route: from an offset, whole lines; bob may not read alice's run; a bad offset is refused.
        const auto all = server_.request("GET", QStringLiteral("/api/v1/runs/%1/events").arg(remote), {}, alice_);
        QCOMPARE(all.status, 200);
        QCOMPARE(all.body.count('\n'), lines);
        const qint64 firstLine = all.body.indexOf('\n') + 1;
        const auto rest =
            server_.request("GET", QStringLiteral("/api/v1/runs/%1/events?offset=99999999").arg(remote), {}, alice_);
        QCOMPARE(rest.status, 200);
        QVERIFY(rest.body.isEmpty());
        QVERIFY(firstLine > 0);
        QVERIFY(server_.request("GET", QStringLiteral("/api/v1/runs/%1/events").arg(remote), {}, bob_).status >= 403);

        // A line longer than an answer (1 MiB) is replaced by a warning, and the next line still arrives.
        const QString serverEvents = serverWs_ + QStringLiteral("/runs/%1/events.jsonl").arg(remote);
        const qint64 before = QFileInfo(serverEvents).size();
        {
            QFile f(serverEvents);
            QVERIFY(f.open(QIODevice::Append));
            f.write("{\"event\":\"eval\",\"pad\":\"" + QByteArray(1536 * 1024, 'x') + "\"}\n");
            f.write("{\"event\":\"warning\",\"message\":\"after the big one\"}\n");
        }
        auto big = server_.request("GET", QStringLiteral("/api/v1/runs/%1/events?offset=%2").arg(remote).arg(before),
                                   {}, alice_);
        QCOMPARE(big.status, 200);
        QVERIFY2(big.body.contains("was left out") && big.body.size() < 1000, big.body.left(300).constData());
        const qint64 afterBig = big.header("X-Diamond-Next-Offset").toLongLong();
        QCOMPARE(afterBig, before + 1536 * 1024 + 26); // just past the long line
        const auto rest2 = server_.request(
            "GET", QStringLiteral("/api/v1/runs/%1/events?offset=%2").arg(remote).arg(afterBig), {}, alice_);
        QVERIFY2(rest2.body.contains("after the big one"), rest2.body.left(300).constData());
        QCOMPARE(
            server_.request("GET", QStringLiteral("/api/v1/runs/%1/events?offset=-5").arg(remote), {}, alice_).status,
            400);
        QCOMPARE(
            server_.request("GET", QStringLiteral("/api/v1/runs/%1/events?offset=x").arg(remote), {}, alice_).status,
            400);
    }

    void theServersClustersAreTargets() {
        // A cluster profile of the server workspace is offered as "server:NAME/CLUSTER"; others are refused.
        QCOMPARE(RestTestServer::ctl(env(), serverWs_,
                                     {QStringLiteral("cluster"), QStringLiteral("add"), QStringLiteral("campus-hpc"),
                                      QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                                      QStringLiteral("--scratch"), QStringLiteral("/tmp/scratch"),
                                      QStringLiteral("--engine"), QStringLiteral("/opt/diamond/bin/diamond-train")}),
                 0);
        QString error;
        const app::ClassServer alice = signIn(alice_, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(alice.clusters, QStringList{QStringLiteral("campus-hpc")});
        const QString onCluster = app::classServerTarget(alice.name, QStringLiteral("campus-hpc"));
        QCOMPARE(onCluster, QStringLiteral("server:%1/campus-hpc").arg(alice.name));
        QCOMPARE(app::classServerName(onCluster), alice.name);
        QCOMPARE(app::classServerRemoteTarget(onCluster), QStringLiteral("campus-hpc"));
        QCOMPARE(app::classServerRemoteTarget(app::classServerTarget(alice.name)), QStringLiteral("local"));

        app::Workspace local;
        QVERIFY(local.create(home_.filePath(QStringLiteral("laptop3"))));
        app::RunService service(local);
        service.addClassServer(alice);
        app::RunService::NewRun n = spiralsRun(onCluster);
        QVERIFY2(service.createRun(n), qPrintable(service.errorString()));
        n.target = app::classServerTarget(alice.name, QStringLiteral("elsewhere"));
        QVERIFY(!service.createRun(n));
        QVERIFY2(service.errorString().contains(QStringLiteral("no cluster 'elsewhere'")),
                 qPrintable(service.errorString()));
    }

    void aQuotaReachedStopsTheRunningRun() {
        // carol may use 0.0003 CPU hours (1.08 s of one thread): her run starts, and the server stops it once she has
        // used them, saying why.
        QString out;
        QCOMPARE(
            RestTestServer::ctl(env(), serverWs_,
                                {QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("carol"),
                                 QStringLiteral("--role"), QStringLiteral("student"), QStringLiteral("--cpu-hours"),
                                 QStringLiteral("0.0003"), QStringLiteral("--json")},
                                &out),
            0);
        const QString carol = QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("token")).toString();
        QJsonObject config = readJson(QStringLiteral(DIAMOND_SOURCE_DIR "/resources/examples/spirals/run.json"));
        config.insert(QStringLiteral("epochs"), 5000);
        const QByteArray body =
            QJsonDocument(
                QJsonObject{{QStringLiteral("spec"),
                             readJson(QStringLiteral(DIAMOND_SOURCE_DIR "/resources/examples/spirals/spec.json"))},
                            {QStringLiteral("config"), config},
                            {QStringLiteral("execution"), QJsonObject{{QStringLiteral("threads"), 1}}}})
                .toJson();
        const auto created = server_.request("POST", QStringLiteral("/api/v1/runs"), body, carol);
        QCOMPARE(created.status, 201);
        const qint64 id = created.json().value(QStringLiteral("id")).toInteger();
        QElapsedTimer clock;
        clock.start();
        QString state;
        QByteArray run;
        while (clock.elapsed() < 60000) {
            run = server_.request("GET", QStringLiteral("/api/v1/runs/%1").arg(id), {}, carol).body;
            state = QJsonDocument::fromJson(run).object().value(QStringLiteral("state")).toString();
            if (state == QLatin1String("cancelled") || state == QLatin1String("finished") ||
                state == QLatin1String("failed"))
                break;
            QTest::qWait(250);
        }
        QCOMPARE(state, QStringLiteral("cancelled"));
        qInfo("carol's run was stopped %lld ms after it was created", clock.elapsed());
        QVERIFY2(run.contains("Stopped: carol has used"), run.left(600).constData());
        // A new run is refused at once.
        QCOMPARE(server_.request("POST", QStringLiteral("/api/v1/runs"), body, carol).status, 429);
    }

    void cancelReachesTheServer() {
        QString error;
        const app::ClassServer alice = signIn(alice_, &error);
        app::Workspace local;
        QVERIFY(local.create(home_.filePath(QStringLiteral("laptop2"))));
        app::RunService service(local);
        service.addClassServer(alice);
        app::RunService::NewRun n = spiralsRun(app::classServerTarget(alice.name));
        n.config.insert(QStringLiteral("epochs"), 2000);
        const auto run = service.createRun(n);
        QVERIFY(run);
        QSignalSpy ended(&service, &app::RunService::runEnded);
        QVERIFY(service.start(run->id));
        app::RunStore store(local);
        QTRY_VERIFY_WITH_TIMEOUT(store.metricPointCount(run->id) > 0, 60000);
        QVERIFY2(service.cancel(run->id), qPrintable(service.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, 60000);
        QCOMPARE(ended.first().at(1).value<app::RunState>(), app::RunState::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestClassServerRuns)
#include "tst_it_class_server_runs.moc"
