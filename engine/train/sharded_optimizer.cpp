#include "sharded_optimizer.h"

#include "engine_error.h"

#include <algorithm>

namespace diamond::engine {

ShardedOptimizer::ShardedOptimizer(const OptimizerConfig &config, const FlatParameters &flat, Communicator &comm)
    : comm_(comm), numel_(flat.numel()), shard_(FlatShard::of(flat.numel(), comm.rank(), comm.world())),
      inner_(makeOptimizer(config, shard_.length, flat.values().options())) {}

void ShardedOptimizer::step(FlatParameters &flat, double lr) {
    torch::NoGradGuard noGrad;
    FlatParameters share = flat.slice(shard_.begin, shard_.length);
    inner_->step(share, lr);
    // Every rank's share straight into its place in the buffer: one broadcast per rank, nothing allocated (an
    // all-gather needs a full-size buffer besides the weights).
    for (int r = 0; r < comm_.world(); ++r) {
        const FlatShard s = FlatShard::of(numel_, r, comm_.world());
        if (s.length == 0) continue;
        torch::Tensor part = flat.values().narrow(0, s.begin, s.length);
        comm_.broadcastFrom(part, r);
    }
}

torch::Tensor ShardedOptimizer::gather(const torch::Tensor &part) const {
    torch::NoGradGuard noGrad;
    if (comm_.rank() != 0) {
        if (shard_.length > 0) comm_.send(part.contiguous(), 0);
        return {};
    }
    // Each share straight into its place: nothing but the whole tensor is allocated.
    torch::Tensor whole = torch::empty({numel_}, part.options());
    whole.narrow(0, shard_.begin, shard_.length).copy_(part);
    for (int r = 1; r < comm_.world(); ++r) {
        const FlatShard s = FlatShard::of(numel_, r, comm_.world());
        if (s.length == 0) continue;
        torch::Tensor place = whole.narrow(0, s.begin, s.length);
        comm_.recv(place, r);
    }
    return whole;
}

std::map<std::string, torch::Tensor> ShardedOptimizer::state() const {
    std::map<std::string, torch::Tensor> whole;
    for (const auto &[key, tensor] : inner_->state()) // the same keys, in the same order, on every rank
        whole[key] = tensor.dim() == 1 && tensor.numel() == shard_.length ? gather(tensor) : tensor;
    return whole;
}

std::map<std::string, torch::Tensor> ShardedOptimizer::stateTemplate() const {
    std::map<std::string, torch::Tensor> whole;
    for (const auto &[key, tensor] : inner_->stateTemplate())
        whole[key] =
            tensor.dim() == 1 && tensor.numel() == shard_.length ? torch::empty({numel_}, tensor.options()) : tensor;
    return whole;
}

void ShardedOptimizer::loadState(const std::map<std::string, torch::Tensor> &state) {
    std::map<std::string, torch::Tensor> share;
    for (const auto &[key, tensor] : state) {
        if (tensor.dim() == 1 && tensor.numel() == numel_)
            share[key] = tensor.narrow(0, shard_.begin, shard_.length).clone();
        else if (tensor.dim() == 1)
            throw EngineError("The optimizer state '" + key + "' has " + std::to_string(tensor.numel()) +
                              " values; the network has " + std::to_string(numel_) + " parameters.");
        else
            share[key] = tensor;
    }
    inner_->loadState(share);
}

std::int64_t ShardedOptimizer::localStateBytes() const { return inner_->localStateBytes(); }

} // namespace diamond::engine
