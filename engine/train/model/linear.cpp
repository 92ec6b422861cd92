// Linear: torch::nn::Linear over the last dimension; in_features from the input's last dimension.
#include "model/layer_support.h"

namespace diamond::engine::layers {

void addLinearFactories(LayerFactoryMap &m) {
    m["Linear"] = [](const LayerBuildContext &ctx) {
        return wrapUnary(torch::nn::Linear(
            torch::nn::LinearOptions(inputDim(ctx, 0, -1), intArg(ctx, "out_features")).bias(boolArg(ctx, "bias"))));
    };
}

} // namespace diamond::engine::layers
