#include "events.h"

#include <chrono>
#include <cstring>
#include <iostream>
#include <unistd.h>

namespace diamond::engine {

EventWriter::EventWriter(const std::string &eventsPath, bool toStdout, bool enabled)
    : path_(eventsPath), toStdout_(toStdout), enabled_(enabled) {
    if (enabled_ && !path_.empty()) {
        file_ = std::fopen(path_.c_str(), "ab");
        if (!file_) std::cerr << "diamond-train: cannot append to " << path_ << ": " << std::strerror(errno) << "\n";
    }
}

EventWriter::~EventWriter() {
    if (file_) std::fclose(file_);
}

void EventWriter::emitAlways(nlohmann::json event) {
    if (enabled_) return emit(std::move(event));
    enabled_ = true;
    const bool toStdout = toStdout_;
    toStdout_ = true;
    emit(std::move(event));
    toStdout_ = toStdout;
    enabled_ = false;
}

void EventWriter::emit(nlohmann::json event) {
    if (!enabled_) return;
    if (!event.contains("time")) {
        const auto now = std::chrono::system_clock::now().time_since_epoch();
        event["time"] = std::chrono::duration<double>(now).count();
    }
    // Invalid UTF-8 in messages (file names) must not throw: replace it.
    const std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::lock_guard<std::mutex> lock(mutex_);
    if (file_) {
        if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
            std::cerr << "diamond-train: writing " << path_ << " failed: " << std::strerror(errno) << "\n";
            std::fclose(file_);
            file_ = nullptr;
        }
    }
    if (toStdout_) {
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
    }
}

} // namespace diamond::engine
