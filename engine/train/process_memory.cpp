#include "process_memory.h"

#include <fstream>
#include <string>

namespace diamond::engine {

ResidentMemory readResidentMemory() {
    ResidentMemory m;
    std::ifstream status("/proc/self/status");
    std::string line;
    auto kib = [&line](std::size_t prefix) { return std::stoll(line.substr(prefix)) * 1024; };
    while (std::getline(status, line)) {
        try {
            if (line.rfind("VmRSS:", 0) == 0)
                m.residentBytes = kib(6);
            else if (line.rfind("VmHWM:", 0) == 0)
                m.peakBytes = kib(6);
        } catch (const std::exception &) { // a malformed line leaves the figure at 0
        }
    }
    return m;
}

bool resetPeakResidentMemory() {
    std::ofstream clear("/proc/self/clear_refs");
    if (!clear) return false;
    clear << "5";
    clear.flush();
    return static_cast<bool>(clear);
}

} // namespace diamond::engine
