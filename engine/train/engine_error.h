// The one exception type of the engine. Contract: whatever goes wrong while reading inputs,
// building the model or training is thrown as EngineError (or a std::exception from torch),
// caught in runCli(), and turned into an `error` event carrying these fields.
#pragma once

#include <stdexcept>
#include <string>

namespace diamond::engine {

class EngineError : public std::runtime_error {
public:
    /// `field`: run-config field ("optimizer.lr", "data.path") or empty; `node`: spec node id or empty.
    explicit EngineError(const std::string &message, std::string field = {}, std::string node = {},
                         std::string hint = {})
        : std::runtime_error(message), field_(std::move(field)), node_(std::move(node)), hint_(std::move(hint)) {}

    const std::string &field() const { return field_; }
    const std::string &node() const { return node_; }
    const std::string &hint() const { return hint_; }

private:
    std::string field_, node_, hint_;
};

/// A bad command line (exit code 2 instead of 1).
class UsageError : public EngineError {
public:
    using EngineError::EngineError;
};

} // namespace diamond::engine
