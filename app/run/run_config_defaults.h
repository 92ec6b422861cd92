// The run-config format on the Qt side: defaults and validation come from the run-config library
// (engine/config, diamond::config), so the application core and the UI never re-type them.
// Contract: runConfigDefaults() is diamond::config::toJson(diamond::config::RunConfig{}) as a
// QJsonObject (e.g. "batch_size" 32, "epochs" 10, "optimizer" {"name": "adam", "lr": 0.001},
// "data" {"validation_split": 0.2, "standardize": true}); a default config names no data source
// and no loss ("loss" has no "name": by task).
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <nlohmann/json.hpp>

namespace diamond::app {

/// Every field of the run config with its documented default (see the contract above).
QJsonObject runConfigDefaults();
/// The default of one field by its dotted path ("optimizer.lr", "data.validation_split"); an
/// undefined QJsonValue for a path the defaults do not have (e.g. "loss.name", "data.source").
QJsonValue runConfigDefault(const QString &path);
/// The value of `config` at `path` when it is set with the JSON type of the default (a number
/// for "optimizer.lr", a whole number for an integer field such as "epochs"), else
/// runConfigDefault(path); for a path without a default, the value of
/// `config` as it is (undefined when unset). Used to fill forms from a partial config.
QJsonValue runConfigValue(const QJsonObject &config, const QString &path);

/// Validates `config` with the library's parser (no file is read: data paths are not checked).
/// Returns an empty object when it is valid, else an object shaped like the engine's `error`
/// event ({"event": "error", "message", "field"[, "hint"]}) with the same message and field
/// diamond-train would report, so describeEngineError() formats it.
QJsonObject checkRunConfig(const QJsonObject &config);

/// Qt JSON to nlohmann JSON exactly as the engine reads a file the app wrote: `value` is
/// written by QJsonDocument and read by nlohmann (so e.g. a whole-number double such as 10.0
/// arrives as the integer 10, like in a config file). Undefined becomes null.
nlohmann::json toNlohmannJson(const QJsonValue &value);
/// nlohmann JSON to Qt JSON; integers become QJsonValue numbers (qint64, doubles beyond that).
QJsonValue toQJsonValue(const nlohmann::json &value);

} // namespace diamond::app
