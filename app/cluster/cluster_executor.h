// ClusterExecutor: runs diamond-train as batch jobs on a cluster (Slurm or PBS) behind the same Executor
// interface as LocalExecutor, so RunManager and its MetricIngestor work unchanged.
//
// For each run: the spec and config are staged into <scratch>/runs/<key>/ (files whose SHA-256 already matches
// there are not sent again), an attempt script is rendered (remote/job_script.h) and submitted. A worker
// thread polls the job's state and copies the remote events.jsonl, from the last byte offset received, onto the
// end of the local <run-dir>/events.jsonl: the local file is always a prefix of the remote one, so a dropped
// connection loses and duplicates nothing (the next read starts at the local file's size).
// When an attempt ends with exit code 85 (the engine checkpointed on the pre-timeout signal) and the run was
// not cancelled, a continuation attempt with --resume is submitted (--dependency=afterany on the previous job)
// until the run finishes, fails, or maxContinuations is reached; only then is processExited() emitted.
// When the run ends, its newest checkpoint is copied into <run-dir>/checkpoints/ (setFetchCheckpoints()).
// cancel() cancels the current job (the engine checkpoints on the TERM and exits 85; the run is cancelled).
//
// cancel() cancels the current job. The run ends cancelled only once the scheduler reports the job ended; when the
// scheduler refuses (or cannot be reached), cancelFailed() says why and the run keeps going. The request is also
// written into the job record, so that a ClusterExecutor of another process following the same job ends the run as
// cancelled too instead of submitting a continuation.
//
// Threading: every blocking call happens on the thread of the executor's ClusterLink (the cluster's one connection
// of this app session, shared with other executors and the cluster manager). Signals are delivered on the
// executor's thread.
#pragma once

#include "app/cluster/cluster_link.h"
#include "app/run/executor.h"
#include "remote/cluster_profile.h"
#include "remote/job_script.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>

class QTimer;

namespace diamond::remote {
class CommandRunner;
}

namespace diamond::app {

class ClusterWorker;

class ClusterExecutor : public Executor {
    Q_OBJECT
public:
    using RunnerFactory = std::function<std::unique_ptr<remote::CommandRunner>()>;

    /// Reaches the cluster through `link` (not owned; it must outlive the executor), the cluster's shared
    /// connection. `profile` says where runs go (scratch folder, engine, container, scheduler).
    ClusterExecutor(const remote::ClusterProfile &profile, ClusterLink *link, QObject *parent = nullptr);
    /// With a connection of its own, made by `runnerFactory` (tests, tools).
    ClusterExecutor(const remote::ClusterProfile &profile, RunnerFactory runnerFactory, QObject *parent = nullptr);
    ~ClusterExecutor() override;

    const remote::ClusterProfile &profile() const { return profile_; }
    ClusterLink *link() const { return link_; }
    /// Resources of jobs whose request carries no `job` object (partition, nodes, tasks per node, GPUs, CPUs,
    /// memory, time limit, pre-timeout signal, engine threads). Paths, names and the engine command are filled in
    /// per run.
    void setJobTemplate(const remote::JobRequest &job) { template_ = job; }
    remote::JobRequest jobTemplate() const { return template_; }
    /// Intervals of the worker's polling: events.jsonl (default 200 ms) and the scheduler (default 1000 ms).
    void setPollIntervals(int eventsMs, int schedulerMs);
    /// Continuation attempts after exit 85 before the run is reported preempted (default 20).
    void setMaxContinuations(int count) { maxContinuations_ = count; }
    /// When the run ends, copy its newest checkpoint into <run-dir>/checkpoints/ (default on), so that it can be
    /// exported or resumed on this computer.
    void setFetchCheckpoints(bool fetch) { fetchCheckpoints_ = fetch; }

    /// Watchdog: when nothing has come back from the cluster for `ms` (no successful poll, staging progress or
    /// submission; measured on this thread, so a call stuck on a dead connection counts as silence) while a run is
    /// followed, unreachable() is emitted for that run, once per outage (default 0: never). The run goes on being
    /// polled.
    void setUnreachableAfter(int ms);
    /// Stops following the run at once, without asking the cluster anything (it is unreachable): processExited()
    /// is emitted before this returns, with crashed = true and `reason`, and whatever the worker reports about the
    /// run afterwards is ignored until it is started again. The job may still run on the cluster; the caller records
    /// it. False when the run is not followed.
    bool abandon(qint64 runId, const QString &reason);

