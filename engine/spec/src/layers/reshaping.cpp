// Flatten, Reshape, Permute and Upsample. The batch dimension (position 0) is never merged,
// reshaped or moved. FLOPs: 0 for the pure reshapes; Upsample counts per output element 1 for
// nearest, 2 * 2^k for the k-D (bi/tri)linear modes and 2 * 16 for bicubic.
#include "layers/layer_util.h"

#include <cmath>

namespace diamond::spec::layers {

namespace {

void flattenRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 2, "[N,*]") || !requireBatchFirst(ctx, res)) return;
    const Shape &in = ctx.inputs[0].shape;
    std::size_t start = 0, end = 0;
    if (!normalizeDim(ctx, res, intParam(ctx, "start_dim", 1), in.size(), "start_dim", false, start) ||
        !normalizeDim(ctx, res, intParam(ctx, "end_dim", -1), in.size(), "end_dim", false, end))
        return;
    if (start > end) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": start_dim " + std::to_string(intParam(ctx, "start_dim", 1)) + " comes after end_dim " +
                     std::to_string(intParam(ctx, "end_dim", -1)) + " for " + formatShape(in) + ".",
                 "Use start_dim <= end_dim.", "start_dim");
        return;
    }
    std::int64_t merged = 0;
    if (!dimValue(ctx, res, product(in, start, end + 1), "flattened dimension", merged)) return;
    Shape out(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(start));
    out.push_back(merged);
    out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(end + 1), in.end());
    res.outputs = {TensorType{std::move(out), ctx.inputs[0].dtype, {}}};
}

void reshapeRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 1, "[N,*]") || !requireBatchFirst(ctx, res)) return;
    const Shape &in = ctx.inputs[0].shape;
    const Shape target = intList(ctx, "shape");
    int inferred = -1;
    Count known = 1;
    for (std::size_t i = 0; i < target.size(); ++i) {
        if (target[i] == -1 && inferred < 0) {
            inferred = static_cast<int>(i);
        } else if (target[i] < 1) {
            res.fail(ctx, "param.invalid",
                     who(ctx) + ": the target shape " + listText(target) +
                         " may contain one -1 and otherwise sizes of at least 1.",
                     "Give the shape per sample, without the batch dimension, e.g. [16, 8].", "shape");
            return;
        } else {
            known *= target[i];
        }
    }
    const Count total = product(in, 1);
    if (!known.ok() || !total.ok()) {
        res.fail(ctx, "shape.overflow",
                 who(ctx) + ": the element count of " + (total.ok() ? listText(target) : formatShape(in)) +
                     " overflows a 64-bit integer.",
                 "Check the shapes for a typo (a dimension far too large).", "shape");
        return;
    }
    const bool fits =
        inferred >= 0 ? known.value() != 0 && total.value() % known.value() == 0 : known.value() == total.value();
    if (!fits) {
        res.fail(ctx, "shape.mismatch",
                 who(ctx) + " cannot reshape " + formatShape(in) + " from " + from(ctx) + " (" +
                     std::to_string(total.value()) + " elements per sample) into " + listText(target) + " (" +
                     (inferred >= 0 ? "a multiple of " : "") + std::to_string(known.value()) + " elements).",
                 "The batch dimension stays first; give the per-sample shape, whose sizes must multiply to " +
                     std::to_string(total.value()) + ".",
                 "shape");
        return;
    }
    Shape out = {in[0]};
    out.insert(out.end(), target.begin(), target.end());
    if (inferred >= 0) out[static_cast<std::size_t>(inferred) + 1] = total.value() / known.value();
    res.outputs = {TensorType{std::move(out), ctx.inputs[0].dtype, {}}};
}

void permuteRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireBatchFirst(ctx, res)) return;
    const TensorType &in = ctx.inputs[0];
    const auto dims = intList(ctx, "dims");
    const auto rank = static_cast<std::int64_t>(in.shape.size());
    std::vector<bool> seen(in.shape.size(), false);
    std::vector<std::size_t> order;
    bool valid = static_cast<std::int64_t>(dims.size()) == rank;
    for (std::size_t i = 0; valid && i < dims.size(); ++i) {
        const std::int64_t d = dims[i] < 0 ? dims[i] + rank : dims[i];
        valid = d >= 0 && d < rank && !seen[static_cast<std::size_t>(d)];
        if (valid) {
            seen[static_cast<std::size_t>(d)] = true;
            order.push_back(static_cast<std::size_t>(d));
        }
    }
    if (!valid) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": dims " + listText(dims) + " is not a permutation of the " + std::to_string(rank) +
                     " dimensions of " + formatShape(in.shape) + " from " + from(ctx) + ".",
                 "List every dimension index 0.." + std::to_string(rank - 1) + " exactly once, batch (0) first.",
                 "dims");
        return;
    }
    if (order[0] != 0) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": dims " + listText(dims) + " moves the batch dimension away from position 0.",
                 "Keep 0 first and permute only the per-sample dimensions.", "dims");
        return;
    }
    TensorType out;
    out.dtype = in.dtype;
    for (std::size_t d : order) {
        out.shape.push_back(in.shape[d]);
        if (in.axes.size() == in.shape.size()) out.axes.push_back(in.axes[d]);
    }
    res.outputs = {std::move(out)};
}

void upsampleRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireRank(ctx, res, {{3, "[N,C,L]"}, {4, "[N,C,H,W]"}, {5, "[N,C,D,H,W]"}}) ||
        !requireBatchFirst(ctx, res) || !requireFloating(ctx, res))
        return;
    const Shape &in = ctx.inputs[0].shape;
    const std::size_t spatial = in.size() - 2;
    const std::string mode = stringParam(ctx, "mode", "nearest");
    const std::size_t modeRank = mode == "linear"                          ? 3
                                 : mode == "bilinear" || mode == "bicubic" ? 4
                                 : mode == "trilinear"                     ? 5
                                                                           : in.size();
    if (modeRank != in.size()) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": mode \"" + mode + "\" needs a " + std::to_string(modeRank) + "-D input, but " +
                     from(ctx) + " gives " + formatShape(in) + ".",
                 std::string("Use ") +
                     (spatial == 1   ? "\"linear\""
                      : spatial == 2 ? "\"bilinear\" or \"bicubic\""
                                     : "\"trilinear\"") +
                     " or \"nearest\" for this input.",
                 "mode");
        return;
    }
    if (mode == "nearest" && !isNull(ctx, "align_corners")) {
        res.fail(ctx, "param.invalid", who(ctx) + ": align_corners only applies to the interpolating modes.",
                 "Remove align_corners, or use mode linear, bilinear, bicubic or trilinear.", "align_corners");
        return;
    }
    const bool hasSize = !isNull(ctx, "size");
    const bool hasScale = !isNull(ctx, "scale_factor");
    if (hasSize == hasScale) {
        res.fail(ctx, "param.invalid", who(ctx) + " needs exactly one of size and scale_factor.",
                 "Give either the output size or a scale factor such as 2.", hasSize ? "scale_factor" : "size");
        return;
    }
    Shape out = {in[0], in[1]};
    if (hasSize) {
        const auto size = intList(ctx, "size", spatial);
        if (size.size() != spatial) {
            res.fail(ctx, "param.invalid",
                     who(ctx) + ": size needs " + std::to_string(spatial) + " value(s) for the input " +
                         formatShape(in) + ".",
                     "Give a single number or one per spatial dimension.", "size");
            return;
        }
        out.insert(out.end(), size.begin(), size.end());
    } else {
        const double scale = floatParam(ctx, "scale_factor", 1.0);
        for (std::size_t i = 0; i < spatial; ++i) {
            const double d = std::floor(static_cast<double>(in[i + 2]) * scale);
            if (d >= 9.2e18) {
                std::int64_t unused = 0;
                dimValue(ctx, res, Count::overflowed(), spatialName(i, spatial), unused);
                return;
            }
            if (d < 1) {
                res.fail(ctx, "shape.invalid",
                         who(ctx) + ": scale_factor " + num(scale) + " shrinks the " + spatialName(i, spatial) + " " +
                             std::to_string(in[i + 2]) + " of " + from(ctx) + " " + formatShape(in) + " to 0.",
                         "Use a larger scale_factor.", "scale_factor");
                return;
            }
            out.push_back(static_cast<std::int64_t>(d));
        }
    }
    const std::int64_t perOutput = mode == "nearest" ? 1 : mode == "bicubic" ? 32 : 2 << spatial;
    if (!setCounts(ctx, res, 0, 0, Count(perOutput) * elements(out))) return;
    res.outputs = {TensorType{std::move(out), ctx.inputs[0].dtype, {}}};
}

} // namespace

void registerReshaping(Registry &r) {
    const char *fam = "Reshaping";
    r.add(makeType("Flatten", fam, "Merges the dimensions start_dim..end_dim into one.",
                   {
                       P("start_dim", ParamKind::Int, 1, "First dimension to flatten (not the batch, 0)"),
                       P("end_dim", ParamKind::Int, -1, "Last dimension to flatten; negative counts from the end"),
                   },
                   flattenRule));
    r.add(makeType("Reshape", fam, "Reshapes each sample; the batch dimension stays first.",
                   {
                       P("shape", ParamKind::IntList, nullptr,
                         "Per-sample target shape without the batch; one -1 "
                         "is inferred")
                           .min(-1),
                   },
                   reshapeRule));
    r.add(makeType("Permute", fam, "Reorders the dimensions; the batch dimension stays first.",
                   {
                       P("dims", ParamKind::IntList, nullptr, "New order of all dimensions, including batch 0 first"),
                   },
                   permuteRule));
    r.add(makeType(
        "Upsample", fam, "Resizes the spatial dimensions by a size or a scale factor.",
        {
            P("size", ParamKind::IntOrList, nullptr, "Output spatial size (one value or one per dimension)")
                .min(1)
                .optional(),
            P("scale_factor", ParamKind::Float, nullptr, "Multiplier for the spatial size").min(0).optional(),
            P("mode", ParamKind::Enum, "nearest", "Interpolation; linear 1-D, bi* 2-D, trilinear 3-D")
                .choices({"nearest", "linear", "bilinear", "bicubic", "trilinear"}),
            P("align_corners", ParamKind::Bool, nullptr, "Align corner pixels (interpolating modes only)").optional(),
        },
        upsampleRule));
}

} // namespace diamond::spec::layers
