// Elementwise activations and (Log)Softmax: stateless, computed with the same ATen functions
// as torch.nn's modules (so values and gradients match PyTorch's).
#include "model/layer_support.h"

namespace diamond::engine::layers {

namespace {

using Fn = std::function<torch::Tensor(const torch::Tensor &)>;

void add(LayerFactoryMap &m, const char *type, std::function<Fn(const LayerBuildContext &)> make) {
    m[type] = [make = std::move(make)](const LayerBuildContext &ctx) { return unary(make(ctx)); };
}

void add(LayerFactoryMap &m, const char *type, Fn fn) {
    m[type] = [fn = std::move(fn)](const LayerBuildContext &) { return unary(fn); };
}

} // namespace

void addActivationFactories(LayerFactoryMap &m) {
    add(m, "ReLU", Fn([](const torch::Tensor &x) { return torch::relu(x); }));
    // nn.ReLU6 is hardtanh(0, 6); hardtanh has no integer kernel, clamp is the same there.
    add(m, "ReLU6", Fn([](const torch::Tensor &x) {
            return x.is_floating_point() ? torch::hardtanh(x, 0, 6) : torch::clamp(x, 0, 6);
        }));
    add(m, "LeakyReLU", [](const LayerBuildContext &ctx) -> Fn {
        const double slope = floatArg(ctx, "negative_slope");
        return [slope](const torch::Tensor &x) { return torch::leaky_relu(x, slope); };
    });
    add(m, "GELU", [](const LayerBuildContext &ctx) -> Fn {
        const std::string approximate = stringArg(ctx, "approximate");
        return [approximate](const torch::Tensor &x) { return torch::gelu(x, approximate); };
    });
    add(m, "ELU", [](const LayerBuildContext &ctx) -> Fn {
        const double alpha = floatArg(ctx, "alpha");
        return [alpha](const torch::Tensor &x) { return torch::elu(x, alpha); };
    });
    add(m, "Softplus", [](const LayerBuildContext &ctx) -> Fn {
        const double beta = floatArg(ctx, "beta"), threshold = floatArg(ctx, "threshold");
        return [beta, threshold](const torch::Tensor &x) { return torch::softplus(x, beta, threshold); };
    });
    add(m, "Mish", Fn([](const torch::Tensor &x) { return torch::mish(x); }));
    add(m, "SiLU", Fn([](const torch::Tensor &x) { return torch::silu(x); }));
    add(m, "Tanh", Fn([](const torch::Tensor &x) { return torch::tanh(x); }));
    add(m, "Sigmoid", Fn([](const torch::Tensor &x) { return torch::sigmoid(x); }));
    add(m, "Softmax", [](const LayerBuildContext &ctx) -> Fn {
        const std::int64_t dim = intArg(ctx, "dim");
        return [dim](const torch::Tensor &x) { return torch::softmax(x, dim); };
    });
    add(m, "LogSoftmax", [](const LayerBuildContext &ctx) -> Fn {
        const std::int64_t dim = intArg(ctx, "dim");
        return [dim](const torch::Tensor &x) { return torch::log_softmax(x, dim); };
    });
}

} // namespace diamond::engine::layers
