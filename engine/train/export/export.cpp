#include "export/export.h"

#include "checkpoint.h"
#include "engine_cli.h"
#include "engine_error.h"
#include "events.h"
#include "export/python_codegen.h"
#include "export/safetensors.h"
#include "export/tensor_io.h"
#include "model/network.h"
#include "sha256.h"

#include "diamond/spec/spec.h"
#include "diamond/version.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace diamond::engine {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxSamples = 4096;
/// Ids of integer inputs that feed no Embedding are drawn from [0, kDefaultIdBound).
constexpr std::int64_t kDefaultIdBound = 10;

ExportOptions parseArguments(int argc, char **argv) {
    ExportOptions o;
    auto value = [&](int &i, const std::string &flag) -> std::string {
        if (i + 1 >= argc) throw UsageError("Option " + flag + " needs a value.", flag);
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--spec") {
            o.specPath = value(i, arg);
        } else if (arg == "--run-dir") {
            o.runDir = value(i, arg);
        } else if (arg == "--checkpoint") {
            o.checkpoint = value(i, arg);
        } else if (arg == "--out") {
            o.outDir = value(i, arg);
        } else if (arg == "--samples") {
            const std::string v = value(i, arg);
            char *end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || !end || *end || n < 1 || n > kMaxSamples) {
                throw UsageError("--samples must be a whole number from 1 to " + std::to_string(kMaxSamples) +
                                     ", got '" + v + "'.",
                                 arg);
            }
            o.samples = static_cast<int>(n);
        } else {
            throw UsageError("Unknown export option '" + arg + "'. See diamond-train --help.", arg);
        }
    }
    if (o.specPath.empty()) throw UsageError("export: --spec is required.", "--spec");
    if (o.runDir.empty() && (o.checkpoint.empty() || o.outDir.empty()))
        throw UsageError("export: --run-dir is required (unless both --checkpoint and --out are given).", "--run-dir");
    return o;
}

std::string readBytes(const std::string &path, const std::string &field) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw EngineError("Could not open " + path + ".", field);
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw EngineError("Could not read " + path + ".", field);
    return text.str();
}

/// Writes through a temporary file and a rename, so a reader never sees a partial file.
void writeBytes(const fs::path &path, const std::string &bytes) {
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) throw EngineError("Could not write " + path.string() + ".", "--out");
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw EngineError("Could not move " + path.string() + " into place: " + ec.message(), "--out");
}

/// Smallest num_embeddings among the Embedding nodes reachable from graph input `name`, so
/// that every drawn id is valid for each of them; kDefaultIdBound when there is none.
std::int64_t idBound(const Network &net, const std::string &name) {
    const spec::Spec &s = net.spec();
    std::map<std::string, std::vector<std::size_t>> consumers; // producer id -> consuming node indices
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        for (const auto &ref : s.nodes[i].inputs)
            consumers[ref.node].push_back(i);
    }
    std::int64_t bound = -1;
    std::set<std::string> seen = {name};
    std::vector<std::string> frontier = {name};
    while (!frontier.empty()) {
        const auto it = consumers.find(frontier.back());
        frontier.pop_back();
        if (it == consumers.end()) continue;
        for (const std::size_t i : it->second) {
            const spec::Node &node = s.nodes[i];
            if (!seen.insert(node.id).second) continue;
            frontier.push_back(node.id);
            const spec::NodeInfo *info = net.analysis().node(node.id);
            if (node.type == "Embedding" && info && info->params.contains("num_embeddings")) {
                const std::int64_t n = info->params["num_embeddings"].get<std::int64_t>();
                bound = bound < 0 ? n : std::min(bound, n);
            }
        }
    }
    return bound > 0 ? bound : kDefaultIdBound;
}

/// Test inputs in spec order, batch `samples`: standard normal for floating inputs, ids in
/// [0, idBound) for integer inputs, fair coins for bool; all from one generator seeded with
/// kExportTestInputSeed.
std::vector<torch::Tensor> testInputs(const Network &net, int samples) {
    at::Generator gen = at::detail::createCPUGenerator(kExportTestInputSeed);
    std::vector<torch::Tensor> out;
    for (const auto &in : net.spec().inputs) {
        std::vector<std::int64_t> shape;
        for (const std::int64_t d : in.shape)
            shape.push_back(d == spec::kBatch ? samples : d);
        if (spec::isFloating(in.dtype)) {
            out.push_back(torch::randn(shape, gen, torch::kFloat32).to(torchType(in.dtype)));
        } else if (in.dtype == spec::DType::Bool) {
            out.push_back(torch::randint(0, 2, shape, gen, torch::kInt64).to(torch::kBool));
        } else {
            out.push_back(torch::randint(0, idBound(net, in.name), shape, gen, torchType(in.dtype)));
        }
    }
    return out;
}

