#include "export/tensor_io.h"

#include "checked_math.h"
#include "engine_error.h"
#include "model/network.h"

#include <cstring>
#include <set>

namespace diamond::engine {

namespace {

std::string safetensorsDtype(const std::string &name, torch::ScalarType type) {
    switch (type) {
    case torch::kFloat64: return "F64";
    case torch::kFloat32: return "F32";
    case torch::kFloat16: return "F16";
    case torch::kBFloat16: return "BF16";
    case torch::kInt64: return "I64";
    case torch::kInt32: return "I32";
    case torch::kInt16: return "I16";
    case torch::kInt8: return "I8";
    case torch::kUInt8: return "U8";
    case torch::kBool: return "BOOL";
    default: break;
    }
    throw EngineError("The tensor '" + name + "' has the type " + std::string(c10::toString(type)) +
                      ", which safetensors cannot store.");
}

} // namespace

SafetensorsTensor toSafetensors(const std::string &name, const torch::Tensor &tensor) {
    const torch::Tensor t = tensor.detach().cpu().contiguous();
    SafetensorsTensor out;
    out.name = name;
    out.dtype = safetensorsDtype(name, t.scalar_type());
    out.shape = t.sizes().vec();
    out.data.assign(static_cast<const char *>(t.data_ptr()), static_cast<std::size_t>(t.numel() * t.element_size()));
    return out;
}

torch::ScalarType scalarTypeOf(const SafetensorsTensor &entry) {
    static const std::pair<const char *, torch::ScalarType> kTypes[] = {
        {"F64", torch::kFloat64}, {"F32", torch::kFloat32}, {"F16", torch::kFloat16}, {"BF16", torch::kBFloat16},
        {"I64", torch::kInt64},   {"I32", torch::kInt32},   {"I16", torch::kInt16},   {"I8", torch::kInt8},
        {"U8", torch::kUInt8},    {"BOOL", torch::kBool}};
    for (const auto &[name, type] : kTypes)
        if (entry.dtype == name) return type;
    throw EngineError("The tensor '" + entry.name + "' has the dtype " + entry.dtype +
                      ", which the engine cannot use.");
}

namespace {

std::string shapeText(c10::IntArrayRef shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

} // namespace

torch::Tensor fromSafetensors(const SafetensorsTensor &entry) {
    const torch::ScalarType type = scalarTypeOf(entry);
    std::uint64_t bytes = 0;
    if (!checkedBytes(entry.shape, torch::elementSize(type), bytes) || bytes != entry.data.size())
        throw EngineError("The tensor '" + entry.name + "' has " + std::to_string(entry.data.size()) +
                          " bytes, not what its dtype and shape need.");
    torch::Tensor t = torch::empty(entry.shape, torch::TensorOptions().dtype(type));
    if (static_cast<std::size_t>(t.numel() * t.element_size()) != entry.data.size())
        throw EngineError("The tensor '" + entry.name + "' has " + std::to_string(entry.data.size()) +
                          " bytes, not what its dtype and shape need.");
    if (!entry.data.empty()) std::memcpy(t.data_ptr(), entry.data.data(), entry.data.size());
    return t;
}

void checkWeightsFitSpec(const spec::Analysis &analysis, const SafetensorsFile &file, const std::string &source) {
    std::uint64_t values = 0;
    for (const SafetensorsTensor &entry : file.tensors) {
        std::uint64_t n = 0;
        if (!checkedElements(entry.shape, n) || !checkedAdd(values, n, values)) values = ~std::uint64_t(0);
    }
    const auto needed = static_cast<std::uint64_t>(std::max<std::int64_t>(analysis.totalParams, 0));
    if (needed * 4 <= static_cast<std::uint64_t>(kPrebuildWeightCheckBytes) || values >= needed) return;
    const spec::NodeInfo *largest = nullptr;
    for (const spec::NodeInfo &node : analysis.nodes)
        if (!largest || node.paramCount > largest->paramCount) largest = &node;
    throw EngineError(source + " holds " + std::to_string(values) + " values in " +
                          std::to_string(file.tensors.size()) + " tensors, but the spec's network has " +
                          std::to_string(needed) + " parameters (" + std::to_string(needed * 4) + " bytes as float32" +
                          (largest ? ", " + std::to_string(largest->paramCount) + " of them in '" + largest->id + "'"
                                   : std::string()) +
                          "): these cannot be its weights.",
                      "--weights", {}, "The weights must come from the same network (the same spec).");
}

void loadNetworkWeights(Network &net, const SafetensorsFile &file, const std::string &source) {
    std::set<std::string> used;
    torch::NoGradGuard noGrad;
    for (auto &[name, tensor] : net.namedState()) {
        const SafetensorsTensor *entry = file.find(name);
        if (!entry)
            throw EngineError(source + " has no tensor '" + name + "', which the network needs.", "--weights", {},
                              "The weights must come from the same network (the same spec).");
        if (entry->shape != tensor.sizes().vec())
            throw EngineError(source + ": the tensor '" + name + "' has the shape " + shapeText(entry->shape) +
                                  " but the network's has " + shapeText(tensor.sizes()) + ".",
                              "--weights");
        const torch::ScalarType type = scalarTypeOf(*entry);
        if (type != tensor.scalar_type())
            throw EngineError(source + ": the tensor '" + name + "' is " + std::string(c10::toString(type)) +
                                  " but the network's is " + std::string(c10::toString(tensor.scalar_type())) + ".",
                              "--weights");
        const torch::Tensor loaded = fromSafetensors(*entry);
        tensor.copy_(loaded.to(tensor.device()));
        used.insert(name);
    }
    for (const SafetensorsTensor &entry : file.tensors)
        if (!used.count(entry.name))
            throw EngineError(source + " holds the tensor '" + entry.name + "', which the network does not have.",
                              "--weights", {}, "The weights must come from the same network (the same spec).");
}

} // namespace diamond::engine
