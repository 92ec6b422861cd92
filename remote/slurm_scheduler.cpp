#include "remote/slurm_scheduler.h"

#include "remote/command_runner.h"
#include "remote/scheduler.h"
#include "remote/slurm_parsers.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace diamond::remote {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::remote::SlurmScheduler", text); }

bool validJobId(const QString &id) {
    static const QRegularExpression re(QStringLiteral("^[0-9]+(_[0-9]+)?$"));
    return re.match(id).hasMatch();
}

} // namespace

QString SlurmScheduler::renderScript(const JobRequest &request, QString *error) const {
    return renderSlurmScript(request, error);
}

std::optional<QString> SlurmScheduler::submit(const QString &scriptPath, QString *error) {
    const CommandResult r = runner_.run(QStringLiteral("sbatch --parsable %1").arg(shellWord(scriptPath)));
    if (!r.ok()) {
        *error = schedulerCommandFailure(QStringLiteral("sbatch"), r);
        return std::nullopt;
    }
    const auto id = slurm::parseSbatchOutput(r.stdoutData);
    if (!id) *error = tr("sbatch printed no job id: %1").arg(QString::fromUtf8(r.stdoutData).trimmed());
    return id;
}

std::optional<JobStatus> SlurmScheduler::status(const QString &jobId, QString *error) {
    if (!validJobId(jobId)) {
        *error = tr("'%1' is not a Slurm job id").arg(jobId);
        return std::nullopt;
    }
    const CommandResult r = runner_.run(QStringLiteral("scontrol show job -o %1").arg(jobId));
    if (r.ok()) {
        for (const auto &record : slurm::parseScontrolRecords(r.stdoutData)) {
            JobStatus s = slurm::jobStatusFromScontrol(record);
            if (s.jobId == jobId || record.value(QStringLiteral("JobId")) == jobId) return s;
        }
    } else if (!r.error.isEmpty() || !r.stderrData.contains("Invalid job id")) {
        *error = schedulerCommandFailure(QStringLiteral("scontrol show job"), r);
        return std::nullopt;
    }
    // The controller forgot the job (MinJobAge): ask accounting, when the cluster has it.
    const CommandResult acct =
        runner_.run(QStringLiteral("sacct -X -P -j %1 --format=%2").arg(jobId, QLatin1String(slurm::kSacctFormat)));
    if (acct.ok()) {
        for (const JobStatus &s : slurm::parseSacct(acct.stdoutData))
            if (s.jobId == jobId) return s;
    }
    JobStatus unknown;
    unknown.jobId = jobId;
    return unknown;
}

std::optional<QList<JobStatus>> SlurmScheduler::queue(QString *error) {
    const CommandResult r =
        runner_.run(QStringLiteral("squeue -h --me -o '%1'").arg(QLatin1String(slurm::kSqueueFormat)));
    if (!r.ok()) {
        *error = schedulerCommandFailure(QStringLiteral("squeue"), r);
        return std::nullopt;
    }
    return slurm::parseSqueue(r.stdoutData);
}

bool SlurmScheduler::cancel(const QString &jobId, QString *error) {
    if (!validJobId(jobId)) {
        *error = tr("'%1' is not a Slurm job id").arg(jobId);
        return false;
    }
    const CommandResult r = runner_.run(QStringLiteral("scancel %1").arg(jobId));
    if (!r.ok()) *error = schedulerCommandFailure(QStringLiteral("scancel"), r);
    return r.ok();
}

std::optional<QList<PartitionInfo>> SlurmScheduler::probe(QString *error) {
    const CommandResult info = runner_.run(QStringLiteral("sinfo -h -o '%1'").arg(QLatin1String(slurm::kSinfoFormat)));
    if (!info.ok()) {
        *error = schedulerCommandFailure(QStringLiteral("sinfo"), info);
        return std::nullopt;
    }
    QList<PartitionInfo> partitions = slurm::parseSinfo(info.stdoutData);
    const CommandResult show = runner_.run(QStringLiteral("scontrol show partition -o"));
    if (show.ok()) partitions = slurm::mergePartitions(partitions, slurm::parseScontrolPartitions(show.stdoutData));
    return partitions;
}

} // namespace diamond::remote
