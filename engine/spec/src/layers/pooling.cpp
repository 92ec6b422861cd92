// MaxPool1d/MaxPool2d, AvgPool2d and AdaptiveAvgPool2d over [N,C,*spatial]. Output sizes follow
// PyTorch's pooling_output_shape, including its ceil_mode rule and the padding <= kernel/2 check.
// FLOPs: one per window element per output (comparison or addition); AdaptiveAvgPool2d counts
// one per input element plus one division per output element.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

struct PoolKind {
    std::size_t spatial;
    bool hasDilation;
    bool needsFloating;
};

void poolRule(const LayerContext &ctx, LayerResult &res, PoolKind kind) {
    const std::size_t n = kind.spatial;
    if (!requireRank(ctx, res, {{static_cast<int>(n + 2), n == 1 ? "[N,C,L]" : "[N,C,H,W]"}})) return;
    if (!requireBatchFirst(ctx, res) || (kind.needsFloating && !requireFloating(ctx, res))) return;
    const Shape &in = ctx.inputs[0].shape;
    const auto kernel = intList(ctx, "kernel_size", n);
    auto stride = intList(ctx, "stride", n);
    if (stride.empty()) stride = kernel; // PyTorch: stride defaults to kernel_size
    const auto padding = intList(ctx, "padding", n);
    const auto dilation = kind.hasDilation ? intList(ctx, "dilation", n) : std::vector<std::int64_t>(n, 1);
    const bool ceilMode = boolParam(ctx, "ceil_mode", false);
    if (kernel.size() != n || stride.size() != n || padding.size() != n || dilation.size() != n) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": kernel_size, stride and padding need " + std::to_string(n) + " value(s) each.",
                 "Give a single number or a list of " + std::to_string(n) + ".");
        return;
    }
    Shape outShape = {in[0], in[1]};
    for (std::size_t i = 0; i < n; ++i) {
        if (padding[i] > kernel[i] / 2) {
            res.fail(ctx, "param.invalid",
                     who(ctx) + ": padding " + std::to_string(padding[i]) + " is more than half the kernel size " +
                         std::to_string(kernel[i]) + ".",
                     "Use padding of at most kernel_size/2 (" + std::to_string(kernel[i] / 2) + ").", "padding");
            return;
        }
        const Count out = poolOutputSize(in[i + 2], kernel[i], stride[i], padding[i], dilation[i], ceilMode);
        std::int64_t d = 0;
        if (!dimValue(ctx, res, out, spatialName(i, n), d)) return;
        if (d < 1) {
            res.fail(ctx, "shape.invalid",
                     who(ctx) + ": the window " + std::to_string(kernel[i]) +
                         (dilation[i] > 1 ? " (dilation " + std::to_string(dilation[i]) + ")" : std::string()) +
                         " does not fit the input " + spatialName(i, n) + " " + std::to_string(in[i + 2]) + " of " +
                         from(ctx) + " " + formatShape(in) + ".",
                     "Use a smaller kernel_size, or downsample less before " + quoted(ctx.nodeId) + ".", "kernel_size");
            return;
        }
        outShape.push_back(d);
    }
    const Count flops = elements(outShape) * product(kernel);
    if (!setCounts(ctx, res, 0, 0, flops)) return;
    res.outputs = {TensorType{std::move(outShape), ctx.inputs[0].dtype, {}}};
}

void adaptiveAvgRule(const LayerContext &ctx, LayerResult &res) {
    if (!requireRank(ctx, res, {{4, "[N,C,H,W]"}}) || !requireBatchFirst(ctx, res) || !requireFloating(ctx, res))
        return;
    const Shape &in = ctx.inputs[0].shape;
    const auto size = intList(ctx, "output_size", 2);
    if (size.size() != 2) {
        res.fail(ctx, "param.invalid", who(ctx) + ": output_size needs 2 values.", "Give [height, width].",
                 "output_size");
        return;
    }
    Shape outShape = {in[0], in[1], size[0], size[1]};
    const Count flops = elements(in) + elements(outShape);
    if (!setCounts(ctx, res, 0, 0, flops)) return;
    res.outputs = {TensorType{std::move(outShape), ctx.inputs[0].dtype, {}}};
}

std::vector<ParamSpec> maxPoolParams(int n) {
    return {
        P("kernel_size", ParamKind::IntOrList, nullptr, "Size of the pooling window").min(1).len(n),
        P("stride", ParamKind::IntOrList, nullptr, "Step of the window; defaults to kernel_size")
            .min(1)
            .len(n)
            .optional(),
        P("padding", ParamKind::IntOrList, 0, "Implicit -inf padding on each side, at most kernel_size/2")
            .min(0)
            .len(n),
        P("dilation", ParamKind::IntOrList, 1, "Spacing between window elements").min(1).len(n),
        P("ceil_mode", ParamKind::Bool, false, "Round the output size up instead of down"),
    };
}

std::vector<ParamSpec> avgPoolParams(int n) {
    return {
        P("kernel_size", ParamKind::IntOrList, nullptr, "Size of the pooling window").min(1).len(n),
        P("stride", ParamKind::IntOrList, nullptr, "Step of the window; defaults to kernel_size")
            .min(1)
            .len(n)
            .optional(),
        P("padding", ParamKind::IntOrList, 0, "Implicit zero padding on each side, at most kernel_size/2")
            .min(0)
            .len(n),
        P("ceil_mode", ParamKind::Bool, false, "Round the output size up instead of down"),
        P("count_include_pad", ParamKind::Bool, true, "Include the zero padding in the average"),
    };
}

} // namespace

void registerPooling(Registry &r) {
    r.add(makeType("MaxPool1d", "Pooling", "1-D max pooling over [N,C,L].", maxPoolParams(1),
                   [](const LayerContext &ctx, LayerResult &res) {
                       poolRule(ctx, res, {1, true, true});
                   }));
    r.add(makeType("MaxPool2d", "Pooling", "2-D max pooling over [N,C,H,W].", maxPoolParams(2),
                   [](const LayerContext &ctx, LayerResult &res) {
                       poolRule(ctx, res, {2, true, true});
                   }));
    r.add(makeType("AvgPool1d", "Pooling", "1-D average pooling over [N,C,L].", avgPoolParams(1),
                   [](const LayerContext &ctx, LayerResult &res) {
                       poolRule(ctx, res, {1, false, false});
                   }));
    r.add(makeType("AvgPool2d", "Pooling", "2-D average pooling over [N,C,H,W].", avgPoolParams(2),
                   [](const LayerContext &ctx, LayerResult &res) {
                       poolRule(ctx, res, {2, false, false});
                   }));
    r.add(makeType("AdaptiveAvgPool2d", "Pooling", "Average pooling to a fixed output size over [N,C,H,W].",
                   {
                       P("output_size", ParamKind::IntOrList, nullptr, "Target [height, width]").min(1).len(2),
                   },
                   adaptiveAvgRule));
}

} // namespace diamond::spec::layers
