// Mixed precision (run config "precision"): autocast around the forward pass and the loss, and for fp16 a dynamic
// loss scaler. Weights, gradients and optimizer state stay float32 in every mode, so checkpoints do not depend on it.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>

namespace diamond::engine {

/// Autocast on `device`'s type to `dtype` while in scope (nothing for fp32); restores what was set before and clears
/// autocast's cast cache when it ends.
class AutocastScope {
public:
    /// `precision`: "fp32", "bf16" or "fp16" (checked by checkPrecision()).
    AutocastScope(const std::string &precision, const torch::Device &device);
    ~AutocastScope();
    AutocastScope(const AutocastScope &) = delete;
    AutocastScope &operator=(const AutocastScope &) = delete;

private:
    bool active_ = false;
    c10::DeviceType type_ = c10::DeviceType::CPU;
    bool wasEnabled_ = false;
    at::ScalarType previousDtype_ = at::kFloat;
};

/// Throws EngineError (field "precision") when `precision` cannot run on `device`: fp16 needs CUDA (CPU autocast in
/// libtorch 1.13 supports bfloat16 only).
void checkPrecision(const std::string &precision, const torch::Device &device);

/// Dynamic loss scaling for fp16, as torch.cuda.amp.GradScaler with its defaults: the loss is multiplied by the scale
/// before backward; after the gradients are reduced they are divided by it and checked; a step with an infinite or
/// NaN gradient is skipped and halves the scale; 2000 good steps in a row double it.
class LossScaler {
public:
    explicit LossScaler(bool enabled, double initialScale = 65536.0, std::int64_t growthInterval = 2000);
    bool enabled() const { return enabled_; }
    double scale() const { return scale_; }
    /// `loss` times the scale (itself when disabled).
    torch::Tensor scaled(const torch::Tensor &loss) const;
    /// Divides `grads` by the scale in place and returns whether they are all finite (true when disabled); updates
    /// the scale. The caller skips the optimizer step when it returns false. `agree` (when set) turns this process's
    /// verdict into every rank's, for gradients sharded over ranks.
    bool unscaleAndUpdate(torch::Tensor &grads, const std::function<bool(bool)> &agree = {});
    std::int64_t skippedSteps() const { return skipped_; }
    /// Good steps in a row since the scale last changed (checkpointed with the scale).
    std::int64_t goodSteps() const { return goodSteps_; }
    /// Continues from a checkpoint's scale and good steps; false (nothing changed) when the scale is not a finite
    /// number from 1 to the largest scale the scaler reaches, or the good steps are negative.
    bool restore(double scale, std::int64_t goodSteps);

private:
    bool enabled_;
    double scale_;
    std::int64_t growthInterval_;
    std::int64_t goodSteps_ = 0;
    std::int64_t skipped_ = 0;
};

} // namespace diamond::engine
