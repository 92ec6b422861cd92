#!/usr/bin/env python3
"""Data-parallel benchmark on this machine: the 784-512-256-10 MLP (batch 128, SGD momentum,
synthetic data) as 1 rank x 2 threads versus 2 ranks x 1 thread (c10d Gloo on loopback).
Reports steps/s, the all-reduce time per step (the gradient all-reduce as measured by rank 0,
including any wait for the slower rank) and the share of a step it takes.

  /usr/bin/python3 bench/engine/bench_distributed.py --bin build/bin [--steps 500] [--json out.json]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_engine  # noqa: E402  (same workload definition)


def run(bin_dir, work, name, steps, threads, nproc):
    w = bench_engine.WORKLOADS["b_mlp784"]
    folder = os.path.join(work, name)
    os.makedirs(folder)
    spec, config = os.path.join(folder, "spec.json"), os.path.join(folder, "run.json")
    json.dump(bench_engine.spec_for("mlp784", w), open(spec, "w"))
    c = bench_engine.config_for(w, threads)
    c["steps"] = steps
    json.dump(c, open(config, "w"))
    args = [os.path.join(bin_dir, "diamond-train"), "--spec", spec, "--config", config, "--run-dir",
            os.path.join(folder, "run"), "--threads", str(threads)]
    if nproc > 1:
        args += ["--nproc", str(nproc)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    finished = [json.loads(l) for l in out.splitlines() if '"finished"' in l][-1]
    step_s = 1.0 / finished["steps_per_s"]
    return {"config": name, "steps_per_s": finished["steps_per_s"], "world_size": finished.get("world_size", 1),
            "allreduce_ms_per_step": 1000 * finished.get("allreduce_s_per_step", 0.0),
            "allreduce_fraction": finished.get("allreduce_s_per_step", 0.0) / step_s}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        rows = [run(args.bin, work, "1 rank x 2 threads", args.steps, 2, 1),
                run(args.bin, work, "2 ranks x 1 thread", args.steps, 1, 2)]
    for r in rows:
        print("%-20s %8.1f steps/s  all-reduce %6.3f ms/step (%4.1f%% of a step)" % (
            r["config"], r["steps_per_s"], r["allreduce_ms_per_step"], 100 * r["allreduce_fraction"]))
    print("2 ranks / 1 rank: %.2fx" % (rows[1]["steps_per_s"] / rows[0]["steps_per_s"]))
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=2)


if __name__ == "__main__":
    main()
