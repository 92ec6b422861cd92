#include "export/predict.h"

#include "compute_device.h"
#include "engine_cli.h"
#include "engine_error.h"
#include "events.h"
#include "export/tensor_io.h"
#include "model/network.h"

#include "diamond/config/run_config.h"
#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"

#include <filesystem>
#include <iostream>

namespace diamond::engine {

namespace {

struct PredictArguments {
    std::string spec, weights, inputs, output, device = "cpu";
    int threads = -1;
};

PredictArguments parsePredictArguments(int argc, char **argv) {
    PredictArguments a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError("Option '" + arg + "' needs a value.", arg);
            return argv[++i];
        };
        if (arg == "--spec")
            a.spec = value();
        else if (arg == "--weights")
            a.weights = value();
        else if (arg == "--inputs")
            a.inputs = value();
        else if (arg == "--output")
            a.output = value();
        else if (arg == "--device")
            a.device = parseDeviceOption(value());
        else if (arg == "--threads")
            a.threads = parseThreadsOption(value());
        else {
            throw UsageError("Unknown option '" + arg + "' for predict. See diamond-train --help.", arg);
        }
    }
    for (const auto &[name, v] : {std::pair{"--spec", &a.spec}, std::pair{"--weights", &a.weights},
                                  std::pair{"--inputs", &a.inputs}, std::pair{"--output", &a.output}})
        if (v->empty()) throw UsageError(std::string("predict needs ") + name + ".", name);
    return a;
}

} // namespace

int runPredict(int argc, char **argv) {
    const PredictArguments args = parsePredictArguments(argc, argv);
    if (args.threads > 0) at::set_num_threads(args.threads);
    const spec::ParseResult parsed = spec::loadSpecFile(args.spec);
    for (const auto &d : parsed.diagnostics)
        if (d.severity == spec::Severity::Error)
            throw EngineError(args.spec + ": " + spec::formatDiagnostic(d), "spec", d.node, d.hint);
    // The weights are read and checked against the spec before the network exists: a spec far larger than its
    // weights is refused before its parameters are allocated.
    const spec::Analysis analysis = spec::analyze(parsed.spec);
    SafetensorsFile weights = readSafetensors(args.weights);
    checkWeightsFitSpec(analysis, weights, args.weights);
    std::unique_ptr<Network> net = Network::build(parsed.spec);
    loadNetworkWeights(*net, weights, args.weights);
    weights = SafetensorsFile();
    net->train(false);
    const torch::Device device(chooseDevice(args.device, 0, deviceSupport()));
    if (!device.is_cpu()) net->to(device);

    const SafetensorsFile inputFile = readSafetensors(args.inputs);
    std::vector<torch::Tensor> inputs;
    std::int64_t samples = -1;
    for (const auto &in : parsed.spec.inputs) {
        const SafetensorsTensor *entry = inputFile.find(in.name);
        if (!entry)
            throw EngineError(args.inputs + " has no tensor '" + in.name + "' for the network's input of that name.",
                              "--inputs", in.name);
        // Shape and dtype as declared, checked before the tensor is made.
        if (entry->shape.size() != in.shape.size())
            throw EngineError(args.inputs + ": the input '" + in.name + "' has " + std::to_string(entry->shape.size()) +
                                  " dimensions; the spec expects " + spec::formatShape(in.shape) + ".",
                              "--inputs", in.name);
        for (std::size_t d = 0; d < in.shape.size(); ++d)
            if (in.shape[d] != spec::kBatch && entry->shape[d] != in.shape[d])
                throw EngineError(args.inputs + ": the input '" + in.name + "' does not match the spec's shape " +
                                      spec::formatShape(in.shape) + ".",
                                  "--inputs", in.name);
        const torch::ScalarType type = scalarTypeOf(*entry);
        if (type != torchType(in.dtype))
            throw EngineError(args.inputs + ": the input '" + in.name + "' is " + std::string(c10::toString(type)) +
                                  ", the spec says " + spec::dtypeName(in.dtype) + ".",
                              "--inputs", in.name);
        if (samples < 0) samples = entry->shape.empty() ? 0 : entry->shape[0];
        inputs.push_back(fromSafetensors(*entry).to(device));
    }
    for (const SafetensorsTensor &entry : inputFile.tensors) {
        bool known = false;
        for (const auto &in : parsed.spec.inputs)
            known = known || in.name == entry.name;
        if (!known)
            throw EngineError(args.inputs + " holds the tensor '" + entry.name +
                                  "', which is not an input of the network.",
                              "--inputs");
    }
    // The activations of this many samples, estimated from the spec, must fit the memory cap.
    spec::MemoryOptions memory;
    memory.batch = std::max<std::int64_t>(samples, 1);
    const std::int64_t activations = spec::estimateMemory(analysis, memory).activations;
    const std::int64_t cap = ::diamond::config::defaultDataMaxBytes();
    if (activations > cap)
        throw EngineError("Running " + std::to_string(samples) + " samples through the network needs about " +
                              std::to_string(activations) + " bytes of activations, more than the memory cap of " +
                              std::to_string(cap) + " bytes.",
                          "--inputs", {}, "Predict fewer samples at a time.");
    std::vector<torch::Tensor> outputs;
    {
        torch::NoGradGuard noGrad;
        outputs = net->forward(inputs);
    }
    SafetensorsFile outFile;
    outFile.metadata = {{"format", "pt"}};
    nlohmann::json names = nlohmann::json::array();
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        outFile.tensors.push_back(toSafetensors(parsed.spec.outputs[i].name, outputs[i]));
        names.push_back(parsed.spec.outputs[i].name);
    }
    const std::filesystem::path parent = std::filesystem::path(args.output).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent);
    writeSafetensors(args.output, outFile);
    EventWriter events;
    events.emit({{"event", "predicted"}, {"path", args.output}, {"outputs", names}, {"samples", samples}});
    return kExitFinished;
}

} // namespace diamond::engine
