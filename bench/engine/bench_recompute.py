#!/usr/bin/env python3
"""Activation checkpointing benchmark: diamond-train's engine against PyTorch-Python, side by side.

For the transformer and U-Net templates, one training step (forward + backward, no optimizer), 2 threads:
  - the engine (bench_recompute, in process) with "recompute": "none" and "all": median step time, the tensor bytes
    held between forward and backward, and the step's peak tensor bytes;
  - PyTorch eager (the template interpreted by resources/templates/check_templates_torch.py's SpecNet), plain and with
    torch.utils.checkpoint around each block (consecutive nodes whose ids share the prefix before the first dot:
    each encoder layer of the transformer, each conv block of the U-Net): median step time and the bytes the forward
    pass allocated and still holds when it ends (the profiler's memory events).
Each side interleaves its two modes' steps. Reports each one's recompute cost (step time ratio) and memory cut, and the
engine/PyTorch step time ratios.

  /usr/bin/python3 bench/engine/bench_recompute.py --bench build/bench/bench_recompute [--steps 20] [--json out.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.utils.checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "resources", "templates"))
import check_templates_torch as tt  # noqa: E402

CASES = [("transformer_classifier.json", 64), ("unet.json", 16)]


def batch_for(doc, batch):
    decl = doc["inputs"][0]
    shape = [batch if d == "N" else d for d in decl["shape"]]
    if decl.get("dtype") == "int64":
        return torch.randint(0, 1000, shape)
    return torch.randn(shape)


class CheckpointedNet(tt.SpecNet):
    """SpecNet whose blocks (consecutive nodes sharing an id prefix) run under torch.utils.checkpoint."""

    def blocks(self):
        groups, current, prefix = [], [], None
        for node in self.doc["nodes"]:
            p = node["id"].split(".")[0]
            if current and p != prefix:
                groups.append(current)
                current = []
            current.append(node)
            prefix = p
        if current:
            groups.append(current)
        return groups

    def forward(self, inputs):
        values = dict(inputs)
        groups = self.blocks()
        later = {}  # node id -> index of the last group reading it
        for gi, group in enumerate(groups):
            for node in group:
                for r in node["inputs"]:
                    later[r.split(":")[0]] = gi
        for o in self.doc["outputs"]:
            later[o["from"].split(":")[0]] = len(groups)
        for gi, group in enumerate(groups):
            ids = {n["id"] for n in group}
            refs = sorted({r for n in group for r in n["inputs"] if r.split(":")[0] not in ids})
            outs = [n["id"] for n in group if later.get(n["id"], -1) > gi]

            def run(*xs, group=group, refs=refs, outs=outs):
                local = dict(zip(refs, xs))
                for node in group:
                    self._run(node, [self._lookup(local, r) for r in node["inputs"]], local)
                return tuple(local[o] for o in outs)

            xs = [self._lookup(values, r) for r in refs]
            results = torch.utils.checkpoint.checkpoint(run, *xs, use_reentrant=False)
            values.update(zip(outs, results))
        return {o["name"]: self._lookup(values, o["from"]) for o in self.doc["outputs"]}


def held_bytes(net, x, name):
    """Bytes allocated in the forward pass and still held when it ends (what backward keeps, and the output), from
    the profiler's memory events: every allocation and free inside an op or between ops."""
    with torch.autograd.profiler.profile(profile_memory=True) as prof:
        out = net({name: x})
    held = sum(e.cpu_memory_usage for e in prof.function_events if e.cpu_parent is None)
    del out
    return held


def python_steps(doc, batch, steps):
    """Plain and checkpointed SpecNet, their steps interleaved: (median ms, held bytes) for each."""
    torch.manual_seed(2)
    x = batch_for(doc, batch)
    name = doc["inputs"][0]["name"]
    nets = []
    for cls in (tt.SpecNet, CheckpointedNet):
        torch.manual_seed(1)
        net = cls(doc)
        with torch.no_grad():
            net({name: x})  # creates the modules
        net.train()
        nets.append(net)

    def step(net):
        for p in net.parameters():
            p.grad = None
        out = net({name: x})
        sum(v.float().sum() for v in out.values()).backward()

    for _ in range(3):
        for net in nets:
            step(net)
    times = [[], []]
    for _ in range(steps):
        for i, net in enumerate(nets):
            start = time.perf_counter()
            step(net)
            times[i].append((time.perf_counter() - start) * 1e3)
    return [(statistics.median(times[i]), held_bytes(net, x, name)) for i, net in enumerate(nets)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True, help="the bench_recompute executable")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    results = []
    for file, batch in CASES:
        path = os.path.join(ROOT, "resources", "templates", file)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        out = subprocess.run([args.bench, "--spec", path, "--batch", str(batch), "--threads", str(args.threads),
                              "--steps", str(args.steps)], check=True, capture_output=True, text=True).stdout
        engine = {r["recompute"]: r for r in map(json.loads, out.strip().splitlines())}
        (py_plain_ms, py_plain_saved), (py_ckpt_ms, py_ckpt_saved) = python_steps(doc, batch, args.steps)
        e0, e1 = engine["none"], engine["all"]
        r = {
            "template": file, "batch": batch, "threads": args.threads,
            "engine": {"plain_ms": e0["step_ms"], "recompute_ms": e1["step_ms"],
                       "extra_time": e1["step_ms"] / e0["step_ms"] - 1,
                       "held_bytes": [e0["held_bytes"], e1["held_bytes"]],
                       "peak_bytes": [e0["peak_bytes"], e1["peak_bytes"]],
                       "held_cut": e0["held_bytes"] / max(1, e1["held_bytes"]),
                       "peak_cut": e0["peak_bytes"] / max(1, e1["peak_bytes"]), "parts": e1["parts"]},
            "pytorch": {"plain_ms": py_plain_ms, "checkpoint_ms": py_ckpt_ms,
                        "extra_time": py_ckpt_ms / py_plain_ms - 1,
                        "held_bytes": [py_plain_saved, py_ckpt_saved],
                        "held_cut": py_plain_saved / max(1, py_ckpt_saved)},
        }
        r["engine_vs_pytorch"] = {"plain": e0["step_ms"] / py_plain_ms, "recomputed": e1["step_ms"] / py_ckpt_ms}
        results.append(r)
        mib = 1 / 1048576
        print(f"{file} batch {batch}, {args.threads} threads")
        print(f"  engine : {e0['step_ms']:.1f} -> {e1['step_ms']:.1f} ms ({100 * r['engine']['extra_time']:+.0f} %), "
              f"held for backward {e0['held_bytes'] * mib:.1f} -> {e1['held_bytes'] * mib:.1f} MiB "
              f"({r['engine']['held_cut']:.1f}x), step peak {e0['peak_bytes'] * mib:.1f} -> "
              f"{e1['peak_bytes'] * mib:.1f} MiB ({r['engine']['peak_cut']:.1f}x), {e1['parts']} parts")
        print(f"  PyTorch: {py_plain_ms:.1f} -> {py_ckpt_ms:.1f} ms ({100 * r['pytorch']['extra_time']:+.0f} %), "
              f"held for backward {py_plain_saved * mib:.1f} -> {py_ckpt_saved * mib:.1f} MiB "
              f"({r['pytorch']['held_cut']:.1f}x)")
        print(f"  engine / PyTorch step time: plain {r['engine_vs_pytorch']['plain']:.2f}, "
              f"recomputed {r['engine_vs_pytorch']['recomputed']:.2f}")
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
