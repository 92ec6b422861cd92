#include "layers/layer_util.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>

namespace diamond::spec::layers {

using nlohmann::json;

// ---- declaration --------------------------------------------------------------------------

P::P(std::string name, ParamKind kind, json defaultValue, std::string doc) {
    spec_.name = std::move(name);
    spec_.kind = kind;
    spec_.defaultValue = std::move(defaultValue);
    spec_.doc = std::move(doc);
}

P &P::min(double v) {
    spec_.minimum = v;
    return *this;
}

P &P::max(double v) {
    spec_.maximum = v;
    return *this;
}

P &P::len(int n) {
    spec_.listLength = n;
    return *this;
}

P &P::choices(std::vector<std::string> values) {
    spec_.choices = std::move(values);
    return *this;
}

P &P::optional() {
    spec_.optional = true;
    return *this;
}

LayerType makeType(std::string name, std::string family, std::string doc, std::vector<ParamSpec> params, ShapeRule rule,
                   int minInputs, int maxInputs, std::vector<std::string> outputPorts) {
    LayerType t;
    t.name = std::move(name);
    t.family = std::move(family);
    t.doc = std::move(doc);
    t.params = std::move(params);
    t.rule = std::move(rule);
    t.minInputs = minInputs;
    t.maxInputs = maxInputs;
    t.outputPorts = std::move(outputPorts);
    return t;
}

// ---- reading resolved parameters ----------------------------------------------------------

namespace {
const json *lookup(const LayerContext &ctx, const char *name) {
    if (!ctx.params.is_object()) return nullptr;
    auto it = ctx.params.find(name);
    if (it == ctx.params.end() || it->is_null()) return nullptr;
    return &*it;
}
} // namespace

std::int64_t intParam(const LayerContext &ctx, const char *name, std::int64_t fallback) {
    const json *v = lookup(ctx, name);
    if (v && v->is_number_integer()) return v->get<std::int64_t>();
    if (v && v->is_array() && v->size() == 1 && (*v)[0].is_number_integer()) return (*v)[0].get<std::int64_t>();
    return fallback;
}

double floatParam(const LayerContext &ctx, const char *name, double fallback) {
    const json *v = lookup(ctx, name);
    return v && v->is_number() ? v->get<double>() : fallback;
}

bool boolParam(const LayerContext &ctx, const char *name, bool fallback) {
    const json *v = lookup(ctx, name);
    return v && v->is_boolean() ? v->get<bool>() : fallback;
}

std::string stringParam(const LayerContext &ctx, const char *name, const std::string &fallback) {
    const json *v = lookup(ctx, name);
    return v && v->is_string() ? v->get<std::string>() : fallback;
}

bool isNull(const LayerContext &ctx, const char *name) { return lookup(ctx, name) == nullptr; }

std::vector<std::int64_t> intList(const LayerContext &ctx, const char *name, std::size_t n) {
    std::vector<std::int64_t> out;
    const json *v = lookup(ctx, name);
    if (!v) return out;
    if (v->is_number_integer()) {
        out.push_back(v->get<std::int64_t>());
    } else if (v->is_array()) {
        for (const auto &e : *v) {
            if (!e.is_number_integer()) return {};
            out.push_back(e.get<std::int64_t>());
        }
    }
    if (n > 0 && out.size() == 1) out.assign(n, out[0]);
    return out;
}

// ---- checked arithmetic -------------------------------------------------------------------

Count Count::overflowed() {
    Count c;
    c.overflow_ = true;
    return c;
}

Count operator+(Count a, Count b) {
    std::int64_t r = 0;
    if (!a.ok() || !b.ok() || !checkedAdd(a.value_, b.value_, r)) return Count::overflowed();
    return Count(r);
}

Count operator-(Count a, Count b) {
    if (!a.ok() || !b.ok() || b.value_ == std::numeric_limits<std::int64_t>::min()) return Count::overflowed();
    return a + Count(-b.value_);
}

Count operator*(Count a, Count b) {
    std::int64_t r = 0;
    if (!a.ok() || !b.ok() || !checkedMul(a.value_, b.value_, r)) return Count::overflowed();
    return Count(r);
}

Count Count::floorDiv(Count a, std::int64_t b) {
    if (!a.ok() || b <= 0) return overflowed();
    std::int64_t q = a.value_ / b;
    if (a.value_ % b != 0 && a.value_ < 0) --q;
    return Count(q);
}

Count elements(const Shape &shape) { return product(shape); }

Count product(const Shape &dims, std::size_t from, std::size_t to) {
    Count n = 1;
    for (std::size_t i = from; i < std::min(to, dims.size()); ++i) {
        if (dims[i] != kBatch) n *= dims[i];
    }
    return n;
}

bool setCounts(const LayerContext &ctx, LayerResult &res, Count params, Count buffers, Count flops) {
    const char *what = !params.ok()    ? "parameter count"
                       : !buffers.ok() ? "buffer count"
                       : !flops.ok()   ? "FLOP count"
                                       : nullptr;
    if (what) {
        std::string shapes;
        for (std::size_t i = 0; i < ctx.inputs.size(); ++i)
            shapes += (i ? ", " : "") + formatShape(ctx.inputs[i].shape);
        return res.fail(ctx, "shape.overflow",
                        who(ctx) + ": the " + what + " overflows a 64-bit integer" +
                            (shapes.empty() ? "." : " for input " + shapes + "."),
                        "Check the input shape and the layer's sizes for a typo (a dimension far too large).");
    }
    res.params = params.value();
    res.buffers = buffers.value();
    res.flops = flops.value();
    return true;
}

bool dimValue(const LayerContext &ctx, LayerResult &res, Count dim, const std::string &what, std::int64_t &out) {
    if (!dim.ok()) {
        return res.fail(ctx, "shape.overflow", who(ctx) + ": the output " + what + " overflows a 64-bit integer.",
                        "Check the input shape and the layer's sizes for a typo (a dimension far too large).");
    }
    out = dim.value();
    return true;
}

// ---- messages -----------------------------------------------------------------------------

std::string quoted(const std::string &s) { return "'" + s + "'"; }

std::string who(const LayerContext &ctx) { return ctx.type + " " + quoted(ctx.nodeId); }

std::string from(const LayerContext &ctx, std::size_t input) {
    if (input < ctx.inputNames.size() && !ctx.inputNames[input].empty()) return quoted(ctx.inputNames[input]);
    return "input " + std::to_string(input + 1);
}

std::string listText(const std::vector<std::int64_t> &values) {
    std::string s = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? "," : "") + std::to_string(values[i]);
    return s + "]";
}

