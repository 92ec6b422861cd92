// The layer catalogue: every layer type is described once here (parameters, shape rule,
// parameter count, FLOPs). The designer's palette and inspector, the validator, the engine's
// model builder and the JSON Schema are all generated from this registry.
#pragma once

#include "diamond/spec/types.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace diamond::spec {

enum class ParamKind {
    Int,       ///< integer
    Float,     ///< real number
    Bool,      ///< true/false
    Enum,      ///< one of `choices` (string)
    IntList,   ///< list of integers; `listLength` fixes the length when > 0
    IntOrList, ///< integer, or a list of `listLength` integers (kernel sizes, strides)
    Padding,   ///< integer, list of integers, or "same" / "valid"
    Shape,     ///< list of dimensions, may contain "N" (only Input)
    Strings,   ///< list of strings (axis names)
    String,    ///< free text
};

struct ParamSpec {
    std::string name;
    ParamKind kind = ParamKind::Int;
    nlohmann::json defaultValue;      ///< null = required unless `optional`
    bool optional = false;            ///< may be absent; the resolved value is then null
    std::optional<double> minimum;    ///< inclusive, for numbers and list elements
    std::optional<double> maximum;    ///< inclusive
    std::vector<std::string> choices; ///< for Enum
    int listLength = 0;               ///< for IntList/IntOrList/Padding, 0 = any
    std::string doc;                  ///< one line, shown as tooltip in the inspector
    bool required() const { return defaultValue.is_null() && !optional; }
};

/// What a layer's rule sees: resolved parameters (defaults filled in and type-checked) and the
/// input tensor types in input order.
struct LayerContext {
    const std::string &nodeId;
    const std::string &type;
    const nlohmann::json &params; ///< every declared parameter present, validated against ParamSpec
    const std::vector<TensorType> &inputs;
    const std::vector<std::string> &inputNames; ///< producer ids (for messages), same size as inputs
};

/// What a layer's rule produces. On a problem the rule adds an error diagnostic and returns;
/// outputs left empty mark the node as failed.
struct LayerResult {
    std::vector<TensorType> outputs; ///< one per output port, in `outputPorts` order
    std::int64_t params = 0;         ///< trainable parameters (PyTorch's conventions)
    std::int64_t buffers = 0;        ///< non-trainable state (BatchNorm running stats)
    std::int64_t flops = 0;          ///< forward FLOPs per sample; a multiply-add counts 2
    std::vector<Diagnostic> diagnostics;

    /// Adds an error about this node. Returns false so rules can `return ctx.fail(...)`.
    bool fail(const LayerContext &ctx, std::string code, std::string message, std::string hint = {},
              std::string field = {});
};

using ShapeRule = std::function<void(const LayerContext &, LayerResult &)>;

struct LayerType {
    std::string name;   ///< "Conv2d"
    std::string family; ///< "Convolution", shown as the palette group
    std::string doc;    ///< one line
    std::vector<ParamSpec> params;
    int minInputs = 1;
    int maxInputs = 1; ///< -1 = any number
    std::vector<std::string> outputPorts = {"out"};
    ShapeRule rule;
    /// Recomputed (docs/spec-format.md), the layer recomputes its own sub-blocks in backward and is not grouped with
    /// its neighbours: its internal values are far larger than its output (a transformer encoder layer).
    bool recomputesInside = false;

    const ParamSpec *param(const std::string &name) const;
    int outputPortIndex(const std::string &port) const; ///< "" -> 0, unknown -> -1
};

class Registry {
public:
    /// The catalogue, built once on first use; thread-safe.
    static const Registry &instance();

    const LayerType *find(const std::string &name) const;
    const std::vector<LayerType> &types() const { return types_; }
    std::vector<std::string> names() const;
    std::vector<std::string> families() const; ///< in catalogue order

    void add(LayerType type);

private:
    std::vector<LayerType> types_;
    std::map<std::string, std::size_t> index_;
};

/// Validates `params` (as written in a node) against the layer's ParamSpecs and fills in
/// defaults. Unknown parameters and bad values produce diagnostics naming node and parameter.
/// The result holds every declared parameter, normalised so rules need no type checks:
///   Int -> integer; Float -> number; Bool -> boolean; Enum/String -> string;
///   IntList -> array of integers; IntOrList with listLength n > 0 -> array of n integers
///   (a scalar is repeated), with listLength 0 -> array; Padding -> array of listLength
///   integers, or the string "same" / "valid"; Shape -> array of integers with "N" -> kBatch;
///   Strings -> array of strings; an absent optional parameter -> null.
/// Numbers and list elements are range-checked against minimum/maximum.
nlohmann::json resolveParams(const LayerType &type, const std::string &nodeId, const nlohmann::json &params,
                             std::vector<Diagnostic> &diagnostics);

/// A JSON Schema (draft 2020-12) for diamond.spec/1, generated from the registry.
nlohmann::json specJsonSchema();

namespace layers {
// One registration function per layer family, each in its own source file under src/layers/.
void registerInput(Registry &r);
void registerLinear(Registry &r);
void registerConvolution(Registry &r);
void registerPooling(Registry &r);
void registerNormalization(Registry &r);
void registerActivation(Registry &r);
void registerReshaping(Registry &r);
void registerEmbedding(Registry &r);
void registerRecurrent(Registry &r);
void registerAttention(Registry &r);
void registerMerge(Registry &r);
} // namespace layers

} // namespace diamond::spec
