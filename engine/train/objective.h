// Losses and metrics. Metric statistics are accumulated as sums so that they can be summed
// across batches (and, later, across ranks) before the final division.
#pragma once

#include "run_config.h"

#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

namespace diamond::engine {

/// Mean loss over the batch. `output` is the network's output; `target` the dataset's targets.
torch::Tensor computeLoss(const LossConfig &loss, const torch::Tensor &output, const torch::Tensor &target);

/// Loss default for a task ("classification" -> cross_entropy, "regression" -> mse).
std::string defaultLoss(const std::string &task);
std::vector<std::string> defaultMetrics(const std::string &task);

/// Most classes for which a confusion matrix is kept (1024^2 counts, 8 MB; the `eval` event carries it).
inline constexpr std::int64_t kMaxConfusionClasses = 1024;

/// Running sums for the configured metrics over any number of batches.
class MetricAccumulator {
public:
    /// `confusion`: also count a confusion matrix, when numClasses <= kMaxConfusionClasses (else none is kept).
    MetricAccumulator(std::vector<std::string> metrics, std::int64_t numClasses, bool confusion = false);
    /// Adds one batch; `lossSum` is the loss summed over the batch's samples.
    void add(const torch::Tensor &output, const torch::Tensor &target, double lossSum);
    void reset();
    std::int64_t samples() const { return samples_; }
    /// "loss" and each configured metric, averaged over the samples added.
    std::map<std::string, double> values() const;
    /// [C, C] counts, rows = true class, columns = predicted (only with confusion = true; undefined when C >
    /// kMaxConfusionClasses), on the device of the outputs added (counted there, without copying them).
    torch::Tensor confusion() const { return confusion_; }
    /// The running sums as one float64 tensor, and back: for summing across ranks.
    torch::Tensor sums() const;
    void setSums(const torch::Tensor &sums);

private:
    std::vector<std::string> metrics_;
    std::int64_t numClasses_;
    std::int64_t samples_ = 0;
    double lossSum_ = 0, correct_ = 0, top5_ = 0, absErr_ = 0, sqErr_ = 0, targetSum_ = 0, targetSqSum_ = 0;
    std::int64_t targetCount_ = 0;
    torch::Tensor confusion_;
};

} // namespace diamond::engine
