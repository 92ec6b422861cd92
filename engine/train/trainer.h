// The training run: data, network, optimizer, the loop, evaluation, checkpoints and signals.
#pragma once

#include "distributed.h"
#include "events.h"
#include "run_config.h"
#include "stop_request.h"

#include "diamond/spec/spec.h"

#include <atomic>
#include <string>

namespace diamond::engine {

struct TrainerOptions {
    std::string runDir;         ///< events.jsonl and checkpoints/ go here (created if missing)
    bool resume = false;        ///< continue from the newest valid checkpoint
    std::string initWeights;    ///< safetensors file to start from (fine-tuning); a checkpoint (resume) wins
    bool dryRun = false;        ///< validate, time a few steps, print the plan; train nothing
    int threadsOverride = -1;   ///< --threads; -1 = from the config
    std::string deviceOverride; ///< --device; empty = from the config
};

/// SIGTERM/SIGINT/SIGUSR1 (and SIGUSR2 when `trialStop`) set gStopSignal (stop_request.h): the run finishes the
/// current step, checkpoints and exits with kExitRequeue; before the first step (while the data loads) it stops
/// within about a second without a checkpoint.
/// Call it before any thread starts: it blocks those signals in the calling thread (so in every thread started
/// later) and starts one thread that receives them with sigwait, so no signal handler ever runs on a thread that
/// is inside a compute kernel (a handler's frame there corrupted oneDNN's GEMM state about once in 17 stops).
/// A signal sent before the call and held by launchLocalRanks' mask is received then.
void installStopSignalHandlers(bool trialStop = false);

/// Unblocks SIGTERM/SIGINT/SIGUSR1 without handlers of its own: for a rank program (calibrate) that a stop
/// signal should simply end.
void unblockStopSignals();

/// Creates the file named by the environment variable DIAMOND_READY_FILE, when set: the batch script holds a
/// stop signal until it exists (remote/job_script.h), because a process without its handlers dies of the signal.
/// Call it once every process of the job has installed its handlers: after the rendezvous, on the leader.
void announceStopSignalsReady();

/// Physical cores of this machine (unique core ids per package), at least 1.
int physicalCoreCount();

/// Flush-to-zero and denormals-are-zero for float arithmetic (as torch.set_flush_denormal) on
/// the calling thread and on each of the at::get_num_threads() intra-op workers; returns false
/// (and changes nothing) where the CPU lacks the mode.
bool setFlushDenormals(bool on);

/// Fixes glibc malloc's thresholds for a training process (the engine calls it first): every block comes from the
/// heap, never from an mmap of its own, and up to 1 GiB of freed heap top stays mapped, so a step's activations,
/// gradients and workspaces reuse the pages of the step before instead of faulting in fresh zeroed ones.
/// glibc's own threshold starts at 128 KB and rises to the size of each mmapped block freed, so
/// whether a step's activations and workspaces (hundreds of KB to MBs) cost fresh zeroed pages
/// every step depended on which large block happened to be freed first (the CNN benchmark at 2
/// threads: 63-98 steps/s from run to run; 95-99 with fixed thresholds). Blocks above 32 MB (glibc's largest mmap
/// threshold) were still fresh mmaps: the cnn28 template at batch 1024 faulted in about 270 MB per step (68,000
/// page faults) and took 157 ms per step at 2 threads; 88 ms from the heap, at the same peak memory.
void tuneAllocator();

/// Runs the whole thing and returns the process exit code (0, 85). Throws EngineError or a
/// torch error on failure; the caller turns it into an `error` event. With several ranks
/// (`comm.world() > 1`) every rank calls this: parameters are broadcast from rank 0, each rank
/// trains on its slice of every global batch, gradients are averaged with one all-reduce of the
/// flat gradient buffer, metrics are summed across ranks, and rank 0 alone evaluates, writes
/// checkpoints (after a barrier) and emits events.
int runTraining(const spec::Spec &spec, const RunConfig &config, const TrainerOptions &options, EventWriter &events,
                Communicator &comm);

} // namespace diamond::engine
