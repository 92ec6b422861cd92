// The batch jobs of cluster runs (table cluster_jobs, migration 5): one row per submitted attempt, with the
// scheduler's phase and reason as last seen by the run service. Front ends show the current one (run monitor, `run
// show`, GET /runs/{id}); the executor's own record for adopting a job stays in <run-dir>/cluster-job.json.
#pragma once

#include "app/workspace/workspace.h"

#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

struct ClusterJob {
    qint64 runId = 0;
    QString cluster;           ///< profile name
    QString jobId;             ///< the scheduler's id
    bool continuation = false; ///< a resume after the engine checkpointed on the pre-timeout signal
    QString phase;             ///< remote::jobPhaseName(): pending, running, completed, cancelled, ...
    QString reason;            ///< why it waits or ended, as the scheduler says (Slurm's Reason)
    QString submittedAt, updatedAt;
};

class ClusterJobStore {
public:
    explicit ClusterJobStore(Workspace &workspace) : ws_(workspace) {}
    QString errorString() const { return error_; }

    /// Adds the job unless the run already has it (a follower that adopts a run records what it finds again).
    bool recordSubmission(qint64 runId, const QString &cluster, const QString &jobId, bool continuation);
    /// Updates the phase and reason of the run's job `jobId`.
    /// `cluster`: only that cluster's job of this id (two clusters may hand out the same id); empty: any.
    bool updatePhase(qint64 runId, const QString &jobId, const QString &phase, const QString &reason,
                     const QString &cluster = {});
    /// The run's current job: the oldest one that has not ended (a chain's later jobs wait behind it), else the
    /// newest; nullopt when it has none.
    std::optional<ClusterJob> current(qint64 runId);
    /// Every job of the run, oldest first.
    QList<ClusterJob> jobs(qint64 runId);

private:
    bool fail(const QString &message);

    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app
