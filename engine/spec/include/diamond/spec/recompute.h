// Activation checkpointing ("recompute", docs/spec-format.md): how a run of consecutive recomputed nodes is cut into
// parts. The engine recomputes each part as a whole in backward; the memory estimate counts what the cut keeps. One
// owner for both, so that the planner's memory figure and the engine's behaviour agree.
#pragma once

#include "diamond/spec/analysis.h"

#include <cstddef>
#include <string>
#include <vector>

namespace diamond::spec {

/// Cuts the run of steps [first, end) into parts. `bytes[i]`: what step i's outputs weigh (per sample);
/// `lastReader[i]`: the last step that reads step i's output (bytes.size() or more for a network output). Chooses,
/// among k parts of about equal weight (every k) and parts filled in order up to a budget, the cut with the smallest
/// estimated peak: the values kept between parts (read after their part) plus the most that backward brings back at
/// once (one part's values, and gradients of about twice its largest value). Returns the parts' boundaries, from
/// `first` to `end`; {first, end} for an empty or one-step run.
std::vector<std::size_t> cutRecomputedRun(const std::vector<double> &bytes, const std::vector<std::size_t> &lastReader,
                                          std::size_t first, std::size_t end);

/// Whether `mode` (the run config's "recompute": "marked", "all" or "none") recomputes node `node`.
bool recomputes(const std::string &mode, const Node &node);

/// The ids of the nodes of `spec` that `mode` recomputes (for MemoryOptions::recomputed).
std::vector<std::string> recomputedNodeIds(const Spec &spec, const std::string &mode);

/// Nodes to recompute chosen for an activation-memory budget.
struct RecomputeChoice {
    std::vector<std::string> nodes;   ///< in analysis order
    std::int64_t activationBytes = 0; ///< estimateMemory(...).activations with them recomputed
    std::int64_t flops = 0;           ///< their forward FLOPs per sample: what backward computes again
    bool fits = false;                ///< activationBytes <= the budget
};

/// The nodes to recompute so that the estimate's activations (estimateMemory with `options`; its `recomputed` is
/// ignored: what backward keeps, the only part recomputation changes) stay within `budgetBytes`, recomputing as little
/// computation as it can: none when the plain estimate fits; every node, and fits = false, when even that does not
/// fit; otherwise it starts from every node recomputed and keeps first the nodes that cost the most forward FLOPs per
/// byte their keeping adds (each node's bytes measured once against all recomputed), as long as the estimate fits.
/// About 2n + 2 estimates for n nodes.
RecomputeChoice chooseRecomputed(const Analysis &analysis, const MemoryOptions &options, std::int64_t budgetBytes);

} // namespace diamond::spec