std::string num(double v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

// ---- input checks -------------------------------------------------------------------------

namespace {
std::string lower(std::string s) {
    for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string layouts(std::initializer_list<RankForm> forms) {
    std::string s;
    std::size_t i = 0;
    for (const auto &f : forms) {
        if (i) s += i + 1 == forms.size() ? " or " : ", ";
        s += f.layout;
        ++i;
    }
    return s;
}

bool rankFail(const LayerContext &ctx, LayerResult &res, const std::string &expected, const std::string &layoutText,
              int minRank, std::size_t input) {
    const Shape &shape = ctx.inputs[input].shape;
    const int rank = static_cast<int>(shape.size());
    const std::string producer = input < ctx.inputNames.size() ? ctx.inputNames[input] : std::string();
    std::string hint;
    if (lower(producer).find("flatten") != std::string::npos) {
        hint = "Move " + quoted(producer) + " after " + quoted(ctx.nodeId) + "? " + ctx.type + " needs " + layoutText +
               ".";
    } else if (rank < minRank) {
        hint = ctx.type + " needs " + layoutText + "; remove or move the layer that flattened it, or add a Reshape.";
    } else {
        hint = ctx.type + " needs " + layoutText + "; add a Flatten or Reshape before it.";
    }
    return res.fail(ctx, "shape.rank",
                    who(ctx) + " expects " + expected + " but " + from(ctx, input) + " gives " + formatShape(shape) +
                        ".",
                    hint, ctx.inputs.size() > 1 ? "input " + std::to_string(input + 1) : std::string());
}
} // namespace

bool requireRank(const LayerContext &ctx, LayerResult &res, std::initializer_list<RankForm> forms, std::size_t input) {
    if (input >= ctx.inputs.size()) return res.fail(ctx, "shape.rank", who(ctx) + " is missing an input.");
    const int rank = static_cast<int>(ctx.inputs[input].shape.size());
    int minRank = std::numeric_limits<int>::max();
    std::string expected;
    std::size_t i = 0;
    for (const auto &f : forms) {
        if (f.rank == rank) return true;
        minRank = std::min(minRank, f.rank);
        if (i) expected += i + 1 == forms.size() ? " or " : ", ";
        expected += "a " + std::to_string(f.rank) + "-D input " + f.layout;
        ++i;
    }
    return rankFail(ctx, res, expected, layouts(forms), minRank, input);
}

bool requireMinRank(const LayerContext &ctx, LayerResult &res, int minRank, const char *layout, std::size_t input) {
    if (input >= ctx.inputs.size()) return res.fail(ctx, "shape.rank", who(ctx) + " is missing an input.");
    if (static_cast<int>(ctx.inputs[input].shape.size()) >= minRank) return true;
    return rankFail(ctx, res, "an input with at least " + std::to_string(minRank) + " dimensions " + layout, layout,
                    minRank, input);
}

bool requireBatchFirst(const LayerContext &ctx, LayerResult &res, std::size_t input) {
    const Shape &shape = ctx.inputs[input].shape;
    for (std::size_t i = 1; i < shape.size(); ++i) {
        if (shape[i] == kBatch) {
            return res.fail(ctx, "shape.invalid",
                            who(ctx) + " expects the batch dimension first, but " + from(ctx, input) + " gives " +
                                formatShape(shape) + " with the batch at position " + std::to_string(i) + ".",
                            "Add a Permute that moves the batch dimension to position 0.");
        }
    }
    return true;
}

bool requireConcrete(const LayerContext &ctx, LayerResult &res, std::size_t axis, const std::string &what,
                     std::size_t input) {
    const Shape &shape = ctx.inputs[input].shape;
    if (axis < shape.size() && shape[axis] != kBatch) return true;
    return res.fail(ctx, "shape.invalid",
                    who(ctx) + " reads its " + what + " from dimension " + std::to_string(axis) + " of " +
                        from(ctx, input) + ", but " + formatShape(shape) + " has the batch dimension there.",
                    "Move the batch dimension to position 0 (Permute) before " + quoted(ctx.nodeId) + ".");
}

bool requireFloating(const LayerContext &ctx, LayerResult &res, std::size_t input) {
    const DType dt = ctx.inputs[input].dtype;
    if (isFloating(dt)) return true;
    return res.fail(ctx, "dtype.invalid",
                    who(ctx) + " needs floating-point input, but " + from(ctx, input) + " gives " + dtypeName(dt) + ".",
                    dt == DType::Int64 || dt == DType::Int32
                        ? "Integer token ids usually go through an Embedding first; otherwise declare the input as "
                          "float32."
                        : "Declare the input as float32.");
}

bool normalizeDim(const LayerContext &ctx, LayerResult &res, std::int64_t dim, std::size_t rank, const char *field,
                  bool allowBatch, std::size_t &out) {
    const auto r = static_cast<std::int64_t>(rank);
    if (dim < -r || dim >= r) {
        return res.fail(ctx, "param.invalid",
                        who(ctx) + ": " + field + "=" + std::to_string(dim) + " is out of range for the " +
                            std::to_string(rank) + "-D input " + formatShape(ctx.inputs[0].shape) + ".",
                        "Use a value from " + std::to_string(allowBatch ? -r : -r + 1) + " to " +
                            std::to_string(r - 1) + " (negative values count from the end).",
                        field);
    }
    out = static_cast<std::size_t>(dim < 0 ? dim + r : dim);
    if (!allowBatch && out == 0) {
        return res.fail(ctx, "param.invalid",
                        who(ctx) + ": " + field + "=" + std::to_string(dim) + " is the batch dimension of " +
                            formatShape(ctx.inputs[0].shape) + "; samples must stay independent.",
                        "Use a dimension from 1 to " + std::to_string(r - 1) + ", or -1 for the last one.", field);
    }
    return true;
}

// ---- convolution and pooling arithmetic ---------------------------------------------------

std::string spatialName(std::size_t i, std::size_t count) {
    static const char *const names[] = {"depth", "height", "width"};
    if (count == 1) return "length";
    if (count <= 3) return names[3 - count + i];
    return "spatial dimension " + std::to_string(i + 1);
}

Count convOutputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                     std::int64_t dilation) {
    const Count span = Count(dilation) * (Count(kernel) - 1) + 1;
    return Count::floorDiv(Count(in) + Count(2) * pad - span, stride) + 1;
}

Count poolOutputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad, std::int64_t dilation,
                     bool ceilMode) {
    const Count span = Count(dilation) * (Count(kernel) - 1) + 1;
    Count out = Count::floorDiv(Count(in) + Count(2) * pad - span + (ceilMode ? stride - 1 : 0), stride) + 1;
    if (ceilMode && out.ok()) {
        const Count lastStart = (out - 1) * stride;
        const Count limit = Count(in) + pad;
        if (lastStart.ok() && limit.ok() && lastStart.value() >= limit.value()) out = out - 1;
    }
    return out;
}

