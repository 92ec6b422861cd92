// Tensors <-> safetensors entries, and loading a network's weights from a safetensors file by name. Shared by
// `diamond-train export`, `diamond-train predict` and training with --init-weights (fine-tuning).
#pragma once

#include "export/safetensors.h"

#include "diamond/spec/analysis.h"

#include <torch/torch.h>

namespace diamond::engine {

class Network;

/// A CPU copy of `tensor` as a safetensors entry. Throws EngineError for a dtype safetensors cannot store.
SafetensorsTensor toSafetensors(const std::string &name, const torch::Tensor &tensor);
/// A tensor (owning its memory) from an entry. Throws EngineError naming the entry for unsupported dtypes.
torch::Tensor fromSafetensors(const SafetensorsTensor &entry);
/// The torch dtype of an entry's dtype. Throws EngineError naming the entry when the engine cannot use it.
torch::ScalarType scalarTypeOf(const SafetensorsTensor &entry);

/// Networks whose parameters (as float32) take more than this are checked against their weights file before
/// they are built (checkWeightsFitSpec); smaller ones are built and checked tensor by tensor (loadNetworkWeights).
inline constexpr std::int64_t kPrebuildWeightCheckBytes = std::int64_t(64) << 20;

/// Refuses weights that cannot belong to the network of `analysis`, before that network is built (and its
/// parameters allocated): the network's parameters are tensors of the file, element for element, so the file
/// must hold at least analysis.totalParams values. Applies to networks above kPrebuildWeightCheckBytes (smaller
/// ones get loadNetworkWeights' message naming the tensor). Throws EngineError (field "--weights") naming
/// `source`, both counts and the node with the most parameters.
void checkWeightsFitSpec(const spec::Analysis &analysis, const SafetensorsFile &file, const std::string &source);

/// Copies every tensor of net.namedState() from `file`, by name. Each entry's declared shape and dtype are
/// compared with the network's before anything is converted. Throws EngineError naming the tensor (and `source`)
/// when one is missing, has another shape or dtype, or the file holds a tensor the network lacks.
void loadNetworkWeights(Network &net, const SafetensorsFile &file, const std::string &source);

} // namespace diamond::engine
