// Cluster runs in tests: a workspace with a profile of the project's local Slurm fixture, the spirals example sized
// to run for several seconds, what squeue says about a run's job, and the weights an uninterrupted run ends with.
#pragma once

#include "common/engine_process.h"
#include "common/local_cluster.h"

#include "app/cluster/cluster_store.h"
#include "app/workspace/workspace.h"
#include "remote/cluster_profile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonDocument>
#include <QProcess>
#include <QThread>

namespace diamond::test {

class ClusterRuns {
public:
    ClusterRuns(LocalCluster &cluster, const QString &folder) : cluster_(cluster), folder_(folder) {}

    static QString engine() { return qEnvironmentVariable("DIAMOND_TRAIN", binary(QStringLiteral("diamond-train"))); }

    /// Slurm commands run on this machine ("local" host) with the fixture's SLURM_CONF.
    remote::ClusterProfile localProfile(const QString &name = QStringLiteral("lc")) const {
        remote::ClusterProfile p;
        p.name = name;
        p.host = QStringLiteral("local");
        p.scheduler = remote::SchedulerKind::Slurm;
        p.scratchDir = QDir(folder_).filePath(QStringLiteral("scratch-") + name);
        p.enginePath = engine();
        p.environment.insert(QStringLiteral("OMP_NUM_THREADS"), QStringLiteral("1"));
        return p;
    }
    /// The fixture's sshd with its key user.
    remote::ClusterProfile sshProfile(const QString &name = QStringLiteral("lcssh")) const {
        remote::ClusterProfile p = localProfile(name);
        p.host = cluster_.host();
        p.port = cluster_.port();
        p.user = cluster_.user();
        p.identityFile = cluster_.keyPath();
        p.knownHostsFile = cluster_.knownHostsPath();
        p.scratchDir = cluster_.scratchDir() + QStringLiteral("/") + name;
        return p;
    }

    /// One task, one thread, ten minutes: what every test run asks for.
    QJsonObject execution() const {
        return {{QStringLiteral("threads"), 1},
                {QStringLiteral("job"), QJsonObject{{QStringLiteral("partition"), cluster_.partition()},
                                                    {QStringLiteral("tasks_per_node"), 1},
                                                    {QStringLiteral("cpus_per_task"), 1},
                                                    {QStringLiteral("time_limit_minutes"), 10}}}};
    }

    static QJsonObject readJson(const QString &path) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
        return QJsonDocument::fromJson(f.readAll()).object();
    }
    static QJsonObject spec() { return readJson(example("spirals", "spec.json")); }
    /// The spirals example trained for `steps` steps with a checkpoint every 2000 (50,000 steps: about 10 s at one
    /// thread).
    static QJsonObject config(int steps) {
        QJsonObject c = readJson(example("spirals", "run.json"));
        c.insert(QStringLiteral("steps"), steps);
        c.insert(QStringLiteral("checkpoint"),
                 QJsonObject{{QStringLiteral("every_steps"), 2000}, {QStringLiteral("keep_last"), 2}});
        QJsonObject data = c.value(QStringLiteral("data")).toObject();
        data.insert(QStringLiteral("samples"), 20000);
        c.insert(QStringLiteral("data"), data);
        c.insert(QStringLiteral("batch_size"), 256);
        return c;
    }

    /// The weights_sha256 of the same spec and config trained uninterrupted here with one thread.
    QString referenceWeights(int steps) {
        if (references_.contains(steps)) return references_.value(steps);
        const QString dir = QDir(folder_).filePath(QStringLiteral("reference-%1").arg(steps));
        QDir().mkpath(dir);
        for (const auto &[name, doc] :
             {std::pair{QStringLiteral("spec.json"), spec()}, std::pair{QStringLiteral("run.json"), config(steps)}}) {
            QFile f(QDir(dir).filePath(name));
            if (!f.open(QIODevice::WriteOnly)) return {};
            f.write(QJsonDocument(doc).toJson());
        }
        QProcess engineProcess;
        engineProcess.setStandardOutputFile(QProcess::nullDevice());
        engineProcess.start(engine(), trainArgs(QDir(dir).filePath(QStringLiteral("spec.json")),
                                                QDir(dir).filePath(QStringLiteral("run.json")),
                                                QDir(dir).filePath(QStringLiteral("run"))));
        if (!engineProcess.waitForFinished(900000) || engineProcess.exitCode() != 0) return {};
        const auto finished = runDirEvents(QDir(dir).filePath(QStringLiteral("run")), QStringLiteral("finished"));
        const QString hash =
            finished.isEmpty() ? QString() : finished.last().value(QStringLiteral("weights_sha256")).toString();
        references_.insert(steps, hash);
        return hash;
    }

    /// Ids of the fixture's queued or running jobs named `name` (squeue -n).
    QStringList jobsNamed(const QString &name) const {
        QProcess p;
        p.setProcessEnvironment(cluster_.environment());
        p.start(QStringLiteral("squeue"),
                {QStringLiteral("-h"), QStringLiteral("-n"), name, QStringLiteral("-o"), QStringLiteral("%i %T")});
        p.waitForFinished(30000);
        QStringList ids;
        for (const QByteArray &line : p.readAllStandardOutput().split('\n'))
            if (!line.trimmed().isEmpty()) ids << QString::fromLatin1(line.trimmed());
        return ids;
    }
    static QString jobName(qint64 runId) { return QStringLiteral("diamond-run-%1").arg(runId); }
    /// Milliseconds until squeue lists no job of the run, -1 after `timeoutMs`.
    qint64 msUntilNoJob(qint64 runId, int timeoutMs) const {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (jobsNamed(jobName(runId)).isEmpty()) return t.elapsed();
            QThread::msleep(200);
        }
        return -1;
    }
    /// Runs a Slurm client command of the fixture (scancel, sbatch ...); its stdout.
    QByteArray slurm(const QString &program, const QStringList &args) const {
        QProcess p;
        p.setProcessEnvironment(cluster_.environment());
        p.setWorkingDirectory(folder_);
        p.start(program, args);
        p.waitForFinished(30000);
        return p.readAllStandardOutput();
    }

    /// Submits a job that holds the fixture's only node for five minutes, so that the next jobs wait in the queue.
    /// Its id, empty on failure.
    QString blockNode() const {
        const QByteArray out = slurm(QStringLiteral("sbatch"),
                                     {QStringLiteral("--parsable"), QStringLiteral("--exclusive"), QStringLiteral("-J"),
                                      QStringLiteral("blocker"), QStringLiteral("-o"), QStringLiteral("/dev/null"),
                                      QStringLiteral("--wrap"), QStringLiteral("sleep 300")});
        return QString::fromLatin1(out.trimmed()).section(QLatin1Char(';'), 0, 0);
    }

private:
    LocalCluster &cluster_;
    QString folder_;
    QHash<int, QString> references_;
};

} // namespace diamond::test
