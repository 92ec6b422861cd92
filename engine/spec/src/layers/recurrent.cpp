// LSTM and GRU, batch-first: input [N,L,H_in]; ports "out" [N,L,D*H], "h_n" [D*num_layers,N,H]
// (batch at position 1, as PyTorch returns it) and, for LSTM, "c_n" of the same shape.
// Parameters follow PyTorch: per layer and direction W_ih [G*H,in], W_hh [G*H,H], and with bias
// b_ih and b_hh [G*H] each (G = 4 for LSTM, 3 for GRU). FLOPs: 2*G*H*(in+H) per timestep,
// layer and direction (gate matrix products only).
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

void recurrentRule(const LayerContext &ctx, LayerResult &res, std::int64_t gates, bool lstm) {
    if (!requireRank(ctx, res, {{3, "[N,L,H_in]"}}) || !requireBatchFirst(ctx, res) ||
        !requireConcrete(ctx, res, 1, "sequence length") || !requireConcrete(ctx, res, 2, "input_size") ||
        !requireFloating(ctx, res))
        return;
    const Shape &in = ctx.inputs[0].shape;
    const std::int64_t hidden = intParam(ctx, "hidden_size", 1);
    const std::int64_t numLayers = intParam(ctx, "num_layers", 1);
    const bool bias = boolParam(ctx, "bias", true);
    const std::int64_t dirs = boolParam(ctx, "bidirectional", false) ? 2 : 1;

    // Layer 0 reads H_in features; layers 1.. read the D*H outputs of the layer below.
    const Count gateRows = Count(gates) * hidden;
    const auto perDirection = [&](Count inSize) {
        return gateRows * inSize + gateRows * hidden + (bias ? Count(2) * gateRows : Count(0));
    };
    const auto flopsPerDirection = [&](Count inSize) { return Count(2) * gateRows * (inSize + hidden) * in[1]; };
    const Count upper = Count(dirs) * hidden;
    const Count params = Count(dirs) * (perDirection(in[2]) + Count(numLayers - 1) * perDirection(upper));
    const Count flops = Count(dirs) * (flopsPerDirection(in[2]) + Count(numLayers - 1) * flopsPerDirection(upper));
    if (!setCounts(ctx, res, params, 0, flops)) return;

    const double dropout = floatParam(ctx, "dropout", 0.0);
    if (dropout > 0 && numLayers == 1) {
        Diagnostic d;
        d.severity = Severity::Warning;
        d.code = "param.unused";
        d.node = ctx.nodeId;
        d.field = "dropout";
        d.message = who(ctx) + ": dropout " + num(dropout) +
                    " has no effect with num_layers=1; it only acts "
                    "between stacked layers.";
        d.hint = "Add a Dropout layer after it, or set num_layers > 1.";
        res.diagnostics.push_back(std::move(d));
    }
    std::int64_t outFeatures = 0, stateRows = 0;
    if (!dimValue(ctx, res, Count(dirs) * hidden, "feature size", outFeatures) ||
        !dimValue(ctx, res, Count(dirs) * numLayers, "state size", stateRows))
        return;
    const DType dt = ctx.inputs[0].dtype;
    res.outputs = {TensorType{{in[0], in[1], outFeatures}, dt, {}}, TensorType{{stateRows, in[0], hidden}, dt, {}}};
    if (lstm) res.outputs.push_back(res.outputs.back());
}

std::vector<ParamSpec> recurrentParams() {
    return {
        P("hidden_size", ParamKind::Int, nullptr, "Number of features in the hidden state").min(1),
        P("num_layers", ParamKind::Int, 1, "Number of stacked recurrent layers").min(1),
        P("bias", ParamKind::Bool, true, "Learn the biases b_ih and b_hh"),
        P("dropout", ParamKind::Float, 0.0, "Dropout between stacked layers (not after the last)").min(0).max(1),
        P("bidirectional", ParamKind::Bool, false, "Also run the sequence backwards; doubles the output features"),
    };
}

} // namespace

void registerRecurrent(Registry &r) {
    r.add(makeType("LSTM", "Recurrent", "Long short-term memory over [N,L,H_in] (batch first).", recurrentParams(),
                   [](const LayerContext &ctx, LayerResult &res) { recurrentRule(ctx, res, 4, true); }, 1, 1,
                   {"out", "h_n", "c_n"}));
    r.add(makeType("GRU", "Recurrent", "Gated recurrent unit over [N,L,H_in] (batch first).", recurrentParams(),
                   [](const LayerContext &ctx, LayerResult &res) { recurrentRule(ctx, res, 3, false); }, 1, 1,
                   {"out", "h_n"}));
}

} // namespace diamond::spec::layers
