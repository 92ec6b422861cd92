#!/usr/bin/env python3
"""The checks of the GPU check (docs/gpu-check.md), run by tools/gpu_check.sh after the build: each one recorded
with its status (ok, failed, skipped), seconds, figures and error text; the report (one JSON object) is rewritten
after every check, so a run cut short still leaves what it measured. Standard library only (torch is imported only
in child processes: the environment probe and pytorch_reference.py)."""
import argparse
import datetime
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_run import checkpoint_at_least, make_npy_data, run_engine, write_config  # noqa: E402

ENV_PROBE = r"""
import json, torch
info = {"torch_version": torch.__version__, "torch_cuda": torch.version.cuda,
        "cuda_available": torch.cuda.is_available(), "gpu_count": torch.cuda.device_count(), "gpus": []}
for i in range(info["gpu_count"]):
    p = torch.cuda.get_device_properties(i)
    info["gpus"].append({"name": p.name, "capability": "%d.%d" % (p.major, p.minor),
                         "memory_bytes": p.total_memory, "multiprocessors": p.multi_processor_count})
info["cudnn"] = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
info["bf16_supported"] = bool(info["gpu_count"] and torch.cuda.is_bf16_supported())
print(json.dumps(info))
"""


class CheckFailed(Exception):
    """A check's failure with its message; figures gathered so far stay in the report."""


class Report:
    def __init__(self, path, args):
        self.path = path
        self.start = time.monotonic()
        self.data = {"format": "diamond.gpu_check/1", "host": socket.gethostname(),
                     "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                     "engine": args.engine, "repo": args.repo, "checks": [], "goals": {}}

    def add(self, record):
        self.data["checks"].append(record)
        self.write()

    def write(self):
        counts = {s: sum(1 for c in self.data["checks"] if c["status"] == s) for s in ("ok", "failed", "skipped")}
        self.data["summary"] = counts
        self.data["seconds"] = round(time.monotonic() - self.start, 1)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp, self.path)


