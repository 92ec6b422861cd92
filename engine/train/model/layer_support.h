// Private helpers for the layer factories under model/: reading resolved spec parameters,
// inferred input sizes, and two generic Layer implementations (one wrapping a torch module,
// one for stateless functions). Not part of the engine's interface.
#pragma once

#include "engine_error.h"
#include "model/network.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace diamond::engine::layers {

using Tensors = std::vector<torch::Tensor>;
using ForwardFn = std::function<Tensors(const Tensors &)>;

/// A Layer around one torch module. The module's own parameters and buffers, and its child
/// modules, are registered on the Layer under the module's names (sharing the tensors), so the
/// Layer's named_parameters() are torch's ("weight", "weight_ih_l0", "out_proj.weight").
/// train() and to() reach the wrapped module too (its own flags and hooks, e.g. an RNN
/// re-flattening its weights after a move). `forward` calls the module; it may capture it.
class ModuleLayer : public Layer {
public:
    /// forwardWithRelu, when given, computes forward's result with a ReLU applied to the first output.
    ModuleLayer(std::shared_ptr<torch::nn::Module> module, ForwardFn forward, ForwardFn forwardWithRelu = {});

    Tensors forward(const Tensors &inputs) override { return forward_(inputs); }
    bool fusesRelu() const override { return static_cast<bool>(forwardWithRelu_); }
    Tensors forwardWithRelu(const Tensors &inputs) override {
        return forwardWithRelu_ ? forwardWithRelu_(inputs) : Layer::forwardWithRelu(inputs);
    }
    void train(bool on = true) override;
    void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override;
    void to(torch::Dtype dtype, bool non_blocking = false) override;
    void to(torch::Device device, bool non_blocking = false) override;

private:
    std::shared_ptr<torch::nn::Module> module_;
    ForwardFn forward_, forwardWithRelu_;
};

/// A Layer with neither parameters nor buffers whose forward is a plain function.
class FunctionLayer : public Layer {
public:
    explicit FunctionLayer(ForwardFn forward) : forward_(std::move(forward)) {}
    Tensors forward(const Tensors &inputs) override { return forward_(inputs); }

private:
    ForwardFn forward_;
};

/// Wraps a torch::nn module holder (torch::nn::Linear, ...) with a forward that gets the holder.
/// forwardWithRelu (optional): the same with a ReLU on the first output, in one computation.
template <typename Holder>
std::shared_ptr<Layer> wrapModule(Holder holder, std::function<Tensors(Holder &, const Tensors &)> forward,
                                  std::function<Tensors(Holder &, const Tensors &)> forwardWithRelu = {}) {
    auto module = holder.ptr();
    ForwardFn withRelu;
    if (forwardWithRelu)
        withRelu = [holder, fn = std::move(forwardWithRelu)](const Tensors &in) mutable { return fn(holder, in); };
    return std::make_shared<ModuleLayer>(
        module, [holder, forward = std::move(forward)](const Tensors &in) mutable { return forward(holder, in); },
        std::move(withRelu));
}

/// Wraps a holder whose forward takes and returns one tensor (Linear, Conv2d, BatchNorm2d, ...).
template <typename Holder> std::shared_ptr<Layer> wrapUnary(Holder holder) {
    return wrapModule<Holder>(holder, [](Holder &m, const Tensors &in) { return Tensors{m->forward(in.at(0))}; });
}

/// A stateless layer from a one-tensor function.
std::shared_ptr<Layer> unary(std::function<torch::Tensor(const torch::Tensor &)> fn);

// ---- reading the node's resolved parameters ------------------------------------------------
// The analysis already validated and normalised them (see diamond::spec::resolveParams); a
// missing or mistyped value here is an internal inconsistency and throws EngineError naming
// the node and parameter.

/// Throws EngineError("<type> '<id>': <message>") for this node.
[[noreturn]] void fail(const LayerBuildContext &ctx, const std::string &message, const std::string &hint = {});

bool hasArg(const LayerBuildContext &ctx, const char *name); ///< present and not null
std::int64_t intArg(const LayerBuildContext &ctx, const char *name);
double floatArg(const LayerBuildContext &ctx, const char *name);
bool boolArg(const LayerBuildContext &ctx, const char *name);
std::string stringArg(const LayerBuildContext &ctx, const char *name);
/// An integer or list of integers; a scalar or 1-element list is repeated to n entries when n > 0,
/// and the result must then have n entries.
std::vector<std::int64_t> intListArg(const LayerBuildContext &ctx, const char *name, std::size_t n = 0);

/// Dimension `axis` (negative counts from the end) of input `input`'s inferred shape; throws
/// when the input is missing or the dimension is the batch marker.
std::int64_t inputDim(const LayerBuildContext &ctx, std::size_t input, int axis);
/// Rank of input `input`'s inferred shape.
std::size_t inputRank(const LayerBuildContext &ctx, std::size_t input = 0);

template <std::size_t D> torch::ExpandingArray<D> expanding(const std::vector<std::int64_t> &values) {
    return torch::ExpandingArray<D>(at::IntArrayRef(values));
}

} // namespace diamond::engine::layers
