// Tree-structured Parzen estimator (Bergstra, Bardenet, Bengio, Kégl: "Algorithms for Hyper-Parameter
// Optimization", NeurIPS 2011), in its independent form (one density per parameter, as hyperopt and Optuna's
// default):
//
// - The first `startupTrials` trials are random draws.
// - Then the trials with a loss are sorted; the best n_good = ceil(gamma * n) are "good", the rest "bad".
// - Per parameter, l(x) is a Parzen estimator of the good values and g(x) one of the bad values, each a
//   mixture of a prior component (weight priorWeight) and one component per observation (weight 1).
//   Numeric parameters: truncated Gaussians on the parameter's bounds in model space (log space for log-scale
//   parameters; integers as reals on [low - 0.5, high + 0.5], rounded); the prior is centred on the range with
//   sigma = its width; each observation's sigma is the larger distance to its neighbours (prior mean included),
//   clipped to [width / min(100, 1 + n), width] (hyperopt's rule). Choices: categorical
//   p(c) = (priorWeight / K + count(c)) / (priorWeight + n).
// - `candidates` joint candidates are drawn from l; the one maximising sum_p log l_p(x_p) - log g_p(x_p)
//   (= l(x) / g(x) under independence) is proposed.
//
// Trials still running when a proposal is made are ignored (no constant liar).
#pragma once

#include "app/sweep/algorithm.h"

#include <vector>

namespace diamond::app::sweep {

/// A one-dimensional Parzen estimator over one parameter, in model space (SearchParameter::toModel).
class ParzenEstimator {
public:
    ParzenEstimator(const SearchParameter &param, const std::vector<double> &observations, double priorWeight);
    /// Log density at model-space value x.
    double logPdf(double x) const;
    /// A draw (model space; Choice: an index as a double; Integer: rounded in value space later).
    double sample(Rng &rng) const;

    const std::vector<double> &means() const { return mus_; }
    const std::vector<double> &sigmas() const { return sigmas_; }
    const std::vector<double> &weights() const { return weights_; }

private:
    bool categorical_ = false;
    double low_ = 0, high_ = 1;
    std::vector<double> mus_, sigmas_, weights_; ///< numeric: components; categorical: probabilities in weights_
};

class TpeAlgorithm : public SweepAlgorithm {
public:
    using SweepAlgorithm::SweepAlgorithm;

    /// The good and bad model-space observations of parameter p given the completed trials (for tests).
    void split(int p, std::vector<double> *good, std::vector<double> *bad) const;
    /// Score of a sample: sum over parameters of log l(x) - log g(x) (empty optional before startup ends).
    std::optional<double> score(const QJsonObject &sample) const;
    /// The candidates drawn for trial `index` (after startup), in draw order.
    QList<QJsonObject> candidatesFor(int index) const;

protected:
    QJsonObject propose(int index) const override;

private:
    /// (loss, trial) of the trials with a loss at rung 0, sorted.
    QList<QPair<double, int>> observations() const;
};

} // namespace diamond::app::sweep
