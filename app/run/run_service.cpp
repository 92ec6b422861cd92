#include "app/run/run_service.h"

#include "app/cluster/cluster_executor.h"
#include "app/cluster/cluster_job_record.h"
#include "app/cluster/cluster_job_store.h"
#include "app/cluster/cluster_run.h"
#include "app/cluster/cluster_store.h"
#include "app/plan/run_planner.h"
#include "app/run/run_manager.h"
#include "app/run/server_executor.h"
#include "app/run/start_race.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_store.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

namespace diamond::app {

namespace {

bool isLocalTarget(const QString &target) { return target.isEmpty() || target == QLatin1String("local"); }

} // namespace

RunService::RunService(Workspace &workspace, QObject *parent)
    : QObject(parent), ws_(workspace), store_(workspace), links_(new ClusterLinks(this)),
      enginePath_(LocalExecutor::defaultEnginePath()) {
    // The performance model learns from every finished run, on every target (app/plan/step_observations.h).
    connect(this, &RunService::eventReceived, this, [this](qint64 runId, const QJsonObject &event) {
        if (event.value(QStringLiteral("event")).toString() == QLatin1String("finished")) learnFrom(runId, event);
    });
    connect(this, &RunService::runEnded, this, [this](qint64 runId, RunState state) {
        const auto move = moves_.constFind(runId);
        if (move == moves_.cend()) return;
        const PendingMove m = *move;
        moves_.remove(runId);
        if (state == RunState::Finished) {
            Q_EMIT moveFailed(runId, tr("Run %1 finished before it could move.").arg(runId));
            return;
        }
        if (!completeMove(runId, m.target, m.job)) Q_EMIT moveFailed(runId, error_);
    });
}

bool RunService::startRace(qint64 runId, const QStringList &clusters) {
    error_.clear();
    if (isRacing(runId)) return fail(tr("Run %1 is racing already.").arg(runId));
    for (const QString &cluster : clusters) {
        const auto profile = ClusterStore(ws_).profile(cluster);
        if (!profile) return fail(tr("Unknown target '%1': the workspace has no such cluster profile.").arg(cluster));
        if (profile->scheduler == remote::SchedulerKind::None)
            return fail(tr("Cluster '%1' has no batch scheduler to race on.").arg(cluster));
    }
    auto *race = new StartRace(*this, runId, clusters, this);
    connect(race, &StartRace::won, this, &RunService::raceWon);
    connect(race, &StartRace::lost, this, [this](qint64 id, const QString &error) {
        Q_EMIT runEnded(id, store_.run(id) ? store_.run(id)->state : RunState::Failed);
        Q_EMIT raceLost(id, error);
    });
    races_.insert(runId, race);
    QString error;
    if (!race->start(&error)) {
        races_.remove(runId);
        race->deleteLater();
        return fail(error);
    }
    Q_EMIT runStateChanged(runId, RunState::Queued);
    return true;
}

bool RunService::isRacing(qint64 runId) const { return !races_.value(runId).isNull(); }

bool RunService::moveRun(qint64 runId, const QString &target, const QJsonObject &job) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (moves_.contains(runId)) return fail(tr("Run %1 is already moving.").arg(runId));
    if (const auto trial = sweep::SweepStore(ws_).trialByRun(runId))
        return fail(tr("Run %1 is trial %2 of sweep %3, which places its trials itself (give the sweep several "
                       "\"targets\" to spread them).")
                        .arg(runId)
                        .arg(trial->index)
                        .arg(trial->sweepId));
    const bool toLocal = isLocalTarget(target);
    if (!toLocal && !ClusterStore(ws_).profile(target))
        return fail(tr("Unknown target '%1': the workspace has no such cluster profile.").arg(target));
    if ((toLocal && isLocalTarget(run->target)) || target == run->target)
        return fail(tr("Run %1 is on %2 already.").arg(runId).arg(target));
    if (isClassServerTarget(run->target)) return fail(tr("Runs on a class server stay on that server."));
    if (run->state == RunState::Finished) return fail(tr("Run %1 has finished; there is nothing to move.").arg(runId));
    if (!job.isEmpty()) {
        QString problem;
        if (toLocal) return fail(tr("job: resources are for cluster targets, not '%1'.").arg(target));
        if (!remote::jobRequestFromJson(job, &problem)) return fail(tr("job: %1").arg(problem));
    }
    if (run->state == RunState::Running || run->state == RunState::Resumed || isActive(runId)) {
        moves_.insert(runId, PendingMove{target, job});
        const QString note = tr("Moving to %1: stopping the run at a checkpoint.").arg(target);
        store_.addMessage(runId, note);
        Q_EMIT runMessage(runId, note);
        if (!cancel(runId)) {
            moves_.remove(runId);
            return false;
        }
        return true;
    }
    return completeMove(runId, target, job);
}

