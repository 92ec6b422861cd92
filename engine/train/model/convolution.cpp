// Conv1d/Conv2d/Conv3d and ConvTranspose2d as torch::nn modules (PyTorch's default
// initialisation); in_channels from dimension 1 of the input. Padding "same"/"valid" and
// padding_mode are passed to torch, which handles asymmetric "same" padding itself.
#include "model/layer_support.h"

namespace diamond::engine::layers {

namespace {

torch::nn::detail::conv_padding_mode_t paddingMode(const LayerBuildContext &ctx) {
    const std::string mode = stringArg(ctx, "padding_mode");
    if (mode == "zeros") return torch::kZeros;
    if (mode == "reflect") return torch::kReflect;
    if (mode == "replicate") return torch::kReplicate;
    if (mode == "circular") return torch::kCircular;
    fail(ctx, "unknown padding_mode \"" + mode + "\".");
}

template <std::size_t D> torch::nn::detail::conv_padding_t<D> padding(const LayerBuildContext &ctx) {
    if (hasArg(ctx, "padding") && ctx.params["padding"].is_string()) {
        const std::string text = stringArg(ctx, "padding");
        if (text == "same") return torch::kSame;
        if (text == "valid") return torch::kValid;
        fail(ctx, "unknown padding \"" + text + "\".");
    }
    return expanding<D>(intListArg(ctx, "padding", D));
}

template <std::size_t D> torch::nn::ConvOptions<D> convOptions(const LayerBuildContext &ctx) {
    return torch::nn::ConvOptions<D>(inputDim(ctx, 0, 1), intArg(ctx, "out_channels"),
                                     expanding<D>(intListArg(ctx, "kernel_size", D)))
        .stride(expanding<D>(intListArg(ctx, "stride", D)))
        .padding(padding<D>(ctx))
        .dilation(expanding<D>(intListArg(ctx, "dilation", D)))
        .groups(intArg(ctx, "groups"))
        .bias(boolArg(ctx, "bias"))
        .padding_mode(paddingMode(ctx));
}

std::shared_ptr<Layer> convTranspose2d(const LayerBuildContext &ctx) {
    auto options = torch::nn::ConvTranspose2dOptions(inputDim(ctx, 0, 1), intArg(ctx, "out_channels"),
                                                     expanding<2>(intListArg(ctx, "kernel_size", 2)))
                       .stride(expanding<2>(intListArg(ctx, "stride", 2)))
                       .padding(expanding<2>(intListArg(ctx, "padding", 2)))
                       .output_padding(expanding<2>(intListArg(ctx, "output_padding", 2)))
                       .groups(intArg(ctx, "groups"))
                       .bias(boolArg(ctx, "bias"))
                       .dilation(expanding<2>(intListArg(ctx, "dilation", 2)));
    return wrapModule<torch::nn::ConvTranspose2d>(
        torch::nn::ConvTranspose2d(options),
        [](torch::nn::ConvTranspose2d &m, const Tensors &in) { return Tensors{m->forward(in.at(0))}; });
}

} // namespace

void addConvolutionFactories(LayerFactoryMap &m) {
    m["Conv1d"] = [](const LayerBuildContext &ctx) { return wrapUnary(torch::nn::Conv1d(convOptions<1>(ctx))); };
    m["Conv2d"] = [](const LayerBuildContext &ctx) { return wrapUnary(torch::nn::Conv2d(convOptions<2>(ctx))); };
    m["Conv3d"] = [](const LayerBuildContext &ctx) { return wrapUnary(torch::nn::Conv3d(convOptions<3>(ctx))); };
    m["ConvTranspose2d"] = convTranspose2d;
}

} // namespace diamond::engine::layers
