#include "run_config.h"

#include "engine_error.h"

namespace diamond::engine {

namespace {

/// The engine's exception for a config problem: same message, field and hint, no node.
EngineError toEngineError(const ::diamond::config::ConfigError &e) {
    return EngineError(e.what(), e.field(), {}, e.hint());
}

} // namespace

RunConfig parseRunConfig(const nlohmann::json &doc, const std::string &baseDir) {
    try {
        return ::diamond::config::parseRunConfig(doc, baseDir);
    } catch (const ::diamond::config::ConfigError &e) {
        throw toEngineError(e);
    }
}

RunConfig loadRunConfig(const std::string &path) {
    try {
        return ::diamond::config::loadRunConfig(path);
    } catch (const ::diamond::config::ConfigError &e) {
        throw toEngineError(e);
    }
}

} // namespace diamond::engine