bool RunService::completeMove(qint64 runId, const QString &target, const QJsonObject &job) {
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    const QString from = run->target;
    QJsonObject execution = run->execution;
    if (isLocalTarget(target)) {
        execution.remove(QStringLiteral("job"));
    } else {
        QJsonObject j = job;
        if (j.isEmpty()) {
            j = execution.value(QStringLiteral("job")).toObject();
            j.remove(QStringLiteral("partition")); // the partitions of one cluster mean nothing on another
        }
        execution.insert(QStringLiteral("job"), j);
    }
    if (!store_.setRunTarget(runId, target, execution)) return fail(store_.errorString());
    const bool draft = run->state == RunState::Draft || run->state == RunState::Queued;
    const QDir checkpoints(QDir(ws_.runDirectory(runId)).filePath(QStringLiteral("checkpoints")));
    const QStringList saved = checkpoints.entryList({QStringLiteral("*.pt")}, QDir::Files, QDir::Name);
    const QString note =
        draft ? tr("Moved from %1 to %2 before it started.").arg(from, target)
        : saved.isEmpty()
            ? tr("Moved from %1 to %2; no checkpoint was saved, so it starts from the beginning there.")
                  .arg(from, target)
            : tr("Moved from %1 to %2; it continues there from checkpoint %3.").arg(from, target, saved.last());
    store_.addMessage(runId, note);
    Q_EMIT runMessage(runId, note);
    if (!draft && !resume(runId)) {
        const QString why = error_;
        store_.setRunTarget(runId, from, run->execution); // stays where it stopped
        return fail(tr("Run %1 could not continue on %2: %3").arg(runId).arg(target, why));
    }
    Q_EMIT runMoved(runId, from, target);
    return true;
}

void RunService::learnFrom(qint64 runId, const QJsonObject &finished) {
    const double stepsPerSecond = finished.value(QStringLiteral("steps_per_s")).toDouble();
    const auto run = store_.run(runId);
    if (!(stepsPerSecond > 0) || !run || run->architectureVersionId <= 0) return;
    const auto version = store_.architectureVersion(run->architectureVersionId);
    if (!version) return;
    ObservedRun observed;
    observed.runId = runId;
    observed.spec = QJsonDocument::fromJson(version->specJson).object();
    observed.config = run->config;
    observed.execution = run->execution;
    observed.target = isLocalTarget(run->target) ? QStringLiteral("local") : run->target;
    observed.measuredStepSeconds = 1.0 / stepsPerSecond;
    QString ignored; // no profile yet, or a server target: nothing to learn
    if (!observed.target.startsWith(QLatin1String("server:"))) observeFinishedRun(ws_, observed, &ignored);
}

RunService::~RunService() {
    // Open prompts are declined and running remote operations aborted, so that nothing waits on this thread; then
    // controllers and managers (their workers live on the links' threads) go, then the links.
    for (ClusterLink *link : links_->links())
        link->shutdown();
    for (const auto &c : std::as_const(sweeps_))
        delete c.data();
    for (const auto &race : std::as_const(races_))
        delete race.data(); // its executors' workers live on the links' threads too
    qDeleteAll(clusters_);
    clusters_.clear();
    qDeleteAll(servers_);
    servers_.clear();
    delete local_;
    local_ = nullptr;
    delete links_;
}

bool RunService::fail(const QString &message) {
    error_ = message;
    return false;
}

