// One engine run inside a podman container image built from the local engine (createImageRootfs: the binary
// and its libraries, glibc included, imported with `podman import`), started by the ClusterExecutor through
// the project's real Slurm (tests/fixtures/local-cluster) with the job script's podman wrapper. The job hits
// its time limit: Slurm's USR1 goes to the batch shell, which forwards it to `podman run`, whose signal proxy
// delivers it to the engine (PID 1 of the container); the engine checkpoints, exits 85, and the continuation
// resumes in a new container until the run ends with the weights of an uninterrupted run.
// podman runs here only with the flags of ../shared/local-cluster/README.md (runc, cgroupfs, file events,
// small ulimits, no network): they go into a private containers.conf/storage.conf under a temporary folder.
// Skipped when podman is not installed (it is not in packaging/install-deps.sh).
#include "app/cluster/cluster_executor.h"
#include "app/run/run_manager.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "remote/command_runner.h"
#include "remote/engine_bundle.h"

#include "common/engine_process.h"
#include "common/local_cluster.h"
#include "common/test_paths.h"

#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using app::RunState;

class TestItClusterPodman : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    QString engine_;
    QString image_;
    QMap<QString, QString> podmanEnv_;

    static QJsonObject readJson(const QString &path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    bool run(const QString &program, const QStringList &args, QByteArray *out = nullptr, int timeoutMs = 300000) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (auto it = podmanEnv_.begin(); it != podmanEnv_.end(); ++it)
            env.insert(it.key(), it.value());
        p.setProcessEnvironment(env);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(program, args);
        const bool ok = p.waitForFinished(timeoutMs) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (out) *out = p.readAll();
        return ok;
    }

