#!/usr/bin/python3
"""Writes the built-in network templates (diamond.spec/1) into this folder.

Standard library only. Deterministic: run it again and the JSON files come out byte for byte
the same (2-space indent, sorted keys, trailing newline).

    /usr/bin/python3 resources/templates/generate_templates.py

Parameter counts are checked against PyTorch by check_templates_torch.py next to this file.
Conventions: input-size arguments (in_features, in_channels, num_features, input_size,
embed_dim, d_model) are never written, and a parameter equal to PyTorch's default is omitted.
"""

import json
import os

FORMAT = "diamond.spec/1"
ROW = 100     # vertical distance between nodes in the designer layout
BRANCH = 220  # horizontal offset of a side branch


class Builder:
    """Collects inputs, nodes and layout positions for one template."""

    def __init__(self, name, description):
        self.name = name
        self.description = description
        self.inputs = []
        self.nodes = []
        self.outputs = []
        self.layout = {}
        self.row = 0  # next free row of the main column

    def _place(self, ident, x, y):
        if ident in self.layout:
            raise ValueError("duplicate id " + ident)
        if y is None:
            y = self.row * ROW
            self.row += 1
        self.layout[ident] = {"x": x, "y": y}
        return y

    def input(self, name, shape, axes, dtype="float32"):
        self.inputs.append({"name": name, "shape": list(shape), "dtype": dtype, "axes": list(axes)})
        self._place(name, 0, None)
        return name

    def node(self, ident, type_, inputs, params=None, x=0, y=None):
        """Adds a node. Main-column nodes (y None) take the next row; branch nodes give x and y."""
        if isinstance(inputs, str):
            inputs = [inputs]
        n = {"id": ident, "type": type_, "inputs": list(inputs)}
        if params:
            n["params"] = dict(params)
        self.nodes.append(n)
        self._place(ident, x, y)
        return ident

    def next_y(self):
        return self.row * ROW

    def output(self, name, src):
        self.outputs.append({"name": name, "from": src})

    def doc(self):
        return {
            "format": FORMAT,
            "name": self.name,
            "description": self.description,
            "inputs": self.inputs,
            "nodes": self.nodes,
            "outputs": self.outputs,
            "layout": self.layout,
        }


# --------------------------------------------------------------------------------------------
# Templates


def mlp():
    b = Builder("MLP (2 -> 64 -> 64 -> 3)",
                "Multilayer perceptron: 2 input features, two hidden layers of 64 with ReLU, 3 class logits.")
    x = b.input("x", ["N", 2], ["batch", "feature"])
    h = b.node("fc1", "Linear", x, {"out_features": 64})
    h = b.node("relu1", "ReLU", h)
    h = b.node("fc2", "Linear", h, {"out_features": 64})
    h = b.node("relu2", "ReLU", h)
    h = b.node("fc3", "Linear", h, {"out_features": 3})
    b.output("logits", h)
    return b.doc()


def lenet5():
    b = Builder("LeNet-5",
                "Classic LeNet-5 for 32x32 grey images: two 5x5 convolutions with tanh and average "
                "pooling, then 120-84-10 fully connected.")
    x = b.input("image", ["N", 1, 32, 32], ["batch", "channel", "height", "width"])
    h = b.node("conv1", "Conv2d", x, {"out_channels": 6, "kernel_size": 5})      # 6x28x28
    h = b.node("tanh1", "Tanh", h)
    h = b.node("pool1", "AvgPool2d", h, {"kernel_size": 2})                       # 6x14x14
    h = b.node("conv2", "Conv2d", h, {"out_channels": 16, "kernel_size": 5})     # 16x10x10
    h = b.node("tanh2", "Tanh", h)
    h = b.node("pool2", "AvgPool2d", h, {"kernel_size": 2})                       # 16x5x5
    h = b.node("flatten", "Flatten", h)                                           # 400
    h = b.node("fc1", "Linear", h, {"out_features": 120})
    h = b.node("tanh3", "Tanh", h)
    h = b.node("fc2", "Linear", h, {"out_features": 84})
    h = b.node("tanh4", "Tanh", h)
    h = b.node("fc3", "Linear", h, {"out_features": 10})
    b.output("logits", h)
    return b.doc()


