// SweepController: runs a sweep's trials as normal runs of the workspace (docs/sweeps.md, "Execution").
//
// Each trial is one run (RunStore::createRun); at most limits.max_concurrent engine processes run at once. With
// limits.packing, the new trials a free slot gets (up to limits.trials_per_pack) are started together with
// RunManager::startRuns and train one after another in one `diamond-train pack` process. A trial trains to the budget
// of its rung (run.json epochs/steps); a run that reaches an intermediate rung ends as `preempted` (its final
// checkpoint stays) and a promotion rewrites the run's budget and resumes it with RunManager::resume, so it continues
// from that checkpoint. A trial that reaches its top rung ends `finished`; trials never promoted are `cancelled` when
// the sweep ends (checkpoints stay).
//
// Crash safety: the trial row is written before its run is created, and the run found again by name when the
// process died in between; a promotion is written before the run is resumed. load() + start() after a crash
// waits for engines the dead controller left running (their results are read from events.jsonl), resumes
// runs whose engine was lost from their newest checkpoint, and so loses no trial and runs none twice.
//
// Cross-process control: the sweep's state in the database is the shared switch. Another process asks a
// running controller to pause, resume or stop by writing the state (paused, running, stopping); the
// controller polls it every second. state_json.controller_pid names the live controller.
//
// Cluster sweeps (definition target = a cluster profile): load() builds a ClusterExecutor with
// makeClusterExecutor(profile, definition.execution()); each trial run is created with that target and each launch
// or promotion is one batch job (limits.packing is ignored). The remote run folder stays between jobs, so a
// promotion's job resumes from the checkpoint the trial's previous job left there. The scheduler job ids of a
// trial are appended to its info_json.jobs as they are submitted.
#pragma once

#include "app/cluster/cluster_executor.h"
#include "app/run/executor.h"
#include "app/run/pack_executor.h"
#include "app/run/run_manager.h"
#include "app/sweep/algorithm.h"
#include "app/sweep/sweep_definition.h"
#include "app/sweep/sweep_store.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <memory>

class QTimer;

namespace diamond::app::sweep {

/// Runs the trials: a PackingLocalExecutor (startBatch() of two or more runs trains them in one engine process) for
/// local sweeps, or, after setCluster(), a ClusterExecutor (each trial start or promotion is its own batch job; no
/// packing). A run marked with setPauseOnSuccess() that exits 0 is reported as exit 85 (preempted), so that the run
/// stays resumable for a promotion.
class TrialExecutor : public Executor {
    Q_OBJECT
public:
    explicit TrialExecutor(QObject *parent = nullptr);
    PackingLocalExecutor *local() const { return local_; }
    /// The cluster executor of a cluster sweep, nullptr for a local one.
    ClusterExecutor *cluster() const { return cluster_; }
    /// Runs every later trial through `executor` (taken as a child) instead of the local one.
    void setCluster(ClusterExecutor *executor);
    void setPauseOnSuccess(qint64 runId, bool pause);
    /// True when the run's last engine exit was 0 (before any mapping).
    bool exitedCleanly(qint64 runId) const { return clean_.contains(runId); }

    bool start(const ExecutionRequest &request) override;
    bool startBatch(const QList<ExecutionRequest> &requests) override;
    bool adopt(const ExecutionRequest &request) override;
    bool cancel(qint64 runId) override { return inner()->cancel(runId); }
    ProcessStatus status(qint64 runId) const override { return inner()->status(runId); }
    qint64 processId(qint64 runId) const override { return inner()->processId(runId); }

private:
    Executor *inner() const { return cluster_ ? static_cast<Executor *>(cluster_) : local_; }
    void connectInner(Executor *inner);

    PackingLocalExecutor *local_;
    ClusterExecutor *cluster_ = nullptr;
    QSet<qint64> pause_, clean_;
};

class SweepController : public QObject {
    Q_OBJECT
public:
    /// `workspace` must be open and outlive the controller.
    explicit SweepController(Workspace &workspace, QObject *parent = nullptr);
    ~SweepController() override;

