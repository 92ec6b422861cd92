// Random inputs for a spec, shared by the engine's in-process tests and benchmarks.
#pragma once

#include "diamond/spec/spec.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace diamond::engine::testing {

/// A batch of `batch` inputs for the spec's single input: token ids below 1000 for int64 inputs, else normal noise.
inline torch::Tensor batchFor(const spec::Spec &s, std::int64_t batch) {
    std::vector<std::int64_t> shape;
    for (const auto d : s.inputs.front().shape)
        shape.push_back(d == spec::kBatch ? batch : d);
    if (s.inputs.front().dtype == spec::DType::Int64) return torch::randint(0, 1000, shape, torch::kLong);
    return torch::randn(shape);
}

} // namespace diamond::engine::testing
