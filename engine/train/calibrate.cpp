#include "calibrate.h"

#include "compute_device.h"
#include "torch_compat.h"

#include "distributed.h"
#include "engine_cli.h"
#include "engine_error.h"
#include "events.h"
#include "model/network.h"
#include "optimizer.h"
#include "run_config.h"
#include "trainer.h"

#include "diamond/spec/spec.h"
#include "diamond/version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace diamond::engine {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// Median seconds of `fn` after two warm-up calls, repeated for at least `budget` seconds (3 to 200 times).
template <typename Fn> double timeIt(Fn &&fn, double budget) {
    fn();
    fn();
    std::vector<double> times;
    const Clock::time_point start = Clock::now();
    while (times.size() < 3 || (secondsSince(start) < budget && times.size() < 200)) {
        const Clock::time_point t = Clock::now();
        fn();
        times.push_back(secondsSince(t));
    }
    std::nth_element(times.begin(), times.begin() + std::ptrdiff_t(times.size() / 2), times.end());
    return times[times.size() / 2];
}

/// A one-layer network: input `shape` (batch first), one node of `type` with `params`.
std::unique_ptr<Network> oneLayer(const std::vector<std::int64_t> &shape, const std::string &type, const json &params) {
    json inputShape = json::array({"N"});
    for (std::size_t i = 1; i < shape.size(); ++i)
        inputShape.push_back(shape[i]);
    json axes =
        shape.size() == 4 ? json::array({"batch", "channel", "height", "width"}) : json::array({"batch", "feature"});
    const json doc = {
        {"format", "diamond.spec/1"},
        {"name", "probe"},
        {"inputs", json::array({{{"name", "x"}, {"shape", inputShape}, {"axes", axes}}})},
        {"nodes", json::array({{{"id", "probe"}, {"type", type}, {"inputs", {"x"}}, {"params", params}}})},
        {"outputs", json::array({{{"name", "y"}, {"from", "probe"}}})}};
    const spec::ParseResult parsed = spec::parseSpecJson(doc);
    if (!parsed.ok()) throw EngineError("calibrate: a probe network did not parse (" + type + ")");
    return Network::build(parsed.spec);
}

/// Seconds of one forward and backward pass of `net` on a batch of `shape` (with the input's gradient).
double trainPass(Network &net, const std::vector<std::int64_t> &shape, const torch::Device &device, bool channelsLast,
                 double budget) {
    net.to(device);
    if (channelsLast) net.useChannelsLast();
    net.train(true);
    torch::Tensor x = torch::randn(shape, torch::TensorOptions().device(device));
    if (channelsLast) x = x.contiguous(at::MemoryFormat::ChannelsLast);
    x.requires_grad_(true); // as for a layer inside a network: its input's gradient is computed too
    // The output's gradient arrives dense, as from the next layer (y.sum().backward() would hand a broadcast one).
    torch::Tensor gradOut;
    auto pass = [&] {
        for (torch::Tensor &p : net.parameters())
            if (p.grad().defined()) p.grad().zero_();
        x.mutable_grad() = torch::Tensor();
        torch::Tensor y = net.forward({x}).front();
        if (!gradOut.defined()) gradOut = torch::randn_like(y);
        y.backward(gradOut);
        if (device.is_cuda()) torch::cuda::synchronize();
    };
    return timeIt(pass, budget);
}

json linearProbes(const CalibrateOptions &o, const torch::Device &device) {
    std::vector<std::array<std::int64_t, 3>> shapes = {
        {32, 64, 64}, {64, 256, 256}, {128, 784, 512}, {256, 1024, 1024}};
    if (o.quick) shapes = {{32, 64, 64}, {128, 256, 256}};
    json out = json::array();
    for (const auto &[batch, in, outFeatures] : shapes) {
        auto net = oneLayer({batch, in}, "Linear", {{"out_features", outFeatures}});
        const double s = trainPass(*net, {batch, in}, device, false, o.probeSeconds);
        const double flops = 3.0 * 2.0 * double(batch) * double(in) * double(outFeatures); // forward + 2 backward
        out.push_back(
            {{"batch", batch}, {"in", in}, {"out", outFeatures}, {"seconds", s}, {"gflops", flops / s / 1e9}});
    }
    return out;
}

