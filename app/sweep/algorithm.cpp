#include "app/sweep/algorithm.h"

#include "app/sweep/tpe.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace diamond::app::sweep {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::sweep", text); }

double ipow(int base, int exp) {
    double v = 1;
    for (int i = 0; i < exp; ++i)
        v *= base;
    return v;
}

} // namespace

int maxRungIndex(double maxResource, double minResource, int eta) {
    if (maxResource <= 0 || minResource <= 0 || eta < 2 || maxResource < minResource) return 0;
    return static_cast<int>(std::floor(std::log(maxResource / minResource) / std::log(double(eta)) + 1e-9));
}

QList<HyperbandBracket> hyperbandBrackets(double maxResource, double minResource, int eta) {
    QList<HyperbandBracket> out;
    const int sMax = maxRungIndex(maxResource, minResource, eta);
    for (int s = sMax; s >= 0; --s) {
        HyperbandBracket b;
        b.s = s;
        b.n = static_cast<int>(std::ceil(double(sMax + 1) / double(s + 1) * ipow(eta, s) - 1e-9));
        b.r = minResource * ipow(eta, sMax - s);
        for (int i = 0; i <= s; ++i)
            b.rungs.append({static_cast<int>(std::floor(double(b.n) / ipow(eta, i) + 1e-9)), b.r * ipow(eta, i)});
        out.append(b);
    }
    return out;
}

// --- SweepAlgorithm ---

SweepAlgorithm::SweepAlgorithm(const SearchSpace &space, const AlgorithmSettings &settings, std::uint64_t seed)
    : space_(space), settings_(settings), seed_(seed) {}

SweepAlgorithm::~SweepAlgorithm() = default;

std::unique_ptr<SweepAlgorithm> SweepAlgorithm::create(const SearchSpace &space, const AlgorithmSettings &settings,
                                                       std::uint64_t seed, QString *error) {
    const QString &n = settings.name;
    if (settings.maxTrials < 1) {
        *error = tr("limits.max_trials: must be at least 1");
        return nullptr;
    }
    if (!(settings.maxResource > 0)) {
        *error = tr("limits.budget_per_trial: must be positive");
        return nullptr;
    }
    if (n == QLatin1String("grid")) return std::make_unique<GridAlgorithm>(space, settings, seed);
    if (n == QLatin1String("random")) return std::make_unique<RandomAlgorithm>(space, settings, seed);
    if (n == QLatin1String("tpe")) {
        if (!(settings.gamma > 0 && settings.gamma < 1)) {
            *error = tr("algorithm.gamma: must be in (0, 1)");
            return nullptr;
        }
        if (settings.candidates < 1 || settings.startupTrials < 1) {
            *error = tr("algorithm.candidates and algorithm.startup_trials: must be at least 1");
            return nullptr;
        }
        return std::make_unique<TpeAlgorithm>(space, settings, seed);
    }
    if (n == QLatin1String("asha") || n == QLatin1String("hyperband")) {
        if (settings.eta < 2) {
            *error = tr("algorithm.eta: must be an integer of at least 2");
            return nullptr;
        }
        if (!(settings.minResource > 0) || settings.minResource > settings.maxResource) {
            *error = tr("algorithm.min_resource: must be positive and at most limits.budget_per_trial (%1)")
                         .arg(settings.maxResource);
            return nullptr;
        }
        return std::make_unique<AshaAlgorithm>(space, settings, seed, n == QLatin1String("hyperband"));
    }
    *error = tr("algorithm.name: \"%1\" is not one of grid, random, tpe, asha, hyperband").arg(n);
    return nullptr;
}

Job SweepAlgorithm::next() const {
    if (auto p = promotion()) return *p;
    const int index = createdTrials();
    if (index < plannedTrials()) {
        Job job;
        job.kind = Job::NewTrial;
        job.trial = index;
        job.params = propose(index);
        job.bracket = bracketFor(index);
        job.rung = 0;
        job.budget = rungBudget(job.bracket, 0);
        return job;
    }
    for (const auto &t : trials_)
        if (t.phase == TrialPhase::Running) return Job{};
    Job done;
    done.kind = Job::Done;
    return done;
}

void SweepAlgorithm::start(const Job &job) {
    if (job.kind == Job::NewTrial) {
        TrialRecord t;
        t.index = job.trial;
        t.params = job.params;
        t.bracket = job.bracket;
        t.rung = 0;
        t.phase = TrialPhase::Running;
        trials_.insert(t.index, t);
    } else if (job.kind == Job::Promote) {
        auto it = trials_.find(job.trial);
        if (it == trials_.end()) return;
        it->rung = job.rung;
        it->phase = TrialPhase::Running;
    }
}

void SweepAlgorithm::restore(const TrialRecord &trial) { trials_.insert(trial.index, trial); }

