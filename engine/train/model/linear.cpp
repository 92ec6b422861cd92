// Linear: torch::nn::Linear over the last dimension; in_features from the input's last dimension.
// On CPU with float32, when the engine is built with oneDNN (DIAMOND_WITH_DNNL), the three
// matrix products of forward and backward go to oneDNN's sgemm, which is 10-20 % faster than
// libtorch's BLAS (OpenBLAS) on the GEMM shapes of small-batch training. Same results up to
// float rounding; anything else (CUDA, other dtypes) takes torch's own path.
#include "model/layer_support.h"

#ifdef DIAMOND_WITH_DNNL
#include <dnnl.h>
#include <omp.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace diamond::engine::layers {

#ifdef DIAMOND_WITH_DNNL
namespace {

std::atomic<bool> gWeightGradsInPlace{false};

/// Overwrite-first bookkeeping (beginLinearGradientStep): the step whose first write to a gradient
/// overwrites it (0: every write adds), and the step each gradient buffer was last written in;
/// redirected parameters (redirectLinearGradients) by data pointer, and the beta of their
/// buffers' first write in the current step.
struct GradientSteps {
    std::mutex mutex;
    std::uint64_t current = 0;
    std::unordered_map<const void *, std::uint64_t> lastWritten;
    std::unordered_map<const void *, torch::Tensor> redirects;
    float redirectedFirstWriteBeta = 0.0F;
    std::function<void(const torch::Tensor &)> finisher; ///< after each write into a redirection buffer
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

/// Where the in-place product for `param` goes: its redirection buffer, that buffer's first-write
/// beta and the finisher to call after the write; or its .grad(), 0 and none.
struct GradientTarget {
    torch::Tensor buffer;
    float firstWriteBeta = 0.0F;
    std::function<void(const torch::Tensor &)> finisher;
};
GradientTarget gradientTarget(const torch::Tensor &param) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    const auto it = steps.redirects.find(param.data_ptr());
    if (it != steps.redirects.end()) return {it->second, steps.redirectedFirstWriteBeta, steps.finisher};
    return {param.grad(), 0.0F, {}};
}

/// Row-major C[m,n] = op(A) op(B) + beta C with oneDNN, leading dimensions given.
void sgemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, const float *a, std::int64_t lda,
           const float *b, std::int64_t ldb, float beta, float *c, std::int64_t ldc) {
    const dnnl_status_t status =
        dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0F, a, lda, b, ldb, beta, c, ldc);
    TORCH_CHECK(status == dnnl_success, "oneDNN sgemm failed with status ", static_cast<int>(status));
}

/// The same on contiguous float32 tensors.
void sgemm(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k, const torch::Tensor &a,
           const torch::Tensor &b, float beta, torch::Tensor &c) {
    sgemm(transA, transB, m, n, k, a.data_ptr<float>(), transA ? m : k, b.data_ptr<float>(), transB ? k : n, beta,
          c.data_ptr<float>(), n);
}

// Branch-free loops over unaliased arrays, so that they vectorise (signs are random: a branch per
// element would mispredict half the time).
void reluInPlace(float *__restrict y, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i)
        y[i] = y[i] < 0.0F ? 0.0F : y[i]; // NaN stays NaN, as torch.relu
}
void reluGradient(const float *__restrict g, const float *__restrict y, float *__restrict out, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) {
        const float grad = g[i];             // loaded unconditionally: a select, not a branch
        out[i] = y[i] <= 0.0F ? 0.0F : grad; // as torch's threshold_backward
    }
}

/// y[m,n] with every row a copy of bias[n]: the product's starting value (GEMM beta 1), written
/// row by row (expand().contiguous() goes through a strided TensorIterator copy: 2 % of a step of
/// a 784-512-256-10 MLP).
torch::Tensor biasRows(const torch::Tensor &bias, std::int64_t m) {
    const torch::Tensor b = bias.contiguous();
    const std::int64_t n = b.numel();
    torch::Tensor y = torch::empty({m, n}, b.options());
    const float *const from = b.data_ptr<float>();
    float *const to = y.data_ptr<float>();
    at::parallel_for(0, m, std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(n, 1)),
                     [=](std::int64_t begin, std::int64_t end) {
                         for (std::int64_t r = begin; r < end; ++r)
                             std::memcpy(to + r * n, from, static_cast<std::size_t>(n) * sizeof(float));
                     });
    return y;
}

/// A vector of m ones (the left operand of the bias-gradient GEMV), kept per thread and reused.
torch::Tensor onesVector(std::int64_t m, const torch::TensorOptions &options) {
    thread_local torch::Tensor ones;
    if (!ones.defined() || ones.numel() < m || ones.options().dtype() != options.dtype() ||
        ones.device() != options.device())
        ones = torch::ones({std::max<std::int64_t>(m, 256)}, options);
    return ones.narrow(0, 0, m);
}

