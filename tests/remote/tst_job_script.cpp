// Job scripts rendered from JobRequests: every directive, quoting of paths with spaces, container wrappers,
// signal forwarding, and refusal of invalid requests with the field's name. The rendered sbatch script is
// also checked by `bash -n` (syntax) so that quoting mistakes fail here rather than on a cluster.
#include "remote/job_script.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace diamond::remote;

class TestJobScript : public QObject {
    Q_OBJECT

    static JobRequest request() {
        JobRequest r;
        r.jobName = QStringLiteral("diamond run 7");
        r.partition = QStringLiteral("gpu");
        r.account = QStringLiteral("proj42");
        r.nodes = 2;
        r.tasksPerNode = 4;
        r.gpusPerNode = 4;
        r.gpuType = QStringLiteral("a100");
        r.cpusPerTask = 8;
        r.memory = QStringLiteral("64G");
        r.timeLimitMinutes = 26 * 60 + 30;
        r.signalSeconds = 300;
        r.workDir = QStringLiteral("/scratch/alice/my runs/7");
        r.outputPath = QStringLiteral("/scratch/alice/my runs/7/slurm-%j.out");
        r.exitFile = QStringLiteral("/scratch/alice/my runs/7/exit-code");
        r.modules = {QStringLiteral("cuda/12.1"), QStringLiteral("nccl")};
        r.environment.insert(QStringLiteral("OMP_PROC_BIND"), QStringLiteral("close"));
        r.environment.insert(QStringLiteral("NOTE"), QStringLiteral("it's quoted"));
        r.engine.enginePath = QStringLiteral("/opt/diamond/bin/diamond-train");
        r.engine.runDir = r.workDir;
        r.engine.specPath = r.workDir + QStringLiteral("/spec.json");
        r.engine.configPath = r.workDir + QStringLiteral("/run.json");
        r.engine.threads = 8;
        return r;
    }

    /// A request whose engine is `engineScript` (a bash script written into `dir`; its 6th argument is the run
    /// folder), with everything in `dir`, and no scheduler: render it, then strip "srun ...".
    static JobRequest standInRequest(const QTemporaryDir &dir, const QByteArray &engineScript) {
        const QString engine = dir.filePath(QStringLiteral("fake-engine"));
        QFile f(engine);
        if (f.open(QIODevice::WriteOnly)) f.write(engineScript);
        f.close();
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        JobRequest r;
        r.jobName = QStringLiteral("t");
        r.workDir = dir.path();
        r.outputPath = dir.filePath(QStringLiteral("out"));
        r.engine.enginePath = engine;
        r.engine.runDir = dir.path();
        r.engine.specPath = dir.filePath(QStringLiteral("spec.json"));
        r.engine.configPath = dir.filePath(QStringLiteral("run.json"));
        return r;
    }

