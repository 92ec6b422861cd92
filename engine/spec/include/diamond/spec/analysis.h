// Validation and analysis of a spec: graph checks, shape inference with a symbolic batch
// dimension, parameter counts, FLOPs and a training-memory estimate.
#pragma once

#include "diamond/spec/spec.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

namespace diamond::spec {

struct NodeInfo {
    std::string id;
    std::string type; ///< "Input" for graph inputs
    bool ok = false;  ///< shape inference succeeded for this node
    std::vector<TensorType> outputs;
    nlohmann::json params; ///< resolved parameters (defaults filled in)
    std::int64_t paramCount = 0;
    std::int64_t bufferCount = 0;
    std::int64_t flops = 0;             ///< forward FLOPs per sample
    std::vector<std::string> producers; ///< the ids this node reads, in input order (nodes only)
};

struct Analysis {
    std::vector<Diagnostic> diagnostics;
    std::vector<NodeInfo> nodes;                ///< graph inputs first, then nodes in topological order
    std::unordered_map<std::string, int> index; ///< id -> position in `nodes`
    std::int64_t totalParams = 0;
    std::int64_t totalBuffers = 0;
    std::int64_t totalFlops = 0;              ///< forward FLOPs per sample
    std::vector<std::string> outputProducers; ///< the ids the spec's outputs come from, in output order
    bool ok() const { return !hasErrors(diagnostics); }
    const NodeInfo *node(const std::string &id) const;
    /// Type of a node output port, or nullptr when unknown.
    const TensorType *portType(const PortRef &ref) const;
};

/// Checks the graph (ids, types, parameters, dangling inputs, cycles, outputs) and infers
/// shapes, parameters and FLOPs. Nodes downstream of a failed node are skipped silently so
/// one mistake yields one diagnostic. Never throws; linear in graph size.
Analysis analyze(const Spec &spec);

enum class Optimizer { SGD, SGDMomentum, Adam, AdamW, RMSprop };
bool parseOptimizer(const std::string &name, Optimizer &out);

struct MemoryOptions {
    std::int64_t batch = 32;      ///< samples per step
    DType dtype = DType::Float32; ///< parameter and activation dtype
    Optimizer optimizer = Optimizer::Adam;
    /// Nodes whose activations are recomputed in backward (recompute.h): consecutive ones (in analysis order; a
    /// layer that recomputesInside() stands alone) count as the values their parts keep plus the largest part.
    std::vector<std::string> recomputed;
};

/// Sum that clamps at INT64_MAX instead of overflowing (all terms are >= 0).
std::int64_t saturatingSum(std::initializer_list<std::int64_t> terms);

struct NodeMemory {
    std::string id;
    std::int64_t weights = 0, gradients = 0, optimizerState = 0, activations = 0;
    std::int64_t total() const { return saturatingSum({weights, gradients, optimizerState, activations}); }
};

/// Training-memory estimate in bytes. Assumptions (documented in docs/spec-format.md): every
/// node's outputs are kept for backward, except what recomputed nodes do not keep (MemoryOptions::recomputed);
/// gradients have the weights' size; optimizer state is 0 (SGD), 1x (momentum, RMSprop) or 2x (Adam/AdamW) the weights;
/// allocator and workspace overheads are not counted.
struct MemoryEstimate {
    std::vector<NodeMemory> nodes;
    std::int64_t weights = 0, gradients = 0, optimizerState = 0, activations = 0;
    std::int64_t total() const { return saturatingSum({weights, gradients, optimizerState, activations}); }
};

MemoryEstimate estimateMemory(const Analysis &analysis, const MemoryOptions &options);

} // namespace diamond::spec