/// Loads the model state of `net` from `options.checkpoint`, or else from the newest
/// checkpoint of the run that fits. Returns (path, step).
std::pair<std::string, std::int64_t> loadWeights(Network &net, const ExportOptions &options) {
    CheckpointState state;
    state.model = net.namedState(); // the network's own tensors: readCheckpoint fills them in place
    if (!options.checkpoint.empty()) {
        try {
            readCheckpoint(options.checkpoint, state);
        } catch (const c10::Error &e) {
            throw EngineError("Could not read the checkpoint " + options.checkpoint + ": " + e.what_without_backtrace(),
                              "--checkpoint");
        } catch (const std::exception &e) {
            throw EngineError("Could not read the checkpoint " + options.checkpoint + ": " + e.what(), "--checkpoint");
        }
        return {options.checkpoint, state.step};
    }
    const auto checkpoints = listCheckpoints(options.runDir);
    const std::string dir = (fs::path(options.runDir) / "checkpoints").string();
    if (checkpoints.empty()) {
        throw EngineError("There is no checkpoint to export in " + dir + ".", "--run-dir", {},
                          "Train the network first (diamond-train --spec ... --run-dir " + options.runDir +
                              "), or name a checkpoint file with --checkpoint.");
    }
    std::string reasons;
    for (const auto &[step, path] : checkpoints) {
        try {
            readCheckpoint(path, state);
            return {path, state.step};
        } catch (const c10::Error &e) {
            reasons += " " + fs::path(path).filename().string() + ": " + e.what_without_backtrace() + ".";
        } catch (const std::exception &e) {
            reasons += " " + fs::path(path).filename().string() + ": " + e.what() + ".";
        }
    }
    throw EngineError("None of the " + std::to_string(checkpoints.size()) + " checkpoint(s) in " + dir +
                          " can be loaded into this network." + reasons,
                      "--run-dir", {}, "Check that --spec is the spec the run was trained with.");
}

std::string weightsSha256(const SafetensorsFile &weights) {
    Sha256 sha;
    for (const auto &t : weights.tensors)
        sha.update(t.data.data(), t.data.size());
    return sha.hexDigest();
}

} // namespace

ExportResult exportModel(const ExportOptions &options) {
    if (options.samples < 1 || options.samples > kMaxSamples)
        throw EngineError("samples must be from 1 to " + std::to_string(kMaxSamples) + ".", "--samples");
    const std::string specText = readBytes(options.specPath, "--spec");
    const spec::ParseResult parsed = spec::parseSpec(specText);
    for (const auto &d : parsed.diagnostics) {
        if (d.severity == spec::Severity::Error)
            throw EngineError(options.specPath + ": " + spec::formatDiagnostic(d), "spec", d.node, d.hint);
    }
    std::unique_ptr<Network> net = Network::build(parsed.spec);
    net->train(false);
    ExportResult result;
    std::tie(result.checkpoint, result.step) = loadWeights(*net, options);

    const fs::path out = options.outDir.empty() ? fs::path(options.runDir) / "export" : fs::path(options.outDir);
    std::error_code ec;
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out))
        throw EngineError("Could not create the export folder " + out.string() + ".", "--out");
    result.path = fs::absolute(out).lexically_normal().string();
    if (result.path.size() > 1 && result.path.back() == '/') result.path.pop_back();

    const std::string specSha = sha256Hex(specText.data(), specText.size());
    nlohmann::ordered_json files = nlohmann::ordered_json::object();
    const auto write = [&](const std::string &name, const std::string &bytes) {
        writeBytes(out / name, bytes);
        files[name] = sha256Hex(bytes.data(), bytes.size());
        result.files.push_back(name);
    };

    SafetensorsFile weights;
    for (const auto &[name, tensor] : net->namedState())
        weights.tensors.push_back(toSafetensors(name, tensor));
    const std::string weightsSha = weightsSha256(weights);
    weights.metadata = {{"format", "pt"},
                        {"diamond.spec_sha256", specSha},
                        {"diamond.weights_sha256", weightsSha},
                        {"diamond.step", std::to_string(result.step)},
                        {"diamond.engine_version", DIAMOND_VERSION}};
    write("model.safetensors", serializeSafetensors(weights));
    write("spec.json", specText);

    PythonModuleInfo info;
    info.specSha256 = specSha;
    info.engineVersion = DIAMOND_VERSION;
    write("model.py", generatePythonModule(*net, info));

    const std::vector<torch::Tensor> inputs = testInputs(*net, options.samples);
    std::vector<torch::Tensor> outputs;
    {
        torch::NoGradGuard noGrad;
        outputs = net->forward(inputs);
    }
    SafetensorsFile inputFile, outputFile;
    inputFile.metadata = outputFile.metadata = {{"format", "pt"}, {"diamond.spec_sha256", specSha}};
    inputFile.metadata["diamond.seed"] = std::to_string(kExportTestInputSeed);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        inputFile.tensors.push_back(toSafetensors(parsed.spec.inputs[i].name, inputs[i]));
    for (std::size_t i = 0; i < outputs.size(); ++i)
        outputFile.tensors.push_back(toSafetensors(parsed.spec.outputs[i].name, outputs[i]));
    write("test_inputs.safetensors", serializeSafetensors(inputFile));
    write("test_outputs.safetensors", serializeSafetensors(outputFile));

    nlohmann::ordered_json manifest = {
        {"format", "diamond.export/1"},
        {"engine_version", DIAMOND_VERSION},
        {"libtorch_version", TORCH_VERSION},
        {"spec_sha256", specSha},
        {"weights_sha256", weightsSha},
        {"checkpoint", fs::path(result.checkpoint).filename().string()},
        {"step", result.step},
        {"samples", options.samples},
        {"seed", kExportTestInputSeed},
        {"files", files},
    };
    writeBytes(out / "manifest.json", manifest.dump(2) + "\n");
    result.files.push_back("manifest.json");
    return result;
}

int runExport(int argc, char **argv) {
    const ExportResult result = exportModel(parseArguments(argc, argv));
    EventWriter events;
    events.emit({{"event", "exported"}, {"path", result.path}, {"files", result.files}, {"step", result.step}});
    return kExitFinished;
}

} // namespace diamond::engine
