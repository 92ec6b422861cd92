#!/usr/bin/python3
"""Checks the built-in templates against real PyTorch.

For every *.json template next to this file: builds the network with torch.nn straight from the
JSON (a small interpreter; input-size arguments are inferred from the running tensor shapes on
the first forward pass, like torch's Lazy modules; batch_first=True everywhere), runs a forward
pass on zeros with batch 2, prints the trainable parameter count and the output shapes, and
asserts them against EXPECTED below. It also checks the documents' conventions: no input-size
argument written, no parameter equal to PyTorch's default, every node and input laid out, and
the file text equal to generate_templates.py's output.

    /usr/bin/python3 resources/templates/check_templates_torch.py [template.json ...]

Exit status 0 when every check passes.
"""

import glob
import inspect
import json
import os
import sys

import torch
import torch.nn as nn

# file -> (trainable parameters, {output name: shape with N for the batch dim})
EXPECTED = {
    "mlp.json": (4547, {"logits": ["N", 3]}),
    "lenet5.json": (61706, {"logits": ["N", 10]}),
    "cnn28.json": (225034, {"logits": ["N", 10]}),
    "resnet18.json": (11689512, {"logits": ["N", 1000]}),   # == torchvision.models.resnet18()
    "unet.json": (482466, {"logits": ["N", 2, 64, 64]}),
    "transformer_classifier.json": (393476, {"logits": ["N", 4]}),
    "lstm_regressor.json": (55425, {"prediction": ["N", 1]}),
}

BATCH = 2
HERE = os.path.dirname(os.path.abspath(__file__))

DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32, "bool": torch.bool}

# Input-size arguments: never written in a template, inferred here from the input shape.
INFERRED = {"in_features", "in_channels", "num_features", "input_size", "embed_dim", "d_model",
            "normalized_shape", "num_channels"}


def _cls(name):
    return getattr(nn, name)


# Layer type -> function(params, input tensors) -> nn.Module, given the first input's shape.
def _linear(p, xs):
    return nn.Linear(xs[0].shape[-1], **p)


def _conv(name):
    return lambda p, xs: _cls(name)(xs[0].shape[1], **p)


def _norm(name):
    return lambda p, xs: _cls(name)(xs[0].shape[1], **p)


def _layernorm(p, xs):
    return nn.LayerNorm(xs[0].shape[-1], **p)


def _groupnorm(p, xs):
    p = dict(p)
    return nn.GroupNorm(p.pop("num_groups"), xs[0].shape[1], **p)


def _rnn(name):
    return lambda p, xs: _cls(name)(xs[0].shape[-1], batch_first=True, **p)


def _mha(p, xs):
    return nn.MultiheadAttention(xs[0].shape[-1], batch_first=True, **p)


def _tel(p, xs):
    return nn.TransformerEncoderLayer(xs[0].shape[-1], batch_first=True, **p)


def _plain(name):
    return lambda p, xs: _cls(name)(**p)


