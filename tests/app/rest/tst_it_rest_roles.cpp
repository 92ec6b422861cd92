// Users and roles of the REST API against a real `diamondctl serve` on 127.0.0.1, with users made by
// `diamondctl user` and real diamond-train runs: every route declares its roles (and the OpenAPI document shows
// them), each role gets 403 where it may not go, students see and act on their own runs only within their quota,
// and renewed or removed tokens stop working at once.
#include "common/rest_test_server.h"

#include "app/rest/rest_server.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using diamond::test::RestResponse;
using diamond::test::RestTestServer;

class TestRestRoles : public QObject {
    Q_OBJECT

    QTemporaryDir home_;
    QString ws_;
    RestTestServer server_;
    QString student_, otherStudent_, instructor_, admin_;
    QJsonObject spec_, config_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HOME"), home_.path());
        e.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        e.insert(QStringLiteral("DIAMOND_TRAIN"), diamond::test::binary(QStringLiteral("diamond-train")));
        return e;
    }

    int ctl(const QStringList &args, QString *out = nullptr) { return RestTestServer::ctl(env(), ws_, args, out); }

    /// `diamondctl user add NAME --role ROLE [extra] --json` -> the printed token (empty on failure).
    QString addUser(const QString &name, const QString &role, const QStringList &extra = {}) {
        QString out;
        if (ctl(QStringList{QStringLiteral("user"), QStringLiteral("add"), name, QStringLiteral("--role"), role} +
                    extra + QStringList{QStringLiteral("--json")},
                &out) != 0)
            return {};
        return QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("token")).toString();
    }

    static QByteArray readFile(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    /// A run body: the spirals example for `steps` steps on one thread, started at once.
    QByteArray runBody(int steps) const {
        QJsonObject config = config_;
        config.insert(QStringLiteral("steps"), steps);
        config.insert(QStringLiteral("threads"), 1);
        return QJsonDocument(QJsonObject{{QStringLiteral("spec"), spec_},
                                         {QStringLiteral("config"), config},
                                         {QStringLiteral("project"), QStringLiteral("Class")}})
            .toJson();
    }

    QList<qint64> runIdsSeenBy(const QString &token) {
        QList<qint64> ids;
        for (const QJsonValue &v : server_.request("GET", QStringLiteral("/api/v1/runs"), {}, token)
                                       .json()
                                       .value(QStringLiteral("runs"))
                                       .toArray())
            ids << v.toObject().value(QStringLiteral("id")).toInteger();
        return ids;
    }

    QString waitForEnd(qint64 id, const QString &token) {
        QElapsedTimer t;
        t.start();
        QString state;
        while (t.elapsed() < 60000) {
            state = server_.request("GET", QStringLiteral("/api/v1/runs/%1").arg(id), {}, token)
                        .json()
                        .value(QStringLiteral("state"))
                        .toString();
            if (state == QLatin1String("cancelled") || state == QLatin1String("finished") ||
                state == QLatin1String("failed"))
                return state;
            QTest::qWait(100);
        }
        return state;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        ws_ = home_.filePath(QStringLiteral("ws"));
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}), 0);
        spec_ = QJsonDocument::fromJson(
                    readFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))))
                    .object();
        config_ = QJsonDocument::fromJson(
                      readFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json"))))
                      .object();
        QVERIFY(!spec_.isEmpty() && !config_.isEmpty());
        student_ = addUser(QStringLiteral("ada"), QStringLiteral("student"),
                           {QStringLiteral("--max-runs"), QStringLiteral("1")});
        otherStudent_ = addUser(QStringLiteral("grace"), QStringLiteral("student"));
        instructor_ = addUser(QStringLiteral("tina"), QStringLiteral("instructor"));
        admin_ = addUser(QStringLiteral("root"), QStringLiteral("admin"));
        for (const QString &t : {student_, otherStudent_, instructor_, admin_})
            QCOMPARE(t.size(), 64);
        QVERIFY(server_.start(env(), ws_));
    }

    void everyRouteDeclaresItsRolesInTheOpenApiDocument() {
        const RestResponse doc = server_.request("GET", QStringLiteral("/api/v1/openapi.json"), {}, student_);
        QCOMPARE(doc.status, 200);
        const QJsonObject paths = doc.json().value(QStringLiteral("paths")).toObject();
        int adminOnly = 0;
        for (const auto &route : diamond::app::rest::RestServer::routeTable()) {
            QVERIFY2(!route.roles.isEmpty(), qPrintable(route.path));
            const QJsonObject op =
                paths.value(route.path).toObject().value(QString::fromLatin1(route.method).toLower()).toObject();
            QStringList shown;
            for (const QJsonValue &v : op.value(QStringLiteral("x-diamond-roles")).toArray())
                shown << v.toString();
            QStringList declared;
            for (auto role : route.roles)
                declared << diamond::app::rest::roleName(role);
            QCOMPARE(shown, declared);
            if (declared.size() < 3)
                QVERIFY2(op.value(QStringLiteral("responses")).toObject().contains(QStringLiteral("403")),
                         qPrintable(route.path));
            if (declared == QStringList{QStringLiteral("admin")}) ++adminOnly;
        }
        QCOMPARE(adminOnly, 6); // the users routes and the engine deploy
    }

    void eachRoleIsRefusedWhereItMayNotGo() {
        struct Case {
            QString token;
            QByteArray method;
            QString path;
            QByteArray body;
            int status;
        };
        const QByteArray newProject = R"({"name": "Lab 1"})";
        const QList<Case> cases{
            {student_, "GET", QStringLiteral("/api/v1/users"), {}, 403},
            {student_, "POST", QStringLiteral("/api/v1/projects"), newProject, 403},
            {student_, "DELETE", QStringLiteral("/api/v1/datasets/iris"), {}, 403},
            {student_, "POST", QStringLiteral("/api/v1/sweeps"), "{}", 403},
            {student_, "GET", QStringLiteral("/api/v1/gallery"), {}, 200},
            {student_, "GET", QStringLiteral("/api/v1/datasets"), {}, 200},
            {student_, "GET", QStringLiteral("/api/v1/clusters"), {}, 200},
            {instructor_, "GET", QStringLiteral("/api/v1/users"), {}, 403},
            {instructor_, "POST", QStringLiteral("/api/v1/clusters/hpc/deploy"), "{}", 403},
            {admin_, "POST", QStringLiteral("/api/v1/clusters/nowhere/deploy"), "{}", 404},
            {instructor_, "POST", QStringLiteral("/api/v1/projects"), newProject, 201},
            {admin_, "GET", QStringLiteral("/api/v1/users"), {}, 200},
            {QStringLiteral("f").repeated(64), "GET", QStringLiteral("/api/v1/gallery"), {}, 401},
        };
        for (const Case &c : cases) {
            const RestResponse r = server_.request(c.method, c.path, c.body, c.token);
            QVERIFY2(r.status == c.status, qPrintable(QStringLiteral("%1 %2: %3 %4")
                                                          .arg(QString::fromLatin1(c.method), c.path)
                                                          .arg(r.status)
                                                          .arg(QString::fromUtf8(r.body))));
            if (c.status == 403) {
                QCOMPARE(r.code(), QStringLiteral("forbidden"));
                const QString message =
                    r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
                const QString role = c.token == student_ ? QStringLiteral("student") : QStringLiteral("instructor");
                QVERIFY2(message.contains(QStringLiteral("has the role ") + role), qPrintable(message));
            }
        }
        const QJsonObject me = server_.request("GET", QStringLiteral("/api/v1/me"), {}, student_).json();
        QCOMPARE(me.value(QStringLiteral("name")).toString(), QStringLiteral("ada"));
        QCOMPARE(me.value(QStringLiteral("role")).toString(), QStringLiteral("student"));
        QCOMPARE(me.value(QStringLiteral("max_active_runs")).toInt(), 1);
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me")).json().value(QStringLiteral("owner")).toBool(),
                 true);
    }

    void studentsSeeAndActOnTheirOwnRunsWithinTheirQuota() {
        // ada (at most 1 at once) starts a long run; a second is refused while it is active.
        const RestResponse first = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(1000000), student_);
        QVERIFY2(first.status == 201, first.body.constData());
        const qint64 id = first.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(first.json().value(QStringLiteral("owner")).toString(), QStringLiteral("ada"));
        const RestResponse second = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(50), student_);
        QCOMPARE(second.status, 429);
        QCOMPARE(second.code(), QStringLiteral("quota_exceeded"));

        // The owner's own run, and grace's: ada sees only hers; the instructor sees all three with their owners.
        const RestResponse owners = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(20));
        QCOMPARE(owners.status, 201);
        const qint64 ownerRun = owners.json().value(QStringLiteral("id")).toInteger();
        const RestResponse graces = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(20), otherStudent_);
        QCOMPARE(graces.status, 201);
        const qint64 graceRun = graces.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(runIdsSeenBy(student_), QList<qint64>{id});
        QCOMPARE(runIdsSeenBy(otherStudent_), QList<qint64>{graceRun});
        QCOMPARE(runIdsSeenBy(instructor_), (QList<qint64>{id, ownerRun, graceRun}));
        const RestResponse seen = server_.request("GET", QStringLiteral("/api/v1/runs/%1").arg(id), {}, instructor_);
        QCOMPARE(seen.json().value(QStringLiteral("owner")).toString(), QStringLiteral("ada"));

        // grace may not look at, stop or publish ada's run; ada may not publish (not allowed) but may stop it.
        for (const auto &[method, path] :
             QList<QPair<QByteArray, QString>>{{"GET", QStringLiteral("/api/v1/runs/%1").arg(id)},
                                               {"GET", QStringLiteral("/api/v1/runs/%1/metrics").arg(id)},
                                               {"POST", QStringLiteral("/api/v1/runs/%1/cancel").arg(id)},
                                               {"POST", QStringLiteral("/api/v1/runs/%1/publish").arg(id)}}) {
            const RestResponse r = server_.request(method, path, {}, otherStudent_);
            QVERIFY2(r.status == 403, qPrintable(path + QStringLiteral(": ") + QString::fromUtf8(r.body)));
            QCOMPARE(r.code(), QStringLiteral("forbidden"));
        }
        const RestResponse publish =
            server_.request("POST", QStringLiteral("/api/v1/runs/%1/publish").arg(id), {}, student_);
        QCOMPARE(publish.status, 403);
        QVERIFY(publish.body.contains("user update"));
        QCOMPARE(server_.request("POST", QStringLiteral("/api/v1/runs/%1/cancel").arg(id), {}, student_).status, 202);
        QCOMPARE(waitForEnd(id, student_), QStringLiteral("cancelled"));

        // With the first run over, the quota lets the next one start (and it trains to the end).
        const RestResponse third = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(50), student_);
        QVERIFY2(third.status == 201, third.body.constData());
        QCOMPARE(waitForEnd(third.json().value(QStringLiteral("id")).toInteger(), student_),
                 QStringLiteral("finished"));
        QCOMPARE(waitForEnd(graceRun, otherStudent_), QStringLiteral("finished"));
        QCOMPARE(waitForEnd(ownerRun, server_.ownerToken()), QStringLiteral("finished"));
        QString shown;
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("show"), QString::number(id)}, &shown), 0);
        QVERIFY2(shown.contains(QStringLiteral("Started by:    ada")), qPrintable(shown));
    }

    void computeHourQuotasStopNewRuns() {
        // kim may use 0.0001 CPU hours (0.36 core-seconds) and no GPU time at all.
        const QString kim = addUser(QStringLiteral("kim"), QStringLiteral("student"),
                                    {QStringLiteral("--cpu-hours"), QStringLiteral("0.0001"),
                                     QStringLiteral("--gpu-hours"), QStringLiteral("0")});
        QCOMPARE(kim.size(), 64);
        QJsonObject me = server_.request("GET", QStringLiteral("/api/v1/me"), {}, kim).json();
        QCOMPARE(me.value(QStringLiteral("cpu_hours_quota")).toDouble(), 0.0001);
        QCOMPARE(me.value(QStringLiteral("usage")).toObject().value(QStringLiteral("cpu_hours")).toDouble(), 0.0);

        // A GPU run is refused at once (0 of 0 GPU hours); no GPU is needed to see it.
        QJsonObject body = QJsonDocument::fromJson(runBody(50)).object();
        QJsonObject cuda = body.value(QStringLiteral("config")).toObject();
        cuda.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        body.insert(QStringLiteral("config"), cuda);
        const RestResponse gpu =
            server_.request("POST", QStringLiteral("/api/v1/runs"), QJsonDocument(body).toJson(), kim);
        QCOMPARE(gpu.status, 429);
        QVERIFY2(gpu.body.contains("GPU hours"), gpu.body.constData());

        // A CPU run starts (nothing used yet) and runs for about 2 s on one thread: over the quota.
        const RestResponse first = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(1000000), kim);
        QVERIFY2(first.status == 201, first.body.constData());
        const qint64 id = first.json().value(QStringLiteral("id")).toInteger();
        QTRY_COMPARE_WITH_TIMEOUT(server_.request("GET", QStringLiteral("/api/v1/runs/%1").arg(id), {}, kim)
                                      .json()
                                      .value(QStringLiteral("state"))
                                      .toString(),
                                  QStringLiteral("running"), 30000);
        QTest::qWait(2000);
        QCOMPARE(server_.request("POST", QStringLiteral("/api/v1/runs/%1/cancel").arg(id), {}, kim).status, 202);
        QCOMPARE(waitForEnd(id, kim), QStringLiteral("cancelled"));
        me = server_.request("GET", QStringLiteral("/api/v1/me"), {}, kim).json();
        const double used = me.value(QStringLiteral("usage")).toObject().value(QStringLiteral("cpu_hours")).toDouble();
        QVERIFY2(used >= 0.0004 && used < 0.01, qPrintable(QString::number(used)));
        const RestResponse refused = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(50), kim);
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.code(), QStringLiteral("quota_exceeded"));
        QVERIFY2(refused.body.contains("CPU hours"), refused.body.constData());
        QCOMPARE(server_.request("POST", QStringLiteral("/api/v1/runs/%1/resume").arg(id), {}, kim).status, 429);

        // The instructor's view on the command line, then the admin lifts the limit over REST.
        QString listed;
        QCOMPARE(ctl({QStringLiteral("user"), QStringLiteral("list")}, &listed), 0);
        QVERIFY2(listed.contains(QStringLiteral(" of 0.0001 CPU hours")), qPrintable(listed));
        for (const QByteArray &hostile :
             {QByteArray(R"({"cpu_hours_quota": -1})"), QByteArray(R"({"cpu_hours_quota": "lots"})"),
              QByteArray(R"({"gpu_hours_quota": 1e300})")})
            QCOMPARE(server_.request("PATCH", QStringLiteral("/api/v1/users/kim"), hostile, admin_).status, 400);
        QCOMPARE(server_.request("PATCH", QStringLiteral("/api/v1/users/kim"), R"({"cpu_hours_quota": null})", admin_)
                     .status,
                 200);
        const RestResponse again = server_.request("POST", QStringLiteral("/api/v1/runs"), runBody(50), kim);
        QVERIFY2(again.status == 201, again.body.constData());
        QCOMPARE(waitForEnd(again.json().value(QStringLiteral("id")).toInteger(), kim), QStringLiteral("finished"));
        QCOMPARE(ctl({QStringLiteral("user"), QStringLiteral("update"), QStringLiteral("kim"),
                      QStringLiteral("--cpu-hours"), QStringLiteral("-3")}),
                 2);
    }

    void instructorsSeeTheClassLeaderboard() {
        // The finished runs of project Class so far: ada's, grace's, kim's and the owner's (spirals, 20-50 steps).
        qint64 project = 0;
        for (const QJsonValue &v : server_.request("GET", QStringLiteral("/api/v1/projects"), {}, instructor_)
                                       .json()
                                       .value(QStringLiteral("projects"))
                                       .toArray())
            if (v.toObject().value(QStringLiteral("name")).toString() == QLatin1String("Class"))
                project = v.toObject().value(QStringLiteral("id")).toInteger();
        QVERIFY(project > 0);
        const QString path = QStringLiteral("/api/v1/projects/%1/leaderboard").arg(project);
        const RestResponse board = server_.request("GET", path, {}, instructor_);
        QVERIFY2(board.status == 200, board.body.constData());
        QCOMPARE(board.json().value(QStringLiteral("metric")).toString(), QStringLiteral("val_accuracy"));
        const QJsonArray entries = board.json().value(QStringLiteral("entries")).toArray();
        QStringList users;
        double previous = 2;
        for (const QJsonValue &v : entries) {
            const QJsonObject e = v.toObject();
            users << e.value(QStringLiteral("user")).toString();
            QVERIFY(e.value(QStringLiteral("value")).toDouble() <= previous);
            previous = e.value(QStringLiteral("value")).toDouble();
        }
        users.sort();
        QCOMPARE(users, (QStringList{QStringLiteral("ada"), QStringLiteral("grace"), QStringLiteral("kim"),
                                     QStringLiteral("owner")}));
        QCOMPARE(entries.first().toObject().value(QStringLiteral("rank")).toInt(), 1);
        // By loss, lowest first; students may not see the class's results.
        const RestResponse byLoss = server_.request("GET", path + QStringLiteral("?metric=val_loss"), {}, admin_);
        QCOMPARE(byLoss.json().value(QStringLiteral("higher_is_better")).toBool(), false);
        QCOMPARE(server_.request("GET", path, {}, student_).status, 403);
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/projects/99999/leaderboard"), {}, instructor_).status,
                 404);
        QCOMPARE(
            server_.request("GET", path + QStringLiteral("?metric=") + QString(200, QLatin1Char('m')), {}, instructor_)
                .status,
            400);
        QString text;
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("leaderboard"), QStringLiteral("--project"),
                      QStringLiteral("Class")},
                     &text),
                 0);
        QVERIFY2(text.contains(QStringLiteral("val_accuracy")) && text.contains(QStringLiteral("grace")),
                 qPrintable(text));
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("leaderboard")}), 2);
    }

    void adminsManageUsersAndOldTokensStopWorking() {
        const RestResponse made =
            server_.request("POST", QStringLiteral("/api/v1/users"),
                            R"({"name": "bob", "role": "student", "can_publish": true, "max_active_runs": 3})", admin_);
        QVERIFY2(made.status == 201, made.body.constData());
        const QString bob = made.json().value(QStringLiteral("token")).toString();
        QCOMPARE(bob.size(), 64);
        QCOMPARE(
            server_.request("POST", QStringLiteral("/api/v1/users"), R"({"name": "bob", "role": "student"})", admin_)
                .status,
            409);
        for (const QByteArray &hostile :
             {QByteArray(R"({"name": "../x", "role": "student"})"), QByteArray(R"({"name": "owner", "role": "admin"})"),
              QByteArray(R"({"name": "x", "role": "student", "max_active_runs": 1e9})"), QByteArray("[1, 2]")})
            QCOMPARE(server_.request("POST", QStringLiteral("/api/v1/users"), hostile, admin_).status, 400);
        QCOMPARE(server_.request("POST", QStringLiteral("/api/v1/users"), R"({"name": "eve", "role": "root"})", admin_)
                     .code(),
                 QStringLiteral("bad_request"));
        QCOMPARE(
            server_.request("GET", QStringLiteral("/api/v1/me"), {}, bob).json().value(QStringLiteral("can_publish")),
            QJsonValue(true));
        // Listing shows no token or hash.
        const RestResponse list = server_.request("GET", QStringLiteral("/api/v1/users"), {}, admin_);
        QVERIFY(!list.body.contains(bob.toLatin1()));
        QVERIFY(!list.body.contains("token\""));
        QCOMPARE(list.json().value(QStringLiteral("users")).toArray().size(), 6);

        const RestResponse patched = server_.request("PATCH", QStringLiteral("/api/v1/users/bob"),
                                                     R"({"role": "instructor", "max_active_runs": 0})", admin_);
        QCOMPARE(patched.status, 200);
        QCOMPARE(patched.json().value(QStringLiteral("role")).toString(), QStringLiteral("instructor"));

        const RestResponse renewed = server_.request("POST", QStringLiteral("/api/v1/users/bob/token"), {}, admin_);
        QCOMPARE(renewed.status, 200);
        const QString bob2 = renewed.json().value(QStringLiteral("token")).toString();
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me"), {}, bob).status, 401);
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me"), {}, bob2).status, 200);
        QCOMPARE(server_.request("DELETE", QStringLiteral("/api/v1/users/bob"), {}, admin_).status, 200);
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me"), {}, bob2).status, 401);
        QCOMPARE(server_.request("DELETE", QStringLiteral("/api/v1/users/bob"), {}, admin_).status, 404);

        // The same from the command line: a renewed token replaces the old one; removing revokes.
        QString out;
        QCOMPARE(
            ctl({QStringLiteral("user"), QStringLiteral("token"), QStringLiteral("grace"), QStringLiteral("--json")},
                &out),
            0);
        const QString grace2 = QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("token")).toString();
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me"), {}, otherStudent_).status, 401);
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me"), {}, grace2).status, 200);
        QCOMPARE(ctl({QStringLiteral("user"), QStringLiteral("remove"), QStringLiteral("grace")}), 0);
        QCOMPARE(server_.request("GET", QStringLiteral("/api/v1/me"), {}, grace2).status, 401);
        QCOMPARE(ctl({QStringLiteral("user"), QStringLiteral("list"), QStringLiteral("--json")}, &out), 0);
        QCOMPARE(QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("users")).toArray().size(), 4);
        QCOMPARE(ctl({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("x y"), QStringLiteral("--role"),
                      QStringLiteral("student")}),
                 1);
        QCOMPARE(ctl({QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("zed")}), 2); // no --role
    }
};

QTEST_GUILESS_MAIN(TestRestRoles)
#include "tst_it_rest_roles.moc"