    /// Starts the run's job. A resumed run (request.resume) whose run folder on the cluster has no events yet (it ran
    /// elsewhere until now: another cluster, this computer) is continued from this computer's copy: the local
    /// events.jsonl (up to its last complete line) and the newest checkpoint in <run-dir>/checkpoints/ are sent
    /// first, each verified by SHA-256, so that the engine resumes there and the events stay one series.
    bool start(const ExecutionRequest &request) override;
    /// Follows the run's job submitted earlier (by another process, or before Diamond restarted), from the record
    /// every submission writes to <run-dir>/cluster-job.json: events continue from the local events.jsonl's size,
    /// continuations and the final exit are handled as for start(). False (errorString()) without a record.
    bool adopt(const ExecutionRequest &request) override;
    bool cancel(qint64 runId) override;
    bool runsOnThisComputer() const override { return false; }
    ProcessStatus status(qint64 runId) const override;
    /// Always 0: the engine runs on another machine.
    qint64 processId(qint64 runId) const override;

    /// Scheduler job ids of the run's attempts so far (all starts and resumes), oldest first.
    QStringList jobIds(qint64 runId) const { return jobIds_.value(runId); }
    /// The run's folder on the cluster (known once staging started).
    QString remoteRunDir(qint64 runId) const { return remoteDirs_.value(runId); }

Q_SIGNALS:
    /// An attempt was submitted (continuation: a resume after exit 85).
    void jobSubmitted(qint64 runId, const QString &jobId, bool continuation);
    /// The scheduler reported a new phase for the run's current job (remote::jobPhaseName()) and why it waits or
    /// ended (Slurm's Reason; may be empty).
    void jobPhaseChanged(qint64 runId, const QString &jobId, const QString &phase, const QString &reason);
    /// cancel() could not cancel the job (the scheduler refused or was not reachable); the run goes on.
    void cancelFailed(qint64 runId, const QString &error);
    /// A note for logs (staging skipped files, continuation submitted, transient connection errors).
    void message(qint64 runId, const QString &text);
    /// The run's dataset is being staged (app/data/dataset_stager.h): bytes sent of those to send, and the phase
    /// ("checking", "sending", "verifying", then "done").
    void datasetStaging(qint64 runId, qint64 sent, qint64 total, const QString &phase);
    /// The cluster has not answered the run's polls for `silentMs` (setUnreachableAfter()); `error` is the last
    /// failure.
    void unreachable(qint64 runId, const QString &error, qint64 silentMs);

private:
    friend class ClusterWorker;
    void init();
    void onAlive();
    void checkSilence();
    void onStatus(qint64 runId, int status);
    void onFinished(qint64 runId, int exitCode, bool crashed, bool cancelRequested, const QString &message);
    void onCancelFailed(qint64 runId, const QString &error);
    /// The job of a request: its `job` object (else the template) with the profile applied and the request's
    /// processes and threads; nullopt with error_ when the object is invalid.
    std::optional<remote::JobRequest> jobFor(const ExecutionRequest &request);

    remote::ClusterProfile profile_;
    ClusterLink *link_ = nullptr;
    std::unique_ptr<ClusterLink> ownedLink_;
    remote::JobRequest template_;
    int maxContinuations_ = 20;
    int unreachableAfterMs_ = 0;
    QTimer *watchdog_ = nullptr;
    QElapsedTimer alive_; ///< since the cluster last answered
    QString lastProblem_; ///< the last failed poll's error
    QHash<qint64, QElapsedTimer> followedSince_;
    QSet<qint64> silentReported_, abandoned_;
    bool fetchCheckpoints_ = true;
    int eventsMs_ = 200;
    int schedulerMs_ = 1000;
    ClusterWorker *worker_ = nullptr; ///< lives on link_->thread()
    QHash<qint64, ProcessStatus> statuses_;
    QHash<qint64, QStringList> jobIds_;
    QHash<qint64, QString> remoteDirs_;
};

} // namespace diamond::app
