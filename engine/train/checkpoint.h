// Checkpoints: everything needed to continue a run bit for bit — model parameters and buffers,
// optimizer state, the CPU RNG state, the step (which fixes the data order and the schedule)
// and the early-stopping state. Files are <run-dir>/checkpoints/step-<step>.pt, written to a
// temporary file, fsync'ed, renamed and read back, so a reader sees either the old or the new file
// and a checkpoint that was written is known to load. Hostile or damaged files: before libtorch
// reads one, its zip structure is checked (every record inside the file, sizes within the memory
// cap, only the records a checkpoint has, no TorchScript methods that loading would run), and the
// tensors it holds must match the expected names, shapes and dtypes.
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
    double lossScale = 0;                ///< fp16's dynamic loss scale; 0: none (fp32, bf16, or an older checkpoint)
    std::int64_t lossScaleGoodSteps = 0; ///< its good steps in a row
};

/// Writes atomically, then verifies the file (checkpointProblem() against `state`'s names, shapes and dtypes); returns
/// the final path. Throws EngineError on I/O failure or when the file written does not read back (it is removed
/// then, and nothing else is touched). Taken by value: a caller that moves its state in (a sharded run's whole
/// gathered optimizer state) has it freed once written, before the file is read back.
std::string writeCheckpoint(const std::string &runDir, CheckpointState state);

/// `state`'s model and optimizer entries as tensors of the same names, shapes and dtypes that hold no data (meta
/// tensors): what checkpointProblem() and pruneCheckpoints() compare against.
CheckpointState checkpointShapes(const CheckpointState &state);

/// Why `path` is no usable checkpoint for a run whose model and optimizer entries are `expected`'s
/// (names, shapes and dtypes; the tensors' values are not used), or an empty string when it is. An
/// `expected` without entries checks only the file itself. `maxBytes`: the most the file's records may
/// take in memory (0: diamond::config::defaultDataMaxBytes()). Never throws.
std::string checkpointProblem(const std::string &path, const CheckpointState &expected, std::int64_t maxBytes = 0);

/// What pruneCheckpoints() did, paths in each list.
struct PruneResult {
    std::vector<std::string> kept, deleted, quarantined;
    std::vector<std::string> problems; ///< per quarantined file, checkpointProblem()'s reason
};

/// Keeps the newest `keep` (>= 1) usable checkpoints: files are checked newest first with
/// checkpointProblem() against `expected` (each file once per process while its size and time stay
/// the same) until `keep` usable ones are found; usable files older than those are deleted. A file that
/// is not usable is never counted as kept: when it is newer than the oldest kept one it is moved to
/// <run-dir>/checkpoints/unreadable/ (kept for inspection, no longer tried by resume or export, not
/// deleted); older ones are deleted with the other old checkpoints. Never throws for a single file.
PruneResult pruneCheckpoints(const std::string &runDir, int keep, const CheckpointState &expected);

/// Checkpoint files of a run, newest step first.
std::vector<std::pair<std::int64_t, std::string>> listCheckpoints(const std::string &runDir);

/// Reads `path` into `state` (whose model/optimizer entries give the expected names, shapes and
/// dtypes; model tensors are copied into them in place, optimizer tensors replaced). Throws EngineError
/// naming the file on a corrupt, partial, hostile or mismatching file (libtorch's errors included), leaving
/// `state` as it was.
/// `maxBytes` as for checkpointProblem().
void readCheckpoint(const std::string &path, CheckpointState &state, std::int64_t maxBytes = 0);

torch::Tensor cpuRngState();
void setCpuRngState(const torch::Tensor &state);

} // namespace diamond::engine
