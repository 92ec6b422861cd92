#include "export/python_codegen.h"

#include "diamond/spec/registry.h"
#include "engine_error.h"

#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

namespace diamond::engine {

namespace pygen {

using nlohmann::json;

std::string pyInt(std::int64_t v) { return std::to_string(v); }

std::string pyFloat(double v) {
    if (std::isnan(v)) return "float(\"nan\")";
    if (std::isinf(v)) return v > 0 ? "float(\"inf\")" : "-float(\"inf\")";
    std::string text = json(v).dump(); // shortest text that reads back as the same double
    if (text.find_first_of(".eE") == std::string::npos) text += ".0";
    return text;
}

std::string pyBool(bool v) { return v ? "True" : "False"; }

std::string pyStr(const std::string &s) {
    return json(s).dump(-1, ' ', /*ensure_ascii=*/true, json::error_handler_t::replace);
}

namespace {

std::string joined(const std::vector<std::int64_t> &v) {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + pyInt(v[i]);
    return out;
}

const json &param(const PyLayerContext &ctx, const char *name) {
    if (ctx.params.is_object()) {
        const auto it = ctx.params.find(name);
        if (it != ctx.params.end() && !it->is_null()) return *it;
    }
    throw EngineError(ctx.type + " '" + ctx.nodeId + "': parameter '" + name + "' is missing.", {}, ctx.nodeId);
}

[[noreturn]] void badParam(const PyLayerContext &ctx, const char *name, const char *expected) {
    throw EngineError(ctx.type + " '" + ctx.nodeId + "': parameter '" + name + "' should be " + expected + ".", {},
                      ctx.nodeId);
}

} // namespace

std::string pyTuple(const std::vector<std::int64_t> &v) { return "(" + joined(v) + (v.size() == 1 ? ",)" : ")"); }

std::string pyList(const std::vector<std::int64_t> &v) { return "[" + joined(v) + "]"; }

bool hasParam(const PyLayerContext &ctx, const char *name) {
    if (!ctx.params.is_object()) return false;
    const auto it = ctx.params.find(name);
    return it != ctx.params.end() && !it->is_null();
}

std::int64_t intParam(const PyLayerContext &ctx, const char *name) {
    const json &v = param(ctx, name);
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_array() && v.size() == 1 && v[0].is_number_integer()) return v[0].get<std::int64_t>();
    badParam(ctx, name, "a whole number");
}

double floatParam(const PyLayerContext &ctx, const char *name) {
    const json &v = param(ctx, name);
    if (!v.is_number()) badParam(ctx, name, "a number");
    return v.get<double>();
}

bool boolParam(const PyLayerContext &ctx, const char *name) {
    const json &v = param(ctx, name);
    if (!v.is_boolean()) badParam(ctx, name, "true or false");
    return v.get<bool>();
}

std::string stringParam(const PyLayerContext &ctx, const char *name) {
    const json &v = param(ctx, name);
    if (!v.is_string()) badParam(ctx, name, "a string");
    return v.get<std::string>();
}

std::vector<std::int64_t> intListParam(const PyLayerContext &ctx, const char *name, std::size_t n) {
    const json &v = param(ctx, name);
    std::vector<std::int64_t> out;
    if (v.is_number_integer()) {
        out.push_back(v.get<std::int64_t>());
    } else if (v.is_array()) {
        for (const auto &e : v) {
            if (!e.is_number_integer()) badParam(ctx, name, "a list of whole numbers");
            out.push_back(e.get<std::int64_t>());
        }
    } else {
        badParam(ctx, name, "a whole number or a list of them");
    }
    if (n > 0 && out.size() == 1) out.assign(n, out[0]);
    if (n > 0 && out.size() != n) badParam(ctx, name, ("a list of " + std::to_string(n) + " values").c_str());
    return out;
}

std::int64_t inputDim(const PyLayerContext &ctx, std::size_t input, int axis) {
    if (input < ctx.inputs.size()) {
        const spec::Shape &shape = ctx.inputs[input].shape;
        const int rank = static_cast<int>(shape.size());
        const int a = axis < 0 ? axis + rank : axis;
        if (a >= 0 && a < rank && shape[static_cast<std::size_t>(a)] != spec::kBatch)
            return shape[static_cast<std::size_t>(a)];
    }
    throw EngineError(ctx.type + " '" + ctx.nodeId + "': input " + std::to_string(input + 1) +
                          " has no size at dimension " + std::to_string(axis) + ".",
                      {}, ctx.nodeId);
}

const PyLayerGeneratorMap &pythonLayerGenerators() {
    static const PyLayerGeneratorMap generators = [] {
        PyLayerGeneratorMap m;
        addPythonDenseGenerators(m);
        addPythonElementGenerators(m);
        addPythonSequenceGenerators(m);
        return m;
    }();
    return generators;
}

} // namespace pygen

