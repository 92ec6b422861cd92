// Counting the bytes torch's CPU allocator hands out, through the allocator's profiling report: install with
// c10::DebugInfoGuard(c10::DebugInfoKind::PROFILER_STATE, counter) on the thread to measure. Exact, but every
// allocation then takes the reporter's lock: for tests and benchmarks, not for training.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <algorithm>
#include <cstdint>

namespace diamond::engine {

struct TensorBytesCounter : c10::MemoryReportingInfoBase {
    std::int64_t now = 0;  ///< allocated since installed, less what was freed
    std::int64_t peak = 0; ///< the most of `now`
    void reportMemoryUsage(void *, std::int64_t size, std::int64_t, std::int64_t, c10::Device device) override {
        if (device.type() != c10::DeviceType::CPU) return;
        now += size;
        peak = std::max(peak, now);
    }
    bool memoryProfilingEnabled() const override { return true; }
};

} // namespace diamond::engine
