// The Diamond network spec document ("diamond.spec/1") and its lossless JSON mapping.
#pragma once

#include "diamond/spec/types.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace diamond::spec {

inline constexpr const char *kFormatV1 = "diamond.spec/1";

/// Limits that keep hostile input from exhausting time or memory. Exceeding one is an error
/// diagnostic, never a crash.
struct SpecLimits {
    std::size_t maxTextBytes = 64u << 20; ///< 64 MiB of JSON text
    int maxNestingDepth = 64;             ///< JSON arrays/objects nested deeper are refused
    std::size_t maxNodes = 100000;        ///< nodes + inputs
    std::size_t maxInputsPerNode = 1024;
    std::size_t maxRank = 8; ///< tensor rank of declared inputs and Reshape targets
};

/// Reference to one output port of a node or graph input: "id" (port 0) or "id:port".
struct PortRef {
    std::string node;
    std::string port; ///< empty = the node's first output
    std::string toString() const;
    static PortRef parse(const std::string &text);
};

struct InputDecl {
    std::string name;
    Shape shape;
    DType dtype = DType::Float32;
    std::vector<std::string> axes;
    nlohmann::json extensions; ///< unknown keys, kept verbatim
};

struct Node {
    std::string id;
    std::string type;
    nlohmann::json params = nlohmann::json::object(); ///< as written by the user; defaults are not filled in
    std::vector<PortRef> inputs;
    nlohmann::json extensions; ///< unknown keys, kept verbatim
    /// "recompute": true — training keeps none of this node's intermediate values for backward and computes them
    /// again there (activation checkpointing): less memory for about one more forward pass of the node.
    bool recompute = false;
};

struct OutputDecl {
    std::string name;
    PortRef from;
    nlohmann::json extensions; ///< unknown keys, kept verbatim
};

struct Spec {
    std::string format = kFormatV1;
    std::string name;
    std::string description;
    std::vector<InputDecl> inputs;
    std::vector<Node> nodes;
    std::vector<OutputDecl> outputs;
    nlohmann::json layout;     ///< designer positions etc.; ignored by the engine; null when absent
    nlohmann::json metadata;   ///< free-form user metadata; null when absent
    nlohmann::json extensions; ///< unknown top-level keys, kept verbatim for a lossless round trip

    /// Index of a node by id, or -1.
    int nodeIndex(const std::string &id) const;
    int inputIndex(const std::string &name) const;
};

struct ParseResult {
    Spec spec;
    std::vector<Diagnostic> diagnostics;
    bool ok() const { return !hasErrors(diagnostics); }
};

/// Parses JSON text. Syntax errors carry line and column; structural errors name the node
/// and field. Never throws.
ParseResult parseSpec(std::string_view text, const SpecLimits &limits = {});
/// Parses an already-parsed JSON document. Never throws.
ParseResult parseSpecJson(const nlohmann::json &doc, const SpecLimits &limits = {});

/// The canonical JSON form; parseSpecJson(toJson(s)) == s and toJson(parse(j)) == j for valid j.
nlohmann::json toJson(const Spec &spec);

/// True when `id` can name a node or input: 1-128 characters, no ':' and no whitespace or
/// control characters.
bool isValidId(const std::string &id);

/// Reads a file and parses it; I/O errors become a diagnostic with code "io".
ParseResult loadSpecFile(const std::string &path, const SpecLimits &limits = {});

} // namespace diamond::spec
