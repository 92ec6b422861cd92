// Tensors <-> safetensors entries, and loading a network's weights from a safetensors file by name. Shared by
// `diamond-train export`, `diamond-train predict` and training with --init-weights (fine-tuning).
#pragma once

#include "export/safetensors.h"

#include <torch/torch.h>

namespace diamond::engine {

class Network;

/// A CPU copy of `tensor` as a safetensors entry. Throws EngineError for a dtype safetensors cannot store.
SafetensorsTensor toSafetensors(const std::string &name, const torch::Tensor &tensor);
/// A tensor (owning its memory) from an entry. Throws EngineError naming the entry for unsupported dtypes.
torch::Tensor fromSafetensors(const SafetensorsTensor &entry);

/// Copies every tensor of net.namedState() from `file`, by name. Throws EngineError naming the tensor (and
/// `source`) when one is missing, has another shape or dtype, or the file holds a tensor the network lacks.
void loadNetworkWeights(Network &net, const SafetensorsFile &file, const std::string &source);

} // namespace diamond::engine
