#include "model/layer_support.h"

namespace diamond::engine::layers {

using nlohmann::json;

ModuleLayer::ModuleLayer(std::shared_ptr<torch::nn::Module> module, ForwardFn forward, ForwardFn forwardWithRelu)
    : module_(std::move(module)), forward_(std::move(forward)), forwardWithRelu_(std::move(forwardWithRelu)) {
    // Same tensors, same names: parameters and buffers of the module itself (undefined ones,
    // e.g. a disabled bias, are not listed by torch), then its children with their subtrees.
    for (auto &p : module_->named_parameters(/*recurse=*/false))
        register_parameter(p.key(), p.value(), p.value().requires_grad());
    for (auto &b : module_->named_buffers(/*recurse=*/false))
        register_buffer(b.key(), b.value());
    for (auto &c : module_->named_children())
        register_module(c.key(), c.value());
    Layer::train(module_->is_training());
}

void ModuleLayer::train(bool on) {
    module_->train(on);
    Layer::train(on);
}

// The module moves first (with its own to() logic), then the Layer: its tensors are the same,
// so the second move finds them in place.
void ModuleLayer::to(torch::Device device, torch::Dtype dtype, bool non_blocking) {
    module_->to(device, dtype, non_blocking);
    Layer::to(device, dtype, non_blocking);
}

void ModuleLayer::to(torch::Dtype dtype, bool non_blocking) {
    module_->to(dtype, non_blocking);
    Layer::to(dtype, non_blocking);
}

void ModuleLayer::to(torch::Device device, bool non_blocking) {
    module_->to(device, non_blocking);
    Layer::to(device, non_blocking);
}

std::shared_ptr<Layer> unary(std::function<torch::Tensor(const torch::Tensor &)> fn) {
    return std::make_shared<FunctionLayer>([fn = std::move(fn)](const Tensors &in) { return Tensors{fn(in.at(0))}; });
}

// ---- parameters ---------------------------------------------------------------------------

void fail(const LayerBuildContext &ctx, const std::string &message, const std::string &hint) {
    throw EngineError(ctx.type + " '" + ctx.nodeId + "': " + message, {}, ctx.nodeId, hint);
}

namespace {

const json &arg(const LayerBuildContext &ctx, const char *name) {
    if (ctx.params.is_object()) {
        auto it = ctx.params.find(name);
        if (it != ctx.params.end() && !it->is_null()) return *it;
    }
    fail(ctx, std::string("parameter '") + name + "' is missing.");
}

[[noreturn]] void badArg(const LayerBuildContext &ctx, const char *name, const json &value, const char *expected) {
    fail(ctx, std::string("parameter '") + name + "' should be " + expected + ", got " + value.dump() + ".");
}

} // namespace

bool hasArg(const LayerBuildContext &ctx, const char *name) {
    if (!ctx.params.is_object()) return false;
    auto it = ctx.params.find(name);
    return it != ctx.params.end() && !it->is_null();
}

std::int64_t intArg(const LayerBuildContext &ctx, const char *name) {
    const json &v = arg(ctx, name);
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_array() && v.size() == 1 && v[0].is_number_integer()) return v[0].get<std::int64_t>();
    badArg(ctx, name, v, "a whole number");
}

double floatArg(const LayerBuildContext &ctx, const char *name) {
    const json &v = arg(ctx, name);
    if (v.is_number()) return v.get<double>();
    badArg(ctx, name, v, "a number");
}

bool boolArg(const LayerBuildContext &ctx, const char *name) {
    const json &v = arg(ctx, name);
    if (v.is_boolean()) return v.get<bool>();
    badArg(ctx, name, v, "true or false");
}

std::string stringArg(const LayerBuildContext &ctx, const char *name) {
    const json &v = arg(ctx, name);
    if (v.is_string()) return v.get<std::string>();
    badArg(ctx, name, v, "a string");
}

std::vector<std::int64_t> intListArg(const LayerBuildContext &ctx, const char *name, std::size_t n) {
    const json &v = arg(ctx, name);
    std::vector<std::int64_t> out;
    if (v.is_number_integer()) {
        out.push_back(v.get<std::int64_t>());
    } else if (v.is_array()) {
        for (const auto &e : v) {
            if (!e.is_number_integer()) badArg(ctx, name, v, "a list of whole numbers");
            out.push_back(e.get<std::int64_t>());
        }
    } else {
        badArg(ctx, name, v, "a whole number or a list of them");
    }
    if (n > 0 && out.size() == 1) out.assign(n, out[0]);
    if (n > 0 && out.size() != n) badArg(ctx, name, v, ("a list of " + std::to_string(n) + " values").c_str());
    return out;
}

std::size_t inputRank(const LayerBuildContext &ctx, std::size_t input) {
    if (input >= ctx.inputs.size()) fail(ctx, "input " + std::to_string(input + 1) + " is missing.");
    return ctx.inputs[input].shape.size();
}

std::int64_t inputDim(const LayerBuildContext &ctx, std::size_t input, int axis) {
    const auto rank = static_cast<int>(inputRank(ctx, input));
    const int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
        fail(ctx, "input " + std::to_string(input + 1) + " has no dimension " + std::to_string(axis) + " (shape " +
                      spec::formatShape(ctx.inputs[input].shape) + ").");
    }
    const std::int64_t d = ctx.inputs[input].shape[static_cast<std::size_t>(a)];
    if (d == spec::kBatch) {
        fail(ctx, "dimension " + std::to_string(a) + " of input " + std::to_string(input + 1) + " " +
                      spec::formatShape(ctx.inputs[input].shape) + " is the batch dimension, not a size.");
    }
    return d;
}

} // namespace diamond::engine::layers