    static void checkSyntax(const QString &script) {
        QProcess bash;
        bash.start(QStringLiteral("bash"), {QStringLiteral("-n")});
        QVERIFY(bash.waitForStarted());
        bash.write(script.toUtf8());
        bash.closeWriteChannel();
        QVERIFY(bash.waitForFinished());
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
    }

private Q_SLOTS:
    void slurmDirectives() {
        QString error;
        const QString s = renderSlurmScript(request(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.startsWith(QLatin1String("#!/bin/bash\n")));
        for (const char *line :
             {"#SBATCH --job-name=\"diamond run 7\"\n", "#SBATCH --partition=gpu\n", "#SBATCH --account=proj42\n",
              "#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=4\n", "#SBATCH --gpus-per-node=a100:4\n",
              "#SBATCH --cpus-per-task=8\n", "#SBATCH --mem=64G\n", "#SBATCH --time=1-02:30:00\n",
              "#SBATCH --signal=B:USR1@300\n", "#SBATCH --chdir=\"/scratch/alice/my runs/7\"\n",
              "#SBATCH --output=\"/scratch/alice/my runs/7/slurm-%j.out\"\n", "#SBATCH --open-mode=append\n"})
            QVERIFY2(s.contains(QLatin1String(line)), line);
        QVERIFY(!s.contains(QLatin1String("--array")));
        QVERIFY(!s.contains(QLatin1String("--dependency")));
        // Directives must all come before the first command: sbatch stops reading them there.
        const int lastDirective = int(s.lastIndexOf(QLatin1String("#SBATCH")));
        QVERIFY(lastDirective < s.indexOf(QLatin1String("set -u")));
        // One rank per task through srun, engine arguments quoted.
        QVERIFY(s.contains(QLatin1String("srun --kill-on-bad-exit=1 --nodes=2 --ntasks=8 --ntasks-per-node=4 "
                                         "--cpus-per-task=8 /opt/diamond/bin/diamond-train --spec "
                                         "'/scratch/alice/my runs/7/spec.json' --config '/scratch/alice/my "
                                         "runs/7/run.json' --run-dir '/scratch/alice/my runs/7' --threads 8 &\n")));
        QVERIFY(!s.contains(QLatin1String("7' --resume")));
        QVERIFY(s.contains(QLatin1String("module load cuda/12.1 nccl ||")));
        QVERIFY(s.contains(QLatin1String("export NOTE='it'\\''s quoted'\n")));
        QVERIFY(s.contains(QLatin1String("export OMP_PROC_BIND=close\n")));
        // Signal forwarding and the exit code.
        QVERIFY(s.contains(QLatin1String("trap 'diamond_forward USR1' USR1\n")));
        QVERIFY(s.contains(QLatin1String("trap 'diamond_forward TERM' TERM\n")));
        QVERIFY(s.contains(QLatin1String("kill -s \"$diamond_pending\" \"$diamond_step\"")));
        QVERIFY(s.contains(QLatin1String("export DIAMOND_READY_FILE=\"$diamond_ready\"\n")));
        QVERIFY(s.contains(QLatin1String("'/scratch/alice/my runs/7/exit-code.tmp'")));
        QVERIFY(s.trimmed().endsWith(QLatin1String("exit \"$diamond_rc\"")));
        checkSyntax(s);
    }

    void arrayDependencyAndResume() {
        JobRequest r = request();
        r.array = QStringLiteral("0-9%2");
        r.afterAny = {QStringLiteral("1234"), QStringLiteral("1240_3")};
        r.engine.resume = true;
        r.timeLimitMinutes = 90;
        QString error;
        const QString s = renderSlurmScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.contains(QLatin1String("#SBATCH --array=0-9%2\n")));
        QVERIFY(s.contains(QLatin1String("#SBATCH --dependency=afterany:1234:1240_3\n")));
        QVERIFY(s.contains(QLatin1String("#SBATCH --time=01:30:00\n")));
        QVERIFY(s.contains(QLatin1String("--run-dir '/scratch/alice/my runs/7' --resume --threads 8 &")));
    }

    void containers() {
        JobRequest r = request();
        r.container = {ContainerRuntime::Apptainer, QStringLiteral("/images/diamond train.sif"), {}, {}};
        QString error;
        QString s = renderSlurmScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.contains(QLatin1String("--cpus-per-task=8 apptainer exec --nv --bind '/scratch/alice/my runs/7' "
                                         "'/images/diamond train.sif' /opt/diamond/bin/diamond-train --spec")));
        // The outer batch shell, not anything in the container, receives and forwards the signal.
        QVERIFY(s.indexOf(QLatin1String("trap 'diamond_forward USR1' USR1")) < s.indexOf(QLatin1String("apptainer")));
        checkSyntax(s);

