// MultiheadAttention and TransformerEncoderLayer, batch-first ([N,L,E]) like PyTorch with
// batch_first=True. libtorch 1.13's C++ MultiheadAttention is sequence-first only, so inputs
// are transposed in and out (as Python's batch_first path does). TransformerEncoderLayer is
// assembled here because the C++ one lacks norm_first and batch_first: same submodules, names,
// shapes, registration order and initialisation as Python's nn.TransformerEncoderLayer.
#include "model/layer_support.h"

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
        torch::Tensor x = inputs.at(0);
        if (normFirst_) {
            x = x + selfAttentionBlock(norm1_->forward(x));
            x = x + feedForwardBlock(norm2_->forward(x));
        } else {
            x = norm1_->forward(x + selfAttentionBlock(x));
            x = norm2_->forward(x + feedForwardBlock(x));
        }
        return {x};
    }

private:
    torch::Tensor selfAttentionBlock(const torch::Tensor &x) {
        const torch::Tensor t = x.transpose(0, 1);
        auto out = std::get<0>(selfAttn_->forward(t, t, t, {}, /*need_weights=*/false));
        return dropout1_->forward(out.transpose(0, 1));
    }

    torch::Tensor feedForwardBlock(const torch::Tensor &x) {
        torch::Tensor h = linear1_->forward(x);
        h = gelu_ ? torch::gelu(h) : torch::relu(h);
        return dropout2_->forward(linear2_->forward(dropout_->forward(h)));
    }

    torch::nn::MultiheadAttention selfAttn_;
    torch::nn::Linear linear1_;
    torch::nn::Dropout dropout_;
    torch::nn::Linear linear2_;
    torch::nn::LayerNorm norm1_, norm2_;
    torch::nn::Dropout dropout1_, dropout2_;
    bool gelu_;
    bool normFirst_;
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
