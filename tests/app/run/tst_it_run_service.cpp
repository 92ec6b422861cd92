// RunService against the project's real single-node Slurm (tests/fixtures/local-cluster; commands on this machine
// with the fixture's SLURM_CONF): cancel of a cluster run reaches the scheduler (no job left in squeue within 15 s,
// stored cancelled only once the job ended); resume of a cancelled or preempted run continues on the cluster from its
// checkpoint and ends with the weights of an uninterrupted run; a cancel from another service (another process)
// ends the run as cancelled everywhere and submits no continuation; a service started while the job waits in the
// queue adopts it (no second job); deleting refuses while a run is alive.
#include "common/cluster_runs.h"

#include "app/cluster/cluster_job_store.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using app::RunService;
using app::RunState;

class TestItRunService : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runs_;
    static constexpr int kSteps = 50000;

    struct Session {
        app::Workspace ws;
        std::unique_ptr<RunService> service;
    };

    /// A workspace (created on first use) with the fixture as cluster "lc", and a service on it.
    bool open(Session &s, const QString &name) {
        const QString folder = dir_.filePath(name);
        const bool fresh = !app::Workspace::exists(folder);
        if (!s.ws.open(folder, app::Workspace::OpenMode::CreateIfMissing)) return false;
        if (fresh && !app::ClusterStore(s.ws).add(runs_->localProfile())) return false;
        s.service = std::make_unique<RunService>(s.ws);
        s.service->setClusterPollIntervals(100, 300);
        return true;
    }
    static std::optional<app::Run> newRun(RunService &service, int steps) {
        RunService::NewRun n;
        n.project = QStringLiteral("cluster");
        n.spec = test::ClusterRuns::spec();
        n.config = test::ClusterRuns::config(steps);
        n.target = QStringLiteral("lc");
        return service.createRun(n);
    }
    std::optional<app::Run> startRun(RunService &service, int steps = kSteps) {
        RunService::NewRun n;
        n.project = QStringLiteral("cluster");
        n.spec = test::ClusterRuns::spec();
        n.config = test::ClusterRuns::config(steps);
        n.target = QStringLiteral("lc");
        n.execution = runs_->execution();
        const auto run = service.createRun(n);
        if (!run || !service.start(run->id)) return std::nullopt;
        return run;
    }
    static RunState waitForEnd(RunService &service, qint64 runId, int timeoutMs) {
        QSignalSpy ended(&service, &RunService::runEnded);
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            for (const auto &e : ended)
                if (e.at(0).toLongLong() == runId) return e.at(1).value<RunState>();
            ended.wait(500);
        }
        return RunState::Running;
    }
    /// Waits until the run stored metric points (the engine is training).
    static bool waitForTraining(app::Workspace &ws, qint64 runId, int timeoutMs) {
        return QTest::qWaitFor([&] { return app::RunStore(ws).metricPointCount(runId) > 0; }, timeoutMs);
    }
    /// A checkpoint exists (its event reached the workspace), so that a resume has something to start from.
    static bool waitForCheckpoint(app::Workspace &ws, qint64 runId, int timeoutMs) {
        return QTest::qWaitFor(
            [&] { return !test::runDirEvents(ws.runDirectory(runId), QStringLiteral("checkpoint")).isEmpty(); },
            timeoutMs);
    }
    static QString weightsOf(app::Workspace &ws, qint64 runId) { return app::RunStore(ws).run(runId)->weightsHash; }
    static QList<QJsonObject> started(app::Workspace &ws, qint64 runId) {
        return test::runDirEvents(ws.runDirectory(runId), QStringLiteral("started"));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFileInfo(test::ClusterRuns::engine()).isExecutable(), "diamond-train is not built");
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        qputenv("LOCAL_CLUSTER_NODE_CPUS", "4");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qputenv("SLURM_CONF", cluster_.slurmConf().toLocal8Bit());
        runs_ = std::make_unique<test::ClusterRuns>(cluster_, dir_.path());
        QVERIFY(!runs_->referenceWeights(kSteps).isEmpty());
    }

    void createRunChecksTheTarget() {
        Session s;
        QVERIFY(open(s, QStringLiteral("create")));
        RunService::NewRun n;
        n.spec = test::ClusterRuns::spec();
        n.config = test::ClusterRuns::config(100);
        n.target = QStringLiteral("nowhere");
        QVERIFY(!s.service->createRun(n));
        QVERIFY2(s.service->errorString().contains(QStringLiteral("nowhere")), qPrintable(s.service->errorString()));
        n.target = QStringLiteral("lc");
        n.execution = {{QStringLiteral("job"), QJsonObject{{QStringLiteral("nodes"), QStringLiteral("two")}}}};
        QVERIFY(!s.service->createRun(n));
        QVERIFY2(s.service->errorString().contains(QStringLiteral("nodes")), qPrintable(s.service->errorString()));
        QCOMPARE(app::RunStore(s.ws).runs().size(), 0);
    }

    void cancelReachesTheSchedulerAndResumeEndsWithTheSameWeights() {
        Session s;
        QVERIFY(open(s, QStringLiteral("cancel")));
        const auto run = startRun(*s.service);
        QVERIFY2(run, qPrintable(s.service->errorString()));
        QVERIFY(waitForTraining(s.ws, run->id, 120000));
        QVERIFY(waitForCheckpoint(s.ws, run->id, 60000));
        const auto job = app::ClusterJobStore(s.ws).current(run->id);
        QVERIFY(job);
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(run->id)).size(), 1);

        QSignalSpy ended(s.service.get(), &RunService::runEnded);
        QVERIFY2(s.service->cancel(run->id), qPrintable(s.service->errorString()));
        // Not recorded before the scheduler confirms.
        QCOMPARE(app::RunStore(s.ws).run(run->id)->state, RunState::Running);
        const qint64 gone = runs_->msUntilNoJob(run->id, 15000);
        QVERIFY2(gone >= 0, "the job was still in squeue 15 s after the cancel");
        QCOMPARE(waitForEnd(*s.service, run->id, 30000), RunState::Cancelled);
        QCOMPARE(app::RunStore(s.ws).run(run->id)->state, RunState::Cancelled);
        QCOMPARE(app::ClusterJobStore(s.ws).current(run->id)->phase, QStringLiteral("cancelled"));
        qInfo("job %s left squeue %lld ms after the cancel", qPrintable(job->jobId), gone);

        QVERIFY2(s.service->resume(run->id), qPrintable(s.service->errorString()));
        QCOMPARE(waitForEnd(*s.service, run->id, 180000), RunState::Finished);
        const auto starts = started(s.ws, run->id);
        QCOMPARE(starts.size(), 2);
        QVERIFY(starts.last().value(QStringLiteral("start_step")).toInt() > 0);
        QCOMPARE(app::ClusterJobStore(s.ws).jobs(run->id).size(), 2); // resubmitted on the cluster
        QCOMPARE(weightsOf(s.ws, run->id), runs_->referenceWeights(kSteps));
    }

    void preemptedRunResumesOnTheCluster() {
        Session s;
        QVERIFY(open(s, QStringLiteral("preempt")));
        s.service->setClusterMaxContinuations(0); // exit 85 ends the run preempted instead of continuing
        const auto run = startRun(*s.service);
        QVERIFY2(run, qPrintable(s.service->errorString()));
        QVERIFY(waitForTraining(s.ws, run->id, 120000));
        QVERIFY(waitForCheckpoint(s.ws, run->id, 60000));
        const QString jobId = app::ClusterJobStore(s.ws).current(run->id)->jobId;
        runs_->slurm(QStringLiteral("scancel"), {QStringLiteral("--signal=USR1"), QStringLiteral("--batch"), jobId});
        const RunState ended = waitForEnd(*s.service, run->id, 60000);
        if (ended != RunState::Preempted) { // what the run and the job said, for the log
            const auto stored = app::RunStore(s.ws).run(run->id);
            qWarning("run ended %s, exit code %d: %s", qPrintable(app::runStateName(ended)),
                     stored->exitCode.value_or(-1), qPrintable(stored->exitMessage));
            for (const auto &m : app::RunStore(s.ws).messages(run->id))
                qWarning("message: %s", qPrintable(m.text));
        }
        QCOMPARE(ended, RunState::Preempted);

        QVERIFY2(s.service->resume(run->id), qPrintable(s.service->errorString()));
        QCOMPARE(waitForEnd(*s.service, run->id, 180000), RunState::Finished);
        QVERIFY(started(s.ws, run->id).last().value(QStringLiteral("start_step")).toInt() > 0);
        QCOMPARE(weightsOf(s.ws, run->id), runs_->referenceWeights(kSteps));
    }

    void cancelFromAnotherServiceEndsTheRunEverywhere() {
        Session a, b;
        QVERIFY(open(a, QStringLiteral("two")));
        QVERIFY(open(b, QStringLiteral("two")));
        const auto run = startRun(*a.service);
        QVERIFY2(run, qPrintable(a.service->errorString()));
        QVERIFY(waitForTraining(a.ws, run->id, 120000));
        QVERIFY(!b.service->isActive(run->id));
        QSignalSpy endedB(b.service.get(), &RunService::runEnded);
        QVERIFY2(b.service->cancel(run->id), qPrintable(b.service->errorString()));
        QVERIFY(b.service->isActive(run->id)); // adopted to see the cancel through
        QVERIFY(runs_->msUntilNoJob(run->id, 15000) >= 0);
        QCOMPARE(waitForEnd(*b.service, run->id, 30000), RunState::Cancelled);
        // The submitting service saw the job end after a cancel asked elsewhere: no continuation, still cancelled.
        QTRY_VERIFY_WITH_TIMEOUT(!a.service->isActive(run->id), 30000);
        QTest::qWait(2000);
        QCOMPARE(app::ClusterJobStore(a.ws).jobs(run->id).size(), 1);
        QCOMPARE(app::RunStore(a.ws).run(run->id)->state, RunState::Cancelled);
        QVERIFY(runs_->jobsNamed(test::ClusterRuns::jobName(run->id)).isEmpty());
    }

    void restartWhileQueuedAdoptsTheJob() {
        // Another job holds the only node, so the run's job waits in the queue.
        const QString blockerId = runs_->blockNode();
        QVERIFY(!blockerId.isEmpty());
        qint64 runId = 0;
        {
            Session first;
            QVERIFY(open(first, QStringLiteral("restart")));
            const auto run = startRun(*first.service, 600);
            QVERIFY2(run, qPrintable(first.service->errorString()));
            runId = run->id;
            QVERIFY(QTest::qWaitFor(
                [&] {
                    const auto job = app::ClusterJobStore(first.ws).current(runId);
                    return job && job->phase == QLatin1String("pending");
                },
                60000));
        } // the app goes away while the job waits
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(runId)).size(), 1);
        Session second;
        QVERIFY(open(second, QStringLiteral("restart")));
        QCOMPARE(second.service->followAll(), 1);
        QVERIFY(second.service->isActive(runId));
        QTest::qWait(1500); // several polls of the waiting job
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(runId)).size(), 1);
        runs_->slurm(QStringLiteral("scancel"), {blockerId});
        QCOMPARE(waitForEnd(*second.service, runId, 180000), RunState::Finished);
        QCOMPARE(app::ClusterJobStore(second.ws).jobs(runId).size(), 1); // no second job
        QCOMPARE(started(second.ws, runId).size(), 1);
    }

    void deleteRefusesWhileTheRunIsAlive() {
        Session s;
        QVERIFY(open(s, QStringLiteral("delete")));
        const auto run = startRun(*s.service);
        QVERIFY(run);
        QVERIFY(!s.service->deleteRun(run->id));
        QVERIFY2(s.service->errorString().contains(QStringLiteral("running")), qPrintable(s.service->errorString()));
        QVERIFY(s.service->cancel(run->id));
        QCOMPARE(waitForEnd(*s.service, run->id, 60000), RunState::Cancelled);
        const QString folder = s.ws.runDirectory(run->id);
        QVERIFY(QFileInfo::exists(folder));
        QSignalSpy deleted(s.service.get(), &RunService::runDeleted);
        QVERIFY2(s.service->deleteRun(run->id), qPrintable(s.service->errorString()));
        QCOMPARE(deleted.size(), 1);
        QVERIFY(!app::RunStore(s.ws).run(run->id));
        QVERIFY(!QFileInfo::exists(folder));
        QVERIFY(app::ClusterJobStore(s.ws).jobs(run->id).isEmpty());
        const auto draft = newRun(*s.service, 100);
        QVERIFY(draft);
        QVERIFY(s.service->deleteRun(draft->id)); // a draft never ran
    }
};

QTEST_GUILESS_MAIN(TestItRunService)
#include "tst_it_run_service.moc"
