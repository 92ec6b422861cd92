#include "diamond/spec/types.h"

#include <limits>

namespace diamond::spec {

namespace {
struct DTypeName {
    DType dtype;
    const char *name;
    int bytes;
};
constexpr DTypeName kDTypes[] = {
    {DType::Float32, "float32", 4},   {DType::Float64, "float64", 8}, {DType::Float16, "float16", 2},
    {DType::BFloat16, "bfloat16", 2}, {DType::Int64, "int64", 8},     {DType::Int32, "int32", 4},
    {DType::Bool, "bool", 1},
};
} // namespace

bool parseDType(const std::string &name, DType &out) {
    for (const auto &d : kDTypes) {
        if (name == d.name) {
            out = d.dtype;
            return true;
        }
    }
    return false;
}

std::string dtypeName(DType dtype) {
    for (const auto &d : kDTypes) {
        if (d.dtype == dtype) return d.name;
    }
    return "unknown";
}

int dtypeBytes(DType dtype) {
    for (const auto &d : kDTypes) {
        if (d.dtype == dtype) return d.bytes;
    }
    return 4;
}

bool isFloating(DType dtype) {
    return dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Float16 || dtype == DType::BFloat16;
}

std::string formatShape(const Shape &shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ',';
        s += shape[i] == kBatch ? std::string("N") : std::to_string(shape[i]);
    }
    s += ']';
    return s;
}

std::int64_t elementsPerSample(const Shape &shape) {
    std::int64_t n = 1;
    for (std::int64_t d : shape) {
        if (d == kBatch) continue;
        if (!checkedMul(n, d, n)) return -1;
    }
    return n;
}

int batchDimCount(const Shape &shape) {
    int n = 0;
    for (std::int64_t d : shape)
        n += d == kBatch ? 1 : 0;
    return n;
}

std::string severityName(Severity severity) {
    switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    }
    return "error";
}

std::string formatDiagnostic(const Diagnostic &d) {
    std::string s = severityName(d.severity) + ": ";
    if (d.line > 0) s += "line " + std::to_string(d.line) + ", column " + std::to_string(d.column) + ": ";
    if (!d.node.empty()) {
        s += d.node;
        if (!d.field.empty()) s += " (" + d.field + ")";
        s += ": ";
    } else if (!d.field.empty()) {
        s += d.field + ": ";
    }
    s += d.message;
    if (!d.hint.empty()) s += " Hint: " + d.hint;
    return s;
}

bool hasErrors(const std::vector<Diagnostic> &diagnostics) {
    for (const auto &d : diagnostics) {
        if (d.severity == Severity::Error) return true;
    }
    return false;
}

bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t &out) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) return false;
    out = r;
    return true;
}

bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t &out) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) return false;
    out = r;
    return true;
}

} // namespace diamond::spec
