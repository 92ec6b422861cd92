// Data-parallel plumbing on PyTorch's c10d: rendezvous from the environment (torchrun or
// Slurm), a TCPStore, and a process group (Gloo on CPU; NCCL when this libtorch has CUDA).
// Every c10d call of the engine lives in distributed.cpp so that the code builds against
// libtorch 1.13 (Debian) and 2.x (official CUDA builds).
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace diamond::engine {

struct Rendezvous {
    int rank = 0;
    int world = 1;
    int localRank = 0;
    std::string masterAddr = "127.0.0.1";
    int masterPort = 29500;
    std::string source = "single"; ///< "single", "torchrun" or "slurm"
    /// Ranks started by launchLocalRanks() (DIAMOND_LOCAL_STORE): the path of a file store in a folder only this
    /// user can open; connect() then rendezvouses through it instead of a TCP store, so nothing listens on the
    /// network for the rendezvous. Empty otherwise (torchrun, Slurm: a TCP store at masterAddr:masterPort).
    std::string fileStore;
};

using EnvLookup = std::function<const char *(const char *)>;

/// torchrun variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT, and DIAMOND_LOCAL_STORE
/// from launchLocalRanks()) win; otherwise
/// Slurm's (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID; the master is the first host of
/// SLURM_JOB_NODELIST, the port MASTER_PORT or 29500 + SLURM_JOB_ID % 1000); otherwise a single
/// process. Throws EngineError naming the variable on inconsistent values.
Rendezvous rendezvousFromEnvironment(const EnvLookup &lookup);
Rendezvous rendezvousFromEnvironment();

/// Expands a Slurm host list: "node[01-04,07],gpu5" -> node01 node02 node03 node04 node07 gpu5.
/// Throws EngineError on malformed lists.
std::vector<std::string> expandSlurmNodeList(const std::string &list);

/// A collective in flight.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    virtual void wait() = 0;
};

/// Collectives over all ranks. With world == 1 every call is a no-op. Every tensor handed to a collective must be on
/// device(): CPU for Gloo, the rank's GPU for NCCL (which refuses host tensors); a tensor elsewhere throws
/// EngineError naming both devices.
class Communicator {
public:
    virtual ~Communicator() = default;
    /// Where this communicator's collectives run.
    virtual torch::Device device() const = 0;
    /// Starts an in-place sum over ranks; the tensor must not be touched until wait().
    virtual std::unique_ptr<PendingCollective> allReduceSumAsync(torch::Tensor &tensor) = 0;
    /// Starts a sum over ranks into rank `root`'s `tensor` (same shape everywhere); the other ranks' tensors are
    /// undefined afterwards. A contiguous tensor (a view into a larger buffer too) is used where it lies. No tensor
    /// may be touched until wait(). One reduce per owner is how a reduce-scatter of unequal parts is done (Gloo in
    /// libtorch 1.13 has no reduce_scatter).
    virtual std::unique_ptr<PendingCollective> reduceSumAsync(torch::Tensor &tensor, int root) = 0;
    virtual int rank() const = 0;
    virtual int world() const = 0;
    /// In place, from rank 0.
    virtual void broadcast(torch::Tensor &tensor) = 0;
    /// In place, from rank `root`; a contiguous tensor (a view into a larger buffer too) is sent and received where it
    /// lies, with no copy.
    virtual void broadcastFrom(torch::Tensor &tensor, int root) = 0;
    /// In place, sum over ranks.
    virtual void allReduceSum(torch::Tensor &tensor) = 0;
    /// Every rank's `tensor` (same shape everywhere), in rank order.
    virtual std::vector<torch::Tensor> allGather(const torch::Tensor &tensor) = 0;
    /// Point to point: `tensor` to rank `to`, which receives it with recv() into a tensor of the same shape. A
    /// contiguous tensor (a view into a larger buffer too) is sent or received where it lies, with no copy.
    virtual void send(const torch::Tensor &tensor, int to) = 0;
    /// send() started; `tensor` must not be touched (nor freed) until wait().
    virtual std::unique_ptr<PendingCollective> sendAsync(const torch::Tensor &tensor, int to) = 0;
    virtual void recv(torch::Tensor &tensor, int from) = 0;
    virtual void barrier() = 0;
};

/// A communicator of one process (rank 0 of 1), whose collectives are no-ops: the data-parallel group of a run whose
/// ranks are pipeline stages.
std::unique_ptr<Communicator> singleProcessCommunicator();

/// Every rank's `figures` (the same count on every rank), in rank order, on every rank (collective).
std::vector<std::vector<std::int64_t>> allGatherFigures(Communicator &comm, const std::vector<std::int64_t> &figures);

/// This rank's share of `numel` elements over `world` ranks: [begin, begin + length), every share but the last
/// `ceil(numel / world)` long (some may be empty when numel < world).
struct FlatShard {
    std::int64_t begin = 0, length = 0;
    std::int64_t stride = 0; ///< ceil(numel / world): the padded length every rank sends when gathering
    static FlatShard of(std::int64_t numel, int rank, int world);
    /// The elements of [begin, end) that are in this share: [first, last) (empty when first >= last).
    std::pair<std::int64_t, std::int64_t> overlap(std::int64_t first, std::int64_t end) const {
        return {std::max(begin, first), std::min(begin + length, end)};
    }
};

/// Connects to the other ranks. Every rank registers in the store (a file store for local ranks, see
/// Rendezvous::fileStore; else a TCP store that rank 0 serves); when one has not arrived within `timeout`,
/// throws EngineError naming the missing rank(s). Gloo binds to 127.0.0.1 when the master is local.
/// Collectives that wait longer than `timeout` (a dead peer) throw. `device`: "cpu" (Gloo) or "cuda:N" (NCCL, from
/// chooseDevice()).
std::unique_ptr<Communicator> connect(const Rendezvous &rendezvous, std::chrono::milliseconds timeout,
                                      const std::string &device);

/// Launches `nproc` local ranks of this executable with `args` (argv without the program and
/// without --nproc), setting the torchrun variables (MASTER_ADDR 127.0.0.1, a free loopback port)
/// and DIAMOND_LOCAL_STORE, a file in a new private folder under TMPDIR (or /tmp) that is removed
/// when the ranks have ended; forwards SIGTERM/SIGINT/SIGUSR1 to every rank; when a rank fails,
/// stops the others. Returns 0 when all finished, 85 when they checkpointed on request, else the
/// first failing rank's code. The ranks start with those three signals blocked (a signal sent while they load
/// waits): a rank program calls installStopSignalHandlers() or unblockStopSignals() (trainer.h).
int launchLocalRanks(const std::string &executable, const std::vector<std::string> &args, int nproc);

} // namespace diamond::engine
