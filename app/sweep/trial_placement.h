// Where the next trial of a multi-cluster sweep goes (docs/sweeps.md, "Several clusters"): the target with the
// earliest predicted finish, the scheduler's queue wait plus the trial's run time there. Pure: the controller
// gathers the standings (in flight, health, estimates), this only decides.
#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace diamond::app::sweep {

/// What the controller knows about one target right now.
struct TargetStanding {
    QString name;
    int inFlight = 0;  ///< trials of the sweep queued or running there
    int limit = 1;     ///< most trials there at once (limits.max_in_flight_per_target)
    bool down = false; ///< unreachable or refusing jobs: nothing is placed there
    /// The scheduler's estimate of a trial job's queue wait (sbatch --test-only), when it gave one.
    std::optional<double> queueWaitSeconds;
    /// This sweep's measured seconds per budget unit (epoch or step) of trials there, when some ended there.
    std::optional<double> secondsPerUnit;
};

struct TrialPlacement {
    QString target;
    double predictedFinishSeconds = 0; ///< queue wait + budget × seconds per unit
    QString reason;                    ///< e.g. "beta: finish in 42 s (queue 0 s + 42 s); alpha: down"
};

/// The open target (not down, below its limit) with the earliest predicted finish for a trial of `budget` units.
/// A target without a measured speed is predicted at the mean of the measured ones (0 when none is measured yet), one
/// without a queue estimate at no wait. Ties go to fewer trials in flight, then to `preferred` (where the trial's
/// checkpoint already is), then to the order given. nullopt when every target is down or full.
std::optional<TrialPlacement> placeTrial(const QList<TargetStanding> &targets, double budget,
                                         const QString &preferred = {});

} // namespace diamond::app::sweep
