// Input: a graph input. Analysis feeds each declared input through this rule with no inputs.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

void inputRule(const LayerContext &ctx, LayerResult &res) {
    TensorType t;
    t.shape = intList(ctx, "shape");
    if (t.shape.empty()) {
        res.fail(ctx, "shape.invalid", "Input " + quoted(ctx.nodeId) + " has no shape.",
                 "Declare the shape per sample with \"N\" for the batch, e.g. [\"N\", 3, 32, 32].", "shape");
        return;
    }
    for (std::int64_t d : t.shape) {
        if (d < 1 && d != kBatch) {
            res.fail(ctx, "shape.invalid",
                     "Input " + quoted(ctx.nodeId) + " has the dimension " + std::to_string(d) + " in " +
                         formatShape(t.shape) + "; dimensions must be at least 1.",
                     "Use \"N\" for the batch dimension and positive sizes elsewhere.", "shape");
            return;
        }
    }
    if (batchDimCount(t.shape) > 1) {
        res.fail(ctx, "shape.invalid",
                 "Input " + quoted(ctx.nodeId) + " declares " + formatShape(t.shape) +
                     " with more than one batch dimension \"N\".",
                 "Keep a single \"N\", normally first.", "shape");
        return;
    }
    if (!elements(t.shape).ok()) {
        res.fail(ctx, "shape.overflow",
                 "Input " + quoted(ctx.nodeId) + ": the number of elements of " + formatShape(t.shape) +
                     " overflows a 64-bit integer.",
                 "Check the declared shape for a typo.", "shape");
        return;
    }
    if (!parseDType(stringParam(ctx, "dtype", "float32"), t.dtype)) {
        res.fail(ctx, "dtype.invalid", "Input " + quoted(ctx.nodeId) + " has an unknown dtype.",
                 "Use float32, float64, float16, bfloat16, int64, int32 or bool.", "dtype");
        return;
    }
    if (!isNull(ctx, "axes")) {
        for (const auto &a : ctx.params["axes"]) {
            if (a.is_string()) t.axes.push_back(a.get<std::string>());
        }
        if (t.axes.size() != t.shape.size()) {
            res.fail(ctx, "param.invalid",
                     "Input " + quoted(ctx.nodeId) + " names " + std::to_string(t.axes.size()) + " axes for the " +
                         std::to_string(t.shape.size()) + "-D shape " + formatShape(t.shape) + ".",
                     "Give one axis name per dimension, or leave \"axes\" out.", "axes");
            return;
        }
    }
    res.outputs = {std::move(t)};
}

} // namespace

void registerInput(Registry &r) {
    r.add(makeType(
        "Input", "Input", "A graph input: a tensor of the declared shape and dtype.",
        {
            P("shape", ParamKind::Shape, nullptr, "Dimensions with \"N\" for the batch, e.g. [\"N\", 3, 32, 32]"),
            P("dtype", ParamKind::Enum, "float32", "Element type of the input")
                .choices({"float32", "float64", "float16", "bfloat16", "int64", "int32", "bool"}),
            P("axes", ParamKind::Strings, nullptr, "Optional axis names, one per dimension").optional(),
        },
        inputRule, 0, 0));
}

} // namespace diamond::spec::layers
