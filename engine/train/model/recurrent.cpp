// LSTM and GRU: torch::nn modules with batch_first(true), like PyTorch with batch_first=True.
// Outputs: LSTM out [N,L,D*H], h_n, c_n [D*num_layers,N,H]; GRU out, h_n. Initial states are
// zeros (torch's default when none are given).
#include "model/layer_support.h"

namespace diamond::engine::layers {

namespace {

template <typename Options> Options recurrentOptions(const LayerBuildContext &ctx) {
    return Options(inputDim(ctx, 0, 2), intArg(ctx, "hidden_size"))
        .num_layers(intArg(ctx, "num_layers"))
        .bias(boolArg(ctx, "bias"))
        .batch_first(true)
        .dropout(floatArg(ctx, "dropout"))
        .bidirectional(boolArg(ctx, "bidirectional"));
}

} // namespace

void addRecurrentFactories(LayerFactoryMap &m) {
    m["LSTM"] = [](const LayerBuildContext &ctx) {
        return wrapModule<torch::nn::LSTM>(torch::nn::LSTM(recurrentOptions<torch::nn::LSTMOptions>(ctx)),
                                           [](torch::nn::LSTM &lstm, const Tensors &in) {
                                               auto [out, state] = lstm->forward(in.at(0));
                                               return Tensors{out, std::get<0>(state), std::get<1>(state)};
                                           });
    };
    m["GRU"] = [](const LayerBuildContext &ctx) {
        return wrapModule<torch::nn::GRU>(torch::nn::GRU(recurrentOptions<torch::nn::GRUOptions>(ctx)),
                                          [](torch::nn::GRU &gru, const Tensors &in) {
                                              auto [out, h] = gru->forward(in.at(0));
                                              return Tensors{out, h};
                                          });
    };
}

} // namespace diamond::engine::layers
