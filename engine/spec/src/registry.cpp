#include "diamond/spec/registry.h"

#include "text_util.h"

#include <cmath>
#include <limits>
#include <mutex>

namespace diamond::spec {

using nlohmann::json;

bool LayerResult::fail(const LayerContext &ctx, std::string code, std::string message, std::string hint,
                       std::string field) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.code = std::move(code);
    d.node = ctx.nodeId;
    d.field = std::move(field);
    d.message = std::move(message);
    d.hint = std::move(hint);
    diagnostics.push_back(std::move(d));
    outputs.clear();
    return false;
}

const ParamSpec *LayerType::param(const std::string &paramName) const {
    for (const auto &p : params) {
        if (p.name == paramName) return &p;
    }
    return nullptr;
}

int LayerType::outputPortIndex(const std::string &port) const {
    if (port.empty()) return 0;
    for (std::size_t i = 0; i < outputPorts.size(); ++i) {
        if (outputPorts[i] == port) return static_cast<int>(i);
    }
    return -1;
}

const Registry &Registry::instance() {
    static const Registry registry = [] {
        Registry r;
        layers::registerInput(r);
        layers::registerLinear(r);
        layers::registerConvolution(r);
        layers::registerPooling(r);
        layers::registerNormalization(r);
        layers::registerActivation(r);
        layers::registerReshaping(r);
        layers::registerEmbedding(r);
        layers::registerRecurrent(r);
        layers::registerAttention(r);
        layers::registerMerge(r);
        return r;
    }();
    return registry;
}

void Registry::add(LayerType type) {
    const std::string name = type.name;
    auto it = index_.find(name);
    if (it != index_.end()) {
        types_[it->second] = std::move(type);
        return;
    }
    index_[name] = types_.size();
    types_.push_back(std::move(type));
}

const LayerType *Registry::find(const std::string &name) const {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : &types_[it->second];
}

std::vector<std::string> Registry::names() const {
    std::vector<std::string> out;
    out.reserve(types_.size());
    for (const auto &t : types_)
        out.push_back(t.name);
    return out;
}

std::vector<std::string> Registry::families() const {
    std::vector<std::string> out;
    for (const auto &t : types_) {
        bool seen = false;
        for (const auto &f : out)
            seen = seen || f == t.family;
        if (!seen) out.push_back(t.family);
    }
    return out;
}

namespace {

struct ParamChecker {
    const LayerType &type;
    const std::string &nodeId;
    std::vector<Diagnostic> &diagnostics;

    bool error(const ParamSpec &p, const std::string &what, const std::string &hint = {}) {
        Diagnostic d;
        d.code = "param.invalid";
        d.node = nodeId;
        d.field = p.name;
        d.message = type.name + " '" + nodeId + "': parameter '" + p.name + "' " + what;
        d.hint = hint.empty() ? p.doc : hint;
        diagnostics.push_back(std::move(d));
        return false;
    }

    static std::string numberText(double v) {
        if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
        std::string s = std::to_string(v);
        while (!s.empty() && s.back() == '0')
            s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    }

    bool inRange(const ParamSpec &p, double v) {
        if (p.minimum && v < *p.minimum)
            return error(p, "must be at least " + numberText(*p.minimum) + ", got " + numberText(v) + ".");
        if (p.maximum && v > *p.maximum)
            return error(p, "must be at most " + numberText(*p.maximum) + ", got " + numberText(v) + ".");
        return true;
    }

    /// Accepts JSON integers (and floats with an integral value) that fit in int64.
    bool toInt(const ParamSpec &p, const json &v, std::int64_t &out) {
        if (v.is_number_integer() && !v.is_number_unsigned()) {
            out = v.get<std::int64_t>();
        } else if (v.is_number_unsigned()) {
            const auto u = v.get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                return error(p, "is too large (" + std::to_string(u) + ").");
            out = static_cast<std::int64_t>(u);
        } else if (v.is_number_float()) {
            const double d = v.get<double>();
            if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 9.2e18)
                return error(p, "must be a whole number, got " + v.dump() + ".");
            out = static_cast<std::int64_t>(d);
        } else {
            return error(p, "must be a whole number, got " + v.dump() + ".");
        }
        return inRange(p, static_cast<double>(out));
    }

    bool toIntList(const ParamSpec &p, const json &v, json &out) {
        if (!v.is_array()) return error(p, "must be a list of whole numbers, got " + v.dump() + ".");
        if (p.listLength > 0 && static_cast<int>(v.size()) != p.listLength)
            return error(p, "must have " + std::to_string(p.listLength) + " entries, got " + std::to_string(v.size()) +
                                ".");
        if (v.size() > 64) return error(p, "has too many entries (" + std::to_string(v.size()) + ").");
        out = json::array();
        for (const auto &e : v) {
            std::int64_t i;
            if (!toInt(p, e, i)) return false;
            out.push_back(i);
        }
        return true;
    }

    bool toIntOrList(const ParamSpec &p, const json &v, json &out) {
        if (v.is_array()) return toIntList(p, v, out);
        std::int64_t i;
        if (!toInt(p, v, i)) return false;
        out = json::array();
        for (int k = 0; k < std::max(1, p.listLength); ++k)
            out.push_back(i);
        return true;
    }

