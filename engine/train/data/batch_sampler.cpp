// BatchSampler: epoch permutations from (seed, epoch) only, global batches cut into contiguous rank slices.
#include "data/data_internal.h"

namespace diamond::engine {

BatchSampler::BatchSampler(std::int64_t size, std::int64_t globalBatch, std::uint64_t seed, bool shuffle, bool dropLast,
                           int rank, int world)
    : size_(size), globalBatch_(globalBatch), seed_(seed), shuffle_(shuffle), dropLast_(dropLast), rank_(rank),
      world_(world) {
    if (size_ < 0) throw EngineError("The sampler got a negative dataset size.");
    if (world_ < 1 || rank_ < 0 || rank_ >= world_)
        throw EngineError("Rank " + std::to_string(rank_) + " is outside a world of " + std::to_string(world_) + ".");
    if (globalBatch_ < 1) throw EngineError("'batch_size' must be at least 1.", "batch_size");
    if (globalBatch_ % world_ != 0)
        throw EngineError("'batch_size' (" + std::to_string(globalBatch_) + ") must be a multiple of the " +
                              std::to_string(world_) + " processes that share it.",
                          "batch_size");
}

std::int64_t BatchSampler::batchesPerEpoch() const {
    return dropLast_ ? size_ / globalBatch_ : (size_ + globalBatch_ - 1) / globalBatch_;
}

torch::Tensor BatchSampler::indices(std::int64_t epoch, std::int64_t batch) {
    if (epoch < 0 || batch < 0 || batch >= batchesPerEpoch())
        throw EngineError("Batch " + std::to_string(batch) + " of epoch " + std::to_string(epoch) +
                          " does not exist (" + std::to_string(batchesPerEpoch()) + " batches per epoch).");
    if (epoch != cachedEpoch_ || !permutation_.defined()) {
        // Seeded from (seed, epoch) only: any rank, any restart, any order of calls gives the same permutation.
        permutation_ =
            shuffle_ ? torch::randperm(size_,
                                       data::seededGenerator(seed_ * 1000003ULL + static_cast<std::uint64_t>(epoch),
                                                             data::kStreamSampler),
                                       torch::kInt64)
                     : torch::arange(size_, torch::kInt64);
        cachedEpoch_ = epoch;
    }
    const std::int64_t start = batch * globalBatch_;
    const std::int64_t length = std::min(globalBatch_, size_ - start);
    // Rank r takes [floor(r * length / world), floor((r + 1) * length / world)) of the batch: globalBatch / world
    // each for full batches; the concatenation over ranks is the whole batch also for a short last one.
    const std::int64_t from = static_cast<std::int64_t>(rank_) * length / world_;
    const std::int64_t to = static_cast<std::int64_t>(rank_ + 1) * length / world_;
    return permutation_.narrow(0, start + from, to - from);
}

} // namespace diamond::engine
