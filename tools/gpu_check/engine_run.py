"""Running diamond-train for the GPU check: one process, its event lines, and an optional signal sent when a chosen
event arrives (e.g. SIGKILL right after the step-100 checkpoint); and the run configs and data files the checks write.
Standard library only (numpy when present); never imports torch, so the checks hold no CUDA context of their own while
the engine runs."""
import json
import os
import signal
import subprocess
import threading
import time


class EngineRun:
    """The outcome of one diamond-train process."""

    def __init__(self):
        self.rc = None
        self.events = []
        self.stderr_tail = ""
        self.seconds = 0.0
        self.timed_out = False
        self.signalled = None  # (signal name, the event that triggered it) once sent
        self.signal_step = None

    def first(self, kind):
        return next((e for e in self.events if e.get("event") == kind), None)

    def all(self, kind):
        return [e for e in self.events if e.get("event") == kind]

    @property
    def finished(self):
        return self.first("finished")

    def error_text(self):
        """The engine's own words when it failed: its error events, else stderr's end, else the exit code."""
        errors = self.all("error")
        if errors:
            parts = []
            for e in errors:
                text = e.get("message", "")
                if e.get("field"):
                    text += f" [field {e['field']}]"
                if e.get("node"):
                    text += f" [node {e['node']}]"
                if e.get("hint"):
                    text += f" (hint: {e['hint']})"
                parts.append(text)
            return " | ".join(parts)
        if self.timed_out:
            text = f"timed out after {self.seconds:.0f} s"
            return text + (f"; stderr: {self.stderr_tail}" if self.stderr_tail else "")
        if self.stderr_tail:
            return f"exit code {self.rc}; stderr: {self.stderr_tail}"
        return f"exit code {self.rc}"

    def summary(self):
        """Figures worth keeping in the report."""
        started = self.first("started") or {}
        fin = self.finished or {}
        out = {
            "exit_code": self.rc,
            "seconds": round(self.seconds, 3),
            "device": started.get("device"),
            "precision": started.get("precision"),
            "world_size": fin.get("world_size", started.get("world_size")),
            "start_step": started.get("start_step"),
            "finished": bool(fin),
        }
        if fin:
            memory = fin.get("memory") or {}
            out.update({
                "step": fin.get("step"),
                "metrics": fin.get("metrics"),
                "steps_per_s": fin.get("steps_per_s"),
                "loader_fraction": fin.get("loader_fraction"),
                "weights_sha256": fin.get("weights_sha256"),
                "memory_gpu": memory.get("gpu"),
                "peak_rss_bytes": memory.get("peak_rss_bytes"),
                "wall_s": fin.get("wall_s"),
            })
        if self.signalled:
            out["signal"] = self.signalled[0]
            out["signal_after_event"] = self.signalled[1]
        if self.rc not in (0, None) or self.timed_out:
            out["error"] = self.error_text()
        return out


def run_engine(cmd, log_path, timeout_s, env=None, signal_on=None):
    """Runs `cmd` (diamond-train and its arguments) and collects its events.

    signal_on: optional (predicate(event) -> bool, signal number): the signal is sent to the process once, right
    after the first event line the predicate accepts (events are flushed line by line, so this lands within a step
    or two of it). Every stdout and stderr line is also appended to log_path."""
    run = EngineRun()
    start = time.monotonic()
    with open(log_path, "a") as log:
        log.write("$ " + " ".join(cmd) + "\n")
        log.flush()
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                    start_new_session=True)
        except OSError as e:
            run.rc = 127
            run.stderr_tail = f"cannot start {cmd[0]}: {e}"
            return run
        stderr_lines = []

        def read_stderr():
            for line in proc.stderr:
                stderr_lines.append(line.rstrip("\n"))
                log.write("stderr: " + line)

        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()

        def on_timeout():
            run.timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

        timer = threading.Timer(timeout_s, on_timeout)
        timer.start()
        try:
            for line in proc.stdout:
                log.write(line)
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(event, dict):
                    continue
                run.events.append(event)
                if signal_on and run.signalled is None and signal_on[0](event):
                    try:
                        proc.send_signal(signal_on[1])
                        run.signalled = (signal.Signals(signal_on[1]).name,
                                         {k: event.get(k) for k in ("event", "step", "path")})
                    except OSError:
                        pass
            proc.wait()
        finally:
            timer.cancel()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        reader.join(timeout=5)
    run.rc = proc.returncode
    run.seconds = time.monotonic() - start
    run.stderr_tail = "\n".join(stderr_lines[-8:])[-1500:]
    return run


def checkpoint_at_least(step):
    """signal_on predicate: a checkpoint event at `step` or later."""
    return lambda e: e.get("event") == "checkpoint" and int(e.get("step", 0)) >= step


def write_config(path, config):
    with open(path, "w") as f:
        json.dump(config, f, indent=2, sort_keys=True)
        f.write("\n")
    return path


def make_npy_data(folder, samples, shape, classes):
    """x.npy (float32, standard normal) and y.npy (int64 in [0, classes), the last one classes-1 so the engine
    counts `classes` classes) for the npy source; written with numpy when present, else by hand."""
    try:
        import numpy as np
        rng = np.random.default_rng(1)
        x = rng.standard_normal((samples,) + tuple(shape), dtype=np.float32)
        y = rng.integers(0, classes, samples, dtype=np.int64)
        y[-1] = classes - 1
        np.save(os.path.join(folder, "x.npy"), x)
        np.save(os.path.join(folder, "y.npy"), y)
        return
    except ImportError:
        pass
    import random
    import struct
    rng = random.Random(1)

    def save(path, descr, dims, payload):
        header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (descr, tuple(dims))
        header += " " * (-(10 + len(header) + 1) % 64) + "\n"
        with open(path, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + payload)

    count = samples
    for d in shape:
        count *= d
    block = struct.pack("<65536f", *(rng.gauss(0.0, 1.0) for _ in range(65536)))  # tiled: content is irrelevant
    floats = (block * (count // 65536 + 1))[:4 * count]
    save(os.path.join(folder, "x.npy"), "<f4", (samples,) + tuple(shape), floats)
    ys = [rng.randrange(classes) for _ in range(samples - 1)] + [classes - 1]
    save(os.path.join(folder, "y.npy"), "<i8", (samples,), struct.pack(f"<{samples}q", *ys))
