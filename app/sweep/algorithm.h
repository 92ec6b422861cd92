// Sweep algorithms behind one interface (docs/sweeps.md): grid, random, TPE (Bergstra et al. 2011), ASHA
// (Li et al. 2020) and Hyperband as brackets of ASHA (Li et al. 2018).
//
// The algorithm keeps a record of every trial (params, bracket, rung, results) and proposes the next job for
// a free worker: a new trial, a promotion of a paused trial to its next rung, nothing for now (Wait), or
// nothing ever again (Done). It never launches anything: the SweepController does, and tells the algorithm
// what it started (start()), what a trial reached (report()) and which trials failed. Objective values given
// to the algorithm are losses: lower is better (the controller negates maximised metrics).
//
// Determinism: next() is a pure function of the recorded trials, the settings and the seed (random draws of
// trial i use Rng::forIndex(seed, i)), so a sweep restored from the database proposes the same jobs.
#pragma once

#include "app/sweep/search_space.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <memory>
#include <optional>

namespace diamond::app::sweep {

/// Settings common to every algorithm (from the sweep file's "algorithm" and "limits").
struct AlgorithmSettings {
    QString name = QStringLiteral("random"); ///< grid, random, tpe, asha, hyperband
    int maxTrials = 10;                      ///< trials to create (grid: at most the grid size)
    double maxResource = 1;                  ///< R: budget of a trial run to completion (epochs or steps)
    // grid
    int gridPoints = 5;
    // tpe
    int startupTrials = 10;
    double gamma = 0.25;
    int candidates = 24;
    double priorWeight = 1.0;
    // asha / hyperband
    int eta = 3;
    double minResource = 1; ///< r
};

enum class TrialPhase {
    Running,   ///< training towards its current rung
    Paused,    ///< reached its current rung, may be promoted
    Completed, ///< reached the top rung of its bracket
    Failed,    ///< its run failed; never promoted
    Stopped,   ///< stopped by the sweep (not promoted when the sweep ended, or stopped by the user)
};

struct TrialRecord {
    int index = 0;
    QJsonObject params;
    int bracket = 0; ///< Hyperband bracket s (ASHA: s_max; grid/random/tpe: 0)
    int rung = 0;    ///< rung being trained to (Running) or reached (Paused/Completed)
    TrialPhase phase = TrialPhase::Running;
    QMap<int, double> losses; ///< loss at the end of each reached rung
};

struct Job {
    enum Kind { NewTrial, Promote, Wait, Done };
    Kind kind = Wait;
    int trial = -1;     ///< NewTrial: the index to create; Promote: the trial to promote
    QJsonObject params; ///< NewTrial
    int bracket = 0;
    int rung = 0;      ///< the rung to train to
    double budget = 0; ///< resource of that rung (total, not incremental)
};

/// One bracket of Hyperband: s, configurations n and minimum resource r, and its successive-halving rungs
/// (n_i configurations at resource r_i).
struct HyperbandBracket {
    int s = 0;
    int n = 0;
    double r = 0;
    QList<QPair<int, double>> rungs; ///< (n_i, r_i), i = 0..s
};

/// The bracket table of Hyperband (Li et al. 2018, Algorithm 1): s_max = floor(log_eta(R / r)), for
/// s = s_max..0: n = ceil((s_max + 1) / (s + 1) * eta^s), r_s = r * eta^(s_max - s), n_i = floor(n * eta^-i),
/// r_i = r_s * eta^i.
QList<HyperbandBracket> hyperbandBrackets(double maxResource, double minResource, int eta);
/// floor(log_eta(R / r)) with a tolerance for rounding.
int maxRungIndex(double maxResource, double minResource, int eta);

class SweepAlgorithm {
public:
    explicit SweepAlgorithm(const SearchSpace &space, const AlgorithmSettings &settings, std::uint64_t seed);
    virtual ~SweepAlgorithm();

    /// Creates the algorithm named settings.name; nullptr with *error naming the field when unknown/invalid.
    static std::unique_ptr<SweepAlgorithm> create(const SearchSpace &space, const AlgorithmSettings &settings,
                                                  std::uint64_t seed, QString *error);

