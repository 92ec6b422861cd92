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

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>

#include <memory>

class QTimer;

namespace diamond::app::sweep {

/// Runs the trials: a PackingLocalExecutor (startBatch() of two or more runs trains them in one engine process) for
/// local sweeps, or, after addCluster(), ClusterExecutors (each trial start or promotion is its own batch job; no
/// packing), one per target, a run going to the one setRoute() named (the first added by default). A run marked with
/// setPauseOnSuccess() that exits 0 is reported as exit 85 (preempted), so that the run stays resumable for a
/// promotion.
class TrialExecutor : public Executor {
    Q_OBJECT
public:
    explicit TrialExecutor(QObject *parent = nullptr);
    PackingLocalExecutor *local() const { return local_; }
    /// The (first) cluster executor of a cluster sweep, nullptr for a local one.
    ClusterExecutor *cluster() const { return clusters_.isEmpty() ? nullptr : clusters_.first(); }
    /// The executor of target `name`, nullptr when none.
    ClusterExecutor *cluster(const QString &name) const;
    QList<ClusterExecutor *> clusters() const { return clusters_; }
    /// Runs every later trial through `executor` (taken as a child) instead of the local one; a second call adds a
    /// target (multi-cluster sweeps).
    void addCluster(ClusterExecutor *executor);
    /// The target (cluster profile name) the run's next start goes to.
    void setRoute(qint64 runId, const QString &target) { route_.insert(runId, target); }
    QString route(qint64 runId) const;
    void setPauseOnSuccess(qint64 runId, bool pause);
    /// True when the run's last engine exit was 0 (before any mapping).
    bool exitedCleanly(qint64 runId) const { return clean_.contains(runId); }
    /// True when the run's last start ended before its job was submitted (staging or submission failed: the target
    /// refused or could not be reached).
    bool failedToStart(qint64 runId) const { return startFailed_.contains(runId); }

    bool start(const ExecutionRequest &request) override;
    bool startBatch(const QList<ExecutionRequest> &requests) override;
    bool adopt(const ExecutionRequest &request) override;
    bool cancel(qint64 runId) override { return inner(runId)->cancel(runId); }
    ProcessStatus status(qint64 runId) const override { return inner(runId)->status(runId); }
    qint64 processId(qint64 runId) const override { return inner(runId)->processId(runId); }

private:
    Executor *inner(qint64 runId) const;
    void connectInner(Executor *inner);
    void starting(qint64 runId);

    PackingLocalExecutor *local_;
    QList<ClusterExecutor *> clusters_;
    QHash<qint64, QString> route_;
    QSet<qint64> pause_, clean_, submitted_, startFailed_;
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
    /// Multi-cluster sweeps: how long a target may stay silent before its trials move (default: the sweep's
    /// limits.unreachable_after_s), and how often a target taken out is tried again (default 30 s). Before load().
    void setTargetTimings(int unreachableAfterMs, int retryMs);

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
    /// A multi-cluster sweep took `target` out of the placement (unreachable, or refusing jobs) or, `up`, back in.
    void targetChanged(const QString &target, bool up, const QString &reason);
    /// A trial left `from` for `to` (its target went down, or a promotion found room there first).
    void trialMoved(int index, const QString &from, const QString &to, const QString &reason);
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

    // --- multi-cluster placement (sweep_targets.cpp) ---
    struct TargetState {
        bool down = false;
        QString error;
        QElapsedTimer downSince;    ///< when it was taken out; a probe tries it again after retryMs_
        bool probing = false;       ///< a reachability probe or a queue-wait question is out
        std::optional<double> wait; ///< the scheduler's queue-wait estimate for a trial job
        QElapsedTimer waitAge;
        double unitSeconds = 0; ///< measured seconds per budget unit (mean of the trials that ended there)
        int unitSamples = 0;
        QStringList leftBehind; ///< job ids abandoned while it was unreachable, cancelled once it answers
    };
    void setUpTargets();
    /// The target a trial (re)starts on, or empty when every target is down or full. `current`: where its checkpoint
    /// is (kept on a tie).
    QString chooseTarget(double budget, const QString &current, QString *reason);
    bool anyTargetOpen() const;
    int inFlightOn(const QString &target) const;
    void targetDown(const QString &target, const QString &why);
    void onUnreachable(const QString &target, qint64 runId, const QString &error);
    void probeTargets();
    void askQueueWaits();
    /// Appends the trial's placement to its info ("placements": target, rung, at, why; "from" when it changed
    /// clusters; "rescue" when it left a target that went down).
    void recordPlacement(TrialRow &t, const QString &target, const QString &from, const QString &reason, bool rescue);
    void learnSpeed(qint64 runId, const TrialRow &t);

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
    QHash<QString, TargetState> targets_; ///< multi-cluster sweeps, by profile name
    QHash<qint64, QString> migrating_;    ///< run -> why it is leaving its target (abandoned, resumed elsewhere)
    QSet<int> rescued_;                   ///< trials waiting to be placed again after their target went down
    QHash<qint64, QElapsedTimer> launched_;
    QHash<qint64, double> launchedBudget_; ///< budget the run had before its current launch
    int unreachableAfterMs_ = -1;
    int retryMs_ = 30000;
};

} // namespace diamond::app::sweep