void RunService::setEnginePath(const QString &path) {
    enginePath_ = path;
    if (local_) static_cast<LocalExecutor *>(local_->executor())->setEnginePath(path);
    for (const auto &c : std::as_const(sweeps_))
        if (c) c->setEnginePath(path);
}

void RunService::setClusterPollIntervals(int eventsMs, int schedulerMs) {
    eventsMs_ = eventsMs;
    schedulerMs_ = schedulerMs;
    for (RunManager *m : std::as_const(clusters_))
        static_cast<ClusterExecutor *>(m->executor())->setPollIntervals(eventsMs, schedulerMs);
}

void RunService::setClusterMaxContinuations(int count) {
    maxContinuations_ = count;
    for (RunManager *m : std::as_const(clusters_))
        static_cast<ClusterExecutor *>(m->executor())->setMaxContinuations(count);
}

void RunService::connectManager(RunManager *manager) {
    connect(manager, &RunManager::runStateChanged, this, &RunService::runStateChanged);
    connect(manager, &RunManager::runEnded, this, &RunService::runEnded);
    connect(manager, &RunManager::metricsAppended, this, &RunService::metricsAppended);
    connect(manager, &RunManager::eventReceived, this, &RunService::eventReceived);
}

void RunService::connectClusterExecutor(ClusterExecutor *executor) {
    const QString cluster = executor->profile().name;
    connect(executor, &ClusterExecutor::jobSubmitted, this,
            [this, cluster](qint64 runId, const QString &jobId, bool continuation) {
                ClusterJobStore(ws_).recordSubmission(runId, cluster, jobId, continuation);
                Q_EMIT clusterJobChanged(runId);
            });
    connect(executor, &ClusterExecutor::jobPhaseChanged, this,
            [this, cluster](qint64 runId, const QString &jobId, const QString &phase, const QString &reason) {
                ClusterJobStore(ws_).updatePhase(runId, jobId, phase, reason, cluster);
                Q_EMIT clusterJobChanged(runId);
            });
    connect(executor, &ClusterExecutor::message, this, [this](qint64 runId, const QString &text) {
        store_.addMessage(runId, text);
        Q_EMIT runMessage(runId, text);
    });
    connect(executor, &ClusterExecutor::datasetStaging, this, &RunService::datasetStaging);
    connect(executor, &ClusterExecutor::cancelFailed, this, [this](qint64 runId, const QString &error) {
        const QString text = tr("The cluster did not cancel the job: %1").arg(error);
        store_.addMessage(runId, text);
        Q_EMIT runMessage(runId, text);
        Q_EMIT cancelFailed(runId, error);
    });
}

RunManager *RunService::localManager() {
    if (!local_) {
        auto *executor = new LocalExecutor;
        executor->setEnginePath(enginePath_);
        executor->setDetached(detachedLocal_);
        local_ = new RunManager(ws_, executor, this);
        connectManager(local_);
    }
    return local_;
}

RunManager *RunService::clusterManager(const QString &name) {
    const auto profile = ClusterStore(ws_).profile(name);
    if (!profile) {
        fail(tr("Unknown target '%1': the workspace has no such cluster profile.").arg(name));
        return nullptr;
    }
    if (RunManager *existing = clusters_.value(name)) {
        auto *executor = static_cast<ClusterExecutor *>(existing->executor());
        bool busy = false;
        for (const Run &r : store_.runs())
            busy = busy || existing->isActive(r.id);
        if (executor->profile() == *profile || busy) return existing;
        clusters_.remove(name); // the profile changed and nothing runs with the old one
        delete existing;
    }
    auto *executor = new ClusterExecutor(*profile, links_->link(*profile));
    executor->setPollIntervals(eventsMs_, schedulerMs_);
    executor->setMaxContinuations(maxContinuations_);
    auto *manager = new RunManager(ws_, executor, this);
    connectManager(manager);
    connectClusterExecutor(executor);
    clusters_.insert(name, manager);
    return manager;
}

void RunService::addClassServer(const ClassServer &server) {
    servers_.remove(server.name); // signed in again (another token): a new executor; nothing of the old one runs
    classServers_.insert(server.name, server);
}

QList<ClassServer> RunService::classServers() const { return classServers_.values(); }

