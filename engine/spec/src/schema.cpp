#include "diamond/spec/registry.h"
#include "diamond/spec/spec.h"

namespace diamond::spec {

using nlohmann::json;

namespace {

json intSchema(const ParamSpec &p) {
    json s = {{"type", "integer"}};
    if (p.minimum) s["minimum"] = static_cast<std::int64_t>(*p.minimum);
    if (p.maximum) s["maximum"] = static_cast<std::int64_t>(*p.maximum);
    return s;
}

json listOf(const json &item, int length) {
    json s = {{"type", "array"}, {"items", item}};
    if (length > 0) {
        s["minItems"] = length;
        s["maxItems"] = length;
    }
    return s;
}

json paramSchema(const ParamSpec &p) {
    json s;
    switch (p.kind) {
    case ParamKind::Int: s = intSchema(p); break;
    case ParamKind::Float:
        s = {{"type", "number"}};
        if (p.minimum) s["minimum"] = *p.minimum;
        if (p.maximum) s["maximum"] = *p.maximum;
        break;
    case ParamKind::Bool: s = {{"type", "boolean"}}; break;
    case ParamKind::Enum: s = {{"enum", p.choices}}; break;
    case ParamKind::IntList: s = listOf(intSchema(p), p.listLength); break;
    case ParamKind::IntOrList: s = {{"oneOf", {intSchema(p), listOf(intSchema(p), p.listLength)}}}; break;
    case ParamKind::Padding:
        s = {{"oneOf", {intSchema(p), listOf(intSchema(p), p.listLength), {{"enum", {"same", "valid"}}}}}};
        break;
    case ParamKind::Shape: s = {{"$ref", "#/$defs/shape"}}; break;
    case ParamKind::Strings: s = listOf({{"type", "string"}}, 0); break;
    case ParamKind::String: s = {{"type", "string"}}; break;
    }
    s["description"] = p.doc;
    if (!p.defaultValue.is_null()) s["default"] = p.defaultValue;
    return s;
}

} // namespace

json specJsonSchema() {
    const Registry &registry = Registry::instance();
    json nodeVariants = json::array();
    for (const LayerType &t : registry.types()) {
        if (t.name == "Input") continue;
        json props = json::object();
        json required = json::array();
        for (const ParamSpec &p : t.params) {
            props[p.name] = paramSchema(p);
            if (p.required()) required.push_back(p.name);
        }
        json params = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
        if (!required.empty()) params["required"] = required;
        json inputs = {{"type", "array"}, {"items", {{"$ref", "#/$defs/portRef"}}}, {"minItems", t.minInputs}};
        if (t.maxInputs >= 0) inputs["maxItems"] = t.maxInputs;
        json variant = {{"if", {{"properties", {{"type", {{"const", t.name}}}}}}},
                        {"then", {{"properties", {{"params", params}, {"inputs", inputs}}}}}};
        if (!required.empty()) variant["then"]["required"] = json::array({"params"});
        nodeVariants.push_back(variant);
    }
    json shape = {{"type", "array"},
                  {"minItems", 1},
                  {"maxItems", 8},
                  {"items", {{"oneOf", {{{"type", "integer"}, {"minimum", 1}}, {{"const", "N"}}}}}}};
    json input = {{"type", "object"},
                  {"required", {"name", "shape"}},
                  {"properties",
                   {{"name", {{"$ref", "#/$defs/id"}}},
                    {"shape", {{"$ref", "#/$defs/shape"}}},
                    {"dtype", {{"enum", {"float32", "float64", "float16", "bfloat16", "int64", "int32", "bool"}}}},
                    {"axes", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}};
    json node = {{"type", "object"},
                 {"required", {"id", "type", "inputs"}},
                 {"properties",
                  {{"id", {{"$ref", "#/$defs/id"}}},
                   {"type",
                    {{"enum",
                      [&] {
                          json names = json::array();
                          for (const auto &t : registry.types())
                              if (t.name != "Input") names.push_back(t.name);
                          return names;
                      }()}}},
                   {"params", {{"type", "object"}}},
                   {"inputs", {{"type", "array"}, {"items", {{"$ref", "#/$defs/portRef"}}}}},
                   {"recompute",
                    {{"type", "boolean"},
                     {"description", "Recompute this node's intermediate values in backward instead of keeping "
                                     "them (activation checkpointing)."}}}}},
                 {"allOf", nodeVariants}};
    json output = {{"type", "object"},
                   {"required", {"name", "from"}},
                   {"properties", {{"name", {{"type", "string"}}}, {"from", {{"$ref", "#/$defs/portRef"}}}}}};
    return {
        {"$schema", "https://json-schema.org/draft/2020-12/schema"},
        {"$id", "https://diamond.invalid/schemas/diamond.spec-1.schema.json"},
        {"title", "Diamond network spec (diamond.spec/1)"},
        {"description", "Generated from the layer registry by diamondctl spec schema; do not edit by hand."},
        {"type", "object"},
        {"required", {"format", "inputs", "nodes", "outputs"}},
        {"properties",
         {{"format", {{"const", kFormatV1}}},
          {"name", {{"type", "string"}}},
          {"description", {{"type", "string"}}},
          {"inputs", {{"type", "array"}, {"items", {{"$ref", "#/$defs/input"}}}}},
          {"nodes", {{"type", "array"}, {"items", {{"$ref", "#/$defs/node"}}}}},
          {"outputs", {{"type", "array"}, {"items", {{"$ref", "#/$defs/output"}}}}},
          {"layout", {{"type", "object"}, {"description", "Designer positions by node id; ignored by the engine."}}},
          {"metadata", {{"description", "Free-form user metadata."}}}}},
        {"$defs",
         {{"id", {{"type", "string"}, {"minLength", 1}, {"maxLength", 128}, {"pattern", "^[^:\\s]+$"}}},
          {"portRef", {{"type", "string"}, {"pattern", "^[^:\\s]+(:[A-Za-z_]+)?$"}}},
          {"shape", shape},
          {"input", input},
          {"node", node},
          {"output", output}}}};
}

} // namespace diamond::spec
