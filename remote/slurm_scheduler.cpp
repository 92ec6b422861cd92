#include "remote/slurm_scheduler.h"

#include "remote/command_runner.h"
#include "remote/job_script.h"
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

std::optional<QList<PartitionLoad>> SlurmScheduler::load(QString *error) {
    const CommandResult r =
        runner_.run(QStringLiteral("sinfo -h -o '%1'").arg(QLatin1String(slurm::kSinfoLoadFormat)), {}, 30000);
    if (!r.ok()) return *error = schedulerCommandFailure(QStringLiteral("sinfo"), r), std::nullopt;
    return slurm::parseSinfoLoad(r.stdoutData);
}

std::optional<QList<FairShare>> SlurmScheduler::fairShare(QString *error) {
    // Without accounting (slurmdbd) sshare prints nothing or fails: not reported, not an error of the cluster.
    const CommandResult r =
        runner_.run(QStringLiteral("sshare -h -P -U -o %1").arg(QLatin1String(slurm::kSshareFormat)), {}, 30000);
    if (!r.ok()) return *error = schedulerCommandFailure(QStringLiteral("sshare"), r), std::nullopt;
    QList<FairShare> shares = slurm::parseSshare(r.stdoutData);
    if (shares.isEmpty())
        return *error = tr("This cluster keeps no fair-share accounting (sshare is empty)."), std::nullopt;
    return shares;
}

std::optional<qint64> SlurmScheduler::estimatedWaitSeconds(const JobRequest &request, QString *error) {
    // The resource fields only, each checked like the batch script's; --wrap gives sbatch a command to test.
    QStringList options{QStringLiteral("--test-only"), QStringLiteral("--job-name=diamond-estimate")};
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,127}$"));
    for (const auto &[flag, value] :
         {std::pair{"--partition", request.partition}, std::pair{"--account", request.account},
          std::pair{"--qos", request.qos}, std::pair{"--mem", request.memory}}) {
        if (value.isEmpty()) continue;
        if (!word.match(value).hasMatch())
            return *error = tr("'%1' is not a valid value for %2").arg(value, QLatin1String(flag)), std::nullopt;
        options << QLatin1String(flag) + QLatin1Char('=') + value;
    }
    if (request.nodes < 1 || request.tasksPerNode < 1 || request.cpusPerTask < 0 || request.gpusPerNode < 0 ||
        request.timeLimitMinutes < 0)
        return *error = tr("The job's nodes, tasks, CPUs, GPUs or time limit are out of range."), std::nullopt;
    options << QStringLiteral("--nodes=%1").arg(request.nodes)
            << QStringLiteral("--ntasks-per-node=%1").arg(request.tasksPerNode);
    if (request.cpusPerTask > 0) options << QStringLiteral("--cpus-per-task=%1").arg(request.cpusPerTask);
    if (request.gpusPerNode > 0) {
        if (!request.gpuType.isEmpty() && !word.match(request.gpuType).hasMatch())
            return *error = tr("'%1' is not a GPU type").arg(request.gpuType), std::nullopt;
        options << QStringLiteral("--gpus-per-node=%1%2")
                       .arg(request.gpuType.isEmpty() ? QString() : request.gpuType + QLatin1Char(':'))
                       .arg(request.gpusPerNode);
    }
    if (request.timeLimitMinutes > 0) options << QStringLiteral("--time=%1").arg(request.timeLimitMinutes);
    options << QStringLiteral("--wrap=true");
    QStringList words;
    for (const QString &o : std::as_const(options))
        words << shellWord(o);
    const CommandResult r =
        runner_.run(QStringLiteral("sbatch %1 2>&1 && date +%Y-%m-%dT%H:%M:%S").arg(words.join(QLatin1Char(' '))));
    if (!r.ok()) { // its messages are on stdout (2>&1), e.g. "allocation failure: Requested node configuration is …"
        const QString said =
            QString::fromUtf8(r.stdoutData.trimmed().left(400)).replace(QLatin1Char('\n'), QLatin1String("; "));
        return *error = said.isEmpty() ? schedulerCommandFailure(QStringLiteral("sbatch --test-only"), r)
                                       : tr("sbatch --test-only failed: %1").arg(said),
               std::nullopt;
    }
    const auto wait = slurm::parseTestOnlyWait(r.stdoutData);
    if (!wait)
        return *error = tr("sbatch --test-only printed no start time: %1")
                            .arg(QString::fromUtf8(r.stdoutData.trimmed().left(400))),
               std::nullopt;
    return wait;
}

} // namespace diamond::remote
