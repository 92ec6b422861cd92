// diamond-train calibrate: short microbenchmarks of the device this process runs on, printed as one JSON device
// profile (format diamond.device-profile/1, docs/planning.md) that the performance model (app/plan) reads.
// The layer probes run the engine's own layers (Network::build on one-layer specs, forward and backward), so the
// profile measures the code that trains, not a library's best case.
#pragma once

#include <string>

namespace diamond::engine {

struct CalibrateOptions {
    int threads = 0;            ///< intra-op threads; 0 = the engine's default (physical cores)
    std::string dir = ".";      ///< where the checkpoint-write probe writes (the run folder's file system)
    std::string device = "cpu"; ///< cpu, or cuda[:N] where this build has CUDA
    bool quick = false;         ///< fewer shapes and repeats (tests): a rougher profile in about a second
    double probeSeconds = 0.12; ///< minimum time spent timing each shape (after two warm-up repeats)
};

/// `diamond-train calibrate [--threads N] [--dir D] [--device D] [--nproc N] [--quick]`: prints the profile on
/// stdout (rank 0 only when several ranks run; they add all-reduce timings from 1 KiB to 64 MiB). Returns the exit
/// code.
int runCalibrate(int argc, char **argv);

} // namespace diamond::engine
