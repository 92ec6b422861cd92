// A cluster run outlives the Diamond process that submitted it: the first RunManager/ClusterExecutor is destroyed
// while the job runs on the project's local Slurm (tests/fixtures/local-cluster), a second one adopts the run from
// <run-dir>/cluster-job.json, and the run finishes with every metric stored once and the local events.jsonl
// equal to the job's.
#include "app/cluster/cluster_executor.h"
#include "app/run/run_manager.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "remote/command_runner.h"

#include "common/local_cluster.h"
#include "common/test_paths.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using app::RunState;

class TestItClusterAdopt : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;

    static QJsonObject readJson(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
    }

    app::ClusterExecutor *newExecutor() {
        remote::ClusterProfile p;
        p.name = QStringLiteral("local");
        p.host = QStringLiteral("127.0.0.1");
        p.scheduler = remote::SchedulerKind::Slurm;
        p.scratchDir = dir_.filePath(QStringLiteral("scratch"));
        p.enginePath = test::binary(QStringLiteral("diamond-train"));
        p.environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        auto *executor = new app::ClusterExecutor(p, [] { return std::make_unique<remote::LocalCommandRunner>(); });
        remote::JobRequest job;
        job.partition = cluster_.partition();
        job.timeLimitMinutes = 10;
        job.engine.threads = 1;
        executor->setJobTemplate(job);
        return executor;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qputenv("SLURM_CONF", cluster_.slurmConf().toLocal8Bit()); // LocalCommandRunner runs sbatch etc. here
    }

    void secondProcessAdoptsTheRunningJob() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws"))));
        app::RunStore store(ws);
        QJsonObject config = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        config.insert(QStringLiteral("steps"), 6000);
        config.insert(QStringLiteral("threads"), 1);
        const auto run = store.createRunWithSpec(
            QStringLiteral("p"), readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))),
            QStringLiteral("spirals"), QStringLiteral("adopted"), config, QStringLiteral("local"));
        QVERIFY(run);
        const QString runDir = ws.runDirectory(run->id);

        auto first = std::make_unique<app::RunManager>(ws, newExecutor());
        QVERIFY2(first->startRun(run->id), qPrintable(first->errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(
            !store.metricPoints(run->id, QStringLiteral("loss"), app::MetricSplit::Train).isEmpty(), 90000);
        const QJsonObject record = readJson(QDir(runDir).filePath(QStringLiteral("cluster-job.json")));
        QVERIFY(!record.value(QStringLiteral("job_id")).toString().isEmpty());
        first.reset(); // this "process" is gone; the job keeps running on the cluster
        const int pointsBefore =
            int(store.metricPoints(run->id, QStringLiteral("loss"), app::MetricSplit::Train).size());
        QCOMPARE(store.run(run->id)->state, RunState::Running);

        // Without a record there is nothing to follow.
        {
            app::RunManager other(ws, newExecutor());
            const auto draft = store.createRunWithSpec(
                QStringLiteral("p"), readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))),
                QStringLiteral("spirals"), QStringLiteral("never"), config);
            QVERIFY(draft);
            QVERIFY(!other.adopt(draft->id)); // not running
        }

        app::RunManager second(ws, newExecutor());
        QSignalSpy ended(&second, &app::RunManager::runEnded);
        QVERIFY2(second.adopt(run->id), qPrintable(second.errorString()));
        QVERIFY(ended.wait(240000));
        QCOMPARE(ended.first().at(1).value<RunState>(), RunState::Finished);

        // Local events.jsonl == the job's; stored points == its distinct metric lines.
        QFile local(QDir(runDir).filePath(QStringLiteral("events.jsonl")));
        QFile remote(
            QDir(record.value(QStringLiteral("remote_dir")).toString()).filePath(QStringLiteral("events.jsonl")));
        QVERIFY(local.open(QIODevice::ReadOnly) && remote.open(QIODevice::ReadOnly));
        const QByteArray bytes = local.readAll();
        QCOMPARE(bytes, remote.readAll());
        QSet<QString> keys;
        for (const QByteArray &line : bytes.split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("metric") &&
                e.value(QStringLiteral("name")).toString() == QLatin1String("loss") &&
                e.value(QStringLiteral("split")).toString() == QLatin1String("train"))
                keys.insert(QString::number(e.value(QStringLiteral("step")).toInt()));
        }
        const int pointsAfter =
            int(store.metricPoints(run->id, QStringLiteral("loss"), app::MetricSplit::Train).size());
        qInfo("train loss points: %d before the first manager went away, %d at the end, %d in events.jsonl",
              pointsBefore, pointsAfter, int(keys.size()));
        QVERIFY(pointsAfter > pointsBefore);
        QCOMPARE(pointsAfter, int(keys.size()));
        QCOMPARE(store.run(run->id)->weightsHash.size(), 64);
    }
};

QTEST_GUILESS_MAIN(TestItClusterAdopt)
#include "tst_it_cluster_adopt.moc"
