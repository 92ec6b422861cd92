// MaxPool1d/2d, AvgPool1d/2d and AdaptiveAvgPool2d as torch::nn modules; an absent stride
// means stride = kernel_size, as in PyTorch. AdaptiveAvgPool2d to 1x1 on CUDA in deterministic mode is a mean over
// the spatial dimensions (the same values): adaptive_avg_pool2d's CUDA backward has no deterministic kernel.
#include "model/layer_support.h"

namespace diamond::engine::layers {

namespace {

template <std::size_t D> torch::ExpandingArray<D> strideOrKernel(const LayerBuildContext &ctx) {
    return expanding<D>(intListArg(ctx, hasArg(ctx, "stride") ? "stride" : "kernel_size", D));
}

template <std::size_t D, typename Module> std::shared_ptr<Layer> maxPool(const LayerBuildContext &ctx) {
    return wrapUnary(Module(torch::nn::MaxPoolOptions<D>(expanding<D>(intListArg(ctx, "kernel_size", D)))
                                .stride(strideOrKernel<D>(ctx))
                                .padding(expanding<D>(intListArg(ctx, "padding", D)))
                                .dilation(expanding<D>(intListArg(ctx, "dilation", D)))
                                .ceil_mode(boolArg(ctx, "ceil_mode"))));
}

template <std::size_t D, typename Module> std::shared_ptr<Layer> avgPool(const LayerBuildContext &ctx) {
    return wrapUnary(Module(torch::nn::AvgPoolOptions<D>(expanding<D>(intListArg(ctx, "kernel_size", D)))
                                .stride(strideOrKernel<D>(ctx))
                                .padding(expanding<D>(intListArg(ctx, "padding", D)))
                                .ceil_mode(boolArg(ctx, "ceil_mode"))
                                .count_include_pad(boolArg(ctx, "count_include_pad"))));
}

} // namespace

void addPoolingFactories(LayerFactoryMap &m) {
    m["MaxPool1d"] = maxPool<1, torch::nn::MaxPool1d>;
    m["MaxPool2d"] = maxPool<2, torch::nn::MaxPool2d>;
    m["AvgPool1d"] = avgPool<1, torch::nn::AvgPool1d>;
    m["AvgPool2d"] = avgPool<2, torch::nn::AvgPool2d>;
    m["AdaptiveAvgPool2d"] = [](const LayerBuildContext &ctx) {
        const auto size = intListArg(ctx, "output_size", 2);
        if (size[0] == 1 && size[1] == 1) {
            torch::nn::AdaptiveAvgPool2d pool(torch::nn::AdaptiveAvgPool2dOptions({1, 1}));
            return unary([pool](const torch::Tensor &x) mutable {
                if (x.is_cuda() && at::globalContext().deterministicAlgorithms()) return x.mean({-2, -1}, true);
                return pool->forward(x);
            });
        }
        return wrapUnary(torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({size[0], size[1]})));
    };
}

} // namespace diamond::engine::layers
