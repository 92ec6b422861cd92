// Linear: torch::nn::Linear over the last dimension; in_features from the input's last dimension.
// On CPU with float32, when the engine is built with oneDNN (DIAMOND_WITH_DNNL), the three
// matrix products of forward and backward go to oneDNN's sgemm, which is 10-20 % faster than
// libtorch's BLAS (OpenBLAS) on the GEMM shapes of small-batch training. Same results up to
// float rounding; anything else (CUDA, other dtypes) takes torch's own path.
#include "model/layer_support.h"

#ifdef DIAMOND_WITH_DNNL
#include <dnnl.h>
#endif

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace diamond::engine::layers {

#ifdef DIAMOND_WITH_DNNL
namespace {

std::atomic<bool> gWeightGradsInPlace{false};

/// Overwrite-first bookkeeping (beginLinearGradientStep): the step whose first write to a gradient
/// overwrites it (0: every write adds), and the step each gradient buffer was last written in.
struct GradientSteps {
    std::mutex mutex;
    std::uint64_t current = 0;
    std::unordered_map<const void *, std::uint64_t> lastWritten;
};
GradientSteps &gradientSteps() {
    static GradientSteps steps;
    return steps;
}

/// Whether this is the first write to `grad` in the current overwrite-first step (then marks it
/// written); always false outside such steps.
bool firstWriteThisStep(const torch::Tensor &grad) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    if (steps.current == 0) return false;
    std::uint64_t &last = steps.lastWritten[grad.data_ptr()];
    if (last == steps.current) return false;
    last = steps.current;
    return true;
}

/// Row-major C[m,n] = op(A) op(B) + beta C with oneDNN; A, B, C contiguous float32.
void sgemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, const torch::Tensor &a,
           const torch::Tensor &b, float beta, torch::Tensor &c) {
    const dnnl_status_t status =
        dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0F, a.data_ptr<float>(), transA ? m : k,
                   b.data_ptr<float>(), transB ? k : n, beta, c.data_ptr<float>(), n);
    TORCH_CHECK(status == dnnl_success, "oneDNN sgemm failed with status ", static_cast<int>(status));
}

/// y = x W^T + b for x [M,K], W [N,K], b [N] (or empty: no bias).
class DnnlLinearFunction : public torch::autograd::Function<DnnlLinearFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext *ctx, const torch::Tensor &input,
                                 const torch::Tensor &weight, const torch::Tensor &bias) {
        const torch::Tensor x = input.contiguous(), w = weight.contiguous();
        const std::int64_t m = x.size(0), k = x.size(1), n = w.size(0);
        const bool hasBias = bias.numel() > 0; // an empty tensor stands for "no bias"
        torch::Tensor y = hasBias ? bias.expand({m, n}).contiguous() : torch::empty({m, n}, x.options());
        sgemm(false, true, m, n, k, x, w, hasBias ? 1.0F : 0.0F, y);
        ctx->save_for_backward({x, w});
        ctx->saved_data["bias"] = hasBias;
        if (hasBias) ctx->saved_data["bias_tensor"] = bias; // a leaf parameter: no reference cycle
        return y;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &x = saved[0], &w = saved[1];
        const torch::Tensor g = gradOutputs[0].contiguous();
        const std::int64_t m = x.size(0), k = x.size(1), n = w.size(0);
        torch::Tensor gradInput, gradWeight, gradBias;
        if (ctx->needs_input_grad(0)) {
            gradInput = torch::empty({m, k}, g.options());
            sgemm(false, false, m, k, n, g, w, 0.0F, gradInput);
        }
        // With in-place accumulation on, a parameter gradient is added to the parameter's .grad by the
        // product itself (beta 1, or 0 for a step's first write, see beginLinearGradientStep) and reported to
        // autograd as undefined (zero), saving a pass and a buffer.
        const auto product = [&](const torch::Tensor &param, bool transA, std::int64_t rows, std::int64_t cols,
                                 std::int64_t inner, const torch::Tensor &a, const torch::Tensor &b) {
            torch::Tensor target = param.grad();
            if (gWeightGradsInPlace.load() && target.defined() && target.is_contiguous() &&
                target.sizes() == param.sizes() && target.scalar_type() == torch::kFloat32) {
                sgemm(transA, false, rows, cols, inner, a, b, firstWriteThisStep(target) ? 0.0F : 1.0F, target);
                return torch::Tensor();
            }
            target = torch::empty(param.sizes(), g.options());
            sgemm(transA, false, rows, cols, inner, a, b, 0.0F, target);
            return target;
        };
        if (ctx->needs_input_grad(1)) gradWeight = product(w, true, n, k, m, g, x);
        if (ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(2)) {
            // The column sums as a [1,M] x [M,N] product: one pass, faster than sum(0) here.
            gradBias =
                product(ctx->saved_data["bias_tensor"].toTensor(), false, 1, n, m, torch::ones({m}, g.options()), g);
        }
        return {gradInput, gradWeight, gradBias};
    }
};