def cnn28():
    b = Builder("Small CNN (28x28)",
                "Two 3x3 conv + ReLU + max-pool stages (32, 64 channels), then a 128-unit hidden "
                "layer and 10 class logits; suits MNIST-sized images.")
    x = b.input("image", ["N", 1, 28, 28], ["batch", "channel", "height", "width"])
    h = b.node("conv1", "Conv2d", x, {"out_channels": 32, "kernel_size": 3})     # 32x26x26
    h = b.node("relu1", "ReLU", h)
    h = b.node("pool1", "MaxPool2d", h, {"kernel_size": 2})                       # 32x13x13
    h = b.node("conv2", "Conv2d", h, {"out_channels": 64, "kernel_size": 3})     # 64x11x11
    h = b.node("relu2", "ReLU", h)
    h = b.node("pool2", "MaxPool2d", h, {"kernel_size": 2})                       # 64x5x5
    h = b.node("flatten", "Flatten", h)                                           # 1600
    h = b.node("fc1", "Linear", h, {"out_features": 128})
    h = b.node("relu3", "ReLU", h)
    h = b.node("fc2", "Linear", h, {"out_features": 10})
    b.output("logits", h)
    return b.doc()


def resnet18():
    b = Builder("ResNet-18",
                "torchvision's ResNet-18 (BasicBlocks, 1000 classes) for 224x224 RGB images, "
                "every layer written out; 11,689,512 parameters.")
    x = b.input("image", ["N", 3, 224, 224], ["batch", "channel", "height", "width"])
    h = b.node("conv1", "Conv2d", x, {"out_channels": 64, "kernel_size": 7, "stride": 2, "padding": 3,
                                      "bias": False})
    h = b.node("bn1", "BatchNorm2d", h)
    h = b.node("relu", "ReLU", h)
    h = b.node("maxpool", "MaxPool2d", h, {"kernel_size": 3, "stride": 2, "padding": 1})
    in_ch = 64
    for layer, (ch, first_stride) in enumerate([(64, 1), (128, 2), (256, 2), (512, 2)], start=1):
        for block in range(2):
            p = "layer%d.%d." % (layer, block)
            stride = first_stride if block == 0 else 1
            identity = h
            top = b.next_y()
            conv1 = {"out_channels": ch, "kernel_size": 3, "padding": 1, "bias": False}
            if stride != 1:
                conv1["stride"] = stride
            h = b.node(p + "conv1", "Conv2d", h, conv1)
            h = b.node(p + "bn1", "BatchNorm2d", h)
            h = b.node(p + "relu1", "ReLU", h)
            h = b.node(p + "conv2", "Conv2d", h, {"out_channels": ch, "kernel_size": 3, "padding": 1,
                                                  "bias": False})
            h = b.node(p + "bn2", "BatchNorm2d", h)
            if stride != 1 or in_ch != ch:
                # torchvision: downsample = Sequential(conv1x1(stride), BatchNorm2d)
                s = b.node(p + "downsample.0", "Conv2d", identity,
                           {"out_channels": ch, "kernel_size": 1, "stride": stride, "bias": False},
                           x=BRANCH, y=top)
                identity = b.node(p + "downsample.1", "BatchNorm2d", s, x=BRANCH, y=top + ROW)
            h = b.node(p + "add", "Add", [h, identity])
            h = b.node(p + "relu2", "ReLU", h)
            in_ch = ch
    h = b.node("avgpool", "AdaptiveAvgPool2d", h, {"output_size": 1})
    h = b.node("flatten", "Flatten", h)
    h = b.node("fc", "Linear", h, {"out_features": 1000})
    b.output("logits", h)
    return b.doc()


