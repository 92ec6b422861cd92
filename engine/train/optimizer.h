// Optimizers over one flat parameter buffer. All trainable parameters are moved into a single
// contiguous tensor (each parameter becomes a view of it) and their gradients into another, so
// an optimizer step is a handful of fused tensor operations whatever the number of layers.
// Update rules follow torch.optim (SGD with momentum/Nesterov, Adam, AdamW, RMSprop).
#pragma once

#include "run_config.h"

#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace diamond::engine {

/// Contract: after construction every parameter is a view into `values()` and its .grad() a
/// view into `grads()`; autograd accumulates into those views in place (grads are zeroed, never
/// reset to undefined) — until shardGradients(), after which grads() is one share of the gradients. All parameters must
/// share dtype and device. A dense parameter keeps its memory layout (e.g. a channels-last convolution weight stays
/// channels-last), so the element order inside the buffer is the physical one; toCanonical()/fromCanonical() convert
/// flat tensors (optimizer state) to and from the layout-independent order that checkpoints store.
class FlatParameters {
public:
    explicit FlatParameters(const std::vector<torch::Tensor> &parameters);
    torch::Tensor &values() { return values_; }
    const torch::Tensor &values() const { return values_; }
    /// The gradients: all of them, or after shardGradients() elements [gradsBegin(), gradsBegin() + numel) only.
    torch::Tensor &grads() { return grads_; }
    std::int64_t gradsBegin() const { return gradsBegin_; }
    /// Keeps only elements [begin, begin + length) of the gradients (ZeRO stage 2): grads() becomes a zeroed buffer
    /// of that share, and `parameters` (those of the constructor) lose their .grad views, so that autograd creates
    /// each gradient afresh and a sharded GradientReducer (gradient_reducer.h) takes it from there.
    void shardGradients(const std::vector<torch::Tensor> &parameters, std::int64_t begin, std::int64_t length);
    /// Elements [begin, begin + length) of both buffers as buffers of their own (views, no parameters): what an
    /// optimizer steps when it owns only that share (sharded_optimizer.h). After shardGradients() the range must lie
    /// inside the gradients' share.
    FlatParameters slice(std::int64_t begin, std::int64_t length);
    void zeroGrad() { grads_.zero_(); }
    /// Zeroes the gradients of the parameters i with !keep[i] (keep: one flag per parameter). Not after
    /// shardGradients().
    void zeroGrad(const std::vector<bool> &keep);
    std::int64_t numel() const { return values_.numel(); }
    /// Number of parameters, and parameter i's part of a flat tensor laid out like values()
    /// (same sizes and strides as the parameter; a view).
    std::size_t parameterCount() const { return parts_.size(); }
    torch::Tensor viewOf(const torch::Tensor &flat, std::size_t i) const { return partOf(flat, parts_.at(i)); }
    /// Parameter i's part of `slice`, which holds elements [sliceBegin, sliceBegin + slice.numel()) of a flat tensor
    /// laid out like values() and must cover the parameter (a view).
    torch::Tensor viewIn(const torch::Tensor &slice, std::int64_t sliceBegin, std::size_t i) const;
    /// Parameter i's (offset, element count) in the flat buffers.
    std::pair<std::int64_t, std::int64_t> rangeOf(std::size_t i) const {
        return {parts_.at(i).offset, parts_.at(i).numel};
    }

    /// A copy of `flat` (numel() elements, this buffer's order) with every parameter's part in
    /// row-major (contiguous) order; `flat` itself when every parameter is contiguous.
    torch::Tensor toCanonical(const torch::Tensor &flat) const;
    /// The inverse of toCanonical().
    torch::Tensor fromCanonical(const torch::Tensor &canonical) const;

private:
    FlatParameters() = default;
    struct Part {
        std::int64_t offset, numel;
        std::vector<std::int64_t> sizes, strides;
    };
    /// Parameter `part` of a contiguous 1-D tensor laid out like values().
    static torch::Tensor partOf(const torch::Tensor &flat, const Part &part);
    torch::Tensor values_, grads_;
    std::int64_t gradsBegin_ = 0;
    std::vector<Part> parts_;
    bool allContiguous_ = true;
};

class Optimizer {
public:
    virtual ~Optimizer() = default;
    /// One update of `flat` with learning rate `lr` from the gradients in flat.grads().
    virtual void step(FlatParameters &flat, double lr) = 0;

    /// Momentum fusion. An optimizer whose update starts with `buffer = beta * buffer + gradient`
    /// returns that flat buffer (laid out like flat.values()), so that a gradient's producer can
    /// perform this first half itself (layers::redirectLinearGradients); undefined when it has
    /// no such buffer (the default). Valid for the optimizer's lifetime.
    virtual torch::Tensor fusableMomentum() { return {}; }
    /// The beta of the next step's first write into fusableMomentum().
    virtual float fusableMomentumBeta() const { return 0.0F; }
    /// Where each parameter's update stands when stepFused() runs.
    enum class Part : std::uint8_t {
        Gradient,        ///< its gradient is in flat.grads(): the whole update is still to do
        MomentumUpdated, ///< its momentum buffer holds `beta * buffer + gradient` (grads() ignored)
        Updated,         ///< finishPart() already applied its update
    };
    /// One update, completing each parameter from where parts[i] says it stands (parts: one per
    /// parameter, or empty = all Gradient); counts as one step. The default handles only Gradient.
    virtual void stepFused(FlatParameters &flat, double lr, const std::vector<Part> &parts);
    /// Completes parameter i's update (with learning rate `lr`, for the step that the next
    /// stepFused() ends) once its momentum buffer is MomentumUpdated — e.g. while that buffer is
    /// still in cache. The default throws.
    virtual void finishPart(FlatParameters &flat, double lr, std::size_t i);
    /// State tensors by name, for checkpoints (includes the step count as a 0-d int64 tensor).
    virtual std::map<std::string, torch::Tensor> state() const = 0;
    virtual void loadState(const std::map<std::string, torch::Tensor> &state) = 0;
    /// The names, shapes and dtypes of state() (the values may be undefined); unlike state(), never a collective.
    virtual std::map<std::string, torch::Tensor> stateTemplate() const { return state(); }
    /// Bytes of optimizer state held by this process.
    virtual std::int64_t localStateBytes() const;
};

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig &config, std::int64_t numel,
                                         const torch::TensorOptions &options);

/// Learning rate at optimizer step `step` (0-based) of `totalSteps`, for base rate `lr`.
double scheduledLearningRate(const ScheduleConfig &schedule, double lr, std::int64_t step, std::int64_t totalSteps);

} // namespace diamond::engine
