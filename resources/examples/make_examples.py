#!/usr/bin/env python3
"""Writes the runnable examples: one folder per example with spec.json (diamond.spec/1) and
run.json (diamond.run/1). Deterministic; run with /usr/bin/python3 after changing it."""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


def chain(name, description, input_decl, layers, output="logits"):
    nodes, layout = [], {input_decl["name"]: {"x": 0, "y": 0}}
    prev = input_decl["name"]
    for i, (node_id, node_type, params) in enumerate(layers):
        node = {"id": node_id, "type": node_type, "inputs": [prev]}
        if params:
            node["params"] = params
        nodes.append(node)
        layout[node_id] = {"x": 0, "y": 100 * (i + 1)}
        prev = node_id
    return {
        "format": "diamond.spec/1",
        "name": name,
        "description": description,
        "inputs": [input_decl],
        "nodes": nodes,
        "outputs": [{"name": output, "from": prev}],
        "layout": layout,
    }


def run(data, **fields):
    config = {"format": "diamond.run/1", "data": data, "seed": 1}
    config.update(fields)
    return config


EXAMPLES = {
    "spirals": (
        chain("Spirals classifier", "Three interleaved spirals; an MLP learns to tell the arms apart.",
              {"name": "x", "shape": ["N", 2], "dtype": "float32", "axes": ["batch", "feature"]},
              [("fc1", "Linear", {"out_features": 64}), ("relu1", "ReLU", None),
               ("fc2", "Linear", {"out_features": 64}), ("relu2", "ReLU", None),
               ("fc3", "Linear", {"out_features": 3})]),
        run({"source": "spirals", "samples": 3000, "arms": 3, "validation_split": 0.2},
            batch_size=32, epochs=20, optimizer={"name": "adam", "lr": 0.01},
            metrics=["accuracy"], checkpoint={"every_steps": 500, "keep_last": 2}),
    ),
    "shapes_mlp": (
        chain("Shapes MLP (digits-style)", "Classifies 28x28 drawings of circles, squares, triangles and crosses "
              "with a plain multilayer perceptron, like the classic MNIST digits MLP.",
              {"name": "image", "shape": ["N", 1, 28, 28], "dtype": "float32",
               "axes": ["batch", "channel", "height", "width"]},
              [("flatten", "Flatten", None), ("fc1", "Linear", {"out_features": 128}), ("relu1", "ReLU", None),
               ("fc2", "Linear", {"out_features": 64}), ("relu2", "ReLU", None),
               ("fc3", "Linear", {"out_features": 4})]),
        run({"source": "shapes", "samples": 2000, "size": 28, "validation_split": 0.2},
            batch_size=64, epochs=10, optimizer={"name": "adam", "lr": 0.001}, metrics=["accuracy"]),
    ),
    "shapes_cnn": (
        chain("Shapes CNN", "A small convolutional network on 28x28 synthetic shape images.",
              {"name": "image", "shape": ["N", 1, 28, 28], "dtype": "float32",
               "axes": ["batch", "channel", "height", "width"]},
              [("conv1", "Conv2d", {"out_channels": 16, "kernel_size": 3, "padding": 1}), ("relu1", "ReLU", None),
               ("pool1", "MaxPool2d", {"kernel_size": 2}),
               ("conv2", "Conv2d", {"out_channels": 32, "kernel_size": 3, "padding": 1}), ("relu2", "ReLU", None),
               ("pool2", "MaxPool2d", {"kernel_size": 2}), ("flatten", "Flatten", None),
               ("fc1", "Linear", {"out_features": 64}), ("relu3", "ReLU", None),
               ("fc2", "Linear", {"out_features": 4})]),
        run({"source": "shapes", "samples": 2000, "size": 28, "validation_split": 0.2},
            batch_size=64, epochs=5, optimizer={"name": "sgd", "lr": 0.05, "momentum": 0.9}, metrics=["accuracy"]),
    ),
    "sine_regression": (
        chain("Sine regression", "Fits y = sin(x) from noisy samples: a regression task.",
              {"name": "x", "shape": ["N", 1], "dtype": "float32", "axes": ["batch", "feature"]},
              [("fc1", "Linear", {"out_features": 64}), ("tanh1", "Tanh", None),
               ("fc2", "Linear", {"out_features": 64}), ("tanh2", "Tanh", None),
               ("fc3", "Linear", {"out_features": 1})], output="prediction"),
        run({"source": "sine", "samples": 1000, "noise": 0.1, "validation_split": 0.2},
            batch_size=32, epochs=40, optimizer={"name": "adam", "lr": 0.005},
            schedule={"name": "cosine"}, metrics=["mae", "rmse", "r2"]),
    ),
}


def main():
    for name, (spec, config) in EXAMPLES.items():
        folder = HERE / name
        folder.mkdir(exist_ok=True)
        for file, doc in (("spec.json", spec), ("run.json", config)):
            (folder / file).write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