json convolutionProbes(const CalibrateOptions &o, const torch::Device &device) {
    // batch, in channels, out channels, height = width; 3x3 kernels, padding 1.
    // Input channels 1, 8, 32 and 64: on the CPU a convolution's rate depends mostly on them (oneDNN vectorises over
    // channels; one input channel runs ~8x slower per FLOP than 32), which the model interpolates.
    std::vector<std::array<std::int64_t, 4>> shapes = {
        {16, 1, 32, 28}, {32, 8, 16, 28}, {32, 32, 64, 14}, {8, 64, 64, 56}};
    if (o.quick) shapes = {{8, 8, 16, 16}};
    json out = json::array();
    for (const auto &[batch, cin, cout, hw] : shapes) {
        auto net =
            oneLayer({batch, cin, hw, hw}, "Conv2d", {{"out_channels", cout}, {"kernel_size", 3}, {"padding", 1}});
        const double s = trainPass(*net, {batch, cin, hw, hw}, device, device.is_cpu(), o.probeSeconds);
        const double flops = 3.0 * 2.0 * double(batch) * double(cin) * double(cout) * 9.0 * double(hw * hw);
        out.push_back({{"batch", batch},
                       {"in_channels", cin},
                       {"out_channels", cout},
                       {"size", hw},
                       {"seconds", s},
                       {"gflops", flops / s / 1e9}});
    }
    return out;
}

/// ReLU forward and backward at a few sizes, from cache-resident to larger than the caches: `points` of (elements,
/// seconds) and the bytes moved per second at the largest (forward reads and writes, backward reads two and writes
/// one: 5 * 4 bytes per element); and the time of a tiny layer (the per-layer overhead).
json elementwiseProbe(const CalibrateOptions &o, const torch::Device &device) {
    // Not larger: at 4 Mi elements the probe's fresh 16 MiB buffers cost page faults that training does not see
    // (59-66 ms against 0.33-0.41 ms at 1 Mi on the development VM).
    std::vector<std::int64_t> sizes = {1 << 14, 1 << 18, 1 << 20};
    if (o.quick) sizes = {1 << 14, 1 << 18};
    json points = json::array();
    double seconds = 0;
    for (const std::int64_t elements : sizes) {
        auto net = oneLayer({elements / 1024, 1024}, "ReLU", json::object());
        seconds = trainPass(*net, {elements / 1024, 1024}, device, false, o.probeSeconds);
        points.push_back({{"elements", elements}, {"seconds", seconds}});
    }
    auto tiny = oneLayer({1, 4}, "Linear", {{"out_features", 4}});
    const double overhead = trainPass(*tiny, {1, 4}, device, false, o.probeSeconds / 2);
    return {{"elements", sizes.back()},
            {"seconds", seconds},
            {"gb_s", 5.0 * 4.0 * double(sizes.back()) / seconds / 1e9},
            {"points", points},
            {"layer_overhead_s", overhead}};
}

/// The layers that cost more per element than a ReLU, one probe per kind (forward and backward, 4-d inputs
/// channels-last as in training), at 16 Ki, 256 Ki and 1 Mi input elements: {kind: {"layer", "points": [{elements,
/// seconds}]}}. Measured on the development VM at 1 thread: Tanh ~6x a ReLU per element, pooling ~5x.
json elementwiseKindProbes(const CalibrateOptions &o, const torch::Device &device) {
    struct Kind {
        const char *name, *layer;
        json params;
        bool image; ///< a [N, 16, 32, 32] input rather than [N, 1024]
    };
    const std::vector<Kind> kinds = {{"transcendental", "Tanh", json::object(), false},
                                     {"pooling", "MaxPool2d", {{"kernel_size", 2}}, true},
                                     {"normalization", "BatchNorm2d", json::object(), true}};
    std::vector<std::int64_t> sizes = {1 << 14, 1 << 18, 1 << 20};
    if (o.quick) sizes = {1 << 14, 1 << 16};
    json out = json::object();
    for (const Kind &k : kinds) {
        json points = json::array();
        for (const std::int64_t elements : sizes) {
            const std::vector<std::int64_t> shape = k.image ? std::vector<std::int64_t>{elements / 16384, 16, 32, 32}
                                                            : std::vector<std::int64_t>{elements / 1024, 1024};
            auto net = oneLayer(shape, k.layer, k.params);
            const double s = trainPass(*net, shape, device, k.image && device.is_cpu(), o.probeSeconds);
            points.push_back({{"elements", elements}, {"seconds", s}});
        }
        out[k.name] = {{"layer", k.layer}, {"points", points}};
    }
    return out;
}

