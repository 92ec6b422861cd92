// The engine's stop request. Contract: the signal handlers (SIGTERM, SIGINT, SIGUSR1; SIGUSR2 in a pack) store
// the signal in gStopSignal; the training loop polls it between steps, and long set-up work (loading and
// splitting the data) polls it through throwIfStopRequested() at least every ~100 ms of work, so that a stop
// before the first step ends the run within about a second (runTraining: a `requeue` event, exit code 85).
#pragma once

#include <atomic>

namespace diamond::engine {

/// The pending stop signal, 0 when none.
extern std::atomic<int> gStopSignal;

/// Thrown by throwIfStopRequested(). Deliberately not a std::exception: handlers that turn std::exception into
/// error events let it pass; runTraining() catches it and ends the run as stopped on request.
struct StopRequested {
    int signal = 0;
};

/// Throws StopRequested when a stop signal is pending. One relaxed atomic load: cheap enough for inner loops.
inline void throwIfStopRequested() {
    if (const int signal = gStopSignal.load(std::memory_order_relaxed)) throw StopRequested{signal};
}

} // namespace diamond::engine
