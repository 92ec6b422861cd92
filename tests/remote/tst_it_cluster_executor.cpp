// ClusterExecutor against the project's real single-node Slurm on 127.0.0.1 (tests/fixtures/local-cluster),
// commands run with LocalCommandRunner and the fixture's SLURM_CONF: the spirals example as a 2-task
// data-parallel job (srun ranks, rendezvous from Slurm's environment) reaching finished with its metrics in the
// workspace; cancel; and a job cut by its time limit (USR1 -> checkpoint -> exit 85 -> continuation with
// --resume) ending with the same weights_sha256 as an uninterrupted 2-rank run.
// Prints the measured time from submit to RUNNING and the metric latency (engine event time -> stored).
#include "app/cluster/cluster_executor.h"
#include "app/run/run_manager.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "remote/command_runner.h"
#include "remote/slurm_parsers.h"
#include "remote/ssh_command_runner.h"

#include "common/engine_process.h"
#include "common/local_cluster.h"
#include "common/test_paths.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace diamond;
using app::RunState;

class TestItClusterExecutor : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    QString engine_;

    static QJsonObject readJson(const QString &path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    remote::ClusterProfile profile() const {
        remote::ClusterProfile p;
        p.name = QStringLiteral("local");
        p.host = QStringLiteral("127.0.0.1");
        p.scheduler = remote::SchedulerKind::Slurm;
        p.scratchDir = dir_.filePath(QStringLiteral("scratch"));
        p.enginePath = engine_;
        p.environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        return p;
    }

    remote::JobRequest twoTasks(int minutes, int signalSeconds = 0) const {
        remote::JobRequest job;
        job.partition = cluster_.partition();
        job.tasksPerNode = 2;
        job.cpusPerTask = 1;
        job.timeLimitMinutes = minutes;
        job.signalSeconds = signalSeconds;
        job.engine.threads = 1;
        return job;
    }

    struct Session {
        app::Workspace ws;
        std::unique_ptr<app::RunManager> manager;
        app::ClusterExecutor *executor = nullptr;
        qint64 runId = 0;
    };

    /// A workspace with one draft run of the spirals example (config changed by `edit`), managed through a
    /// ClusterExecutor with `job` as its template.
    bool makeSession(Session &s, const QString &name, const remote::JobRequest &job,
                     const std::function<void(QJsonObject &)> &edit = {}, bool overSsh = false) {
        if (!s.ws.create(dir_.filePath(name))) return false;
        app::RunStore store(s.ws);
        QJsonObject spec = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QJsonObject config = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        if (edit) edit(config);
        const auto project = store.createProject(QStringLiteral("p"));
        const auto arch = project ? store.ensureArchitecture(project->id, QStringLiteral("spirals")) : std::nullopt;
        const auto version = arch ? store.addArchitectureVersion(*arch, spec) : std::nullopt;
        const auto run =
            version ? store.createRun(project->id, version->id, name, config, QStringLiteral("local")) : std::nullopt;
        if (!run) return false;
        s.runId = run->id;
        if (overSsh) {
            remote::ClusterProfile p = profile();
            p.host = cluster_.host();
            p.port = cluster_.port();
            p.user = cluster_.user();
            p.scratchDir = cluster_.scratchDir();
            remote::SshConnectOptions o;
            o.host = cluster_.host();
            o.port = cluster_.port();
            o.user = cluster_.user();
            o.identityFiles = {cluster_.keyPath()};
            o.identitiesOnly = true;
            o.useAgent = false;
            o.allowPassword = false;
            o.allowKeyboardInteractive = false;
            o.knownHostsPath = cluster_.knownHostsPath();
            s.executor = new app::ClusterExecutor(p, [o] {
                auto runner = std::make_unique<remote::SshCommandRunner>(o);
                runner->setReconnectPolicy({20, 250, 1000});
                return runner;
            });
        } else {
            s.executor =
                new app::ClusterExecutor(profile(), [] { return std::make_unique<remote::LocalCommandRunner>(); });
        }
        s.executor->setJobTemplate(job);
        s.manager = std::make_unique<app::RunManager>(s.ws, s.executor);
        return true;
    }

    static RunState waitForEnd(app::RunManager &manager, int timeoutMs) {
        QSignalSpy ended(&manager, &app::RunManager::runEnded);
        if (!ended.wait(timeoutMs)) return RunState::Running;
        return ended.first().at(1).value<RunState>();
    }

    /// `scontrol show job` of a job, via the same parser the scheduler uses.
    remote::JobStatus slurmJob(const QString &id) {
        QProcess p;
        p.setProcessEnvironment(cluster_.environment());
        p.start(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"), QStringLiteral("-o"), id});
        p.waitForFinished(10000);
        return remote::slurm::jobStatusFromScontrol(
            remote::slurm::parseScontrolRecords(p.readAllStandardOutput()).value(0));
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        engine_ = qEnvironmentVariable("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")));
        QVERIFY2(QFileInfo(engine_).isExecutable(), qPrintable(engine_ + QStringLiteral(" is not built")));
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5"); // a cancelled job leaves COMPLETING after 5 s, not 30
        qputenv("LOCAL_CLUSTER_NODE_CPUS", "4");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qputenv("SLURM_CONF", cluster_.slurmConf().toLocal8Bit()); // LocalCommandRunner runs sbatch etc. here
        qInfo("local Slurm up in %lld ms", cluster_.startMilliseconds());
    }

    void twoTaskRunFinishesWithMetrics() {
        Session s;
        QVERIFY(makeSession(s, QStringLiteral("two-task"), twoTasks(10)));
        QElapsedTimer clock;
        qint64 submittedMs = -1, runningMs = -1;
        QList<double> latencies;
        connect(s.executor, &app::ClusterExecutor::jobSubmitted, this, [&] { submittedMs = clock.elapsed(); });
        connect(s.executor, &app::ClusterExecutor::jobPhaseChanged, this,
                [&](qint64, const QString &, const QString &phase) {
                    if (phase == QLatin1String("running") && runningMs < 0) runningMs = clock.elapsed();
                });
        connect(s.manager.get(), &app::RunManager::metricsAppended, this,
                [&](qint64, const QList<app::MetricPoint> &points) {
                    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
                    for (const auto &p : points)
                        latencies << now - p.wall;
                });
        clock.start();
        QVERIFY2(s.manager->startRun(s.runId), qPrintable(s.manager->errorString()));
        const RunState end = waitForEnd(*s.manager, 180000);
        app::RunStore store(s.ws);
        const auto run = store.run(s.runId);
        QVERIFY2(end == RunState::Finished, qPrintable(runStateName(end) + QLatin1Char(' ') + run->exitMessage));
        QCOMPARE(run->state, RunState::Finished);
        QCOMPARE(s.executor->jobIds(s.runId).size(), 1);
        const QList<app::MetricPoint> loss =
            store.metricPoints(s.runId, QStringLiteral("loss"), app::MetricSplit::Train);
        QVERIFY(loss.size() > 10);
        QVERIFY(!store.metricPoints(s.runId, QStringLiteral("accuracy"), app::MetricSplit::Validation).isEmpty());
        QVERIFY(!run->weightsHash.isEmpty() ||
                !test::runDirEvents(s.ws.runDirectory(s.runId), QStringLiteral("finished")).isEmpty());
        // Two ranks met through Slurm's environment (srun tasks), not the engine's own launcher.
        const auto started = test::runDirEvents(s.ws.runDirectory(s.runId), QStringLiteral("started"));
        QCOMPARE(started.size(), 1);
        QCOMPARE(started.first().value(QStringLiteral("world_size")).toInt(), 2);
        const remote::JobStatus job = slurmJob(s.executor->jobIds(s.runId).first());
        QCOMPARE(job.phase, remote::JobPhase::Completed);
        QCOMPARE(job.exitCode.value_or(-1), 0);
        // The local events.jsonl is byte for byte the remote one.
        QFile local(QDir(s.ws.runDirectory(s.runId)).filePath(QStringLiteral("events.jsonl")));
        QFile remote(s.executor->remoteRunDir(s.runId) + QStringLiteral("/events.jsonl"));
        QVERIFY(local.open(QIODevice::ReadOnly) && remote.open(QIODevice::ReadOnly));
        QCOMPARE(local.readAll(), remote.readAll());
        // The newest checkpoint was fetched, byte for byte.
        const QStringList remoteCheckpoints = QDir(s.executor->remoteRunDir(s.runId) + QStringLiteral("/checkpoints"))
                                                  .entryList({QStringLiteral("*.pt")}, QDir::Files, QDir::Name);
        QVERIFY(!remoteCheckpoints.isEmpty());
        QFile fetched(
            QDir(s.ws.runDirectory(s.runId)).filePath(QStringLiteral("checkpoints/") + remoteCheckpoints.last()));
        QFile original(s.executor->remoteRunDir(s.runId) + QStringLiteral("/checkpoints/") + remoteCheckpoints.last());
        QVERIFY(fetched.open(QIODevice::ReadOnly) && original.open(QIODevice::ReadOnly));
        QCOMPARE(fetched.readAll(), original.readAll());

        std::sort(latencies.begin(), latencies.end());
        QVERIFY(!latencies.isEmpty());
        const double median = latencies.at(latencies.size() / 2), worst = latencies.last();
        qInfo("submit -> RUNNING: %lld ms (Train -> submitted %lld ms); metric latency median %.0f ms, max %.0f ms "
              "over %lld points",
              runningMs - submittedMs, submittedMs, median * 1000, worst * 1000, qint64(latencies.size()));
        QVERIFY2(runningMs >= 0, "the job was never seen RUNNING");
        QVERIFY2(median <= 1.0, "median metric latency above 1 s");
    }

    void overSshWithSshdRestart() {
        // The same 2-task job, everything over SSH as the test user; sshd is stopped (all connections drop)
        // and restarted while metrics stream: the history ends complete, without gaps or duplicates.
        Session s;
        QVERIFY(makeSession(
            s, QStringLiteral("ssh"), twoTasks(10), [](QJsonObject &c) { c.insert(QStringLiteral("steps"), 20000); },
            true));
        QSignalSpy metrics(s.manager.get(), &app::RunManager::metricsAppended);
        QVERIFY2(s.manager->startRun(s.runId), qPrintable(s.manager->errorString()));
        QList<double> latencies;
        connect(s.manager.get(), &app::RunManager::metricsAppended, this,
                [&](qint64, const QList<app::MetricPoint> &points) {
                    const double now = QDateTime::currentMSecsSinceEpoch() / 1000.0;
                    for (const auto &p : points)
                        latencies << now - p.wall;
                });
        QStringList notes;
        connect(s.executor, &app::ClusterExecutor::message, this, [&](qint64, const QString &text) { notes << text; });
        QVERIFY(metrics.wait(90000));
        // Still streaming when sshd goes (the scheduler's RUNNING can come a poll after the first metrics).
        QTRY_COMPARE_WITH_TIMEOUT(s.executor->status(s.runId), app::ProcessStatus::Running, 10000);
        const qint64 pointsBefore = latencies.size();
        QVERIFY2(cluster_.stopSshd(), qPrintable(cluster_.log()));
        QTest::qWait(1500);
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        const RunState end = waitForEnd(*s.manager, 180000);
        app::RunStore store(s.ws);
        QVERIFY2(end == RunState::Finished,
                 qPrintable(runStateName(end) + QLatin1Char(' ') + store.run(s.runId)->exitMessage));
        QFile local(QDir(s.ws.runDirectory(s.runId)).filePath(QStringLiteral("events.jsonl")));
        QFile remote(s.executor->remoteRunDir(s.runId) + QStringLiteral("/events.jsonl"));
        QVERIFY(local.open(QIODevice::ReadOnly) && remote.open(QIODevice::ReadOnly));
        QCOMPARE(local.readAll(), remote.readAll());
        const auto loss = store.metricPoints(s.runId, QStringLiteral("loss"), app::MetricSplit::Train);
        const int steps = test::runDirEvents(s.ws.runDirectory(s.runId), QStringLiteral("finished"))
                              .value(0)
                              .value(QStringLiteral("step"))
                              .toInt();
        QVERIFY(steps > 0);
        QCOMPARE(loss.size(), steps / 10); // log_every_steps 10: every report, once
        QVERIFY(latencies.size() > pointsBefore);
        std::sort(latencies.begin(), latencies.end());
        qInfo("over ssh: metric latency median %.0f ms over %lld points (including the sshd outage); executor "
              "notes: %s",
              latencies.at(latencies.size() / 2) * 1000, qint64(latencies.size()),
              qPrintable(notes.join(QStringLiteral(" | "))));
        for (int i = 0; i < loss.size(); ++i)
            QCOMPARE(loss[i].step, qint64(10 * (i + 1)));
    }

    void failuresAreReported() {
        // sbatch refuses the job: the run fails with Slurm's reason.
        remote::JobRequest job = twoTasks(5);
        job.partition = QStringLiteral("nosuch");
        Session bad;
        QVERIFY(makeSession(bad, QStringLiteral("bad-partition"), job));
        QVERIFY(bad.manager->startRun(bad.runId));
        QCOMPARE(waitForEnd(*bad.manager, 60000), RunState::Failed);
        app::RunStore badStore(bad.ws);
        QVERIFY2(badStore.run(bad.runId)->exitMessage.contains(QLatin1String("Invalid partition")),
                 qPrintable(badStore.run(bad.runId)->exitMessage));
        QVERIFY(bad.executor->jobIds(bad.runId).isEmpty());

        // The engine refuses the config (exit 1): the run fails with the engine's error event, no continuation.
        Session engine;
        QVERIFY(makeSession(engine, QStringLiteral("bad-config"), twoTasks(5), [](QJsonObject &c) {
            c.insert(QStringLiteral("optimizer"),
                     QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}, {QStringLiteral("lr"), -1}});
        }));
        QVERIFY(engine.manager->startRun(engine.runId));
        QCOMPARE(waitForEnd(*engine.manager, 120000), RunState::Failed);
        app::RunStore store(engine.ws);
        const auto run = store.run(engine.runId);
        QCOMPARE(run->exitCode.value_or(-1), 1);
        QVERIFY2(run->exitMessage.contains(QLatin1String("lr")), qPrintable(run->exitMessage));
        QCOMPARE(engine.executor->jobIds(engine.runId).size(), 1);
    }

    void cancelThenResume() {
        Session s;
        QVERIFY(makeSession(s, QStringLiteral("cancel"), twoTasks(10),
                            [](QJsonObject &c) { c.insert(QStringLiteral("epochs"), 60); }));
        QSignalSpy metrics(s.manager.get(), &app::RunManager::metricsAppended);
        QVERIFY(s.manager->startRun(s.runId));
        QVERIFY(metrics.wait(60000));
        QVERIFY(s.manager->cancel(s.runId));
        QCOMPARE(waitForEnd(*s.manager, 60000), RunState::Cancelled);
        app::RunStore store(s.ws);
        QCOMPARE(store.run(s.runId)->state, RunState::Cancelled);
        QCOMPARE(s.executor->jobIds(s.runId).size(), 1); // no continuation after a cancel
        const remote::JobStatus job = slurmJob(s.executor->jobIds(s.runId).first());
        QCOMPARE(job.phase, remote::JobPhase::Cancelled);
        const QString runDir = s.ws.runDirectory(s.runId);
        const auto requeues = test::runDirEvents(runDir, QStringLiteral("requeue"));
        QCOMPARE(requeues.size(), 1); // scancel's TERM reached the engine, which checkpointed
        QCOMPARE(requeues.first().value(QStringLiteral("signal")).toInt(), 15);
        const int stoppedAt = requeues.first().value(QStringLiteral("step")).toInt();

        // Resume: a new attempt script with --resume in the same cluster folder, continuing the checkpoint.
        QVERIFY2(s.manager->resume(s.runId), qPrintable(s.manager->errorString()));
        QCOMPARE(waitForEnd(*s.manager, 120000), RunState::Finished);
        QCOMPARE(s.executor->jobIds(s.runId).size(), 2);
        QFile second(s.executor->remoteRunDir(s.runId) + QStringLiteral("/attempt-2.sh"));
        QVERIFY(second.open(QIODevice::ReadOnly));
        QVERIFY(second.readAll().contains(" --resume "));
        const auto started = test::runDirEvents(runDir, QStringLiteral("started"));
        QCOMPARE(started.size(), 2);
        QCOMPARE(started.last().value(QStringLiteral("start_step")).toInt(), stoppedAt);
        const auto loss = store.metricPoints(s.runId, QStringLiteral("loss"), app::MetricSplit::Train);
        const int steps =
            test::runDirEvents(runDir, QStringLiteral("finished")).value(0).value(QStringLiteral("step")).toInt();
        QCOMPARE(loss.size(), steps / 10);
        for (int i = 0; i < loss.size(); ++i)
            QCOMPARE(loss[i].step, qint64(10 * (i + 1)));
    }

    void hostileCheckpointNameIsRefused() {
        // A cluster that answers the checkpoint listing with a path ("../../escape.pt") must not make this computer
        // write outside the run folder. The "cluster" here lies through a sha256sum earlier on PATH, which also
        // puts a file at the named place on the cluster side.
        const QString bin = dir_.filePath(QStringLiteral("hostile-bin"));
        QVERIFY(QDir().mkpath(bin));
        QFile fake(QDir(bin).filePath(QStringLiteral("sha256sum")));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("#!/bin/sh\n"
                   "for a in \"$@\"; do case \"$a\" in *.pt)\n"
                   "  cp \"$a\" ../../escape.pt\n"
                   "  h=$(/usr/bin/sha256sum ../../escape.pt | cut -d' ' -f1)\n"
                   "  echo \"$h  ../../escape.pt\"; exit 0;; esac; done\n"
                   "exec /usr/bin/sha256sum \"$@\"\n");
        fake.close();
        QVERIFY(fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", bin.toLocal8Bit() + ':' + path);
        Session s;
        QVERIFY(makeSession(s, QStringLiteral("hostile"), twoTasks(10)));
        QStringList notes;
        connect(s.executor, &app::ClusterExecutor::message, this, [&](qint64, const QString &text) { notes << text; });
        QVERIFY(s.manager->startRun(s.runId));
        const RunState end = waitForEnd(*s.manager, 180000);
        qputenv("PATH", path);
        QCOMPARE(end, RunState::Finished);
        const QString runs = QFileInfo(s.ws.runDirectory(s.runId)).absolutePath();
        QVERIFY2(QFile::exists(s.executor->remoteRunDir(s.runId) + QStringLiteral("/../escape.pt")),
                 "the hostile cluster did not make its file"); // the test's own check
        QVERIFY2(!QFile::exists(QDir(runs).filePath(QStringLiteral("escape.pt"))), "written outside the run folder");
        QVERIFY(QDir(s.ws.runDirectory(s.runId) + QStringLiteral("/checkpoints"))
                    .entryList({QStringLiteral("*")}, QDir::Files)
                    .isEmpty());
        QVERIFY2(notes.join(QLatin1Char('\n')).contains(QStringLiteral("unexpected checkpoint file")),
                 qPrintable(notes.join(QLatin1Char('\n'))));
    }

    void timeLimitContinuesToTheSameWeights() {
        // 40,000 steps with one thread per rank: well over the 1-minute limit on a quiet machine too.
        auto longer = [](QJsonObject &c) {
            c.insert(QStringLiteral("steps"), 40000);
            c.insert(QStringLiteral("checkpoint"),
                     QJsonObject{{QStringLiteral("every_steps"), 2000}, {QStringLiteral("keep_last"), 2}});
        };
        // Slurm checks limits every ~30 s: --time=1 with USR1 50 s before the end signals within 0-30 s.
        Session s;
        QVERIFY(makeSession(s, QStringLiteral("timelimit"), twoTasks(1, 50), longer));
        QVERIFY(s.manager->startRun(s.runId));

        // The reference: the same run, uninterrupted, two ranks of one thread each (engine's own launcher).
        QJsonObject config = readJson(QDir(s.ws.runDirectory(s.runId)).filePath(QStringLiteral("run.json")));
        const QString refDir = dir_.filePath(QStringLiteral("reference"));
        QProcess reference;
        reference.setStandardOutputFile(QProcess::nullDevice());
        reference.start(
            engine_, {QStringLiteral("--spec"), QDir(s.ws.runDirectory(s.runId)).filePath(QStringLiteral("spec.json")),
                      QStringLiteral("--config"), QDir(s.ws.runDirectory(s.runId)).filePath(QStringLiteral("run.json")),
                      QStringLiteral("--run-dir"), refDir, QStringLiteral("--nproc"), QStringLiteral("2"),
                      QStringLiteral("--threads"), QStringLiteral("1")});

        const RunState end = waitForEnd(*s.manager, 420000);
        app::RunStore store(s.ws);
        QVERIFY2(end == RunState::Finished,
                 qPrintable(runStateName(end) + QLatin1Char(' ') + store.run(s.runId)->exitMessage));
        if (reference.state() != QProcess::NotRunning) QVERIFY(reference.waitForFinished(420000));
        QCOMPARE(reference.exitCode(), 0);

        const QStringList jobs = s.executor->jobIds(s.runId);
        qInfo("time-limit run took %lld attempts: %s", qint64(jobs.size()), qPrintable(jobs.join(QLatin1Char(' '))));
        QVERIFY2(jobs.size() >= 2, "the time limit never cut the job");
        const remote::JobStatus first = slurmJob(jobs.first());
        QCOMPARE(first.exitCode.value_or(-1), 85);
        const QString runDir = s.ws.runDirectory(s.runId);
        const auto requeues = test::runDirEvents(runDir, QStringLiteral("requeue"));
        QCOMPARE(requeues.size(), jobs.size() - 1);
        QCOMPARE(requeues.first().value(QStringLiteral("signal")).toInt(), 10); // SIGUSR1 from --signal=B:USR1@50
        const auto finished = test::runDirEvents(runDir, QStringLiteral("finished"));
        QCOMPARE(finished.size(), 1);
        const auto refFinished = test::runDirEvents(refDir, QStringLiteral("finished"));
        QCOMPARE(refFinished.size(), 1);
        QCOMPARE(finished.first().value(QStringLiteral("weights_sha256")).toString(),
                 refFinished.first().value(QStringLiteral("weights_sha256")).toString());
        // No metric point was lost or stored twice across the attempts.
        const auto loss = store.metricPoints(s.runId, QStringLiteral("loss"), app::MetricSplit::Train);
        for (int i = 1; i < loss.size(); ++i)
            QVERIFY(loss[i].step > loss[i - 1].step);
        const int steps = finished.first().value(QStringLiteral("step")).toInt();
        const int every = config.value(QStringLiteral("log_every_steps")).toInt(10);
        QVERIFY2(loss.size() >= steps / every - 1, qPrintable(QStringLiteral("%1 loss points").arg(loss.size())));
    }
};

QTEST_GUILESS_MAIN(TestItClusterExecutor)
#include "tst_it_cluster_executor.moc"
