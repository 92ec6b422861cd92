#include "app/plan/cluster_calibration.h"

#include "app/plan/device_profiles.h"
#include "remote/command_runner.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("ClusterCalibration", text); }

constexpr int kStepMinutes = 10;
constexpr qint64 kMaxProfileBytes = 1 << 20;

} // namespace

QString clusterCalibrationCommand(const remote::ClusterProfile &cluster, const QString &partition, QString *error) {
    if (cluster.scheduler != remote::SchedulerKind::Slurm)
        return *error = tr("Calibrating \"%1\" needs Slurm (it runs one srun job step); this cluster uses %2.")
                            .arg(cluster.name, remote::schedulerKindName(cluster.scheduler)),
               QString();
    static const QRegularExpression name(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"));
    if (!partition.isEmpty() && !name.match(partition).hasMatch())
        return *error = tr("\"%1\" is not a partition name (letters, digits, '_' and '-').").arg(partition), QString();
    remote::JobRequest job;
    job.jobName = QStringLiteral("diamond-calibrate");
    job.partition = partition;
    job.timeLimitMinutes = kStepMinutes;
    job.workDir = cluster.scratchDir + QStringLiteral("/calibration");
    job.applyProfile(cluster);
    job.engine.mode = remote::EngineCommand::Mode::Calibrate;
    job.engine.runDir = job.workDir;
    job.engine.nproc = 2; // the all-reduce and the two-rank reference step
    // A partition with GPUs is calibrated on them: one GPU per rank (two where a node has them).
    const remote::PartitionInfo *info = cluster.partition(partition);
    if (info && info->gpusPerNode > 0) {
        job.gpusPerNode = std::min(2, info->gpusPerNode);
        job.gpuType = info->gpuType;
        job.engine.nproc = job.gpusPerNode;
        job.engine.device = QStringLiteral("cuda");
    }
    return remote::renderSlurmStepCommand(job, error);
}

std::optional<QJsonObject> runClusterCalibration(remote::CommandRunner &runner, const remote::ClusterProfile &cluster,
                                                 const QString &partition, QString *error) {
    const QString command = clusterCalibrationCommand(cluster, partition, error);
    if (command.isEmpty()) return std::nullopt;
    const remote::CommandResult r = runner.run(command, {}, (kStepMinutes + 5) * 60 * 1000);
    if (!r.error.isEmpty()) return *error = r.error, std::nullopt;
    if (r.exitCode != 0)
        return *error = tr("Calibration on \"%1\" failed (exit %2): %3")
                            .arg(cluster.name)
                            .arg(r.exitCode)
                            .arg(QString::fromUtf8(r.stderrData.trimmed().right(600))),
               std::nullopt;
    if (r.stdoutData.size() > kMaxProfileBytes)
        return *error = tr("Calibration on \"%1\" printed more than 1 MiB.").arg(cluster.name), std::nullopt;
    QJsonObject profile = QJsonDocument::fromJson(r.stdoutData).object();
    QString why;
    if (!DeviceProfile::fromJson(profile, &why))
        return *error = tr("Calibration on \"%1\" printed no profile: %2").arg(cluster.name, why), std::nullopt;
    profile.insert(QStringLiteral("cluster"), cluster.name);
    profile.insert(QStringLiteral("partition"), partition);
    return profile;
}

QStringList saveClusterCalibration(Workspace &ws, const QString &cluster, const QString &partition,
                                   const QJsonObject &profile, QString *error) {
    DeviceProfileStore store(ws);
    QStringList names;
    if (!partition.isEmpty()) names << cluster + QLatin1Char('.') + partition;
    if (partition.isEmpty() || !QFile::exists(store.pathOf(cluster))) names << cluster;
    for (const QString &n : std::as_const(names))
        if (!store.save(n, profile, error)) return {};
    return names;
}

} // namespace diamond::app
