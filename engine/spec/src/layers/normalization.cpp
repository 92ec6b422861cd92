// BatchNorm1d/BatchNorm2d, LayerNorm, GroupNorm (family "Normalization") and Dropout (family
// "Regularization"). Channel counts are inferred from the input. FLOPs: normalisation layers
// count 5 per element (mean, variance, normalise, scale, shift); Dropout 1 per element.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

constexpr std::int64_t kNormFlopsPerElement = 5;

void batchNormRule(const LayerContext &ctx, LayerResult &res, bool twoD) {
    const bool rankOk =
        twoD ? requireRank(ctx, res, {{4, "[N,C,H,W]"}}) : requireRank(ctx, res, {{2, "[N,C]"}, {3, "[N,C,L]"}});
    if (!rankOk || !requireBatchFirst(ctx, res) || !requireConcrete(ctx, res, 1, "num_features") ||
        !requireFloating(ctx, res))
        return;
    const std::int64_t c = ctx.inputs[0].shape[1];
    const Count params = boolParam(ctx, "affine", true) ? Count(2) * c : Count(0);
    // running_mean + running_var + num_batches_tracked (counted as one element)
    const Count buffers = boolParam(ctx, "track_running_stats", true) ? Count(2) * c + 1 : Count(0);
    const Count flops = Count(kNormFlopsPerElement) * elements(ctx.inputs[0].shape);
    if (!setCounts(ctx, res, params, buffers, flops)) return;
    res.outputs = {ctx.inputs[0]};
}

void layerNormRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 2, "[N,*,features]") || !requireFloating(ctx, res)) return;
    const Shape &in = ctx.inputs[0].shape;
    Shape normalized = intList(ctx, "normalized_shape");
    if (normalized.empty()) normalized = {in.back()};
    bool matches = normalized.size() < in.size();
    for (std::size_t i = 0; matches && i < normalized.size(); ++i)
        matches = in[in.size() - normalized.size() + i] == normalized[i];
    if (!matches) {
        res.fail(ctx, "shape.mismatch",
                 who(ctx) + " normalises over " + formatShape(normalized) + ", but " + from(ctx) + " gives " +
                     formatShape(in) + ", whose trailing dimensions differ.",
                 "Set normalized_shape to the last dimension(s) of the input, or leave it out to use the last one.",
                 "normalized_shape");
        return;
    }
    if (!requireConcrete(ctx, res, in.size() - 1, "normalized dimension")) return;
    const Count params = boolParam(ctx, "elementwise_affine", true) ? Count(2) * product(normalized) : Count(0);
    const Count flops = Count(kNormFlopsPerElement) * elements(in);
    if (!setCounts(ctx, res, params, 0, flops)) return;
    res.outputs = {ctx.inputs[0]};
}

void groupNormRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 2, "[N,C,*]") || !requireBatchFirst(ctx, res) ||
        !requireConcrete(ctx, res, 1, "num_channels") || !requireFloating(ctx, res))
        return;
    const std::int64_t c = ctx.inputs[0].shape[1];
    const std::int64_t groups = intParam(ctx, "num_groups", 1);
    if (c % groups != 0) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + " has num_groups=" + std::to_string(groups) + ", but the " + std::to_string(c) +
                     " channels from " + from(ctx) + " " + formatShape(ctx.inputs[0].shape) +
                     " are not divisible by it.",
                 "Choose num_groups that divides " + std::to_string(c) + ".", "num_groups");
        return;
    }
    const Count params = boolParam(ctx, "affine", true) ? Count(2) * c : Count(0);
    const Count flops = Count(kNormFlopsPerElement) * elements(ctx.inputs[0].shape);
    if (!setCounts(ctx, res, params, 0, flops)) return;
    res.outputs = {ctx.inputs[0]};
}

void dropoutRule(const LayerContext &ctx, LayerResult &res) {
    if (!setCounts(ctx, res, 0, 0, elements(ctx.inputs[0].shape))) return;
    res.outputs = {ctx.inputs[0]};
}

std::vector<ParamSpec> batchNormParams() {
    return {
        P("eps", ParamKind::Float, 1e-5, "Added to the variance for numerical stability").min(0),
        P("momentum", ParamKind::Float, 0.1, "Weight of the current batch in the running statistics").min(0).max(1),
        P("affine", ParamKind::Bool, true, "Learn a per-channel scale and shift"),
        P("track_running_stats", ParamKind::Bool, true, "Keep running mean/variance for evaluation"),
    };
}

} // namespace

void registerNormalization(Registry &r) {
    r.add(makeType("BatchNorm1d", "Normalization", "Batch normalisation over [N,C] or [N,C,L].", batchNormParams(),
                   [](const LayerContext &ctx, LayerResult &res) { batchNormRule(ctx, res, false); }));
    r.add(makeType("BatchNorm2d", "Normalization", "Batch normalisation over [N,C,H,W].", batchNormParams(),
                   [](const LayerContext &ctx, LayerResult &res) { batchNormRule(ctx, res, true); }));
    r.add(makeType("LayerNorm", "Normalization", "Layer normalisation over the trailing dimension(s).",
                   {
                       P("normalized_shape", ParamKind::IntList, nullptr,
                         "Trailing dimensions to normalise; defaults to the last dimension")
                           .min(1)
                           .optional(),
                       P("eps", ParamKind::Float, 1e-5, "Added to the variance for numerical stability").min(0),
                       P("elementwise_affine", ParamKind::Bool, true, "Learn an elementwise scale and shift"),
                   },
                   layerNormRule));
    r.add(makeType(
        "GroupNorm", "Normalization", "Group normalisation over [N,C,*]; channels split into groups.",
        {
            P("num_groups", ParamKind::Int, nullptr, "Number of channel groups; must divide the channels").min(1),
            P("eps", ParamKind::Float, 1e-5, "Added to the variance for numerical stability").min(0),
            P("affine", ParamKind::Bool, true, "Learn a per-channel scale and shift"),
        },
        groupNormRule));
    r.add(makeType("Dropout", "Regularization", "Zeroes elements with probability p during training.",
                   {
                       P("p", ParamKind::Float, 0.5, "Probability of zeroing an element").min(0).max(1),
                   },
                   dropoutRule));
}

} // namespace diamond::spec::layers
