#include "diamond/spec/spec.h"

#include <fstream>
#include <sstream>

namespace diamond::spec {

using nlohmann::json;

std::string PortRef::toString() const { return port.empty() ? node : node + ":" + port; }

PortRef PortRef::parse(const std::string &text) {
    PortRef ref;
    const auto colon = text.find(':');
    if (colon == std::string::npos) {
        ref.node = text;
    } else {
        ref.node = text.substr(0, colon);
        ref.port = text.substr(colon + 1);
    }
    return ref;
}

int Spec::nodeIndex(const std::string &id) const {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].id == id) return static_cast<int>(i);
    }
    return -1;
}

int Spec::inputIndex(const std::string &inputName) const {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].name == inputName) return static_cast<int>(i);
    }
    return -1;
}

bool isValidId(const std::string &id) {
    if (id.empty() || id.size() > 128) return false;
    for (unsigned char c : id) {
        if (c == ':' || c <= ' ' || c == 0x7f) return false;
    }
    return true;
}

namespace {

class Parser {
public:
    Parser(const SpecLimits &limits, std::vector<Diagnostic> &diagnostics) : limits_(limits), diags_(diagnostics) {}

    void error(std::string code, std::string node, std::string field, std::string message, std::string hint = {}) {
        add(Severity::Error, std::move(code), std::move(node), std::move(field), std::move(message), std::move(hint));
    }
    void warning(std::string code, std::string node, std::string field, std::string message, std::string hint = {}) {
        add(Severity::Warning, std::move(code), std::move(node), std::move(field), std::move(message), std::move(hint));
    }

    void parse(const json &doc, Spec &spec) {
        if (!doc.is_object()) {
            error("spec.invalid", {}, {},
                  "A network spec must be a JSON object, but this document is " + std::string(doc.type_name()) + ".");
            return;
        }
        auto format = doc.find("format");
        if (format == doc.end()) {
            error("format.missing", {}, "format", "The document has no \"format\" field, so it is not a Diamond spec.",
                  "Add \"format\": \"diamond.spec/1\" at the top level.");
            return;
        }
        if (!format->is_string() || format->get<std::string>() != kFormatV1) {
            const std::string given = format->is_string() ? format->get<std::string>() : format->dump();
            error("format.version", {}, "format",
                  "This file uses the format '" + given + "', but this version of Diamond reads only '" + kFormatV1 +
                      "'.",
                  given.rfind("diamond.spec/", 0) == 0
                      ? "The file was written by a newer Diamond; update Diamond to open it."
                      : "Is this a Diamond network spec?");
            return;
        }
        spec.format = kFormatV1;
        spec.extensions = json();
        for (auto it = doc.begin(); it != doc.end(); ++it) {
            const std::string &key = it.key();
            const json &v = it.value();
            if (key == "format") continue;
            if (key == "name" || key == "description") {
                if (!v.is_string()) {
                    error("spec.invalid", {}, key, "\"" + key + "\" must be text.");
                    continue;
                }
                (key == "name" ? spec.name : spec.description) = v.get<std::string>();
            } else if (key == "inputs") {
                parseInputs(v, spec);
            } else if (key == "nodes") {
                parseNodes(v, spec);
            } else if (key == "outputs") {
                parseOutputs(v, spec);
            } else if (key == "layout") {
                if (!v.is_object() && !v.is_null())
                    error("spec.invalid", {}, "layout", "\"layout\" must be an object.");
                else
                    spec.layout = v;
            } else if (key == "metadata") {
                spec.metadata = v;
            } else {
                warning("spec.unknown_field", {}, key, "Unknown top-level field \"" + key + "\" is kept but not used.");
                if (spec.extensions.is_null()) spec.extensions = json::object();
                spec.extensions[key] = v;
            }
        }
        if (spec.inputs.size() + spec.nodes.size() > limits_.maxNodes) {
            error("spec.too_large", {}, "nodes",
                  "The spec has " + std::to_string(spec.inputs.size() + spec.nodes.size()) +
                      " nodes and inputs; at most " + std::to_string(limits_.maxNodes) + " are supported.");
            spec.nodes.clear();
            spec.inputs.clear();
        }
    }

private:
    void add(Severity s, std::string code, std::string node, std::string field, std::string message, std::string hint) {
        if (diags_.size() >= 1000) return; // one broken file must not flood the UI
        Diagnostic d;
        d.severity = s;
        d.code = std::move(code);
        d.node = std::move(node);
        d.field = std::move(field);
        d.message = std::move(message);
        d.hint = std::move(hint);
        diags_.push_back(std::move(d));
    }

