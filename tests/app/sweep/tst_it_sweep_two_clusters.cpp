// A sweep spread over two clusters: two instances of the project's Slurm fixture side by side (alpha and beta, their
// own sshd, slurmctld and scratch), a 20-trial ASHA sweep file with "targets": ["alpha", "beta"], at most 3 trials
// in flight per cluster. In the middle of the sweep alpha's sshd and slurmctld are stopped: its trials are abandoned
// there within the unreachable timeout and continue on beta from the newest checkpoint this computer has; no trial
// is placed on alpha after that. The sweep completes with 20 unique trials, each with its own run and a result.
// Also: the sweep file's "targets" validation.
#include "common/cluster_runs.h"

#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_controller.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using namespace diamond::app;
using namespace diamond::app::sweep;

class TestItSweepTwoClusters : public QObject {
    Q_OBJECT

    test::LocalCluster a_{test::LocalCluster::Mode::Slurm}, b_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runsA_, runsB_;

    QJsonObject document(const QJsonValue &targets) const {
        QJsonObject config = test::ClusterRuns::config(20000);
        config.remove(QStringLiteral("steps"));
        config.insert(QStringLiteral("steps"), 20000);
        QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QStringLiteral("asha-on-two-clusters")},
            {QStringLiteral("spec"), test::ClusterRuns::spec()},
            {QStringLiteral("config"), config},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(
                 R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.0005,"high":0.05}])")
                 .array()},
            {QStringLiteral("algorithm"), QJsonObject{{QStringLiteral("name"), QStringLiteral("asha")},
                                                      {QStringLiteral("eta"), 2},
                                                      {QStringLiteral("min_resource"), 5000}}},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                      {QStringLiteral("mode"), QStringLiteral("max")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), 20},
                                                   {QStringLiteral("max_concurrent"), 6},
                                                   {QStringLiteral("max_in_flight_per_target"), 3},
                                                   {QStringLiteral("budget_unit"), QStringLiteral("steps")},
                                                   {QStringLiteral("budget_per_trial"), 20000},
                                                   {QStringLiteral("threads_per_trial"), 1},
                                                   {QStringLiteral("unreachable_after_s"), 5}}},
            {QStringLiteral("job"), runsA_->execution().value(QStringLiteral("job"))},
            {QStringLiteral("seed"), 11}};
        if (!targets.isUndefined()) doc.insert(QStringLiteral("targets"), targets);
        return doc;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        qputenv("LOCAL_CLUSTER_NODE_CPUS", "4");
        QVERIFY2(a_.start(), qPrintable(a_.log()));
        QVERIFY2(b_.start(), qPrintable(b_.log()));
        QVERIFY(QDir().mkpath(dir_.filePath(QStringLiteral("a"))) && QDir().mkpath(dir_.filePath(QStringLiteral("b"))));
        runsA_ = std::make_unique<test::ClusterRuns>(a_, dir_.filePath(QStringLiteral("a")));
        runsB_ = std::make_unique<test::ClusterRuns>(b_, dir_.filePath(QStringLiteral("b")));
    }

    void targetsAreValidated() {
        QString error;
        for (const auto &[targets, expected] :
             {std::pair{QJsonValue(QJsonArray{}), QStringLiteral("targets:")},
              std::pair{QJsonValue(QStringLiteral("alpha")), QStringLiteral("targets:")},
              std::pair{QJsonValue(QJsonArray{QStringLiteral("alpha"), QStringLiteral("alpha")}),
                        QStringLiteral("targets[1]")},
              std::pair{QJsonValue(QJsonArray{QStringLiteral("alpha"), QStringLiteral("local")}),
                        QStringLiteral("targets[1]")},
              std::pair{QJsonValue(QJsonArray{QStringLiteral("alpha"), 7}), QStringLiteral("targets[1]")}}) {
            QVERIFY(!SweepDefinition::fromJson(document(targets), {}, &error));
            QVERIFY2(error.startsWith(expected), qPrintable(error));
        }
        QJsonObject both = document(QJsonArray{QStringLiteral("alpha"), QStringLiteral("beta")});
        both.insert(QStringLiteral("target"), QStringLiteral("alpha"));
        QVERIFY(!SweepDefinition::fromJson(both, {}, &error));
        QVERIFY2(error.contains(QLatin1String("exclude each other")), qPrintable(error));
        QJsonObject perTarget = document(QJsonArray{QStringLiteral("alpha"), QStringLiteral("beta")});
        perTarget.insert(QStringLiteral("target_jobs"),
                         QJsonObject{{QStringLiteral("gamma"), QJsonObject{{QStringLiteral("nodes"), 1}}}});
        QVERIFY(!SweepDefinition::fromJson(perTarget, {}, &error));
        QVERIFY2(error.startsWith(QLatin1String("target_jobs.gamma")), qPrintable(error));
        perTarget.insert(
            QStringLiteral("target_jobs"),
            QJsonObject{{QStringLiteral("beta"), QJsonObject{{QStringLiteral("nodes"), QStringLiteral("x")}}}});
        QVERIFY(!SweepDefinition::fromJson(perTarget, {}, &error));
        QVERIFY2(error.startsWith(QLatin1String("target_jobs.beta")), qPrintable(error));
        // Round trip, and an unknown profile is named by the controller.
        const auto def = SweepDefinition::fromJson(
            document(QJsonArray{QStringLiteral("alpha"), QStringLiteral("nowhere")}), {}, &error);
        QVERIFY2(def, qPrintable(error));
        QCOMPARE(SweepDefinition::fromJson(def->toJson(), {}, &error)->targets,
                 (QStringList{QStringLiteral("alpha"), QStringLiteral("nowhere")}));
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("validation"))));
        QVERIFY(ClusterStore(ws).add(runsA_->sshProfile(QStringLiteral("alpha"))));
        SweepController c(ws);
        QVERIFY(!c.create(*def));
        QVERIFY2(c.errorString().contains(QLatin1String("nowhere")), qPrintable(c.errorString()));
    }

    void sweepSurvivesAClusterStoppedInTheMiddle() {
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws"))));
        ClusterStore clusters(ws);
        QVERIFY2(clusters.add(runsA_->sshProfile(QStringLiteral("alpha"))), qPrintable(clusters.errorString()));
        QVERIFY2(clusters.add(runsB_->sshProfile(QStringLiteral("beta"))), qPrintable(clusters.errorString()));
        QString error;
        const auto def = SweepDefinition::fromJson(
            document(QJsonArray{QStringLiteral("alpha"), QStringLiteral("beta")}), {}, &error);
        QVERIFY2(def, qPrintable(error));
        QVERIFY(def->isMultiTarget());

        SweepController c(ws);
        c.setPollInterval(250);
        c.setTargetTimings(-1, 3000); // the file's 5 s unreachable timeout; a down cluster is tried every 3 s
        const auto id = c.create(*def);
        QVERIFY2(id, qPrintable(c.errorString()));
        QCOMPARE(c.executor()->clusters().size(), 2);
        QSignalSpy finished(&c, &SweepController::finished);
        QSignalSpy moved(&c, &SweepController::trialMoved);
        QSignalSpy targets(&c, &SweepController::targetChanged);
        QDateTime alphaDownAt;
        connect(&c, &SweepController::targetChanged, this, [&](const QString &target, bool up) {
            if (target == QLatin1String("alpha") && !up && !alphaDownAt.isValid())
                alphaDownAt = QDateTime::currentDateTimeUtc();
        });
        QElapsedTimer clock;
        clock.start();
        QVERIFY2(c.start(), qPrintable(c.errorString()));

        // Stop alpha once trials ran on both clusters and alpha has trials in flight.
        auto runningOn = [&](const QString &target) {
            int n = 0;
            for (const TrialRow &t : c.trials())
                if (t.state == QLatin1String("running") && t.info.value(QStringLiteral("target")).toString() == target)
                    ++n;
            return n;
        };
        auto endedOn = [&](const QString &target) {
            int n = 0;
            for (const TrialRow &t : c.trials())
                if (t.state != QLatin1String("running") && t.state != QLatin1String("pending") &&
                    t.info.value(QStringLiteral("target")).toString() == target)
                    ++n;
            return n;
        };
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return endedOn(QStringLiteral("alpha")) >= 2 && endedOn(QStringLiteral("beta")) >= 2 &&
                                runningOn(QStringLiteral("alpha")) >= 2;
                     },
                     240000),
                 "the sweep never had trials on both clusters with two running on alpha");
        const int inFlightOnAlpha = runningOn(QStringLiteral("alpha"));
        const QDateTime stoppedAt = QDateTime::currentDateTimeUtc();
        QVERIFY(a_.stopSshd());
        QVERIFY(a_.stopSlurmctld());
        qInfo("alpha stopped after %lld ms with %d trial(s) in flight there", clock.elapsed(), inFlightOnAlpha);

        QVERIFY2(finished.wait(600000) || !finished.isEmpty(),
                 qPrintable(QStringLiteral("sweep still %1 after 600 s").arg(c.state())));
        QCOMPARE(c.state(), QStringLiteral("completed"));
        qInfo("20-trial ASHA sweep over 2 clusters: %lld ms", clock.elapsed());

        // alpha was taken out, and never came back (its sshd stays down).
        QVERIFY(alphaDownAt.isValid());
        for (const auto &t : targets)
            QVERIFY2(t.at(0).toString() != QLatin1String("alpha") || !t.at(1).toBool(), "alpha came back");
        qInfo("alpha taken out %lld ms after it stopped", stoppedAt.msecsTo(alphaDownAt));

        const QList<TrialRow> trials = c.trials();
        QCOMPARE(trials.size(), 20);
        QSet<int> indices;
        QSet<qint64> runIds;
        RunStore runs(ws);
        int movedTrials = 0, fromCheckpoint = 0, rescued = 0, pausedMoved = 0;
        qint64 recoveryMs = 0;
        for (const TrialRow &t : trials) {
            indices.insert(t.index);
            QVERIFY2(t.runId > 0 && !runIds.contains(t.runId), qPrintable(QString::number(t.index)));
            runIds.insert(t.runId);
            QVERIFY2(t.state == QLatin1String("completed") || t.state == QLatin1String("stopped"),
                     qPrintable(QStringLiteral("trial %1 is %2: %3")
                                    .arg(t.index)
                                    .arg(t.state, t.info.value(QStringLiteral("note")).toString())));
            QVERIFY2(t.objective.has_value(), qPrintable(QStringLiteral("trial %1 has no result").arg(t.index)));
            // Every placement after alpha was taken out went to beta.
            const QJsonArray placements = t.info.value(QStringLiteral("placements")).toArray();
            QVERIFY(!placements.isEmpty());
            for (const QJsonValue &v : placements) {
                const QJsonObject p = v.toObject();
                const QDateTime at = QDateTime::fromString(p.value(QStringLiteral("at")).toString(), Qt::ISODateWithMs);
                if (at > alphaDownAt.addMSecs(100))
                    QVERIFY2(p.value(QStringLiteral("target")).toString() == QLatin1String("beta"),
                             QJsonDocument(p).toJson(QJsonDocument::Compact).constData());
                if (p.value(QStringLiteral("from")).toString() == QLatin1String("alpha") && at > stoppedAt) {
                    qInfo("trial %d: %s -> beta %lld ms after the stop%s (rung %d)", t.index,
                          qPrintable(p.value(QStringLiteral("from")).toString()), qlonglong(stoppedAt.msecsTo(at)),
                          p.value(QStringLiteral("rescue")).toBool() ? ", rescued" : "",
                          p.value(QStringLiteral("rung")).toInt());
                    if (p.value(QStringLiteral("rescue")).toBool()) {
                        recoveryMs = std::max(recoveryMs, stoppedAt.msecsTo(at));
                        ++rescued;
                    } else {
                        ++pausedMoved; // finished a rung on alpha before the stop; promoted on beta
                    }
                }
            }
            if (!t.info.value(QStringLiteral("left_behind")).toArray().isEmpty()) {
                ++movedTrials;
                QCOMPARE(t.info.value(QStringLiteral("target")).toString(), QStringLiteral("beta"));
                QVERIFY(t.info.value(QStringLiteral("moves")).toInt() >= 1);
                const QList<QJsonObject> starts =
                    test::runDirEvents(ws.runDirectory(t.runId), QStringLiteral("started"));
                if (!starts.isEmpty() && starts.last().value(QStringLiteral("start_step")).toInt() > 0)
                    ++fromCheckpoint;
            }
            // One result per run: its events hold exactly one finished event per rung it completed, none twice.
            const auto run = runs.run(t.runId);
            QVERIFY(run);
            QVERIFY2(run->target == t.info.value(QStringLiteral("target")).toString(), qPrintable(run->target));
        }
        QCOMPARE(indices.size(), 20);
        QVERIFY2(movedTrials >= 1, "no trial was moved off alpha");
        QVERIFY2(rescued >= inFlightOnAlpha,
                 qPrintable(QStringLiteral("%1 of %2 in flight re-placed").arg(rescued).arg(inFlightOnAlpha)));
        QVERIFY2(!moved.isEmpty(), "trialMoved was never emitted");
        qInfo("trials in flight on alpha re-placed on beta: %d (%d abandoned jobs, %d resumed from a fetched "
              "checkpoint), the last %lld ms after alpha stopped (unreachable timeout 5 s); trials paused on alpha and "
              "promoted on beta: %d",
              rescued, movedTrials, fromCheckpoint, recoveryMs, pausedMoved);
        QVERIFY2(recoveryMs < 60000, qPrintable(QString::number(recoveryMs)));

        // A trial's run is placed by its sweep: moving it by hand is refused by name.
        RunService service(ws);
        for (const TrialRow &t : trials) {
            const auto run = runs.run(t.runId);
            if (!run || run->state == RunState::Finished) continue;
            // Towards the other cluster, so that only the trial rule can refuse it.
            const QString other =
                run->target == QStringLiteral("alpha") ? QStringLiteral("beta") : QStringLiteral("alpha");
            QVERIFY(!service.moveRun(t.runId, other));
            QVERIFY2(service.errorString().contains(QStringLiteral("trial %1 of sweep").arg(t.index)),
                     qPrintable(service.errorString()));
            break;
        }
    }
};

QTEST_GUILESS_MAIN(TestItSweepTwoClusters)
#include "tst_it_sweep_two_clusters.moc"
