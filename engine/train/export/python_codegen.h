// Generation of model.py: a standalone PyTorch-Python file that rebuilds a Diamond network with
// torch.nn modules (same parameter and buffer names and shapes per node, batch-first semantics
// identical to engine/train/model), reads safetensors with a small pure-Python reader, loads
// the exported weights and checks itself against the exported test inputs and outputs.
#pragma once

#include "model/network.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace diamond::engine {

struct PythonModuleInfo {
    std::string specSha256;    ///< SHA-256 of spec.json, compared with the weights' metadata
    std::string engineVersion; ///< shown in the file's header comment
    double tolerance = 1e-5;   ///< max |difference| accepted by the self-check in __main__
};

/// The text of model.py for `net`. Throws EngineError naming the node when a layer type has no
/// Python generator.
std::string generatePythonModule(const Network &net, const PythonModuleInfo &info);

namespace pygen {

/// What a layer's generator sees. Every expression is a plain Python name or `name[i]`, so it
/// may be repeated without recomputation.
struct PyLayerContext {
    const std::string &nodeId;
    const std::string &type;
    const nlohmann::json &params;                ///< resolved (defaults filled in)
    const std::vector<spec::TensorType> &inputs; ///< inferred input types
    const std::vector<std::string> &args;        ///< Python expressions of the inputs, in order
    const std::string &module;                   ///< Python expression of the node's module
};

/// A node in Python. `module` constructs its torch.nn module (empty: the node has none);
/// `expr` computes the node's value: one tensor for a single-output layer, otherwise a tuple
/// in output-port order.
struct PyLayer {
    std::string module;
    std::string expr;
};

using PyLayerGenerator = std::function<PyLayer(const PyLayerContext &)>;
using PyLayerGeneratorMap = std::map<std::string, PyLayerGenerator>;

/// Generators for every spec layer type but Input (one registration function per family group).
const PyLayerGeneratorMap &pythonLayerGenerators();
void addPythonDenseGenerators(PyLayerGeneratorMap &m);    ///< Linear, Convolution, Pooling, Normalization
void addPythonElementGenerators(PyLayerGeneratorMap &m);  ///< Activation, Reshaping, Merge
void addPythonSequenceGenerators(PyLayerGeneratorMap &m); ///< Embedding, Recurrent, Attention

// ---- Python literals ------------------------------------------------------------------------
std::string pyInt(std::int64_t v);
std::string pyFloat(double v); ///< shortest round-trip text, always a float literal
std::string pyBool(bool v);
std::string pyStr(const std::string &s); ///< double-quoted, ASCII-only escapes
std::string pyTuple(const std::vector<std::int64_t> &v);
std::string pyList(const std::vector<std::int64_t> &v);

// ---- resolved parameters (validated by the spec analysis; missing ones throw EngineError) ----
std::int64_t intParam(const PyLayerContext &ctx, const char *name);
double floatParam(const PyLayerContext &ctx, const char *name);
bool boolParam(const PyLayerContext &ctx, const char *name);
std::string stringParam(const PyLayerContext &ctx, const char *name);
bool hasParam(const PyLayerContext &ctx, const char *name); ///< present and not null
/// An integer or list; a scalar or 1-element list is repeated to n entries when n > 0.
std::vector<std::int64_t> intListParam(const PyLayerContext &ctx, const char *name, std::size_t n = 0);
/// Dimension `axis` (negative from the end) of input `input`; throws for the batch dimension.
std::int64_t inputDim(const PyLayerContext &ctx, std::size_t input, int axis);

} // namespace pygen

} // namespace diamond::engine
