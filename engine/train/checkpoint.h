// Checkpoints: everything needed to continue a run bit for bit — model parameters and buffers,
// optimizer state, the CPU RNG state, the step (which fixes the data order and the schedule)
// and the early-stopping state. Files are <run-dir>/checkpoints/step-<step>.pt, written to a
// temporary file, fsync'ed and renamed, so a reader sees either the old or the new file.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace diamond::engine {

struct CheckpointState {
    std::int64_t step = 0;                                    ///< optimizer steps completed
    std::vector<std::pair<std::string, torch::Tensor>> model; ///< Network::namedState()
    std::map<std::string, torch::Tensor> optimizer;           ///< Optimizer::state()
    torch::Tensor rngState;                                   ///< CPU generator state of rank 0
    std::vector<torch::Tensor> rankRngStates;                 ///< every rank's generator state (data parallel)
    std::int64_t world = 1;                                   ///< number of ranks that wrote it
    double bestMetric = 0;                                    ///< early stopping
    std::int64_t evalsWithoutImprovement = 0;
    bool hasBest = false;
};

/// Writes atomically; returns the final path. Throws EngineError on I/O failure.
std::string writeCheckpoint(const std::string &runDir, const CheckpointState &state);

/// Keeps the newest `keep` checkpoint files, deletes older ones.
void pruneCheckpoints(const std::string &runDir, int keep);

/// Checkpoint files of a run, newest step first.
std::vector<std::pair<std::int64_t, std::string>> listCheckpoints(const std::string &runDir);

/// Reads `path` into `state` (whose model/optimizer entries give the expected names; tensors
/// are copied into them in place). Throws on a corrupt, partial or mismatching file.
void readCheckpoint(const std::string &path, CheckpointState &state);

torch::Tensor cpuRngState();
void setCpuRngState(const torch::Tensor &state);

} // namespace diamond::engine
