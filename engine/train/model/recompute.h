// Activation checkpointing ("recompute" in the spec and the run config): a part of the forward pass whose
// intermediate values are not kept for backward. Only the part's inputs are kept; the backward pass runs the part
// again, with gradients, and differentiates through that second run (Chen et al. 2016).
#pragma once

#include <torch/torch.h>

#include <functional>
#include <vector>

namespace diamond::engine {

/// One part of a forward pass: tensors in, tensors out. Must compute the same function each time it runs.
using RecomputedPart = std::function<std::vector<torch::Tensor>(const std::vector<torch::Tensor> &)>;

/// Runs `part` on `inputs`, keeping none of its intermediate values for backward. In backward, `part` runs again on
/// the same inputs:
/// - with the random number generators (CPU, and the inputs' device) as they were at the first run, so dropout draws
///   the same masks, and as they were before the rerun afterwards;
/// - under the autocast state of the first run;
/// - with every tensor in `buffers` (batch norm running statistics) restored after the rerun, so that the part
///   updates them once per forward pass.
/// Parameters used by `part` receive their gradients during that backward step, through their usual accumulators
/// (so gradient hooks see them). Outside grad mode `part` just runs. The returned tensors are distinct: an output
/// that is an input, or another output, comes back as a view of it.
std::vector<torch::Tensor> runRecomputed(const RecomputedPart &part, const std::vector<torch::Tensor> &inputs,
                                         std::vector<torch::Tensor> buffers = {});

/// torch::dropout(x, p, training), with the same random draws. Inside a recomputed part on CPU, the first run keeps
/// the mask (one byte per element) and the generator's state after the draw, and the rerun uses them instead of
/// drawing again: drawing is most of a transformer's forward time on CPU. Parts do not nest.
torch::Tensor recordedDropout(const torch::Tensor &x, double p, bool training);

} // namespace diamond::engine
