// SweepController: the placement of a multi-cluster sweep's trials (docs/sweeps.md, "Several clusters").
//
// Contract:
// - Each trial (re)starts on the target chosen by placeTrial(): not down, fewer than limits.max_in_flight_per_target
//   of the sweep's trials there, the earliest predicted finish (the scheduler's queue-wait estimate, asked in the
//   background about once a minute, plus the seconds per budget unit measured from the sweep's own trials there).
// - A target is taken out (down) when a trial's job could not be staged or submitted there, or when it has not
//   answered the polls of a trial for limits.unreachable_after_s. Its trials are then abandoned there (their job ids
//   kept in the trial's info "left_behind") and resumed on the other targets from the newest checkpoint this computer
//   has, with the events so far (ClusterExecutor seeds the new run folder); the trial keeps its index and run, so no
//   trial is lost or counted twice.
// - A down target is probed every retry interval; once it answers it is placed on again, and the jobs left behind
//   there are cancelled, so that an abandoned job does not go on training a trial that moved.
#include "app/sweep/sweep_controller.h"

#include "app/sweep/trial_placement.h"
#include "remote/scheduler.h"

#include <QDateTime>
#include <QJsonArray>
#include <QPointer>

namespace diamond::app::sweep {

void SweepController::setTargetTimings(int unreachableAfterMs, int retryMs) {
    unreachableAfterMs_ = unreachableAfterMs;
    retryMs_ = std::max(100, retryMs);
}

void SweepController::setUpTargets() {
    targets_.clear();
    if (!def_.isMultiTarget()) return;
    const int unreachableMs =
        unreachableAfterMs_ >= 0 ? unreachableAfterMs_ : int(std::lround(def_.unreachableAfterSeconds * 1000.0));
    for (ClusterExecutor *cluster : executor_->clusters()) {
        const QString name = cluster->profile().name;
        targets_.insert(name, TargetState{});
        cluster->setUnreachableAfter(unreachableMs);
        connect(cluster, &ClusterExecutor::unreachable, this,
                [this, name](qint64 runId, const QString &error) { onUnreachable(name, runId, error); });
    }
}

int SweepController::inFlightOn(const QString &target) const {
    int n = 0;
    for (auto it = active_.cbegin(); it != active_.cend(); ++it)
        if (executor_->route(it.key()) == target && !migrating_.contains(it.key())) ++n;
    return n;
}

bool SweepController::anyTargetOpen() const {
    if (!def_.isMultiTarget()) return true;
    for (auto it = targets_.cbegin(); it != targets_.cend(); ++it)
        if (!it->down && inFlightOn(it.key()) < def_.inFlightLimit()) return true;
    return false;
}

QString SweepController::chooseTarget(double budget, const QString &current, QString *reason) {
    if (!def_.isMultiTarget()) return def_.target;
    QList<TargetStanding> standings;
    for (const QString &name : def_.targets) {
        const TargetState &s = targets_[name];
        TargetStanding t;
        t.name = name;
        t.inFlight = inFlightOn(name);
        t.limit = def_.inFlightLimit();
        t.down = s.down;
        t.queueWaitSeconds = s.wait;
        if (s.unitSamples > 0) t.secondsPerUnit = s.unitSeconds;
        standings << t;
    }
    const auto placement = placeTrial(standings, budget, current);
    if (!placement) return {};
    *reason = placement->reason;
    return placement->target;
}

void SweepController::recordPlacement(TrialRow &t, const QString &target, const QString &from, const QString &reason,
                                      bool rescue) {
    QJsonArray placements = t.info.value(QStringLiteral("placements")).toArray();
    QJsonObject p{{QStringLiteral("target"), target},
                  {QStringLiteral("rung"), t.rung},
                  {QStringLiteral("at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
    if (!reason.isEmpty()) p.insert(QStringLiteral("why"), reason.left(400));
    if (rescue) p.insert(QStringLiteral("rescue"), true);
    if (!from.isEmpty() && from != target) {
        p.insert(QStringLiteral("from"), from);
        t.info.insert(QStringLiteral("moves"), t.info.value(QStringLiteral("moves")).toInt() + 1);
    }
    placements.append(p);
    t.info.insert(QStringLiteral("placements"), placements);
    t.info.insert(QStringLiteral("target"), target);
}

void SweepController::targetDown(const QString &target, const QString &why) {
    TargetState &s = targets_[target];
    s.error = why;
    if (s.down) return;
    s.down = true;
    s.downSince.start();
    Q_EMIT targetChanged(target, false, why);
}

void SweepController::onUnreachable(const QString &target, qint64, const QString &error) {
    if (!def_.isMultiTarget() || isFinished()) return;
    targetDown(target, error);
    ClusterExecutor *cluster = executor_->cluster(target);
    const QString reason = tr("%1 did not answer for %2 s (%3); the trial continues on another cluster")
                               .arg(target)
                               .arg(def_.unreachableAfterSeconds, 0, 'f', 0)
                               .arg(error.left(200));
    const QList<qint64> runs = active_.keys();
    for (qint64 runId : runs) {
        if (executor_->route(runId) != target || migrating_.contains(runId)) continue;
        migrating_.insert(runId, reason);
        const QStringList jobs = cluster ? cluster->jobIds(runId) : QStringList();
        if (!jobs.isEmpty()) {
            targets_[target].leftBehind << jobs.last();
            if (auto t = store_.trialByRun(runId)) {
                QJsonArray left = t->info.value(QStringLiteral("left_behind")).toArray();
                left.append(QJsonObject{{QStringLiteral("target"), target}, {QStringLiteral("job"), jobs.last()}});
                t->info.insert(QStringLiteral("left_behind"), left);
                store_.updateTrial(*t);
            }
        }
        if (cluster) cluster->abandon(runId, reason);
    }
}

void SweepController::probeTargets() {
    for (auto it = targets_.begin(); it != targets_.end(); ++it) {
        TargetState &s = *it;
        if (!s.down || s.probing || s.downSince.elapsed() < retryMs_) continue;
        ClusterExecutor *cluster = executor_->cluster(it.key());
        if (!cluster) continue;
        s.probing = true;
        ClusterLink *link = cluster->link();
        const QStringList leftBehind = s.leftBehind;
        QPointer<SweepController> self(this);
        const QString name = it.key();
        link->post([link, cluster, self, name, leftBehind] {
            QString why;
            bool ok = false;
            QStringList cancelled;
            if (remote::CommandRunner *runner = link->runner(&why, ClusterLink::Access::Background)) {
                const remote::CommandResult r = runner->run(QStringLiteral("true"));
                ok = r.ok();
                if (!ok) why = r.error.isEmpty() ? QString::fromUtf8(r.stderrData).trimmed() : r.error;
            }
            if (ok)
                if (remote::Scheduler *scheduler = link->scheduler(&why, ClusterLink::Access::Background))
                    for (const QString &job : leftBehind) {
                        QString ignored; // already ended there: nothing to cancel
                        scheduler->cancel(job, &ignored);
                        cancelled << job;
                    }
            // The executor lives on the controller's thread and outlives this work (its destructor waits for it).
            QMetaObject::invokeMethod(
                cluster,
                [self, name, ok, why, cancelled] {
                    if (!self) return;
                    TargetState &s = self->targets_[name];
                    s.probing = false;
                    if (!ok) {
                        s.downSince.start();
                        s.error = why;
                        return;
                    }
                    for (const QString &job : cancelled)
                        s.leftBehind.removeAll(job);
                    s.down = false;
                    s.error.clear();
                    Q_EMIT self->targetChanged(name, true, {});
                    self->schedule();
                },
                Qt::QueuedConnection);
        });
    }
}

void SweepController::askQueueWaits() {
    for (auto it = targets_.begin(); it != targets_.end(); ++it) {
        TargetState &s = *it;
        if (s.down || s.probing || (s.waitAge.isValid() && s.waitAge.elapsed() < 60000)) continue;
        ClusterExecutor *cluster = executor_->cluster(it.key());
        if (!cluster) continue;
        QString problem;
        auto job =
            remote::jobRequestFromJson(def_.execution(it.key()).value(QStringLiteral("job")).toObject(), &problem);
        if (!job) continue;
        job->applyProfile(cluster->profile());
        s.probing = true;
        s.waitAge.start();
        ClusterLink *link = cluster->link();
        QPointer<SweepController> self(this);
        const QString name = it.key();
        link->post([link, cluster, self, name, request = *job] {
            QString why;
            std::optional<qint64> wait;
            if (remote::Scheduler *scheduler = link->scheduler(&why, ClusterLink::Access::Background))
                wait = scheduler->estimatedWaitSeconds(request, &why);
            QMetaObject::invokeMethod(
                cluster,
                [self, name, wait] {
                    if (!self) return;
                    TargetState &s = self->targets_[name];
                    s.probing = false;
                    s.wait = wait ? std::optional<double>(double(*wait)) : std::nullopt;
                },
                Qt::QueuedConnection);
        });
    }
}

void SweepController::learnSpeed(qint64 runId, const TrialRow &t) {
    if (!def_.isMultiTarget() || !launched_.contains(runId)) return;
    const double units = t.budget - launchedBudget_.value(runId);
    const double seconds = double(launched_.value(runId).elapsed()) / 1000.0;
    if (!(units > 0) || !(seconds > 0)) return;
    TargetState &s = targets_[executor_->route(runId)];
    s.unitSeconds = (s.unitSeconds * s.unitSamples + seconds / units) / (s.unitSamples + 1);
    ++s.unitSamples;
}

} // namespace diamond::app::sweep
