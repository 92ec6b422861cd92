// Sharded optimizer state (ZeRO stage 1, run config "sharding": "optimizer"): with N ranks each keeps the optimizer
// state of one contiguous 1/N share of the flat parameter buffer and updates only those weights; the updated shares
// are then broadcast by their owners so that every rank holds all weights again. The gradients are averaged over the
// ranks before the step as in plain data parallelism, and the update rules are elementwise, so the weights equal the
// unsharded run's bit for bit. Checkpoints hold the whole state: state() gathers it from every rank (a collective),
// loadState() takes the whole state and keeps this rank's share, so a run resumes with any number of ranks, sharded or
// not.
#pragma once

#include "distributed.h"
#include "optimizer.h"

#include <memory>

namespace diamond::engine {

class ShardedOptimizer final : public Optimizer {
public:
    /// `comm`: the ranks sharing the state; outlives this object. `flat`: the full buffers it will step.
    ShardedOptimizer(const OptimizerConfig &config, const FlatParameters &flat, Communicator &comm);
    /// Updates this rank's share of flat.values(), then gathers every rank's share (collective).
    void step(FlatParameters &flat, double lr) override;
    /// The whole state, gathered from every rank on rank 0 (collective: every rank must call it); on the other ranks
    /// the per-weight tensors are undefined (they never hold the whole state).
    std::map<std::string, torch::Tensor> state() const override;
    /// Names, shapes and dtypes of state() without gathering (values undefined).
    std::map<std::string, torch::Tensor> stateTemplate() const override;
    /// `state`: the whole state (as state() returns); this rank keeps its share.
    void loadState(const std::map<std::string, torch::Tensor> &state) override;
    /// Bytes of optimizer state this rank holds.
    std::int64_t localStateBytes() const override;
    const FlatShard &shard() const { return shard_; }

private:
    /// On rank 0, the full-length tensor made of every rank's `part` (each `shard_.length` long on its rank);
    /// undefined on the other ranks.
    torch::Tensor gather(const torch::Tensor &part) const;

    Communicator &comm_;
    std::int64_t numel_;
    FlatShard shard_;
    std::unique_ptr<Optimizer> inner_; ///< over this rank's share only
};

} // namespace diamond::engine