namespace {

using namespace pygen;

/// Python keywords, names the generated code uses, and attributes of nn.ModuleDict (a module
/// key equal to one of them would be refused).
const char *const kReserved =
    "False None True and as assert async await break class continue def del elif else except finally for from "
    "global if import in is lambda nonlocal not or pass raise return try while with yield match case "
    "self layers torch nn F json math os struct sys warnings super "
    "T_destination add_module apply bfloat16 buffers children clear compile cpu cuda double dump_patches eval "
    "extra_repr float forward get_buffer get_extra_state get_parameter get_submodule half ipu items keys "
    "load_state_dict modules mtia named_buffers named_children named_modules named_parameters parameters pop "
    "register_backward_hook register_buffer register_forward_hook register_forward_pre_hook "
    "register_full_backward_hook register_full_backward_pre_hook register_load_state_dict_post_hook "
    "register_load_state_dict_pre_hook register_module register_parameter register_state_dict_post_hook "
    "register_state_dict_pre_hook requires_grad_ set_extra_state set_submodule share_memory state_dict to "
    "to_empty train training type update values xpu zero_grad";

/// Python identifiers for ids (which may hold dots, dashes, non-ASCII ...): unique and never
/// one of kReserved.
class Names {
public:
    Names() {
        std::istringstream words(kReserved);
        for (std::string w; words >> w;)
            taken_.insert(w);
    }

    std::string claim(const std::string &id) {
        std::string base;
        for (const char c : id) {
            const auto u = static_cast<unsigned char>(c);
            base += u < 128 && (std::isalnum(u) || c == '_') ? c : '_';
        }
        if (base.size() > 60) base.resize(60);
        if (base.empty() || base[0] == '_' || std::isdigit(static_cast<unsigned char>(base[0]))) base = "v" + base;
        std::string name = base;
        for (int i = 2; taken_.count(name); ++i)
            name = base + "_" + std::to_string(i);
        taken_.insert(name);
        return name;
    }

private:
    std::set<std::string> taken_;
};

std::string pyShape(const spec::Shape &shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + (shape[i] == spec::kBatch ? std::string("None") : pyInt(shape[i]));
    return out + "]";
}

std::string pyTypes(const std::vector<std::pair<std::string, const spec::TensorType *>> &items) {
    std::string out = "[\n";
    for (const auto &[name, t] : items) {
        out += "    {\"name\": " + pyStr(name) + ", \"shape\": " + (t ? pyShape(t->shape) : "None") +
               ", \"dtype\": " + (t ? pyStr(spec::dtypeName(t->dtype)) : "None") + "},\n";
    }
    return out + "]\n";
}

const char *kHeader = R"PY(#!/usr/bin/env python3
"""A Diamond network as a standalone PyTorch module (generated by diamond-train export).

Needs only Python 3 and PyTorch (written against torch 1.13); no Diamond and no safetensors
package. DiamondNet rebuilds the network of spec.json with torch.nn modules: each node's
parameters and buffers carry the same names and shapes as in Diamond ("<node id>.<torch name>"
in model.safetensors). Inputs and outputs are batch first; see INPUTS and OUTPUTS.

    python3 model.py [weights.safetensors]

loads the weights (default: model.safetensors next to this file), runs test_inputs.safetensors
through the network in evaluation mode and prints the largest absolute difference from
test_outputs.safetensors (the Diamond engine's outputs). Exit code 0 when it is at most
TOLERANCE, 1 otherwise.

From Python:

    from model import load_diamond_weights
    net = load_diamond_weights("model.safetensors")  # a DiamondNet in eval mode
    outputs = net(*inputs)  # one tensor per OUTPUTS entry (a tuple when there are several)
"""
import json
import math
import os
import struct
import sys
import warnings

import torch
from torch import nn

)PY";

const char *kReader = R"PY(
_DTYPES = {
    "F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
    "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8, "U8": torch.uint8,
    "BOOL": torch.bool,
}