json optimizerProbe(const CalibrateOptions &o, const torch::Device &device) {
    const std::int64_t numel = o.quick ? (1 << 18) : (1 << 22);
    json out = json::object();
    for (const std::string name : {"sgd", "adam"}) {
        torch::Tensor w = torch::randn({numel}, torch::TensorOptions().device(device)).requires_grad_(true);
        FlatParameters flat({w});
        flat.grads().normal_();
        OptimizerConfig config;
        config.name = name;
        config.momentum = name == "sgd" ? 0.9 : 0.0;
        auto optimizer = makeOptimizer(config, flat.numel(), flat.values().options());
        const double s = timeIt(
            [&] {
                torch::NoGradGuard noGrad;
                optimizer->step(flat, 1e-6);
                if (device.is_cuda()) torch::cuda::synchronize();
            },
            o.probeSeconds);
        out[name == "sgd" ? "sgd_momentum_ns_per_param" : "adam_ns_per_param"] = s / double(numel) * 1e9;
    }
    return out;
}

double memoryBandwidth(const CalibrateOptions &o, const torch::Device &device) {
    const std::int64_t elements = o.quick ? (1 << 20) : (1 << 24);
    torch::Tensor a = torch::randn({elements}, torch::TensorOptions().device(device));
    torch::Tensor b = torch::empty_like(a);
    const double s = timeIt(
        [&] {
            b.copy_(a);
            if (device.is_cuda()) torch::cuda::synchronize();
        },
        o.probeSeconds);
    return 2.0 * 4.0 * double(elements) / s / 1e9; // read + write
}

/// Writes a checkpoint-sized file into `dir` and syncs it, as checkpoints are: MB/s.
double checkpointWrite(const CalibrateOptions &o) {
    namespace fs = std::filesystem;
    const std::size_t bytes = o.quick ? (std::size_t(4) << 20) : (std::size_t(64) << 20);
    const std::string data(bytes, '\x5a');
    const fs::path file = fs::path(o.dir) / (".calibrate-" + std::to_string(::getpid()) + ".bin");
    std::vector<double> times;
    for (int i = 0; i < 3; ++i) {
        const Clock::time_point t = Clock::now();
        FILE *f = std::fopen(file.c_str(), "wb");
        if (!f) throw EngineError("calibrate: cannot write into " + o.dir, "--dir");
        const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size() && std::fflush(f) == 0 &&
                        ::fsync(::fileno(f)) == 0;
        std::fclose(f);
        if (!ok) throw EngineError("calibrate: writing " + file.string() + " failed (disk full?)", "--dir");
        times.push_back(secondsSince(t));
    }
    std::error_code ec;
    fs::remove(file, ec);
    std::sort(times.begin(), times.end());
    return double(bytes) / times[1] / 1e6;
}

/// [{"bytes", "seconds"}] per size: the mean of its timings without the fastest and slowest fifth.
json middleMeans(const std::vector<std::int64_t> &sizes, std::vector<std::vector<double>> &times) {
    json out = json::array();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::vector<double> &t = times[i];
        std::sort(t.begin(), t.end());
        const std::size_t cut = t.size() / 5;
        double sum = 0;
        for (std::size_t k = cut; k < t.size() - cut; ++k)
            sum += t[k];
        out.push_back({{"bytes", sizes[i]}, {"seconds", sum / double(t.size() - 2 * cut)}});
    }
    return out;
}

