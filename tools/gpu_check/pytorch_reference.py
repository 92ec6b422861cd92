#!/usr/bin/env python3
"""PyTorch eager baseline of the GPU check (docs/gpu-check.md): training throughput of a Diamond network in plain
PyTorch, to compare with diamond-train's on the same GPU.

The network is the one Diamond's exporter wrote (`diamond-train export` -> DIR/model.py, class DiamondNet), so both
sides train exactly the same layers. Random inputs of the spec's shape and random class targets live on the device
from the start (no data loading is timed); each step is zero_grad, forward (under autocast for bf16), cross-entropy,
backward and the optimizer step. After --warmup steps the device is synchronised, --steps steps are timed, and
synchronised again.

  pytorch_reference.py --model-dir RUN/export --device cuda --batch 128 --steps 50 --precision fp32,bf16
  pytorch_reference.py --model-dir RUN/export --device cpu --batch 2 --steps 3 --warmup 1   # smoke test, no GPU

Prints one JSON object (also written to --json FILE):
  {"torch_version", "device", "device_name", "batch", "steps", "warmup", "optimizer", "results":
   {"fp32": {"samples_per_s", "step_ms", "peak_allocated_bytes"}, "bf16": {...}}, "errors": {precision: message}}
Exit code 0 when every precision ran, 1 otherwise. Works with torch 1.13 (Debian) and 2.x.
"""
import argparse
import importlib.util
import json
import os
import sys
import time
import traceback

import torch
import torch.nn.functional as F


def load_export(model_dir):
    path = os.path.join(model_dir, "model.py")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path} does not exist: run `diamond-train export` first")
    spec = importlib.util.spec_from_file_location("diamond_export_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_inputs(module, batch, device, generator_seed):
    gen = torch.Generator(device="cpu")
    gen.manual_seed(generator_seed)
    inputs = []
    for spec in module.INPUTS:
        shape = [batch] + [int(d) for d in spec["shape"][1:]]
        if spec["dtype"] not in ("float32", None):
            raise ValueError(f"input {spec['name']} is {spec['dtype']}: the reference only feeds float32 inputs")
        inputs.append(torch.randn(shape, generator=gen).to(device))
    return inputs


def make_optimizer(name, params, lr, momentum, weight_decay):
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay)
    if name == "adam":
        return torch.optim.Adam(params, lr=lr, weight_decay=weight_decay)
    if name == "adamw":
        return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)
    raise ValueError(f"unknown optimizer {name} (sgd, adam, adamw)")


def synchronize(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def measure(module, args, device, precision):
    torch.manual_seed(args.seed)
    net = module.DiamondNet().to(device)
    net.train()
    inputs = make_inputs(module, args.batch, device, args.seed)
    with torch.no_grad():
        classes = net(*inputs).shape[-1]
    targets = torch.randint(0, classes, (args.batch,), generator=torch.Generator().manual_seed(args.seed)).to(device)
    opt = make_optimizer(args.optimizer, net.parameters(), args.lr, args.momentum, args.weight_decay)
    autocast = precision == "bf16"

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=autocast):
            out = net(*inputs)
            loss = F.cross_entropy(out, targets)
        loss.float().backward()
        opt.step()
        return loss

    for _ in range(args.warmup):
        step()
    synchronize(device)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    start = time.perf_counter()
    for _ in range(args.steps):
        loss = step()
        if args.item_every_step:
            loss.item()  # a host sync per step, as diamond-train does to check the loss
    synchronize(device)
    seconds = time.perf_counter() - start
    final_loss = float(loss.detach().float().cpu())
    result = {
        "samples_per_s": args.batch * args.steps / seconds,
        "step_ms": 1000.0 * seconds / args.steps,
        "seconds": seconds,
        "final_loss": final_loss,
    }
    if device.type == "cuda":
        result["peak_allocated_bytes"] = int(torch.cuda.max_memory_allocated(device))
    del net, opt, inputs, targets
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return result


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model-dir", required=True, help="a diamond-train export folder (holds model.py)")
    p.add_argument("--device", default="cuda", help="cuda, cuda:N or cpu")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--steps", type=int, default=50, help="timed steps")
    p.add_argument("--warmup", type=int, default=10, help="untimed steps first")
    p.add_argument("--precision", default="fp32,bf16", help="comma-separated: fp32, bf16")
    p.add_argument("--optimizer", default="sgd", choices=["sgd", "adam", "adamw"])
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--weight-decay", type=float, default=0.0)
    p.add_argument("--cudnn-benchmark", action="store_true", help="torch.backends.cudnn.benchmark = True")
    p.add_argument("--item-every-step", action="store_true", help="loss.item() after each step (a host sync)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0, help="CPU threads (0: PyTorch's default)")
    p.add_argument("--json", help="also write the result object to this file")
    args = p.parse_args(argv)
    if args.steps < 1 or args.batch < 1 or args.warmup < 0:
        p.error("--steps and --batch must be at least 1, --warmup at least 0")

    device = torch.device(args.device)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.backends.cudnn.benchmark = args.cudnn_benchmark
    report = {
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda,
        "device": str(device),
        "device_name": None if device.type == "cuda" else "cpu",
        "batch": args.batch,
        "steps": args.steps,
        "warmup": args.warmup,
        "optimizer": {"name": args.optimizer, "lr": args.lr, "momentum": args.momentum,
                      "weight_decay": args.weight_decay},
        "cudnn_benchmark": args.cudnn_benchmark,
        "item_every_step": args.item_every_step,
        "results": {},
        "errors": {},
    }
    try:
        if device.type == "cuda":
            report["device_name"] = torch.cuda.get_device_name(device)
        module = load_export(args.model_dir)
        report["spec_name"] = getattr(module, "SPEC_NAME", None)
        for precision in [s.strip() for s in args.precision.split(",") if s.strip()]:
            if precision not in ("fp32", "bf16"):
                report["errors"][precision] = "unknown precision (fp32, bf16)"
                continue
            try:
                report["results"][precision] = measure(module, args, device, precision)
            except Exception as e:  # one precision failing must not hide the other's figures
                report["errors"][precision] = f"{type(e).__name__}: {e}"
                traceback.print_exc(file=sys.stderr)
    except Exception as e:
        report["errors"]["setup"] = f"{type(e).__name__}: {e}"
        traceback.print_exc(file=sys.stderr)
    text = json.dumps(report, sort_keys=True)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    print(text)
    return 0 if report["results"] and not report["errors"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
