// `diamond-train predict`: runs a network with given weights on given inputs, nothing else — used to verify that a
// shared model package reproduces its expected test outputs (the gallery's "verified"), and by scripts.
//
//   diamond-train predict --spec SPEC.json --weights W.safetensors --inputs IN.safetensors --output OUT.safetensors
//                         [--threads N] [--device cpu|cuda]
//
// IN holds one tensor per spec input, by input name (batch first, the spec's dtype and per-sample shape); OUT
// gets one tensor per spec output, by output name, written atomically. The network runs in evaluation mode under
// no-grad. On success one line {"event": "predicted", "path": OUT, "outputs": [names], "samples": N} is printed.
// Missing, extra or mismatched tensors are errors naming the tensor (exit 1); a bad command line exits 2.
#pragma once

namespace diamond::engine {

/// argv[0] is "predict".
int runPredict(int argc, char **argv);

} // namespace diamond::engine