    bool checkList(const json &v, const char *what) {
        if (v.is_array()) {
            if (v.size() > limits_.maxNodes) {
                error("spec.too_large", {}, what,
                      "\"" + std::string(what) + "\" has " + std::to_string(v.size()) + " entries; at most " +
                          std::to_string(limits_.maxNodes) + " are supported.");
                return false;
            }
            return true;
        }
        error("spec.invalid", {}, what, "\"" + std::string(what) + "\" must be a list.");
        return false;
    }

    void parseInputs(const json &list, Spec &spec) {
        if (!checkList(list, "inputs")) return;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json &e = list[i];
            const std::string where = "inputs[" + std::to_string(i) + "]";
            if (!e.is_object()) {
                error("spec.invalid", {}, where, "Each input must be an object with \"name\" and \"shape\".");
                continue;
            }
            InputDecl in;
            auto name = e.find("name");
            if (name == e.end() || !name->is_string()) {
                error("input.invalid", {}, where, "Input " + std::to_string(i + 1) + " has no \"name\".");
                continue;
            }
            in.name = name->get<std::string>();
            for (auto it = e.begin(); it != e.end(); ++it) {
                const std::string &key = it.key();
                const json &v = it.value();
                if (key == "name") continue;
                if (key == "shape") {
                    parseShape(in, v);
                } else if (key == "dtype") {
                    if (!v.is_string() || !parseDType(v.get<std::string>(), in.dtype))
                        error("input.invalid", in.name, "dtype",
                              "Input '" + in.name + "' has an unknown dtype " + v.dump() + ".",
                              "Use float32, float64, float16, bfloat16, int64, int32 or bool.");
                } else if (key == "axes") {
                    bool ok = v.is_array();
                    if (ok) {
                        for (const auto &a : v)
                            ok = ok && a.is_string();
                    }
                    if (!ok) {
                        error("input.invalid", in.name, "axes",
                              "Input '" + in.name + "': \"axes\" must be a list of names.");
                        continue;
                    }
                    for (const auto &a : v)
                        in.axes.push_back(a.get<std::string>());
                } else {
                    warning("spec.unknown_field", in.name, key,
                            "Unknown field \"" + key + "\" in input '" + in.name + "'.");
                    if (in.extensions.is_null()) in.extensions = json::object();
                    in.extensions[key] = v;
                }
            }
            if (e.find("shape") == e.end())
                error("input.invalid", in.name, "shape", "Input '" + in.name + "' has no \"shape\".",
                      "Give the shape with the batch dimension as \"N\", e.g. [\"N\", 3, 32, 32].");
            if (!in.axes.empty() && in.axes.size() != in.shape.size() && !in.shape.empty())
                error("input.invalid", in.name, "axes",
                      "Input '" + in.name + "' names " + std::to_string(in.axes.size()) + " axes but its shape has " +
                          std::to_string(in.shape.size()) + " dimensions.");
            spec.inputs.push_back(std::move(in));
        }
    }

