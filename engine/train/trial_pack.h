// Trial packing: `diamond-train pack --trials PACK.json` trains many small runs one after another in one process,
// so the process start-up (libtorch load, thread pools) is paid once per pack instead of once per trial.
//
// PACK.json ("diamond.pack/1", docs/trial-packing.md): {"format": "diamond.pack/1", "trials": [{"spec": FILE,
// "config": FILE, "run_dir": DIR, "resume": false}, ...]}; relative paths are relative to PACK.json's folder.
// Each trial is exactly a normal run: its events go to <run_dir>/events.jsonl (not stdout), its checkpoints to
// <run_dir>, and it ends with the same weights_sha256 as `diamond-train --spec --config --run-dir` with the same
// thread count. Stdout carries one line per trial: {"event": "trial_exit", "index": i, "run_dir": DIR,
// "exit_code": 0|1|2|85} or {"event": "trial_exit", "index": i, "run_dir": DIR, "skipped": true, "reason": ...}.
//
// Control: a file <run_dir>/cancel written before a trial starts skips it; SIGUSR2 stops the running trial (it
// checkpoints, exit_code 85) and the pack goes on with the next; SIGTERM/SIGINT/SIGUSR1 stop the running trial
// the same way and skip the rest (reason "stopped"), and the pack exits 85. Otherwise the pack exits 0 when every
// trial was attempted (whatever their results), 1 or 2 when PACK.json or the command line is bad.
#pragma once

namespace diamond::engine {

/// argv[0] is "pack".
int runPack(int argc, char **argv);

} // namespace diamond::engine