/// y = max(y, 0) in place, y contiguous.
void applyRelu(torch::Tensor &y) {
    float *const out = y.data_ptr<float>();
    at::parallel_for(0, y.numel(), 16384,
                     [out](std::int64_t begin, std::int64_t end) { reluInPlace(out + begin, end - begin); });
}

/// The gradient through a ReLU whose output is y: 0 where y <= 0, else g. Both contiguous, with
/// the same number of elements.
torch::Tensor reluBackward(const torch::Tensor &g, const torch::Tensor &y) {
    torch::Tensor out = torch::empty_like(g);
    const float *const gp = g.data_ptr<float>(), *const yp = y.data_ptr<float>();
    float *const op = out.data_ptr<float>();
    at::parallel_for(0, g.numel(), 16384, [gp, yp, op](std::int64_t begin, std::int64_t end) {
        reluGradient(gp + begin, yp + begin, op + begin, end - begin);
    });
    return out;
}

/// y = x W^T + b for x [M,K], W [N,K], b [N] (or empty: no bias); with `relu`, y = max(that, 0)
/// applied in place while y is still in cache, and its gradient applied in backward: no ReLU
/// node, no second activation buffer. (The bias is the product's starting value either way, so
/// the values are those of Linear then ReLU bit for bit.)
class DnnlLinearFunction : public torch::autograd::Function<DnnlLinearFunction> {
public:
    static torch::Tensor forward(torch::autograd::AutogradContext *ctx, const torch::Tensor &input,
                                 const torch::Tensor &weight, const torch::Tensor &bias, bool relu) {
        const torch::Tensor x = input.contiguous(), w = weight.contiguous();
        const std::int64_t m = x.size(0), k = x.size(1), n = w.size(0);
        const bool hasBias = bias.numel() > 0; // an empty tensor stands for "no bias"
        torch::Tensor y = hasBias ? biasRows(bias, m) : torch::empty({m, n}, x.options());
        sgemm(false, true, m, n, k, x, w, hasBias ? 1.0F : 0.0F, y);
        if (relu) {
            applyRelu(y);
            ctx->save_for_backward({x, w, y});
        } else {
            ctx->save_for_backward({x, w});
        }
        ctx->saved_data["bias"] = hasBias;
        if (hasBias) ctx->saved_data["bias_tensor"] = bias; // a leaf parameter: no reference cycle
        return y;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext *ctx,
                                                   torch::autograd::variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &x = saved[0], &w = saved[1];
        const torch::Tensor g =
            saved.size() > 2 ? reluBackward(gradOutputs[0].contiguous(), saved[2]) : gradOutputs[0].contiguous();
        const std::int64_t m = x.size(0), k = x.size(1), n = w.size(0);
        torch::Tensor gradInput, gradWeight, gradBias;
        if (ctx->needs_input_grad(0)) {
            gradInput = torch::empty({m, k}, g.options());
            sgemm(false, false, m, k, n, g, w, 0.0F, gradInput);
        }
        // With in-place accumulation on, a parameter gradient is added to the parameter's .grad (or its
        // redirection buffer) by the product itself (beta 1, or the first-write beta for a step's first
        // write, see beginLinearGradientStep) and reported to autograd as undefined (zero), saving a pass
        // and a buffer.
        const auto product = [&](const torch::Tensor &param, bool transA, std::int64_t rows, std::int64_t cols,
                                 std::int64_t inner, const torch::Tensor &a, const torch::Tensor &b) {
            if (gWeightGradsInPlace.load()) {
                GradientTarget target = gradientTarget(param);
                torch::Tensor &buffer = target.buffer;
                if (buffer.defined() && buffer.is_contiguous() && buffer.sizes() == param.sizes() &&
                    buffer.scalar_type() == torch::kFloat32) {
                    sgemm(transA, false, rows, cols, inner, a, b,
                          firstWriteThisStep(buffer) ? target.firstWriteBeta : 1.0F, buffer);
                    if (target.finisher) target.finisher(buffer); // still in cache
                    return torch::Tensor();
                }
            }
            torch::Tensor target = torch::empty(param.sizes(), g.options());
            sgemm(transA, false, rows, cols, inner, a, b, 0.0F, target);
            return target;
        };
        if (ctx->needs_input_grad(1)) gradWeight = product(w, true, n, k, m, g, x);
        if (ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(2)) {
            // The column sums as a [1,M] x [M,N] product: one pass, faster than sum(0) here.
            gradBias =
                product(ctx->saved_data["bias_tensor"].toTensor(), false, 1, n, m, onesVector(m, g.options()), g);
        }
        return {gradInput, gradWeight, gradBias, torch::Tensor()};
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

torch::Tensor linearForward(torch::nn::Linear &m, const torch::Tensor &x, bool relu) {
    if (!dnnlApplies(x, m->weight)) {
        zeroForAccumulation(m->weight);
        zeroForAccumulation(m->bias);
        return relu ? torch::relu(m->forward(x)) : m->forward(x);
    }
    const std::int64_t k = x.size(-1);
    std::vector<std::int64_t> outShape = x.sizes().vec();
    outShape.back() = m->weight.size(0);
    const torch::Tensor y =
        DnnlLinearFunction::apply(x.dim() == 2 ? x : x.reshape({-1, k}), m->weight,
                                  m->bias.defined() ? m->bias : torch::empty({0}, x.options()), relu);
    return x.dim() == 2 ? y : y.view(outShape);
}

} // namespace

void warmUpLinearProducts(const std::vector<std::array<std::int64_t, 2>> &weightShapes, std::int64_t rows) {
    omp_set_num_threads(1); // this thread's parallel regions only
    for (const auto &[out, in] : weightShapes) {
        if (out <= 0 || in <= 0 || rows <= 0) continue;
        // Large layers: their first step dwarfs the kernel generation; no 64 MB of scratch for them.
        if (rows * in + out * in + rows * out > (std::int64_t{16} << 20)) continue;
        std::vector<float> x(static_cast<std::size_t>(rows * in)), w(static_cast<std::size_t>(out * in)),
            y(static_cast<std::size_t>(rows * out)), ones(static_cast<std::size_t>(rows), 1.0F),
            bias(static_cast<std::size_t>(out));
        for (const float beta : {1.0F, 0.0F}) // forward with and without a bias
            sgemm(false, true, rows, out, in, x.data(), in, w.data(), in, beta, y.data(), out);
        sgemm(false, false, rows, in, out, y.data(), out, w.data(), in, 0.0F, x.data(), in); // input gradient
        // Weight and bias gradients: overwrite (0), accumulate (1) and momentum (any other beta)
        // are different kernels.
        for (const float beta : {0.0F, 1.0F, 0.5F}) {
            sgemm(true, false, out, in, rows, y.data(), out, x.data(), in, beta, w.data(), in);
            sgemm(false, false, 1, out, rows, ones.data(), rows, y.data(), out, beta, bias.data(), out);
        }
    }
}

void setLinearWeightGradsInPlace(bool on) {
    gWeightGradsInPlace = on;
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    steps.current = 0;
    steps.lastWritten.clear();
    steps.redirects.clear();
    steps.finisher = nullptr;
}

void setLinearGradientFinisher(std::function<void(const torch::Tensor &buffer)> finisher) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    steps.finisher = std::move(finisher);
}