private Q_SLOTS:
    void initTestCase() {
        if (QStandardPaths::findExecutable(QStringLiteral("podman")).isEmpty())
            QSKIP("podman is not installed (apt-get install podman runc)");
        QVERIFY(dir_.isValid());
        engine_ = qEnvironmentVariable("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")));
        QVERIFY2(QFileInfo(engine_).isExecutable(), qPrintable(engine_ + QStringLiteral(" is not built")));
        const QString base = dir_.path();
        QFile conf(dir_.filePath(QStringLiteral("containers.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write(
            QStringLiteral("[containers]\ndefault_ulimits = [\"nofile=4096:4096\", \"nproc=4096:4096\"]\n"
                           "netns = \"none\"\n[engine]\ncgroup_manager = \"cgroupfs\"\nevents_logger = \"file\"\n"
                           "events_logfile_path = \"%1/events.log\"\nruntime = \"runc\"\ntmp_dir = \"%1/libpod-tmp\"\n")
                .arg(base)
                .toUtf8());
        conf.close();
        QFile storage(dir_.filePath(QStringLiteral("storage.conf")));
        QVERIFY(storage.open(QIODevice::WriteOnly));
        storage.write(
            QStringLiteral("[storage]\ndriver = \"overlay\"\ngraphroot = \"%1/storage\"\nrunroot = \"%1/runroot\"\n")
                .arg(base)
                .toUtf8());
        storage.close();
        podmanEnv_.insert(QStringLiteral("CONTAINERS_CONF"), conf.fileName());
        podmanEnv_.insert(QStringLiteral("CONTAINERS_STORAGE_CONF"), storage.fileName());

        // The image: the engine and its libraries at their own paths, nothing else.
        QString error;
        qint64 bytes = 0;
        QVERIFY2(remote::createImageRootfs(engine_, dir_.filePath(QStringLiteral("rootfs")),
                                           QStringLiteral("/opt/diamond/diamond-train"), &bytes, &error),
                 qPrintable(error));
        QByteArray out;
        QVERIFY2(run(QStringLiteral("tar"),
                     {QStringLiteral("-C"), dir_.filePath(QStringLiteral("rootfs")), QStringLiteral("-cf"),
                      dir_.filePath(QStringLiteral("rootfs.tar")), QStringLiteral(".")},
                     &out),
                 out.constData());
        image_ = QStringLiteral("localhost/diamond-train-test:%1").arg(QCoreApplication::applicationPid());
        QVERIFY2(run(QStringLiteral("podman"),
                     {QStringLiteral("import"), dir_.filePath(QStringLiteral("rootfs.tar")), image_}, &out),
                 out.constData());
        QVERIFY2(run(QStringLiteral("podman"),
                     {QStringLiteral("run"), QStringLiteral("--rm"), image_,
                      QStringLiteral("/opt/diamond/diamond-train"), QStringLiteral("--version")},
                     &out),
                 out.constData());
        QVERIFY(out.contains("diamond-train"));
        qInfo("image %s: %lld MB of engine and libraries", qPrintable(image_), bytes >> 20);

        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qputenv("SLURM_CONF", cluster_.slurmConf().toLocal8Bit());
    }

    void timeLimitInsideAContainer() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws"))));
        app::RunStore store(ws);
        QJsonObject spec = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QJsonObject config = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        // One rank of one thread runs 4,000-9,000 steps/s here: 525,000 steps are 60-130 s of training,
        // longer than the signal's latest arrival (10 s + Slurm's 30 s limit check), so the first attempt is cut.
        config.insert(QStringLiteral("epochs"), 7000);
        config.insert(QStringLiteral("log_every_steps"), 500);
        config.insert(QStringLiteral("checkpoint"),
                      QJsonObject{{QStringLiteral("every_steps"), 50000}, {QStringLiteral("keep_last"), 2}});
        const auto project = store.createProject(QStringLiteral("p"));
        const auto arch = store.ensureArchitecture(project->id, QStringLiteral("spirals"));
        const auto version = store.addArchitectureVersion(*arch, spec);
        const auto created = store.createRun(project->id, version->id, QStringLiteral("podman"), config);
        QVERIFY(created);

        remote::ClusterProfile p;
        p.name = QStringLiteral("podman");
        p.host = QStringLiteral("local");
        p.scratchDir = dir_.filePath(QStringLiteral("scratch"));
        p.enginePath = QStringLiteral("/opt/diamond/diamond-train");
        p.container = {remote::ContainerRuntime::Podman, image_, {QStringLiteral("--network=none")}, {}};
        p.environment = podmanEnv_;
        remote::JobRequest job;
        job.partition = cluster_.partition();
        job.timeLimitMinutes = 1;
        job.signalSeconds = 50;
        job.engine.threads = 1;
        auto *executor = new app::ClusterExecutor(p, [] { return std::make_unique<remote::LocalCommandRunner>(); });
        executor->setJobTemplate(job);
        app::RunManager manager(ws, executor);
        QSignalSpy ended(&manager, &app::RunManager::runEnded);
        QVERIFY2(manager.startRun(created->id), qPrintable(manager.errorString()));

        const QString runDir = ws.runDirectory(created->id);
        const QString refDir = dir_.filePath(QStringLiteral("reference"));
        QProcess reference; // the same run, uninterrupted, outside any container
        reference.setStandardOutputFile(QProcess::nullDevice());
        reference.start(engine_,
                        {QStringLiteral("--spec"), QDir(runDir).filePath(QStringLiteral("spec.json")),
                         QStringLiteral("--config"), QDir(runDir).filePath(QStringLiteral("run.json")),
                         QStringLiteral("--run-dir"), refDir, QStringLiteral("--threads"), QStringLiteral("1")});

        QVERIFY(ended.wait(480000));
        const auto run = store.run(created->id);
        QVERIFY2(run->state == RunState::Finished,
                 qPrintable(runStateName(run->state) + QLatin1Char(' ') + run->exitMessage));
        if (reference.state() != QProcess::NotRunning) QVERIFY(reference.waitForFinished(480000));
        QCOMPARE(reference.exitCode(), 0);
        const QStringList jobs = executor->jobIds(created->id);
        qInfo("container run took %lld attempts", qint64(jobs.size()));
        QVERIFY2(jobs.size() >= 2, "the time limit never cut the job");
        const auto requeues = test::runDirEvents(runDir, QStringLiteral("requeue"));
        QCOMPARE(requeues.size(), jobs.size() - 1);
        QCOMPARE(requeues.first().value(QStringLiteral("signal")).toInt(), 10);
        const auto finished = test::runDirEvents(runDir, QStringLiteral("finished"));
        const auto refFinished = test::runDirEvents(refDir, QStringLiteral("finished"));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(refFinished.size(), 1);
        QCOMPARE(finished.first().value(QStringLiteral("weights_sha256")).toString(),
                 refFinished.first().value(QStringLiteral("weights_sha256")).toString());
        // The engine ran in the container, started by the podman wrapper of the attempt script.
        QFile script(executor->remoteRunDir(created->id) + QStringLiteral("/attempt-1.sh"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QByteArray text = script.readAll();
        QVERIFY(text.contains("podman run --rm --sig-proxy=true -v "));
        QVERIFY(text.contains(QByteArray("--network=none " + image_.toUtf8() + " /opt/diamond/diamond-train --spec")));
    }

    void cleanupTestCase() {
        if (!image_.isEmpty()) run(QStringLiteral("podman"), {QStringLiteral("rmi"), QStringLiteral("-f"), image_});
    }
};

QTEST_GUILESS_MAIN(TestItClusterPodman)
#include "tst_it_cluster_podman.moc"
