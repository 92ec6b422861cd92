// Conv1d/Conv2d/Conv3d and ConvTranspose2d. in_channels is inferred from dimension 1 of the
// input; inputs are [N,C,*spatial].
#include "layers/layer_util.h"

#include <algorithm>

namespace diamond::spec::layers {

namespace {

const char *layoutFor(std::size_t spatial) {
    switch (spatial) {
    case 1: return "[N,C,L]";
    case 2: return "[N,C,H,W]";
    default: return "[N,C,D,H,W]";
    }
}

/// Common input checks; on success `inChannels` holds dimension 1.
bool convInput(const LayerContext &ctx, LayerResult &res, std::size_t spatial, std::int64_t &inChannels) {
    if (!requireRank(ctx, res, {{static_cast<int>(spatial + 2), layoutFor(spatial)}})) return false;
    if (!requireBatchFirst(ctx, res) || !requireConcrete(ctx, res, 1, "in_channels") || !requireFloating(ctx, res))
        return false;
    inChannels = ctx.inputs[0].shape[1];
    return true;
}

bool checkGroups(const LayerContext &ctx, LayerResult &res, std::int64_t inChannels, std::int64_t outChannels,
                 std::int64_t groups) {
    const char *bad = inChannels % groups != 0 ? "input" : outChannels % groups != 0 ? "output" : nullptr;
    if (!bad) return true;
    const std::int64_t channels = inChannels % groups != 0 ? inChannels : outChannels;
    return res.fail(ctx, "param.invalid",
                    who(ctx) + " has groups=" + std::to_string(groups) + ", but its " + std::to_string(channels) + " " +
                        bad + " channels" +
                        (inChannels % groups != 0 ? " (from " + from(ctx) + " " + formatShape(ctx.inputs[0].shape) + ")"
                                                  : std::string()) +
                        " are not divisible by " + std::to_string(groups) + ".",
                    "Choose groups that divides both the input channels (" + std::to_string(inChannels) +
                        ") and out_channels (" + std::to_string(outChannels) +
                        "); groups equal to the input channels gives a depthwise convolution.",
                    "groups");
}

bool kernelTooLarge(const LayerContext &ctx, LayerResult &res, std::size_t axis, std::size_t spatial,
                    std::int64_t kernel, std::int64_t dilation, std::int64_t padding) {
    const std::string name = spatialName(axis, spatial);
    const Shape &in = ctx.inputs[0].shape;
    return res.fail(
        ctx, "shape.invalid",
        who(ctx) + ": the kernel " + name + " " + std::to_string(kernel) + " (dilation " + std::to_string(dilation) +
            ") does not fit the input " + name + " " + std::to_string(in[axis + 2]) + " plus padding " +
            std::to_string(padding) + " of " + from(ctx) + " " + formatShape(in) + ".",
        "Use a smaller kernel_size or dilation, add padding, or downsample less before " + quoted(ctx.nodeId) + ".",
        "kernel_size");
}

void convRule(const LayerContext &ctx, LayerResult &res, std::size_t spatial) {
    std::int64_t inChannels = 0;
    if (!convInput(ctx, res, spatial, inChannels)) return;
    const Shape &in = ctx.inputs[0].shape;
    const std::int64_t outChannels = intParam(ctx, "out_channels", 1);
    const std::int64_t groups = intParam(ctx, "groups", 1);
    if (!checkGroups(ctx, res, inChannels, outChannels, groups)) return;
    const auto kernel = intList(ctx, "kernel_size", spatial);
    const auto stride = intList(ctx, "stride", spatial);
    const auto dilation = intList(ctx, "dilation", spatial);
    const std::string padText = stringParam(ctx, "padding");
    const auto padList = intList(ctx, "padding", spatial);
    if (kernel.size() != spatial || stride.size() != spatial || dilation.size() != spatial ||
        (padText.empty() && padList.size() != spatial)) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": kernel_size, stride, padding and dilation need " + std::to_string(spatial) +
                     " value(s) each.",
                 "Give a single number or a list of " + std::to_string(spatial) + ".");
        return;
    }
    const bool same = padText == "same";
    if (same && std::any_of(stride.begin(), stride.end(), [](std::int64_t s) { return s != 1; })) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": padding=\"same\" is not supported with a stride other than 1 (PyTorch rejects it).",
                 "Use an explicit padding such as kernel_size/2, or stride 1.", "padding");
        return;
    }
    const std::string mode = stringParam(ctx, "padding_mode", "zeros");

    Shape outShape = {in[0], outChannels};
    for (std::size_t i = 0; i < spatial; ++i) {
        const std::int64_t size = in[i + 2]; // concrete: requireBatchFirst passed
        std::int64_t left = 0, right = 0;
        if (same) {
            const Count total = Count(dilation[i]) * (Count(kernel[i]) - 1);
            if (!total.ok()) {
                dimValue(ctx, res, total, "padding", left);
                return;
            }
            left = total.value() / 2;
            right = total.value() - left;
        } else if (padText.empty()) {
            left = right = padList[i];
        }
        const std::int64_t side = std::max(left, right);
        if ((mode == "reflect" && side >= size) || (mode == "circular" && side > size)) {
            res.fail(ctx, "param.invalid",
                     who(ctx) + ": padding " + std::to_string(side) + " with padding_mode \"" + mode +
                         "\" needs an input " + spatialName(i, spatial) +
                         (mode == "reflect" ? " above " : " of at least ") + std::to_string(side) + ", but " +
                         from(ctx) + " gives " + formatShape(in) + ".",
                     "Reduce the padding or use padding_mode \"zeros\" or \"replicate\".", "padding");
            return;
        }
        const Count span = Count(dilation[i]) * (Count(kernel[i]) - 1) + 1;
        const Count out = Count::floorDiv(Count(size) + left + right - span, stride[i]) + 1;
        std::int64_t d = 0;
        if (!dimValue(ctx, res, out, spatialName(i, spatial), d)) return;
        if (d < 1) {
            kernelTooLarge(ctx, res, i, spatial, kernel[i], dilation[i], left + right);
            return;
        }
        outShape.push_back(d);
    }

    const bool bias = boolParam(ctx, "bias", true);
    const Count kernelElems = product(kernel);
    const Count macsPerOutput = Count(inChannels / groups) * kernelElems;
    const Count outElems = elements(outShape);
    const Count params = Count(outChannels) * macsPerOutput + (bias ? outChannels : 0);
    const Count flops = Count(2) * outElems * macsPerOutput + (bias ? outElems : Count(0));
    if (!setCounts(ctx, res, params, 0, flops)) return;
    res.outputs = {TensorType{std::move(outShape), ctx.inputs[0].dtype, {}}};
}

