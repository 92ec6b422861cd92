#include "app/sweep/sweep_controller.h"

#include "app/cluster/cluster_run.h"
#include "app/cluster/cluster_store.h"
#include "app/run/event_log.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTimer>

#include <cmath>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#include <utility>

namespace diamond::app::sweep {

namespace {

constexpr int kMaxRestarts = 2;

QByteArray processCommand(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().split('\0').value(0);
}

TrialPhase phaseOf(const QString &state) {
    if (state == QLatin1String("paused")) return TrialPhase::Paused;
    if (state == QLatin1String("completed")) return TrialPhase::Completed;
    if (state == QLatin1String("failed")) return TrialPhase::Failed;
    if (state == QLatin1String("stopped")) return TrialPhase::Stopped;
    return TrialPhase::Running; // pending, running
}

bool isEnded(const QString &state) {
    return state == QLatin1String("completed") || state == QLatin1String("stopped") || state == QLatin1String("failed");
}

} // namespace

// --- TrialExecutor ---

TrialExecutor::TrialExecutor(QObject *parent) : Executor(parent), local_(new PackingLocalExecutor(this)) {
    connectInner(local_);
}

void TrialExecutor::connectInner(Executor *inner) {
    connect(inner, &Executor::statusChanged, this, &Executor::statusChanged);
    connect(inner, &Executor::processExited, this,
            [this](qint64 runId, int exitCode, bool crashed, bool cancelRequested, const QString &err) {
                const bool clean = exitCode == 0 && !crashed;
                if (clean) clean_.insert(runId);
                if (crashed && !clusters_.isEmpty() && !submitted_.contains(runId)) startFailed_.insert(runId);
                const int reported =
                    clean && !cancelRequested && pause_.contains(runId) ? kPreemptedExitCode : exitCode;
                Q_EMIT processExited(runId, reported, crashed, cancelRequested, err);
            });
}

ClusterExecutor *TrialExecutor::cluster(const QString &name) const {
    for (ClusterExecutor *c : clusters_)
        if (c->profile().name == name) return c;
    return nullptr;
}

void TrialExecutor::addCluster(ClusterExecutor *executor) {
    if (!executor) return;
    executor->setParent(this);
    clusters_.append(executor);
    connectInner(executor);
    connect(executor, &ClusterExecutor::jobSubmitted, this,
            [this](qint64 runId, const QString &, bool) { submitted_.insert(runId); });
}

QString TrialExecutor::route(qint64 runId) const {
    return route_.value(runId, clusters_.isEmpty() ? QString() : clusters_.first()->profile().name);
}

Executor *TrialExecutor::inner(qint64 runId) const {
    if (clusters_.isEmpty()) return local_;
    ClusterExecutor *c = cluster(route(runId));
    return c ? c : clusters_.first();
}

void TrialExecutor::starting(qint64 runId) {
    clean_.remove(runId);
    submitted_.remove(runId);
    startFailed_.remove(runId);
}

bool TrialExecutor::startBatch(const QList<ExecutionRequest> &requests) {
    for (const ExecutionRequest &r : requests)
        starting(r.runId);
    if (!clusters_.isEmpty()) { // no packing on clusters: each run to its own target
        bool ok = true;
        for (const ExecutionRequest &r : requests)
            if (!inner(r.runId)->start(r)) {
                ok = false;
                error_ = inner(r.runId)->errorString();
            }
        return ok;
    }
    const bool ok = local_->startBatch(requests);
    error_ = local_->errorString();
    return ok;
}

void TrialExecutor::setPauseOnSuccess(qint64 runId, bool pause) {
    if (pause)
        pause_.insert(runId);
    else
        pause_.remove(runId);
}

bool TrialExecutor::adopt(const ExecutionRequest &request) {
    starting(request.runId);
    submitted_.insert(request.runId); // its job exists
    const bool ok = inner(request.runId)->adopt(request);
    error_ = inner(request.runId)->errorString();
    return ok;
}

bool TrialExecutor::start(const ExecutionRequest &request) {
    starting(request.runId);
    const bool ok = inner(request.runId)->start(request);
    error_ = inner(request.runId)->errorString();
    return ok;
}

// --- SweepController ---

SweepController::SweepController(Workspace &workspace, QObject *parent)
    : QObject(parent), ws_(workspace), runs_(workspace), store_(workspace), executor_(new TrialExecutor),
      manager_(new RunManager(workspace, executor_, this)), poll_(new QTimer(this)) {
    connect(manager_, &RunManager::runEnded, this, &SweepController::onRunEnded);
    connect(manager_, &RunManager::metricsAppended, this, &SweepController::onMetrics);
    poll_->setInterval(1000);
    connect(poll_, &QTimer::timeout, this, &SweepController::poll);
}

SweepController::~SweepController() {
    // Hand the sweep back: a later controller (another process) may take it without waiting for this pid.
    if (started_ && !isFinished() && sweepId_ > 0) {
        if (auto row = store_.sweep(sweepId_)) {
            QJsonObject s = row->stateJson;
            s.remove(QStringLiteral("controller_pid"));
            store_.setSweepState(sweepId_, row->state, s);
        }
    }
}

void SweepController::setEnginePath(const QString &path) { executor_->local()->setEnginePath(path); }

void SweepController::setPollInterval(int ms) { poll_->setInterval(ms); }

bool SweepController::fail(const QString &message) {
    error_ = message;
    return false;
}

bool SweepController::isFinished() const { return isEnded(state_); }

QString SweepController::runName(int index) const {
    return tr("%1 [sweep %2, trial %3]").arg(def_.name).arg(sweepId_).arg(index);
}

qint64 SweepController::livePid(const SweepRow &sweep) {
    const qint64 pid = sweep.stateJson.value(QStringLiteral("controller_pid")).toInteger();
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return 0;
    const QByteArray cmd = processCommand(pid);
    const QByteArray expected = sweep.stateJson.value(QStringLiteral("controller_cmd")).toString().toUtf8();
    if (cmd.isEmpty()) return QFile::exists(QStringLiteral("/proc/self")) ? 0 : pid; // a zombie, or no /proc
    return cmd == expected ? pid : 0;
}

std::optional<qint64> SweepController::create(const SweepDefinition &definition) {
    error_.clear();
    if (!definition.isLocal())
        for (const QString &target : definition.allTargets())
            if (!ClusterStore(ws_).profile(target))
                return fail(tr("target: the workspace has no cluster profile named \"%1\"").arg(target)), std::nullopt;
    auto project = runs_.projectByName(definition.project);
    if (!project) project = runs_.createProject(definition.project);
    if (!project) return fail(runs_.errorString()), std::nullopt;
    QString archName = definition.spec.value(QStringLiteral("name")).toString();
    if (archName.isEmpty()) archName = definition.name;
    const auto archId = runs_.ensureArchitecture(project->id, archName);
    const auto version = archId ? runs_.addArchitectureVersion(*archId, definition.spec) : std::nullopt;
    if (!version) return fail(runs_.errorString()), std::nullopt;
    const auto id = store_.createSweep(project->id, version->id, definition);
    if (!id) return fail(store_.errorString()), std::nullopt;
    if (!load(*id)) return std::nullopt;
    return id;
}

bool SweepController::load(qint64 sweepId) {
    error_.clear();
    const auto row = store_.sweep(sweepId);
    if (!row) return fail(store_.errorString());
    QString error;
    auto def = SweepDefinition::fromJson(row->document, {}, &error);
    if (!def) return fail(tr("Sweep %1 has an invalid stored definition: %2").arg(sweepId).arg(error));
    def_ = *def;
    if (!def_.isLocal() && executor_->clusters().isEmpty()) {
        for (const QString &target : def_.allTargets()) {
            if (!ClusterStore(ws_).profile(target))
                return fail(tr("target: the workspace has no cluster profile named \"%1\"").arg(target));
            ClusterExecutor *cluster = makeClusterExecutor(ws_, target, def_.execution(target), links_, &error);
            if (!cluster) return fail(tr("target \"%1\": %2").arg(target, error));
            executor_->addCluster(cluster);
            connect(cluster, &ClusterExecutor::jobSubmitted, this,
                    [this, target](qint64 runId, const QString &jobId, bool) {
                        // The trial's job ids, in the database (info_json.jobs; "job_targets" says where, for a
                        // multi-cluster sweep): they outlive this process.
                        auto t = store_.trialByRun(runId);
                        if (!t) return;
                        QJsonArray jobs = t->info.value(QStringLiteral("jobs")).toArray();
                        jobs.append(jobId);
                        t->info.insert(QStringLiteral("jobs"), jobs);
                        if (def_.isMultiTarget()) {
                            QJsonArray where = t->info.value(QStringLiteral("job_targets")).toArray();
                            where.append(target);
                            t->info.insert(QStringLiteral("job_targets"), where);
                        }
                        store_.updateTrial(*t);
                    });
        }
        setUpTargets();
    }
    algo_ = SweepAlgorithm::create(def_.space, def_.algorithm, def_.seed, &error);
    if (!algo_) return fail(error);
    sweepId_ = sweepId;
    projectId_ = row->projectId;
    if (const auto version = runs_.architectureVersion(row->architectureVersionId))
        architectureId_ = version->architectureId;
    state_ = row->state;
    for (const TrialRow &t : store_.trials(sweepId)) {
        TrialRecord r;
        r.index = t.index;
        r.params = t.params;
        r.bracket = t.info.value(QStringLiteral("bracket")).toInt();
        r.rung = t.rung;
        r.phase = phaseOf(t.state);
        const QJsonObject losses = t.info.value(QStringLiteral("losses")).toObject();
        for (auto it = losses.begin(); it != losses.end(); ++it)
            r.losses.insert(it.key().toInt(), it.value().toDouble());
        algo_->restore(r);
    }
    return true;
}

QList<TrialRow> SweepController::trials() { return store_.trials(sweepId_); }

double SweepController::usedBudget() const {
    double used = 0;
    for (const TrialRow &t : const_cast<SweepStore &>(store_).trials(sweepId_))
        used += t.budget;
    return used;
}

std::optional<TrialRow> SweepController::trialRow(int index) {
    for (const TrialRow &t : store_.trials(sweepId_))
        if (t.index == index) return t;
    return std::nullopt;
}

void SweepController::setState(const QString &state, const QString &note) {
    state_ = state;
    QJsonObject s = store_.sweep(sweepId_).value_or(SweepRow{}).stateJson;
    if (!note.isEmpty()) s.insert(QStringLiteral("note"), note);
    if (isEnded(state)) s.remove(QStringLiteral("controller_pid"));
    store_.setSweepState(sweepId_, state, s);
    Q_EMIT stateChanged(state);
    if (isEnded(state)) {
        poll_->stop();
        Q_EMIT finished(state);
    }
}

bool SweepController::start() {
    error_.clear();
    if (!algo_) return fail(tr("No sweep is loaded."));
    const auto row = store_.sweep(sweepId_);
    if (!row) return fail(store_.errorString());
    if (isEnded(row->state)) return fail(tr("Sweep %1 is %2.").arg(sweepId_).arg(row->state));
    const qint64 other = livePid(*row);
    if (other > 0 && other != QCoreApplication::applicationPid())
        return fail(tr("Sweep %1 is being run by process %2.").arg(sweepId_).arg(other));
    QJsonObject s = row->stateJson;
    s.insert(QStringLiteral("controller_pid"), QCoreApplication::applicationPid());
    s.insert(QStringLiteral("controller_cmd"), QString::fromUtf8(processCommand(QCoreApplication::applicationPid())));
    state_ = row->state;
    store_.setSweepState(sweepId_, state_, s);
    poll_->start();

    // Settle what a previous controller left behind.
    QList<qint64> deadOrphans;
    for (TrialRow t : store_.trials(sweepId_)) {
        if (t.state != QLatin1String("pending") && t.state != QLatin1String("running")) continue;
        const auto run = t.runId > 0 ? runs_.run(t.runId) : std::nullopt;
        if (!run) {
            interrupted_.append(t.index);
            continue;
        }
        if (run->state == RunState::Running && !def_.isLocal()) {
            // A cluster trial's job outlives its controller: follow it again (ClusterExecutor::adopt()).
            executor_->setRoute(run->id, run->target);
            executor_->setPauseOnSuccess(run->id,
                                         t.rung < algo_->topRung(t.info.value(QStringLiteral("bracket")).toInt()));
            if (manager_->adopt(run->id)) {
                active_.insert(run->id, Active{t.index, false, -int(run->id)});
                continue;
            }
        }
        if (run->state == RunState::Running) {
            active_.insert(run->id, Active{t.index, true, -int(run->id)}); // one slot each (conservative)
            if (!RunManager::enginePidAlive(ws_.runDirectory(run->id))) deadOrphans.append(run->id);
        } else if (run->state == RunState::Finished) {
            active_.insert(run->id, Active{t.index, false});
            handleEnd(run->id, RunState::Finished, true);
        } else if (run->state == RunState::Preempted) {
            MetricIngestor ingestor(ws_, run->id);
            ingestor.poll();
            const auto terminal = ingestor.lastTerminalEvent();
            if (terminal && terminal->value(QStringLiteral("event")).toString() == QLatin1String("finished")) {
                active_.insert(run->id, Active{t.index, false});
                handleEnd(run->id, RunState::Preempted, true);
            } else {
                interrupted_.append(t.index);
            }
        } else {
            interrupted_.append(t.index);
        }
    }
    for (qint64 runId : deadOrphans)
        settleOrphan(runId);
    started_ = true; // from here on, ends of runs schedule new work
    if (state_ == QLatin1String("stopping"))
        stop();
    else
        schedule();
    return true;
}

void SweepController::pause() {
    if (state_ != QLatin1String("running")) return;
    setState(QStringLiteral("paused"));
}

void SweepController::resume() {
    if (state_ != QLatin1String("paused")) return;
    setState(QStringLiteral("running"));
    schedule();
}

void SweepController::stop() {
    if (isFinished() || sweepId_ == 0) return;
    if (state_ != QLatin1String("stopping")) setState(QStringLiteral("stopping"));
    interrupted_.clear();
    const QList<qint64> running = active_.keys();
    for (qint64 runId : running)
        manager_->cancel(runId); // own engines end asynchronously; others at once
    for (TrialRow t : store_.trials(sweepId_)) {
        if (isEnded(t.state) || active_.contains(t.runId)) continue;
        if (t.runId > 0) {
            const auto run = runs_.run(t.runId);
            if (run &&
                (run->state == RunState::Running || run->state == RunState::Preempted ||
                 run->state == RunState::Draft || run->state == RunState::Queued || run->state == RunState::Resumed))
                manager_->cancel(t.runId);
        }
        t.state = QStringLiteral("stopped");
        t.info.insert(QStringLiteral("note"), tr("stopped with the sweep"));
        store_.updateTrial(t);
        if (algo_) algo_->markStopped(t.index);
        Q_EMIT trialEnded(t.index, t.state);
    }
    finishIfIdle();
}

std::optional<qint64> SweepController::architectureVersionFor(const QJsonObject &spec) {
    if (spec == def_.spec) {
        if (const auto row = store_.sweep(sweepId_)) return row->architectureVersionId;
    }
    const auto version = runs_.addArchitectureVersion(architectureId_, spec);
    if (!version) return fail(runs_.errorString()), std::nullopt;
    return version->id;
}

void SweepController::schedule() {
    if (!started_ || isFinished()) return;
    if (state_ != QLatin1String("running")) {
        finishIfIdle();
        return;
    }
    // One slot is one engine process: with packing, the new trials of one slot (up to trials_per_pack) are
    // started together and train one after another in one `diamond-train pack`; promotions and relaunches
    // (resumed runs) take a slot of their own.
    const int perSlot = def_.packing && def_.isLocal() ? std::max(1, def_.trialsPerPack) : 1; // no packing on clusters
    while (activeSlots() < def_.maxConcurrent && anyTargetOpen()) {
        if (!interrupted_.isEmpty()) {
            const int index = interrupted_.takeFirst();
            auto t = trialRow(index);
            const bool relaunched = t && relaunch(*t);
            ++nextPack_;
            if (t && !relaunched) {
                t->state = QStringLiteral("failed");
                t->info.insert(QStringLiteral("note"), error_);
                store_.updateTrial(*t);
                algo_->markFailed(index);
                Q_EMIT trialEnded(index, t->state);
            }
            continue;
        }
        batching_ = true;
        bool ok = true, more = true;
        while (ok && batch_.size() < perSlot) {
            const Job job = algo_->next();
            if (job.kind == Job::Wait || job.kind == Job::Done) {
                more = false;
                break;
            }
            double cost = job.budget;
            if (job.kind == Job::Promote)
                if (const auto t = trialRow(job.trial)) cost -= t->budget;
            if (def_.totalBudget > 0 && usedBudget() + cost > def_.totalBudget + 1e-9) {
                more = false;
                break;
            }
            if (job.kind == Job::Promote) {
                if (!batch_.isEmpty()) break; // the promotion takes the next slot
                batching_ = false;
                ok = promote(job);
                ++nextPack_;
                break;
            }
            ok = launchNew(job);
        }
        batching_ = false;
        ok = flushBatch() && ok;
        if (!ok) {
            setState(QStringLiteral("failed"), error_);
            return;
        }
        if (!more) break;
    }
    finishIfIdle();
}

int SweepController::activeSlots() const {
    QSet<int> packs;
    for (const Active &a : active_)
        packs.insert(a.pack);
    return int(packs.size());
}

bool SweepController::flushBatch() {
    if (batch_.isEmpty()) return true;
    const QList<qint64> ids = std::exchange(batch_, {});
    ++nextPack_;
    const int launched = manager_->startRuns(ids);
    if (launched == ids.size()) return true;
    // Runs the manager could not launch have ended (runEnded recorded their failure) or stayed unstarted.
    bool ok = true;
    for (qint64 id : ids)
        if (active_.contains(id) && !manager_->isActive(id)) {
            active_.remove(id);
            ok = false;
        }
    return ok || fail(manager_->errorString());
}

bool SweepController::launchNew(const Job &job) {
    QJsonObject spec, config;
    QString error;
    if (!def_.trialDocuments(job.params, job.budget, &spec, &config, &error))
        return fail(tr("trial %1: %2").arg(job.trial).arg(error));
    const auto version = architectureVersionFor(spec);
    if (!version) return false;
    TrialRow t;
    t.sweepId = sweepId_;
    t.index = job.trial;
    t.params = job.params;
    t.state = QStringLiteral("pending");
    t.rung = job.rung;
    t.budget = job.budget;
    t.info = QJsonObject{{QStringLiteral("bracket"), job.bracket},
                         {QStringLiteral("run_name"), runName(job.trial)},
                         {QStringLiteral("architecture_version_id"), *version}};
    const auto id = store_.insertTrial(t); // before the run exists: a crash from here on adopts the run by name
    if (!id) return fail(store_.errorString());
    t.id = *id;
    algo_->start(job);
    return relaunch(t);
}

bool SweepController::relaunch(TrialRow &t) {
    if (t.runId == 0) {
        if (const auto adopted = store_.unlinkedRunNamed(projectId_, runName(t.index))) {
            t.runId = *adopted;
        } else {
            QJsonObject spec, config;
            QString error;
            if (!def_.trialDocuments(t.params, t.budget, &spec, &config, &error))
                return fail(tr("trial %1: %2").arg(t.index).arg(error));
            const auto version = architectureVersionFor(spec);
            if (!version) return false;
            const auto run =
                runs_.createRun(projectId_, *version, runName(t.index), config, def_.target, def_.execution());
            if (!run) return fail(runs_.errorString());
            t.runId = run->id;
        }
    }
    auto run = runs_.run(t.runId);
    if (!run) return fail(runs_.errorString());
    if (def_.isMultiTarget()) {
        QString why;
        const bool fresh = run->state == RunState::Draft || run->state == RunState::Queued;
        const QString from = t.info.value(QStringLiteral("target")).toString();
        const QString target = chooseTarget(t.budget, fresh ? QString() : run->target, &why);
        if (target.isEmpty()) return fail(tr("trial %1: every target is unreachable or full").arg(t.index));
        if (target != run->target) {
            if (!runs_.setRunTarget(t.runId, target, def_.execution(target))) return fail(runs_.errorString());
            run = runs_.run(t.runId);
            if (!run) return fail(runs_.errorString());
        }
        recordPlacement(t, target, from, why, rescued_.remove(t.index));
        if (!from.isEmpty() && from != target) Q_EMIT trialMoved(t.index, from, target, why);
    }
    executor_->setRoute(t.runId, run->target);
    launched_[t.runId].start();
    launchedBudget_.insert(t.runId, t.info.value(QStringLiteral("trained_budget")).toDouble());
    t.state = QStringLiteral("running");
    if (!store_.updateTrial(t)) return fail(store_.errorString());
    if (def_.isLocal() && !QFileInfo(executor_->local()->enginePath()).isExecutable())
        return fail(tr("The training engine %1 was not found (set DIAMOND_TRAIN to its path).")
                        .arg(executor_->local()->enginePath()));
    const int top = algo_->topRung(t.info.value(QStringLiteral("bracket")).toInt());
    executor_->setPauseOnSuccess(t.runId, t.rung < top);
    active_.insert(t.runId, Active{t.index, false, nextPack_});
    Q_EMIT trialStarted(t.index, t.runId, t.rung, t.budget);
    bool ok;
    if ((run->state == RunState::Draft || run->state == RunState::Queued) && batching_) {
        batch_.append(t.runId); // started by flushBatch()
        return true;
    }
    if (run->state == RunState::Draft || run->state == RunState::Queued) {
        ok = manager_->startRun(t.runId);
    } else {
        if (!store_.setRunConfig(t.runId, def_.withBudget(run->config, t.budget))) {
            active_.remove(t.runId);
            return fail(store_.errorString());
        }
        ok = manager_->resume(t.runId);
    }
    // A failed launch has ended the run (runEnded) already, which recorded the trial's failure.
    if (!ok && active_.contains(t.runId)) {
        active_.remove(t.runId);
        return fail(manager_->errorString());
    }
    return true;
}

bool SweepController::promote(const Job &job) {
    auto t = trialRow(job.trial);
    if (!t) return fail(tr("No trial %1 in sweep %2.").arg(job.trial).arg(sweepId_));
    t->rung = job.rung;
    t->budget = job.budget;
    algo_->start(job);
    return relaunch(*t); // writes the promotion (state, rung, budget) before resuming the run
}

void SweepController::onRunEnded(qint64 runId, RunState state) {
    if (!active_.contains(runId)) return;
    const bool refusedToStart = def_.isMultiTarget() && state == RunState::Failed && executor_->failedToStart(runId);
    if (refusedToStart && !migrating_.contains(runId)) {
        const auto run = runs_.run(runId);
        const QString target = executor_->route(runId);
        targetDown(target, run ? run->exitMessage : QString());
        migrating_.insert(runId, tr("%1 could not take the trial's job (%2); it goes to another cluster")
                                     .arg(target, run ? run->exitMessage.left(200) : QString()));
    }
    if (migrating_.contains(runId) && state != RunState::Finished && !isFinished() &&
        state_ != QLatin1String("stopping")) {
        // Left its target (abandoned there or never started): resumed elsewhere, not counted as a restart.
        const QString why = migrating_.take(runId);
        const Active a = active_.take(runId);
        if (auto t = store_.trialByRun(runId)) {
            t->info.insert(QStringLiteral("note"), why);
            store_.updateTrial(*t);
        }
        interrupted_.prepend(a.trial);
        rescued_.insert(a.trial);
        schedule();
        return;
    }
    migrating_.remove(runId);
    const bool reached =
        state == RunState::Finished || (state == RunState::Preempted && executor_->exitedCleanly(runId));
    handleEnd(runId, state, reached);
}

void SweepController::handleEnd(qint64 runId, RunState state, bool reached) {
    const Active a = active_.take(runId);
    auto t = store_.trialByRun(runId);
    if (!t) return;
    const bool stopping = state_ == QLatin1String("stopping");
    if (reached) {
        learnSpeed(runId, *t);
        t->info.insert(QStringLiteral("trained_budget"), t->budget);
        const QList<MetricPoint> points = runs_.metricPoints(
            runId, def_.objective.metric, def_.objective.validation ? MetricSplit::Validation : MetricSplit::Train);
        if (points.isEmpty()) {
            t->state = QStringLiteral("failed");
            t->info.insert(QStringLiteral("note"), tr("the run reported no %1 metric").arg(def_.objective.describe()));
            algo_->markFailed(t->index);
        } else {
            const double value = points.last().value;
            const double loss = def_.objective.loss(value);
            QJsonObject losses = t->info.value(QStringLiteral("losses")).toObject();
            QJsonObject values = t->info.value(QStringLiteral("values")).toObject();
            losses.insert(QString::number(t->rung), loss);
            values.insert(QString::number(t->rung), value);
            t->info.insert(QStringLiteral("losses"), losses);
            t->info.insert(QStringLiteral("values"), values);
            t->objective = value;
            algo_->report(t->index, t->rung, loss);
            const bool top = t->rung >= algo_->topRung(t->info.value(QStringLiteral("bracket")).toInt());
            t->state = top ? QStringLiteral("completed") : QStringLiteral("paused");
            Q_EMIT trialReported(t->index, t->rung, value);
            const auto run = runs_.run(runId);
            if (!top && run && run->state == RunState::Finished) {
                // Settled as finished by another process (e.g. a reattach while no controller ran): a finished
                // run cannot be resumed, so the trial keeps its result but is not promotable.
                t->state = QStringLiteral("stopped");
                t->info.insert(QStringLiteral("note"), tr("the run was marked finished outside the sweep"));
                algo_->markStopped(t->index);
            } else if (!top && stopping) {
                manager_->cancel(runId);
                t->state = QStringLiteral("stopped");
                algo_->markStopped(t->index);
            }
        }
    } else if (state == RunState::Cancelled || stopping) {
        t->state = QStringLiteral("stopped");
        algo_->markStopped(t->index);
        if (state == RunState::Preempted) manager_->cancel(runId);
    } else {
        // Failed or preempted without reaching the budget: an engine error fails the trial; a lost engine or
        // an outside SIGTERM is resumed from the newest checkpoint (a few times at most).
        const auto run = runs_.run(runId);
        const bool engineError = state == RunState::Failed && run && run->exitCode && !a.orphan;
        const int restarts = t->info.value(QStringLiteral("restarts")).toInt();
        if (engineError || restarts >= kMaxRestarts) {
            t->state = QStringLiteral("failed");
            t->info.insert(QStringLiteral("note"), run ? run->exitMessage : QString());
            algo_->markFailed(t->index);
        } else {
            t->info.insert(QStringLiteral("restarts"), restarts + 1);
            interrupted_.append(t->index);
        }
    }
    store_.updateTrial(*t);
    if (t->state != QLatin1String("running")) Q_EMIT trialEnded(t->index, t->state);
    if (started_) schedule();
}

void SweepController::onMetrics(qint64 runId, const QList<MetricPoint> &points) {
    const auto it = active_.constFind(runId);
    if (it == active_.constEnd()) return;
    const MetricSplit split = def_.objective.validation ? MetricSplit::Validation : MetricSplit::Train;
    for (const MetricPoint &p : points)
        if (p.name == def_.objective.metric && p.split == split)
            algo_->reportIntermediate(it->trial, double(p.step), def_.objective.loss(p.value));
}

void SweepController::poll() {
    if (const auto row = store_.sweep(sweepId_)) {
        if (row->state == QLatin1String("stopping") && state_ != QLatin1String("stopping")) {
            stop();
            return;
        }
        if (row->state == QLatin1String("paused") && state_ == QLatin1String("running")) pause();
        if (row->state == QLatin1String("running") && state_ == QLatin1String("paused")) resume();
    }
    if (def_.isMultiTarget() && started_ && !isFinished()) {
        probeTargets();
        askQueueWaits();
        if (!interrupted_.isEmpty()) schedule(); // trials waiting for a target
    }
    QList<qint64> dead;
    for (auto it = active_.cbegin(); it != active_.cend(); ++it)
        if (it->orphan && !RunManager::enginePidAlive(ws_.runDirectory(it.key()))) dead.append(it.key());
    for (qint64 runId : dead)
        settleOrphan(runId);
}

void SweepController::settleOrphan(qint64 runId) {
    // The engine of a dead controller has exited: its result is the newest terminal event of this launch.
    MetricIngestor ingestor(ws_, runId);
    ingestor.poll();
    std::optional<QJsonObject> terminal = ingestor.lastTerminalEvent();
    if (terminal) {
        const QList<RunTransition> transitions = runs_.transitions(runId);
        for (auto it = transitions.crbegin(); it != transitions.crend(); ++it) {
            if (it->to != RunState::Queued && it->to != RunState::Resumed) continue;
            const QDateTime launched = QDateTime::fromString(it->at, Qt::ISODateWithMs);
            const double time = terminal->value(QStringLiteral("time")).toDouble();
            if (launched.isValid() && time > 0 && time * 1000.0 < double(launched.toMSecsSinceEpoch()) - 1000.0)
                terminal.reset(); // written by an earlier launch
            break;
        }
    }
    const QString kind = terminal ? terminal->value(QStringLiteral("event")).toString() : QString();
    QFile::remove(ws_.runDirectory(runId) + QStringLiteral("/engine.pid"));
    const auto t = store_.trialByRun(runId);
    const int top = t ? algo_->topRung(t->info.value(QStringLiteral("bracket")).toInt()) : 0;
    if (kind == QLatin1String("finished")) {
        const bool intermediate = t && t->rung < top;
        const RunState state = intermediate ? RunState::Preempted : RunState::Finished;
        runs_.transition(runId, state, tr("sweep: settled after a controller restart"),
                         intermediate ? kPreemptedExitCode : 0);
        handleEnd(runId, state, true);
    } else if (kind == QLatin1String("requeue")) {
        runs_.transition(runId, RunState::Preempted, tr("sweep: settled after a controller restart"),
                         kPreemptedExitCode);
        handleEnd(runId, RunState::Preempted, false);
    } else {
        const QString message = kind == QLatin1String("error") ? terminal->value(QStringLiteral("message")).toString()
                                                               : tr("engine process lost");
        runs_.setRunResult(runId, {}, {}, message);
        runs_.transition(runId, RunState::Failed, message);
        handleEnd(runId, RunState::Failed, false);
    }
}

void SweepController::finishIfIdle() {
    if (!started_ || isFinished() || !active_.isEmpty() || !interrupted_.isEmpty()) return;
    if (state_ == QLatin1String("running")) {
        const Job job = algo_->next();
        if (job.kind == Job::NewTrial || job.kind == Job::Promote) {
            double cost = job.budget;
            if (job.kind == Job::Promote)
                if (const auto t = trialRow(job.trial)) cost -= t->budget;
            if (!(def_.totalBudget > 0 && usedBudget() + cost > def_.totalBudget + 1e-9)) return;
        } else if (job.kind != Job::Done) {
            return;
        }
    } else if (state_ != QLatin1String("stopping")) {
        return;
    }
    // Trials never promoted end here; their runs are cancelled (checkpoints stay).
    for (TrialRow t : store_.trials(sweepId_)) {
        if (isEnded(t.state)) continue;
        if (t.runId > 0) manager_->cancel(t.runId);
        t.state = QStringLiteral("stopped");
        store_.updateTrial(t);
        algo_->markStopped(t.index);
        Q_EMIT trialEnded(t.index, t.state);
    }
    setState(state_ == QLatin1String("stopping") ? QStringLiteral("stopped") : QStringLiteral("completed"));
}

} // namespace diamond::app::sweep