bool RunService::publishOnServer(qint64 runId, const QJsonObject &options,
                                 std::function<void(const QJsonObject &, const QString &)> done) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (!isClassServerTarget(run->target)) return fail(tr("Run %1 did not run on a class server.").arg(runId));
    if (run->state != RunState::Finished) return fail(tr("Only a finished run can be published."));
    RunManager *manager = serverManager(run->target);
    if (!manager) return false;
    static_cast<ServerExecutor *>(manager->executor())->publish(ws_.runDirectory(runId), options, std::move(done));
    return true;
}

RunManager *RunService::serverManager(const QString &target) {
    const QString name = classServerName(target);
    if (RunManager *existing = servers_.value(name)) return existing;
    if (!classServers_.contains(name)) {
        fail(tr("Not signed in to the class server %1 (File > Connect to class server).").arg(name));
        return nullptr;
    }
    auto *manager = new RunManager(ws_, new ServerExecutor(classServers_.value(name)), this);
    connectManager(manager);
    servers_.insert(name, manager);
    return manager;
}

RunManager *RunService::remoteManager(const QString &target) {
    return isClassServerTarget(target) ? serverManager(target) : clusterManager(target);
}

RunManager *RunService::managerFor(const Run &run) {
    if (RunManager *following = followingManager(run.id)) return following;
    return isLocalTarget(run.target) ? localManager() : remoteManager(run.target);
}

RunManager *RunService::followingManager(qint64 runId) const {
    if (local_ && local_->isActive(runId)) return local_;
    for (RunManager *m : clusters_)
        if (m->isActive(runId)) return m;
    for (RunManager *m : servers_)
        if (m->isActive(runId)) return m;
    for (const auto &c : sweeps_)
        if (c && c->runManager()->isActive(runId)) return c->runManager();
    return nullptr;
}

std::optional<Run> RunService::createRun(const NewRun &n) {
    error_.clear();
    if (isClassServerTarget(n.target)) {
        const QString name = classServerName(n.target);
        if (!classServers_.contains(name))
            return fail(tr("Not signed in to the class server %1 (File > Connect to class server).").arg(name)),
                   std::nullopt;
        const QString remote = classServerRemoteTarget(n.target);
        if (remote != QLatin1String("local") && !classServers_.value(name).clusters.contains(remote))
            return fail(tr("The class server %1 has no cluster '%2'.").arg(name, remote)), std::nullopt;
    } else if (!isLocalTarget(n.target)) {
        if (!ClusterStore(ws_).profile(n.target))
            return fail(tr("Unknown target '%1': the workspace has no such cluster profile.").arg(n.target)),
                   std::nullopt;
        const QJsonValue job = n.execution.value(QStringLiteral("job"));
        if (!job.isUndefined() && !job.isObject()) return fail(tr("job: expected an object")), std::nullopt;
        QString error;
        if (!remote::jobRequestFromJson(job.toObject(), &error)) return fail(error), std::nullopt;
    }
    QString architecture = n.architectureName;
    if (architecture.isEmpty()) architecture = n.spec.value(QStringLiteral("name")).toString();
    if (architecture.isEmpty()) architecture = QStringLiteral("network");
    const auto run = store_.createRunWithSpec(
        n.project.isEmpty() ? QStringLiteral("Default") : n.project, n.spec, architecture, n.name, n.config,
        isLocalTarget(n.target) ? QStringLiteral("local") : n.target, n.execution);
    if (!run) return fail(store_.errorString()), std::nullopt;
    Q_EMIT runCreated(run->id);
    return run;
}

bool RunService::start(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    RunManager *manager = managerFor(*run);
    if (!manager) return false;
    if (auto *server = qobject_cast<ServerExecutor *>(manager->executor())) {
        QString project;
        for (const Project &p : store_.projects())
            if (p.id == run->projectId) project = p.name;
        server->setRunLabels(runId, project, run->name, classServerRemoteTarget(run->target));
    }
    return manager->startRun(runId) || fail(manager->errorString());
}