void SweepAlgorithm::report(int trial, int rung, double loss) {
    auto it = trials_.find(trial);
    if (it == trials_.end()) return;
    it->losses.insert(rung, loss);
    it->rung = rung;
    it->phase = rung >= topRung(it->bracket) ? TrialPhase::Completed : TrialPhase::Paused;
}

void SweepAlgorithm::reportIntermediate(int, double, double) {}

void SweepAlgorithm::markFailed(int trial) {
    auto it = trials_.find(trial);
    if (it != trials_.end()) it->phase = TrialPhase::Failed;
}

void SweepAlgorithm::markStopped(int trial) {
    auto it = trials_.find(trial);
    if (it != trials_.end()) it->phase = TrialPhase::Stopped;
}

int SweepAlgorithm::topRung(int) const { return 0; }

double SweepAlgorithm::rungBudget(int, int) const { return settings_.maxResource; }

bool SweepAlgorithm::isPromotable(int) const { return false; }

int SweepAlgorithm::bracketFor(int) const { return 0; }

std::optional<Job> SweepAlgorithm::promotion() const { return std::nullopt; }

std::optional<int> SweepAlgorithm::bestTrial() const {
    int bestRung = -1;
    for (const auto &t : trials_)
        if (!t.losses.isEmpty()) bestRung = std::max(bestRung, t.losses.lastKey());
    std::optional<int> best;
    double bestLoss = 0;
    for (const auto &t : trials_) {
        if (!t.losses.contains(bestRung)) continue;
        const double loss = t.losses.value(bestRung);
        if (!best || loss < bestLoss) {
            best = t.index;
            bestLoss = loss;
        }
    }
    return best;
}

// --- grid and random ---

int GridAlgorithm::plannedTrials() const {
    return static_cast<int>(std::min<qint64>(settings_.maxTrials, space_.gridSize(settings_.gridPoints)));
}

QJsonObject GridAlgorithm::propose(int index) const { return space_.gridPoint(index, settings_.gridPoints); }

QJsonObject RandomAlgorithm::propose(int index) const {
    Rng rng = Rng::forIndex(seed_, std::uint64_t(index));
    return space_.sample(rng);
}

// --- ASHA and Hyperband ---

AshaAlgorithm::AshaAlgorithm(const SearchSpace &space, const AlgorithmSettings &settings, std::uint64_t seed,
                             bool hyperband)
    : SweepAlgorithm(space, settings, seed), hyperband_(hyperband) {
    sMax_ = maxRungIndex(settings.maxResource, settings.minResource, settings.eta);
    brackets_ = hyperbandBrackets(settings.maxResource, settings.minResource, settings.eta);
}

int AshaAlgorithm::topRung(int bracket) const { return std::clamp(bracket, 0, sMax_); }

double AshaAlgorithm::rungBudget(int bracket, int rung) const {
    return settings_.minResource * ipow(settings_.eta, sMax_ - topRung(bracket) + rung);
}

QJsonObject AshaAlgorithm::propose(int index) const {
    Rng rng = Rng::forIndex(seed_, std::uint64_t(index));
    return space_.sample(rng);
}

int AshaAlgorithm::bracketFor(int index) const {
    if (!hyperband_) return sMax_;
    int total = 0;
    for (const auto &b : brackets_)
        total += b.n;
    int pos = total > 0 ? index % total : 0;
    for (const auto &b : brackets_) {
        if (pos < b.n) return b.s;
        pos -= b.n;
    }
    return sMax_;
}

QList<int> AshaAlgorithm::promotable(int bracket, int rung) const {
    QList<QPair<double, int>> ranked;
    for (const auto &t : trials_)
        if (t.bracket == bracket && t.losses.contains(rung)) ranked.append({t.losses.value(rung), t.index});
    std::sort(ranked.begin(), ranked.end());
    const qsizetype k = ranked.size() / settings_.eta;
    QList<int> out;
    for (qsizetype i = 0; i < k; ++i) {
        const TrialRecord &t = trials_[ranked.at(i).second];
        if (t.phase == TrialPhase::Paused && t.rung == rung) out.append(t.index);
    }
    return out;
}

bool AshaAlgorithm::isPromotable(int trial) const {
    const auto it = trials_.constFind(trial);
    if (it == trials_.constEnd() || it->phase != TrialPhase::Paused || it->rung >= topRung(it->bracket)) return false;
    return promotable(it->bracket, it->rung).contains(trial);
}

std::optional<Job> AshaAlgorithm::promotion() const {
    // Brackets from the most aggressive (s_max) down; within a bracket, rungs from the top down.
    for (int s = sMax_; s >= 0; --s) {
        if (!hyperband_ && s != sMax_) break;
        for (int k = topRung(s) - 1; k >= 0; --k) {
            const QList<int> p = promotable(s, k);
            if (p.isEmpty()) continue;
            Job job;
            job.kind = Job::Promote;
            job.trial = p.first();
            job.bracket = s;
            job.rung = k + 1;
            job.budget = rungBudget(s, k + 1);
            return job;
        }
    }
    return std::nullopt;
}

} // namespace diamond::app::sweep
