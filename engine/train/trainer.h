// The training run: data, network, optimizer, the loop, evaluation, checkpoints and signals.
#pragma once

#include "events.h"
#include "run_config.h"

#include "diamond/spec/spec.h"

#include <atomic>
#include <string>

namespace diamond::engine {

struct TrainerOptions {
    std::string runDir;          ///< events.jsonl and checkpoints/ go here (created if missing)
    bool resume = false;         ///< continue from the newest valid checkpoint
    bool dryRun = false;         ///< validate, time a few steps, print the plan; train nothing
    int threadsOverride = -1;    ///< --threads; -1 = from the config
    std::string deviceOverride;  ///< --device; empty = from the config
};

/// Set by SIGTERM/SIGINT/SIGUSR1: finish the current step, checkpoint, exit with kExitRequeue.
extern std::atomic<int> gStopSignal;
void installStopSignalHandlers();

/// Physical cores of this machine (unique core ids per package), at least 1.
int physicalCoreCount();

/// Runs the whole thing and returns the process exit code (0, 85). Throws EngineError or a
/// torch error on failure; the caller turns it into an `error` event.
int runTraining(const spec::Spec &spec, const RunConfig &config, const TrainerOptions &options, EventWriter &events);

} // namespace diamond::engine
