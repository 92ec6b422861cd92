#include "app/sweep/trial_placement.h"

#include <QCoreApplication>
#include <QStringList>

namespace diamond::app::sweep {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("diamond::app::sweep::TrialPlacement", text); }
} // namespace

std::optional<TrialPlacement> placeTrial(const QList<TargetStanding> &targets, double budget,
                                         const QString &preferred) {
    double measuredSum = 0;
    int measured = 0;
    for (const TargetStanding &t : targets)
        if (t.secondsPerUnit && *t.secondsPerUnit > 0) {
            measuredSum += *t.secondsPerUnit;
            ++measured;
        }
    const double fallbackPerUnit = measured > 0 ? measuredSum / measured : 0;
    std::optional<TrialPlacement> best;
    const TargetStanding *bestTarget = nullptr;
    QStringList notes;
    for (const TargetStanding &t : targets) {
        if (t.down) {
            notes << tr("%1: unreachable").arg(t.name);
            continue;
        }
        if (t.inFlight >= t.limit) {
            notes << tr("%1: full (%2 of %3 in flight)").arg(t.name).arg(t.inFlight).arg(t.limit);
            continue;
        }
        const double wait = t.queueWaitSeconds.value_or(0);
        const double run =
            std::max(0.0, budget) * (t.secondsPerUnit && *t.secondsPerUnit > 0 ? *t.secondsPerUnit : fallbackPerUnit);
        const double finish = wait + run;
        notes << tr("%1: finish in %2 s (queue %3 s + %4 s)")
                     .arg(t.name)
                     .arg(finish, 0, 'f', 0)
                     .arg(wait, 0, 'f', 0)
                     .arg(run, 0, 'f', 0);
        bool better = !best;
        if (best) {
            const double margin = 1e-6 * std::max(1.0, best->predictedFinishSeconds);
            if (finish < best->predictedFinishSeconds - margin)
                better = true;
            else if (finish <= best->predictedFinishSeconds + margin) {
                if (t.inFlight != bestTarget->inFlight)
                    better = t.inFlight < bestTarget->inFlight;
                else
                    better = !preferred.isEmpty() && t.name == preferred && bestTarget->name != preferred;
            }
        }
        if (better) {
            best = TrialPlacement{t.name, finish, {}};
            bestTarget = &t;
        }
    }
    if (best) best->reason = notes.join(QStringLiteral("; "));
    return best;
}

} // namespace diamond::app::sweep
