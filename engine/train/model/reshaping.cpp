// Flatten, Reshape, Permute and Upsample: stateless. Reshape's target is per sample (the batch
// dimension is prepended at run time); Upsample is torch::nn::functional::interpolate with
// nn.Upsample's semantics (scale_factor used directly, align_corners false unless given).
#include "model/layer_support.h"

namespace diamond::engine::layers {

namespace {

namespace F = torch::nn::functional;

std::shared_ptr<Layer> flatten(const LayerBuildContext &ctx) {
    const std::int64_t start = intArg(ctx, "start_dim"), end = intArg(ctx, "end_dim");
    return unary([start, end](const torch::Tensor &x) { return torch::flatten(x, start, end); });
}

std::shared_ptr<Layer> reshape(const LayerBuildContext &ctx) {
    std::vector<std::int64_t> target = intListArg(ctx, "shape");
    target.insert(target.begin(), 0); // the batch size, filled in per call
    return unary([target](const torch::Tensor &x) {
        std::vector<std::int64_t> shape = target;
        shape[0] = x.size(0);
        return x.reshape(shape);
    });
}

std::shared_ptr<Layer> permute(const LayerBuildContext &ctx) {
    const std::vector<std::int64_t> dims = intListArg(ctx, "dims");
    return unary([dims](const torch::Tensor &x) { return x.permute(dims); });
}

std::shared_ptr<Layer> upsample(const LayerBuildContext &ctx) {
    const std::size_t spatial = inputRank(ctx) - 2;
    const std::string mode = stringArg(ctx, "mode");
    auto options = F::InterpolateFuncOptions();
    if (mode == "nearest") {
        options.mode(torch::kNearest);
    } else {
        if (mode == "linear")
            options.mode(torch::kLinear);
        else if (mode == "bilinear")
            options.mode(torch::kBilinear);
        else if (mode == "bicubic")
            options.mode(torch::kBicubic);
        else if (mode == "trilinear")
            options.mode(torch::kTrilinear);
        else
            fail(ctx, "unknown mode \"" + mode + "\".");
        options.align_corners(hasArg(ctx, "align_corners") && boolArg(ctx, "align_corners"));
    }
    if (hasArg(ctx, "size")) {
        options.size(intListArg(ctx, "size", spatial));
    } else {
        options.scale_factor(std::vector<double>(spatial, floatArg(ctx, "scale_factor")));
        options.recompute_scale_factor(false); // Python's default (None) for nn.Upsample
    }
    return unary([options](const torch::Tensor &x) { return F::interpolate(x, options); });
}

} // namespace

void addReshapingFactories(LayerFactoryMap &m) {
    m["Flatten"] = flatten;
    m["Reshape"] = reshape;
    m["Permute"] = permute;
    m["Upsample"] = upsample;
}

} // namespace diamond::engine::layers
