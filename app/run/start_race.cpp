#include "app/run/start_race.h"

#include "app/cluster/cluster_executor.h"
#include "app/cluster/cluster_job_record.h"
#include "app/cluster/cluster_run.h"
#include "app/run/run_manager.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "remote/scheduler.h"

#include <QDir>
#include <QFile>

namespace diamond::app {

namespace {
QString raceDir(const QString &runDir, const QString &cluster) {
    return QDir(runDir).filePath(QStringLiteral("race/") + cluster);
}
} // namespace

StartRace::StartRace(RunService &service, qint64 runId, const QStringList &clusters, QObject *parent)
    : QObject(parent), service_(service), runId_(runId), clusters_(clusters) {}

StartRace::~StartRace() = default; // the executors are children

bool StartRace::start(QString *error) {
    Workspace &ws = service_.workspace();
    RunStore store(ws);
    const auto run = store.run(runId_);
    if (!run) return *error = store.errorString(), false;
    if (run->state != RunState::Draft && run->state != RunState::Queued)
        return *error = tr("Run %1 has started already; only a new run can race.").arg(runId_), false;
    if (clusters_.size() < 2) return *error = tr("A race needs at least two clusters."), false;
    if (run->state == RunState::Draft &&
        !store.transition(runId_, RunState::Queued,
                          tr("submitted to %1; the first to start keeps the run").arg(clusters_.join(u", "))))
        return *error = store.errorString(), false;
    const QString runDir = ws.runDirectory(runId_);
    for (const QString &cluster : std::as_const(clusters_)) {
        RunManager *manager = service_.clusterManager(cluster);
        QString why;
        ClusterExecutor *executor =
            manager ? makeClusterExecutor(ws, cluster, run->execution, service_.clusterLinks(), &why) : nullptr;
        if (!manager) why = service_.errorString();
        if (!executor) {
            failures_.insert(cluster, why);
            continue;
        }
        executor->setParent(this);
        executors_.insert(cluster, executor);
        service_.connectClusterExecutor(executor);
        connect(executor, &ClusterExecutor::jobSubmitted, this, [this, cluster](qint64 id) {
            if (id == runId_ && !submitted_.contains(cluster)) submitted_ << cluster;
        });
        connect(executor, &ClusterExecutor::jobPhaseChanged, this,
                [this, cluster](qint64 id, const QString &, const QString &phase) {
                    if (id == runId_) onPhase(cluster, phase);
                });
        connect(executor, &Executor::processExited, this,
                [this, cluster](qint64 id, int, bool crashed, bool cancelled, const QString &message) {
                    if (id == runId_) onExit(cluster, crashed, cancelled, message);
                });
        // Its own folder: the candidates never write the same events file or job record.
        const QString dir = raceDir(runDir, cluster);
        QDir().mkpath(dir);
        ExecutionRequest request = manager->requestFor(*run, false);
        for (const QString &name : {QStringLiteral("spec.json"), QStringLiteral("run.json")}) {
            QFile::remove(QDir(dir).filePath(name));
            QFile::copy(QDir(runDir).filePath(name), QDir(dir).filePath(name));
        }
        request.runDir = dir;
        request.specPath = QDir(dir).filePath(QStringLiteral("spec.json"));
        request.configPath = QDir(dir).filePath(QStringLiteral("run.json"));
        if (!request.dataError.isEmpty() || !executor->start(request)) {
            failures_.insert(cluster, request.dataError.isEmpty() ? executor->errorString() : request.dataError);
            executors_.remove(cluster);
            executor->deleteLater();
        }
    }
    if (executors_.isEmpty()) {
        QStringList reasons;
        for (auto it = failures_.cbegin(); it != failures_.cend(); ++it)
            reasons << it.key() + QStringLiteral(": ") + it.value();
        *error = tr("No cluster could take run %1: %2").arg(runId_).arg(reasons.join(u"; "));
        store.setRunResult(runId_, {}, {}, *error);
        store.transition(runId_, RunState::Failed, *error);
        over_ = true;
        return false;
    }
    return true;
}

void StartRace::onPhase(const QString &cluster, const QString &phase) {
    if (!over_ && phase == remote::jobPhaseName(remote::JobPhase::Running)) win(cluster);
}

void StartRace::onExit(const QString &cluster, bool crashed, bool cancelled, const QString &message) {
    ClusterExecutor *executor = executors_.take(cluster);
    if (executor) executor->deleteLater();
    if (over_) return settleIfDone();
    if (!cancelled && submitted_.contains(cluster) && !crashed) {
        // Its job ran and ended between two polls: it started first all the same.
        executors_.insert(cluster, executor);
        win(cluster);
        return;
    }
    failures_.insert(cluster, message.isEmpty() ? tr("the job ended before it started") : message);
    if (!executors_.isEmpty()) return;
    QStringList reasons;
    for (auto it = failures_.cbegin(); it != failures_.cend(); ++it)
        reasons << it.key() + QStringLiteral(": ") + it.value();
    finish(tr("No cluster could take run %1: %2").arg(runId_).arg(reasons.join(u"; ")), false);
}

void StartRace::win(const QString &cluster) {
    over_ = true;
    winner_ = cluster;
    Workspace &ws = service_.workspace();
    const QString runDir = ws.runDirectory(runId_);
    for (auto it = executors_.cbegin(); it != executors_.cend(); ++it)
        if (it.key() != cluster) it.value()->cancel(runId_); // their processExited deletes them
    if (ClusterExecutor *winner = executors_.take(cluster)) {
        winner->abandon(runId_, {}); // stop following here; the run's own manager adopts the job below
        winner->deleteLater();
    }
    settleIfDone();
    // The winner's job record and events become the run's own.
    const QString dir = raceDir(runDir, cluster);
    for (const QString &name : {QStringLiteral("cluster-job.json"), QStringLiteral("events.jsonl")}) {
        QFile::remove(QDir(runDir).filePath(name));
        if (QFile::exists(QDir(dir).filePath(name))) QFile::copy(QDir(dir).filePath(name), QDir(runDir).filePath(name));
    }
    RunStore store(ws);
    const auto run = store.run(runId_);
    if (!run || !store.setRunTarget(runId_, cluster, run->execution) ||
        !store.transition(runId_, RunState::Running, tr("%1 started first").arg(cluster))) {
        Q_EMIT lost(runId_, store.errorString());
        return;
    }
    store.addMessage(runId_, tr("Submitted to %1; %2 started first and keeps the run, the other jobs are cancelled.")
                                 .arg(clusters_.join(u", "), cluster));
    if (!service_.adopt(runId_)) {
        store.addMessage(runId_, tr("Cannot follow the job on %1: %2").arg(cluster, service_.errorString()));
        Q_EMIT lost(runId_, service_.errorString());
        return;
    }
    Q_EMIT won(runId_, cluster);
}

void StartRace::cancel() {
    if (over_) return;
    for (ClusterExecutor *e : std::as_const(executors_))
        e->cancel(runId_);
    finish(tr("cancelled before any cluster started it"), true);
}

void StartRace::finish(const QString &error, bool cancelled) {
    over_ = true;
    RunStore store(service_.workspace());
    store.setRunResult(runId_, {}, {}, error);
    store.transition(runId_, cancelled ? RunState::Cancelled : RunState::Failed, error);
    Q_EMIT lost(runId_, error);
    settleIfDone();
}

void StartRace::settleIfDone() {
    if (over_ && executors_.isEmpty()) deleteLater(); // the losers' cancels are confirmed
}

} // namespace diamond::app
