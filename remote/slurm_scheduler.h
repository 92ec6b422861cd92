// Slurm over a CommandRunner: sbatch --parsable, scontrol show job (sacct when the controller has forgotten
// the job and accounting exists), squeue --me, scancel, sinfo + scontrol show partition, sbatch --test-only.
#pragma once

#include "remote/scheduler.h"

namespace diamond::remote {

class SlurmScheduler : public Scheduler {
public:
    using Scheduler::Scheduler;

    SchedulerKind kind() const override { return SchedulerKind::Slurm; }
    QString renderScript(const JobRequest &request, QString *error) const override;
    std::optional<QString> submit(const QString &scriptPath, QString *error) override;
    std::optional<JobStatus> status(const QString &jobId, QString *error) override;
    std::optional<QList<JobStatus>> queue(QString *error) override;
    bool cancel(const QString &jobId, QString *error) override;
    std::optional<QList<PartitionInfo>> probe(QString *error) override;
    /// `sbatch --test-only` with the request's resources and the cluster's clock (`date`) in one command.
    std::optional<qint64> estimatedWaitSeconds(const JobRequest &request, QString *error) override;
    std::optional<QList<PartitionLoad>> load(QString *error) override;
    std::optional<QList<FairShare>> fairShare(QString *error) override;
};

} // namespace diamond::remote
