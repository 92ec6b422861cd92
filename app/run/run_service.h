// RunService: the one owner of a run's whole life, on every target. One per open workspace, no widgets; the desktop
// app, diamondctl and the REST server call it and nothing else to create, start, cancel, resume, adopt, follow and
// delete runs and sweeps.
//
// Routing: a run goes by its stored target. "local" (or empty) runs go through the service's local RunManager
// (LocalExecutor; detached engines for one-shot command-line use); runs on a cluster profile go through one RunManager
// + ClusterExecutor per profile, reaching the cluster over its ClusterLink (this session's one connection to it);
// trials of a sweep controlled here stay with their SweepController. The service forwards every manager's state
// changes, metric batches and events as its own signals, so a front end connects once.
//
// Cluster runs:
// - cancel() cancels the batch job (scancel/qdel). The run is recorded cancelled only when the scheduler reports the
//   job ended; a refused cancel is stored as a run message and reported by cancelFailed(), and the run goes on. A run
//   this process does not follow yet is adopted first (from its job record), so cancelling from another process than
//   the one that submitted works the same.
// - resume() resubmits on the same cluster into the same remote run folder; the engine continues from the newest
//   checkpoint there (--resume).
// - Every submitted job is stored (ClusterJobStore) with the scheduler's phase and reason as last seen; executor
//   messages (staging, continuations) are stored with the run (RunStore::messages()).
// deleteRun() refuses while the run may be running anywhere (queued, running or resumed).
#pragma once

#include "app/cluster/cluster_link.h"
#include "app/run/class_server.h"
#include "app/run/executor.h"
#include "app/run/run_store.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <optional>

namespace diamond::app {

class ClusterExecutor;
class RunManager;
class StartRace;
namespace sweep {
class SweepController;
struct SweepDefinition;
struct SweepRow;
} // namespace sweep

class RunService : public QObject {
    Q_OBJECT
public:
    /// `workspace` must be open and outlive the service.
    explicit RunService(Workspace &workspace, QObject *parent = nullptr);
    /// Stops following (engines and jobs go on; a later service adopts them) and closes the cluster connections.
    ~RunService() override;

    Workspace &workspace() const { return ws_; }
    /// This session's connections to clusters; front ends set the prompter on it.
    ClusterLinks *clusterLinks() const { return links_; }
    QString errorString() const { return error_; }

    /// The engine binary for local runs and sweeps (default LocalExecutor::defaultEnginePath()).
    void setEnginePath(const QString &path);
    QString enginePath() const { return enginePath_; }
    /// Local engines outlive this process (one-shot command-line use); their end is found from events.jsonl by a
    /// later follower (RunManager::reattach()). Set before the first start.
    void setDetachedLocalRuns(bool detached) { detachedLocal_ = detached; }
    /// Polling of cluster jobs (events, scheduler), for cluster managers made after this call (tests).
    void setClusterPollIntervals(int eventsMs, int schedulerMs);
    /// Continuation jobs after the engine checkpointed on the pre-timeout signal (ClusterExecutor, default 20).
    void setClusterMaxContinuations(int count);

    struct NewRun {
        QString project = QStringLiteral("Default");
        QJsonObject spec;
        QString architectureName; ///< default: the spec's "name"
        QString name;             ///< default: the architecture's name
        QJsonObject config;       ///< run.json
        QString target = QStringLiteral("local");
        QJsonObject execution; ///< "nproc", "threads", "init_weights"; "job" for clusters (remote::jobRequestFromJson)
    };
    /// Creates a draft run after checking the target (an existing cluster profile) and its execution settings.
    std::optional<Run> createRun(const NewRun &run);
    /// Starts a draft or queued run on its target.
    bool start(qint64 runId);
    /// Stops a run (see the file comment for cluster runs); a draft or queued run is cancelled at once.
    bool cancel(qint64 runId);
    /// Continues a preempted, failed or cancelled run from its newest checkpoint, on its target.
    bool resume(qint64 runId);
    /// Follows a running run that nothing in this process follows (a cluster job, a local engine of another process).
    bool adopt(qint64 runId);
    /// Follows every running run of the workspace that this process does not follow yet; returns how many.
    int followAll();
    /// Settles local runs whose engine ended while nobody followed them (RunManager::reattach()), without
    /// contacting any cluster.
    void settleLocalRuns();
    /// Removes a run that cannot be running anywhere, with its folder and stored data.
    bool deleteRun(qint64 runId);
    /// Moves a run to another target (a cluster profile, or "local"): a running run is first stopped at a checkpoint
    /// (the cancel's TERM makes the engine checkpoint; a cluster run's newest checkpoint comes home with it), then the
    /// run is pointed at `target` and resumed there from this computer's copy (an empty run folder on a cluster is
    /// seeded with the events and that checkpoint, ClusterExecutor::start()), so the metric history stays one series.
    /// `job`: the job resources on the new cluster (default: the old ones without their partition). A preempted,
    /// failed or cancelled run moves at once; a draft or queued one is only re-pointed. For a running run the move
    /// completes asynchronously: runMoved() or moveFailed(). False with errorString() when refused.
    bool moveRun(qint64 runId, const QString &target, const QJsonObject &job = {});
    /// Start-anywhere, first to start wins (StartRace): the draft run's job is submitted to every cluster of
    /// `clusters` (two or more) at once; the first whose job starts running keeps the run (its target becomes that
    /// cluster and this service follows it), the other jobs are cancelled. raceWon() or raceLost() tells the outcome;
    /// cancel() during the race cancels every candidate. False with errorString() when nothing could be submitted.
    bool startRace(qint64 runId, const QStringList &clusters);
    /// True until the run's race is decided and every other candidate's cancel is confirmed.
    bool isRacing(qint64 runId) const;
    /// True while a move of the run waits for its stop.
    bool isMoving(qint64 runId) const { return moves_.contains(runId); }

