#include "optimizer.h"

#include "engine_error.h"

#include <cmath>

namespace diamond::engine {

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
        auto value = values_.narrow(0, offset, n).view(p.sizes());
        value.copy_(p);
        p.set_data(value);
        p.mutable_grad() = grads_.narrow(0, offset, n).view(p.sizes());
        offset += n;
    }
}

namespace {

torch::Tensor stepTensor(std::int64_t step) { return torch::tensor(step, torch::kInt64); }

class Sgd final : public Optimizer {
public:
    Sgd(const OptimizerConfig &c, std::int64_t numel, const torch::TensorOptions &o) : c_(c) {
        if (c_.momentum > 0) momentum_ = torch::zeros({numel}, o);
    }
    void step(FlatParameters &flat, double lr) override {
        torch::NoGradGuard noGrad;
        auto &p = flat.values();
        auto &g = flat.grads();
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
