#include "model/recompute.h"

#include "torch_compat.h"

#include <ATen/autocast_mode.h>

#include <mutex>

namespace diamond::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

torch::Tensor generatorState(const torch::Device &device) {
    at::Generator generator = at::globalContext().defaultGenerator(device);
    std::lock_guard<std::mutex> lock(generator.mutex());
    return generator.get_state();
}

void setGeneratorState(const torch::Device &device, const torch::Tensor &state) {
    at::Generator generator = at::globalContext().defaultGenerator(device);
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_state(state);
}

/// The dropout masks of a part's first run, for its rerun (see recordedDropout()).
struct DropoutTape {
    struct Entry {
        torch::Tensor mask;           ///< bool
        torch::Tensor generatorAfter; ///< the CPU generator's state after the draw
    };
    std::vector<Entry> entries;
    std::size_t next = 0;
    bool replaying = false;
};

thread_local DropoutTape *activeTape = nullptr;

/// Makes `tape` the one dropout() records into (or replays from) while in scope.
class TapeScope {
public:
    TapeScope(DropoutTape &tape, bool replay) : previous_(activeTape) {
        tape.replaying = replay;
        tape.next = 0;
        activeTape = &tape;
    }
    ~TapeScope() { activeTape = previous_; }
    TapeScope(const TapeScope &) = delete;
    TapeScope &operator=(const TapeScope &) = delete;

private:
    DropoutTape *previous_;
};

/// What the rerun needs from the first run. Lives as long as the autograd node that holds it.
struct PartState : torch::CustomClassHolder {
    DropoutTape tape;
    RecomputedPart part;
    std::vector<torch::Tensor> buffers;
    std::vector<bool> inputNeedsGrad;
    torch::Device device{torch::kCPU};
    torch::Tensor cpuGenerator, deviceGenerator;
    bool autocastOn = false;
    at::ScalarType autocastDtype = at::kFloat;
};

/// The first run's autocast state on the part's device type while in scope.
class AutocastReplay {
public:
    explicit AutocastReplay(const PartState &state) : type_(state.device.type()) {
        wasOn_ = compat::autocastEnabled(type_);
        previousDtype_ = compat::autocastDtype(type_);
        compat::setAutocastEnabled(type_, state.autocastOn);
        compat::setAutocastDtype(type_, state.autocastDtype);
        if (state.autocastOn) {
            at::autocast::increment_nesting();
            nested_ = true;
        }
    }
    ~AutocastReplay() {
        if (nested_ && at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
        compat::setAutocastEnabled(type_, wasOn_);
        compat::setAutocastDtype(type_, previousDtype_);
    }
    AutocastReplay(const AutocastReplay &) = delete;
    AutocastReplay &operator=(const AutocastReplay &) = delete;

private:
    c10::DeviceType type_;
    bool wasOn_ = false;
    bool nested_ = false;
    at::ScalarType previousDtype_ = at::kFloat;
};

/// A leaf that needs a gradient, passed to every recomputed part: without one, a part whose inputs need no gradient
/// (the first layers, fed by data) would get no backward node, and its parameters no gradients.
const torch::Tensor &anchor() {
    static const torch::Tensor tensor = torch::zeros({1}).requires_grad_(true);
    return tensor;
}

bool sameTensor(const torch::Tensor &a, const torch::Tensor &b) {
    return a.defined() && b.defined() && a.unsafeGetTensorImpl() == b.unsafeGetTensorImpl();
}

class RecomputeFunction : public torch::autograd::Function<RecomputeFunction> {
public:
    static variable_list forward(AutogradContext *ctx, c10::intrusive_ptr<PartState> state,
                                 const torch::Tensor & /*anchor*/, at::TensorList inputs) {
        std::vector<torch::Tensor> in(inputs.begin(), inputs.end());
        for (const auto &t : in)
            state->inputNeedsGrad.push_back(t.defined() && t.requires_grad());
        state->cpuGenerator = generatorState(torch::kCPU);
        if (state->device.type() != torch::kCPU) state->deviceGenerator = generatorState(state->device);
        state->autocastOn = compat::autocastEnabled(state->device.type());
        state->autocastDtype = compat::autocastDtype(state->device.type());

        std::vector<torch::Tensor> out;
        {
            TapeScope tape(state->tape, false);
            out = state->part(in); // Function::apply runs this without grad mode
        }
        for (std::size_t i = 0; i < out.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (sameTensor(out[i], out[j])) out[i] = out[i].view_as(out[i]);
            }
        }
        ctx->save_for_backward(in);
        ctx->saved_data["state"] = c10::IValue::make_capsule(std::move(state));
        return out;
    }