json allReduceProbe(Communicator &comm, const CalibrateOptions &o, const torch::Device &device) {
    std::vector<std::int64_t> sizes = {1 << 10, 8 << 10, 64 << 10, 512 << 10, 4 << 20, 32 << 20, 64 << 20};
    if (o.quick) sizes = {1 << 10, 64 << 10, 1 << 20};
    std::vector<torch::Tensor> tensors;
    std::vector<int> repeats;
    for (const std::int64_t bytes : sizes) {
        tensors.push_back(torch::ones({bytes / 4}, torch::TensorOptions().device(device)));
        repeats.push_back(bytes >= (std::int64_t(8) << 20) ? 4 : bytes >= (std::int64_t(1) << 20) ? 12 : 40);
        for (int i = 0; i < 5; ++i) // Gloo's first calls at a new size are slow
            comm.allReduceSum(tensors.back());
    }
    // The sizes take turns, round by round, so that a slow spell of the machine (on a shared 2-core VM the median of
    // one size measured in one go swung between 0.09 and 3.6 ms from one calibration to the next) spreads over all
    // sizes instead of falling on one. The same calls in the same order on every rank: each collective needs all.
    comm.barrier();
    std::vector<std::vector<double>> times(sizes.size());
    const int rounds = *std::max_element(repeats.begin(), repeats.end());
    for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (round >= repeats[i]) continue;
            const Clock::time_point start = Clock::now();
            comm.allReduceSum(tensors[i]);
            times[i].push_back(secondsSince(start));
        }
    // The mean of the middle calls, since training pays the slow calls too.
    return middleMeans(sizes, times);
}

/// Point to point between ranks 0 and 1 (what pipeline stages send each other): the one-way time of a message of each
/// size, half of a send-and-reply measured as the all-reduce is (sizes in turns, the mean of the middle calls). Other
/// ranks take no part.
json sendProbe(Communicator &comm, const CalibrateOptions &o, const torch::Device &device) {
    std::vector<std::int64_t> sizes = {1 << 10, 16 << 10, 128 << 10, 512 << 10, 4 << 20, 32 << 20};
    if (o.quick) sizes = {1 << 10, 128 << 10, 1 << 20};
    const int rank = comm.rank();
    if (rank > 1) return json::array();
    const int peer = 1 - rank;
    std::vector<torch::Tensor> tensors;
    const auto exchange = [&](torch::Tensor &t) {
        if (rank == 0) {
            comm.send(t, peer);
            comm.recv(t, peer);
        } else {
            comm.recv(t, peer);
            comm.send(t, peer);
        }
    };
    for (const std::int64_t bytes : sizes) {
        tensors.push_back(torch::ones({bytes / 4}, torch::TensorOptions().device(device)));
        for (int i = 0; i < 5; ++i)
            exchange(tensors.back());
    }
    const int rounds = 20;
    std::vector<std::vector<double>> times(sizes.size());
    for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            const Clock::time_point start = Clock::now();
            exchange(tensors[i]);
            times[i].push_back(secondsSince(start) / 2);
        }
    return middleMeans(sizes, times);
}

/// A network the calibration trains for real, with its data.
struct ReferenceNetwork {
    json spec;
    json data; ///< the run config's "data" without "samples"
    int steps = 300;
};

/// A 2-64-64-3 MLP on the spirals: almost no compute, so its step is the per-step cost outside the layers.
ReferenceNetwork mlpReference(const CalibrateOptions &o) {
    auto linear = [](const char *id, const char *from, int out) {
        return json{{"id", id}, {"type", "Linear"}, {"inputs", {from}}, {"params", {{"out_features", out}}}};
    };
    auto relu = [](const char *id, const char *from) { return json{{"id", id}, {"type", "ReLU"}, {"inputs", {from}}}; };
    return {{{"format", "diamond.spec/1"},
             {"name", "reference"},
             {"inputs", json::array({{{"name", "x"}, {"shape", {"N", 2}}}})},
             {"nodes", json::array({linear("fc1", "x", 64), relu("relu1", "fc1"), linear("fc2", "relu1", 64),
                                    relu("relu2", "fc2"), linear("fc3", "relu2", 3)})},
             {"outputs", json::array({{{"name", "logits"}, {"from", "fc3"}}})}},
            {{"source", "spirals"}, {"validation_split", 0.0}},
            o.quick ? 60 : 300};
}

