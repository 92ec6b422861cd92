// Batch schedulers behind one interface: submit a rendered script, ask a job's state, cancel, list partitions.
// Implementations (SlurmScheduler, PbsScheduler) only run commands through a CommandRunner, so they work the
// same over SSH and on this machine. Every call blocks (see CommandRunner): use them on a worker thread.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/job_script.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace diamond::remote {

class CommandRunner;

/// Where a job is in its life, across schedulers.
enum class JobPhase {
    Unknown, ///< the scheduler does not know the job (any more)
    Pending, ///< queued, held or waiting for a dependency
    Running, ///< running (also Slurm's COMPLETING/PBS' exiting: the engine may still write)
    Suspended,
    Completed, ///< ended with exit code 0
    Failed,    ///< ended with a non-zero exit code (85 = checkpointed: continue with --resume)
    Cancelled,
    TimedOut,   ///< killed at its time limit
    NodeFailed, ///< node failure, out of memory, boot failure, preemption without requeue
};

/// "pending", "running", ... for logs and --json outputs.
QString jobPhaseName(JobPhase phase);
/// True for phases after which the job never runs again.
bool isTerminal(JobPhase phase);

struct JobStatus {
    QString jobId;
    JobPhase phase = JobPhase::Unknown;
    QString state;                ///< the scheduler's own word, e.g. "CANCELLED by 0", "F"
    QString reason;               ///< why it waits or ended (Slurm Reason, PBS comment)
    std::optional<int> exitCode;  ///< the batch script's exit code once known
    int signal = 0;               ///< signal that ended it, when known (Slurm ExitCode's second half)
    qint64 runSeconds = -1;       ///< elapsed run time; -1 = unknown
    qint64 timeLimitSeconds = -1; ///< -1 = unknown or unlimited
    QString nodes;                ///< node list when running
};

/// A partition's load now: nodes allocated / idle / other (down, drained, reserved), CPUs allocated / idle / total.
struct PartitionLoad {
    QString name;
    bool isDefault = false;
    int nodesAllocated = 0, nodesIdle = 0, nodesOther = 0, nodesTotal = 0;
    int cpusAllocated = 0, cpusIdle = 0, cpusTotal = 0;
};

/// The connected user's standing in one account: Slurm's fair-share factor (0..1, higher = sooner) and how much of
/// the account's share it used (normalised). -1 = not reported.
struct FairShare {
    QString account;
    double fairShare = -1;
    double effectiveUsage = -1;
};

class Scheduler {
public:
    explicit Scheduler(CommandRunner &runner) : runner_(runner) {}
    virtual ~Scheduler() = default;

    virtual SchedulerKind kind() const = 0;
    /// The batch script for `request`; empty with *error naming the field when invalid.
    virtual QString renderScript(const JobRequest &request, QString *error) const = 0;
    /// Submits the script stored at `scriptPath` on the host; returns the job id.
    virtual std::optional<QString> submit(const QString &scriptPath, QString *error) = 0;
    /// State of one job; a job the scheduler no longer knows comes back with phase Unknown (not an error).
    virtual std::optional<JobStatus> status(const QString &jobId, QString *error) = 0;
    /// Jobs of the connected user that are still queued or running.
    virtual std::optional<QList<JobStatus>> queue(QString *error) = 0;
    /// Cancels a job (TERM to its processes, then a kill after the scheduler's grace time).
    virtual bool cancel(const QString &jobId, QString *error) = 0;
    /// Partitions (queues) of the cluster, for ClusterProfile::partitions.
    virtual std::optional<QList<PartitionInfo>> probe(QString *error) = 0;
    /// How long a job with `request`'s resources (partition, account, qos, nodes, tasks and CPUs per node, GPUs,
    /// memory, time limit) would wait in the queue if submitted now, as the scheduler estimates it; nothing is
    /// submitted. nullopt with *error when the scheduler cannot tell (PBS has no such estimate).
    virtual std::optional<qint64> estimatedWaitSeconds(const JobRequest &request, QString *error);
    /// Every partition's load now (Slurm: sinfo). nullopt with *error where the scheduler cannot tell.
    virtual std::optional<QList<PartitionLoad>> load(QString *error);
    /// The connected user's fair share per account (Slurm: sshare, with accounting only). nullopt with *error where the
    /// cluster does not report it.
    virtual std::optional<QList<FairShare>> fairShare(QString *error);

    CommandRunner &runner() const { return runner_; }

protected:
    CommandRunner &runner_;
};

/// A scheduler for `kind` over `runner`; nullptr for SchedulerKind::None.
std::unique_ptr<Scheduler> makeScheduler(SchedulerKind kind, CommandRunner &runner);

struct CommandResult;
/// A failed scheduler command in one line, "sbatch failed: ...": its stderr, else the runner's error, else the
/// exit code.
QString schedulerCommandFailure(const QString &what, const CommandResult &result);

} // namespace diamond::remote
