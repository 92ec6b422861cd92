// The engine's event stream (protocol "diamond.events/1", docs/events-protocol.md): one JSON
// object per line, each with an "event" field and "time" (Unix seconds), written to stdout
// and appended to <run-dir>/events.jsonl, flushed after every line so a reader never sees a
// partial line followed by silence.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <mutex>
#include <string>

namespace diamond::engine {

inline constexpr const char *kEventsProtocol = "diamond.events/1";

class EventWriter {
public:
    /// `eventsPath` empty: stdout only. `enabled` false (non-zero ranks): writes nothing.
    explicit EventWriter(const std::string &eventsPath = {}, bool toStdout = true, bool enabled = true);
    ~EventWriter();
    EventWriter(const EventWriter &) = delete;
    EventWriter &operator=(const EventWriter &) = delete;

    /// Adds "time" when absent and writes the line. Thread-safe. I/O errors are ignored after a
    /// warning on stderr: losing the file must not kill a long run whose stdout is still read.
    void emit(nlohmann::json event);
    /// Like emit(), but also from a disabled writer (to stdout): errors of every rank are reported.
    void emitAlways(nlohmann::json event);

    const std::string &path() const { return path_; }

private:
    std::mutex mutex_;
    std::string path_;
    std::FILE *file_ = nullptr;
    bool toStdout_;
    bool enabled_;
};

} // namespace diamond::engine