class Checks:
    def __init__(self, args):
        self.args = args
        self.engine = args.engine
        self.repo = args.repo
        self.work = args.work
        self.log = os.path.join(args.out, "engine.log")
        self.report = Report(os.path.join(args.out, "gpu_check.json"), args)
        self.gpu_count = 0
        self.threads = str(args.threads)
        self.device = args.device  # cuda; cpu only to try the checks themselves on a machine without a GPU

    # ---- helpers ------------------------------------------------------------------------------------------------
    def example(self, name):
        d = os.path.join(self.repo, "resources", "examples", name)
        return os.path.join(d, "spec.json"), os.path.join(d, "run.json")

    def config_from(self, name, tag, **changes):
        with open(self.example(name)[1]) as f:
            config = json.load(f)
        for key, value in changes.items():
            if value is None:
                config.pop(key, None)
            else:
                config[key] = value
        return write_config(os.path.join(self.work, f"{name}-{tag}.json"), config)

    def fresh_dir(self, *parts):
        path = os.path.join(self.work, *parts)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    def train(self, spec, config, run_dir, device=None, extra=(), signal_on=None, timeout=None):
        cmd = [self.engine, "--spec", spec, "--config", config, "--run-dir", run_dir,
               "--device", device or self.device, "--threads", self.threads, *extra]
        return run_engine(cmd, self.log, timeout or self.args.timeout, signal_on=signal_on)

    def run_check(self, name, fn):
        record = {"name": name, "status": "ok", "seconds": 0.0, "figures": {}, "error": None}
        if self.args.budget and time.monotonic() - self.report.start > self.args.budget:
            record.update(status="skipped", error=f"the time budget of {self.args.budget} s was spent")
        elif name in self.args.skip:
            record.update(status="skipped", error="skipped by --skip")
        else:
            start = time.monotonic()
            try:
                status = fn(record["figures"])
                if status:
                    record["status"], record["error"] = status
            except CheckFailed as e:
                record.update(status="failed", error=str(e))
            except Exception as e:  # a bug in a check must not stop the others
                record.update(status="failed", error=f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=4)}")
            record["seconds"] = round(time.monotonic() - start, 2)
        self.report.add(record)
        return record

    # ---- 0. environment -----------------------------------------------------------------------------------------
    def environment(self, fig):
        problems = []
        try:
            smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
            fig["nvidia_smi"] = (smi.stdout or smi.stderr).strip()
        except (OSError, subprocess.TimeoutExpired) as e:
            fig["nvidia_smi"] = None
            problems.append(f"nvidia-smi: {e}")
        try:
            probe = subprocess.run([sys.executable, "-c", ENV_PROBE], capture_output=True, text=True, timeout=120)
            if probe.returncode == 0:
                fig.update(json.loads(probe.stdout.strip().splitlines()[-1]))
            else:
                problems.append("python3 torch probe failed: " + probe.stderr.strip()[-800:])
        except (OSError, subprocess.TimeoutExpired, ValueError) as e:
            problems.append(f"python3 torch probe: {e}")
        fig["python"] = sys.executable
        fig["nproc"] = os.cpu_count()
        try:
            v = subprocess.run([self.engine, "--version"], capture_output=True, text=True, timeout=30)
            fig["engine_version"] = (v.stdout or v.stderr).strip()
        except OSError as e:
            problems.append(f"{self.engine}: {e}")
        self.gpu_count = int(fig.get("gpu_count") or 0)
        if self.gpu_count == 0:
            problems.append("PyTorch sees no CUDA GPU")
        if problems:
            raise CheckFailed("; ".join(problems))

    # ---- 2. every example on CUDA -------------------------------------------------------------------------------
    def examples(self, fig):
        root = os.path.join(self.repo, "resources", "examples")
        names = sorted(n for n in os.listdir(root) if os.path.isfile(os.path.join(root, n, "spec.json")))
        failed = []
        for name in names:
            spec, config = self.example(name)
            run = self.train(spec, config, self.fresh_dir("examples", name))
            fig[name] = run.summary()
            if run.rc != 0 or not run.finished:
                failed.append(f"{name}: {run.error_text()}")
            elif not str(fig[name]["device"]).startswith(self.device):
                failed.append(f"{name}: ran on {fig[name]['device']}, not {self.device}")
        if failed:
            raise CheckFailed("; ".join(failed))

    # ---- 3. deterministic resume after SIGKILL ------------------------------------------------------------------
    def resume_after_kill(self, fig):
        steps, every, kill_after = 1000, 50, 100
        failed = []
        for name in ("shapes_cnn", "spirals"):
            spec = self.example(name)[0]
            config = self.config_from(name, "deterministic", deterministic=True, steps=steps, epochs=None,
                                      checkpoint={"every_steps": every, "keep_last": 3})
            f = fig[name] = {"steps": steps, "checkpoint_every": every, "kill_after_checkpoint": kill_after}
            whole = self.train(spec, config, self.fresh_dir("resume", name, "whole"))
            f["uninterrupted"] = whole.summary()
            killed_dir = self.fresh_dir("resume", name, "killed")
            killed = self.train(spec, config, killed_dir, signal_on=(checkpoint_at_least(kill_after), signal.SIGKILL))
            f["killed"] = killed.summary()
            ckpts = sorted(os.listdir(os.path.join(killed_dir, "checkpoints"))) if os.path.isdir(
                os.path.join(killed_dir, "checkpoints")) else []
            f["checkpoints_after_kill"] = ckpts
            resumed = self.train(spec, config, killed_dir, extra=["--resume"])
            f["resumed"] = resumed.summary()
            a = (whole.finished or {}).get("weights_sha256")
            b = (resumed.finished or {}).get("weights_sha256")
            f["sha_uninterrupted"], f["sha_resumed"], f["identical"] = a, b, bool(a and a == b)
            if whole.rc != 0 or not a:
                failed.append(f"{name}: the uninterrupted run failed: {whole.error_text()}")
            elif killed.rc != -signal.SIGKILL:
                failed.append(f"{name}: the run to kill ended by itself (exit {killed.rc}) before the kill: "
                              + ("it finished first" if killed.rc == 0 else killed.error_text()))
            elif resumed.rc != 0 or not b:
                failed.append(f"{name}: the resumed run failed: {resumed.error_text()}")
            elif not (resumed.first("started") or {}).get("start_step"):
                failed.append(f"{name}: the resumed run started at step 0 (no checkpoint taken)")
            elif a != b:
                failed.append(f"{name}: weights differ after resume ({a[:12]} vs {b[:12]})")
        self.report.data["goals"]["resume_bit_identical"] = not failed
        if failed:
            raise CheckFailed("; ".join(failed))

    # ---- 4. GPU checkpoint, CPU resume --------------------------------------------------------------------------
    def gpu_to_cpu(self, fig):
        name = "shapes_cnn"
        spec = self.example(name)[0]
        config = self.config_from(name, "gpu-to-cpu", steps=240, epochs=None,
                                  checkpoint={"every_steps": 60, "keep_last": 3})
        run_dir = self.fresh_dir("gpu_to_cpu")
        gpu = self.train(spec, config, run_dir, signal_on=(checkpoint_at_least(60), signal.SIGTERM))
        fig["gpu"] = gpu.summary()
        requeue = gpu.first("requeue")
        fig["gpu"]["requeue_step"] = requeue.get("step") if requeue else None
        if gpu.rc != 85:
            raise CheckFailed(f"the CUDA run did not stop on SIGTERM with exit 85 (exit {gpu.rc}): "
                              + ("it finished first" if gpu.rc == 0 else gpu.error_text()))
        cpu = self.train(spec, config, run_dir, device="cpu", extra=["--resume"])
        fig["cpu"] = cpu.summary()
        started = cpu.first("started") or {}
        fig["cpu"]["resumed_from"] = started.get("resumed_from")
        if cpu.rc != 0 or not cpu.finished:
            raise CheckFailed(f"the CPU resume failed: {cpu.error_text()}")
        if not started.get("start_step"):
            raise CheckFailed("the CPU run started at step 0: it did not resume the CUDA checkpoint")
        if started.get("device") != "cpu":
            raise CheckFailed(f"the resumed run ran on {started.get('device')}, not cpu")

    # ---- 5. ResNet-18 throughput against PyTorch eager ----------------------------------------------------------
    def resnet18(self, fig):
        batch, steps = self.args.resnet_batch, self.args.resnet_steps
        spec = os.path.join(self.repo, "resources", "templates", "resnet18.json")
        data = self.fresh_dir("resnet18", "data")
        samples = max(2 * batch, 256)
        make_npy_data(data, samples, (3, 224, 224), 1000)
        optimizer = {"name": "sgd", "lr": 0.01, "momentum": 0.9}
        fig.update(batch=batch, steps=steps, samples_in_data=samples, optimizer=optimizer)
        base = {"format": "diamond.run/1", "batch_size": batch, "steps": steps, "seed": 1, "optimizer": optimizer,
                "log_every_steps": 10, "checkpoint": {"keep_last": 1}, "metrics": ["accuracy"],
                "data": {"source": "npy", "inputs": os.path.join(data, "x.npy"),
                         "targets": os.path.join(data, "y.npy"), "validation_split": 0, "standardize": False}}
        problems, diamond = [], {}
        for precision in ("fp32", "bf16"):
            config = write_config(os.path.join(self.work, f"resnet18-{precision}.json"),
                                  dict(base, precision=precision))
            run = self.train(spec, config, self.fresh_dir("resnet18", precision))
            s = run.summary()
            steady = [e.get("samples_per_s") for e in run.all("metric")
                      if e.get("split") == "train" and e.get("name") == "loss" and e.get("samples_per_s")]
            s["interval_samples_per_s"] = [round(v, 1) for v in steady]
            if run.finished and s.get("steps_per_s"):
                s["samples_per_s"] = s["steps_per_s"] * batch
                s["steady_samples_per_s"] = statistics.median(steady[1:]) if len(steady) > 1 else None
                diamond[precision] = s
            else:
                problems.append(f"diamond {precision}: {run.error_text()}")
            fig[f"diamond_{precision}"] = s
        export_dir, how = self.export_resnet18(spec, base)
        fig["export"] = how
        if export_dir:
            ref = self.pytorch_reference(export_dir, batch, optimizer)
            fig["pytorch"] = ref
            for precision, r in (ref.get("results") or {}).items():
                if precision in diamond:
                    fig[f"ratio_{precision}"] = diamond[precision]["samples_per_s"] / r["samples_per_s"]
                    if diamond[precision].get("steady_samples_per_s"):
                        fig[f"ratio_steady_{precision}"] = (diamond[precision]["steady_samples_per_s"]
                                                            / r["samples_per_s"])
            for precision, message in (ref.get("errors") or {}).items():
                problems.append(f"pytorch {precision}: {message}")
        else:
            problems.append(f"export: {how.get('error')}")
        ratios = [fig.get(f"ratio_{p}") for p in ("fp32", "bf16")]
        self.report.data["goals"]["resnet18_ratio_fp32"] = ratios[0]
        self.report.data["goals"]["resnet18_ratio_bf16"] = ratios[1]
        self.report.data["goals"]["resnet18_at_least_pytorch"] = all(r is not None and r >= 1.0 for r in ratios)
        if problems:
            raise CheckFailed("; ".join(problems))

    def export_resnet18(self, spec, base):
        """model.py for the reference: exported from the fp32 run's checkpoint, else from a one-step CPU run."""
        how = {}
        for attempt, run_dir in (("fp32 run", os.path.join(self.work, "resnet18", "fp32")), ("cpu step", None)):
            if run_dir is None:
                run_dir = self.fresh_dir("resnet18", "cpu-step")
                config = write_config(os.path.join(self.work, "resnet18-cpu.json"), dict(base, batch_size=2, steps=1))
                step = self.train(spec, config, run_dir, device="cpu")
                if step.rc != 0:
                    how[attempt] = step.error_text()
                    continue
            out = os.path.join(run_dir, "export")
            run = run_engine([self.engine, "export", "--spec", spec, "--run-dir", run_dir, "--out", out], self.log,
                             self.args.timeout)
            if run.rc == 0 and os.path.isfile(os.path.join(out, "model.py")):
                how["from"] = attempt
                check = subprocess.run([sys.executable, os.path.join(out, "model.py")], capture_output=True,
                                       text=True, timeout=300)
                lines = (check.stdout.strip() or check.stderr.strip()).splitlines() or [""]
                how["model_py_self_check"] = {"exit_code": check.returncode, "last_line": lines[-1][-300:]}
                return out, how
            how[attempt] = run.error_text()
        how["error"] = "; ".join(f"{k}: {v}" for k, v in how.items())
        return None, how

    def pytorch_reference(self, export_dir, batch, optimizer):
        out = os.path.join(self.work, "pytorch_reference.json")
        cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "pytorch_reference.py"),
               "--model-dir", export_dir, "--device", self.device, "--batch", str(batch),
               "--steps", str(self.args.reference_steps), "--warmup", "10", "--precision", "fp32,bf16",
               "--optimizer", optimizer["name"], "--lr", str(optimizer["lr"]), "--momentum", str(optimizer["momentum"]),
               "--json", out]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return {"errors": {"run": f"timed out after {self.args.timeout} s"}}
        with open(self.log, "a") as log:
            log.write("$ " + " ".join(cmd) + "\n" + p.stdout + "".join("stderr: " + line + "\n"
                                                                      for line in p.stderr.splitlines()))
        try:
            with open(out) as f:
                return json.load(f)
        except (OSError, ValueError):
            return {"errors": {"run": f"exit code {p.returncode}, no result: {p.stderr.strip()[-600:]}"}}

    # ---- 6. two NCCL ranks --------------------------------------------------------------------------------------
    def nccl(self, fig):
        if self.gpu_count < 2:
            return ("skipped", f"{self.gpu_count} GPU{'' if self.gpu_count == 1 else 's'}: "
                               "the 2-rank NCCL check needs 2")
        spec, config = self.example("shapes_cnn")
        run = self.train(spec, config, self.fresh_dir("nccl"), extra=["--nproc", "2"])
        fig.update(run.summary())
        if run.rc != 0 or not run.finished:
            raise CheckFailed(run.error_text())
        if fig.get("world_size") != 2:
            raise CheckFailed(f"world_size {fig.get('world_size')} in the events, expected 2")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", required=True, help="the diamond-train to check")
    p.add_argument("--out", required=True, help="folder of gpu_check.json and engine.log")
    p.add_argument("--repo", required=True, help="the repository root (resources/)")
    p.add_argument("--work", help="scratch folder for run directories (default OUT/work)")
    p.add_argument("--build-record", help="JSON file with the build step's record, put first in the report")
    p.add_argument("--skip", default="", help="comma-separated check names to skip")
    p.add_argument("--threads", type=int, default=4, help="--threads for every engine run")
    p.add_argument("--timeout", type=int, default=300, help="seconds for one engine process")
    p.add_argument("--budget", type=int, default=0, help="skip the checks left after this many seconds (0: none)")
    p.add_argument("--device", default="cuda", help="device of the engine runs (cpu: to try the checks here)")
    p.add_argument("--resnet-batch", type=int, default=128)
    p.add_argument("--resnet-steps", type=int, default=100)
    p.add_argument("--reference-steps", type=int, default=50)
    args = p.parse_args(argv)
    args.engine = os.path.abspath(args.engine)
    args.repo = os.path.abspath(args.repo)
    args.work = os.path.abspath(args.work or os.path.join(args.out, "work"))
    args.skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    os.makedirs(args.work, exist_ok=True)

    checks = Checks(args)
    if args.build_record:
        try:
            with open(args.build_record) as f:
                checks.report.add(json.load(f))
        except (OSError, ValueError) as e:
            checks.report.add({"name": "build", "status": "failed", "seconds": 0, "figures": {},
                               "error": f"no build record ({e})"})
    env = checks.run_check("environment", checks.environment)
    checks.report.data["environment"] = env["figures"]
    checks.run_check("examples_cuda", checks.examples)
    checks.run_check("resume_after_sigkill", checks.resume_after_kill)
    checks.run_check("gpu_checkpoint_cpu_resume", checks.gpu_to_cpu)
    checks.run_check("resnet18_throughput", checks.resnet18)
    checks.run_check("nccl_2_ranks", checks.nccl)
    checks.report.data["goals"]["examples_pass_on_cuda"] = any(
        c["name"] == "examples_cuda" and c["status"] == "ok" for c in checks.report.data["checks"])
    checks.report.data["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    checks.report.write()
    print_summary(checks.report.data, checks.report.path)
    return 0 if checks.report.data["summary"]["failed"] == 0 else 1


def print_summary(data, path):
    print(f"GPU check: {data['summary']} in {data['seconds']} s; report: {path}")
    for c in data["checks"]:
        line = f"  {c['status']:<8} {c['name']:<28} {c['seconds']:>7.1f} s"
        if c.get("error"):
            line += "  " + c["error"].splitlines()[0][:160]
        print(line)
    print("  goals: " + json.dumps(data["goals"], sort_keys=True))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
