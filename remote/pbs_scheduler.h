// PBS Pro (and mostly Torque) over a CommandRunner: qsub, qstat -f -x, qdel, qstat -Qf.
#pragma once

#include "remote/scheduler.h"

namespace diamond::remote {

class PbsScheduler : public Scheduler {
public:
    using Scheduler::Scheduler;

    SchedulerKind kind() const override { return SchedulerKind::Pbs; }
    QString renderScript(const JobRequest &request, QString *error) const override;
    std::optional<QString> submit(const QString &scriptPath, QString *error) override;
    std::optional<JobStatus> status(const QString &jobId, QString *error) override;
    std::optional<QList<JobStatus>> queue(QString *error) override;
    bool cancel(const QString &jobId, QString *error) override;
    std::optional<QList<PartitionInfo>> probe(QString *error) override;
};

} // namespace diamond::remote
