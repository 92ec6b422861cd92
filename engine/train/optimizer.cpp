#include "optimizer.h"

#include "engine_error.h"

#include <algorithm>
#include <cmath>

namespace diamond::engine {

torch::Tensor FlatParameters::partOf(const torch::Tensor &flat, const Part &part) {
    return flat.as_strided(part.sizes, part.strides, flat.storage_offset() + part.offset);
}

FlatParameters::FlatParameters(const std::vector<torch::Tensor> &parameters) {
    if (parameters.empty()) {
        values_ = torch::zeros({0});
        grads_ = torch::zeros({0});
        return;
    }
    std::int64_t total = 0;
    for (const auto &p : parameters)
        total += p.numel();
    const auto options = parameters.front().options();
    values_ = torch::empty({total}, options);
    grads_ = torch::zeros({total}, options);
    torch::NoGradGuard noGrad;
    std::int64_t offset = 0;
    for (auto p : parameters) {
        if (p.options().dtype() != options.dtype() || p.device() != options.device())
            throw EngineError("All parameters must share one dtype and device.");
        const std::int64_t n = p.numel();
        // A dense non-contiguous parameter (channels-last) keeps its strides inside the buffer.
        // (Compared by strides: a [32,1,3,3] channels-last weight also counts as contiguous.)
        const bool keepLayout =
            p.is_non_overlapping_and_dense() && p.strides() != values_.narrow(0, 0, n).view(p.sizes()).strides();
        parts_.push_back(
            {offset, n, p.sizes().vec(),
             keepLayout ? p.strides().vec() : values_.narrow(0, offset, n).view(p.sizes()).strides().vec()});
        allContiguous_ = allContiguous_ && !keepLayout;
        auto value = partOf(values_, parts_.back());
        value.copy_(p);
        p.set_data(value);
        p.mutable_grad() = partOf(grads_, parts_.back());
        offset += n;
    }
}

void FlatParameters::shardGradients(const std::vector<torch::Tensor> &parameters, std::int64_t begin,
                                    std::int64_t length) {
    if (begin < 0 || length < 0 || begin + length > numel())
        throw EngineError("A gradient share [" + std::to_string(begin) + ", " + std::to_string(begin + length) +
                          ") lies outside the " + std::to_string(numel()) + " parameters.");
    for (auto p : parameters)
        p.mutable_grad() = torch::Tensor();
    grads_ = torch::zeros({length}, values_.options());
    gradsBegin_ = begin;
}

torch::Tensor FlatParameters::viewIn(const torch::Tensor &slice, std::int64_t sliceBegin, std::size_t i) const {
    const Part &part = parts_.at(i);
    if (part.offset < sliceBegin || part.offset + part.numel > sliceBegin + slice.numel())
        throw EngineError("Parameter " + std::to_string(i) + " lies outside the flat slice it was looked up in.");
    return slice.as_strided(part.sizes, part.strides, slice.storage_offset() + part.offset - sliceBegin);
}

void FlatParameters::zeroGrad(const std::vector<bool> &keep) {
    if (gradsBegin_ != 0 || grads_.numel() != values_.numel())
        throw EngineError("Selective zeroing needs every gradient; these are sharded.");
    std::int64_t runStart = 0, runEnd = 0; // zero contiguous runs of parts with one call each
    for (std::size_t i = 0; i <= parts_.size(); ++i) {
        if (i < parts_.size() && !(i < keep.size() && keep[i])) {
            if (runEnd != parts_[i].offset) runStart = parts_[i].offset;
            runEnd = parts_[i].offset + parts_[i].numel;
            continue;
        }
        if (runEnd > runStart) grads_.narrow(0, runStart, runEnd - runStart).zero_();
        runStart = runEnd = 0;
    }
}

torch::Tensor FlatParameters::toCanonical(const torch::Tensor &flat) const {
    if (allContiguous_) return flat;
    torch::NoGradGuard noGrad;
    auto out = torch::empty_like(flat);
    for (const Part &part : parts_) {
        out.narrow(0, part.offset, part.numel).view(part.sizes).copy_(partOf(flat, part));
    }
    return out;
}

torch::Tensor FlatParameters::fromCanonical(const torch::Tensor &canonical) const {
    if (allContiguous_) return canonical;
    torch::NoGradGuard noGrad;
    auto out = torch::empty_like(canonical);
    for (const Part &part : parts_) {
        partOf(out, part).copy_(canonical.narrow(0, part.offset, part.numel).view(part.sizes));
    }
    return out;
}

FlatParameters FlatParameters::slice(std::int64_t begin, std::int64_t length) {
    FlatParameters share;
    if (begin < gradsBegin_ || begin + length > gradsBegin_ + grads_.numel())
        throw EngineError("The share [" + std::to_string(begin) + ", " + std::to_string(begin + length) +
                          ") is outside the gradients this rank holds.");
    share.values_ = values_.narrow(0, begin, length);
    share.grads_ = grads_.narrow(0, begin - gradsBegin_, length);
    return share;
}

std::int64_t Optimizer::localStateBytes() const {
    std::int64_t bytes = 0;
    for (const auto &[key, tensor] : state())
        if (tensor.defined()) bytes += std::int64_t(tensor.nbytes());
    return bytes;
}

void Optimizer::stepFused(FlatParameters &flat, double lr, const std::vector<Part> &parts) {
    if (std::any_of(parts.begin(), parts.end(), [](Part p) { return p != Part::Gradient; }))
        throw EngineError("This optimizer has no fusable momentum; every parameter must arrive as a gradient.");
    step(flat, lr);
}

void Optimizer::finishPart(FlatParameters &, double, std::size_t) {
    throw EngineError("This optimizer has no fusable momentum to finish.");
}

namespace {

torch::Tensor stepTensor(std::int64_t step) { return torch::tensor(step, torch::kInt64); }

/// p -= rate * buf (buf only read: three streams, not four).
void update(float *__restrict p, const float *__restrict buf, std::int64_t n, float rate) {
    for (std::int64_t i = 0; i < n; ++i)
        p[i] -= rate * buf[i];
}

/// buf += wd * p, then p -= rate * buf.
void decayAndUpdate(float *__restrict p, float *__restrict buf, std::int64_t n, float wd, float rate) {
    for (std::int64_t i = 0; i < n; ++i) {
        const float b = buf[i] + wd * p[i];
        buf[i] = b;
        p[i] -= rate * b;
    }
}

class Sgd final : public Optimizer {
public:
    Sgd(const OptimizerConfig &c, std::int64_t numel, const torch::TensorOptions &o) : c_(c) {
        if (c_.momentum > 0) momentum_ = torch::zeros({numel}, o);
    }
    void step(FlatParameters &flat, double lr) override {
        torch::NoGradGuard noGrad;
        auto &p = flat.values();
        auto &g = flat.grads();
        if (c_.momentum > 0 && p.device().is_cpu() && p.scalar_type() == torch::kFloat32 && p.is_contiguous() &&
            g.is_contiguous() && momentum_.is_contiguous()) {
            fusedCpuStep(p.data_ptr<float>(), g.data_ptr<float>(), momentum_.data_ptr<float>(), p.numel(), lr);
            ++steps_;
            return;
        }
        if (c_.weightDecay > 0) g.add_(p, c_.weightDecay);
        if (c_.momentum > 0) {
            if (steps_ == 0)
                momentum_.copy_(g); // torch.optim.SGD: the first buffer is the gradient
            else
                momentum_.mul_(c_.momentum).add_(g);
            if (c_.nesterov)
                p.add_(g.add_(momentum_, c_.momentum), -lr);
            else
                p.add_(momentum_, -lr);
        } else {
            p.add_(g, -lr);
        }
        ++steps_;
    }
    torch::Tensor fusableMomentum() override { return fusedCpuPathApplies() ? momentum_ : torch::Tensor(); }
    float fusableMomentumBeta() const override { return steps_ == 0 ? 0.0F : static_cast<float>(c_.momentum); }
    void stepFused(FlatParameters &flat, double lr, const std::vector<Part> &parts) override {
        if (std::all_of(parts.begin(), parts.end(), [](Part p) { return p == Part::Gradient; })) return step(flat, lr);
        TORCH_CHECK(fusedCpuPathApplies() && parts.size() == flat.parameterCount(), "SGD: bad fused step");
        torch::NoGradGuard noGrad;
        float *p = flat.values().data_ptr<float>(), *buf = momentum_.data_ptr<float>();
        const float *g = flat.grads().data_ptr<float>();
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const auto [offset, n] = flat.rangeOf(i);
            if (parts[i] == Part::MomentumUpdated)
                fusedMomentumCpuStep(p + offset, buf + offset, n, lr);
            else if (parts[i] == Part::Gradient)
                fusedCpuStep(p + offset, g + offset, buf + offset, n, lr);
        }
        ++steps_;
    }
    void finishPart(FlatParameters &flat, double lr, std::size_t i) override {
        TORCH_CHECK(fusedCpuPathApplies() && i < flat.parameterCount(), "SGD: bad part to finish");
        const auto [offset, n] = flat.rangeOf(i);
        fusedMomentumCpuStep(flat.values().data_ptr<float>() + offset, momentum_.data_ptr<float>() + offset, n, lr);
    }
    std::map<std::string, torch::Tensor> state() const override {
        std::map<std::string, torch::Tensor> s{{"step", stepTensor(steps_)}};
        if (momentum_.defined()) s["momentum_buffer"] = momentum_;
        return s;
    }
    void loadState(const std::map<std::string, torch::Tensor> &s) override {
        steps_ = s.at("step").item<std::int64_t>();
        if (momentum_.defined()) momentum_.copy_(s.at("momentum_buffer"));
    }

private:
    /// The momentum update in one pass over parameters, gradients and buffer (the tensor form
    /// above takes three to five); the same arithmetic element by element. Leaves g unchanged.
    void fusedCpuStep(float *p, const float *g, float *buf, std::int64_t n, double lr) const {
        const float m = static_cast<float>(c_.momentum), wd = static_cast<float>(c_.weightDecay);
        const float rate = static_cast<float>(lr);
        const bool first = steps_ == 0, nesterov = c_.nesterov, decay = c_.weightDecay > 0;
        at::parallel_for(0, n, 16384, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                const float grad = decay ? g[i] + wd * p[i] : g[i];
                const float b = first ? grad : m * buf[i] + grad;
                buf[i] = b;
                p[i] -= rate * (nesterov ? grad + m * b : b);
            }
        });
    }

    /// The rest of a fused step once buf already holds `momentum * buf + gradient` (or the
    /// gradient at the first step): weight decay's share of the gradient, then the update.
    void fusedMomentumCpuStep(float *p, float *buf, std::int64_t n, double lr) const {
        const float wd = static_cast<float>(c_.weightDecay), rate = static_cast<float>(lr);
        if (c_.weightDecay > 0) {
            at::parallel_for(0, n, 16384, [=](std::int64_t begin, std::int64_t end) {
                decayAndUpdate(p + begin, buf + begin, end - begin, wd, rate);
            });
        } else {
            at::parallel_for(0, n, 16384, [=](std::int64_t begin, std::int64_t end) {
                update(p + begin, buf + begin, end - begin, rate);
            });
        }
    }
    bool fusedCpuPathApplies() const {
        return c_.momentum > 0 && !c_.nesterov && momentum_.device().is_cpu() &&
               momentum_.scalar_type() == torch::kFloat32 && momentum_.is_contiguous();
    }

    OptimizerConfig c_;
    torch::Tensor momentum_;
    std::int64_t steps_ = 0;
};

