// bench_recompute: one network's training step (forward, backward; no optimizer) with and without activation
// checkpointing, in process, the modes' steps interleaved. Prints one JSON line per mode: the median step time over
// --steps steps, and the tensor
// bytes that torch's CPU allocator holds between forward and backward and at the step's peak (counted through the
// allocator's profiling report). Driven by bench/engine/bench_recompute.py, which runs the same networks in
// PyTorch-Python beside it.
//
//   bench_recompute --spec S.json --batch B [--threads N] [--steps N] [--modes none,all]
#include "diamond/spec/spec.h"
#include "model/network.h"
#include "spec_batch.h"
#include "tensor_bytes.h"

#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace diamond;

namespace {

using engine::testing::batchFor;

std::vector<std::string> split(const std::string &text) {
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = text.find(',', from);
        out.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (comma == std::string::npos) break;
        from = comma + 1;
    }
    return out;
}

} // namespace

int main(int argc, char **argv) {
    std::string specPath, modes = "none,all";
    std::int64_t batch = 16;
    int threads = 2, steps = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--spec")
            specPath = value;
        else if (key == "--batch")
            batch = std::max<std::int64_t>(1, std::atoll(value.c_str()));
        else if (key == "--threads")
            threads = std::max(1, std::atoi(value.c_str()));
        else if (key == "--steps")
            steps = std::max(1, std::atoi(value.c_str()));
        else if (key == "--modes")
            modes = value;
    }
    if (specPath.empty()) {
        std::cerr << "usage: bench_recompute --spec S.json --batch B [--threads N] [--steps N] [--modes none,all]\n";
        return 2;
    }
    const auto loaded = spec::loadSpecFile(specPath);
    if (!loaded.ok()) {
        std::cerr << "bench_recompute: " << specPath << " does not load\n";
        return 1;
    }
    at::set_num_threads(threads);
    try {
        // Every mode's network first, then their steps interleaved: a slower minute of the machine slows all alike.
        struct Trial {
            std::string mode;
            std::unique_ptr<engine::Network> net;
            std::vector<double> ms;
        };
        std::vector<Trial> trials;
        for (const std::string &mode : split(modes)) {
            torch::manual_seed(1);
            Trial t{mode, engine::Network::build(loaded.spec), {}};
            t.net->setRecompute(mode);
            t.net->train(true);
            trials.push_back(std::move(t));
        }
        torch::manual_seed(2);
        const torch::Tensor x = batchFor(loaded.spec, batch);
        const auto step = [&](engine::Network &net) {
            for (auto &p : net.parameters())
                p.mutable_grad() = torch::Tensor();
            net.forward({x}).front().sum().backward();
        };
        for (int i = 0; i < 3; ++i)
            for (Trial &t : trials)
                step(*t.net);
        for (int i = 0; i < steps; ++i) {
            for (Trial &t : trials) {
                const auto start = std::chrono::steady_clock::now();
                step(*t.net);
                t.ms.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            }
        }
        for (Trial &t : trials) {
            std::sort(t.ms.begin(), t.ms.end());
            // Memory: one more step, counted from its start (the gradients of the last step are dropped first).
            for (auto &p : t.net->parameters())
                p.mutable_grad() = torch::Tensor();
            auto counter = std::make_shared<engine::TensorBytesCounter>();
            std::int64_t held = 0;
            {
                c10::DebugInfoGuard guard(c10::DebugInfoKind::PROFILER_STATE, counter);
                torch::Tensor out = t.net->forward({x}).front();
                held = counter->now;
                out.sum().backward();
            }
            std::printf("{\"spec\": \"%s\", \"batch\": %lld, \"threads\": %d, \"recompute\": \"%s\", \"parts\": %d, "
                        "\"nodes\": %d, \"step_ms\": %.3f, \"held_bytes\": %lld, \"peak_bytes\": %lld}\n",
                        specPath.c_str(), static_cast<long long>(batch), threads, t.mode.c_str(),
                        t.net->recomputedParts(), t.net->recomputedNodes(), t.ms[t.ms.size() / 2],
                        static_cast<long long>(held), static_cast<long long>(counter->peak));
            std::fflush(stdout);
        }
    } catch (const std::exception &e) {
        std::cerr << "bench_recompute: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
