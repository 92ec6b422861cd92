// Runs a reader of untrusted files in a child process, so that a crash inside a third-party parser becomes an
// EngineError instead of the end of diamond-train (libhdf5 1.10.8 dereferences NULL on some damaged files: found
// by fuzz_hdf5). The child allocates the tensors it reads in an anonymous shared file (memfd) through the allocator
// it is given, under an address-space limit, and sends their shapes back through a pipe; the parent maps them
// without a copy. A stop request kills the child at once.
#pragma once

#include "data/dataset.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace diamond::engine::data {

/// Gives the reader a tensor of `shape` and `type` to fill, backed by memory the parent will see.
using SharedTensorAllocator =
    std::function<torch::Tensor(const std::vector<std::int64_t> &shape, torch::ScalarType type)>;

/// Runs `read` in a forked child and returns the tensors it allocated, in order. Contract for `read`: it runs in a
/// copy of a multi-threaded process, so it uses no torch operators (no thread pools), only tensors from the
/// allocator, plain C++ and the parser; an EngineError it throws reaches the caller with its message, field and
/// hint. `what` names the file in errors; `memoryLimit` bounds what the child may allocate beyond its size at the
/// fork (not enforced under AddressSanitizer, which reserves its own address space).
std::vector<torch::Tensor> readInChildProcess(const std::string &what, std::uint64_t memoryLimit,
                                              const std::function<void(const SharedTensorAllocator &)> &read);

} // namespace diamond::engine::data
