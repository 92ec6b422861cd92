// A cluster sweep on the project's real single-node Slurm on 127.0.0.1 (tests/fixtures/local-cluster), reached
// over SSH through a cluster profile of the workspace: an 8-trial ASHA sweep of the spirals example driven by
// SweepController. Every trial is its own Slurm job; a promotion is a later job that resumes from the checkpoint
// the trial's previous job left in its remote run folder. Also: the sweep file's "target"/"job" validation.
#include "app/cluster/cluster_store.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_controller.h"

#include "common/engine_process.h"
#include "common/local_cluster.h"
#include "common/test_paths.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using namespace diamond::app;
using namespace diamond::app::sweep;

class TestItSweepSlurm : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    QString engine_;

    remote::ClusterProfile fixtureProfile() const {
        remote::ClusterProfile p;
        p.name = QStringLiteral("slurm-fixture");
        p.host = cluster_.host();
        p.port = cluster_.port();
        p.user = cluster_.user();
        p.identityFile = cluster_.keyPath();
        p.knownHostsFile = cluster_.knownHostsPath();
        p.scratchDir = cluster_.scratchDir();
        p.enginePath = engine_;
        p.scheduler = remote::SchedulerKind::Slurm;
        p.environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        return p;
    }

    QJsonObject document(const QString &target, const QJsonObject &job) const {
        QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QStringLiteral("asha-on-slurm")},
            {QStringLiteral("spec"), test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))},
            {QStringLiteral("config"), test::sourcePath(QStringLiteral("resources/examples/spirals/run.json"))},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(
                 R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.0005,"high":0.05}])")
                 .array()},
            {QStringLiteral("algorithm"), QJsonObject{{QStringLiteral("name"), QStringLiteral("asha")},
                                                      {QStringLiteral("eta"), 2},
                                                      {QStringLiteral("min_resource"), 1}}},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                      {QStringLiteral("mode"), QStringLiteral("max")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), 8},
                                                   {QStringLiteral("max_concurrent"), 3},
                                                   {QStringLiteral("budget_per_trial"), 4},
                                                   {QStringLiteral("threads_per_trial"), 1}}},
            {QStringLiteral("seed"), 7}};
        if (!target.isEmpty()) doc.insert(QStringLiteral("target"), target);
        if (!job.isEmpty()) doc.insert(QStringLiteral("job"), job);
        return doc;
    }

    QJsonObject jobResources() const {
        return {{QStringLiteral("partition"), cluster_.partition()},
                {QStringLiteral("tasks_per_node"), 1},
                {QStringLiteral("cpus_per_task"), 1},
                {QStringLiteral("time_limit_minutes"), 10}};
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        engine_ = qEnvironmentVariable("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")));
        QVERIFY2(QFileInfo(engine_).isExecutable(), qPrintable(engine_ + QStringLiteral(" is not built")));
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        qputenv("LOCAL_CLUSTER_NODE_CPUS", "4");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qInfo("local Slurm up in %lld ms", cluster_.startMilliseconds());
    }

    void targetAndJobAreValidated() {
        QString error;
        // job without a cluster target
        QVERIFY(!SweepDefinition::fromJson(document({}, jobResources()), {}, &error));
        QVERIFY2(error.startsWith(QLatin1String("job")), qPrintable(error));
        // a bad job field is named
        QVERIFY(!SweepDefinition::fromJson(
            document(QStringLiteral("x"), QJsonObject{{QStringLiteral("nodes"), QStringLiteral("two")}}), {}, &error));
        QVERIFY2(error.contains(QLatin1String("job.nodes")), qPrintable(error));
        QJsonObject badTarget = document({}, {});
        badTarget.insert(QStringLiteral("target"), 3);
        QVERIFY(!SweepDefinition::fromJson(badTarget, {}, &error));
        QVERIFY2(error.startsWith(QLatin1String("target")), qPrintable(error));
        // an unknown profile is refused by the controller, naming "target"
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("validation"))));
        const auto def = SweepDefinition::fromJson(document(QStringLiteral("nowhere"), jobResources()), {}, &error);
        QVERIFY2(def, qPrintable(error));
        QCOMPARE(def->toJson().value(QStringLiteral("target")).toString(), QStringLiteral("nowhere"));
        SweepController c(ws);
        QVERIFY(!c.create(*def));
        QVERIFY2(c.errorString().startsWith(QLatin1String("target")) &&
                     c.errorString().contains(QLatin1String("nowhere")),
                 qPrintable(c.errorString()));
    }

    void ashaSweepOnSlurm() {
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws"))));
        ClusterStore clusters(ws);
        const remote::ClusterProfile profile = fixtureProfile();
        QVERIFY2(clusters.add(profile), qPrintable(clusters.errorString()));

        QString error;
        const auto def = SweepDefinition::fromJson(document(profile.name, jobResources()), {}, &error);
        QVERIFY2(def, qPrintable(error));
        QVERIFY(def->packing); // packing is on by default and must be ignored on a cluster

        SweepController c(ws);
        c.setPollInterval(200);
        const auto id = c.create(*def);
        QVERIFY2(id, qPrintable(c.errorString()));
        QVERIFY(c.executor()->cluster());
        QSignalSpy finished(&c, &SweepController::finished);
        QSignalSpy started(&c, &SweepController::trialStarted);
        QElapsedTimer timer;
        timer.start();
        QVERIFY2(c.start(), qPrintable(c.errorString()));
        QVERIFY2(finished.wait(170000) || !finished.isEmpty(),
                 qPrintable(QStringLiteral("sweep still %1 after 170 s").arg(c.state())));
        qInfo("8-trial ASHA sweep on Slurm: %lld ms, %lld trial launches", timer.elapsed(), qlonglong(started.size()));
        QCOMPARE(c.state(), QStringLiteral("completed"));

        const QList<TrialRow> trials = c.trials();
        QCOMPARE(trials.size(), 8);
        QSet<int> indices;
        QSet<QString> allJobs;
        RunStore runs(ws);
        int promoted = 0;
        for (const TrialRow &t : trials) {
            indices.insert(t.index);
            QVERIFY2(t.state != QLatin1String("failed"), qPrintable(t.info.value(QStringLiteral("note")).toString()));
            const auto run = runs.run(t.runId);
            QVERIFY(run);
            QCOMPARE(run->target, profile.name);
            const QStringList jobs = c.executor()->cluster()->jobIds(t.runId);
            QVERIFY2(!jobs.isEmpty(), qPrintable(QStringLiteral("trial %1 has no Slurm job").arg(t.index)));
            QStringList stored; // the ids the controller recorded in the database
            for (const QJsonValue &v : t.info.value(QStringLiteral("jobs")).toArray())
                stored << v.toString();
            QCOMPARE(stored, jobs);
            for (const QString &j : jobs) {
                QVERIFY2(!allJobs.contains(j), qPrintable(QStringLiteral("job %1 shared by two attempts").arg(j)));
                allJobs.insert(j);
            }
            if (t.rung > 0) {
                // Promoted: a later job resumed the run from the checkpoint of its previous job.
                ++promoted;
                QVERIFY2(jobs.size() >= t.rung + 1, qPrintable(jobs.join(QLatin1Char(' '))));
                const QList<QJsonObject> starts =
                    test::runDirEvents(ws.runDirectory(t.runId), QStringLiteral("started"));
                QCOMPARE(starts.size(), jobs.size());
                QVERIFY(starts.last().value(QStringLiteral("start_step")).toInt() > 0);
                QVERIFY(!starts.last().value(QStringLiteral("resumed_from")).toString().isEmpty());
            }
        }
        QCOMPARE(indices, (QSet<int>{0, 1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(allJobs.size(), started.size()); // one job per launch or promotion: no packing on a cluster
        QVERIFY2(promoted >= 1, "ASHA promoted no trial");

        const auto best = c.algorithm()->bestTrial();
        QVERIFY(best.has_value());
        bool found = false;
        for (const TrialRow &t : trials)
            if (t.index == *best) {
                found = true;
                QVERIFY(t.objective.has_value());
                QVERIFY(*t.objective > 0.3 && *t.objective <= 1.0);
                qInfo("best trial %d: val accuracy %.3f at rung %d", t.index, *t.objective, t.rung);
            }
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestItSweepSlurm)
#include "tst_it_sweep_slurm.moc"
