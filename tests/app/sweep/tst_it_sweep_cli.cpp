// diamondctl sweep as a process with the real diamond-train on the spirals example (1 thread per trial), in a
// workspace inside a temporary folder: an ASHA sweep runs to completion; a sweep whose controller is killed
// with SIGKILL mid-sweep is resumed and completes with every trial accounted for and none run twice; a
// background sweep is stopped; bad files and usage are refused.
#include "common/test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

class TestItSweepCli : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
    };

    QTemporaryDir home_;
    QString ws_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HOME"), home_.path());
        e.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        if (!e.contains(QStringLiteral("DIAMOND_TRAIN")))
            e.insert(QStringLiteral("DIAMOND_TRAIN"), diamond::test::binary(QStringLiteral("diamond-train")));
        return e;
    }

    QStringList withWorkspace(QStringList args) const {
        args.prepend(ws_);
        args.prepend(QStringLiteral("--workspace"));
        return args;
    }

    Result ctl(const QStringList &args, int timeoutMs = 300000) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(diamond::test::binary(QStringLiteral("diamondctl")), withWorkspace(args));
        Result r;
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QString writeSweep(const char *name, const QString &algorithm, int trials, int concurrent, int budget) {
        const QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QString::fromLatin1(name)},
            {QStringLiteral("project"), QString::fromLatin1(name)},
            {QStringLiteral("spec"), diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))},
            {QStringLiteral("config"),
             diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json"))},
            {QStringLiteral("space"), QJsonDocument::fromJson(R"([
                {"name": "lr", "target": "optimizer.lr", "type": "log_uniform", "low": 0.0003, "high": 0.1},
                {"name": "width", "target": "spec:fc1.out_features", "type": "int", "low": 8, "high": 64, "log": true}
             ])")
                                          .array()},
            {QStringLiteral("algorithm"), QJsonObject{{QStringLiteral("name"), algorithm}, {QStringLiteral("eta"), 2}}},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                      {QStringLiteral("split"), QStringLiteral("val")},
                                                      {QStringLiteral("mode"), QStringLiteral("max")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), trials},
                                                   {QStringLiteral("max_concurrent"), concurrent},
                                                   {QStringLiteral("budget_per_trial"), budget}}},
            {QStringLiteral("seed"), 3}};
        const QString path = home_.filePath(QString::fromLatin1(name) + QStringLiteral(".json"));
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(QJsonDocument(doc).toJson());
        return path;
    }

    /// Every trial accounted for: indices 0..n-1 once each, one distinct run per trial, each run started from
    /// scratch exactly once (one draft -> queued transition), and the project holds no other run.
    void verifyTrials(qint64 sweepId, int expected, const QString &project) {
        const Result status = ctl(
            {QStringLiteral("sweep"), QStringLiteral("status"), QString::number(sweepId), QStringLiteral("--json")});
        QCOMPARE(status.exitCode, 0);
        const QJsonObject s = status.json();
        QCOMPARE(s.value(QStringLiteral("state")).toString(), QStringLiteral("completed"));
        const QJsonArray trials = s.value(QStringLiteral("trials")).toArray();
        QCOMPARE(trials.size(), expected);
        QSet<int> indices;
        QSet<qint64> runs;
        int completed = 0;
        for (const QJsonValue &v : trials) {
            const QJsonObject t = v.toObject();
            indices.insert(t.value(QStringLiteral("index")).toInt());
            runs.insert(t.value(QStringLiteral("run_id")).toInteger());
            const QString state = t.value(QStringLiteral("state")).toString();
            QVERIFY2(state == QLatin1String("completed") || state == QLatin1String("stopped"),
                     QJsonDocument(t).toJson().constData());
            QVERIFY(!t.value(QStringLiteral("objective")).isNull());
            completed += state == QLatin1String("completed");
        }
        QVERIFY(completed >= 1);
        QCOMPARE(indices.size(), expected);
        QCOMPARE(*std::max_element(indices.begin(), indices.end()), expected - 1);
        QCOMPARE(runs.size(), expected);
        QVERIFY(!runs.contains(0));

        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
        db.setDatabaseName(QDir(ws_).filePath(QStringLiteral("diamond.db")));
        QVERIFY(db.open());
        {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT COUNT(*) FROM runs r JOIN projects p ON p.id = r.project_id"
                                     " WHERE p.name = ?"));
            q.addBindValue(project);
            QVERIFY(q.exec() && q.next());
            QCOMPARE(q.value(0).toInt(), expected);
            for (qint64 run : runs) {
                q.prepare(
                    QStringLiteral("SELECT COUNT(*) FROM run_transitions WHERE run_id = ? AND to_state = 'queued'"));
                q.addBindValue(run);
                QVERIFY(q.exec() && q.next());
                QCOMPARE(q.value(0).toInt(), 1);
            }
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("check"));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        ws_ = home_.filePath(QStringLiteral("ws"));
        QVERIFY2(QFile::exists(diamond::test::binary(QStringLiteral("diamond-train"))) ||
                     qEnvironmentVariableIsSet("DIAMOND_TRAIN"),
                 "diamond-train is needed (build it, or set DIAMOND_TRAIN)");
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).exitCode, 0);
    }

    void badFileAndUsage() {
        QCOMPARE(ctl({QStringLiteral("sweep")}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("sweep"), QStringLiteral("frobnicate")}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("sweep"), QStringLiteral("status")}).exitCode, 2);
        const Result missing = ctl({QStringLiteral("sweep"), QStringLiteral("status"), QStringLiteral("999")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains(QLatin1String("999")));
        const QString bad = home_.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format":"diamond.sweep/1","spec":"nope.json","config":"run.json","space":[],"objective":{}})");
        f.close();
        const Result r = ctl({QStringLiteral("sweep"), QStringLiteral("start"), bad});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("spec:")), qPrintable(r.err));
    }

    void ashaSweepCompletes() {
        const QString file = writeSweep("asha5", QStringLiteral("asha"), 5, 2, 4);
        const Result r = ctl({QStringLiteral("sweep"), QStringLiteral("start"), file, QStringLiteral("--follow"),
                              QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const QJsonObject last = QJsonDocument::fromJson(lines.last().toUtf8()).object();
        QCOMPARE(last.value(QStringLiteral("state")).toString(), QStringLiteral("completed"));
        const qint64 id = last.value(QStringLiteral("sweep")).toInteger();
        int promotions = 0;
        for (const QString &line : lines) {
            const QJsonObject e = QJsonDocument::fromJson(line.toUtf8()).object();
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("trial_started") &&
                e.value(QStringLiteral("rung")).toInt() > 0)
                ++promotions;
        }
        QVERIFY(promotions >= 2); // eta 2, rungs 1/2/4 epochs: the best trial climbs to the top
        verifyTrials(id, 5, QStringLiteral("asha5"));
        const Result best =
            ctl({QStringLiteral("sweep"), QStringLiteral("best"), QString::number(id), QStringLiteral("--json")});
        QCOMPARE(best.exitCode, 0);
        QCOMPARE(best.json().value(QStringLiteral("state")).toString(), QStringLiteral("completed"));
        QCOMPARE(best.json().value(QStringLiteral("budget")).toDouble(), 4.0);
    }

    void killedControllerResumes() {
        const QString file = writeSweep("killed", QStringLiteral("asha"), 6, 2, 4);
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(diamond::test::binary(QStringLiteral("diamondctl")),
                withWorkspace({QStringLiteral("sweep"), QStringLiteral("start"), file, QStringLiteral("--follow"),
                               QStringLiteral("--json")}));
        QVERIFY(p.waitForStarted());
        // Kill it once three trial launches (so at least one is running) have been announced.
        QByteArray out;
        qint64 sweepId = 0;
        QDeadlineTimer deadline(120000);
        while (out.count("trial_started") < 3 && !deadline.hasExpired() && p.state() == QProcess::Running) {
            p.waitForReadyRead(100);
            out += p.readAllStandardOutput();
        }
        QVERIFY2(out.count("trial_started") >= 3, out.constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished());
        QCOMPARE(p.exitStatus(), QProcess::CrashExit);

        const Result list = ctl({QStringLiteral("sweep"), QStringLiteral("list"), QStringLiteral("--json")});
        for (const QJsonValue &v : list.json().value(QStringLiteral("sweeps")).toArray())
            if (v.toObject().value(QStringLiteral("name")).toString() == QLatin1String("killed"))
                sweepId = v.toObject().value(QStringLiteral("id")).toInteger();
        QVERIFY(sweepId > 0);
        const Result before = ctl(
            {QStringLiteral("sweep"), QStringLiteral("status"), QString::number(sweepId), QStringLiteral("--json")});
        QCOMPARE(before.json().value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QCOMPARE(before.json().value(QStringLiteral("controller_pid")).toInteger(), 0); // the killed one is not live

        const Result resumed = ctl(
            {QStringLiteral("sweep"), QStringLiteral("resume"), QString::number(sweepId), QStringLiteral("--follow")});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err + resumed.out));
        verifyTrials(sweepId, 6, QStringLiteral("killed"));
        // A completed sweep cannot be resumed again.
        QCOMPARE(ctl({QStringLiteral("sweep"), QStringLiteral("resume"), QString::number(sweepId)}).exitCode, 1);
    }

    void backgroundSweepStops() {
        const QString file = writeSweep("stopped", QStringLiteral("random"), 40, 1, 30);
        const Result r = ctl({QStringLiteral("sweep"), QStringLiteral("start"), file, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const qint64 id = r.json().value(QStringLiteral("sweep")).toInteger();
        QVERIFY(id > 0);
        // Wait for the background controller to take the sweep and start a trial.
        QDeadlineTimer deadline(60000);
        QJsonObject s;
        while (!deadline.hasExpired()) {
            s = ctl({QStringLiteral("sweep"), QStringLiteral("status"), QString::number(id), QStringLiteral("--json")})
                    .json();
            if (s.value(QStringLiteral("controller_pid")).toInteger() > 0 &&
                !s.value(QStringLiteral("trials")).toArray().isEmpty())
                break;
            QTest::qWait(200);
        }
        QVERIFY(s.value(QStringLiteral("controller_pid")).toInteger() > 0);
        // Pause and continue through the database switch the live controller polls.
        QCOMPARE(ctl({QStringLiteral("sweep"), QStringLiteral("pause"), QString::number(id)}).exitCode, 0);
        s = ctl({QStringLiteral("sweep"), QStringLiteral("status"), QString::number(id), QStringLiteral("--json")})
                .json();
        QCOMPARE(s.value(QStringLiteral("state")).toString(), QStringLiteral("paused"));
        const Result cont = ctl({QStringLiteral("sweep"), QStringLiteral("resume"), QString::number(id)});
        QVERIFY2(cont.exitCode == 0, qPrintable(cont.err));
        QVERIFY(cont.out.contains(QLatin1String("continues")));
        const Result stop =
            ctl({QStringLiteral("sweep"), QStringLiteral("stop"), QString::number(id), QStringLiteral("--json")});
        QVERIFY2(stop.exitCode == 0, qPrintable(stop.err + stop.out));
        QCOMPARE(stop.json().value(QStringLiteral("state")).toString(), QStringLiteral("stopped"));
        const QJsonArray trials = stop.json().value(QStringLiteral("trials")).toArray();
        QVERIFY(trials.size() < 40);
        for (const QJsonValue &v : trials) {
            const QString state = v.toObject().value(QStringLiteral("state")).toString();
            QVERIFY2(state == QLatin1String("stopped") || state == QLatin1String("completed"), qPrintable(state));
        }
    }
};

QTEST_GUILESS_MAIN(TestItSweepCli)
#include "tst_it_sweep_cli.moc"
