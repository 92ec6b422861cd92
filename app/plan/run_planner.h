// RunPlanner: the recommendation for one run (docs/planning.md) — where it runs (this computer or one of a cluster's
// partitions), how many processes, the predicted step time and memory, and the chain of jobs — from the device
// profile, the performance model, the engine's dry run (for the run's steps) and the long-job planner. One owner for
// `diamondctl run plan`, `run start --plan auto` and the other front ends.
#pragma once

#include "app/plan/device_profiles.h"
#include "app/plan/job_chain.h"
#include "app/plan/perf_model.h"
#include "remote/cluster_profile.h"
#include "remote/job_script.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <functional>
#include <optional>

namespace diamond::app {

class ClusterLink;
class Workspace;

/// The longest chain of jobs a run may queue up front (execution.job.chain_jobs).
inline constexpr int kMaxChainJobs = remote::kMaxChainJobs;

struct RunPlanRequest {
    QJsonObject spec;
    QJsonObject config;
    QString target = QStringLiteral("local"); ///< "local" or a cluster profile's name
    QString partition;                        ///< only this partition; empty = every partition of the cluster
    int fixedRanks = 0;                       ///< 0 = choose the number of processes; else exactly this many
    int threads = 0;                          ///< threads per process; 0 = the device profile's
    bool measureWidth = false;                ///< RunPlanner::plan probes the widths first (width_probe.h); local only
    bool queueWait =
        true; ///< ask a cluster's scheduler for queue waits (RunPlanner::setQueueWaitEstimator; RunRecommender)
    /// Measured step times by (ranks, threads per rank), used by recommendRun in place of predictions (the width
    /// probes fill it).
    QMap<QPair<int, int>, double> measuredStepSeconds;
    /// By partition: the scheduler's estimate of the wait in its queue (sbatch --test-only), added to the
    /// predicted finish of that partition's options. RunPlanner::plan fills it when it has a QueueWaitEstimator.
    QMap<QString, double> queueWaitSeconds;
};

/// The scheduler's estimate of how long `job` would wait in the queue (remote::Scheduler::estimatedWaitSeconds over
/// the cluster's link); nullopt with *error when it cannot tell.
using QueueWaitEstimator = std::function<std::optional<qint64>(const remote::JobRequest &job, QString *error)>;

struct RunPlan {
    QJsonObject document; ///< the JSON of `run plan --json` (target, partition, ranks, jobs, time_limit_s, options …)
    StepPrediction prediction;
    JobChainPlan chain;
    double measuredStepSecondsHere = 0; ///< the dry run's own step time on this computer
    bool onCluster = false;
};

class RunPlanner {
public:
    explicit RunPlanner(Workspace &ws) : ws_(ws) {}
    /// Called before this computer is calibrated (the first plan only: a few seconds).
    void setCalibratingNotice(std::function<void()> notice) { calibrating_ = std::move(notice); }
    /// For a cluster target: asks the scheduler how long each partition's best option would wait in the queue and
    /// ranks the options again with it (a partition it cannot tell about waits 0, and the plan says why).
    void setQueueWaitEstimator(QueueWaitEstimator estimator) { queueWait_ = std::move(estimator); }
    /// Blocks (running an event loop) while the engine's dry run and, the first time, calibration run.
    std::optional<RunPlan> plan(const RunPlanRequest &request, QString *error);

private:
    Workspace &ws_;
    std::function<void()> calibrating_;
    QueueWaitEstimator queueWait_;
};

/// Asks over `link` (its thread; the caller's event loop runs while it waits): the estimator that `run plan`, POST
/// /api/v1/plans and `run start --plan auto` give RunPlanner::setQueueWaitEstimator for a cluster target.
QueueWaitEstimator queueWaitsOver(ClusterLink *link);

/// The recommendation itself, without I/O: the options (this computer, or each of the cluster's partitions, × 1, 2,
/// 4 … processes) ranked by predicted time to finish, from the device profile and the engine's dry run (`dryRunPlan`:
/// its "steps" and "seconds_per_step"). Fast (milliseconds): the desktop app calls it on the GUI thread.
/// `profiles.base` must be set; a partition with a profile of its own is predicted with it. An option that does not
/// fit tries ZeRO and recompute; one that still does not fit, with 2 or more CPU processes and no "pipeline" or
/// "sharding" of the config's own, tries pipeline stages (one per process, the cost model's cut; the option then has
/// "pipeline": {"stages", "micro_batches", "cut"}).
std::optional<RunPlan> recommendRun(const RunPlanRequest &request, const TargetProfiles &profiles,
                                    const std::optional<remote::ClusterProfile> &cluster, const QJsonObject &dryRunPlan,
                                    QString *error);

/// The questions for the scheduler's queue-wait estimate: each partition's best option of `first` (a cluster's
/// recommendation without waits) as a job with the profile's account, the option's processes and time limit.
/// Options with a reason or that do not fit are left out. Keyed by partition.
QMap<QString, remote::JobRequest> queueWaitQuestions(const RunPlan &first, const remote::ClusterProfile &cluster);

/// Where the registered dataset that `config` names (data.dataset) is on this computer, for the engine's --data-path
/// (empty when the config names none); nullopt with *error when it cannot be resolved or copied here.
std::optional<QString> localDataPath(Workspace &ws, const QJsonObject &config, QString *error);

/// A finished run, for learning (step_observations.h).
struct ObservedRun {
    qint64 runId = 0;
    QJsonObject spec, config, execution;
    QString target = QStringLiteral("local");
    double measuredStepSeconds = 0; ///< 1 / the engine's finished.steps_per_s
};
/// Records the run's measured step time next to the model's prediction for it (without learning), under the device
/// profile a plan for it would use now; false with *error (no profile: nothing is recorded, *error says so).
bool observeFinishedRun(Workspace &ws, const ObservedRun &run, QString *error);

/// The job resources that carry out `plan` on a cluster (execution["job"]): partition, tasks_per_node (ranks),
/// time_limit_minutes, signal_seconds and chain_jobs. Keys of `overrides` (the user's own --job) win.
QJsonObject jobForPlan(const QJsonObject &plan, const QJsonObject &overrides = {});
/// `config` with the plan's checkpoint interval, unless the config sets one of its own (checkpoint.every_steps or
/// checkpoint.every_seconds): the user's choice wins; and with the plan's "sharding", "recompute" and "pipeline" unless
/// the config sets its own.
QJsonObject configForPlan(const QJsonObject &plan, QJsonObject config);
/// The micro-batches the planner gives a pipeline of `stages` stages: the most, up to 4 per stage, that divide `batch`.
int pipelineMicroBatches(qint64 batch, int stages);

} // namespace diamond::app