    void parseShape(InputDecl &in, const json &v) {
        if (!v.is_array() || v.empty()) {
            error("input.invalid", in.name, "shape", "Input '" + in.name + "': \"shape\" must be a non-empty list.",
                  "For example [\"N\", 3, 32, 32], where N is the batch dimension.");
            return;
        }
        if (v.size() > limits_.maxRank) {
            error("input.invalid", in.name, "shape",
                  "Input '" + in.name + "' has rank " + std::to_string(v.size()) + "; at most " +
                      std::to_string(limits_.maxRank) + " dimensions are supported.");
            return;
        }
        for (const auto &d : v) {
            if (d.is_string() && d.get<std::string>() == "N") {
                in.shape.push_back(kBatch);
            } else if (d.is_number_unsigned() && d.get<std::uint64_t>() >= 1 &&
                       d.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX)) {
                in.shape.push_back(static_cast<std::int64_t>(d.get<std::uint64_t>()));
            } else if (d.is_number_integer() && !d.is_number_unsigned() && d.get<std::int64_t>() >= 1) {
                in.shape.push_back(d.get<std::int64_t>());
            } else {
                error("input.invalid", in.name, "shape",
                      "Input '" + in.name + "' has the dimension " + d.dump() +
                          "; dimensions are whole numbers of at least 1, or \"N\".");
                in.shape.clear();
                return;
            }
        }
        if (batchDimCount(in.shape) > 1)
            error("input.invalid", in.name, "shape",
                  "Input '" + in.name + "' has more than one batch dimension \"N\".");
    }

    void parseNodes(const json &list, Spec &spec) {
        if (!checkList(list, "nodes")) return;
        spec.nodes.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json &e = list[i];
            const std::string where = "nodes[" + std::to_string(i) + "]";
            if (!e.is_object()) {
                error("spec.invalid", {}, where, "Each node must be an object with \"id\", \"type\" and \"inputs\".");
                continue;
            }
            Node node;
            auto id = e.find("id");
            if (id == e.end() || !id->is_string()) {
                error("node.invalid", {}, where, "Node " + std::to_string(i + 1) + " has no \"id\".",
                      "Give every node a unique \"id\" such as \"conv1\".");
                continue;
            }
            node.id = id->get<std::string>();
            for (auto it = e.begin(); it != e.end(); ++it) {
                const std::string &key = it.key();
                const json &v = it.value();
                if (key == "id") continue;
                if (key == "type") {
                    if (v.is_string())
                        node.type = v.get<std::string>();
                    else
                        error("node.invalid", node.id, "type",
                              "Node '" + node.id + "': \"type\" must be a layer name.");
                } else if (key == "params") {
                    if (v.is_object())
                        node.params = v;
                    else
                        error("param.invalid", node.id, "params",
                              "Node '" + node.id + "': \"params\" must be an object.");
                } else if (key == "inputs") {
                    parseNodeInputs(node, v);
                } else if (key == "recompute") {
                    if (v.is_boolean())
                        node.recompute = v.get<bool>();
                    else
                        error("node.invalid", node.id, "recompute",
                              "Node '" + node.id + "': \"recompute\" must be true or false.");
                } else {
                    warning("spec.unknown_field", node.id, key,
                            "Unknown field \"" + key + "\" in node '" + node.id + "'.");
                    if (node.extensions.is_null()) node.extensions = json::object();
                    node.extensions[key] = v;
                }
            }
            if (e.find("type") == e.end())
                error("node.invalid", node.id, "type", "Node '" + node.id + "' has no \"type\".");
            spec.nodes.push_back(std::move(node));
        }
    }

    void parseNodeInputs(Node &node, const json &v) {
        if (v.is_string()) {
            node.inputs.push_back(PortRef::parse(v.get<std::string>()));
            return;
        }
        if (!v.is_array()) {
            error("node.invalid", node.id, "inputs", "Node '" + node.id + "': \"inputs\" must be a list of node ids.");
            return;
        }
        if (v.size() > limits_.maxInputsPerNode) {
            error("node.invalid", node.id, "inputs",
                  "Node '" + node.id + "' has " + std::to_string(v.size()) + " inputs; at most " +
                      std::to_string(limits_.maxInputsPerNode) + " are supported.");
            return;
        }
        for (const auto &r : v) {
            if (!r.is_string()) {
                error("node.invalid", node.id, "inputs",
                      "Node '" + node.id + "': input " + r.dump() + " is not a node id.");
                continue;
            }
            node.inputs.push_back(PortRef::parse(r.get<std::string>()));
        }
    }

    void parseOutputs(const json &list, Spec &spec) {
        if (!checkList(list, "outputs")) return;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const json &e = list[i];
            const std::string where = "outputs[" + std::to_string(i) + "]";
            if (!e.is_object()) {
                error("spec.invalid", {}, where, "Each output must be an object with \"name\" and \"from\".");
                continue;
            }
            OutputDecl out;
            auto name = e.find("name");
            auto from = e.find("from");
            if (name == e.end() || !name->is_string() || from == e.end() || !from->is_string()) {
                error("output.invalid", {}, where,
                      "Output " + std::to_string(i + 1) + " needs a \"name\" and a \"from\" node id.");
                continue;
            }
            out.name = name->get<std::string>();
            out.from = PortRef::parse(from->get<std::string>());
            for (auto it = e.begin(); it != e.end(); ++it) {
                if (it.key() == "name" || it.key() == "from") continue;
                warning("spec.unknown_field", {}, it.key(),
                        "Unknown field \"" + it.key() + "\" in output '" + out.name + "'.");
                if (out.extensions.is_null()) out.extensions = json::object();
                out.extensions[it.key()] = it.value();
            }
            spec.outputs.push_back(std::move(out));
        }
    }

    const SpecLimits &limits_;
    std::vector<Diagnostic> &diags_;
};

/// 1-based line and column of a byte offset.
void lineColumn(std::string_view text, std::size_t offset, int &line, int &column) {
    line = 1;
    column = 1;
    offset = std::min(offset, text.size());
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
}

/// Refuses nesting deeper than the limit before nlohmann-json sees the text (its dump and
/// comparison recurse). Returns the offending offset, or npos.
std::size_t findTooDeep(std::string_view text, int maxDepth) {
    int depth = 0;
    bool inString = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '[' || c == '{') {
            if (++depth > maxDepth) return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return std::string_view::npos;
}

} // namespace

