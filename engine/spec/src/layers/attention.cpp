// MultiheadAttention and TransformerEncoderLayer, batch-first ([N,L,E]); embed_dim / d_model
// come from the query's last dimension.
// FLOPs (per sample, L = query length, S = key length): Q/K/V/out projections 2*E*E*(2L+2S)
// plus E*(2L+2S) bias adds; scores QK^T 2*L*S*E; softmax 5 per score and head; weighted sum
// 2*L*S*E. TransformerEncoderLayer adds the feed-forward block (two Linear layers, activation
// 1 per element for relu and 8 for gelu), 2 residual adds per element and 2 LayerNorms at 5 per
// element.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

Count attentionFlops(std::int64_t embed, std::int64_t heads, std::int64_t lq, std::int64_t lk, bool bias) {
    const Count rows = Count(2) * lq + Count(2) * lk; // rows through the Q, K, V and output projections
    const Count projections = Count(2) * embed * embed * rows + (bias ? Count(embed) * rows : Count(0));
    const Count scores = Count(lq) * lk;
    return projections + Count(4) * scores * embed + Count(5) * heads * scores;
}

bool checkHeads(const LayerContext &ctx, LayerResult &res, std::int64_t embed, std::int64_t heads, const char *field) {
    if (embed % heads == 0) return true;
    return res.fail(ctx, "param.invalid",
                    who(ctx) + ": the embedding size " + std::to_string(embed) + " (last dimension of " +
                        formatShape(ctx.inputs[0].shape) + " from " + from(ctx) + ") is not divisible by " + field +
                        "=" + std::to_string(heads) + ".",
                    std::string("Choose ") + field + " that divides " + std::to_string(embed) +
                        ", or change the embedding size.",
                    field);
}

bool sequenceInput(const LayerContext &ctx, LayerResult &res, std::size_t i, const char *layout) {
    return requireRank(ctx, res, {{3, layout}}, i) && requireBatchFirst(ctx, res, i) &&
           requireConcrete(ctx, res, 1, "sequence length", i) && requireConcrete(ctx, res, 2, "embedding size", i) &&
           requireFloating(ctx, res, i);
}

void mhaRule(const LayerContext &ctx, LayerResult &res) {
    const bool cross = ctx.inputs.size() == 3;
    if (ctx.inputs.size() != 1 && !cross) {
        res.fail(ctx, "shape.invalid",
                 who(ctx) + " takes 1 input (self-attention) or 3 inputs (query, key, value), not " +
                     std::to_string(ctx.inputs.size()) + ".",
                 "Connect only the query for self-attention, or query, key and value.");
        return;
    }
    if (!sequenceInput(ctx, res, 0, "[N,L,E]")) return;
    if (cross && (!sequenceInput(ctx, res, 1, "[N,S,E]") || !sequenceInput(ctx, res, 2, "[N,S,E]"))) return;
    const Shape &q = ctx.inputs[0].shape;
    const Shape &k = ctx.inputs[cross ? 1 : 0].shape;
    const std::int64_t embed = q[2];
    const std::int64_t heads = intParam(ctx, "num_heads", 1);
    if (!checkHeads(ctx, res, embed, heads, "num_heads")) return;
    if (cross) {
        static const char *const roles[] = {"query", "key", "value"};
        for (std::size_t i = 1; i < 3; ++i) {
            const Shape &s = ctx.inputs[i].shape;
            const char *what = s[2] != embed ? "embedding size" : s[0] != q[0] ? "batch" : nullptr;
            const bool seqDiffers = i == 2 && s[1] != k[1];
            if (!what && !seqDiffers) continue;
            const std::size_t other = seqDiffers && !what ? 1 : 0;
            res.fail(ctx, "shape.mismatch",
                     who(ctx) + ": the " + roles[i] + " " + formatShape(s) + " from " + from(ctx, i) +
                         " does not match the " + roles[other] + " " + formatShape(ctx.inputs[other].shape) + " from " +
                         from(ctx, other) + " (" + (what ? what : "sequence length") + " differs).",
                     "Query, key and value need the same batch and embedding size; key and value the same length.",
                     "input " + std::to_string(i + 1));
            return;
        }
    }
    const bool bias = boolParam(ctx, "bias", true);
    const Count params = Count(4) * embed * embed + (bias ? Count(4) * embed : Count(0));
    if (!setCounts(ctx, res, params, 0, attentionFlops(embed, heads, q[1], k[1], bias))) return;
    const DType dt = ctx.inputs[0].dtype;
    res.outputs = {TensorType{q, dt, {}}, TensorType{{q[0], q[1], k[1]}, dt, {}}};
}

void encoderLayerRule(const LayerContext &ctx, LayerResult &res) {
    if (!sequenceInput(ctx, res, 0, "[N,L,d_model]")) return;
    const Shape &in = ctx.inputs[0].shape;
    const std::int64_t d = in[2];
    const std::int64_t len = in[1];
    const std::int64_t heads = intParam(ctx, "nhead", 1);
    if (!checkHeads(ctx, res, d, heads, "nhead")) return;
    const std::int64_t ff = intParam(ctx, "dim_feedforward", 2048);
    const std::int64_t activationFlops = stringParam(ctx, "activation", "relu") == "gelu" ? 8 : 1;

    const Count mha = Count(4) * d * d + Count(4) * d;
    const Count linears = Count(d) * ff + ff + Count(ff) * d + d;
    const Count params = mha + linears + Count(4) * d;
    const Count tokens = len;
    const Count feedForward = tokens * (Count(4) * d * ff + ff + d + Count(activationFlops) * ff);
    const Count residualsAndNorms = tokens * d * (2 + 2 * 5);
    const Count flops = attentionFlops(d, heads, len, len, true) + feedForward + residualsAndNorms;
    if (!setCounts(ctx, res, params, 0, flops)) return;
    res.outputs = {ctx.inputs[0]};
}

} // namespace

void registerAttention(Registry &r) {
    r.add(
        makeType("MultiheadAttention", "Attention",
                 "Multi-head attention; 1 input (self-attention) or query, key, value [N,L,E].",
                 {
                     P("num_heads", ParamKind::Int, nullptr, "Number of heads; must divide the embedding size").min(1),
                     P("dropout", ParamKind::Float, 0.0, "Dropout on the attention weights").min(0).max(1),
                     P("bias", ParamKind::Bool, true, "Learn biases in the input and output projections"),
                 },
                 mhaRule, 1, 3, {"out", "weights"}));
    LayerType encoderLayer = makeType(
        "TransformerEncoderLayer", "Attention",
        "Self-attention plus feed-forward block with residuals and LayerNorm over [N,L,d_model].",
        {
            P("nhead", ParamKind::Int, nullptr, "Number of attention heads; must divide d_model").min(1),
            P("dim_feedforward", ParamKind::Int, 2048, "Hidden size of the feed-forward block").min(1),
            P("dropout", ParamKind::Float, 0.1, "Dropout probability").min(0).max(1),
            P("activation", ParamKind::Enum, "relu", "Activation of the feed-forward block").choices({"relu", "gelu"}),
            P("layer_norm_eps", ParamKind::Float, 1e-5, "Added to the variance in LayerNorm").min(0),
            P("norm_first", ParamKind::Bool, false, "Apply LayerNorm before each block (pre-LN)"),
        },
        encoderLayerRule);
    encoderLayer.recomputesInside = true; // its attention and feed-forward halves (engine/train/model/attention.cpp)
    r.add(std::move(encoderLayer));
}

} // namespace diamond::spec::layers