class Reshape(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self.shape = list(shape)

    def forward(self, x):
        return x.reshape([x.shape[0]] + self.shape)


class Permute(nn.Module):
    def __init__(self, dims):
        super().__init__()
        assert dims[0] == 0, "Permute must keep the batch dim at 0"
        self.dims = list(dims)

    def forward(self, x):
        return x.permute(self.dims)


class Add(nn.Module):
    def forward(self, *xs):
        out = xs[0]
        for x in xs[1:]:
            out = out + x
        return out


class Multiply(nn.Module):
    def forward(self, *xs):
        out = xs[0]
        for x in xs[1:]:
            out = out * x
        return out


class Concat(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, *xs):
        return torch.cat(xs, dim=self.dim)


BUILDERS = {
    "Linear": _linear,
    "Conv1d": _conv("Conv1d"), "Conv2d": _conv("Conv2d"), "Conv3d": _conv("Conv3d"),
    "ConvTranspose2d": _conv("ConvTranspose2d"),
    "BatchNorm1d": _norm("BatchNorm1d"), "BatchNorm2d": _norm("BatchNorm2d"),
    "LayerNorm": _layernorm, "GroupNorm": _groupnorm,
    "LSTM": _rnn("LSTM"), "GRU": _rnn("GRU"),
    "MultiheadAttention": _mha, "TransformerEncoderLayer": _tel,
    "Reshape": lambda p, xs: Reshape(**p), "Permute": lambda p, xs: Permute(**p),
    "Add": lambda p, xs: Add(), "Multiply": lambda p, xs: Multiply(),
    "Concat": lambda p, xs: Concat(**p),
}
for _n in ["MaxPool1d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Dropout", "ReLU", "ReLU6",
           "LeakyReLU", "GELU", "SiLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Flatten",
           "Embedding", "Upsample", "Identity"]:
    BUILDERS[_n] = _plain(_n)

# The torch class whose constructor defines the parameter names and defaults of a layer type.
TORCH_CLASS = {"Reshape": None, "Permute": None, "Add": None, "Multiply": None, "Concat": None}
# nn.LSTM / nn.GRU take *args/**kwargs; their documented constructor arguments and defaults.
RNN_ARGS = {"hidden_size": inspect.Parameter.empty, "num_layers": 1, "bias": True, "dropout": 0.0,
            "bidirectional": False, "proj_size": 0}
# Parameters without a PyTorch default of their own, with the spec's meaning.
REQUIRED_ELSEWHERE = {"Reshape": {"shape"}, "Permute": {"dims"}, "Concat": {"dim"}}


def convention_errors(node):
    """Parameters that name an input-size argument, are unknown, or equal PyTorch's default."""
    errs = []
    t, params = node["type"], node.get("params", {})
    if "params" in node and not params:
        errs.append("%s: empty params object (omit it)" % node["id"])
    cls = TORCH_CLASS.get(t, getattr(nn, t, None))
    for k, v in params.items():
        if k in INFERRED:
            errs.append("%s: input-size argument %r must not be written" % (node["id"], k))
            continue
        if cls is None:
            if k not in REQUIRED_ELSEWHERE.get(t, set()):
                errs.append("%s: unknown parameter %r for %s" % (node["id"], k, t))
            continue
        if t in ("LSTM", "GRU"):
            sig = {a: inspect.Parameter(a, inspect.Parameter.KEYWORD_ONLY, default=d)
                   for a, d in RNN_ARGS.items() if not (t == "GRU" and a == "proj_size")}
        else:
            sig = inspect.signature(cls.__init__).parameters
        if k not in sig:
            errs.append("%s: %s has no parameter %r" % (node["id"], t, k))
        elif sig[k].default is not inspect.Parameter.empty and sig[k].default == v \
                and type(sig[k].default) == type(v):
            errs.append("%s: %s=%r equals PyTorch's default (omit it)" % (node["id"], k, v))
    return errs


class SpecNet(nn.Module):
    """Interprets a diamond.spec/1 document; modules are created on the first forward pass."""

    def __init__(self, doc):
        super().__init__()
        self.doc = doc
        self.layers = nn.ModuleDict()
        self.ids = {n["id"]: n for n in doc["nodes"]}

    def forward(self, inputs):
        values = dict(inputs)  # "name" or "id:port" -> tensor
        pending = list(self.doc["nodes"])
        while pending:  # evaluate in dependency order, whatever the listed order
            progressed = False
            for node in list(pending):
                refs = node["inputs"]
                if not all(self._lookup(values, r) is not None for r in refs):
                    continue
                xs = [self._lookup(values, r) for r in refs]
                self._run(node, xs, values)
                pending.remove(node)
                progressed = True
            if not progressed:
                raise RuntimeError("unresolvable inputs (cycle or unknown id): %s"
                                   % [n["id"] for n in pending])
        return {o["name"]: self._lookup(values, o["from"]) for o in self.doc["outputs"]}

    @staticmethod
    def _lookup(values, ref):
        if ref in values:
            return values[ref]
        node, _, port = ref.partition(":")
        if port:
            return values.get(node + ":" + port)
        return None

    def _run(self, node, xs, values):
        key = node["id"].replace(".", "_")
        t = node["type"]
        if key not in self.layers:
            mod = BUILDERS[t](node.get("params", {}), xs)
            mod.eval()
            self.layers[key] = mod
        mod = self.layers[key]
        if t in ("LSTM", "GRU"):
            out, h = mod(xs[0])
            ports = {"out": out}
            if t == "LSTM":
                ports["h_n"], ports["c_n"] = h
            else:
                ports["h_n"] = h
        elif t == "MultiheadAttention":
            q = xs[0]
            k = xs[1] if len(xs) > 1 else q
            v = xs[2] if len(xs) > 2 else k
            out, w = mod(q, k, v)
            ports = {"out": out, "weights": w}
        else:
            ports = {"out": mod(*xs)}
        values[node["id"]] = ports["out"]
        for port, tensor in ports.items():
            values[node["id"] + ":" + port] = tensor


class _BasicBlock(nn.Module):
    """torchvision.models.resnet.BasicBlock (torchvision is not a dependency of this check)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))


def torchvision_resnet18():
    """Module tree of torchvision.models.resnet18(num_classes=1000), same names and shapes."""
    m = nn.Module()
    m.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
    m.bn1 = nn.BatchNorm2d(64)
    cin = 64
    for i, (c, s) in enumerate([(64, 1), (128, 2), (256, 2), (512, 2)], start=1):
        setattr(m, "layer%d" % i, nn.Sequential(_BasicBlock(cin, c, s), _BasicBlock(c, c, 1)))
        cin = c
    m.fc = nn.Linear(512, 1000)
    return m


def state_shapes(net):
    """Our state_dict with node ids restored ("layers.layer1_0_conv1.weight" -> "layer1.0.conv1.weight")."""
    out = {}
    for k, v in net.state_dict().items():
        module, _, leaf = k[len("layers."):].rpartition(".")
        out[module.replace("_", ".") + "." + leaf] = tuple(v.shape)
    return out


# Templates that must match a reference torch model tensor for tensor (names and shapes), so
# that the reference's pretrained state_dict loads into them.
REFERENCE = {"resnet18.json": torchvision_resnet18}


def check(path, generated):
    name = os.path.basename(path)
    errors = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text)
    if doc.get("format") != "diamond.spec/1":
        errors.append("format is %r" % doc.get("format"))
    if name in generated and generated[name] != text:
        errors.append("file differs from generate_templates.py output (rerun the generator)")
    for node in doc["nodes"]:
        if node["type"] not in BUILDERS:
            errors.append("%s: layer type %s not covered by this checker" % (node["id"], node["type"]))
        errors += convention_errors(node)
    names = [i["name"] for i in doc["inputs"]] + [n["id"] for n in doc["nodes"]]
    if len(set(names)) != len(names):
        errors.append("duplicate ids")
    layout = doc.get("layout", {})
    missing = [n for n in names if n not in layout]
    if missing:
        errors.append("layout lacks %s" % missing)
    spots = [(v["x"], v["y"]) for v in layout.values()]
    if len(set(spots)) != len(spots):
        errors.append("two layout entries share a position")
    if any(n["type"] not in BUILDERS for n in doc["nodes"]):
        return name, None, None, errors

    inputs = {}
    for decl in doc["inputs"]:
        shape = [BATCH if d == "N" else d for d in decl["shape"]]
        inputs[decl["name"]] = torch.zeros(shape, dtype=DTYPES[decl.get("dtype", "float32")])
    net = SpecNet(doc)
    torch.manual_seed(0)
    try:
        with torch.no_grad():
            outs = net(inputs)
    except Exception as e:  # a bad parameter or shape: report it like any other failure
        return name, None, None, errors + ["forward pass failed: %s: %s" % (type(e).__name__, e)]
    params = sum(p.numel() for p in net.parameters() if p.requires_grad)
    shapes = {k: ["N"] + list(v.shape[1:]) if v.shape[0] == BATCH else list(v.shape)
              for k, v in outs.items()}
    if name not in EXPECTED:
        errors.append("no expected values for this template in EXPECTED")
    else:
        exp_params, exp_shapes = EXPECTED[name]
        if params != exp_params:
            errors.append("parameters %d, expected %d" % (params, exp_params))
        if shapes != exp_shapes:
            errors.append("outputs %s, expected %s" % (shapes, exp_shapes))
    if name in REFERENCE:
        ref = {k: tuple(v.shape) for k, v in REFERENCE[name]().state_dict().items()}
        ours = state_shapes(net)
        if ours != ref:
            diff = sorted(set(ours.items()) ^ set(ref.items()))[:6]
            errors.append("state_dict differs from the reference model: %s" % diff)
    for k, v in outs.items():
        if not torch.isfinite(v.float()).all():
            errors.append("output %s has non-finite values" % k)
    return name, params, shapes, errors


def main(argv):
    sys.path.insert(0, HERE)
    import generate_templates
    generated = {n: generate_templates.render(fn()) for n, fn in generate_templates.TEMPLATES.items()}
    paths = argv[1:] or sorted(glob.glob(os.path.join(HERE, "*.json")))
    failed = 0
    seen = set()
    print("torch", torch.__version__)
    for path in paths:
        name, params, shapes, errors = check(path, generated)
        seen.add(name)
        fmt = "{:<30} {:>12}  {}".format(name, "-" if params is None else "{:,}".format(params),
                                        "" if shapes is None else
                                        ", ".join("%s %s" % (k, v) for k, v in shapes.items()))
        print(("ok    " if not errors else "FAIL  ") + fmt)
        for e in errors:
            print("      - " + e)
        failed += bool(errors)
    if not argv[1:]:
        for name in sorted(set(EXPECTED) - seen):
            print("FAIL  %s: expected template is missing" % name)
            failed += 1
    print("%d template(s) failed" % failed if failed else "all templates passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
