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
// Threading: the CommandRunner is created by the factory on the worker thread and used only there; every
// blocking call happens on that thread. Signals are delivered on the executor's thread.
#pragma once

#include "app/executor.h"
#include "remote/cluster_profile.h"
#include "remote/job_script.h"

#include <QHash>
#include <QStringList>

#include <functional>
#include <memory>

class QThread;

namespace diamond::remote {
class CommandRunner;
}

namespace diamond::app {

class ClusterWorker;

class ClusterExecutor : public Executor {
    Q_OBJECT
public:
    using RunnerFactory = std::function<std::unique_ptr<remote::CommandRunner>()>;

    ClusterExecutor(const remote::ClusterProfile &profile, RunnerFactory runnerFactory, QObject *parent = nullptr);
    ~ClusterExecutor() override;

    const remote::ClusterProfile &profile() const { return profile_; }
    /// Resources of every job (partition, nodes, tasks per node, GPUs, CPUs, memory, time limit, pre-timeout
    /// signal, engine threads). Paths, names and the engine command are filled in per run.
    void setJobTemplate(const remote::JobRequest &job) { template_ = job; }
    remote::JobRequest jobTemplate() const { return template_; }
    /// Intervals of the worker's polling: events.jsonl (default 200 ms) and the scheduler (default 1000 ms).
    void setPollIntervals(int eventsMs, int schedulerMs);
    /// Continuation attempts after exit 85 before the run is reported preempted (default 20).
    void setMaxContinuations(int count) { maxContinuations_ = count; }
    /// When the run ends, copy its newest checkpoint into <run-dir>/checkpoints/ (default on), so that it can be
    /// exported or resumed on this computer.
    void setFetchCheckpoints(bool fetch) { fetchCheckpoints_ = fetch; }

    bool start(const ExecutionRequest &request) override;
    /// Follows the run's job submitted earlier (by another process, or before Diamond restarted), from the record
    /// every submission writes to <run-dir>/cluster-job.json: events continue from the local events.jsonl's size,
    /// continuations and the final exit are handled as for start(). False (errorString()) without a record.
    bool adopt(const ExecutionRequest &request) override;
    bool cancel(qint64 runId) override;
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
    /// The scheduler reported a new phase for the run's current job (remote::jobPhaseName()).
    void jobPhaseChanged(qint64 runId, const QString &jobId, const QString &phase);
    /// A note for logs (staging skipped files, continuation submitted, transient connection errors).
    void message(qint64 runId, const QString &text);

private:
    friend class ClusterWorker;
    void onStatus(qint64 runId, int status);
    void onFinished(qint64 runId, int exitCode, bool crashed, bool cancelRequested, const QString &message);

    remote::ClusterProfile profile_;
    remote::JobRequest template_;
    int maxContinuations_ = 20;
    bool fetchCheckpoints_ = true;
    int eventsMs_ = 200;
    int schedulerMs_ = 1000;
    QThread *thread_ = nullptr;
    ClusterWorker *worker_ = nullptr;
    QHash<qint64, ProcessStatus> statuses_;
    QHash<qint64, QStringList> jobIds_;
    QHash<qint64, QString> remoteDirs_;
};

} // namespace diamond::app
