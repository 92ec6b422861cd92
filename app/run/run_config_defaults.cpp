#include "app/run/run_config_defaults.h"

#include "diamond/config/run_config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <cmath>
#include <cstdint>
#include <limits>

namespace diamond::app {

namespace {

/// The value at a dotted path of nested objects; undefined when a step is missing.
QJsonValue valueAt(const QJsonObject &object, const QString &path) {
    const QStringList keys = path.split(QLatin1Char('.'));
    QJsonValue v = object;
    for (const QString &key : keys) {
        if (!v.isObject()) return QJsonValue(QJsonValue::Undefined);
        v = v.toObject().value(key);
    }
    return v;
}

const nlohmann::json &defaultsJson() {
    static const nlohmann::json defaults = ::diamond::config::toJson(::diamond::config::RunConfig{});
    return defaults;
}

/// Whether the library's default at `path` is an integer (an integer field such as "epochs").
bool integerField(const QString &path) {
    const nlohmann::json *v = &defaultsJson();
    for (const QString &key : path.split(QLatin1Char('.'))) {
        if (!v->is_object()) return false;
        const auto it = v->find(key.toStdString());
        if (it == v->end()) return false;
        v = &*it;
    }
    return v->is_number_integer();
}

} // namespace

QJsonObject runConfigDefaults() {
    static const QJsonObject defaults = toQJsonValue(defaultsJson()).toObject();
    return defaults;
}

QJsonValue runConfigDefault(const QString &path) { return valueAt(runConfigDefaults(), path); }

QJsonValue runConfigValue(const QJsonObject &config, const QString &path) {
    const QJsonValue fallback = runConfigDefault(path);
    const QJsonValue value = valueAt(config, path);
    if (fallback.isUndefined()) return value;
    if (value.type() != fallback.type()) return fallback;
    if (integerField(path) && value.toDouble() != std::floor(value.toDouble())) return fallback; // 2.5 epochs
    return value;
}

QJsonObject checkRunConfig(const QJsonObject &config) {
    try {
        ::diamond::config::parseRunConfig(toNlohmannJson(config), {});
        return {};
    } catch (const ::diamond::config::ConfigError &e) {
        QJsonObject event{{QStringLiteral("event"), QStringLiteral("error")},
                          {QStringLiteral("message"), QString::fromStdString(e.what())},
                          {QStringLiteral("field"), QString::fromStdString(e.field())}};
        if (!e.hint().empty()) event.insert(QStringLiteral("hint"), QString::fromStdString(e.hint()));
        return event;
    }
}

nlohmann::json toNlohmannJson(const QJsonValue &value) {
    // Through the text form on purpose: numbers then take exactly the type the engine sees.
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    const nlohmann::json wrapped = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr,
                                                         /*allow_exceptions=*/false);
    return wrapped.is_array() && wrapped.size() == 1 ? wrapped[0] : nlohmann::json();
}

QJsonValue toQJsonValue(const nlohmann::json &value) {
    switch (value.type()) {
    case nlohmann::json::value_t::boolean: return value.get<bool>();
    case nlohmann::json::value_t::number_integer: return qint64(value.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
        const std::uint64_t u = value.get<std::uint64_t>();
        if (u <= std::uint64_t(std::numeric_limits<qint64>::max())) return qint64(u);
        return double(u);
    }
    case nlohmann::json::value_t::number_float: return value.get<double>();
    case nlohmann::json::value_t::string: return QString::fromStdString(value.get<std::string>());
    case nlohmann::json::value_t::array: {
        QJsonArray out;
        for (const auto &item : value)
            out.append(toQJsonValue(item));
        return out;
    }
    case nlohmann::json::value_t::object: {
        QJsonObject out;
        for (auto it = value.begin(); it != value.end(); ++it)
            out.insert(QString::fromStdString(it.key()), toQJsonValue(it.value()));
        return out;
    }
    default: return QJsonValue(QJsonValue::Null); // null, binary, discarded
    }
}

} // namespace diamond::app
