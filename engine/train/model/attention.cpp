// MultiheadAttention and TransformerEncoderLayer, batch-first ([N,L,E]) like PyTorch with
// batch_first=True. libtorch 1.13's C++ MultiheadAttention is sequence-first only, so inputs
// are transposed in and out (as Python's batch_first path does). TransformerEncoderLayer is
// assembled here because the C++ one lacks norm_first and batch_first: same submodules, names,
// shapes, registration order and initialisation as Python's nn.TransformerEncoderLayer.
#include "model/layer_support.h"
#include "model/recompute.h"

namespace diamond::engine::layers {

namespace {

/// Outputs "out" [N,L,E] and "weights" [N,L,S], averaged over heads (Python's need_weights=True,
/// average_attn_weights=True). One input: self-attention; three: query, key, value.
std::shared_ptr<Layer> multiheadAttention(const LayerBuildContext &ctx) {
    auto options = torch::nn::MultiheadAttentionOptions(inputDim(ctx, 0, 2), intArg(ctx, "num_heads"))
                       .dropout(floatArg(ctx, "dropout"))
                       .bias(boolArg(ctx, "bias"));
    return wrapModule<torch::nn::MultiheadAttention>(
        torch::nn::MultiheadAttention(options), [](torch::nn::MultiheadAttention &mha, const Tensors &in) {
            const torch::Tensor q = in.at(0).transpose(0, 1);
            const torch::Tensor k = in.size() == 3 ? in[1].transpose(0, 1) : q;
            const torch::Tensor v = in.size() == 3 ? in[2].transpose(0, 1) : q;
            auto [out, weights] = mha->forward(q, k, v);
            return Tensors{out.transpose(0, 1), weights};
        });
}

/// Python's nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
/// layer_norm_eps, batch_first=True, norm_first). Members are declared (hence constructed and
/// registered) in Python's order, so initialisation draws the RNG in the same sequence.
class EncoderLayer : public Layer {
public:
    EncoderLayer(std::int64_t dModel, std::int64_t nhead, std::int64_t dimFeedforward, double dropout, bool gelu,
                 double eps, bool normFirst)
        : selfAttn_(register_module(
              "self_attn",
              torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(dModel, nhead).dropout(dropout)))),
          linear1_(register_module("linear1", torch::nn::Linear(dModel, dimFeedforward))),
          dropout_(register_module("dropout", torch::nn::Dropout(dropout))),
          linear2_(register_module("linear2", torch::nn::Linear(dimFeedforward, dModel))),
          norm1_(register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dModel}).eps(eps)))),
          norm2_(register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dModel}).eps(eps)))),
          dropout1_(register_module("dropout1", torch::nn::Dropout(dropout))),
          dropout2_(register_module("dropout2", torch::nn::Dropout(dropout))), gelu_(gelu), normFirst_(normFirst) {}

    Tensors forward(const Tensors &inputs) override {
        if (recomputeInside_ && torch::GradMode::is_enabled()) {
            // Each half keeps only its input; the other values come back in backward.
            const Tensors half =
                runRecomputed([this](const Tensors &in) { return Tensors{attentionHalf(in.at(0))}; }, {inputs.at(0)});
            return runRecomputed([this](const Tensors &in) { return Tensors{feedForwardHalf(in.at(0))}; }, half);
        }
        return {feedForwardHalf(attentionHalf(inputs.at(0)))};
    }
    void setRecomputeInside(bool on) override { recomputeInside_ = on; }

private:
    torch::Tensor attentionHalf(const torch::Tensor &x) {
        return normFirst_ ? x + selfAttentionBlock(norm1_->forward(x)) : norm1_->forward(x + selfAttentionBlock(x));
    }

    torch::Tensor feedForwardHalf(const torch::Tensor &x) {
        return normFirst_ ? x + feedForwardBlock(norm2_->forward(x)) : norm2_->forward(x + feedForwardBlock(x));
    }

    /// torch::nn::functional's multi_head_attention_forward for self-attention, op for op (the same values), with
    /// the attention weights' dropout through recordedDropout() so that a recomputed layer keeps its mask.
    torch::Tensor selfAttentionBlock(const torch::Tensor &x) {
        namespace F = torch::nn::functional;
        const torch::Tensor t = x.transpose(0, 1); // [L, N, E]
        const std::int64_t length = t.size(0), batch = t.size(1), embed = t.size(2);
        const std::int64_t heads = selfAttn_->options.num_heads(), headDim = embed / heads;
        const auto qkv = F::linear(t, selfAttn_->in_proj_weight, selfAttn_->in_proj_bias).chunk(3, -1);
        const double scaling = 1 / std::sqrt(headDim);
        const torch::Tensor q = (qkv[0] * scaling).contiguous().view({length, batch * heads, headDim}).transpose(0, 1);
        const torch::Tensor k = qkv[1].contiguous().view({-1, batch * heads, headDim}).transpose(0, 1);
        const torch::Tensor v = qkv[2].contiguous().view({-1, batch * heads, headDim}).transpose(0, 1);
        torch::Tensor weights = torch::softmax(torch::bmm(q, k.transpose(1, 2)), -1);
        weights = recordedDropout(weights, selfAttn_->options.dropout(), is_training());
        const torch::Tensor out = torch::bmm(weights, v).transpose(0, 1).contiguous().view({length, batch, embed});
        const torch::Tensor projected = F::linear(out, selfAttn_->out_proj->weight, selfAttn_->out_proj->bias);
        return recordedDropout(projected.transpose(0, 1), dropout1_->options.p(), is_training());
    }

    torch::Tensor feedForwardBlock(const torch::Tensor &x) {
        torch::Tensor h = linear1_->forward(x);
        h = gelu_ ? torch::gelu(h) : torch::relu(h);
        const double p = dropout_->options.p();
        return recordedDropout(linear2_->forward(recordedDropout(h, p, is_training())), dropout2_->options.p(),
                               is_training());
    }

    torch::nn::MultiheadAttention selfAttn_;
    torch::nn::Linear linear1_;
    torch::nn::Dropout dropout_;
    torch::nn::Linear linear2_;
    torch::nn::LayerNorm norm1_, norm2_;
    torch::nn::Dropout dropout1_, dropout2_;
    bool gelu_;
    bool normFirst_;
    bool recomputeInside_ = false;
};

std::shared_ptr<Layer> transformerEncoderLayer(const LayerBuildContext &ctx) {
    const std::string activation = stringArg(ctx, "activation");
    if (activation != "relu" && activation != "gelu") fail(ctx, "unknown activation \"" + activation + "\".");
    return std::make_shared<EncoderLayer>(inputDim(ctx, 0, 2), intArg(ctx, "nhead"), intArg(ctx, "dim_feedforward"),
                                          floatArg(ctx, "dropout"), activation == "gelu",
                                          floatArg(ctx, "layer_norm_eps"), boolArg(ctx, "norm_first"));
}

} // namespace

void addAttentionFactories(LayerFactoryMap &m) {
    m["MultiheadAttention"] = multiheadAttention;
    m["TransformerEncoderLayer"] = transformerEncoderLayer;
}

} // namespace diamond::engine::layers