ParseResult parseSpec(std::string_view text, const SpecLimits &limits) {
    ParseResult result;
    Diagnostic d;
    d.code = "json.syntax";
    if (text.size() > limits.maxTextBytes) {
        d.code = "spec.too_large";
        d.message = "The file is " + std::to_string(text.size()) + " bytes; specs larger than " +
                    std::to_string(limits.maxTextBytes) + " bytes are refused.";
        result.diagnostics.push_back(d);
        return result;
    }
    if (const auto deep = findTooDeep(text, limits.maxNestingDepth); deep != std::string_view::npos) {
        lineColumn(text, deep, d.line, d.column);
        d.code = "json.too_deep";
        d.message = "The JSON is nested more than " + std::to_string(limits.maxNestingDepth) + " levels deep.";
        d.hint = "A network spec needs only a few levels; is this the right file?";
        result.diagnostics.push_back(d);
        return result;
    }
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error &e) {
        lineColumn(text, e.byte > 0 ? e.byte - 1 : 0, d.line, d.column);
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> the last part
        const auto colon = what.find(": ");
        if (colon != std::string::npos) what = what.substr(colon + 2);
        d.message = "The file is not valid JSON: " + what;
        d.hint = "Check for a missing comma, quote or bracket near line " + std::to_string(d.line) + ".";
        result.diagnostics.push_back(d);
        return result;
    } catch (const std::exception &e) {
        d.message = std::string("The file could not be read as JSON: ") + e.what();
        result.diagnostics.push_back(d);
        return result;
    }
    return parseSpecJson(doc, limits);
}

ParseResult parseSpecJson(const json &doc, const SpecLimits &limits) {
    ParseResult result;
    try {
        Parser(limits, result.diagnostics).parse(doc, result.spec);
    } catch (const std::exception &e) {
        Diagnostic d;
        d.code = "spec.invalid";
        d.message = std::string("The spec could not be read: ") + e.what();
        result.diagnostics.push_back(d);
    }
    return result;
}

namespace {
json shapeJson(const Shape &shape) {
    json a = json::array();
    for (auto d : shape) {
        if (d == kBatch)
            a.push_back("N");
        else
            a.push_back(d);
    }
    return a;
}
void mergeExtensions(json &o, const json &ext) {
    if (!ext.is_object()) return;
    for (auto it = ext.begin(); it != ext.end(); ++it)
        o[it.key()] = it.value();
}
} // namespace

json toJson(const Spec &spec) {
    json o = json::object();
    o["format"] = spec.format;
    if (!spec.name.empty()) o["name"] = spec.name;
    if (!spec.description.empty()) o["description"] = spec.description;
    json inputs = json::array();
    for (const auto &in : spec.inputs) {
        json j = {{"name", in.name}, {"shape", shapeJson(in.shape)}, {"dtype", dtypeName(in.dtype)}};
        if (!in.axes.empty()) j["axes"] = in.axes;
        mergeExtensions(j, in.extensions);
        inputs.push_back(std::move(j));
    }
    o["inputs"] = std::move(inputs);
    json nodes = json::array();
    for (const auto &n : spec.nodes) {
        json j = {{"id", n.id}, {"type", n.type}};
        if (n.params.is_object() && !n.params.empty()) j["params"] = n.params;
        json ins = json::array();
        for (const auto &r : n.inputs)
            ins.push_back(r.toString());
        j["inputs"] = std::move(ins);
        if (n.recompute) j["recompute"] = true;
        mergeExtensions(j, n.extensions);
        nodes.push_back(std::move(j));
    }
    o["nodes"] = std::move(nodes);
    json outputs = json::array();
    for (const auto &out : spec.outputs) {
        json j = {{"name", out.name}, {"from", out.from.toString()}};
        mergeExtensions(j, out.extensions);
        outputs.push_back(std::move(j));
    }
    o["outputs"] = std::move(outputs);
    if (!spec.layout.is_null()) o["layout"] = spec.layout;
    if (!spec.metadata.is_null()) o["metadata"] = spec.metadata;
    mergeExtensions(o, spec.extensions);
    return o;
}

ParseResult loadSpecFile(const std::string &path, const SpecLimits &limits) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ParseResult r;
        Diagnostic d;
        d.code = "io";
        d.field = path;
        d.message = "Cannot open '" + path + "'.";
        r.diagnostics.push_back(d);
        return r;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parseSpec(buffer.str(), limits);
}

} // namespace diamond::spec
