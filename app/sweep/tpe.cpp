#include "app/sweep/tpe.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace diamond::app::sweep {

namespace {

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double logNormalPdf(double x, double mu, double sigma) {
    const double z = (x - mu) / sigma;
    return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2.0 * M_PI);
}

double logSumExp(const std::vector<double> &v) {
    double m = -std::numeric_limits<double>::infinity();
    for (double x : v)
        m = std::max(m, x);
    if (!std::isfinite(m)) return m;
    double s = 0;
    for (double x : v)
        s += std::exp(x - m);
    return m + std::log(s);
}

} // namespace

ParzenEstimator::ParzenEstimator(const SearchParameter &param, const std::vector<double> &obs, double priorWeight)
    : categorical_(param.kind == ParamKind::Choice), low_(param.modelLow()), high_(param.modelHigh()) {
    if (categorical_) {
        const int k = static_cast<int>(param.values.size());
        weights_.assign(std::size_t(k), priorWeight / double(k));
        for (double x : obs)
            weights_[std::size_t(std::clamp(int(std::lround(x)), 0, k - 1))] += 1.0;
        double total = 0;
        for (double w : weights_)
            total += w;
        for (double &w : weights_)
            w /= total;
        return;
    }
    const double width = high_ - low_;
    const double priorMu = 0.5 * (low_ + high_);
    // Components sorted by mean, the prior among them, for the neighbour-distance bandwidths.
    std::vector<std::pair<double, bool>> points; // (mu, isPrior)
    for (double x : obs)
        points.push_back({x, false});
    points.push_back({priorMu, true});
    std::sort(points.begin(), points.end());
    const double minSigma = width / std::min(100.0, 1.0 + double(obs.size()));
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto &[mu, isPrior] = points[i];
        mus_.push_back(mu);
        if (isPrior) {
            sigmas_.push_back(width);
            weights_.push_back(priorWeight);
            continue;
        }
        const double left = i > 0 ? mu - points[i - 1].first : mu - low_;
        const double right = i + 1 < points.size() ? points[i + 1].first - mu : high_ - mu;
        sigmas_.push_back(std::clamp(std::max(left, right), minSigma, width));
        weights_.push_back(1.0);
    }
}

double ParzenEstimator::logPdf(double x) const {
    if (categorical_) {
        const int i = std::clamp(int(std::lround(x)), 0, int(weights_.size()) - 1);
        return std::log(weights_[std::size_t(i)]);
    }
    double total = 0;
    for (double w : weights_)
        total += w;
    std::vector<double> terms;
    terms.reserve(mus_.size());
    for (std::size_t i = 0; i < mus_.size(); ++i) {
        const double mass = normalCdf((high_ - mus_[i]) / sigmas_[i]) - normalCdf((low_ - mus_[i]) / sigmas_[i]);
        terms.push_back(std::log(weights_[i] / total) + logNormalPdf(x, mus_[i], sigmas_[i]) -
                        std::log(std::max(mass, 1e-300)));
    }
    return logSumExp(terms);
}

double ParzenEstimator::sample(Rng &rng) const {
    double total = 0;
    for (double w : weights_)
        total += w;
    double u = rng.uniform() * total;
    std::size_t pick = 0;
    for (; pick + 1 < weights_.size(); ++pick) {
        if (u < weights_[pick]) break;
        u -= weights_[pick];
    }
    if (categorical_) return double(pick);
    for (int attempt = 0; attempt < 100; ++attempt) {
        const double x = mus_[pick] + sigmas_[pick] * rng.normal();
        if (x >= low_ && x <= high_) return x;
    }
    return std::clamp(mus_[pick], low_, high_);
}

QList<QPair<double, int>> TpeAlgorithm::observations() const {
    QList<QPair<double, int>> out;
    for (const auto &t : trials_)
        if (t.losses.contains(0) && std::isfinite(t.losses.value(0))) out.append({t.losses.value(0), t.index});
    std::sort(out.begin(), out.end());
    return out;
}

void TpeAlgorithm::split(int p, std::vector<double> *good, std::vector<double> *bad) const {
    const QList<QPair<double, int>> obs = observations();
    const qsizetype nGood = std::max<qsizetype>(1, qsizetype(std::ceil(settings_.gamma * double(obs.size()) - 1e-9)));
    const SearchParameter &param = space_.parameters().at(p);
    for (qsizetype i = 0; i < obs.size(); ++i) {
        const double x = param.toModel(trials_[obs.at(i).second].params.value(param.name));
        (i < nGood ? good : bad)->push_back(x);
    }
}

std::optional<double> TpeAlgorithm::score(const QJsonObject &sample) const {
    if (observations().size() < 2) return std::nullopt;
    double s = 0;
    for (int p = 0; p < space_.size(); ++p) {
        std::vector<double> good, bad;
        split(p, &good, &bad);
        const SearchParameter &param = space_.parameters().at(p);
        const ParzenEstimator l(param, good, settings_.priorWeight), g(param, bad, settings_.priorWeight);
        const double x = param.toModel(sample.value(param.name));
        s += l.logPdf(x) - g.logPdf(x);
    }
    return s;
}

QList<QJsonObject> TpeAlgorithm::candidatesFor(int index) const {
    QList<QJsonObject> out;
    Rng rng = Rng::forIndex(seed_, std::uint64_t(index));
    std::vector<ParzenEstimator> ls;
    for (int p = 0; p < space_.size(); ++p) {
        std::vector<double> good, bad;
        split(p, &good, &bad);
        ls.emplace_back(space_.parameters().at(p), good, settings_.priorWeight);
    }
    for (int c = 0; c < settings_.candidates; ++c) {
        QJsonObject o;
        for (int p = 0; p < space_.size(); ++p) {
            const SearchParameter &param = space_.parameters().at(p);
            o.insert(param.name, param.fromModel(ls[std::size_t(p)].sample(rng)));
        }
        out.append(o);
    }
    return out;
}

QJsonObject TpeAlgorithm::propose(int index) const {
    if (index < settings_.startupTrials || observations().size() < 2) {
        Rng rng = Rng::forIndex(seed_, std::uint64_t(index));
        return space_.sample(rng);
    }
    const QList<QJsonObject> candidates = candidatesFor(index);
    QJsonObject best;
    double bestScore = -std::numeric_limits<double>::infinity();
    for (const QJsonObject &c : candidates) {
        const double s = score(c).value_or(0);
        if (best.isEmpty() || s > bestScore) {
            best = c;
            bestScore = s;
        }
    }
    return best;
}

} // namespace diamond::app::sweep
