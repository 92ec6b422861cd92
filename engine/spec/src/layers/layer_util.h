// Shared helpers for the layer rules (internal to diamond_spec): parameter declaration and
// reading, input checks with messages for scientists, checked arithmetic, conv/pool sizes and
// broadcasting. Every helper that can fail adds an error diagnostic and returns false.
#pragma once

#include "diamond/spec/registry.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace diamond::spec::layers {

// ---- declaration --------------------------------------------------------------------------

/// Builder for a ParamSpec: `P("stride", ParamKind::IntOrList, 1, "Step of the window").min(1).len(2)`.
class P {
public:
    P(std::string name, ParamKind kind, nlohmann::json defaultValue, std::string doc);
    P &min(double v);
    P &max(double v);
    P &len(int n);
    P &choices(std::vector<std::string> values);
    P &optional();
    operator ParamSpec() const { return spec_; } // NOLINT(google-explicit-constructor)

private:
    ParamSpec spec_;
};

LayerType makeType(std::string name, std::string family, std::string doc, std::vector<ParamSpec> params, ShapeRule rule,
                   int minInputs = 1, int maxInputs = 1, std::vector<std::string> outputPorts = {"out"});

// ---- reading resolved parameters ----------------------------------------------------------
// Resolved parameters are normalised by resolveParams; these readers never throw and fall back
// to `fallback` (or an empty list) when a value is null or of an unexpected type.

std::int64_t intParam(const LayerContext &ctx, const char *name, std::int64_t fallback = 0);
double floatParam(const LayerContext &ctx, const char *name, double fallback = 0.0);
bool boolParam(const LayerContext &ctx, const char *name, bool fallback = false);
std::string stringParam(const LayerContext &ctx, const char *name, const std::string &fallback = {});
bool isNull(const LayerContext &ctx, const char *name);
/// An Int, IntList or IntOrList value as a list; a scalar or a 1-element list is repeated to
/// `n` entries when n > 0. Returns an empty list when absent.
std::vector<std::int64_t> intList(const LayerContext &ctx, const char *name, std::size_t n = 0);

// ---- checked arithmetic -------------------------------------------------------------------

/// int64 value with a sticky overflow flag: once an operation overflows, the result stays
/// overflowed. Rules compute sizes and counts with it and report "shape.overflow" at the end.
class Count {
public:
    constexpr Count(std::int64_t v = 0) : value_(v) {} // NOLINT(google-explicit-constructor)
    static Count overflowed();
    bool ok() const { return !overflow_; }
    std::int64_t value() const { return value_; }
    friend Count operator+(Count a, Count b);
    friend Count operator-(Count a, Count b);
    friend Count operator*(Count a, Count b);
    Count &operator+=(Count b) { return *this = *this + b; }
    Count &operator*=(Count b) { return *this = *this * b; }
    /// Division rounding towards negative infinity; b > 0.
    static Count floorDiv(Count a, std::int64_t b);

private:
    std::int64_t value_ = 0;
    bool overflow_ = false;
};

/// Product of the concrete (non-batch) dimensions of `shape` (elements per sample).
Count elements(const Shape &shape);
/// Product of `dims[from, to)`, skipping the batch marker.
Count product(const Shape &dims, std::size_t from = 0, std::size_t to = SIZE_MAX);

/// Stores params/buffers/flops into `res`, or fails with "shape.overflow" when one overflowed.
bool setCounts(const LayerContext &ctx, LayerResult &res, Count params, Count buffers, Count flops);
/// A computed output dimension: fails with "shape.overflow" when it overflowed.
bool dimValue(const LayerContext &ctx, LayerResult &res, Count dim, const std::string &what, std::int64_t &out);

// ---- messages -----------------------------------------------------------------------------

/// "Conv2d 'conv3'"
std::string who(const LayerContext &ctx);
/// "'flatten1'" (the producer of input i), or "input i+1" when unknown.
std::string from(const LayerContext &ctx, std::size_t input = 0);
std::string quoted(const std::string &s);
/// "[16,-1]": a parameter list, where -1 is a number (formatShape would print it as "N").
std::string listText(const std::vector<std::int64_t> &values);
std::string num(double v);

// ---- input checks -------------------------------------------------------------------------

struct RankForm {
    int rank;
    const char *layout; ///< "[N,C,H,W]"
};

/// Input `input` has one of the ranks in `forms`; else "shape.rank" naming the producer.
bool requireRank(const LayerContext &ctx, LayerResult &res, std::initializer_list<RankForm> forms,
                 std::size_t input = 0);
/// Input has at least `minRank` dimensions.
bool requireMinRank(const LayerContext &ctx, LayerResult &res, int minRank, const char *layout, std::size_t input = 0);
/// The batch marker appears at most at position 0 (layers are batch-first).
bool requireBatchFirst(const LayerContext &ctx, LayerResult &res, std::size_t input = 0);
/// Dimension `axis` of input `input` is concrete (not the batch marker); `what` names it.
bool requireConcrete(const LayerContext &ctx, LayerResult &res, std::size_t axis, const std::string &what,
                     std::size_t input = 0);
/// Input dtype is floating point ("dtype.invalid").
bool requireFloating(const LayerContext &ctx, LayerResult &res, std::size_t input = 0);
/// Normalises a dimension index (negative counts from the end) for a tensor of `rank`; fails
/// with "param.invalid" on `field` when out of range, or when it is the batch dim (position 0)
/// and `allowBatch` is false.
bool normalizeDim(const LayerContext &ctx, LayerResult &res, std::int64_t dim, std::size_t rank, const char *field,
                  bool allowBatch, std::size_t &out);

// ---- convolution and pooling arithmetic ---------------------------------------------------

/// Name of spatial axis i of `count` spatial axes: "length"; "height", "width"; "depth", ...
std::string spatialName(std::size_t i, std::size_t count);

/// floor((in + 2*pad - dilation*(kernel-1) - 1) / stride) + 1, as Conv*d and pooling without
/// ceil_mode compute it. May be < 1.
Count convOutputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                     std::int64_t dilation);
/// PyTorch's pooling_output_shape: with ceil_mode, rounds up but drops a last window that
/// would start in the right padding.
Count poolOutputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad, std::int64_t dilation,
                     bool ceilMode);
/// (in-1)*stride - 2*pad + dilation*(kernel-1) + outputPadding + 1.
Count convTransposeOutputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                              std::int64_t dilation, std::int64_t outputPadding);

// ---- merging ------------------------------------------------------------------------------

/// NumPy broadcasting of all inputs. The batch marker combines with itself or 1. On mismatch
/// fails with "shape.mismatch" naming both producers and the differing dimension.
bool broadcastInputs(const LayerContext &ctx, LayerResult &res, Shape &out);
/// All inputs have the same dtype ("dtype.invalid" otherwise).
bool requireSameDType(const LayerContext &ctx, LayerResult &res);

} // namespace diamond::spec::layers