/// A small CNN on 28x28 shapes (~2 ms of layers a step per rank at batch 64 on one core). With several ranks on one
/// computer, the ranks' communication (Gloo's loopback TCP: ~2 ms of system time per step per rank on the 2-core
/// VM) takes CPU from the layers: what its step takes beyond its predicted layers and the MLP's per-step cost is
/// that slow-down, as a fraction of its layers' time.
ReferenceNetwork convReference(const CalibrateOptions &o) {
    auto node = [](const char *id, const char *type, const char *from, const json &params) {
        return json{{"id", id}, {"type", type}, {"inputs", {from}}, {"params", params}};
    };
    const json conv3 = {{"kernel_size", 3}, {"padding", 1}};
    json conv1 = conv3, conv2 = conv3;
    conv1["out_channels"] = 8;
    conv2["out_channels"] = 16;
    return {
        {{"format", "diamond.spec/1"},
         {"name", "reference-conv"},
         {"inputs",
          json::array(
              {{{"name", "x"}, {"shape", {"N", 1, 28, 28}}, {"axes", {"batch", "channel", "height", "width"}}}})},
         {"nodes", json::array({node("conv1", "Conv2d", "x", conv1), node("relu1", "ReLU", "conv1", json::object()),
                                node("pool1", "MaxPool2d", "relu1", {{"kernel_size", 2}}),
                                node("conv2", "Conv2d", "pool1", conv2), node("relu2", "ReLU", "conv2", json::object()),
                                node("pool2", "MaxPool2d", "relu2", {{"kernel_size", 2}}),
                                node("flatten", "Flatten", "pool2", json::object()),
                                node("fc", "Linear", "flatten", {{"out_features", 4}})})},
         {"outputs", json::array({{{"name", "logits"}, {"from", "fc"}}})}},
        {{"source", "shapes"}, {"size", 28}, {"validation_split", 0.0}},
        o.quick ? 20 : 150};
}

/// The reference step: a small MLP trained for real (runTraining, in this process, on every rank) on spirals with
/// Adam at batch 32, its steps per second read from the `finished` event. The performance model predicts the same
/// network from the profile and takes the difference as the per-step cost that no layer probe sees (loss, metrics,
/// batch assembly, and with several ranks the synchronisation of each step).
/// With `firstInProcess` (nothing trained or probed before it in this process), the peak memory that training it
/// added is recorded too (`peak_growth_bytes`, `data_bytes`): the performance model takes what the reference
/// network and its data do not explain as the runtime's own memory (thread stacks and arenas, kernel caches).
json referenceStep(const CalibrateOptions &o, Communicator &comm, int threads, bool firstInProcess,
                   const ReferenceNetwork &net, int batch = 32) {
    namespace fs = std::filesystem;
    const json &spec = net.spec;
    const int steps = net.steps;
    json data = net.data;
    data["samples"] = steps * batch + batch;
    const json config = {{"format", "diamond.run/1"},
                         {"batch_size", batch},
                         {"epochs", 1},
                         {"seed", 1},
                         {"optimizer", {{"name", "adam"}, {"lr", 0.001}}},
                         {"data", data}};
    // One folder for all ranks (they share the launcher, their parent); checkpoints are not written here.
    const fs::path dir =
        fs::path(o.dir) / (".calibrate-run-" + std::to_string(comm.world() > 1 ? ::getppid() : ::getpid()) + "-" +
                           std::to_string(comm.world()));
    fs::create_directories(dir);
    const spec::ParseResult parsed = spec::parseSpecJson(spec);
    if (!parsed.ok()) throw EngineError("calibrate: the reference network did not parse");
    const RunConfig runConfig = parseRunConfig(config, o.dir);
    TrainerOptions options;
    options.runDir = dir.string();
    options.threadsOverride = threads;
    double stepsPerSecond = 0;
    json memory;
    {
        EventWriter events((dir / "events.jsonl").string(), false, comm.rank() == 0);
        runTraining(parsed.spec, runConfig, options, events, comm);
    }
    if (comm.rank() == 0) {
        std::ifstream in(dir / "events.jsonl");
        std::string line;
        while (std::getline(in, line)) {
            const json e = json::parse(line, nullptr, false);
            if (e.is_object() && e.value("event", "") == "finished") {
                stepsPerSecond = e.value("steps_per_s", 0.0);
                if (e.contains("memory") && e["memory"].is_object()) memory = e["memory"];
            }
        }
    }
    comm.barrier();
    std::error_code ec;
    if (comm.rank() == 0) fs::remove_all(dir, ec);
    if (comm.rank() == 0 && !(stepsPerSecond > 0)) throw EngineError("calibrate: the reference step did not finish");
    json out = {{"spec", spec},        {"batch", batch},
                {"optimizer", "adam"}, {"ranks", comm.world()},
                {"threads", threads},  {"step_s", stepsPerSecond > 0 ? 1.0 / stepsPerSecond : 0.0}};
    if (firstInProcess && memory.is_object() && memory.value("peak_counted_from_baseline", false)) {
        out["peak_growth_bytes"] = memory.value("peak_growth_bytes", std::int64_t{0});
        out["data_bytes"] = memory.value("data_bytes", std::int64_t{0});
    }
    return out;
}