        r.gpusPerNode = 0;
        r.gpuType.clear();
        r.container = {ContainerRuntime::Podman,
                       QStringLiteral("localhost/diamond-train:0.1"),
                       {QStringLiteral("--runtime"), QStringLiteral("runc")},
                       {}};
        s = renderSlurmScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.contains(QLatin1String("podman run --rm --sig-proxy=true --network=host -v "
                                         "'/scratch/alice/my runs/7:/scratch/alice/my runs/7' --env SLURM_PROCID")));
        QVERIFY(s.contains(QLatin1String("--env OMP_PROC_BIND")));
        QVERIFY(s.contains(QLatin1String("--env DIAMOND_READY_FILE")));
        QVERIFY(s.contains(QLatin1String("--runtime runc localhost/diamond-train:0.1 /opt/diamond/bin/diamond-train")));
        QVERIFY(!s.contains(QLatin1String("--nv")));
        checkSyntax(s);
    }

    // GPUs: --gres for sites that need it, the runtime's own program, and a cuda run's GPUs matched to its processes.
    void gpusAndContainerPrograms() {
        JobRequest r = request();
        r.gpuDirective = QStringLiteral("gres");
        r.container = {
            ContainerRuntime::Apptainer, QStringLiteral("/images/d.sif"), {}, QStringLiteral("/sw/bin/apptainer")};
        QString error;
        const QString s = renderSlurmScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.contains(QLatin1String("#SBATCH --gres=gpu:a100:4\n")));
        QVERIFY(!s.contains(QLatin1String("--gpus-per-node")));
        QVERIFY(s.contains(QLatin1String(" /sw/bin/apptainer exec --nv --bind ")));
        r.gpuType.clear();
        QVERIFY(renderSlurmScript(r, &error).contains(QLatin1String("#SBATCH --gres=gpu:4\n")));
        ClusterProfile profile;
        profile.gpuDirective = QStringLiteral("gres");
        JobRequest fromProfile;
        fromProfile.applyProfile(profile);
        QCOMPARE(fromProfile.gpuDirective, QStringLiteral("gres"));

        JobRequest cuda;
        cuda.tasksPerNode = 4;
        QCOMPARE(fitGpusToDevice(cuda, QStringLiteral("cpu")), QString());
        QCOMPARE(cuda.gpusPerNode, 0);
        QCOMPARE(fitGpusToDevice(cuda, QStringLiteral("cuda")), QString());
        QCOMPARE(cuda.gpusPerNode, 4); // one per process
        cuda.gpusPerNode = 2;
        const QString tooFew = fitGpusToDevice(cuda, QStringLiteral("cuda"));
        QVERIFY2(tooFew.startsWith(QLatin1String("tasks_per_node: 4 processes per node on 2 GPU(s)")),
                 qPrintable(tooFew));
        cuda.gpusPerNode = 8;
        QCOMPARE(fitGpusToDevice(cuda, QStringLiteral("cuda:0")), QString()); // more GPUs than processes is allowed
    }

    // A calibration as one blocking job step (diamondctl cluster calibrate): srun with the request's resources, the
    // engine's own mode and arguments, modules and environment before it, the work folder created; no spec needed;
    // more than one task is refused.
    void slurmStepCommand() {
        JobRequest r = request();
        r.jobName = QStringLiteral("diamond-calibrate");
        r.nodes = 1;
        r.tasksPerNode = 1;
        r.gpusPerNode = 0;
        r.timeLimitMinutes = 10;
        r.outputPath.clear();
        r.engine.mode = EngineCommand::Mode::Calibrate;
        r.engine.specPath.clear();
        r.engine.configPath.clear();
        r.engine.nproc = 2;
        r.engine.threads = 0;
        QString error;
        const QString s = renderSlurmStepCommand(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(s.contains(QLatin1String("mkdir -p '/scratch/alice/my runs/7' || exit 1")));
        QVERIFY(s.contains(QLatin1String("module load cuda/12.1 nccl")));
        QVERIFY(s.contains(QLatin1String("export NOTE='it'\\''s quoted'")));
        QVERIFY2(s.contains(QLatin1String("srun --job-name=diamond-calibrate --nodes=1 --ntasks=1 --partition=gpu "
                                          "--account=proj42 --cpus-per-task=8 --mem=64G --time=00:10:00 "
                                          "/opt/diamond/bin/diamond-train calibrate --dir '/scratch/alice/my runs/7' "
                                          "--nproc 2")),
                 qPrintable(s));
        QVERIFY(s.indexOf(QLatin1String("module load")) < s.indexOf(QLatin1String("srun")));
        QVERIFY(!s.contains(QLatin1String("#SBATCH")));
        checkSyntax(s);

        r.container = {ContainerRuntime::Apptainer, QStringLiteral("/images/diamond.sif"), {}, {}};
        QVERIFY(renderSlurmStepCommand(r, &error).contains(
            QLatin1String("--time=00:10:00 apptainer exec --bind '/scratch/alice/my runs/7' /images/diamond.sif "
                          "/opt/diamond/bin/diamond-train calibrate")));
        r.tasksPerNode = 2;
        QVERIFY(renderSlurmStepCommand(r, &error).isEmpty());
        QVERIFY2(error.contains(QLatin1String("one task")), qPrintable(error));
        r.tasksPerNode = 1;
        r.engine.mode = EngineCommand::Mode::Train; // a training step still needs its spec
        QVERIFY(renderSlurmStepCommand(r, &error).isEmpty());
        QVERIFY2(error.startsWith(QLatin1String("engine.spec")), qPrintable(error));
    }

    void pbs() {
        JobRequest r = request();
        r.nodes = 1;
        r.signalSeconds = 0;
        r.afterAny = {QStringLiteral("4711.pbs01")};
        QString error;
        const QString s = renderPbsScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char *line : {"#PBS -N diamond_run_7\n", "#PBS -q gpu\n", "#PBS -A proj42\n",
                                 "#PBS -l select=1:ncpus=32:mpiprocs=4:ngpus=4:gpu_type=a100:mem=64gb\n",
                                 "#PBS -l walltime=26:30:00\n", "#PBS -o \"/scratch/alice/my runs/7/slurm-%j.out\"\n",
                                 "#PBS -j oe\n", "#PBS -W depend=afterany:4711.pbs01\n"})
            QVERIFY2(s.contains(QLatin1String(line)), line);
        QVERIFY(s.contains(QLatin1String("--threads 8 --nproc 4 &\n")));
        QVERIFY(!s.contains(QLatin1String("srun")));
        checkSyntax(s);

        r.nodes = 2;
        QVERIFY(renderPbsScript(r, &error).isEmpty());
        QVERIFY2(error.startsWith(QLatin1String("nodes:")), qPrintable(error));
    }

    void invalidRequestsNameTheField_data() {
        QTest::addColumn<QString>("field");
        QTest::newRow("job name") << QStringLiteral("job_name");
        QTest::newRow("nodes") << QStringLiteral("nodes");
        QTest::newRow("tasks") << QStringLiteral("tasks_per_node");
        QTest::newRow("memory") << QStringLiteral("memory");
        QTest::newRow("signal") << QStringLiteral("signal_seconds");
        QTest::newRow("output") << QStringLiteral("output");
        QTest::newRow("work dir") << QStringLiteral("work_dir");
        QTest::newRow("partition") << QStringLiteral("partition");
        QTest::newRow("array") << QStringLiteral("array");
        QTest::newRow("dependency") << QStringLiteral("dependency[0]");
        QTest::newRow("engine") << QStringLiteral("engine.path");
        QTest::newRow("image") << QStringLiteral("container.image");
        QTest::newRow("environment") << QStringLiteral("environment.1BAD");
    }
    void invalidRequestsNameTheField() {
        QFETCH(QString, field);
        JobRequest r = request();
        if (field == QLatin1String("job_name")) r.jobName = QStringLiteral("bad\nname");
        if (field == QLatin1String("nodes")) r.nodes = 0;
        if (field == QLatin1String("tasks_per_node")) r.tasksPerNode = -1;
        if (field == QLatin1String("memory")) r.memory = QStringLiteral("lots");
        if (field == QLatin1String("signal_seconds")) r.signalSeconds = r.timeLimitMinutes * 60;
        if (field == QLatin1String("output")) r.outputPath = QStringLiteral("relative/out");
        if (field == QLatin1String("work_dir")) r.workDir = QStringLiteral("/a\"b");
        if (field == QLatin1String("partition")) r.partition = QStringLiteral("gpu;rm -rf");
        if (field == QLatin1String("array")) r.array = QStringLiteral("0-x");
        if (field == QLatin1String("dependency[0]")) r.afterAny = {QStringLiteral("12; true")};
        if (field == QLatin1String("engine.path")) r.engine.enginePath.clear();
        if (field == QLatin1String("container.image")) r.container.runtime = ContainerRuntime::Podman;
        if (field == QLatin1String("environment.1BAD")) r.environment.insert(QStringLiteral("1BAD"), {});
        QString error;
        QVERIFY(renderSlurmScript(r, &error).isEmpty());
        QVERIFY2(error.startsWith(field + QLatin1Char(':')), qPrintable(error));
    }

    void jobRequestJson() {
        QString error;
        const QJsonObject json{{QStringLiteral("partition"), QStringLiteral("gpu")},
                               {QStringLiteral("nodes"), 2},
                               {QStringLiteral("tasks_per_node"), 4},
                               {QStringLiteral("gpus_per_node"), 4},
                               {QStringLiteral("memory"), QStringLiteral("64G")},
                               {QStringLiteral("time_limit_minutes"), 120},
                               {QStringLiteral("signal_seconds"), 300},
                               {QStringLiteral("threads"), 8},
                               {QStringLiteral("chain_jobs"), 6}};
        const auto r = jobRequestFromJson(json, &error);
        QVERIFY2(r, qPrintable(error));
        QCOMPARE(r->nodes, 2);
        QCOMPARE(r->tasksPerNode, 4);
        QCOMPARE(r->timeLimitMinutes, 120);
        QCOMPARE(r->engine.threads, 8);
        QCOMPARE(r->chainJobs, 6);
        QCOMPARE(jobRequestToJson(*r), json);
        for (const auto &[key, value, field] :
             {std::tuple{"nodes", QJsonValue(QStringLiteral("2")), "job.nodes:"},
              std::tuple{"nodes", QJsonValue(0), "job.nodes:"}, std::tuple{"memory", QJsonValue(5), "job.memory:"},
              std::tuple{"memory", QJsonValue(QStringLiteral("lots")), "job.memory:"},
              std::tuple{"walltime", QJsonValue(5), "job.walltime:"},
              std::tuple{"signal_seconds", QJsonValue(7200), "job.signal_seconds:"},
              std::tuple{"chain_jobs", QJsonValue(0), "job.chain_jobs:"},
              std::tuple{"chain_jobs", QJsonValue(kMaxChainJobs + 1), "job.chain_jobs:"}}) {
            QJsonObject bad = json;
            bad.insert(QLatin1String(key), value);
            QVERIFY(!jobRequestFromJson(bad, &error));
            QVERIFY2(error.startsWith(QLatin1String(field)), qPrintable(error));
        }
    }

    void helpers() {
        QCOMPARE(shellWord(QStringLiteral("/plain/path-1.txt")), QStringLiteral("/plain/path-1.txt"));
        QCOMPARE(shellWord(QStringLiteral("a b")), QStringLiteral("'a b'"));
        QCOMPARE(shellWord(QStringLiteral("~/x y")), QStringLiteral("~/'x y'"));
        QCOMPARE(shellWord(QStringLiteral("$(rm)")), QStringLiteral("'$(rm)'"));
        QCOMPARE(slurmDuration(1), QStringLiteral("00:01:00"));
        QCOMPARE(slurmDuration(3 * 24 * 60 + 61), QStringLiteral("3-01:01:00"));
        QCOMPARE(pbsDuration(50 * 60 + 5), QStringLiteral("50:05:00"));
    }

    void renderedScriptForwardsSignalAndExitCode_data() {
        QTest::addColumn<QString>("signalWhen");
        QTest::newRow("engine ready") << QString::fromLatin1(kEngineReadyFile);
        // The engine still loads (no handler yet): a signal delivered now kills it with 138, so the shell holds it.
        QTest::newRow("engine starting") << QStringLiteral("launched");
    }

    void renderedScriptForwardsSignalAndExitCode() {
        // Run the rendered body for real with a stand-in engine (a shell script that takes USR1 only after a second
        // of "loading", then exits 85 on it) and no scheduler: the batch shell must forward USR1 once the engine
        // is ready for it and exit with the engine's code.
        QFETCH(QString, signalWhen);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        JobRequest r = standInRequest(dir, "#!/bin/bash\ntouch \"$6/launched\"; sleep 1\n"
                                           "trap 'echo got-usr1 > \"$6/signal\"; exit 85' USR1\n"
                                           "touch \"$DIAMOND_READY_FILE\"; for i in $(seq 1 200); do sleep 0.05; "
                                           "done; exit 0\n");
        r.exitFile = dir.filePath(QStringLiteral("exit code"));
        QFile stale(dir.filePath(QString::fromLatin1(kEngineReadyFile))); // left by an earlier attempt
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.close();
        QString error;
        QString script = renderSlurmScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        script.replace(QRegularExpression(QStringLiteral("srun [^/]*")), QString()); // no Slurm here
        QProcess shell;
        shell.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
        QVERIFY(shell.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(QStringLiteral("launched"))), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dir.filePath(signalWhen)), 5000);
        ::kill(pid_t(shell.processId()), SIGUSR1);
        QVERIFY(shell.waitForFinished(10000));
        QVERIFY2(shell.exitCode() == 85, qPrintable(QStringLiteral("exit %1: %2")
                                                        .arg(shell.exitCode())
                                                        .arg(QString::fromLocal8Bit(shell.readAllStandardError()))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("signal"))));
        QVERIFY(!QFile::exists(dir.filePath(QString::fromLatin1(kEngineReadyFile)))); // removed after the engine
        QFile exitFile(r.exitFile);
        QVERIFY(exitFile.open(QIODevice::ReadOnly));
        QCOMPARE(exitFile.readAll().trimmed(), QByteArray("85"));
    }

    void chainedLinkRunsOnlyAfterACheckpointOrAKill_data() {
        QTest::addColumn<QByteArray>("previous"); // the previous link's exit file; "-" = none (killed early)
        QTest::addColumn<bool>("engineRuns");
        QTest::newRow("checkpointed (85)") << QByteArray("85\n") << true;
        QTest::newRow("killed before writing") << QByteArray("-") << true;
        QTest::newRow("died of SIGABRT (134)") << QByteArray("134\n") << true;
        QTest::newRow("usage error (2)") << QByteArray("2\n") << false;
        QTest::newRow("finished (0)") << QByteArray("0\n") << false;
        QTest::newRow("failed (1)") << QByteArray("1\n") << false;
        QTest::newRow("garbage") << QByteArray("85; rm -rf /\n") << false;
    }

    void chainedLinkRunsOnlyAfterACheckpointOrAKill() {
        QFETCH(QByteArray, previous);
        QFETCH(bool, engineRuns);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        JobRequest r = standInRequest(dir, "#!/bin/bash\ntouch \"$6/launched\"; exit 0\n");
        r.exitFile = dir.filePath(QStringLiteral("attempt-3.exit"));
        r.previousExitFile = dir.filePath(QStringLiteral("attempt-2.exit"));
        r.engine.resume = true;
        if (previous != "-") {
            QFile p(r.previousExitFile);
            QVERIFY(p.open(QIODevice::WriteOnly));
            p.write(previous);
        }
        QString error;
        QString script = renderSlurmScript(r, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        checkSyntax(script);
        script.replace(QRegularExpression(QStringLiteral("srun [^/]*")), QString());
        QProcess shell;
        shell.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
        QVERIFY(shell.waitForFinished(10000));
        QCOMPARE(shell.exitCode(), 0);
        QCOMPARE(QFile::exists(dir.filePath(QStringLiteral("launched"))), engineRuns);
        QFile own(r.exitFile);
        QVERIFY(own.open(QIODevice::ReadOnly));
        // A skipped link hands the previous code on, so that every later link skips too.
        QCOMPARE(own.readAll().trimmed(), engineRuns ? QByteArray("0") : previous.trimmed());
    }
};

QTEST_GUILESS_MAIN(TestJobScript)
#include "tst_job_script.moc"
