#!/usr/bin/env python3
"""Sharded data parallelism on this machine (issue #23): a deep MLP (2 -> 1024 x 24 -> 3, 25.2 M parameters) on the
spirals data, Adam, batch 32, 2 ranks x 1 thread (c10d Gloo on loopback), with the run config's "sharding" set to
"none" (data parallel), "optimizer" (ZeRO stage 1) and "gradients" (ZeRO stage 2). The modes run in turn, `--repeat`
times. Reports per rank the optimizer state and gradient bytes the engine holds (gradients: the share plus the most
its reduction buffers held at once), their sum against data parallelism's, the peak resident-memory growth, steps/s and
the final weights' SHA-256 (which must be one for all modes).

Beside it PyTorch-Python (Debian's python3-torch) runs the same network and batch on 2 processes with Gloo:
DistributedDataParallel with Adam, and with torch.distributed.optim.ZeroRedundancyOptimizer (stage 1; libtorch 1.13
has no CPU stage 2), reporting the same byte counts and step time.

  /usr/bin/python3 bench/engine/bench_sharding.py --bin build/bin [--steps 40] [--repeat 2] [--json out.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

LAYERS, WIDTH, BATCH = 24, 1024, 32


def spec():
    nodes, previous = [], "x"
    for i in range(LAYERS):
        nodes.append({"id": "fc%d" % i, "type": "Linear", "inputs": [previous], "params": {"out_features": WIDTH}})
        nodes.append({"id": "relu%d" % i, "type": "ReLU", "inputs": ["fc%d" % i]})
        previous = "relu%d" % i
    nodes.append({"id": "out", "type": "Linear", "inputs": [previous], "params": {"out_features": 3}})
    return {"format": "diamond.spec/1", "name": "deep spirals MLP",
            "inputs": [{"name": "x", "shape": ["N", 2]}], "nodes": nodes,
            "outputs": [{"name": "logits", "from": "out"}]}


def engine_run(bin_dir, work, mode, steps, index):
    folder = os.path.join(work, "%s-%d" % (mode, index))
    os.makedirs(folder)
    spec_path, config_path = os.path.join(folder, "spec.json"), os.path.join(folder, "run.json")
    json.dump(spec(), open(spec_path, "w"))
    json.dump({"format": "diamond.run/1", "batch_size": BATCH, "steps": steps, "seed": 1,
               "optimizer": {"name": "adam", "lr": 0.0005}, "sharding": mode,
               "data": {"source": "spirals", "samples": 3000, "arms": 3, "validation_split": 0.2}},
              open(config_path, "w"))
    args = [os.path.join(bin_dir, "diamond-train"), "--spec", spec_path, "--config", config_path, "--run-dir",
            os.path.join(folder, "run"), "--threads", "1", "--nproc", "2"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    finished = [json.loads(l) for l in out.splitlines() if '"finished"' in l][-1]
    memory = finished["memory"]
    return {"mode": mode, "steps_per_s": finished["steps_per_s"], "weights_sha256": finished["weights_sha256"],
            "optimizer_state_bytes": memory["optimizer_state_bytes"], "gradient_bytes": memory["gradient_bytes"],
            "peak_growth_bytes": [r["peak_growth_bytes"] for r in memory.get("ranks", [])],
            "ranks_state_and_gradient_bytes": [r["optimizer_state_bytes"] + r.get("gradient_bytes", 0)
                                               for r in memory.get("ranks", [])]}


def torch_worker(rank, store_file, steps, zero, queue):
    import resource
    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method="file://" + store_file, rank=rank, world_size=2)
    torch.manual_seed(1)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # before the model, as the engine's baseline
    layers, width = [], 2
    for _ in range(LAYERS):
        layers += [torch.nn.Linear(width, WIDTH), torch.nn.ReLU()]
        width = WIDTH
    model = torch.nn.Sequential(*layers, torch.nn.Linear(width, 3))
    ddp = torch.nn.parallel.DistributedDataParallel(model)
    if zero:
        from torch.distributed.optim import ZeroRedundancyOptimizer
        opt = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.Adam, lr=0.0005)
    else:
        opt = torch.optim.Adam(ddp.parameters(), lr=0.0005)
    x, y = torch.randn(BATCH // 2, 2), torch.randint(0, 3, (BATCH // 2,))
    times = []
    for i in range(steps):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=False)
        torch.nn.functional.cross_entropy(ddp(x), y).backward()
        opt.step()
        if i >= 5:
            times.append(time.perf_counter() - t0)
    local = opt.optim if zero else opt
    state = sum(t.numel() * t.element_size() for s in local.state.values() for t in s.values()
                if torch.is_tensor(t))
    grads = sum(p.grad.numel() * p.grad.element_size() for p in model.parameters())
    growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024
    queue.put((rank, {"step_s": statistics.median(times), "optimizer_state_bytes": state, "gradient_bytes": grads,
                      "peak_growth_bytes": growth}))
    dist.destroy_process_group()


def torch_run(work, steps, zero, index):
    import torch.multiprocessing as mp
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    store = os.path.join(work, "store-%d-%d" % (zero, index))
    procs = [ctx.Process(target=torch_worker, args=(r, store, steps, zero, queue)) for r in range(2)]
    for p in procs:
        p.start()
    results = dict(queue.get() for _ in procs)
    for p in procs:
        p.join()
    r0 = results[0]
    return {"mode": "ZeroRedundancyOptimizer" if zero else "DDP", "steps_per_s": 1.0 / r0["step_s"],
            "optimizer_state_bytes": r0["optimizer_state_bytes"], "gradient_bytes": r0["gradient_bytes"],
            "peak_growth_bytes": [results[r]["peak_growth_bytes"] for r in (0, 1)]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for i in range(args.repeat):
            for mode in ("none", "optimizer", "gradients"):
                rows.append(engine_run(args.bin, work, mode, args.steps, i))
            for zero in (False, True):
                rows.append(torch_run(work, args.steps, zero, i))
    mib = 1.0 / (1 << 20)
    plain = {}
    for r in rows:
        held = r["optimizer_state_bytes"] + r["gradient_bytes"]
        base = plain.setdefault("engine" if "weights_sha256" in r else "torch", held)
        r["state_and_gradients_vs_plain"] = held / base
        print("%-24s state %6.1f MiB  gradients %6.1f MiB  sum %6.1f MiB (%.3fx)  peak growth %s MiB  %6.2f steps/s%s"
              % (r["mode"], r["optimizer_state_bytes"] * mib, r["gradient_bytes"] * mib, held * mib,
                 held / base, " / ".join("%.0f" % (g * mib) for g in r["peak_growth_bytes"]), r["steps_per_s"],
                 "  " + r["weights_sha256"][:12] if "weights_sha256" in r else ""))
    shas = {r["weights_sha256"] for r in rows if "weights_sha256" in r}
    print("weights: %s" % ("the same in every mode" if len(shas) == 1 else "DIFFER: %s" % sorted(shas)))
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=2)
    return 0 if len(shas) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
