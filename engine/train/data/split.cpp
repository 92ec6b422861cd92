// loadAndSplit: load, seeded train/validation split, standardisation with train-split statistics.
#include "data/data_internal.h"

#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

namespace diamond::engine {

namespace {

/// Throws when a source broke the Dataset contract (a programming error, reported like any other).
void checkContract(Dataset &d, const std::string &source) {
    const std::string who = "The data source '" + source + "' ";
    if (!d.inputs.defined() || d.inputs.dim() < 2 || !d.targets.defined())
        throw EngineError(who + "returned no inputs of shape [S, ...].", "data.source");
    if (d.size() == 0) throw EngineError(who + "returned no samples.", "data.source");
    if (d.inputs.scalar_type() != torch::kFloat32 && d.inputs.scalar_type() != torch::kInt64)
        throw EngineError(who + "returned inputs that are neither float32 nor int64.", "data.source");
    if (d.targets.dim() == 0 || d.targets.size(0) != d.size())
        throw EngineError(who + "returned " + std::to_string(d.targets.dim() ? d.targets.size(0) : 0) +
                              " targets for " + std::to_string(d.size()) + " inputs.",
                          "data.source");
    if (d.task == "classification") {
        if (d.targets.dim() != 1 || d.targets.scalar_type() != torch::kInt64)
            throw EngineError(who + "returned classification targets that are not [S] int64.", "data.source");
        if (d.numClasses < 0 || d.numClasses > data::kMaxClassIndex + 1)
            throw EngineError(who + "returned " + std::to_string(d.numClasses) + " classes; at most " +
                                  std::to_string(data::kMaxClassIndex + 1) + " are supported.",
                              "data.source");
    } else if (d.task == "regression") {
        if (d.targets.dim() != 2 || d.targets.scalar_type() != torch::kFloat32)
            throw EngineError(who + "returned regression targets that are not [S, k] float32.", "data.source");
    } else {
        throw EngineError(who + "returned the unknown task '" + d.task + "'.", "data.source");
    }
    d.inputs = d.inputs.contiguous();
    d.targets = d.targets.contiguous();
}

/// rows.index_select(0, index), gathered in blocks of rows with a stop check between them (the same result).
torch::Tensor selectRows(const torch::Tensor &rows, const torch::Tensor &index) {
    constexpr std::int64_t kBlock = std::int64_t(1) << 20;
    std::vector<std::int64_t> shape = rows.sizes().vec();
    shape[0] = index.size(0);
    torch::Tensor out = torch::empty(shape, rows.options());
    for (std::int64_t start = 0; start < index.size(0); start += kBlock) {
        throwIfStopRequested();
        const std::int64_t len = std::min(kBlock, index.size(0) - start);
        torch::Tensor part = out.narrow(0, start, len);
        torch::index_select_out(part, rows, 0, index.narrow(0, start, len));
    }
    return out;
}

Dataset subset(const Dataset &all, const torch::Tensor &index) {
    Dataset d;
    d.inputs = selectRows(all.inputs, index);
    d.targets = selectRows(all.targets, index);
    d.task = all.task;
    d.numClasses = all.numClasses;
    d.classNames = all.classNames;
    d.description = all.description;
    return d;
}

/// Mean and population std over the samples (and, for [S, C, H, W] inputs, over H and W: per channel), both
/// computed in float64 in chunks of rows (two passes, so constant features give an exact 0) and returned with
/// the shape of one sample. A std of 0, or below float32 resolution of the mean (1e-6 * |mean|), becomes 1.
std::pair<torch::Tensor, torch::Tensor> statistics(const torch::Tensor &x) {
    // Chunks of at most 512 Ki values, copied into one float64 buffer that every chunk reuses: 4 MiB is all the
    // extra memory this takes, whatever the size of the data (a new buffer per chunk fragmented the heap by about
    // a data's worth).
    const std::int64_t s = x.size(0);
    const std::int64_t rowValues = std::max<std::int64_t>(1, x[0].numel());
    const std::int64_t kChunk = std::max<std::int64_t>(1, (std::int64_t(1) << 19) / rowValues);
    const bool perChannel = x.dim() == 4;
    const std::vector<std::int64_t> dims =
        perChannel ? std::vector<std::int64_t>{0, 2, 3} : std::vector<std::int64_t>{0};
    const double count = static_cast<double>(x.numel()) / static_cast<double>(perChannel ? x.size(1) : rowValues);
    std::vector<std::int64_t> chunkShape(x.sizes().begin(), x.sizes().end());
    chunkShape[0] = std::min(kChunk, s);
    const torch::Tensor buffer = torch::empty(chunkShape, x.options().dtype(torch::kFloat64));
    auto chunkAt = [&](std::int64_t start) {
        const std::int64_t rows = std::min(kChunk, s - start);
        torch::Tensor chunk = buffer.narrow(0, 0, rows);
        chunk.copy_(x.narrow(0, start, rows));
        return chunk;
    };

    torch::Tensor sum;
    for (std::int64_t start = 0; start < s; start += kChunk) {
        throwIfStopRequested();
        const torch::Tensor part = chunkAt(start).sum(dims);
        sum = sum.defined() ? sum + part : part;
    }
    const torch::Tensor mean = sum / count;
    const torch::Tensor meanB = perChannel ? mean.view({1, -1, 1, 1}) : mean.unsqueeze(0);
    torch::Tensor sq;
    for (std::int64_t start = 0; start < s; start += kChunk) {
        throwIfStopRequested();
        const torch::Tensor part = chunkAt(start).sub_(meanB).square_().sum(dims);
        sq = sq.defined() ? sq + part : part;
    }
    torch::Tensor dev = (sq / count).sqrt();
    dev = torch::where(dev.le(mean.abs() * 1e-6) | dev.le(1e-30), torch::ones_like(dev), dev);

    const auto sample = x.sizes().slice(1);
    if (perChannel) {
        return {mean.view({-1, 1, 1}).expand(sample).to(torch::kFloat32).contiguous(),
                dev.view({-1, 1, 1}).expand(sample).to(torch::kFloat32).contiguous()};
    }
    return {mean.to(torch::kFloat32).contiguous(), dev.to(torch::kFloat32).contiguous()};
}

} // namespace

SplitData loadAndSplit(const DataConfig &config, std::uint64_t seed) {
    const double fraction = config.validationSplit;
    if (!(fraction >= 0.0 && fraction <= 0.9))
        throw EngineError("'data.validation_split' must be between 0 and 0.9 (got " + std::to_string(fraction) + ").",
                          "data.validation_split");
    Dataset all = makeDataSource(config.source)->load(config, seed);
    throwIfStopRequested();
    checkContract(all, config.source);

    const std::int64_t s = all.size();
    std::int64_t validation = std::llround(static_cast<double>(s) * fraction);
    if (validation >= s) validation = s - 1; // keep at least one training sample
    const std::int64_t train = s - validation;

    SplitData out;
    if (validation == 0) {
        // Everything trains: the samples in their order (the batch sampler shuffles every epoch),
        // without a permuted copy (24 ms and a second copy in memory for 40 MB of data).
        out.train = std::move(all);
        out.validation = subset(out.train, torch::empty({0}, torch::kInt64));
    } else {
        const torch::Tensor perm = torch::randperm(s, data::seededGenerator(seed, data::kStreamSplit), torch::kInt64);
        throwIfStopRequested();
        out.train = subset(all, perm.narrow(0, 0, train));
        out.validation = subset(all, perm.narrow(0, train, validation));
    }
    all = Dataset(); // drop the full copy (or the mapping) before standardising
    throwIfStopRequested();

    if (config.standardize && out.train.inputs.is_floating_point()) {
        std::tie(out.mean, out.std) = statistics(out.train.inputs);
        out.train.inputs.sub_(out.mean).div_(out.std);
        if (validation > 0) out.validation.inputs.sub_(out.mean).div_(out.std);
    }
    return out;
}

} // namespace diamond::engine