    static variable_list backward(AutogradContext *ctx, variable_list gradOutputs) {
        auto state = c10::static_intrusive_pointer_cast<PartState>(ctx->saved_data["state"].toCapsule());
        const variable_list saved = ctx->get_saved_variables();
        std::vector<torch::Tensor> in;
        in.reserve(saved.size());
        for (std::size_t i = 0; i < saved.size(); ++i) {
            torch::Tensor t = saved[i].defined() ? saved[i].detach() : saved[i];
            if (state->inputNeedsGrad[i]) t.requires_grad_(true);
            in.push_back(std::move(t));
        }

        std::vector<torch::Tensor> buffersBefore;
        {
            torch::NoGradGuard noGrad;
            for (const auto &b : state->buffers)
                buffersBefore.push_back(b.clone());
        }
        const torch::Tensor cpuGeneratorNow = generatorState(torch::kCPU);
        const bool onDevice = state->device.type() != torch::kCPU;
        const torch::Tensor deviceGeneratorNow = onDevice ? generatorState(state->device) : torch::Tensor();
        setGeneratorState(torch::kCPU, state->cpuGenerator);
        if (onDevice) setGeneratorState(state->device, state->deviceGenerator);
        std::vector<torch::Tensor> out;
        {
            torch::AutoGradMode gradMode(true);
            AutocastReplay autocast(*state);
            TapeScope tape(state->tape, true);
            out = state->part(in);
        }
        setGeneratorState(torch::kCPU, cpuGeneratorNow);
        if (onDevice) setGeneratorState(state->device, deviceGeneratorNow);
        std::vector<torch::Tensor> roots, rootGrads;
        for (std::size_t i = 0; i < out.size() && i < gradOutputs.size(); ++i) {
            if (!out[i].defined() || !out[i].requires_grad() || !gradOutputs[i].defined()) continue;
            roots.push_back(out[i]);
            rootGrads.push_back(gradOutputs[i]);
        }
        if (!roots.empty()) torch::autograd::backward(roots, rootGrads);
        {
            // After the backward step: batch norm's backward reads the running statistics it saved.
            torch::NoGradGuard noGrad;
            for (std::size_t i = 0; i < buffersBefore.size(); ++i)
                state->buffers[i].copy_(buffersBefore[i]);
        }

        variable_list grads{torch::Tensor(), torch::Tensor()}; // the state, the anchor
        for (std::size_t i = 0; i < in.size(); ++i)
            grads.push_back(state->inputNeedsGrad[i] ? in[i].grad() : torch::Tensor());
        return grads;
    }
};

} // namespace

torch::Tensor recordedDropout(const torch::Tensor &x, double p, bool training) {
    DropoutTape *tape = activeTape;
    if (!tape || !training || p <= 0.0 || p >= 1.0 || x.numel() == 0 || x.device().type() != torch::kCPU)
        return torch::dropout(x, p, training);
    // As ATen's CPU dropout: noise = bernoulli(1 - p) / (1 - p), contiguous, in x's type; x * noise.
    torch::Tensor noise;
    if (!tape->replaying) {
        noise = at::empty_like(x, at::MemoryFormat::Contiguous).bernoulli_(1.0 - p);
        torch::NoGradGuard noGrad;
        tape->entries.push_back({noise.to(torch::kBool), generatorState(torch::kCPU)});
    } else {
        DropoutTape::Entry &entry = tape->entries.at(tape->next++);
        if (!entry.mask.defined()) throw std::runtime_error("a recomputed part ran its backward pass twice");
        noise = at::empty_like(x, at::MemoryFormat::Contiguous).copy_(entry.mask);
        setGeneratorState(torch::kCPU, entry.generatorAfter);
        entry = {}; // the rerun's own graph keeps what backward needs
    }
    noise.div_(1.0 - p);
    return x * noise;
}

std::vector<torch::Tensor> runRecomputed(const RecomputedPart &part, const std::vector<torch::Tensor> &inputs,
                                         std::vector<torch::Tensor> buffers) {
    if (!torch::GradMode::is_enabled()) return part(inputs);
    auto state = c10::make_intrusive<PartState>();
    state->part = part;
    state->buffers = std::move(buffers);
    for (const auto &t : inputs) {
        if (t.defined()) {
            state->device = t.device();
            break;
        }
    }
    return RecomputeFunction::apply(std::move(state), anchor(), at::TensorList(inputs));
}

} // namespace diamond::engine
