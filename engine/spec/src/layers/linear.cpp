// Linear: y = x W^T + b over the last dimension; in_features is inferred from the input.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

void linearRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 2, "[N,*,in_features]") || !requireFloating(ctx, res)) return;
    const Shape &in = ctx.inputs[0].shape;
    if (!requireConcrete(ctx, res, in.size() - 1, "in_features")) return;
    const std::int64_t inFeatures = in.back();
    const std::int64_t outFeatures = intParam(ctx, "out_features", 1);
    const bool bias = boolParam(ctx, "bias", true);

    const Count rows = product(in, 0, in.size() - 1); // rows per sample
    const Count params = Count(inFeatures) * outFeatures + (bias ? outFeatures : 0);
    const Count flops = rows * (Count(2) * inFeatures * outFeatures + (bias ? outFeatures : 0));
    if (!setCounts(ctx, res, params, 0, flops)) return;

    TensorType out;
    out.shape = in;
    out.shape.back() = outFeatures;
    out.dtype = ctx.inputs[0].dtype;
    res.outputs = {std::move(out)};
}

} // namespace

void registerLinear(Registry &r) {
    r.add(makeType("Linear", "Linear", "Fully connected layer over the last dimension: y = x W^T + b.",
                   {
                       P("out_features", ParamKind::Int, nullptr, "Size of each output sample").min(1),
                       P("bias", ParamKind::Bool, true, "Learn an additive bias"),
                   },
                   linearRule));
}

} // namespace diamond::spec::layers