class Adam final : public Optimizer {
public:
    Adam(const OptimizerConfig &c, bool decoupled, std::int64_t numel, const torch::TensorOptions &o)
        : c_(c), decoupled_(decoupled), m_(torch::zeros({numel}, o)), v_(torch::zeros({numel}, o)),
          denom_(torch::empty({numel}, o)) {}
    void step(FlatParameters &flat, double lr) override {
        torch::NoGradGuard noGrad;
        auto &p = flat.values();
        auto &g = flat.grads();
        ++steps_;
        if (c_.weightDecay > 0) {
            if (decoupled_)
                p.mul_(1.0 - lr * c_.weightDecay);
            else
                g.add_(p, c_.weightDecay);
        }
        m_.mul_(c_.beta1).add_(g, 1.0 - c_.beta1);
        v_.mul_(c_.beta2).addcmul_(g, g, 1.0 - c_.beta2);
        const double bias1 = 1.0 - std::pow(c_.beta1, static_cast<double>(steps_));
        const double bias2 = 1.0 - std::pow(c_.beta2, static_cast<double>(steps_));
        torch::sqrt_out(denom_, v_);
        denom_.div_(std::sqrt(bias2)).add_(c_.eps);
        p.addcdiv_(m_, denom_, -lr / bias1);
    }
    std::map<std::string, torch::Tensor> state() const override {
        return {{"step", stepTensor(steps_)}, {"exp_avg", m_}, {"exp_avg_sq", v_}};
    }
    void loadState(const std::map<std::string, torch::Tensor> &s) override {
        steps_ = s.at("step").item<std::int64_t>();
        m_.copy_(s.at("exp_avg"));
        v_.copy_(s.at("exp_avg_sq"));
    }

private:
    OptimizerConfig c_;
    bool decoupled_;
    torch::Tensor m_, v_, denom_;
    std::int64_t steps_ = 0;
};

