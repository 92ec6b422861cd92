// Core value types of the Diamond network spec: shapes, dtypes, diagnostics.
// No Qt, no torch: this library is shared by the GUI, the engine, the CLI and the API.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace diamond::spec {

/// Marker for the symbolic batch dimension inside a Shape ("N" in JSON).
inline constexpr std::int64_t kBatch = -1;

/// A tensor shape. Concrete dimensions are >= 1; kBatch marks the symbolic batch dimension.
using Shape = std::vector<std::int64_t>;

enum class DType { Float32, Float64, Float16, BFloat16, Int64, Int32, Bool };

/// "float32", "int64", ... ; returns false when the name is unknown.
bool parseDType(const std::string &name, DType &out);
std::string dtypeName(DType dtype);
int dtypeBytes(DType dtype);
bool isFloating(DType dtype);

struct TensorType {
    Shape shape;
    DType dtype = DType::Float32;
    std::vector<std::string> axes; ///< optional axis names, same length as shape when present
};

/// "[N,3,28,28]"
std::string formatShape(const Shape &shape);
/// Product of the concrete (non-batch) dimensions; -1 when it overflows int64.
std::int64_t elementsPerSample(const Shape &shape);
int batchDimCount(const Shape &shape);

enum class Severity { Error, Warning, Info };
std::string severityName(Severity severity);

/// One problem found in a spec, phrased for a scientist. Contract: `message` names the node
/// (by id) and what is wrong; `hint` says what to do about it, or is empty.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code;    ///< stable machine-readable code, e.g. "shape.rank", "graph.cycle"
    std::string node;    ///< node or input id, empty for document-level problems
    std::string field;   ///< parameter name, input port ("input 2") or JSON field, may be empty
    std::string message; ///< full sentence
    std::string hint;    ///< suggested fix, may be empty
    int line = 0;        ///< 1-based line in the source text when known (JSON syntax errors), else 0
    int column = 0;      ///< 1-based column when known, else 0
};

/// "error: conv3 (kernel_size): message. Hint: ..." on one line.
std::string formatDiagnostic(const Diagnostic &d);
bool hasErrors(const std::vector<Diagnostic> &diagnostics);

/// Checked int64 arithmetic: false on overflow, out unchanged.
bool checkedMul(std::int64_t a, std::int64_t b, std::int64_t &out);
bool checkedAdd(std::int64_t a, std::int64_t b, std::int64_t &out);

} // namespace diamond::spec
