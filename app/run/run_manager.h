// RunManager: runs of a workspace through an Executor, with a MetricIngestor per running run.
//
// startRun: draft -> queued -> running (launch); resume: preempted|failed|cancelled -> resumed -> running with
// --resume; the engine's exit gives finished (0), preempted (85) or failed (anything else, exit message = the
// last `error` event's message), or cancelled after cancel(). The engine's process id is written to
// <run-dir>/engine.pid while it runs, so that another RunManager (another process, a restart) can tell a live
// engine from a lost one: reattach() replays events.jsonl from the stored offset for every run in state
// running that this manager does not own, and then marks it by its last terminal event (finished, error ->
// failed, requeue -> preempted), keeps following it while its engine is alive, or marks it failed with
// "engine process lost".
#pragma once

#include "app/run/event_log.h"
#include "app/run/executor.h"
#include "app/run/run_store.h"

#include <QHash>
#include <QObject>
#include <QSet>

class QTimer;

namespace diamond::app {

class RunManager : public QObject {
    Q_OBJECT
public:
    /// `workspace` must be open and outlive the manager; the manager takes `executor` as a child when it has no
    /// parent.
    RunManager(Workspace &workspace, Executor *executor, QObject *parent = nullptr);
    ~RunManager() override;

    Executor *executor() const { return executor_; }
    QString errorString() const { return error_; }

    /// Queues and launches a draft (or queued) run. False (errorString()) when refused or the launch failed.
    bool startRun(qint64 runId);
    /// Queues and launches several draft (or queued) runs with one Executor::startBatch() (a packing executor
    /// trains them in one engine process). Returns the number launched; errorString() tells about the others.
    int startRuns(const QList<qint64> &runIds);
    /// Resumes a preempted, failed or cancelled run from its newest checkpoint.
    bool resume(qint64 runId);
    /// Stops a running run (state cancelled once the engine has exited), or cancels a draft/queued one at once.
    bool cancel(qint64 runId);
    /// Follows a running run through the executor's adopt() (a cluster run after a restart): its events are
    /// ingested from the stored offset and its end sets its state. False (errorString()) when the executor cannot.
    bool adopt(qint64 runId);
    /// Picks up local runs in state running that no manager of this object owns (see the file comment); runs on a
    /// cluster target are left to their ClusterExecutor. Returns the number of runs looked at.
    int reattach();

    /// True while the run's engine is followed by this manager (own process or reattached live engine).
    bool isActive(qint64 runId) const { return ingestors_.contains(runId); }
    /// The ingestor of an active run, else nullptr.
    MetricIngestor *ingestor(qint64 runId) const { return ingestors_.value(runId); }

    /// True when <run-dir>/engine.pid names a live diamond-train process.
    static bool enginePidAlive(const QString &runDir);
    /// The request that launches `run` through this manager's executor (paths, execution settings, dataset).
    ExecutionRequest requestFor(const Run &run, bool resume) const;

Q_SIGNALS:
    void runStateChanged(qint64 runId, diamond::app::RunState state);
    /// The run reached finished, failed, cancelled or preempted (this manager stopped following it).
    void runEnded(qint64 runId, diamond::app::RunState state);
    void metricsAppended(qint64 runId, const QList<diamond::app::MetricPoint> &points);
    void eventReceived(qint64 runId, const QJsonObject &event);

private:
    bool launch(const Run &run, bool resume);
    /// After the executor accepted the run: engine.pid and the running state.
    bool markLaunched(qint64 runId, bool resume);
    MetricIngestor *attachIngestor(qint64 runId);
    void detachIngestor(qint64 runId);
    bool moveTo(qint64 runId, RunState state, const QString &note = {}, std::optional<int> exitCode = {});
    void onProcessExited(qint64 runId, int exitCode, bool crashed, bool cancelRequested, const QString &stderrTail);
    /// Ends a run by its terminal event; returns false when the event is none of finished/error/requeue.
    bool endByTerminalEvent(qint64 runId, const QJsonObject &event);
    void checkForeignEngines();
    /// True when the event was written (by its `time`) more than a second before the run's newest launch.
    bool isStaleEvent(qint64 runId, const QJsonObject &event);
    bool fail(const QString &message);

    Workspace &ws_;
    RunStore store_;
    Executor *executor_;
    QHash<qint64, MetricIngestor *> ingestors_;
    QSet<qint64> foreign_; ///< reattached runs whose engine belongs to another process
    QTimer *liveness_ = nullptr;
    QString error_;
};

} // namespace diamond::app