class RmsProp final : public Optimizer {
public:
    RmsProp(const OptimizerConfig &c, std::int64_t numel, const torch::TensorOptions &o)
        : c_(c), square_(torch::zeros({numel}, o)), denom_(torch::empty({numel}, o)) {
        if (c_.momentum > 0) momentum_ = torch::zeros({numel}, o);
    }
    void step(FlatParameters &flat, double lr) override {
        torch::NoGradGuard noGrad;
        auto &p = flat.values();
        auto &g = flat.grads();
        if (c_.weightDecay > 0) g.add_(p, c_.weightDecay);
        square_.mul_(c_.alpha).addcmul_(g, g, 1.0 - c_.alpha);
        torch::sqrt_out(denom_, square_);
        denom_.add_(c_.eps);
        if (c_.momentum > 0) {
            momentum_.mul_(c_.momentum).addcdiv_(g, denom_);
            p.add_(momentum_, -lr);
        } else {
            p.addcdiv_(g, denom_, -lr);
        }
        ++steps_;
    }
    std::map<std::string, torch::Tensor> state() const override {
        std::map<std::string, torch::Tensor> s{{"step", stepTensor(steps_)}, {"square_avg", square_}};
        if (momentum_.defined()) s["momentum_buffer"] = momentum_;
        return s;
    }
    void loadState(const std::map<std::string, torch::Tensor> &s) override {
        steps_ = s.at("step").item<std::int64_t>();
        square_.copy_(s.at("square_avg"));
        if (momentum_.defined()) momentum_.copy_(s.at("momentum_buffer"));
    }

private:
    OptimizerConfig c_;
    torch::Tensor square_, denom_, momentum_;
    std::int64_t steps_ = 0;
};

} // namespace

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig &config, std::int64_t numel,
                                         const torch::TensorOptions &options) {
    if (config.name == "sgd") return std::make_unique<Sgd>(config, numel, options);
    if (config.name == "adam") return std::make_unique<Adam>(config, false, numel, options);
    if (config.name == "adamw") return std::make_unique<Adam>(config, true, numel, options);
    if (config.name == "rmsprop") return std::make_unique<RmsProp>(config, numel, options);
    throw EngineError("Unknown optimizer '" + config.name + "'.", "optimizer.name");
}