def read_safetensors(path):
    """Returns ({name: tensor} in file order, {metadata key: value}) of a safetensors file."""
    if sys.byteorder != "little":
        raise RuntimeError("read_safetensors needs a little-endian machine")
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError(f"{path}: too short for a safetensors file")
    (size,) = struct.unpack("<Q", data[:8])
    if size > 100_000_000 or 8 + size > len(data):
        raise ValueError(f"{path}: invalid header length {size}")
    header = json.loads(data[8:8 + size].decode("utf-8"))
    metadata = header.pop("__metadata__", None) or {}
    body = memoryview(data)[8 + size:]
    tensors = {}
    for name, info in header.items():
        dtype = _DTYPES[info["dtype"]]
        shape = [int(d) for d in info["shape"]]
        begin, end = info["data_offsets"]
        count = math.prod(shape)
        if not 0 <= begin <= end <= len(body) or end - begin != count * torch.empty(0, dtype=dtype).element_size():
            raise ValueError(f"{path}: tensor {name!r} has invalid data_offsets {info['data_offsets']}")
        if count == 0:
            tensors[name] = torch.empty(shape, dtype=dtype)
        else:
            # The tensor owns (keeps alive) its own copy of the bytes.
            tensors[name] = torch.frombuffer(bytearray(body[begin:end]), dtype=dtype).reshape(shape)
    return tensors, metadata


def _lstm(module, x):
    """nn.LSTM's (out, (h_n, c_n)) as the Diamond ports (out, h_n, c_n)."""
    out, (h_n, c_n) = module(x)
    return out, h_n, c_n

)PY";

const char *kLoaderAndMain = R"PY(

def load_diamond_weights(path=None, model=None):
    """Loads Diamond weights into `model` (a new DiamondNet when None) and returns it in eval mode.

    `path` defaults to model.safetensors next to this file. Every parameter and buffer must be
    present with its shape, and the file may hold nothing else.
    """
    if path is None:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "model.safetensors")
    if model is None:
        model = DiamondNet()
    tensors, metadata = read_safetensors(path)
    spec_sha = metadata.get("diamond.spec_sha256")
    if spec_sha is not None and spec_sha != SPEC_SHA256:
        warnings.warn(f"{path} was exported from another spec (SHA-256 {spec_sha}, this file: {SPEC_SHA256})")
    targets = {}
    for key, module in model.layers.items():
        for name in module.state_dict():
            targets[NODE_IDS[key] + "." + name] = "layers." + key + "." + name
    missing = [name for name in targets if name not in tensors]
    unexpected = [name for name in tensors if name not in targets]
    if missing or unexpected:
        raise KeyError(f"{path} does not fit DiamondNet: missing {missing}, unexpected {unexpected}")
    model.load_state_dict({targets[name]: tensor for name, tensor in tensors.items()}, strict=True)
    return model.eval()


def _main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    model = load_diamond_weights(argv[1] if len(argv) > 1 else None)
    inputs, _ = read_safetensors(os.path.join(here, "test_inputs.safetensors"))
    expected, _ = read_safetensors(os.path.join(here, "test_outputs.safetensors"))
    # Without autograd, as the engine computed the expected outputs (torch picks the same kernels).
    with torch.no_grad():
        outputs = model(*[inputs[spec["name"]] for spec in INPUTS])
    if len(OUTPUTS) == 1:
        outputs = (outputs,)
    diffs = []
    for spec, out in zip(OUTPUTS, outputs):
        want = expected[spec["name"]]
        if tuple(out.shape) != tuple(want.shape):
            print(f"output {spec['name']}: shape {list(out.shape)}, expected {list(want.shape)}")
            return 1
        diff = (out.detach().double() - want.double()).abs().max().item() if out.numel() else 0.0
        print(f"output {spec['name']}: max |diff| {diff:.3e}")
        diffs.append(diff)
    worst = math.nan if any(math.isnan(d) for d in diffs) else max(diffs, default=0.0)
    print(f"max_abs_diff {worst:.6e}")
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
)PY";

} // namespace