bool RunService::cancel(qint64 runId) {
    error_.clear();
    if (const QPointer<StartRace> race = races_.value(runId); race && !race->isDecided()) {
        race->cancel();
        return true;
    }
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (RunManager *following = followingManager(runId))
        return following->cancel(runId) || fail(following->errorString());
    if (run->state == RunState::Running && !isLocalTarget(run->target)) {
        RunManager *manager = remoteManager(run->target);
        if (!manager) return false;
        // Follow the job first, so that the cancel reaches the scheduler and the end is recorded when it confirms.
        if (manager->adopt(runId)) return manager->cancel(runId) || fail(manager->errorString());
        if (QFile::exists(ClusterJobRecord::path(ws_.runDirectory(runId))))
            return fail(tr("Cannot reach the job of run %1 to cancel it: %2").arg(runId).arg(manager->errorString()));
        // No job was ever recorded (submission never happened): nothing runs, the run just ends.
    }
    RunManager *manager = isLocalTarget(run->target) ? localManager() : remoteManager(run->target);
    if (!manager) manager = localManager();
    if (run->state == RunState::Running && isLocalTarget(run->target)) manager->reattach();
    return manager->cancel(runId) || fail(manager->errorString());
}

bool RunService::resume(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (isActive(runId)) return fail(tr("Run %1 is still running.").arg(runId));
    RunManager *manager = managerFor(*run);
    if (!manager) return false;
    return manager->resume(runId) || fail(manager->errorString());
}

bool RunService::adopt(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (isActive(runId)) return true;
    if (isLocalTarget(run->target)) {
        localManager()->reattach();
        return true;
    }
    RunManager *manager = remoteManager(run->target);
    if (!manager) return false;
    return manager->adopt(runId) || fail(manager->errorString());
}

int RunService::followAll() {
    int followed = localManager()->reattach();
    for (const Run &run : store_.runs()) {
        if (run.state != RunState::Running || isLocalTarget(run.target) || isActive(run.id)) continue;
        // Runs on a class server are followed once the user signs in there.
        if (isClassServerTarget(run.target) && !classServers_.contains(classServerName(run.target))) continue;
        if (adopt(run.id)) {
            ++followed;
        } else {
            const QString text = tr("Cannot follow the cluster job: %1").arg(error_);
            store_.addMessage(run.id, text);
            Q_EMIT runMessage(run.id, text);
        }
    }
    return followed;
}

void RunService::settleLocalRuns() { localManager()->reattach(); }

bool RunService::deleteRun(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (isActive(runId) || run->state == RunState::Running || run->state == RunState::Queued ||
        run->state == RunState::Resumed || RunManager::enginePidAlive(ws_.runDirectory(runId)))
        return fail(tr("Run %1 is %2; cancel it before deleting it.").arg(runId).arg(runStateName(run->state)));
    if (!store_.deleteRun(runId)) return fail(store_.errorString());
    Q_EMIT runDeleted(runId);
    return true;
}

bool RunService::isActive(qint64 runId) const { return followingManager(runId) != nullptr; }

ProcessStatus RunService::processStatus(qint64 runId) const {
    RunManager *m = followingManager(runId);
    return m ? m->executor()->status(runId) : ProcessStatus::NotRunning;
}

int RunService::activeRunCount() const {
    int count = 0;
    for (const Run &run : RunStore(ws_).runs())
        if (processStatus(run.id) != ProcessStatus::NotRunning) ++count;
    return count;
}

sweep::SweepController *RunService::adoptController(sweep::SweepController *controller) {
    controller->setParent(this);
    controller->setEnginePath(enginePath_);
    connectManager(controller->runManager());
    sweeps_.append(controller);
    return controller;
}

std::optional<qint64> RunService::createSweep(const sweep::SweepDefinition &definition) {
    error_.clear();
    sweep::SweepController controller(ws_);
    controller.setClusterLinks(links_);
    const auto id = controller.create(definition);
    if (!id) fail(controller.errorString());
    return id;
}

