// `diamond-train export`: trained weights as safetensors, the spec, test inputs with the
// engine's outputs, and a standalone PyTorch-Python module file that rebuilds the network.
// The files and their formats are described in docs/export.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace diamond::engine {

/// argv[0] is "export". Returns the exit code; throws EngineError/UsageError on failure.
/// On success prints one event line {"event": "exported", "path", "files"} on stdout.
int runExport(int argc, char **argv);

/// Seed of the CPU generator that draws the test inputs (so exports are reproducible).
inline constexpr std::uint64_t kExportTestInputSeed = 20240229;

struct ExportOptions {
    std::string specPath;   ///< required
    std::string runDir;     ///< where checkpoints/ and the default export/ folder live
    std::string checkpoint; ///< empty: the newest valid checkpoint of runDir
    std::string outDir;     ///< empty: <runDir>/export
    int samples = 4;        ///< batch size of the test inputs, 1..4096
};

struct ExportResult {
    std::string path;               ///< the output folder, absolute
    std::vector<std::string> files; ///< file names written, manifest.json last
    std::string checkpoint;         ///< the checkpoint file the weights came from
    std::int64_t step = 0;          ///< its step
};

/// Writes model.safetensors, spec.json, model.py, test_inputs.safetensors,
/// test_outputs.safetensors and manifest.json. Throws EngineError when the spec is invalid, no
/// checkpoint fits the network (the message says why for each one tried), the network fails on
/// the test inputs, or a file cannot be written.
ExportResult exportModel(const ExportOptions &options);

} // namespace diamond::engine
