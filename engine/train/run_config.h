// The run configuration ("diamond.run/1") in the engine. The format itself (option structs with
// their documented defaults, parsing, validation, toJson) lives in the torch-free library
// diamond_run_config (engine/config, namespace diamond::config); this header brings its types
// into diamond::engine. The engine's parseRunConfig()/loadRunConfig() report problems as
// EngineError so that every error event and exit code of diamond-train stays the same.
#pragma once

#include "data/dataset.h"
#include "diamond/config/run_config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace diamond::engine {

using ::diamond::config::kRunFormatV1;

using ::diamond::config::CheckpointConfig;
using ::diamond::config::EarlyStoppingConfig;
using ::diamond::config::LossConfig;
using ::diamond::config::OptimizerConfig;
using ::diamond::config::RunConfig;
using ::diamond::config::ScheduleConfig;
using ::diamond::config::toJson;

/// config::parseRunConfig(): validates `doc` and fills defaults; `baseDir` resolves relative data
/// paths. Throws EngineError with the message, field() and hint() of the config::ConfigError.
RunConfig parseRunConfig(const nlohmann::json &doc, const std::string &baseDir);
/// config::loadRunConfig() with its ConfigError turned into EngineError like parseRunConfig().
RunConfig loadRunConfig(const std::string &path);

} // namespace diamond::engine
