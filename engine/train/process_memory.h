// This process's resident memory, read from /proc (Linux), for the `memory` figures of the engine's events: the
// performance model's peak-memory prediction is checked against them (bench_perf_model, docs/planning.md).
#pragma once

#include <cstdint>

namespace diamond::engine {

struct ResidentMemory {
    std::int64_t residentBytes = 0; ///< VmRSS; 0 when /proc cannot be read
    std::int64_t peakBytes = 0;     ///< VmHWM: the highest VmRSS since the process started or the last reset
};

ResidentMemory readResidentMemory();

/// Starts a new peak: VmHWM becomes the current VmRSS (writes 5 to /proc/self/clear_refs). False when the kernel
/// refuses; the peak then counts from the process's start.
bool resetPeakResidentMemory();

} // namespace diamond::engine
