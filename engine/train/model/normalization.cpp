// BatchNorm1d/2d, LayerNorm, GroupNorm and Dropout as torch::nn modules. Channel counts come
// from dimension 1 of the input; LayerNorm's normalized_shape defaults to the last dimension.
// BatchNorm's buffers are running_mean, running_var and num_batches_tracked (when tracked).
#include "model/layer_support.h"
#include "model/recompute.h"

namespace diamond::engine::layers {

namespace {

template <typename Module> std::shared_ptr<Layer> batchNorm(const LayerBuildContext &ctx) {
    return wrapUnary(Module(torch::nn::BatchNormOptions(inputDim(ctx, 0, 1))
                                .eps(floatArg(ctx, "eps"))
                                .momentum(floatArg(ctx, "momentum"))
                                .affine(boolArg(ctx, "affine"))
                                .track_running_stats(boolArg(ctx, "track_running_stats"))));
}

std::shared_ptr<Layer> layerNorm(const LayerBuildContext &ctx) {
    const std::vector<std::int64_t> shape =
        hasArg(ctx, "normalized_shape") ? intListArg(ctx, "normalized_shape") : std::vector{inputDim(ctx, 0, -1)};
    return wrapUnary(torch::nn::LayerNorm(torch::nn::LayerNormOptions(shape)
                                              .eps(floatArg(ctx, "eps"))
                                              .elementwise_affine(boolArg(ctx, "elementwise_affine"))));
}

std::shared_ptr<Layer> groupNorm(const LayerBuildContext &ctx) {
    return wrapUnary(torch::nn::GroupNorm(torch::nn::GroupNormOptions(intArg(ctx, "num_groups"), inputDim(ctx, 0, 1))
                                              .eps(floatArg(ctx, "eps"))
                                              .affine(boolArg(ctx, "affine"))));
}

} // namespace

void addNormalizationFactories(LayerFactoryMap &m) {
    m["BatchNorm1d"] = batchNorm<torch::nn::BatchNorm1d>;
    m["BatchNorm2d"] = batchNorm<torch::nn::BatchNorm2d>;
    m["LayerNorm"] = layerNorm;
    m["GroupNorm"] = groupNorm;
    m["Dropout"] = [](const LayerBuildContext &ctx) {
        // Through recordedDropout(), whose masks a recomputed part keeps.
        return wrapModule<torch::nn::Dropout>(torch::nn::Dropout(torch::nn::DropoutOptions(floatArg(ctx, "p"))),
                                              [](torch::nn::Dropout &m, const Tensors &in) {
                                                  return Tensors{
                                                      recordedDropout(in.at(0), m->options.p(), m->is_training())};
                                              });
    };
}

} // namespace diamond::engine::layers
