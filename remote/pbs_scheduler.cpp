#include "remote/pbs_scheduler.h"

#include "remote/command_runner.h"
#include "remote/pbs_parsers.h"
#include "remote/scheduler.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace diamond::remote {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::remote::PbsScheduler", text); }

bool validJobId(const QString &id) {
    static const QRegularExpression re(QStringLiteral("^\\d+(\\[\\d*\\])?(\\.[A-Za-z0-9._-]+)?$"));
    return re.match(id).hasMatch();
}

} // namespace

QString PbsScheduler::renderScript(const JobRequest &request, QString *error) const {
    return renderPbsScript(request, error);
}

std::optional<QString> PbsScheduler::submit(const QString &scriptPath, QString *error) {
    const CommandResult r = runner_.run(QStringLiteral("qsub %1").arg(shellWord(scriptPath)));
    if (!r.ok()) {
        *error = schedulerCommandFailure(QStringLiteral("qsub"), r);
        return std::nullopt;
    }
    const auto id = pbs::parseQsubOutput(r.stdoutData);
    if (!id) *error = tr("qsub printed no job id: %1").arg(QString::fromUtf8(r.stdoutData).trimmed());
    return id;
}

std::optional<JobStatus> PbsScheduler::status(const QString &jobId, QString *error) {
    if (!validJobId(jobId)) {
        *error = tr("'%1' is not a PBS job id").arg(jobId);
        return std::nullopt;
    }
    // -x (PBS Pro) includes finished jobs; Torque has no -x and keeps finished jobs for keep_completed.
    CommandResult r = runner_.run(QStringLiteral("qstat -f -x %1 2>/dev/null || qstat -f %1").arg(jobId));
    if (!r.ok()) {
        if (r.error.isEmpty() && pbs::isUnknownJobError(r.stderrData)) {
            JobStatus unknown;
            unknown.jobId = jobId;
            return unknown;
        }
        *error = schedulerCommandFailure(QStringLiteral("qstat"), r);
        return std::nullopt;
    }
    for (const pbs::Record &record : pbs::parseQstatFull(r.stdoutData))
        if (record.id == jobId || record.id.section(QLatin1Char('.'), 0, 0) == jobId.section(QLatin1Char('.'), 0, 0))
            return pbs::jobStatusFromRecord(record);
    JobStatus unknown;
    unknown.jobId = jobId;
    return unknown;
}

std::optional<QList<JobStatus>> PbsScheduler::queue(QString *error) {
    const CommandResult r =
        runner_.run(QStringLiteral("ids=$(qselect -u \"$(id -un)\") || exit 1; [ -z \"$ids\" ] || qstat -f $ids"));
    if (!r.ok()) {
        *error = schedulerCommandFailure(QStringLiteral("qstat"), r);
        return std::nullopt;
    }
    QList<JobStatus> out;
    for (const pbs::Record &record : pbs::parseQstatFull(r.stdoutData))
        out << pbs::jobStatusFromRecord(record);
    return out;
}

bool PbsScheduler::cancel(const QString &jobId, QString *error) {
    if (!validJobId(jobId)) {
        *error = tr("'%1' is not a PBS job id").arg(jobId);
        return false;
    }
    const CommandResult r = runner_.run(QStringLiteral("qdel %1").arg(jobId));
    if (!r.ok()) *error = schedulerCommandFailure(QStringLiteral("qdel"), r);
    return r.ok();
}

std::optional<QList<PartitionInfo>> PbsScheduler::probe(QString *error) {
    const CommandResult r = runner_.run(QStringLiteral("qstat -Qf"));
    if (!r.ok()) {
        *error = schedulerCommandFailure(QStringLiteral("qstat -Qf"), r);
        return std::nullopt;
    }
    return pbs::parseQueues(r.stdoutData);
}

} // namespace diamond::remote