    const AlgorithmSettings &settings() const { return settings_; }
    const SearchSpace &space() const { return space_; }
    std::uint64_t seed() const { return seed_; }
    /// Trials to be created in all (grid: min(maxTrials, grid size)).
    virtual int plannedTrials() const { return settings_.maxTrials; }

    /// The next job for a free worker (see the file comment). Pure: call start() to take it.
    Job next() const;
    /// Records that `job` was started: a new trial (Running at rung 0 of its bracket) or a promotion.
    void start(const Job &job);
    /// Restores a trial from storage (any phase).
    void restore(const TrialRecord &trial);
    /// The trial reached `rung` with `loss`: it becomes Completed at its bracket's top rung, else Paused.
    void report(int trial, int rung, double loss);
    /// Intermediate value of a running trial (resource used so far); no algorithm here stops mid-rung.
    virtual void reportIntermediate(int trial, double resource, double loss);
    void markFailed(int trial);
    void markStopped(int trial);

    const QMap<int, TrialRecord> &trials() const { return trials_; }
    int createdTrials() const { return static_cast<int>(trials_.size()); }

    /// Number of rungs of a bracket minus one (0 for single-rung algorithms).
    virtual int topRung(int bracket) const;
    /// Total resource of a trial of `bracket` at `rung` (single-rung algorithms: maxResource).
    virtual double rungBudget(int bracket, int rung) const;
    /// Whether `trial` (Paused) would be promoted now, under the algorithm's rule.
    virtual bool isPromotable(int trial) const;
    /// Best (lowest) final loss: at the highest rung any trial reached, the lowest loss there.
    std::optional<int> bestTrial() const;

protected:
    /// Params of new trial `index` (grid point, random draw, TPE proposal).
    virtual QJsonObject propose(int index) const = 0;
    /// Bracket of new trial `index`.
    virtual int bracketFor(int index) const;
    /// A promotion under the algorithm's rule, if any (single-rung algorithms: none).
    virtual std::optional<Job> promotion() const;

    SearchSpace space_;
    AlgorithmSettings settings_;
    std::uint64_t seed_ = 0;
    QMap<int, TrialRecord> trials_;
};

/// Every point of the discretised space once, in gridPoint() order.
class GridAlgorithm : public SweepAlgorithm {
public:
    using SweepAlgorithm::SweepAlgorithm;
    int plannedTrials() const override;

protected:
    QJsonObject propose(int index) const override;
};

/// Independent draws from each parameter's distribution.
class RandomAlgorithm : public SweepAlgorithm {
public:
    using SweepAlgorithm::SweepAlgorithm;

protected:
    QJsonObject propose(int index) const override;
};

/// ASHA with one bracket (s = s_max), or asynchronous Hyperband with brackets s_max..0 when `hyperband`.
/// New trials draw their params at random. Promotion rule (Li et al. 2020, Algorithm 2, get_job): for rungs
/// k from the top down, the trials with a loss at rung k of the bracket are ranked; the best
/// floor(count / eta) of them are the promotion candidates; the best candidate still paused at rung k is
/// promoted to k + 1. When none is promotable, a new trial is started (until maxTrials).
class AshaAlgorithm : public SweepAlgorithm {
public:
    AshaAlgorithm(const SearchSpace &space, const AlgorithmSettings &settings, std::uint64_t seed, bool hyperband);
    int topRung(int bracket) const override;
    double rungBudget(int bracket, int rung) const override;
    int sMax() const { return sMax_; }
    bool isHyperband() const { return hyperband_; }
    /// The trials of `bracket` that would be promoted from `rung` now (candidates not yet promoted), best first.
    QList<int> promotable(int bracket, int rung) const;
    bool isPromotable(int trial) const override;

protected:
    QJsonObject propose(int index) const override;
    int bracketFor(int index) const override;
    std::optional<Job> promotion() const override;

private:
    bool hyperband_ = false;
    int sMax_ = 0;
    QList<HyperbandBracket> brackets_;
};

} // namespace diamond::app::sweep
