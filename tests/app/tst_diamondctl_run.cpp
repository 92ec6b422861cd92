// diamondctl run start|list|show|metrics|logs as a process, with the real diamond-train on the spirals example
// (300 steps, 1 thread), in a workspace inside a temporary folder.
#include "common/test_paths.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

class TestDiamondctlRun : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
    };

    QTemporaryDir home_;
    QString ws_;
    QString spec_, config_, broken_;

    Result ctl(QStringList args) {
        args.prepend(ws_);
        args.prepend(QStringLiteral("--workspace"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        env.insert(QStringLiteral("DIAMOND_TRAIN"), diamond::test::binary(QStringLiteral("diamond-train")));
        p.setProcessEnvironment(env);
        p.start(diamond::test::binary(QStringLiteral("diamondctl")), args);
        Result r;
        if (!p.waitForFinished(120000)) return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QString writeConfig(const char *name, bool broken, int steps = 300) {
        QFile f(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        f.open(QIODevice::ReadOnly);
        QJsonObject c = QJsonDocument::fromJson(f.readAll()).object();
        c.insert(QStringLiteral("steps"), steps);
        c.insert(QStringLiteral("threads"), 1);
        if (broken)
            c.insert(QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("name"), QStringLiteral("bogus")}});
        const QString path = home_.filePath(QLatin1String(name));
        QFile out(path);
        out.open(QIODevice::WriteOnly);
        out.write(QJsonDocument(c).toJson());
        return path;
    }

    QStringList startArgs(const QString &config) const {
        return {QStringLiteral("run"),       QStringLiteral("start"),
                QStringLiteral("--spec"),    spec_,
                QStringLiteral("--config"),  config,
                QStringLiteral("--project"), QStringLiteral("CLI")};
    }

    /// Distinct (step,split,name) keys of the metric lines in a run's events.jsonl.
    static QSet<QString> eventMetricKeys(const QString &runDir, QJsonObject *started = nullptr) {
        QFile events(QDir(runDir).filePath(QStringLiteral("events.jsonl")));
        if (!events.open(QIODevice::ReadOnly)) return {};
        QSet<QString> keys;
        for (const QByteArray &line : events.readAll().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            const QString kind = e.value(QStringLiteral("event")).toString();
            if (kind == QLatin1String("started") && started) *started = e;
            if (kind != QLatin1String("metric")) continue;
            keys.insert(
                QStringLiteral("%1,%2,%3")
                    .arg(e.value(QStringLiteral("step")).toInt())
                    .arg(e.value(QStringLiteral("split")).toString(), e.value(QStringLiteral("name")).toString()));
        }
        return keys;
    }

    /// The run's stored points as CSV keys; fails the test on a duplicate.
    QStringList storedMetricKeys(int id) {
        const Result csv =
            ctl({QStringLiteral("run"), QStringLiteral("metrics"), QString::number(id), QStringLiteral("--csv")});
        QStringList keys;
        for (const QString &row : csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1))
            keys << row.section(QLatin1Char(','), 0, 2);
        return keys;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        ws_ = home_.filePath(QStringLiteral("ws"));
        spec_ = diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"));
        config_ = writeConfig("run.json", false);
        broken_ = writeConfig("broken.json", true);
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).exitCode, 0);
    }

    void startFollowFinishes() {
        const Result r = ctl(startArgs(config_) << QStringLiteral("--follow"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY(r.out.contains(QStringLiteral("step     300  val   accuracy")));
        QVERIFY(r.out.contains(QStringLiteral("Run 1 finished")));
    }

    void listShowMetricsLogs() {
        const Result list = ctl({QStringLiteral("run"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(list.exitCode, 0);
        const QJsonArray runs = list.json().value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(runs[0].toObject().value(QStringLiteral("project")).toString(), QStringLiteral("CLI"));
        const Result text = ctl({QStringLiteral("run"), QStringLiteral("list")});
        QVERIFY(text.out.contains(QStringLiteral("finished")));

        const Result show =
            ctl({QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json")});
        QCOMPARE(show.exitCode, 0);
        const QJsonObject doc = show.json();
        QCOMPARE(doc.value(QStringLiteral("exit_code")).toInt(), 0);
        QCOMPARE(doc.value(QStringLiteral("weights_sha256")).toString().size(), 64);
        QVERIFY(doc.value(QStringLiteral("final_metrics")).toObject().contains(QStringLiteral("val_accuracy")));
        QCOMPARE(doc.value(QStringLiteral("transitions")).toArray().size(), 4); // draft, queued, running, finished

        // Points == distinct (step, split, name) of the metric lines in events.jsonl.
        QFile events(QDir(doc.value(QStringLiteral("run_dir")).toString()).filePath(QStringLiteral("events.jsonl")));
        QVERIFY(events.open(QIODevice::ReadOnly));
        QSet<QString> keys;
        int lines = 0;
        for (const QByteArray &line : events.readAll().split('\n')) {
            if (line.isEmpty()) continue;
            ++lines;
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("metric"))
                keys.insert(
                    QStringLiteral("%1,%2,%3")
                        .arg(e.value(QStringLiteral("step")).toInt())
                        .arg(e.value(QStringLiteral("split")).toString(), e.value(QStringLiteral("name")).toString()));
        }
        QCOMPARE(doc.value(QStringLiteral("metric_points")).toInt(), int(keys.size()));

        const Result csv =
            ctl({QStringLiteral("run"), QStringLiteral("metrics"), QStringLiteral("1"), QStringLiteral("--csv")});
        QCOMPARE(csv.exitCode, 0);
        const QStringList rows = csv.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(rows.first(), QStringLiteral("step,split,name,value,wall"));
        QCOMPARE(rows.size() - 1, int(keys.size()));
        QSet<QString> csvKeys;
        for (const QString &row : rows.mid(1))
            csvKeys.insert(row.section(QLatin1Char(','), 0, 2));
        QCOMPARE(csvKeys, keys);

        const Result logs = ctl({QStringLiteral("run"), QStringLiteral("logs"), QStringLiteral("1")});
        QCOMPARE(logs.exitCode, 0);
        QCOMPARE(int(logs.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts).size()), lines);
    }

    void exportWritesTheEnginesExport() {
        const QString out = home_.filePath(QStringLiteral("export1"));
        const Result r = ctl({QStringLiteral("run"), QStringLiteral("export"), QStringLiteral("1"),
                              QStringLiteral("--out"), out, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(QStringLiteral("event")).toString(), QStringLiteral("exported"));
        for (const char *file : {"model.safetensors", "spec.json", "model.py", "manifest.json"})
            QVERIFY2(QFile::exists(QDir(out).filePath(QLatin1String(file))), file);
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("export"), QStringLiteral("99")}).exitCode, 1);
    }

    void startWithoutFollowIsSettledLater() {
        const Result r = ctl(startArgs(config_) << QStringLiteral("--json"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const int id = r.json().value(QStringLiteral("id")).toInt();
        QCOMPARE(r.json().value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QTRY_VERIFY_WITH_TIMEOUT(
            ctl({QStringLiteral("run"), QStringLiteral("show"), QString::number(id), QStringLiteral("--json")})
                    .json()
                    .value(QStringLiteral("state"))
                    .toString() == QLatin1String("finished"),
            60000);
        const Result follow =
            ctl({QStringLiteral("run"), QStringLiteral("metrics"), QString::number(id), QStringLiteral("--follow")});
        QCOMPARE(follow.exitCode, 0);
        QVERIFY(follow.out.contains(QStringLiteral("finished")));
    }

    void localDataParallelRun() {
        const Result r =
            ctl(startArgs(config_) << QStringLiteral("--nproc") << QStringLiteral("2") << QStringLiteral("--threads")
                                   << QStringLiteral("1") << QStringLiteral("--follow"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const Result list = ctl({QStringLiteral("run"), QStringLiteral("list"), QStringLiteral("--json")});
        const QJsonObject run = list.json().value(QStringLiteral("runs")).toArray().last().toObject();
        QCOMPARE(run.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(run.value(QStringLiteral("execution")).toObject().value(QStringLiteral("nproc")).toInt(), 2);
        const Result show = ctl({QStringLiteral("run"), QStringLiteral("show"),
                                 QString::number(run.value(QStringLiteral("id")).toInt()), QStringLiteral("--json")});
        QJsonObject started;
        const QSet<QString> keys = eventMetricKeys(show.json().value(QStringLiteral("run_dir")).toString(), &started);
        QCOMPARE(started.value(QStringLiteral("world_size")).toInt(), 2);
        QCOMPARE(started.value(QStringLiteral("threads")).toInt(), 1);
        QCOMPARE(show.json().value(QStringLiteral("metric_points")).toInt(), int(keys.size()));

        QCOMPARE(ctl(startArgs(config_) << QStringLiteral("--nproc") << QStringLiteral("0")).exitCode, 2);
        QCOMPARE(ctl(startArgs(config_) << QStringLiteral("--threads") << QStringLiteral("many")).exitCode, 2);
    }

    // The process that ingests a live run is killed with SIGKILL; a new one reattaches from the stored
    // offset. The database ends with exactly the metric lines of events.jsonl: no gap, no duplicate.
    void killedFollowerReattachesWithoutGapsOrDuplicates() {
        const QString longConfig =
            writeConfig("long.json", false, 60000); // several seconds: the follower is killed mid-run
        const Result r = ctl(startArgs(longConfig) << QStringLiteral("--json"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const int id = r.json().value(QStringLiteral("id")).toInt();
        const QString runDir =
            ctl({QStringLiteral("run"), QStringLiteral("show"), QString::number(id), QStringLiteral("--json")})
                .json()
                .value(QStringLiteral("run_dir"))
                .toString();
        QVERIFY(!runDir.isEmpty());

        QProcess follower;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_.path());
        follower.setProcessEnvironment(env);
        follower.start(diamond::test::binary(QStringLiteral("diamondctl")),
                       {QStringLiteral("--workspace"), ws_, QStringLiteral("run"), QStringLiteral("metrics"),
                        QString::number(id), QStringLiteral("--follow")});
        QVERIFY(follower.waitForStarted());
        // Wait until the follower has stored points, then kill it in the middle of the run.
        QTRY_VERIFY_WITH_TIMEOUT(follower.readAllStandardOutput().count('\n') > 3 || !storedMetricKeys(id).isEmpty(),
                                 60000);
        follower.kill();
        QVERIFY(follower.waitForFinished());
        const int storedAtKill = int(storedMetricKeys(id).size());
        const QJsonObject mid =
            ctl({QStringLiteral("run"), QStringLiteral("show"), QString::number(id), QStringLiteral("--json")}).json();
        QVERIFY2(storedAtKill > 0, "nothing was ingested before the kill");

        const Result resumed =
            ctl({QStringLiteral("run"), QStringLiteral("metrics"), QString::number(id), QStringLiteral("--follow")});
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        const QStringList stored = storedMetricKeys(id);
        const QSet<QString> unique(stored.begin(), stored.end());
        QCOMPARE(stored.size(), unique.size()); // no duplicates
        const QSet<QString> expected = eventMetricKeys(runDir);
        const QStringList missing = QSet<QString>(expected).subtract(unique).values();
        const QStringList extra = QSet<QString>(unique).subtract(expected).values();
        QVERIFY2(missing.isEmpty() && extra.isEmpty(), qPrintable(QStringLiteral("missing %1: %2 / extra %3: %4")
                                                                      .arg(missing.size())
                                                                      .arg(missing.mid(0, 8).join(QLatin1Char(' ')))
                                                                      .arg(extra.size())
                                                                      .arg(extra.mid(0, 8).join(QLatin1Char(' ')))));
        QVERIFY(stored.size() > storedAtKill);
        qInfo("killed the follower at %d of %d points (run state then: %s)", storedAtKill, int(stored.size()),
              qPrintable(mid.value(QStringLiteral("state")).toString()));
    }

    void brokenConfigFails() {
        const Result r = ctl(startArgs(broken_) << QStringLiteral("--follow"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("optimizer.name")), qPrintable(r.err));
    }

    void trainsOnTheShippedIrisDataset() {
        // A workspace made with its sample contents has the real datasets; an MLP learns iris from the registered
        // copy ("dataset": "iris"), and the run records the version.
        const QString mainWorkspace = ws_;
        ws_ = home_.filePath(QStringLiteral("with-examples"));
        QCOMPARE(ctl({QStringLiteral("init")}).exitCode, 0);
        QFile specFile(spec_);
        QVERIFY(specFile.open(QIODevice::ReadOnly));
        QJsonObject spec = QJsonDocument::fromJson(specFile.readAll()).object();
        QJsonArray inputs = spec.value(QStringLiteral("inputs")).toArray();
        QJsonObject x = inputs.first().toObject();
        x.insert(QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 4});
        inputs.replace(0, x);
        spec.insert(QStringLiteral("inputs"), inputs);
        QFile configFile(config_);
        QVERIFY(configFile.open(QIODevice::ReadOnly));
        QJsonObject config = QJsonDocument::fromJson(configFile.readAll()).object();
        config.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                                          {QStringLiteral("dataset"), QStringLiteral("iris")},
                                                          {QStringLiteral("target"), QStringLiteral("species")},
                                                          {QStringLiteral("validation_split"), 0.3}});
        config.insert(QStringLiteral("steps"), 200);
        const QString specPath = home_.filePath(QStringLiteral("iris-spec.json"));
        const QString configPath = home_.filePath(QStringLiteral("iris-run.json"));
        for (const auto &[path, json] : {std::pair(specPath, spec), std::pair(configPath, config)}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(json).toJson());
        }
        const Result r = ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"), specPath,
                              QStringLiteral("--config"), configPath, QStringLiteral("--follow")});
        ws_ = mainWorkspace;
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        const QRegularExpression accuracy(QStringLiteral("\"val_accuracy\":([0-9.]+)"));
        const auto m = accuracy.match(r.out);
        QVERIFY2(m.hasMatch(), qPrintable(r.out.right(400)));
        QVERIFY2(m.captured(1).toDouble() >= 0.8, qPrintable(m.captured(0)));
        ws_ = home_.filePath(QStringLiteral("with-examples"));
        const Result show = ctl({QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("5")});
        ws_ = mainWorkspace;
        QVERIFY2(show.out.contains(QStringLiteral("iris@1")), qPrintable(show.out));
    }

    void badUsage() {
        QCOMPARE(ctl({QStringLiteral("run")}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("show")}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"), spec_}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("frobnicate")}).exitCode, 2);
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("99")}).exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestDiamondctlRun)
#include "tst_diamondctl_run.moc"
