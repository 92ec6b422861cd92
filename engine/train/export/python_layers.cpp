// Python code per spec layer type for model.py. Each generator mirrors the engine's module in
// engine/train/model/<family>.cpp: the same torch.nn module with the same resolved arguments
// (so parameter and buffer names and shapes agree), or the same tensor expression for the
// stateless layers. Recurrent and attention modules are batch_first=True, as the engine's.
#include "export/python_codegen.h"

#include "engine_error.h"

namespace diamond::engine::pygen {

namespace {

std::string call(const PyLayerContext &ctx) { return ctx.module + "(" + ctx.args.at(0) + ")"; }

PyLayer unaryModule(const PyLayerContext &ctx, std::string module) { return {std::move(module), call(ctx)}; }

std::string joinArgs(const PyLayerContext &ctx, const std::string &separator) {
    std::string out;
    for (std::size_t i = 0; i < ctx.args.size(); ++i)
        out += (i ? separator : "") + ctx.args[i];
    return out;
}

/// ConvNd padding: "same"/"valid" as a string, else one value per spatial dimension.
std::string convPadding(const PyLayerContext &ctx, std::size_t spatial) {
    if (ctx.params.contains("padding") && ctx.params["padding"].is_string()) return pyStr(stringParam(ctx, "padding"));
    return pyTuple(intListParam(ctx, "padding", spatial));
}

PyLayer conv(const PyLayerContext &ctx, std::size_t spatial) {
    const std::string cls = "nn.Conv" + std::to_string(spatial) + "d";
    return unaryModule(ctx, cls + "(" + pyInt(inputDim(ctx, 0, 1)) + ", " + pyInt(intParam(ctx, "out_channels")) +
                                ", kernel_size=" + pyTuple(intListParam(ctx, "kernel_size", spatial)) +
                                ", stride=" + pyTuple(intListParam(ctx, "stride", spatial)) +
                                ", padding=" + convPadding(ctx, spatial) +
                                ", dilation=" + pyTuple(intListParam(ctx, "dilation", spatial)) + ", groups=" +
                                pyInt(intParam(ctx, "groups")) + ", bias=" + pyBool(boolParam(ctx, "bias")) +
                                ", padding_mode=" + pyStr(stringParam(ctx, "padding_mode")) + ")");
}

/// Pooling stride: absent means kernel_size, as in the engine.
std::string poolStride(const PyLayerContext &ctx, std::size_t n) {
    return pyTuple(intListParam(ctx, hasParam(ctx, "stride") ? "stride" : "kernel_size", n));
}

PyLayer maxPool(const PyLayerContext &ctx, std::size_t n) {
    return unaryModule(
        ctx, "nn.MaxPool" + std::to_string(n) + "d(kernel_size=" + pyTuple(intListParam(ctx, "kernel_size", n)) +
                 ", stride=" + poolStride(ctx, n) + ", padding=" + pyTuple(intListParam(ctx, "padding", n)) +
                 ", dilation=" + pyTuple(intListParam(ctx, "dilation", n)) +
                 ", ceil_mode=" + pyBool(boolParam(ctx, "ceil_mode")) + ")");
}

PyLayer avgPool(const PyLayerContext &ctx, std::size_t n) {
    return unaryModule(
        ctx, "nn.AvgPool" + std::to_string(n) + "d(kernel_size=" + pyTuple(intListParam(ctx, "kernel_size", n)) +
                 ", stride=" + poolStride(ctx, n) + ", padding=" + pyTuple(intListParam(ctx, "padding", n)) +
                 ", ceil_mode=" + pyBool(boolParam(ctx, "ceil_mode")) +
                 ", count_include_pad=" + pyBool(boolParam(ctx, "count_include_pad")) + ")");
}

PyLayer batchNorm(const PyLayerContext &ctx, int dims) {
    return unaryModule(ctx, "nn.BatchNorm" + std::to_string(dims) + "d(" + pyInt(inputDim(ctx, 0, 1)) + ", eps=" +
                                pyFloat(floatParam(ctx, "eps")) + ", momentum=" + pyFloat(floatParam(ctx, "momentum")) +
                                ", affine=" + pyBool(boolParam(ctx, "affine")) +
                                ", track_running_stats=" + pyBool(boolParam(ctx, "track_running_stats")) + ")");
}

/// A stateless torch.nn module built from a constructor text.
PyLayerGenerator fixed(const std::string &module) {
    return [module](const PyLayerContext &ctx) { return unaryModule(ctx, module); };
}

std::string recurrentArgs(const PyLayerContext &ctx) {
    return pyInt(inputDim(ctx, 0, 2)) + ", " + pyInt(intParam(ctx, "hidden_size")) +
           ", num_layers=" + pyInt(intParam(ctx, "num_layers")) + ", bias=" + pyBool(boolParam(ctx, "bias")) +
           ", batch_first=True, dropout=" + pyFloat(floatParam(ctx, "dropout")) +
           ", bidirectional=" + pyBool(boolParam(ctx, "bidirectional"));
}

} // namespace

void addPythonDenseGenerators(PyLayerGeneratorMap &m) {
    m["Linear"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.Linear(" + pyInt(inputDim(ctx, 0, -1)) + ", " +
                                    pyInt(intParam(ctx, "out_features")) + ", bias=" + pyBool(boolParam(ctx, "bias")) +
                                    ")");
    };
    m["Conv1d"] = [](const PyLayerContext &ctx) { return conv(ctx, 1); };
    m["Conv2d"] = [](const PyLayerContext &ctx) { return conv(ctx, 2); };
    m["Conv3d"] = [](const PyLayerContext &ctx) { return conv(ctx, 3); };
    m["ConvTranspose2d"] = [](const PyLayerContext &ctx) {
        return unaryModule(
            ctx, "nn.ConvTranspose2d(" + pyInt(inputDim(ctx, 0, 1)) + ", " + pyInt(intParam(ctx, "out_channels")) +
                     ", kernel_size=" + pyTuple(intListParam(ctx, "kernel_size", 2)) + ", stride=" +
                     pyTuple(intListParam(ctx, "stride", 2)) + ", padding=" + pyTuple(intListParam(ctx, "padding", 2)) +
                     ", output_padding=" + pyTuple(intListParam(ctx, "output_padding", 2)) +
                     ", groups=" + pyInt(intParam(ctx, "groups")) + ", bias=" + pyBool(boolParam(ctx, "bias")) +
                     ", dilation=" + pyTuple(intListParam(ctx, "dilation", 2)) + ")");
    };
    m["MaxPool1d"] = [](const PyLayerContext &ctx) { return maxPool(ctx, 1); };
    m["MaxPool2d"] = [](const PyLayerContext &ctx) { return maxPool(ctx, 2); };
    m["AvgPool1d"] = [](const PyLayerContext &ctx) { return avgPool(ctx, 1); };
    m["AvgPool2d"] = [](const PyLayerContext &ctx) { return avgPool(ctx, 2); };
    m["AdaptiveAvgPool2d"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.AdaptiveAvgPool2d(" + pyTuple(intListParam(ctx, "output_size", 2)) + ")");
    };
    m["BatchNorm1d"] = [](const PyLayerContext &ctx) { return batchNorm(ctx, 1); };
    m["BatchNorm2d"] = [](const PyLayerContext &ctx) { return batchNorm(ctx, 2); };
    m["LayerNorm"] = [](const PyLayerContext &ctx) {
        const std::vector<std::int64_t> shape = hasParam(ctx, "normalized_shape")
                                                    ? intListParam(ctx, "normalized_shape")
                                                    : std::vector<std::int64_t>{inputDim(ctx, 0, -1)};
        return unaryModule(ctx, "nn.LayerNorm(" + pyList(shape) + ", eps=" + pyFloat(floatParam(ctx, "eps")) +
                                    ", elementwise_affine=" + pyBool(boolParam(ctx, "elementwise_affine")) + ")");
    };
    m["GroupNorm"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.GroupNorm(" + pyInt(intParam(ctx, "num_groups")) + ", " +
                                    pyInt(inputDim(ctx, 0, 1)) + ", eps=" + pyFloat(floatParam(ctx, "eps")) +
                                    ", affine=" + pyBool(boolParam(ctx, "affine")) + ")");
    };
    m["Dropout"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.Dropout(p=" + pyFloat(floatParam(ctx, "p")) + ")");
    };
}

void addPythonElementGenerators(PyLayerGeneratorMap &m) {
    m["ReLU"] = fixed("nn.ReLU()");
    // The engine clamps integer inputs (hardtanh, hence nn.ReLU6, has no integer kernel).
    m["ReLU6"] = [](const PyLayerContext &ctx) {
        if (!ctx.inputs.empty() && !spec::isFloating(ctx.inputs[0].dtype))
            return PyLayer{{}, "torch.clamp(" + ctx.args.at(0) + ", 0, 6)"};
        return unaryModule(ctx, "nn.ReLU6()");
    };
    m["LeakyReLU"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.LeakyReLU(negative_slope=" + pyFloat(floatParam(ctx, "negative_slope")) + ")");
    };
    m["GELU"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.GELU(approximate=" + pyStr(stringParam(ctx, "approximate")) + ")");
    };
    m["ELU"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.ELU(alpha=" + pyFloat(floatParam(ctx, "alpha")) + ")");
    };
    m["Softplus"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.Softplus(beta=" + pyFloat(floatParam(ctx, "beta")) +
                                    ", threshold=" + pyFloat(floatParam(ctx, "threshold")) + ")");
    };
    m["Mish"] = fixed("nn.Mish()");
    m["SiLU"] = fixed("nn.SiLU()");
    m["Tanh"] = fixed("nn.Tanh()");
    m["Sigmoid"] = fixed("nn.Sigmoid()");
    m["Softmax"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.Softmax(dim=" + pyInt(intParam(ctx, "dim")) + ")");
    };
    m["LogSoftmax"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.LogSoftmax(dim=" + pyInt(intParam(ctx, "dim")) + ")");
    };

    m["Flatten"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.Flatten(start_dim=" + pyInt(intParam(ctx, "start_dim")) +
                                    ", end_dim=" + pyInt(intParam(ctx, "end_dim")) + ")");
    };
    // Reshape's target is per sample; the batch size is taken from the input at run time.
    m["Reshape"] = [](const PyLayerContext &ctx) {
        std::string dims;
        for (const std::int64_t d : intListParam(ctx, "shape"))
            dims += ", " + pyInt(d);
        const std::string &x = ctx.args.at(0);
        return PyLayer{{}, x + ".reshape(" + x + ".shape[0]" + dims + ")"};
    };
    m["Permute"] = [](const PyLayerContext &ctx) {
        const std::vector<std::int64_t> dims = intListParam(ctx, "dims");
        std::string text;
        for (std::size_t i = 0; i < dims.size(); ++i)
            text += (i ? ", " : "") + pyInt(dims[i]);
        return PyLayer{{}, ctx.args.at(0) + ".permute(" + text + ")"};
    };
    // nn.Upsample == F.interpolate with recompute_scale_factor=None, as the engine calls it;
    // align_corners is False for the interpolating modes unless given, absent for nearest.
    m["Upsample"] = [](const PyLayerContext &ctx) {
        const std::size_t spatial = ctx.inputs.at(0).shape.size() - 2;
        const std::string mode = stringParam(ctx, "mode");
        std::string args = hasParam(ctx, "size") ? "size=" + pyTuple(intListParam(ctx, "size", spatial))
                                                 : "scale_factor=" + pyFloat(floatParam(ctx, "scale_factor"));
        args += ", mode=" + pyStr(mode);
        if (mode != "nearest")
            args += ", align_corners=" + pyBool(hasParam(ctx, "align_corners") && boolParam(ctx, "align_corners"));
        return unaryModule(ctx, "nn.Upsample(" + args + ")");
    };

    // Left to right, like the engine: ((a + b) + c).
    m["Add"] = [](const PyLayerContext &ctx) { return PyLayer{{}, joinArgs(ctx, " + ")}; };
    m["Multiply"] = [](const PyLayerContext &ctx) { return PyLayer{{}, joinArgs(ctx, " * ")}; };
    m["Concat"] = [](const PyLayerContext &ctx) {
        return PyLayer{{}, "torch.cat([" + joinArgs(ctx, ", ") + "], dim=" + pyInt(intParam(ctx, "dim")) + ")"};
    };
    m["Identity"] = [](const PyLayerContext &ctx) { return PyLayer{{}, ctx.args.at(0)}; };
}

void addPythonSequenceGenerators(PyLayerGeneratorMap &m) {
    m["Embedding"] = [](const PyLayerContext &ctx) {
        std::string args = pyInt(intParam(ctx, "num_embeddings")) + ", " + pyInt(intParam(ctx, "embedding_dim"));
        if (hasParam(ctx, "padding_idx")) args += ", padding_idx=" + pyInt(intParam(ctx, "padding_idx"));
        return unaryModule(ctx, "nn.Embedding(" + args + ")");
    };
    // Ports: LSTM (out, h_n, c_n), GRU (out, h_n); zero initial states as in the engine.
    m["LSTM"] = [](const PyLayerContext &ctx) {
        return PyLayer{"nn.LSTM(" + recurrentArgs(ctx) + ")", "_lstm(" + ctx.module + ", " + ctx.args.at(0) + ")"};
    };
    m["GRU"] = [](const PyLayerContext &ctx) { return unaryModule(ctx, "nn.GRU(" + recurrentArgs(ctx) + ")"); };
    // Ports (out, weights): weights averaged over heads (need_weights=True, the default).
    // One input is self-attention: query, key and value are the same tensor, as in the engine.
    m["MultiheadAttention"] = [](const PyLayerContext &ctx) {
        const std::string &q = ctx.args.at(0);
        const std::string qkv = ctx.args.size() == 3 ? joinArgs(ctx, ", ") : q + ", " + q + ", " + q;
        return PyLayer{"nn.MultiheadAttention(" + pyInt(inputDim(ctx, 0, 2)) + ", " +
                           pyInt(intParam(ctx, "num_heads")) + ", dropout=" + pyFloat(floatParam(ctx, "dropout")) +
                           ", bias=" + pyBool(boolParam(ctx, "bias")) + ", batch_first=True)",
                       ctx.module + "(" + qkv + ")"};
    };
    m["TransformerEncoderLayer"] = [](const PyLayerContext &ctx) {
        return unaryModule(ctx, "nn.TransformerEncoderLayer(" + pyInt(inputDim(ctx, 0, 2)) + ", " +
                                    pyInt(intParam(ctx, "nhead")) +
                                    ", dim_feedforward=" + pyInt(intParam(ctx, "dim_feedforward")) +
                                    ", dropout=" + pyFloat(floatParam(ctx, "dropout")) +
                                    ", activation=" + pyStr(stringParam(ctx, "activation")) +
                                    ", layer_norm_eps=" + pyFloat(floatParam(ctx, "layer_norm_eps")) +
                                    ", batch_first=True, norm_first=" + pyBool(boolParam(ctx, "norm_first")) + ")");
    };
}

} // namespace diamond::engine::pygen
