#include "precision.h"

#include <cmath>

#include "engine_error.h"
#include "torch_compat.h"

namespace diamond::engine {

void checkPrecision(const std::string &precision, const torch::Device &device) {
    if (precision == "fp32" || precision == "bf16") return;
    if (precision == "fp16") {
        if (device.is_cuda()) return;
        throw EngineError("precision 'fp16' needs a CUDA device; this run is on " + device.str() + ".", "precision", {},
                          "Use \"precision\": \"bf16\" on the CPU, or \"fp32\".");
    }
    throw EngineError("precision '" + precision + "' is not fp32, bf16 or fp16.", "precision");
}

AutocastScope::AutocastScope(const std::string &precision, const torch::Device &device) {
    if (precision == "fp32") return;
    type_ = device.is_cuda() ? c10::DeviceType::CUDA : c10::DeviceType::CPU;
    wasEnabled_ = compat::autocastEnabled(type_);
    previousDtype_ = compat::autocastDtype(type_);
    compat::setAutocastDtype(type_, precision == "fp16" ? at::kHalf : at::kBFloat16);
    compat::setAutocastEnabled(type_, true);
    at::autocast::increment_nesting();
    active_ = true;
}

AutocastScope::~AutocastScope() {
    if (!active_) return;
    // The cache holds the low-precision copies of the weights made in this scope; they are stale once the
    // optimizer steps.
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    compat::setAutocastEnabled(type_, wasEnabled_);
    compat::setAutocastDtype(type_, previousDtype_);
}

namespace {
constexpr double kMaxLossScale = 16777216.0 * 65536.0; ///< 2^40: where the scale stops doubling
} // namespace

LossScaler::LossScaler(bool enabled, double initialScale, std::int64_t growthInterval)
    : enabled_(enabled), scale_(initialScale), growthInterval_(growthInterval) {}

torch::Tensor LossScaler::scaled(const torch::Tensor &loss) const { return enabled_ ? loss * scale_ : loss; }

bool LossScaler::unscaleAndUpdate(torch::Tensor &grads, const std::function<bool(bool)> &agree) {
    if (!enabled_) return true;
    torch::NoGradGuard noGrad;
    grads.mul_(1.0 / scale_);
    bool finite = grads.isfinite().all().item<bool>();
    if (agree) finite = agree(finite);
    if (!finite) {
        scale_ = std::max(scale_ * 0.5, 1.0);
        goodSteps_ = 0;
        ++skipped_;
    } else if (++goodSteps_ >= growthInterval_) {
        scale_ = std::min(scale_ * 2.0, kMaxLossScale);
        goodSteps_ = 0;
    }
    return finite;
}

bool LossScaler::restore(double scale, std::int64_t goodSteps) {
    if (!std::isfinite(scale) || scale < 1.0 || scale > kMaxLossScale || goodSteps < 0) return false;
    scale_ = scale;
    goodSteps_ = std::min(goodSteps, std::max<std::int64_t>(0, growthInterval_ - 1));
    return true;
}

} // namespace diamond::engine
