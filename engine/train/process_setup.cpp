// Process-wide set-up of a training process (trainer.h): stop signals, flush-to-zero, malloc's thresholds and the
// physical core count.
#include "trainer.h"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

namespace diamond::engine {

std::atomic<int> gStopSignal{0};

namespace {
extern "C" void onStopSignal(int signal) { gStopSignal.store(signal); }

sigset_t stopSignalSet(bool trialStop) {
    sigset_t set;
    sigemptyset(&set);
    for (int s : {SIGTERM, SIGINT, SIGUSR1})
        sigaddset(&set, s);
    if (trialStop) sigaddset(&set, SIGUSR2);
    return set;
}
} // namespace

void installStopSignalHandlers(bool trialStop) {
    // The handler stays as a fallback for a thread that existed before this call with the signals unblocked.
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    const sigset_t set = stopSignalSet(trialStop);
    for (int s : {SIGTERM, SIGINT, SIGUSR1, SIGUSR2})
        if (sigismember(&set, s)) sigaction(s, &action, nullptr);
    // Blocked here, the signals stay blocked in every thread started later (intra-op pool, Gloo, data): none of
    // them is interrupted in the middle of a kernel. One thread takes them with sigwait.
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set] {
        for (;;) {
            int signal = 0;
            if (sigwait(&set, &signal) == 0) gStopSignal.store(signal);
        }
    }).detach();
}

void unblockStopSignals() {
    const sigset_t set = stopSignalSet(false);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

void announceStopSignalsReady() {
    const char *path = std::getenv("DIAMOND_READY_FILE");
    if (!path || !*path) return;
    std::ofstream ready(path, std::ios::trunc);
    if (!ready) std::cerr << "diamond-train: cannot create " << path << "; the batch script holds stop signals.\n";
}

bool setFlushDenormals(bool on) {
    if (!at::globalContext().setFlushDenormal(on)) return false;
    // The mode is per thread (MXCSR): one chunk of size 1 per worker sets it on each of them.
    at::parallel_for(0, at::get_num_threads(), 1,
                     [on](std::int64_t, std::int64_t) { at::globalContext().setFlushDenormal(on); });
    return true;
}

void tuneAllocator() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest on 64-bit
    mallopt(M_MMAP_MAX, 0);              // and larger blocks from the heap too: no fresh pages each step
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

int physicalCoreCount() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::set<std::pair<std::string, std::string>> cores;
    std::string line, physical = "0";
    while (std::getline(cpuinfo, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
        if (key == "physical id")
            physical = value;
        else if (key == "core id")
            cores.emplace(physical, value);
    }
    const int hw = static_cast<int>(std::thread::hardware_concurrency());
    if (cores.empty()) return std::max(1, hw);
    return std::max(1, std::min(static_cast<int>(cores.size()), hw > 0 ? hw : 1 << 20));
}

} // namespace diamond::engine