Count convTransposeOutputSize(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                              std::int64_t dilation, std::int64_t outputPadding) {
    return (Count(in) - 1) * stride - Count(2) * pad + Count(dilation) * (Count(kernel) - 1) + outputPadding + 1;
}

// ---- merging ------------------------------------------------------------------------------

bool broadcastInputs(const LayerContext &ctx, LayerResult &res, Shape &out) {
    out = ctx.inputs.empty() ? Shape{} : ctx.inputs[0].shape;
    std::vector<std::size_t> owner(out.size(), 0); // input that decided each axis (for messages)
    for (std::size_t k = 1; k < ctx.inputs.size(); ++k) {
        const Shape &s = ctx.inputs[k].shape;
        const std::size_t rank = std::max(out.size(), s.size());
        Shape merged(rank, 1);
        std::vector<std::size_t> mergedOwner(rank, 0);
        for (std::size_t i = 0; i < rank; ++i) {
            const std::size_t fromEnd = rank - 1 - i;
            const bool hasA = fromEnd < out.size();
            const bool hasB = fromEnd < s.size();
            const std::int64_t a = hasA ? out[out.size() - 1 - fromEnd] : 1;
            const std::int64_t b = hasB ? s[s.size() - 1 - fromEnd] : 1;
            const std::size_t aOwner = hasA ? owner[out.size() - 1 - fromEnd] : 0;
            if (a == b || b == 1) {
                merged[i] = a;
                mergedOwner[i] = aOwner;
            } else if (a == 1) {
                merged[i] = b;
                mergedOwner[i] = k;
            } else {
                const auto text = [](std::int64_t d) { return d == kBatch ? std::string("N") : std::to_string(d); };
                return res.fail(ctx, "shape.mismatch",
                                who(ctx) + " cannot combine " + formatShape(ctx.inputs[aOwner].shape) + " from " +
                                    from(ctx, aOwner) + " with " + formatShape(s) + " from " + from(ctx, k) +
                                    ": dimension " + std::to_string(i) + " differs (" + text(a) + " vs " + text(b) +
                                    ").",
                                "Make the shapes match (for example a 1x1 Conv2d or a Linear to adapt the channels), "
                                "or use Concat to stack them instead.",
                                "input " + std::to_string(k + 1));
            }
        }
        out = std::move(merged);
        owner = std::move(mergedOwner);
    }
    return true;
}

bool requireSameDType(const LayerContext &ctx, LayerResult &res) {
    for (std::size_t k = 1; k < ctx.inputs.size(); ++k) {
        if (ctx.inputs[k].dtype != ctx.inputs[0].dtype) {
            return res.fail(ctx, "dtype.invalid",
                            who(ctx) + " cannot combine " + dtypeName(ctx.inputs[0].dtype) + " from " + from(ctx, 0) +
                                " with " + dtypeName(ctx.inputs[k].dtype) + " from " + from(ctx, k) + ".",
                            "Give all inputs the same dtype.", "input " + std::to_string(k + 1));
        }
    }
    return true;
}

} // namespace diamond::spec::layers
