// Add and Multiply (NumPy broadcasting), Concat and Identity. All inputs must share a dtype.
// FLOPs: Add/Multiply count 1 per output element for each input after the first.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

void elementwiseRule(const LayerContext &ctx, LayerResult &res) {
    Shape out;
    if (!requireSameDType(ctx, res) || !broadcastInputs(ctx, res, out)) return;
    const Count ops = ctx.inputs.empty() ? Count(0) : Count(static_cast<std::int64_t>(ctx.inputs.size()) - 1);
    if (!setCounts(ctx, res, 0, 0, ops * elements(out))) return;
    TensorType t{std::move(out), ctx.inputs[0].dtype, {}};
    if (t.shape == ctx.inputs[0].shape) t.axes = ctx.inputs[0].axes;
    res.outputs = {std::move(t)};
}

void concatRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 2, "[N,*]") || !requireSameDType(ctx, res)) return;
    const Shape &first = ctx.inputs[0].shape;
    std::size_t axis = 0;
    if (!normalizeDim(ctx, res, intParam(ctx, "dim", 1), first.size(), "dim", false, axis)) return;
    Count total = 0;
    for (std::size_t k = 0; k < ctx.inputs.size(); ++k) {
        const Shape &s = ctx.inputs[k].shape;
        const std::string field = "input " + std::to_string(k + 1);
        if (s.size() != first.size()) {
            res.fail(ctx, "shape.rank",
                     who(ctx) + " cannot concatenate " + formatShape(first) + " from " + from(ctx, 0) + " with " +
                         formatShape(s) + " from " + from(ctx, k) + ": their ranks differ (" +
                         std::to_string(first.size()) + " vs " + std::to_string(s.size()) + ").",
                     "Concat needs inputs of the same rank; Flatten or Reshape one of them first.", field);
            return;
        }
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (i == axis || s[i] == first[i]) continue;
            const auto text = [](std::int64_t d) { return d == kBatch ? std::string("N") : std::to_string(d); };
            res.fail(ctx, "shape.mismatch",
                     who(ctx) + " cannot concatenate " + formatShape(first) + " from " + from(ctx, 0) + " with " +
                         formatShape(s) + " from " + from(ctx, k) + " along dimension " + std::to_string(axis) +
                         ": dimension " + std::to_string(i) + " differs (" + text(first[i]) + " vs " + text(s[i]) +
                         ").",
                     "All dimensions except dim=" + std::to_string(axis) +
                         " must match; resize one input (e.g. pooling or Upsample) or concatenate along another "
                         "dimension.",
                     field);
            return;
        }
        if (s[axis] == kBatch) {
            requireConcrete(ctx, res, axis, "concatenated dimension", k);
            return;
        }
        total += s[axis];
    }
    TensorType out{first, ctx.inputs[0].dtype, {}};
    if (!dimValue(ctx, res, total, "concatenated dimension", out.shape[axis])) return;
    res.outputs = {std::move(out)};
}

void identityRule(const LayerContext &ctx, LayerResult &res) { res.outputs = {ctx.inputs[0]}; }

} // namespace

void registerMerge(Registry &r) {
    const char *fam = "Merge";
    r.add(makeType("Add", fam, "Elementwise sum of all inputs (NumPy broadcasting), e.g. residual connections.", {},
                   elementwiseRule, 2, -1));
    r.add(makeType("Multiply", fam, "Elementwise product of all inputs (NumPy broadcasting), e.g. gating.", {},
                   elementwiseRule, 2, -1));
    r.add(makeType("Concat", fam, "Joins the inputs along one dimension; all other dimensions must match.",
                   {P("dim", ParamKind::Int, 1, "Dimension to join along (not the batch, 0); negative from the end")},
                   concatRule, 2, -1));
    r.add(makeType("Identity", fam, "Passes its input through unchanged.", {}, identityRule));
}

} // namespace diamond::spec::layers