def unet():
    b = Builder("U-Net (small)",
                "U-Net-style segmentation net for 64x64 grey images: 3 encoder levels (16, 32, 64 "
                "channels) and a 128-channel bottleneck, transposed-conv upsampling, concatenated "
                "skips, 2 class logits per pixel.")
    x = b.input("image", ["N", 1, 64, 64], ["batch", "channel", "height", "width"])

    def double_conv(prefix, src, ch):
        h = src
        for i in (1, 2):
            h = b.node("%s.conv%d" % (prefix, i), "Conv2d", h,
                       {"out_channels": ch, "kernel_size": 3, "padding": 1, "bias": False})
            h = b.node("%s.bn%d" % (prefix, i), "BatchNorm2d", h)
            h = b.node("%s.relu%d" % (prefix, i), "ReLU", h)
        return h

    skips = []
    h = x
    for level, ch in enumerate([16, 32, 64], start=1):
        h = double_conv("enc%d" % level, h, ch)
        skips.append(h)
        h = b.node("pool%d" % level, "MaxPool2d", h, {"kernel_size": 2})
    h = double_conv("bottleneck", h, 128)                                           # 128x8x8
    for level, ch in [(3, 64), (2, 32), (1, 16)]:
        h = b.node("up%d" % level, "ConvTranspose2d", h, {"out_channels": ch, "kernel_size": 2, "stride": 2})
        h = b.node("cat%d" % level, "Concat", [h, skips[level - 1]], {"dim": 1})
        h = double_conv("dec%d" % level, h, ch)
    h = b.node("head", "Conv2d", h, {"out_channels": 2, "kernel_size": 1})
    b.output("logits", h)
    return b.doc()


def transformer_classifier():
    b = Builder("Transformer classifier",
                "Sequence classifier for 64 token ids (vocabulary 1000): 128-d embedding, two "
                "Transformer encoder layers (4 heads), mean over the sequence, 4 class logits.")
    x = b.input("tokens", ["N", 64], ["batch", "time"], dtype="int64")
    h = b.node("embed", "Embedding", x, {"num_embeddings": 1000, "embedding_dim": 128})  # N,64,128
    h = b.node("encoder1", "TransformerEncoderLayer", h, {"nhead": 4, "dim_feedforward": 256})
    h = b.node("encoder2", "TransformerEncoderLayer", h, {"nhead": 4, "dim_feedforward": 256})
    # Mean over the sequence: [N,64,128] -> [N,128,64] -> [N,128,64,1] -> pool -> [N,128,1,1].
    h = b.node("to_channels", "Permute", h, {"dims": [0, 2, 1]})
    h = b.node("to_image", "Reshape", h, {"shape": [128, 64, 1]})
    h = b.node("mean", "AdaptiveAvgPool2d", h, {"output_size": 1})
    h = b.node("flatten", "Flatten", h)                                                   # N,128
    h = b.node("fc", "Linear", h, {"out_features": 4})
    b.output("logits", h)
    return b.doc()


def lstm_regressor():
    b = Builder("LSTM regressor",
                "Two-layer LSTM (hidden 64) over 50 time steps of 8 features; the whole output "
                "sequence is flattened into one regression value.")
    x = b.input("series", ["N", 50, 8], ["batch", "time", "feature"])
    h = b.node("lstm", "LSTM", x, {"hidden_size": 64, "num_layers": 2})
    h = b.node("flatten", "Flatten", "lstm:out")                                          # N,3200
    h = b.node("fc", "Linear", h, {"out_features": 1})
    b.output("prediction", h)
    return b.doc()


TEMPLATES = {
    "mlp.json": mlp,
    "lenet5.json": lenet5,
    "cnn28.json": cnn28,
    "resnet18.json": resnet18,
    "unet.json": unet,
    "transformer_classifier.json": transformer_classifier,
    "lstm_regressor.json": lstm_regressor,
}


def render(doc):
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for file_name in sorted(TEMPLATES):
        text = render(TEMPLATES[file_name]())
        path = os.path.join(here, file_name)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
