// Data for the engine: every source loads into contiguous tensors; batches are taken with
// index_select over a seeded permutation (no per-sample collation).
#pragma once

#include "diamond/config/run_config.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace diamond::engine {

/// A whole dataset in memory (or memory-mapped). Contract: `inputs` is [S, ...] and contiguous,
/// float32 (int64 for token ids); `targets` is [S] int64 class indices for classification or
/// [S, k] float32 for regression; both on the CPU.
struct Dataset {
    torch::Tensor inputs;
    torch::Tensor targets;
    std::string task = "classification"; ///< "classification" or "regression"
    std::int64_t numClasses = 0;         ///< classification only
    std::vector<std::string> classNames; ///< optional, numClasses entries when present
    std::string description;             ///< one line for the `started` event, e.g. "spirals: 3000 x [2], 3 classes"

    std::int64_t size() const { return inputs.defined() ? inputs.size(0) : 0; }
};

/// `data` section of the run config, from the run-config library (diamond/config/run_config.h).
/// Source-specific keys stay in `options` (the whole section), read by the source; errors name
/// the field as "data.<key>". Sources reject keys they do not know. Integer arrays (npy, npz,
/// hdf5) become int64 token ids unless the source's `input_dtype` option says otherwise
/// (docs/data-sources.md).
using ::diamond::config::DataConfig;

class DataSource {
public:
    virtual ~DataSource() = default;
    /// Loads the dataset; synthetic sources are deterministic in `seed`. Throws EngineError
    /// naming the data.* field on bad options or unreadable files.
    virtual Dataset load(const DataConfig &config, std::uint64_t seed) = 0;
};

/// The source named `name`, or throws EngineError(field "data.source") listing the known ones.
std::unique_ptr<DataSource> makeDataSource(const std::string &name);
/// Names of all sources, for messages and docs.
std::vector<std::string> dataSourceNames();

/// Train/validation split of a dataset with standardisation statistics from the train split.
struct SplitData {
    Dataset train;
    Dataset validation; ///< may be empty (size 0) when validationSplit == 0
    torch::Tensor mean; ///< shape of one sample: per element, or per channel (expanded) for [S,C,H,W] images;
                        ///< undefined when not standardised
    torch::Tensor std;  ///< same shape as mean; zeros replaced by 1
};

/// Loads, splits (seeded shuffle, then the last `validationSplit` fraction is validation) and
/// standardises (float inputs only, statistics over the train split only).
SplitData loadAndSplit(const DataConfig &config, std::uint64_t seed);

/// Epoch-wise batches over a seeded permutation of [0, size). Contract: the permutation of
/// epoch e depends only on (seed, e); the global batch b of an epoch covers positions
/// [b*globalBatch, (b+1)*globalBatch) of that permutation; rank r of `world` takes the r-th
/// contiguous slice of globalBatch/world of it, so N ranks together see exactly what one rank
/// with the global batch sees. The last incomplete batch is dropped when `dropLast`; kept, it
/// is divided so that rank r takes positions [floor(r*len/world), floor((r+1)*len/world)).
/// globalBatch must be a multiple of world (else EngineError, field batch_size).
/// rows.index_select(0, index) for a CPU tensor: contiguous rows are copied with memcpy (several
/// times faster than index_select for batch-sized gathers); anything else uses index_select.
torch::Tensor gatherRows(const torch::Tensor &rows, const torch::Tensor &index);

class BatchSampler {
public:
    BatchSampler(std::int64_t size, std::int64_t globalBatch, std::uint64_t seed, bool shuffle = true,
                 bool dropLast = true, int rank = 0, int world = 1);

    std::int64_t batchesPerEpoch() const;
    /// Indices (int64 tensor) of this rank's part of batch `batch` of epoch `epoch`.
    torch::Tensor indices(std::int64_t epoch, std::int64_t batch);

private:
    std::int64_t size_, globalBatch_;
    std::uint64_t seed_;
    bool shuffle_, dropLast_;
    int rank_, world_;
    std::int64_t cachedEpoch_ = -1;
    torch::Tensor permutation_;
};

} // namespace diamond::engine
