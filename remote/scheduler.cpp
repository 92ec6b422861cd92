#include "remote/scheduler.h"

#include "remote/command_runner.h"
#include "remote/pbs_scheduler.h"
#include "remote/slurm_scheduler.h"

#include <QCoreApplication>

namespace diamond::remote {

QString jobPhaseName(JobPhase phase) {
    switch (phase) {
    case JobPhase::Unknown: return QStringLiteral("unknown");
    case JobPhase::Pending: return QStringLiteral("pending");
    case JobPhase::Running: return QStringLiteral("running");
    case JobPhase::Suspended: return QStringLiteral("suspended");
    case JobPhase::Completed: return QStringLiteral("completed");
    case JobPhase::Failed: return QStringLiteral("failed");
    case JobPhase::Cancelled: return QStringLiteral("cancelled");
    case JobPhase::TimedOut: return QStringLiteral("timed-out");
    case JobPhase::NodeFailed: return QStringLiteral("node-failed");
    }
    return {};
}

bool isTerminal(JobPhase phase) {
    switch (phase) {
    case JobPhase::Completed:
    case JobPhase::Failed:
    case JobPhase::Cancelled:
    case JobPhase::TimedOut:
    case JobPhase::NodeFailed: return true;
    default: return false;
    }
}

std::unique_ptr<Scheduler> makeScheduler(SchedulerKind kind, CommandRunner &runner) {
    switch (kind) {
    case SchedulerKind::Slurm: return std::make_unique<SlurmScheduler>(runner);
    case SchedulerKind::Pbs: return std::make_unique<PbsScheduler>(runner);
    case SchedulerKind::None: return nullptr;
    }
    return nullptr;
}

std::optional<qint64> Scheduler::estimatedWaitSeconds(const JobRequest &, QString *error) {
    *error = QCoreApplication::translate("diamond::remote::Scheduler",
                                         "The %1 scheduler gives no start-time estimate for a job not yet submitted.")
                 .arg(schedulerKindName(kind()));
    return std::nullopt;
}

std::optional<QList<PartitionLoad>> Scheduler::load(QString *error) {
    *error = QCoreApplication::translate("diamond::remote::Scheduler", "The %1 scheduler's load is not read.")
                 .arg(schedulerKindName(kind()));
    return std::nullopt;
}

std::optional<QList<FairShare>> Scheduler::fairShare(QString *error) {
    *error = QCoreApplication::translate("diamond::remote::Scheduler", "The %1 scheduler reports no fair share.")
                 .arg(schedulerKindName(kind()));
    return std::nullopt;
}

QString schedulerCommandFailure(const QString &what, const CommandResult &r) {
    QString detail = QString::fromUtf8(r.stderrData).trimmed();
    if (detail.isEmpty()) detail = r.error;
    if (detail.isEmpty())
        detail = QCoreApplication::translate("diamond::remote::Scheduler", "exit code %1").arg(r.exitCode);
    return QCoreApplication::translate("diamond::remote::Scheduler", "%1 failed: %2")
        .arg(what, detail.replace(QLatin1Char('\n'), QLatin1String("; ")));
}

} // namespace diamond::remote