double scheduledLearningRate(const ScheduleConfig &s, double lr, std::int64_t step, std::int64_t totalSteps) {
    const double total = static_cast<double>(std::max<std::int64_t>(totalSteps, 1));
    const double t = static_cast<double>(step);
    if (s.name == "one_cycle") {
        // torch.optim.lr_scheduler.OneCycleLR with anneal_strategy="cos", two phases.
        const double initial = lr / s.divFactor;
        const double final = initial / s.finalDivFactor;
        const double up = std::max(1.0, s.pctStart * total - 1.0);
        const double down = std::max(1.0, total - 1.0 - up);
        auto cosAnneal = [](double from, double to, double pct) {
            return to + (from - to) / 2.0 * (1.0 + std::cos(M_PI * pct));
        };
        if (t <= up) return cosAnneal(initial, lr, t / up);
        return cosAnneal(lr, final, std::min(1.0, (t - up) / down));
    }
    double rate = lr;
    const double warm = static_cast<double>(s.warmupSteps);
    if (s.name == "step") {
        const std::int64_t size = s.stepSize > 0 ? s.stepSize : std::max<std::int64_t>(1, totalSteps / 3);
        rate = lr * std::pow(s.gamma, static_cast<double>(step / size));
    } else if (s.name == "cosine") {
        const double span = std::max(1.0, total - warm);
        const double pct = std::clamp((t - warm) / span, 0.0, 1.0);
        rate = s.minLr + (lr - s.minLr) * 0.5 * (1.0 + std::cos(M_PI * pct));
    }
    if (s.warmupSteps > 0 && t < warm) rate *= (t + 1.0) / warm;
    return rate;
}

} // namespace diamond::engine