std::string generatePythonModule(const Network &net, const PythonModuleInfo &info) {
    const spec::Spec &s = net.spec();
    const spec::Analysis &a = net.analysis();
    const auto &registry = spec::Registry::instance();
    const auto &generators = pythonLayerGenerators();

    Names names;
    std::map<std::string, std::string> var; // input name / node id -> Python name
    for (const auto &in : s.inputs)
        var[in.name] = names.claim(in.name);
    for (const auto &node : s.nodes)
        var[node.id] = names.claim(node.id);

    const auto portCount = [&](const std::string &id) -> std::size_t {
        const int index = s.nodeIndex(id);
        if (index < 0) return 1;
        const spec::LayerType *type = registry.find(s.nodes[static_cast<std::size_t>(index)].type);
        return type ? type->outputPorts.size() : 1;
    };
    const auto expr = [&](const spec::PortRef &ref) {
        const std::string &v = var.at(ref.node);
        if (portCount(ref.node) <= 1) return v;
        const int index = s.nodeIndex(ref.node);
        const spec::LayerType *type = registry.find(s.nodes[static_cast<std::size_t>(index)].type);
        return v + "[" + std::to_string(std::max(0, type->outputPortIndex(ref.port))) + "]";
    };

    // Nodes that feed an output run in forward(), in the analysis' topological order; every
    // node gets its module so that all exported weights load.
    std::set<std::string> needed;
    std::vector<std::string> stack;
    for (const auto &o : s.outputs)
        stack.push_back(o.from.node);
    while (!stack.empty()) {
        const std::string id = stack.back();
        stack.pop_back();
        const int index = s.nodeIndex(id);
        if (index < 0 || !needed.insert(id).second) continue;
        for (const auto &ref : s.nodes[static_cast<std::size_t>(index)].inputs)
            stack.push_back(ref.node);
    }

    std::map<std::string, PyLayer> layers;
    std::string init, nodeIds;
    for (const auto &node : s.nodes) {
        const spec::NodeInfo *nodeInfo = a.node(node.id);
        const auto gen = generators.find(node.type);
        if (!nodeInfo || gen == generators.end()) {
            throw EngineError("Node '" + node.id + "' has the layer type '" + node.type +
                                  "', which the Python export cannot generate.",
                              {}, node.id);
        }
        std::vector<spec::TensorType> inputs;
        std::vector<std::string> args;
        for (const auto &ref : node.inputs) {
            const spec::TensorType *t = a.portType(ref);
            if (!t) throw EngineError("Node '" + node.id + "': the type of input '" + ref.toString() + "' is unknown.");
            inputs.push_back(*t);
            args.push_back(expr(ref));
        }
        const std::string &key = var.at(node.id);
        const std::string module = "layers[" + pyStr(key) + "]";
        const PyLayerContext ctx{node.id, node.type, nodeInfo->params, inputs, args, module};
        PyLayer layer = gen->second(ctx);
        if (!layer.module.empty()) {
            if (key != node.id) init += "        # node " + pyStr(node.id) + "\n";
            init += "        " + module + " = " + layer.module + "\n";
            nodeIds += "    " + pyStr(key) + ": " + pyStr(node.id) + ",\n";
        }
        layers[node.id] = std::move(layer);
    }

    std::string forwardArgs, body;
    for (const auto &in : s.inputs)
        forwardArgs += ", " + var.at(in.name);
    bool usesLayers = false;
    for (const auto &nodeInfo : a.nodes) {
        if (!needed.count(nodeInfo.id) || s.nodeIndex(nodeInfo.id) < 0) continue;
        const PyLayer &layer = layers.at(nodeInfo.id);
        usesLayers = usesLayers || layer.expr.find("layers[") != std::string::npos;
        body += "        " + var.at(nodeInfo.id) + " = " + layer.expr + "  # " + nodeInfo.type + "\n";
    }
    std::string returned;
    for (std::size_t i = 0; i < s.outputs.size(); ++i)
        returned += (i ? ", " : "") + expr(s.outputs[i].from);

    std::vector<std::pair<std::string, const spec::TensorType *>> inputTypes, outputTypes;
    for (const auto &in : s.inputs)
        inputTypes.emplace_back(in.name, a.portType(spec::PortRef{in.name, {}}));
    for (const auto &o : s.outputs)
        outputTypes.emplace_back(o.name, a.portType(o.from));

    std::ostringstream py;
    py << kHeader;
    py << "# Exported by Diamond " << info.engineVersion << ".\n";
    py << "SPEC_NAME = " << pyStr(s.name) << "\n";
    py << "SPEC_SHA256 = " << pyStr(info.specSha256) << "\n";
    py << "TOLERANCE = " << pyFloat(info.tolerance) << "\n";
    py << "# Graph inputs, in forward() argument order; None marks the batch dimension.\n";
    py << "INPUTS = " << pyTypes(inputTypes);
    py << "# Graph outputs, in the order forward() returns them.\n";
    py << "OUTPUTS = " << pyTypes(outputTypes);
    py << "# Diamond node id of each module in DiamondNet.layers.\n";
    py << "NODE_IDS = {\n" << nodeIds << "}\n";
    py << kReader << "\n";
    py << "class DiamondNet(nn.Module):\n";
    py << "    \"\"\"The network of spec.json; forward() takes INPUTS and returns OUTPUTS, batch first.\"\"\"\n\n";
    py << "    def __init__(self):\n";
    py << "        super().__init__()\n";
    py << "        layers = self.layers = nn.ModuleDict()\n";
    py << init << "\n";
    py << "    def forward(self" << forwardArgs << "):\n";
    if (usesLayers) py << "        layers = self.layers\n";
    py << body;
    py << "        return " << returned << "\n";
    py << kLoaderAndMain;
    return py.str();
}

} // namespace diamond::engine
