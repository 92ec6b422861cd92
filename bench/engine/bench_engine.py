#!/usr/bin/env python3
"""Engine benchmark: diamond-train vs the same jobs in PyTorch-Python, side by side.

Runs each workload in both, at each thread count, in this one invocation, on the same
libtorch (Debian's libtorch 1.13 under both). Reports steps/s, the C++/Python ratio, achieved
GFLOP/s against the fp32 GEMM ceiling measured in the same run, peak RSS, and diamond-train's
start-up time to its first completed step.

  /usr/bin/python3 bench/engine/bench_engine.py --bin build/bin [--threads 1,2] [--json out.json]

Workloads (docs/benchmarks.md):
  a) MLP 2-64-64-3, 3-arm spirals (3,000 points), batch 32, Adam lr 1e-2, 20 epochs
  b) MLP 784-512-256-10, synthetic data, batch 128, SGD momentum 0.9, 500 steps
  c) CNN 1x28x28 (conv32 3x3-relu-maxpool-conv64 3x3-relu-maxpool-linear128-linear10),
     batch 64, SGD momentum 0.9, 200 steps
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

WORKLOADS = {
    "a_spirals_mlp": {
        "spec_layers": [("Linear", 64), ("ReLU", None), ("Linear", 64), ("ReLU", None), ("Linear", 3)],
        "input": [2],
        "data": {"source": "spirals", "samples": 3000, "arms": 3, "validation_split": 0.0, "standardize": False},
        "batch": 32, "epochs": 20, "optimizer": {"name": "adam", "lr": 0.01},
        "classes": 3, "samples": 3000,
    },
    "b_mlp784": {
        "spec_layers": [("Linear", 512), ("ReLU", None), ("Linear", 256), ("ReLU", None), ("Linear", 10)],
        "input": [784],
        "data": {"source": "blobs", "samples": 12800, "centers": 10, "features": 784, "validation_split": 0.0,
                 "standardize": False},
        "batch": 128, "steps": 500, "optimizer": {"name": "sgd", "lr": 0.01, "momentum": 0.9},
        "classes": 10, "samples": 12800,
    },
    "c_cnn28": {
        "spec_layers": [("Reshape", [1, 28, 28]), ("Conv2d", 32), ("ReLU", None), ("MaxPool2d", 2), ("Conv2d", 64),
                        ("ReLU", None), ("MaxPool2d", 2), ("Flatten", None), ("Linear", 128), ("ReLU", None),
                        ("Linear", 10)],
        "input": [784],
        "data": {"source": "blobs", "samples": 6400, "centers": 10, "features": 784, "validation_split": 0.0,
                 "standardize": False},
        "batch": 64, "steps": 200, "optimizer": {"name": "sgd", "lr": 0.01, "momentum": 0.9},
        "classes": 10, "samples": 6400,
    },
}


def spec_for(name, w):
    nodes, prev = [], "x"
    for i, (kind, arg) in enumerate(w["spec_layers"]):
        node = {"id": "n%d" % i, "type": kind, "inputs": [prev]}
        if kind == "Linear":
            node["params"] = {"out_features": arg}
        elif kind == "Conv2d":
            node["params"] = {"out_channels": arg, "kernel_size": 3}
        elif kind == "MaxPool2d":
            node["params"] = {"kernel_size": arg}
        elif kind == "Reshape":
            node["params"] = {"shape": arg}
        nodes.append(node)
        prev = node["id"]
    return {"format": "diamond.spec/1", "name": name,
            "inputs": [{"name": "x", "shape": ["N"] + w["input"], "dtype": "float32"}],
            "nodes": nodes, "outputs": [{"name": "y", "from": prev}]}


def config_for(w, threads):
    c = {"format": "diamond.run/1", "data": w["data"], "batch_size": w["batch"], "optimizer": w["optimizer"],
         "seed": 1, "threads": threads, "log_every_steps": 1000000, "metrics": []}
    if "steps" in w:
        c["steps"] = w["steps"]
    else:
        c["epochs"] = w["epochs"]
    return c


def forward_flops_per_sample(w):
    """Multiply-adds x2 of the Linear/Conv layers (the GEMM work)."""
    flops, shape = 0, list(w["input"])
    for kind, arg in w["spec_layers"]:
        if kind == "Reshape":
            shape = list(arg)
        elif kind == "Linear":
            flops += 2 * shape[-1] * arg
            shape = [arg]
        elif kind == "Conv2d":
            c, h, ww = shape
            h, ww = h - 2, ww - 2
            flops += 2 * c * 9 * arg * h * ww
            shape = [arg, h, ww]
        elif kind == "MaxPool2d":
            shape = [shape[0], shape[1] // arg, shape[2] // arg]
        elif kind == "Flatten":
            shape = [math.prod(shape)]
    return flops


def run_engine(bin_dir, name, w, threads, work):
    folder = os.path.join(work, "%s-t%d" % (name, threads))
    os.makedirs(folder, exist_ok=True)
    spec, config = os.path.join(folder, "spec.json"), os.path.join(folder, "run.json")
    json.dump(spec_for(name, w), open(spec, "w"))
    cfg = config_for(w, threads)
    json.dump(cfg, open(config, "w"))
    # Start-up: a separate 1-step run timed from spawn to the first metric line.
    cfg1 = dict(cfg, steps=1, log_every_steps=1)
    cfg1.pop("epochs", None)
    config1 = os.path.join(folder, "run1.json")
    json.dump(cfg1, open(config1, "w"))
    t0 = time.perf_counter()
    p = subprocess.Popen([os.path.join(bin_dir, "diamond-train"), "--spec", spec, "--config", config1, "--run-dir",
                          os.path.join(folder, "startup")], stdout=subprocess.PIPE, text=True)
    startup = None
    for line in p.stdout:
        if '"event":"metric"' in line and startup is None:
            startup = time.perf_counter() - t0
    p.wait()
    p = subprocess.Popen([os.path.join(bin_dir, "diamond-train"), "--spec", spec, "--config", config, "--run-dir",
                          os.path.join(folder, "run")], stdout=subprocess.PIPE, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    finished = [json.loads(l) for l in out.splitlines() if '"finished"' in l]
    if not finished:
        raise RuntimeError("diamond-train failed on %s:\n%s" % (name, out[-2000:]))
    return {"steps_per_s": finished[-1]["steps_per_s"], "peak_rss_mb": usage.ru_maxrss / 1024.0,
            "startup_s": startup, "loader_fraction": finished[-1].get("loader_fraction", 0.0)}


def python_worker(name, threads):
    """The same job in PyTorch-Python; prints one JSON line."""
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    w = WORKLOADS[name]
    layers, shape = [], list(w["input"])
    for kind, arg in w["spec_layers"]:
        if kind == "Linear":
            layers.append(torch.nn.Linear(shape[-1], arg))
            shape = [arg]
        elif kind == "ReLU":
            layers.append(torch.nn.ReLU())
        elif kind == "Conv2d":
            layers.append(torch.nn.Conv2d(shape[0], arg, 3))
            shape = [arg, shape[1] - 2, shape[2] - 2]
        elif kind == "MaxPool2d":
            layers.append(torch.nn.MaxPool2d(arg))
            shape = [shape[0], shape[1] // arg, shape[2] // arg]
        elif kind == "Flatten":
            layers.append(torch.nn.Flatten())
            shape = [math.prod(shape)]
        elif kind == "Reshape":
            layers.append(torch.nn.Unflatten(1, tuple(arg)))
            shape = list(arg)
    model = torch.nn.Sequential(*layers)
    n = w["samples"]
    x = torch.randn(n, *w["input"])
    y = torch.randint(0, w["classes"], (n,))
    o = w["optimizer"]
    if o["name"] == "adam":
        opt = torch.optim.Adam(model.parameters(), lr=o["lr"])
    else:
        opt = torch.optim.SGD(model.parameters(), lr=o["lr"], momentum=o["momentum"])
    batch = w["batch"]
    per_epoch = n // batch
    steps = w.get("steps", per_epoch * w.get("epochs", 1))
    g = torch.Generator().manual_seed(1)
    perm = torch.randperm(n, generator=g)
    t0 = time.perf_counter()
    for step in range(steps):
        b = step % per_epoch
        if b == 0:
            perm = torch.randperm(n, generator=g)
        idx = perm[b * batch:(b + 1) * batch]
        xb, yb = x.index_select(0, idx), y.index_select(0, idx)
        opt.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        loss.item()
    seconds = time.perf_counter() - t0
    import resource
    print(json.dumps({"steps_per_s": steps / seconds, "steps": steps,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))


GEMM_CODE = """
import ctypes, sys, time, torch
torch.set_num_threads(int(sys.argv[1]))
a, b, c = torch.randn(1024, 1024), torch.randn(1024, 1024), torch.empty(1024, 1024)
def rate(f, n=10, chunks=5):
    for _ in range(5):
        f()
    best = 0.0
    for _ in range(chunks):  # the best of a few chunks: the machine's rate, not its hiccups
        t = time.perf_counter()
        for _ in range(n):
            f()
        best = max(best, 2 * 1024 ** 3 * n / (time.perf_counter() - t) / 1e9)
    return best