    /// True while a manager of this service follows the run.
    bool isActive(qint64 runId) const;
    /// The run's engine process or job as this service sees it.
    ProcessStatus processStatus(qint64 runId) const;
    /// Runs followed by this service whose engine or job is alive.
    int activeRunCount() const;
    /// Makes a signed-in class server a target of runs ("server:" + server.name) for this session; the token stays
    /// in memory. Running runs on it are followed by the next followAll().
    void addClassServer(const ClassServer &server);
    QList<ClassServer> classServers() const;
    /// Publishes a finished run of a class server to that server's gallery (ServerExecutor::publish); false with
    /// errorString() when the run is not on a signed-in class server, else `done` reports the outcome.
    bool publishOnServer(qint64 runId, const QJsonObject &options,
                         std::function<void(const QJsonObject &entry, const QString &error)> done);

    // --- sweeps (docs/sweeps.md) ---
    /// Records a sweep without running it (a controller process takes it later). nullopt with errorString().
    std::optional<qint64> createSweep(const sweep::SweepDefinition &definition);
    /// Records the sweep and runs its controller in this process. nullptr with errorString() when refused.
    sweep::SweepController *startSweep(const sweep::SweepDefinition &definition);
    /// Takes control of a stored sweep in this process (continue a paused or interrupted one).
    sweep::SweepController *controlSweep(qint64 sweepId);
    /// The live controller of the sweep in this process, else nullptr.
    sweep::SweepController *sweepController(qint64 sweepId) const;
    /// Pause / continue / stop a sweep, whether its controller runs here or in another process (through the sweep's
    /// state in the database, which a live controller polls). continueSweep() of a sweep without a live controller
    /// takes control here. stopSweep() of a sweep without one stops it here; the stop completes asynchronously.
    bool pauseSweep(qint64 sweepId);
    bool continueSweep(qint64 sweepId);
    bool stopSweep(qint64 sweepId);

Q_SIGNALS:
    void runCreated(qint64 runId);
    void runDeleted(qint64 runId);
    void runStateChanged(qint64 runId, diamond::app::RunState state);
    /// The run reached finished, failed, cancelled or preempted.
    void runEnded(qint64 runId, diamond::app::RunState state);
    void metricsAppended(qint64 runId, const QList<diamond::app::MetricPoint> &points);
    void eventReceived(qint64 runId, const QJsonObject &event);
    /// A job of the run was submitted or its phase changed (ClusterJobStore::latest()).
    void clusterJobChanged(qint64 runId);
    /// An executor's note about the run (also stored: RunStore::messages()).
    void runMessage(qint64 runId, const QString &text);
    /// A cluster run's dataset is being staged (ClusterExecutor::datasetStaging).
    void datasetStaging(qint64 runId, qint64 sent, qint64 total, const QString &phase);
    /// A cancel the scheduler refused or could not be asked for; the run goes on.
    void cancelFailed(qint64 runId, const QString &error);
    /// moveRun() completed: the run now runs (or waits, for a draft) on `to`.
    void runMoved(qint64 runId, const QString &from, const QString &to);
    /// startRace(): `cluster` started the run first.
    void raceWon(qint64 runId, const QString &cluster);
    /// startRace(): no cluster took the run (or it was cancelled); the run has ended.
    void raceLost(qint64 runId, const QString &error);
    /// moveRun() of a running run could not complete; the run stays where it stopped.
    void moveFailed(qint64 runId, const QString &error);
    /// A controller of this service took the sweep; emitted just before its first trials start (sweepController()
    /// returns it from here on).
    void sweepStarted(qint64 sweepId);

private:
    friend class StartRace;
    RunManager *localManager();
    /// The manager for runs on cluster profile `name` (created on first use); nullptr with error_.
    RunManager *clusterManager(const QString &name);
    /// The manager for runs on a signed-in class server (target "server:NAME"); nullptr with error_.
    RunManager *serverManager(const QString &target);
    /// clusterManager() or serverManager() by the target's kind.
    RunManager *remoteManager(const QString &target);
    /// The manager that runs `run` on its target; nullptr with error_.
    RunManager *managerFor(const Run &run);
    /// The manager following the run in this process, else nullptr.
    RunManager *followingManager(qint64 runId) const;
    void connectManager(RunManager *manager);
    void connectClusterExecutor(ClusterExecutor *executor);
    sweep::SweepController *adoptController(sweep::SweepController *controller);
    /// The stored sweep, nullopt with error_.
    std::optional<sweep::SweepRow> storedSweep(qint64 sweepId);
    /// Records a finished run's measured step time for the performance model (observeFinishedRun).
    void learnFrom(qint64 runId, const QJsonObject &finished);
    bool fail(const QString &message);
    /// The second half of moveRun(): the stopped run is re-pointed and resumed on the new target.
    bool completeMove(qint64 runId, const QString &target, const QJsonObject &job);

    Workspace &ws_;
    RunStore store_;
    ClusterLinks *links_;
    RunManager *local_ = nullptr;
    QHash<QString, RunManager *> clusters_; ///< by profile name
    QHash<QString, RunManager *> servers_;  ///< by class-server name
    QHash<QString, ClassServer> classServers_;
    QList<QPointer<sweep::SweepController>> sweeps_;
    struct PendingMove {
        QString target;
        QJsonObject job;
    };
    QHash<qint64, PendingMove> moves_; ///< runs being stopped for a move
    QHash<qint64, QPointer<StartRace>> races_;
    QString enginePath_;
    bool detachedLocal_ = false;
    int eventsMs_ = 200;
    int schedulerMs_ = 1000;
    int maxContinuations_ = 20;
    QString error_;
};

} // namespace diamond::app
