// Gradients summed over ranks while backward is still running: averaged on every rank (data parallelism), or each
// rank keeping only the share of them it updates (ZeRO stage 2, run config "sharding": "gradients").
#pragma once

#include "distributed.h"
#include "optimizer.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace diamond::engine {

/// Parameters are grouped into buckets of about `bucketBytes` (contiguous ranges of the flat buffers, last
/// parameters first: the order in which backward produces them). When every parameter of a bucket has accumulated
/// its gradient, the bucket's reduction starts asynchronously.
///
/// - Data parallel (first constructor): each bucket is a slice of the flat gradient buffer, all-reduced in place;
///   finish() leaves every rank with the averaged gradients.
/// - Sharded (second constructor, after FlatParameters::shardGradients()): no parameter keeps a gradient. As each
///   gradient arrives it is moved into its bucket's staging buffer (a bucket of one contiguous parameter adopts the
///   gradient itself) and released; a full bucket is summed into each owner's part by one reduce per owner; when a
///   reduction has ended, this rank adds its own part into flat.grads() and the staging buffer is freed. At most
///   `maxInFlight` buckets are reduced at once (launching one more first waits for the oldest, which has usually
///   ended while backward computed the next), so what the gradients take beyond the share is the bucket being
///   filled and those in flight. On 2 ranks every element is the
///   same sum as the all-reduce's, so the weights equal data parallelism's bit for bit.
///
/// Contract: `parameters` are those FlatParameters was built from, in its order; arm() before each backward whose
/// gradients are to be reduced (sharded: every backward, else the gradients pile up in the parameters), finish()
/// after it. A parameter's gradient arrives at most once per backward.
class GradientReducer {
public:
    GradientReducer(Communicator &comm, torch::Tensor flatGrads, const std::vector<torch::Tensor> &parameters,
                    std::int64_t bucketBytes = 4 << 20);
    /// Sharded: `flat` (outliving this) holds this rank's share FlatShard::of(flat.numel(), rank, world). A bucket is
    /// at most a 32nd of all gradients (at least 256 KiB, at most `bucketBytes`), so that the staging buffers stay
    /// small beside the share; a parameter larger than that is a bucket of its own.
    GradientReducer(Communicator &comm, FlatParameters &flat, const std::vector<torch::Tensor> &parameters,
                    std::int64_t bucketBytes = 4 << 20, int maxInFlight = 1);
    ~GradientReducer();
    void arm();
    /// Starts the buckets that did not complete (parameters without gradient: zeros), waits for all; then, when
    /// `average`, divides by the world size what it reduced (sharded: the whole share, which accumulates over the
    /// backward passes finished with average = false).
    void finish(bool average = true);
    int bucketCount() const;
    bool sharded() const;
    /// Sharded: the most bytes the staging buffers held at once (0 otherwise).
    std::int64_t peakStagingBytes() const;

    struct State;

private:
    void hookParameters(const std::vector<torch::Tensor> &parameters, std::int64_t bucketBytes);
    std::shared_ptr<State> state_;
};

} // namespace diamond::engine
