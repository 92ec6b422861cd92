// The batch jobs of cluster runs (table cluster_jobs, migration 5): one row per submitted attempt, with the
// scheduler's phase and reason as last seen by the run service. Front ends show the newest (run monitor, `run show`,
// GET /runs/{id}); the executor's own record for adopting a job stays in <run-dir>/cluster-job.json.
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

    bool recordSubmission(qint64 runId, const QString &cluster, const QString &jobId, bool continuation);
    /// Updates the phase and reason of the run's job `jobId`.
    bool updatePhase(qint64 runId, const QString &jobId, const QString &phase, const QString &reason);
    /// The run's newest job, nullopt when it has none.
    std::optional<ClusterJob> latest(qint64 runId);
    /// Every job of the run, oldest first.
    QList<ClusterJob> jobs(qint64 runId);

private:
    bool fail(const QString &message);

    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app