blas = rate(lambda: torch.mm(a, b))
try:  # oneDNN's sgemm, which diamond-train's Linear layers use when built with it
    f = ctypes.CDLL("libdnnl.so.2").dnnl_sgemm
    f.argtypes = [ctypes.c_char, ctypes.c_char] + [ctypes.c_int64] * 3 + [ctypes.c_float, ctypes.c_void_p,
                  ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_float, ctypes.c_void_p, ctypes.c_int64]
    p = [x.data_ptr() for x in (a, b, c)]
    dnnl = rate(lambda: f(b"N", b"N", 1024, 1024, 1024, 1.0, p[0], 1024, p[1], 1024, 0.0, p[2], 1024))
    assert torch.allclose(c, a @ b, rtol=1e-3, atol=1e-2)
except OSError:
    dnnl = 0.0
print(blas, dnnl)
"""


def gemm_gflops(threads):
    """fp32 GEMM 1024^3 GFLOP/s through libtorch's BLAS and through oneDNN (0 when absent)."""
    out = subprocess.check_output([sys.executable, "-c", GEMM_CODE, str(threads)], text=True).split()
    return float(out[0]), float(out[1])


def run_python(name, threads):
    out = subprocess.check_output([sys.executable, os.path.abspath(__file__), "--python-worker", name,
                                   "--threads", str(threads)], text=True)
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("--python-worker", default="")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is reported")
    args = ap.parse_args()
    if args.python_worker:
        python_worker(args.python_worker, int(args.threads))
        return 0
    threads_list = [int(t) for t in args.threads.split(",")]
    results = []
    with tempfile.TemporaryDirectory() as work:
        for threads in threads_list:
            for name, w in WORKLOADS.items():
                if args.only and args.only not in name:
                    continue
                # This VM's speed drifts by 10-20 % within minutes. Each repeat measures the GEMM
                # ceiling right before its engine run (the faster of libtorch's BLAS and oneDNN, best
                # of 5 chunks), then Python; the fraction of the ceiling is the median over repeats of
                # engine rate / that repeat's ceiling, the other numbers medians over repeats.
                train_flops = 3 * forward_flops_per_sample(w) * w["batch"]  # forward + backward ~ 3x forward
                engs, pys, gemms, fractions = [], [], [], []
                for r in range(args.repeat):
                    gemms.append(gemm_gflops(threads))
                    engs.append(run_engine(args.bin, name, w, threads, os.path.join(work, "r%d" % r)))
                    pys.append(run_python(name, threads))
                    fractions.append(train_flops * engs[-1]["steps_per_s"] / 1e9 / max(gemms[-1]))
                median = lambda values: sorted(values)[len(values) // 2]
                blas, dnnl = median([g[0] for g in gemms]), median([g[1] for g in gemms])
                ceiling = median([max(g) for g in gemms])
                print("fp32 GEMM 1024^3 at %d thread(s), median of %d: %.1f GFLOP/s libtorch BLAS, %.1f oneDNN; "
                      "ceiling %.1f (range %.1f-%.1f)" % (threads, len(gemms), blas, dnnl, ceiling,
                                                         min(max(g) for g in gemms), max(max(g) for g in gemms)),
                      flush=True)
                eng = {k: median([x[k] for x in engs])
                       for k in ("steps_per_s", "peak_rss_mb", "startup_s", "loader_fraction")}
                py = {k: median([x[k] for x in pys]) for k in ("steps_per_s", "peak_rss_mb")}
                row = {"workload": name, "threads": threads, "engine_steps_per_s": eng["steps_per_s"],
                       "python_steps_per_s": py["steps_per_s"], "ratio": eng["steps_per_s"] / py["steps_per_s"],
                       "engine_gflops": train_flops * eng["steps_per_s"] / 1e9, "gemm_ceiling_gflops": ceiling,
                       "gemm_blas_gflops": blas, "gemm_onednn_gflops": dnnl,
                       "engine_peak_rss_mb": eng["peak_rss_mb"], "python_peak_rss_mb": py["peak_rss_mb"],
                       "engine_startup_to_first_step_s": eng["startup_s"],
                       "engine_loader_fraction": eng["loader_fraction"]}
                row["fraction_of_ceiling"] = median(fractions)
                row["fraction_of_ceiling_per_repeat"] = fractions
                results.append(row)
                print("%-14s t=%d  engine %8.1f steps/s  python %8.1f steps/s  ratio %.2fx  %6.1f GFLOP/s (%.0f%% of "
                      "GEMM)  RSS %.0f/%.0f MB  start-up %.2f s  loader %.1f%%" % (
                          name, threads, row["engine_steps_per_s"], row["python_steps_per_s"], row["ratio"],
                          row["engine_gflops"], 100 * row["fraction_of_ceiling"], row["engine_peak_rss_mb"],
                          row["python_peak_rss_mb"], row["engine_startup_to_first_step_s"] or -1,
                          100 * row["engine_loader_fraction"]), flush=True)
    if args.json:
        json.dump(results, open(args.json, "w"), indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
