// Conversions between the spec library's JSON (nlohmann) and Qt's JSON and strings.
#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <nlohmann/json.hpp>

#include <string>

namespace diamond::ui {

inline QString qs(const std::string &s) { return QString::fromStdString(s); }
inline std::string ss(const QString &s) { return s.toStdString(); }

/// obj[key] when obj is an object and the value a string, else `fallback`; never throws.
inline std::string stringAt(const nlohmann::json &obj, const char *key, const std::string &fallback = {}) {
    if (!obj.is_object()) return fallback;
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : fallback;
}

/// obj[key] when obj is an object and the value a number, else `fallback`; never throws.
inline double numberAt(const nlohmann::json &obj, const char *key, double fallback = 0.0) {
    if (!obj.is_object()) return fallback;
    auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? it->get<double>() : fallback;
}

/// Any JSON value (null and discarded values become QJsonValue::Null).
inline QJsonValue toQJson(const nlohmann::json &j) {
    if (j.is_null() || j.is_discarded()) return QJsonValue(QJsonValue::Null);
    if (j.is_boolean()) return QJsonValue(j.get<bool>());
    if (j.is_number_integer() || j.is_number_unsigned()) return QJsonValue(static_cast<qint64>(j.get<std::int64_t>()));
    if (j.is_number_float()) return QJsonValue(j.get<double>());
    if (j.is_string()) return QJsonValue(qs(j.get<std::string>()));
    const QByteArray text = QByteArray::fromStdString(nlohmann::json::array({j}).dump());
    return QJsonDocument::fromJson(text).array().at(0);
}

/// Qt JSON to nlohmann; whole doubles stay integers so `3` round-trips as 3, not 3.0.
inline nlohmann::json fromQJson(const QJsonValue &v) {
    switch (v.type()) {
    case QJsonValue::Bool: return v.toBool();
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == static_cast<double>(static_cast<std::int64_t>(d)) && d > -9.0e15 && d < 9.0e15)
            return static_cast<std::int64_t>(d);
        return d;
    }
    case QJsonValue::String: return ss(v.toString());
    case QJsonValue::Array: {
        nlohmann::json a = nlohmann::json::array();
        for (const QJsonValue &e : v.toArray())
            a.push_back(fromQJson(e));
        return a;
    }
    case QJsonValue::Object: {
        nlohmann::json o = nlohmann::json::object();
        const QJsonObject obj = v.toObject();
        for (auto it = obj.begin(); it != obj.end(); ++it)
            o[ss(it.key())] = fromQJson(it.value());
        return o;
    }
    default: return nullptr;
    }
}

} // namespace diamond::ui