void redirectLinearGradients(std::unordered_map<const void *, torch::Tensor> targets) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    steps.redirects = std::move(targets);
}

bool linearWeightGradsInPlace() { return gWeightGradsInPlace.load(); }
bool linearWeightGradsInPlaceAvailable() { return true; }

std::uint64_t beginLinearGradientStep(float redirectedFirstWriteBeta) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    steps.redirectedFirstWriteBeta = redirectedFirstWriteBeta;
    return ++steps.current;
}

bool linearGradientWritten(const torch::Tensor &grad, std::uint64_t step) {
    GradientSteps &steps = gradientSteps();
    const std::lock_guard<std::mutex> lock(steps.mutex);
    const auto it = steps.lastWritten.find(grad.data_ptr());
    return it != steps.lastWritten.end() && it->second == step;
}
#else
void warmUpLinearProducts(const std::vector<std::array<std::int64_t, 2>> &, std::int64_t) {}
void setLinearWeightGradsInPlace(bool) {}
bool linearWeightGradsInPlace() { return false; }
bool linearWeightGradsInPlaceAvailable() { return false; }
void redirectLinearGradients(std::unordered_map<const void *, torch::Tensor>) {}
void setLinearGradientFinisher(std::function<void(const torch::Tensor &)>) {}
std::uint64_t beginLinearGradientStep(float) { return 0; }
bool linearGradientWritten(const torch::Tensor &, std::uint64_t) { return false; }
namespace {
torch::Tensor linearForward(torch::nn::Linear &m, const torch::Tensor &x, bool relu) {
    return relu ? torch::relu(m->forward(x)) : m->forward(x);
}
} // namespace
#endif

void addLinearFactories(LayerFactoryMap &m) {
    m["Linear"] = [](const LayerBuildContext &ctx) {
        return wrapModule<torch::nn::Linear>(
            torch::nn::Linear(
                torch::nn::LinearOptions(inputDim(ctx, 0, -1), intArg(ctx, "out_features")).bias(boolArg(ctx, "bias"))),
            [](torch::nn::Linear &l, const Tensors &in) { return Tensors{linearForward(l, in.at(0), false)}; },
            [](torch::nn::Linear &l, const Tensors &in) { return Tensors{linearForward(l, in.at(0), true)}; });
    };
}

} // namespace diamond::engine::layers