bool dnnlApplies(const torch::Tensor &x, const torch::Tensor &weight) {
    return x.device().is_cpu() && weight.device().is_cpu() && x.scalar_type() == torch::kFloat32 &&
           weight.scalar_type() == torch::kFloat32 && x.dim() >= 2 && x.numel() > 0;
}

/// Torch's own Linear accumulates through AccumulateGrad: during an overwrite-first step its
/// gradients must start from zero.
void zeroForAccumulation(const torch::Tensor &param) {
    if (!param.defined() || !param.grad().defined() || !torch::GradMode::is_enabled()) return;
    if (!firstWriteThisStep(param.grad())) return;
    torch::NoGradGuard noGrad;
    param.grad().zero_();
}

torch::Tensor linearForward(torch::nn::Linear &m, const torch::Tensor &x) {
    if (!dnnlApplies(x, m->weight)) {
        zeroForAccumulation(m->weight);
        zeroForAccumulation(m->bias);
        return m->forward(x);
    }
    const std::int64_t k = x.size(-1);
    std::vector<std::int64_t> outShape = x.sizes().vec();
    outShape.back() = m->weight.size(0);
    const torch::Tensor y = DnnlLinearFunction::apply(x.dim() == 2 ? x : x.reshape({-1, k}), m->weight,
                                                      m->bias.defined() ? m->bias : torch::empty({0}, x.options()));
    return x.dim() == 2 ? y : y.view(outShape);
}

} // namespace

void setLinearWeightGradsInPlace(bool on) {
    gWeightGradsInPlace = on;
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    steps.current = 0;
    steps.lastWritten.clear();
}

bool linearWeightGradsInPlace() { return gWeightGradsInPlace.load(); }
bool linearWeightGradsInPlaceAvailable() { return true; }

std::uint64_t beginLinearGradientStep() {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    return ++steps.current;
}

bool linearGradientWritten(const torch::Tensor &grad, std::uint64_t step) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    const auto it = steps.lastWritten.find(grad.data_ptr());
    return it != steps.lastWritten.end() && it->second == step;
}
#else
void setLinearWeightGradsInPlace(bool) {}
bool linearWeightGradsInPlace() { return false; }
bool linearWeightGradsInPlaceAvailable() { return false; }
std::uint64_t beginLinearGradientStep() { return 0; }
bool linearGradientWritten(const torch::Tensor &, std::uint64_t) { return false; }
namespace {
torch::Tensor linearForward(torch::nn::Linear &m, const torch::Tensor &x) { return m->forward(x); }
} // namespace
#endif

void addLinearFactories(LayerFactoryMap &m) {
    m["Linear"] = [](const LayerBuildContext &ctx) {
        return wrapModule<torch::nn::Linear>(
            torch::nn::Linear(
                torch::nn::LinearOptions(inputDim(ctx, 0, -1), intArg(ctx, "out_features")).bias(boolArg(ctx, "bias"))),
            [](torch::nn::Linear &l, const Tensors &in) { return Tensors{linearForward(l, in.at(0))}; });
    };
}

} // namespace diamond::engine::layers