void convTransposeRule(const LayerContext &ctx, LayerResult &res) {
    const std::size_t spatial = 2;
    std::int64_t inChannels = 0;
    if (!convInput(ctx, res, spatial, inChannels)) return;
    const Shape &in = ctx.inputs[0].shape;
    const std::int64_t outChannels = intParam(ctx, "out_channels", 1);
    const std::int64_t groups = intParam(ctx, "groups", 1);
    if (!checkGroups(ctx, res, inChannels, outChannels, groups)) return;
    const auto kernel = intList(ctx, "kernel_size", spatial);
    const auto stride = intList(ctx, "stride", spatial);
    const auto padding = intList(ctx, "padding", spatial);
    const auto outputPadding = intList(ctx, "output_padding", spatial);
    const auto dilation = intList(ctx, "dilation", spatial);
    if (kernel.size() != spatial || stride.size() != spatial || padding.size() != spatial ||
        outputPadding.size() != spatial || dilation.size() != spatial) {
        res.fail(ctx, "param.invalid",
                 who(ctx) + ": kernel_size, stride, padding, output_padding and dilation need 2 values each.",
                 "Give a single number or a list of 2.");
        return;
    }
    Shape outShape = {in[0], outChannels};
    for (std::size_t i = 0; i < spatial; ++i) {
        if (outputPadding[i] >= stride[i] && outputPadding[i] >= dilation[i]) {
            res.fail(ctx, "param.invalid",
                     who(ctx) + ": output_padding " + std::to_string(outputPadding[i]) +
                         " must be smaller than the stride (" + std::to_string(stride[i]) + ") or the dilation (" +
                         std::to_string(dilation[i]) + ").",
                     "output_padding only resolves the ambiguity of strided outputs; use a value below the stride.",
                     "output_padding");
            return;
        }
        const Count out =
            convTransposeOutputSize(in[i + 2], kernel[i], stride[i], padding[i], dilation[i], outputPadding[i]);
        std::int64_t d = 0;
        if (!dimValue(ctx, res, out, spatialName(i, spatial), d)) return;
        if (d < 1) {
            res.fail(ctx, "shape.invalid",
                     who(ctx) + ": padding " + std::to_string(padding[i]) + " leaves an output " +
                         spatialName(i, spatial) + " of " + std::to_string(d) + " for the input " + from(ctx) + " " +
                         formatShape(in) + ".",
                     "Reduce the padding.", "padding");
            return;
        }
        outShape.push_back(d);
    }
    const bool bias = boolParam(ctx, "bias", true);
    const Count perInput = Count(outChannels / groups) * product(kernel); // MACs each input element scatters
    const Count outElems = elements(outShape);
    const Count params = Count(inChannels) * perInput + (bias ? outChannels : 0);
    const Count flops = Count(2) * elements(in) * perInput + (bias ? outElems : Count(0));
    if (!setCounts(ctx, res, params, 0, flops)) return;
    res.outputs = {TensorType{std::move(outShape), ctx.inputs[0].dtype, {}}};
}