    bool normalize(const ParamSpec &p, const json &v, json &out) {
        switch (p.kind) {
        case ParamKind::Int: {
            std::int64_t i;
            if (!toInt(p, v, i)) return false;
            out = i;
            return true;
        }
        case ParamKind::Float: {
            if (!v.is_number()) return error(p, "must be a number, got " + v.dump() + ".");
            const double d = v.get<double>();
            if (!std::isfinite(d)) return error(p, "must be a finite number.");
            if (!inRange(p, d)) return false;
            out = d;
            return true;
        }
        case ParamKind::Bool:
            if (!v.is_boolean()) return error(p, "must be true or false, got " + v.dump() + ".");
            out = v;
            return true;
        case ParamKind::Enum: {
            if (v.is_string()) {
                for (const auto &c : p.choices) {
                    if (c == v.get<std::string>()) {
                        out = v;
                        return true;
                    }
                }
            }
            std::string hint = "Use one of " + detail::joinQuoted(p.choices) + ".";
            if (v.is_string()) {
                const std::string dym = detail::didYouMean(v.get<std::string>(), p.choices);
                if (!dym.empty()) hint = dym;
            }
            return error(p, "must be one of " + detail::joinQuoted(p.choices) + ", got " + v.dump() + ".", hint);
        }
        case ParamKind::IntList: return toIntList(p, v, out);
        case ParamKind::IntOrList: return toIntOrList(p, v, out);
        case ParamKind::Padding:
            if (v.is_string()) {
                const auto s = v.get<std::string>();
                if (s == "same" || s == "valid") {
                    out = v;
                    return true;
                }
                return error(p, "must be a whole number, a list, \"same\" or \"valid\", got " + v.dump() + ".");
            }
            return toIntOrList(p, v, out);
        case ParamKind::Shape: {
            if (!v.is_array() || v.empty())
                return error(p, "must be a non-empty list of dimensions such as [\"N\", 3].");
            if (v.size() > 8) return error(p, "has rank " + std::to_string(v.size()) + "; at most 8 is supported.");
            out = json::array();
            for (const auto &e : v) {
                if (e.is_string() && e.get<std::string>() == "N") {
                    out.push_back(kBatch);
                    continue;
                }
                std::int64_t i;
                if (!toInt(p, e, i)) return false;
                if (i < 1) return error(p, "has dimension " + std::to_string(i) + "; dimensions must be at least 1.");
                out.push_back(i);
            }
            return true;
        }
        case ParamKind::Strings:
            if (!v.is_array()) return error(p, "must be a list of names.");
            for (const auto &e : v) {
                if (!e.is_string()) return error(p, "must be a list of names, got " + e.dump() + ".");
            }
            out = v;
            return true;
        case ParamKind::String:
            if (!v.is_string()) return error(p, "must be text, got " + v.dump() + ".");
            out = v;
            return true;
        }
        return error(p, "has an unsupported kind.");
    }
};

} // namespace

json resolveParams(const LayerType &type, const std::string &nodeId, const json &params,
                   std::vector<Diagnostic> &diagnostics) {
    json resolved = json::object();
    if (!params.is_null() && !params.is_object()) {
        Diagnostic d;
        d.code = "param.invalid";
        d.node = nodeId;
        d.field = "params";
        d.message = type.name + " '" + nodeId + "': \"params\" must be an object, got " + params.dump() + ".";
        diagnostics.push_back(std::move(d));
        return resolved;
    }
    ParamChecker checker{type, nodeId, diagnostics};
    if (params.is_object()) {
        for (auto it = params.begin(); it != params.end(); ++it) {
            if (type.param(it.key())) continue;
            std::vector<std::string> known;
            for (const auto &p : type.params)
                known.push_back(p.name);
            Diagnostic d;
            d.code = "param.unknown";
            d.node = nodeId;
            d.field = it.key();
            d.message = type.name + " '" + nodeId + "' has no parameter '" + it.key() + "'.";
            d.hint = detail::didYouMean(it.key(), known);
            if (d.hint.empty())
                d.hint = known.empty() ? type.name + " takes no parameters."
                                       : "Its parameters are " + detail::joinQuoted(known, " and ") + ".";
            diagnostics.push_back(std::move(d));
        }
    }
    for (const auto &p : type.params) {
        const json *given = nullptr;
        if (params.is_object()) {
            auto it = params.find(p.name);
            if (it != params.end() && !it->is_null()) given = &*it;
        }
        json out;
        if (given) {
            if (checker.normalize(p, *given, out))
                resolved[p.name] = std::move(out);
            else
                resolved[p.name] = nullptr;
        } else if (p.required()) {
            Diagnostic d;
            d.code = "param.missing";
            d.node = nodeId;
            d.field = p.name;
            d.message = type.name + " '" + nodeId + "' needs the parameter '" + p.name + "'.";
            d.hint = p.doc;
            diagnostics.push_back(std::move(d));
            resolved[p.name] = nullptr;
        } else if (p.defaultValue.is_null()) {
            resolved[p.name] = nullptr;
        } else if (checker.normalize(p, p.defaultValue, out)) {
            resolved[p.name] = std::move(out);
        } else {
            resolved[p.name] = nullptr;
        }
    }
    return resolved;
}

} // namespace diamond::spec
