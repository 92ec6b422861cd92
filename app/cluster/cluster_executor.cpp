#include "app/cluster/cluster_executor.h"

#include "app/cluster/cluster_worker.h"

#include <QFile>
#include <QJsonDocument>
#include <QTimer>

namespace diamond::app {

ClusterExecutor::ClusterExecutor(const remote::ClusterProfile &profile, ClusterLink *link, QObject *parent)
    : Executor(parent), profile_(profile), link_(link) {
    init();
}

ClusterExecutor::ClusterExecutor(const remote::ClusterProfile &profile, RunnerFactory runnerFactory, QObject *parent)
    : Executor(parent), profile_(profile),
      ownedLink_(std::make_unique<ClusterLink>(profile,
                                               [f = std::move(runnerFactory)](remote::SshPrompter *) { return f(); })) {
    link_ = ownedLink_.get();
    init();
}

void ClusterExecutor::init() {
    worker_ = new ClusterWorker(this, link_, profile_);
    worker_->moveToThread(link_->thread());
}

ClusterExecutor::~ClusterExecutor() {
    // The worker lives on the link's thread (shared with other users of the cluster): it goes there.
    QMetaObject::invokeMethod(
        worker_,
        [w = worker_] {
            w->shutdown();
            delete w;
        },
        Qt::BlockingQueuedConnection);
    ownedLink_.reset();
}

std::optional<remote::JobRequest> ClusterExecutor::jobFor(const ExecutionRequest &request) {
    std::optional<remote::JobRequest> job = template_;
    if (!request.job.isEmpty()) {
        QString error;
        job = remote::jobRequestFromJson(request.job, &error);
        if (!job) {
            error_ = tr("Run %1: %2").arg(request.runId).arg(error);
            return std::nullopt;
        }
    }
    job->applyProfile(profile_);
    if (request.nproc > 1 && job->nodes * job->tasksPerNode == 1) job->tasksPerNode = request.nproc;
    if (request.threads > 0) job->engine.threads = request.threads;
    if (job->engine.threads == 0 && job->cpusPerTask > 0) job->engine.threads = job->cpusPerTask; // not every core
    // A cuda run asks for a GPU per process unless its job names the GPUs.
    QFile config(request.configPath);
    const QString device =
        config.size() <= kMaxConfigBytes && config.open(QIODevice::ReadOnly)
            ? QJsonDocument::fromJson(config.readAll()).object().value(QStringLiteral("device")).toString()
            : QString();
    if (const QString problem = remote::fitGpusToDevice(*job, device); !problem.isEmpty()) {
        error_ = tr("Run %1: %2").arg(request.runId).arg(problem);
        return std::nullopt;
    }
    return job;
}

void ClusterExecutor::setPollIntervals(int eventsMs, int schedulerMs) {
    eventsMs_ = std::max(20, eventsMs);
    schedulerMs_ = std::max(100, schedulerMs);
}

bool ClusterExecutor::start(const ExecutionRequest &request) {
    error_.clear();
    if (statuses_.contains(request.runId)) {
        error_ = tr("Run %1 is already running.").arg(request.runId);
        return false;
    }
    if (const QString problem = profile_.validate(); !problem.isEmpty()) {
        error_ = tr("Cluster profile '%1' is invalid: %2").arg(profile_.name, problem);
        return false;
    }
    if (profile_.scheduler == remote::SchedulerKind::None) {
        error_ = tr("Cluster '%1' has no batch scheduler; Diamond runs jobs through Slurm or PBS.").arg(profile_.name);
        return false;
    }
    for (const QString &path : {request.specPath, request.configPath})
        if (!QFileInfo::exists(path)) {
            error_ = tr("%1 does not exist.").arg(path);
            return false;
        }
    const auto job = jobFor(request);
    if (!job) return false;
    const int eventsMs = eventsMs_, schedulerMs = schedulerMs_, maxContinuations = maxContinuations_;
    const bool fetch = fetchCheckpoints_;
    statuses_.insert(request.runId, ProcessStatus::Starting);
    abandoned_.remove(request.runId);
    followedSince_[request.runId].start();
    Q_EMIT statusChanged(request.runId, ProcessStatus::Starting);
    QMetaObject::invokeMethod(
        worker_,
        [w = worker_, request, job, eventsMs, schedulerMs, maxContinuations, fetch] {
            w->setIntervals(eventsMs, schedulerMs, maxContinuations, fetch);
            w->startJob(request, *job);
        },
        Qt::QueuedConnection);
    return true;
}

bool ClusterExecutor::adopt(const ExecutionRequest &request) {
    error_.clear();
    if (statuses_.contains(request.runId)) {
        error_ = tr("Run %1 is already followed.").arg(request.runId);
        return false;
    }
    const auto record = ClusterJobRecord::read(request.runDir);
    if (!record) {
        error_ = tr("Run %1 has no readable record of its cluster job in %2.")
                     .arg(request.runId)
                     .arg(ClusterJobRecord::path(request.runDir));
        return false;
    }
    if (record->profile != profile_.name) {
        error_ = tr("Run %1 was submitted to cluster '%2', not '%3'.")
                     .arg(request.runId)
                     .arg(record->profile, profile_.name);
        return false;
    }
    const auto job = jobFor(request);
    if (!job) return false;
    const QString jobId = record->jobId, remoteDir = record->remoteDir, dataPath = record->dataPath;
    const int attempt = record->attempt;
    const QStringList queuedLinks = record->queuedLinks;
    const int eventsMs = eventsMs_, schedulerMs = schedulerMs_, maxContinuations = maxContinuations_;
    const bool fetch = fetchCheckpoints_;
    statuses_.insert(request.runId, ProcessStatus::Running);
    abandoned_.remove(request.runId);
    followedSince_[request.runId].start();
    Q_EMIT statusChanged(request.runId, ProcessStatus::Running);
    QMetaObject::invokeMethod(
        worker_,
        [w = worker_, request, job, remoteDir, jobId, attempt, dataPath, queuedLinks, eventsMs, schedulerMs,
         maxContinuations, fetch] {
            w->setIntervals(eventsMs, schedulerMs, maxContinuations, fetch);
            w->adoptJob(request, *job, remoteDir, jobId, attempt, dataPath, queuedLinks);
        },
        Qt::QueuedConnection);
    return true;
}

bool ClusterExecutor::cancel(qint64 runId) {
    if (!statuses_.contains(runId)) return false;
    statuses_[runId] = ProcessStatus::Stopping;
    Q_EMIT statusChanged(runId, ProcessStatus::Stopping);
    QMetaObject::invokeMethod(
        worker_, [w = worker_, runId] { w->cancelJob(runId); }, Qt::QueuedConnection);
    return true;
}

bool ClusterExecutor::abandon(qint64 runId, const QString &reason) {
    if (!statuses_.contains(runId)) return false;
    // The worker may be stuck in a call to the silent cluster: the run ends here, now, and what the worker still
    // reports about it is ignored until it starts again.
    abandoned_.insert(runId);
    QMetaObject::invokeMethod(
        worker_, [w = worker_, runId] { w->abandonJob(runId); }, Qt::QueuedConnection);
    statuses_.remove(runId);
    followedSince_.remove(runId);
    Q_EMIT statusChanged(runId, ProcessStatus::NotRunning);
    Q_EMIT processExited(runId, -1, true, false, reason);
    return true;
}

void ClusterExecutor::setUnreachableAfter(int ms) {
    unreachableAfterMs_ = std::max(0, ms);
    if (unreachableAfterMs_ == 0) {
        if (watchdog_) watchdog_->stop();
        return;
    }
    if (!watchdog_) {
        watchdog_ = new QTimer(this);
        connect(watchdog_, &QTimer::timeout, this, &ClusterExecutor::checkSilence);
    }
    watchdog_->start(std::clamp(unreachableAfterMs_ / 4, 50, 1000));
}

void ClusterExecutor::onAlive() {
    alive_.start();
    silentReported_.clear();
}

void ClusterExecutor::checkSilence() {
    for (auto it = followedSince_.cbegin(); it != followedSince_.cend(); ++it) {
        const qint64 silent =
            alive_.isValid() ? std::min(alive_.elapsed(), it->elapsed()) : it->elapsed(); // since it was followed
        if (silent < unreachableAfterMs_ || silentReported_.contains(it.key())) continue;
        silentReported_.insert(it.key());
        Q_EMIT unreachable(it.key(), lastProblem_.isEmpty() ? tr("no answer") : lastProblem_, silent);
    }
}

ProcessStatus ClusterExecutor::status(qint64 runId) const { return statuses_.value(runId, ProcessStatus::NotRunning); }

qint64 ClusterExecutor::processId(qint64) const { return 0; }

void ClusterExecutor::onStatus(qint64 runId, int status) {
    if (abandoned_.contains(runId)) return;
    if (!statuses_.contains(runId) || statuses_.value(runId) == ProcessStatus::Stopping) return;
    statuses_[runId] = ProcessStatus(status);
    Q_EMIT statusChanged(runId, ProcessStatus(status));
}

void ClusterExecutor::onCancelFailed(qint64 runId, const QString &error) {
    if (abandoned_.contains(runId)) return;
    if (statuses_.value(runId) == ProcessStatus::Stopping) {
        statuses_[runId] = ProcessStatus::Running;
        Q_EMIT statusChanged(runId, ProcessStatus::Running);
    }
    Q_EMIT cancelFailed(runId, error);
}

void ClusterExecutor::onFinished(qint64 runId, int exitCode, bool crashed, bool cancelRequested,
                                 const QString &message) {
    if (abandoned_.contains(runId)) return;
    followedSince_.remove(runId);
    statuses_.remove(runId);
    Q_EMIT statusChanged(runId, ProcessStatus::NotRunning);
    Q_EMIT processExited(runId, exitCode, crashed, cancelRequested, message);
}

} // namespace diamond::app