std::vector<ParamSpec> convParams(int spatial) {
    return {
        P("out_channels", ParamKind::Int, nullptr, "Number of output channels (filters)").min(1),
        P("kernel_size", ParamKind::IntOrList, nullptr, "Size of the convolution window").min(1).len(spatial),
        P("stride", ParamKind::IntOrList, 1, "Step of the window").min(1).len(spatial),
        P("padding", ParamKind::Padding, 0, "Padding on each side, or \"same\" / \"valid\"").min(0).len(spatial),
        P("dilation", ParamKind::IntOrList, 1, "Spacing between kernel elements").min(1).len(spatial),
        P("groups", ParamKind::Int, 1, "Blocked connections; must divide in and out channels").min(1),
        P("bias", ParamKind::Bool, true, "Learn an additive bias per output channel"),
        P("padding_mode", ParamKind::Enum, "zeros", "How padded values are filled")
            .choices({"zeros", "reflect", "replicate", "circular"}),
    };
}

} // namespace

void registerConvolution(Registry &r) {
    r.add(makeType("Conv1d", "Convolution", "1-D convolution over [N,C,L].", convParams(1),
                   [](const LayerContext &ctx, LayerResult &res) { convRule(ctx, res, 1); }));
    r.add(makeType("Conv2d", "Convolution", "2-D convolution over [N,C,H,W].", convParams(2),
                   [](const LayerContext &ctx, LayerResult &res) { convRule(ctx, res, 2); }));
    r.add(makeType("Conv3d", "Convolution", "3-D convolution over [N,C,D,H,W].", convParams(3),
                   [](const LayerContext &ctx, LayerResult &res) { convRule(ctx, res, 3); }));
    r.add(makeType(
        "ConvTranspose2d", "Convolution", "2-D transposed convolution (learned upsampling) over [N,C,H,W].",
        {
            P("out_channels", ParamKind::Int, nullptr, "Number of output channels").min(1),
            P("kernel_size", ParamKind::IntOrList, nullptr, "Size of the convolution window").min(1).len(2),
            P("stride", ParamKind::IntOrList, 1, "Upsampling step").min(1).len(2),
            P("padding", ParamKind::IntOrList, 0, "Implicit zero padding removed from each side").min(0).len(2),
            P("output_padding", ParamKind::IntOrList, 0, "Extra size added to one side of the output").min(0).len(2),
            P("groups", ParamKind::Int, 1, "Blocked connections; must divide in and out channels").min(1),
            P("bias", ParamKind::Bool, true, "Learn an additive bias per output channel"),
            P("dilation", ParamKind::IntOrList, 1, "Spacing between kernel elements").min(1).len(2),
        },
        convTransposeRule));
}

} // namespace diamond::spec::layers