sweep::SweepController *RunService::startSweep(const sweep::SweepDefinition &definition) {
    error_.clear();
    auto *controller = new sweep::SweepController(ws_);
    controller->setClusterLinks(links_);
    const auto id = controller->create(definition); // also loads it
    if (!id) {
        fail(controller->errorString());
        delete controller;
        return nullptr;
    }
    adoptController(controller);
    for (ClusterExecutor *cluster : controller->executor()->clusters())
        connectClusterExecutor(cluster);
    Q_EMIT sweepStarted(*id); // before the first trials start, so that views see them
    if (!controller->start()) {
        fail(controller->errorString());
        sweeps_.removeAll(controller);
        delete controller;
        return nullptr;
    }
    return controller;
}

sweep::SweepController *RunService::controlSweep(qint64 sweepId) {
    error_.clear();
    if (auto *live = sweepController(sweepId)) return live;
    auto *controller = new sweep::SweepController(ws_);
    controller->setClusterLinks(links_);
    if (!controller->load(sweepId)) {
        fail(controller->errorString());
        delete controller;
        return nullptr;
    }
    adoptController(controller);
    for (ClusterExecutor *cluster : controller->executor()->clusters())
        connectClusterExecutor(cluster);
    Q_EMIT sweepStarted(sweepId); // before the first trials start, so that views see them
    if (!controller->start()) {
        fail(controller->errorString());
        sweeps_.removeAll(controller);
        delete controller;
        return nullptr;
    }
    return controller;
}

sweep::SweepController *RunService::sweepController(qint64 sweepId) const {
    for (const auto &c : sweeps_)
        if (c && c->sweepId() == sweepId) return c;
    return nullptr;
}

namespace {

bool isEndedSweep(const QString &state) {
    return state == QLatin1String("completed") || state == QLatin1String("stopped") || state == QLatin1String("failed");
}

} // namespace

std::optional<sweep::SweepRow> RunService::storedSweep(qint64 sweepId) {
    sweep::SweepStore store(ws_);
    auto row = store.sweep(sweepId);
    if (!row) fail(store.errorString());
    return row;
}

bool RunService::pauseSweep(qint64 sweepId) {
    error_.clear();
    if (auto *live = sweepController(sweepId); live && !live->isFinished()) {
        if (live->state() != QLatin1String("running"))
            return fail(tr("Sweep %1 is %2, not running.").arg(sweepId).arg(live->state()));
        live->pause();
        return true;
    }
    const auto row = storedSweep(sweepId);
    if (!row) return false;
    if (!sweep::SweepStore(ws_).compareAndSetSweepState(sweepId, QStringLiteral("running"), QStringLiteral("paused")))
        return fail(tr("Sweep %1 is %2, not running.").arg(sweepId).arg(row->state));
    return true;
}

bool RunService::continueSweep(qint64 sweepId) {
    error_.clear();
    if (auto *live = sweepController(sweepId); live && !live->isFinished()) {
        live->resume();
        return true;
    }
    const auto row = storedSweep(sweepId);
    if (!row) return false;
    if (isEndedSweep(row->state))
        return fail(tr("Sweep %1 is %2 and cannot be continued.").arg(sweepId).arg(row->state));
    sweep::SweepStore store(ws_);
    if (const qint64 pid = sweep::SweepController::livePid(*row); pid > 0) {
        if (row->state == QLatin1String("paused") &&
            store.compareAndSetSweepState(sweepId, QStringLiteral("paused"), QStringLiteral("running")))
            return true; // the live controller continues when it sees the state
        return fail(tr("Sweep %1 is being run by process %2.").arg(sweepId).arg(pid));
    }
    if (row->state == QLatin1String("paused")) store.setSweepState(sweepId, QStringLiteral("running"));
    return controlSweep(sweepId) != nullptr;
}

bool RunService::stopSweep(qint64 sweepId) {
    error_.clear();
    if (auto *live = sweepController(sweepId); live && !live->isFinished()) {
        live->stop();
        return true;
    }
    const auto row = storedSweep(sweepId);
    if (!row) return false;
    if (isEndedSweep(row->state)) return fail(tr("Sweep %1 is %2 already.").arg(sweepId).arg(row->state));
    sweep::SweepStore(ws_).setSweepState(sweepId, QStringLiteral("stopping"));
    if (sweep::SweepController::livePid(*row) > 0) return true; // its controller stops it
    return controlSweep(sweepId) != nullptr;                    // takes control, sees "stopping", stops
}

} // namespace diamond::app
