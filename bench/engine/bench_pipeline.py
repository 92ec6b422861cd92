#!/usr/bin/env python3
"""Pipeline stages on this machine (issue #23): a 12-layer chain (2 -> 512 -> 1024 -> 256 -> 1024 -> 512 -> 2048 ->
256 -> 512 -> 1024 -> 256 -> 512 -> 3, ReLU between, 4.3 M parameters) on the spirals data, Adam, batch 256 in 4
micro-batches, 2 stages of 1 thread each (c10d Gloo on loopback).

For every cut between two layers (11 of them) it asks `diamondctl run stages --cut ... --json` for the performance
model's prediction of each stage's forward + backward time and of the step, then trains that cut with diamond-train
--nproc 2 and reads the measured figures (finished.pipeline.stages[].forward_s_per_step + backward_s_per_step, and
steps_per_s). It reports the stage-time errors, the cut the model chooses on its own (`run stages` without --cut), and
that cut's measured step time against the best measured cut's.

Beside it PyTorch-Python (Debian's python3-torch) runs the same GPipe schedule by hand (torch.distributed send/recv,
Gloo, 2 processes of 1 thread) at the chosen cut, and both run the whole network on one process of 1 thread.

Every engine figure is the median of --repeat runs.

  /usr/bin/python3 bench/engine/bench_pipeline.py --bin build/bin [--steps 60] [--repeat 2] [--json out.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

WIDTHS = [512, 1024, 256, 1024, 512, 2048, 256, 512, 1024, 256, 512, 3]
BATCH, MICRO = 256, 4


def spec():
    nodes, previous = [], "x"
    for i, width in enumerate(WIDTHS):
        nodes.append({"id": "fc%d" % i, "type": "Linear", "inputs": [previous], "params": {"out_features": width}})
        previous = "fc%d" % i
        if i + 1 < len(WIDTHS):
            nodes.append({"id": "relu%d" % i, "type": "ReLU", "inputs": [previous]})
            previous = "relu%d" % i
    return {"format": "diamond.spec/1", "name": "12-layer chain", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": nodes, "outputs": [{"name": "logits", "from": previous}]}


def config(steps, cut=None):
    c = {"format": "diamond.run/1", "batch_size": BATCH, "steps": steps, "seed": 1,
         "optimizer": {"name": "adam", "lr": 0.0005},
         "data": {"source": "spirals", "samples": 4000, "arms": 3, "validation_split": 0.1}}
    if cut is not None:
        c["pipeline"] = {"stages": 2, "micro_batches": MICRO, "cut": cut}
    return c


def predict(bin_dir, work, spec_path, config_path, cut):
    args = [os.path.join(bin_dir, "diamondctl"), "--workspace", os.path.join(work, "ws"), "run", "stages", "--spec",
            spec_path, "--config", config_path, "--stages", "2", "--micro-batches", str(MICRO), "--threads", "1",
            "--json"]
    if cut:
        args += ["--cut", cut]
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def train(bin_dir, folder, spec_path, steps, cut, repeat=1):
    """The medians of `repeat` runs."""
    runs = [train_once(bin_dir, folder, spec_path, steps, cut, i) for i in range(repeat)]
    median = lambda values: statistics.median(values)
    return {"step_s": median([r["step_s"] for r in runs]),
            "stage_s": [median(s) for s in zip(*[r["stage_s"] for r in runs])],
            "waiting_s": [median(s) for s in zip(*[r["waiting_s"] for r in runs])],
            "weights_sha256": runs[0]["weights_sha256"] if len({r["weights_sha256"] for r in runs}) == 1 else "DIFFER"}


def train_once(bin_dir, folder, spec_path, steps, cut, index):
    config_path = os.path.join(folder, "run-%s-%d.json" % (cut or "whole", index))
    json.dump(config(steps, [cut] if cut else None), open(config_path, "w"))
    args = [os.path.join(bin_dir, "diamond-train"), "--spec", spec_path, "--config", config_path, "--run-dir",
            os.path.join(folder, "run-%s-%d" % (cut or "whole", index)), "--threads", "1"]
    if cut:
        args += ["--nproc", "2"]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    finished = [json.loads(l) for l in out.splitlines() if '"finished"' in l][-1]
    stages = (finished.get("pipeline") or {}).get("stages", [])
    return {"step_s": 1.0 / finished["steps_per_s"],
            "stage_s": [s["forward_s_per_step"] + s["backward_s_per_step"] for s in stages],
            "waiting_s": [s["waiting_s_per_step"] for s in stages],
            "weights_sha256": finished["weights_sha256"]}


def torch_stage_layers(first, end):
    import torch
    layers, width = [], 2 if first == 0 else WIDTHS[first - 1]
    for i in range(first, end):
        layers.append(torch.nn.Linear(width, WIDTHS[i]))
        width = WIDTHS[i]
        if i + 1 < len(WIDTHS):
            layers.append(torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def torch_worker(rank, world, store_file, steps, cut_layer, queue):
    import torch
    import torch.distributed as dist
    torch.set_num_threads(1)
    if world > 1:
        dist.init_process_group("gloo", init_method="file://" + store_file, rank=rank, world_size=world)
    torch.manual_seed(1)
    first, end = (0, len(WIDTHS)) if world == 1 else ((0, cut_layer + 1) if rank == 0 else (cut_layer + 1, len(WIDTHS)))
    model = torch_stage_layers(first, end)
    opt = torch.optim.Adam(model.parameters(), lr=0.0005)
    x, y = torch.randn(BATCH, 2), torch.randint(0, 3, (BATCH,))
    micro = BATCH // MICRO
    width_in = WIDTHS[cut_layer]
    times = []
    for step in range(steps):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=False)
        if world == 1:
            torch.nn.functional.cross_entropy(model(x), y).backward()
        else:
            kept, sends = [], []
            for m in range(MICRO):
                if rank == 0:
                    out = model(x[m * micro:(m + 1) * micro])
                    sends.append(dist.isend(out.detach().contiguous(), 1))
                    kept.append((None, out))
                else:
                    inp = torch.empty(micro, width_in)
                    dist.recv(inp, 0)
                    inp.requires_grad_(True)
                    loss = torch.nn.functional.cross_entropy(model(inp), y[m * micro:(m + 1) * micro]) / MICRO
                    kept.append((inp, loss))
            for inp, value in kept:
                if rank == 0:
                    grad = torch.empty_like(value)
                    dist.recv(grad, 1)
                    value.backward(grad)
                else:
                    value.backward()
                    sends.append(dist.isend(inp.grad.contiguous(), 0))
            for s in sends:
                s.wait()
        opt.step()
        if step >= 5:
            times.append(time.perf_counter() - t0)
    queue.put((rank, statistics.median(times)))
    if world > 1:
        dist.destroy_process_group()


def torch_run(work, steps, world, cut_layer):
    import torch.multiprocessing as mp
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    store = os.path.join(work, "store-%d-%d" % (world, cut_layer))
    procs = [ctx.Process(target=torch_worker, args=(r, world, store, steps, cut_layer, queue)) for r in range(world)]
    for p in procs:
        p.start()
    results = dict(queue.get() for _ in procs)
    for p in procs:
        p.join()
    return max(results.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    report = {"cuts": []}
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([os.path.join(args.bin, "diamondctl"), "--workspace", os.path.join(work, "ws"), "init",
                        "--no-examples"], capture_output=True, check=True)
        spec_path, config_path = os.path.join(work, "spec.json"), os.path.join(work, "run.json")
        json.dump(spec(), open(spec_path, "w"))
        json.dump(config(args.steps), open(config_path, "w"))
        chosen = predict(args.bin, work, spec_path, config_path, None)
        chosen_cut = chosen["cut"][0]
        cuts = ["relu%d" % i for i in range(len(WIDTHS) - 1)]
        if chosen_cut not in cuts:
            cuts.append(chosen_cut)
        errors = []
        for cut in cuts:
            predicted = predict(args.bin, work, spec_path, config_path, cut)
            measured = train(args.bin, work, spec_path, args.steps, cut, args.repeat)
            stage_predicted = [s["compute_s_per_micro_batch"] * MICRO for s in predicted["stages"]]
            stage_errors = [p / m - 1 for p, m in zip(stage_predicted, measured["stage_s"])]
            errors += stage_errors
            row = {"cut": cut, "predicted_stage_s": stage_predicted, "measured_stage_s": measured["stage_s"],
                   "stage_errors": stage_errors, "predicted_step_s": predicted["predicted_step_s"],
                   "measured_step_s": measured["step_s"], "waiting_s": measured["waiting_s"],
                   "weights_sha256": measured["weights_sha256"]}
            report["cuts"].append(row)
            print("cut after %-7s stages predicted %s ms, measured %s ms (%s); step predicted %.1f ms, measured %.1f ms"
                  % (cut, " / ".join("%.1f" % (s * 1e3) for s in stage_predicted),
                     " / ".join("%.1f" % (s * 1e3) for s in measured["stage_s"]),
                     " ".join("%+.0f %%" % (e * 100) for e in stage_errors), predicted["predicted_step_s"] * 1e3,
                     measured["step_s"] * 1e3))
        best = min(report["cuts"], key=lambda r: r["measured_step_s"])
        mine = next(r for r in report["cuts"] if r["cut"] == chosen_cut)
        shas = {r["weights_sha256"] for r in report["cuts"]}
        whole = train(args.bin, work, spec_path, args.steps, None, args.repeat)
        cut_layer = int("".join(c for c in chosen_cut if c.isdigit()))
        torch_pipe = torch_run(work, args.steps, 2, cut_layer)
        torch_whole = torch_run(work, args.steps, 1, cut_layer)
        abs_errors = sorted(abs(e) for e in errors)
        report.update({
            "chosen_cut": chosen_cut, "best_cut": best["cut"],
            "chosen_vs_best": mine["measured_step_s"] / best["measured_step_s"],
            "stage_error_median": statistics.median(abs_errors), "stage_error_worst": abs_errors[-1],
            "same_weights_every_cut": len(shas) == 1, "whole_engine_step_s": whole["step_s"],
            "torch_pipeline_step_s": torch_pipe, "torch_whole_step_s": torch_whole})
        print("chosen cut %s: %.1f ms per step; best cut %s: %.1f ms (chosen / best %.3f)"
              % (chosen_cut, mine["measured_step_s"] * 1e3, best["cut"], best["measured_step_s"] * 1e3,
                 report["chosen_vs_best"]))
        print("stage-time error: median %.1f %%, worst %.1f %% over %d stages"
              % (report["stage_error_median"] * 100, report["stage_error_worst"] * 100, len(errors)))
        print("weights: %s" % ("the same at every cut" if len(shas) == 1 else "DIFFER"))
        print("one process: engine %.1f ms, PyTorch %.1f ms per step; pipeline at the chosen cut: engine %.1f ms, "
              "PyTorch (hand-written GPipe) %.1f ms (engine / PyTorch speed %.2fx)"
              % (whole["step_s"] * 1e3, torch_whole * 1e3, mine["measured_step_s"] * 1e3, torch_pipe * 1e3,
                 torch_pipe / mine["measured_step_s"]))
    if args.json:
        json.dump(report, open(args.json, "w"), indent=2)
    return 0 if report["chosen_vs_best"] <= 1.10 and len(shas) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
