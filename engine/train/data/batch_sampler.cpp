// BatchSampler: epoch permutations from (seed, epoch) only, global batches cut into contiguous rank slices.
#include "data/data_internal.h"

#include <algorithm>
#include <cstring>

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

torch::Tensor gatherRows(const torch::Tensor &rows, const torch::Tensor &index) {
    if (!rows.device().is_cpu() || !rows.is_contiguous() || rows.dim() < 1 || index.scalar_type() != torch::kInt64 ||
        index.dim() != 1 || !index.is_contiguous())
        return rows.index_select(0, index);
    const std::int64_t count = index.numel(), total = rows.size(0);
    std::vector<std::int64_t> shape = rows.sizes().vec();
    shape[0] = count;
    torch::Tensor out = torch::empty(shape, rows.options());
    const std::size_t rowBytes = static_cast<std::size_t>(rows.numel() / std::max<std::int64_t>(total, 1)) *
                                 static_cast<std::size_t>(rows.element_size());
    const auto *from = static_cast<const char *>(rows.data_ptr());
    auto *to = static_cast<char *>(out.data_ptr());
    const auto *at = index.data_ptr<std::int64_t>();
    for (std::int64_t i = 0; i < count; ++i) {
        if (at[i] < 0 || at[i] >= total)
            throw EngineError("Row index " + std::to_string(at[i]) + " is out of range (" + std::to_string(total) +
                              " rows).");
    }
    // Rows come from anywhere in a dataset larger than the caches: the copy waits on memory. Each
    // row's cache lines are requested a few rows ahead of its copy, and large batches are split
    // across the intra-op threads (chunks of at least 64 KiB).
    constexpr std::int64_t kAhead = 4;
    constexpr std::size_t kLine = 64;
    const auto grain = static_cast<std::int64_t>(
        std::max<std::size_t>(1, (std::size_t(64) << 10) / std::max<std::size_t>(rowBytes, 1)));
    at::parallel_for(0, count, grain, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            if (i + kAhead < end) {
                const char *next = from + static_cast<std::size_t>(at[i + kAhead]) * rowBytes;
                for (std::size_t offset = 0; offset < rowBytes; offset += kLine)
                    __builtin_prefetch(next + offset);
            }
            std::memcpy(to + static_cast<std::size_t>(i) * rowBytes, from + static_cast<std::size_t>(at[i]) * rowBytes,
                        rowBytes);
        }
    });
    return out;
}

} // namespace diamond::engine