    /// The engine binary (default LocalExecutor::defaultEnginePath()).
    void setEnginePath(const QString &path);
    /// Liveness poll of the database state and of engines left by a dead controller (default 1000 ms).
    void setPollInterval(int ms);
    /// Cluster sweeps reach their cluster through these shared connections (set before load(); default: a
    /// connection of the controller's own).
    void setClusterLinks(ClusterLinks *links) { links_ = links; }

    /// Records a new sweep (project, architecture, sweep row, state running) without starting anything.
    std::optional<qint64> create(const SweepDefinition &definition);
    /// Loads a sweep and its trials and rebuilds the algorithm's state from them.
    bool load(qint64 sweepId);
    /// Takes control of the loaded sweep (state_json.controller_pid = this process), settles what a previous
    /// controller left, and schedules trials until the sweep completes, is stopped or fails. False when
    /// another live process controls it, or the sweep is stopped/completed.
    bool start();
    /// No new trials or promotions; running trials finish their rung.
    void pause();
    /// Continues a paused sweep.
    void resume();
    /// Cancels running trials (checkpoints stay), stops paused ones; the sweep ends as stopped.
    void stop();

    qint64 sweepId() const { return sweepId_; }
    QString state() const { return state_; }
    bool isFinished() const;
    const SweepDefinition &definition() const { return def_; }
    const SweepAlgorithm *algorithm() const { return algo_.get(); }
    TrialExecutor *executor() const { return executor_; }
    RunManager *runManager() const { return manager_; }
    QString errorString() const { return error_; }
    /// Trials of the sweep as stored.
    QList<TrialRow> trials();
    /// Resource granted to all trials so far (epochs or steps).
    double usedBudget() const;

    /// The pid of the live process controlling the sweep, 0 when none.
    static qint64 livePid(const SweepRow &sweep);

Q_SIGNALS:
    void trialStarted(int index, qint64 runId, int rung, double budget);
    void trialReported(int index, int rung, double value);
    void trialEnded(int index, const QString &state);
    void stateChanged(const QString &state);
    /// The sweep reached completed, stopped or failed.
    void finished(const QString &state);

private:
    struct Active {
        int trial = 0;
        bool orphan = false; ///< engine left by a dead controller
        int pack = 0;        ///< launch group: runs started together share one engine process (one slot)
    };
    /// Engine processes (launch groups) of the active trials; max_concurrent bounds it.
    int activeSlots() const;
    /// Starts the runs collected in batch_ with one RunManager::startRuns (one pack).
    bool flushBatch();
    bool fail(const QString &message);
    void setState(const QString &state, const QString &note = {});
    void schedule();
    bool launchNew(const Job &job);
    bool promote(const Job &job);
    bool relaunch(TrialRow &trial);
    void onRunEnded(qint64 runId, RunState state);
    void handleEnd(qint64 runId, RunState state, bool reachedBudget);
    void onMetrics(qint64 runId, const QList<MetricPoint> &points);
    void poll();
    void settleOrphan(qint64 runId);
    void finishIfIdle();
    std::optional<TrialRow> trialRow(int index);
    QString runName(int index) const;
    std::optional<qint64> architectureVersionFor(const QJsonObject &spec);

    Workspace &ws_;
    ClusterLinks *links_ = nullptr;
    RunStore runs_;
    SweepStore store_;
    TrialExecutor *executor_;
    RunManager *manager_;
    QTimer *poll_;
    SweepDefinition def_;
    std::unique_ptr<SweepAlgorithm> algo_;
    qint64 sweepId_ = 0;
    qint64 projectId_ = 0;
    qint64 architectureId_ = 0;
    QString state_;
    bool started_ = false;
    QHash<qint64, Active> active_; ///< run id -> running trial
    QList<int> interrupted_;       ///< trials to relaunch (engine lost or preempted from outside)
    bool batching_ = false;        ///< relaunch() collects new runs in batch_ instead of starting them
    QList<qint64> batch_;
    int nextPack_ = 1;
    QString error_;
};

} // namespace diamond::app::sweep
