// Re-validation + shape inference time for a 500-node graph (target: at most 5 ms), the cost
// the designer pays on every edit. Prints the median of 200 runs for a few graph shapes.
#include "diamond/spec/analysis.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace diamond::spec;

namespace {

/// A ResNet-like stack: 4-node residual blocks (conv, bn, relu, add) until `nodes` nodes.
Spec residualStack(int nodes) {
    Spec s;
    s.inputs.push_back({"x", {kBatch, 16, 32, 32}, DType::Float32, {}, {}});
    std::string prev = "x";
    int i = 0;
    while (static_cast<int>(s.nodes.size()) + 4 <= nodes) {
        const std::string b = "b" + std::to_string(i++);
        s.nodes.push_back({b + ".conv",
                           "Conv2d",
                           {{"out_channels", 16}, {"kernel_size", 3}, {"padding", 1}},
                           {PortRef::parse(prev)},
                           {}});
        s.nodes.push_back({b + ".bn", "BatchNorm2d", nlohmann::json::object(), {PortRef::parse(b + ".conv")}, {}});
        s.nodes.push_back({b + ".relu", "ReLU", nlohmann::json::object(), {PortRef::parse(b + ".bn")}, {}});
        s.nodes.push_back(
            {b + ".add", "Add", nlohmann::json::object(), {PortRef::parse(b + ".relu"), PortRef::parse(prev)}, {}});
        prev = b + ".add";
    }
    s.outputs.push_back({"y", PortRef::parse(prev), {}});
    return s;
}

Spec mlpChain(int nodes) {
    Spec s;
    s.inputs.push_back({"x", {kBatch, 64}, DType::Float32, {}, {}});
    std::string prev = "x";
    for (int i = 0; i < nodes; ++i) {
        const std::string id = "n" + std::to_string(i);
        if (i % 2 == 0)
            s.nodes.push_back({id, "Linear", {{"out_features", 64}}, {PortRef::parse(prev)}, {}});
        else
            s.nodes.push_back({id, "GELU", nlohmann::json::object(), {PortRef::parse(prev)}, {}});
        prev = id;
    }
    s.outputs.push_back({"y", PortRef::parse(prev), {}});
    return s;
}

double medianMs(const Spec &s, int runs) {
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const Analysis a = analyze(s);
        const auto t1 = std::chrono::steady_clock::now();
        if (!a.ok()) {
            std::fprintf(stderr, "benchmark graph is invalid: %s\n", formatDiagnostic(a.diagnostics.front()).c_str());
            return -1;
        }
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main() {
    const double target = 5.0;
    bool ok = true;
    struct Case {
        const char *name;
        Spec spec;
    } cases[] = {{"residual stack, 500 nodes", residualStack(500)}, {"MLP chain, 500 nodes", mlpChain(500)}};
    std::printf("%-28s %10s %10s\n", "graph", "median ms", "target ms");
    for (auto &c : cases) {
        const double m = medianMs(c.spec, 200);
        std::printf("%-28s %10.3f %10.1f\n", c.name, m, target);
        ok = ok && m >= 0 && m <= target;
    }
    return ok ? 0 : 1;
}
