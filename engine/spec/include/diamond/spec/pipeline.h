// Pipeline stages (docs/distributed.md): a spec cut into consecutive ranges of its nodes in run order (the analysis's
// topological order), each a spec of its own. The values that cross a cut become the next stage's graph inputs and
// this stage's graph outputs; a value read beyond the next stage passes through it (an input that is also an output).
// One owner for the engine (which trains the stages), the planner (which predicts them) and the designer (which
// shows them as bands).
#pragma once

#include "diamond/spec/analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace diamond::spec {

/// The most stages a network is cut into (the run config's pipeline.stages allows as many).
inline constexpr int kMaxPipelineStages = 64;

/// A value handed from one stage to the next.
struct CrossingValue {
    PortRef value;    ///< in the whole spec: the producing node (or graph input) and its port
    std::string name; ///< its graph input / output name in the stage specs: the node id for port 0, else "id.port"
    TensorType type;  ///< batch first (kBatch)
};

struct Stage {
    Spec spec;                      ///< the stage's own network: its nodes, in the whole spec's node order
    std::vector<std::string> nodes; ///< its node ids, in run order
    std::vector<CrossingValue>
        receives;                     ///< stage 0: the graph inputs; else what the stage before sends (= spec.inputs)
    std::vector<CrossingValue> sends; ///< the values the next stage receives (= spec.outputs); empty for the last stage
    std::int64_t flops = 0;           ///< forward FLOPs per sample of its nodes
    std::int64_t parameters = 0;
};

struct StageSplit {
    std::vector<Stage> stages;
    std::string error; ///< why the cut is refused (names the node); empty when ok
    bool ok() const { return error.empty(); }
};

/// The nodes (not graph inputs) of `analysis`, in run order.
std::vector<std::string> runOrder(const Analysis &analysis);

/// Cuts `spec` (analysed, without errors) after each node of `cutAfter` (stage s ends with node cutAfter[s]): the ids
/// must be nodes of the spec, in increasing run order, none the last node. Never throws.
StageSplit splitIntoStages(const Spec &spec, const Analysis &analysis, const std::vector<std::string> &cutAfter);

/// Per node in run order: the bytes per sample of the values that cross a cut placed right after it (what the stage
/// ending there sends forward, and receives back as gradients in backward).
std::vector<std::int64_t> crossingBytesPerSample(const Spec &spec, const Analysis &analysis);

/// The cut into `stages` stages (stages - 1 node ids) that makes the slowest stage as fast as it can be: a stage costs
/// the sum of its nodes' `nodeCost` (per node in run order) plus `boundaryCost` of the cut before and after it (per
/// node in run order: the cost of a cut right after it). Exact (dynamic programming over the run order, O(stages·n²)
/// for n nodes, n up to 1024; beyond that the nodes are grouped into 1024 runs first). Empty when there are fewer
/// nodes than stages, or more than kMaxPipelineStages stages.
std::vector<std::string> balancedCut(const Analysis &analysis, int stages, const std::vector<double> &nodeCost,
                                     const std::vector<double> &boundaryCost);

/// The engine's own cut for "cut": "auto" when no cost model is at hand: the forward FLOPs per sample balanced, each
/// node counted at least as many FLOPs as the elements it writes, and a cut weighted by the bytes it sends.
std::vector<std::string> flopBalancedCut(const Spec &spec, const Analysis &analysis, int stages);

} // namespace diamond::spec
