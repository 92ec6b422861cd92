// Elementwise activations and (Log)Softmax; output type = input type. FLOPs per element: 1 for
// ReLU, ReLU6, LeakyReLU, ELU, Softplus, Tanh and Sigmoid; 4 for SiLU and Mish (exp, add,
// divide, multiply); 8 for GELU (erf or tanh approximation); 5 for Softmax/LogSoftmax (max,
// subtract, exp, sum, divide/log).
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

ShapeRule elementwise(std::int64_t flopsPerElement, bool needsFloating) {
    return [flopsPerElement, needsFloating](const LayerContext &ctx, LayerResult &res) {
        if (needsFloating && !requireFloating(ctx, res)) return;
        if (!setCounts(ctx, res, 0, 0, Count(flopsPerElement) * elements(ctx.inputs[0].shape))) return;
        res.outputs = {ctx.inputs[0]};
    };
}

void softmaxRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireMinRank(ctx, res, 2, "[N,*]") || !requireFloating(ctx, res)) return;
    const Shape &in = ctx.inputs[0].shape;
    std::size_t axis = 0;
    if (!normalizeDim(ctx, res, intParam(ctx, "dim", -1), in.size(), "dim", false, axis)) return;
    if (in[axis] == kBatch) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": dim " + std::to_string(intParam(ctx, "dim", -1)) + " is the batch dimension of " +
                     formatShape(in) + " from " + from(ctx) + "; samples must stay independent.",
                 "Normalise over a feature dimension, e.g. dim=-1.", "dim");
        return;
    }
    if (!setCounts(ctx, res, 0, 0, Count(5) * elements(in))) return;
    res.outputs = {ctx.inputs[0]};
}

std::vector<ParamSpec> dimParam() {
    return {P("dim", ParamKind::Int, -1, "Dimension that sums to one; negative counts from the end")};
}

} // namespace

void registerActivation(Registry &r) {
    const char *fam = "Activation";
    r.add(makeType("ReLU", fam, "max(0, x), elementwise.", {}, elementwise(1, false)));
    r.add(makeType("ReLU6", fam, "min(max(0, x), 6), elementwise.", {}, elementwise(1, false)));
    r.add(makeType("LeakyReLU", fam, "x for x >= 0, negative_slope * x otherwise.",
                   {P("negative_slope", ParamKind::Float, 0.01, "Slope for negative inputs")}, elementwise(1, true)));
    r.add(makeType("GELU", fam, "Gaussian error linear unit, elementwise.",
                   {P("approximate", ParamKind::Enum, "none", "\"tanh\" uses the faster tanh approximation")
                        .choices({"none", "tanh"})},
                   elementwise(8, true)));
    r.add(makeType("ELU", fam, "x for x > 0, alpha * (exp(x) - 1) otherwise.",
                   {P("alpha", ParamKind::Float, 1.0, "Saturation value for negative inputs")}, elementwise(1, true)));
    r.add(makeType("Softplus", fam, "log(1 + exp(beta * x)) / beta, linear above the threshold.",
                   {P("beta", ParamKind::Float, 1.0, "Sharpness of the curve"),
                    P("threshold", ParamKind::Float, 20.0, "Above beta * x > threshold the function is linear")},
                   elementwise(1, true)));
    r.add(makeType("Mish", fam, "x * tanh(softplus(x)), elementwise.", {}, elementwise(4, true)));
    r.add(makeType("SiLU", fam, "x * sigmoid(x) (swish), elementwise.", {}, elementwise(4, true)));
    r.add(makeType("Tanh", fam, "Hyperbolic tangent, elementwise.", {}, elementwise(1, true)));
    r.add(makeType("Sigmoid", fam, "Logistic sigmoid, elementwise.", {}, elementwise(1, true)));
    r.add(makeType("Softmax", fam, "Softmax along one dimension.", dimParam(), softmaxRule));
    r.add(makeType("LogSoftmax", fam, "Log of the softmax along one dimension.", dimParam(), softmaxRule));
}

} // namespace diamond::spec::layers