/// The first of `runs` (which keeps its memory figures) with the median of their step times.
json medianStep(std::vector<json> runs) {
    std::vector<double> steps;
    for (const json &r : runs)
        steps.push_back(r.value("step_s", 0.0));
    json out = runs.front();
    out["runs_step_s"] = steps; // in the order they ran
    std::sort(steps.begin(), steps.end());
    out["step_s"] = steps[steps.size() / 2];
    return out;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(colon + 2);
        }
    return "unknown";
}

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return buf;
}

} // namespace

int runCalibrate(int argc, char **argv) {
    CalibrateOptions o;
    int nproc = 1;
    std::vector<std::string> forwarded{"calibrate"};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(arg + " needs a value.", arg);
            return argv[++i];
        };
        if (arg == "--threads") {
            o.threads = parseThreadsOption(value());
            forwarded.insert(forwarded.end(), {arg, argv[i]});
        } else if (arg == "--dir") {
            o.dir = value();
            forwarded.insert(forwarded.end(), {arg, argv[i]});
        } else if (arg == "--device") {
            o.device = parseDeviceOption(value());
            forwarded.insert(forwarded.end(), {arg, argv[i]});
        } else if (arg == "--nproc") {
            const std::string v = value();
            nproc = std::atoi(v.c_str());
            if (nproc < 1 || nproc > 64 || std::to_string(nproc) != v)
                throw UsageError("--nproc must be a whole number from 1 to 64, got '" + v + "'.", "--nproc");
        } else if (arg == "--quick") {
            o.quick = true;
            o.probeSeconds = 0.03;
            forwarded.push_back(arg);
        } else {
            throw UsageError("calibrate: unknown option '" + arg + "'.", arg);
        }
    }
    if (nproc > 1) {
        if (o.threads <= 0)
            forwarded.insert(forwarded.end(), {"--threads", std::to_string(std::max(1, physicalCoreCount() / nproc))});
        return launchLocalRanks("/proc/self/exe", forwarded, nproc);
    }
    unblockStopSignals(); // a rank of the launcher above starts with them blocked; a stop simply ends calibration
    if (!std::filesystem::is_directory(o.dir))
        throw UsageError("calibrate: --dir " + o.dir + " is not a folder.", "--dir");
    const Clock::time_point start = Clock::now();
    const int threads = o.threads > 0 ? o.threads : physicalCoreCount();
    at::set_num_threads(threads);
    torch::manual_seed(1);
    const Rendezvous rendezvous = rendezvousFromEnvironment();
    std::string deviceName;
    try {
        deviceName = chooseDevice(o.device, rendezvous.localRank, deviceSupport());
    } catch (const EngineError &e) {
        throw UsageError(std::string("calibrate: --device: ") + e.what(), "--device", {}, e.hint());
    }
    const torch::Device device(deviceName);
    if (device.is_cuda()) compat::setCurrentCudaDevice(device.index());
    std::unique_ptr<Communicator> comm = connect(rendezvous, std::chrono::seconds(60), deviceName);
    // The reference step first (its memory is measured from a fresh process) on every rank together, then the
    // all-reduce probe, then the reference step on rank 0 alone.
    // With several ranks the references train 5 (MLP) and 3 (CNN) times and keep the median step: on the 2-core VM
    // one training's step time ranges from 1.2 to 3.2 ms (Gloo's loopback TCP).
    const bool severalRanks = rendezvous.world > 1;
    json referenceRanks, referenceRanksConv;
    if (severalRanks) {
        std::vector<json> runs{referenceStep(o, *comm, threads, true, mlpReference(o))};
        for (int i = 1; i < 5; ++i)
            runs.push_back(referenceStep(o, *comm, threads, false, mlpReference(o)));
        referenceRanks = medianStep(runs);
        const int convBatch = 64 * rendezvous.world;
        referenceRanksConv = medianStep({referenceStep(o, *comm, threads, false, convReference(o), convBatch),
                                         referenceStep(o, *comm, threads, false, convReference(o), convBatch),
                                         referenceStep(o, *comm, threads, false, convReference(o), convBatch)});
    }
    json allReduce = json::array();
    json sends = json::array();
    if (severalRanks) {
        allReduce = allReduceProbe(*comm, o, device);
        sends = sendProbe(*comm, o, device);
        comm->barrier();
    }
    if (rendezvous.rank != 0) return kExitFinished;
    const std::unique_ptr<Communicator> alone = connect(Rendezvous{}, std::chrono::seconds(60), deviceName);
    json reference = referenceStep(o, *alone, threads, !severalRanks, mlpReference(o));
    // The CNN alone at the profile's threads: how its convolutions and pools run in training against their probes.
    // The median of 3: one 150-step training's step ranged from 1.8 to 3.1 ms between calibrations.
    const json referenceConv = medianStep({referenceStep(o, *alone, threads, false, convReference(o), 64),
                                           referenceStep(o, *alone, threads, false, convReference(o), 64),
                                           referenceStep(o, *alone, threads, false, convReference(o), 64)});
    // The same network at 4x the batch: the per-step work outside the layers (batch assembly, loss, metrics) grows
    // with the samples, and the model takes that growth from the difference. Both at 1 thread: with more, a tiny
    // network's steps are dominated by the thread pool's wake-ups, which vary 3x between runs.
    const json larger = referenceStep(o, *alone, 1, false, mlpReference(o), 128);
    const json base = threads == 1 ? reference : referenceStep(o, *alone, 1, false, mlpReference(o));
    reference["larger_batch"] = {
        {"batch", larger["batch"]}, {"threads", 1}, {"step_s", larger["step_s"]}, {"base_step_s", base["step_s"]}};
    at::set_num_threads(threads); // training set its own; the probes run with the profile's threads

    json profile = {{"format", "diamond.device-profile/1"},
                    {"engine", DIAMOND_VERSION},
                    {"libtorch", TORCH_VERSION},
                    {"measured_at", utcNow()},
                    {"device", device.is_cuda() ? "cuda" : "cpu"},
                    {"cpu", cpuModel()},
                    {"threads", threads},
                    {"ranks", rendezvous.world},
                    {"quick", o.quick}};
    char host[256] = {0};
    if (::gethostname(host, sizeof host - 1) == 0) profile["host"] = host;
    for (const char *job : {"SLURM_JOB_ID", "PBS_JOBID"}) // calibrated as a cluster job (diamondctl cluster calibrate)
        if (const char *id = std::getenv(job); id && *id) profile["scheduler_job"] = std::string(id).substr(0, 64);
    if (device.is_cuda()) { // what the planner fits a run's memory into, and the GPU type the profile is for
        const compat::GpuDevice gpu = compat::gpuDevice(device.index());
        profile["gpu_name"] = gpu.name.substr(0, 128);
        profile["device_memory_bytes"] = gpu.totalBytes;
        profile["device_memory_usable_bytes"] = gpu.usableBytes;
    }
    profile["probe_threads"] = at::get_num_threads(); // the layer probes' threads: the profile's, always
    profile["linear"] = linearProbes(o, device);
    profile["conv2d"] = convolutionProbes(o, device);
    profile["elementwise"] = elementwiseProbe(o, device);
    profile["elementwise_kinds"] = elementwiseKindProbes(o, device);
    profile["optimizer"] = optimizerProbe(o, device);
    profile["memory_gb_s"] = memoryBandwidth(o, device);
    profile["checkpoint_write_mb_s"] = checkpointWrite(o);
    profile["allreduce"] = allReduce;
    profile["send"] = sends;
    profile["reference_step"] = reference;
    profile["reference_step_conv"] = referenceConv;
    if (!referenceRanks.is_null()) profile["reference_step_ranks"] = referenceRanks;
    if (!referenceRanksConv.is_null()) profile["reference_step_ranks_conv"] = referenceRanksConv;
    profile["calibration_seconds"] = secondsSince(start);
    std::cout << profile.dump(2) << std::endl;
    return kExitFinished;
}

} // namespace diamond::engine
