#include "diamond/spec/analysis.h"
#include "diamond/spec/recompute.h"

#include "diamond/spec/registry.h"
#include "text_util.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace diamond::spec {

using nlohmann::json;

const NodeInfo *Analysis::node(const std::string &id) const {
    auto it = index.find(id);
    return it == index.end() ? nullptr : &nodes[it->second];
}

const TensorType *Analysis::portType(const PortRef &ref) const {
    const NodeInfo *n = node(ref.node);
    if (!n || !n->ok) return nullptr;
    int port = 0;
    if (!ref.port.empty()) {
        const LayerType *t = Registry::instance().find(n->type);
        port = t ? t->outputPortIndex(ref.port) : -1;
    }
    if (port < 0 || port >= static_cast<int>(n->outputs.size())) return nullptr;
    return &n->outputs[port];
}

namespace {

class Analyzer {
public:
    Analyzer(const Spec &spec, Analysis &out) : spec_(spec), out_(out), registry_(Registry::instance()) {}

    void run() {
        collectIds();
        resolveEdges();
        const std::vector<int> order = topologicalOrder();
        checkOutputs();
        inferInputs();
        for (int n : order)
            inferNode(n);
        warnUnused();
    }

private:
    // Node numbering: 0..I-1 are graph inputs, I..I+N-1 are spec.nodes.
    int inputCount() const { return static_cast<int>(spec_.inputs.size()); }
    int total() const { return inputCount() + static_cast<int>(spec_.nodes.size()); }
    const std::string &idOf(int k) const {
        return k < inputCount() ? spec_.inputs[k].name : spec_.nodes[k - inputCount()].id;
    }

    void error(std::string code, std::string node, std::string field, std::string message, std::string hint = {}) {
        Diagnostic d;
        d.code = std::move(code);
        d.node = std::move(node);
        d.field = std::move(field);
        d.message = std::move(message);
        d.hint = std::move(hint);
        out_.diagnostics.push_back(std::move(d));
    }

    void collectIds() {
        slot_.assign(total(), -1);
        broken_.assign(total(), false);
        types_.assign(total(), nullptr);
        for (int k = 0; k < total(); ++k) {
            const std::string &id = idOf(k);
            const bool isInput = k < inputCount();
            if (!isValidId(id)) {
                error("id.invalid", id, isInput ? "name" : "id",
                      std::string(isInput ? "Input" : "Node") + " id '" + id +
                          "' is not valid: use 1-128 characters without spaces or ':'.");
                broken_[k] = true;
                continue;
            }
            if (!ids_.emplace(id, k).second) {
                error("id.duplicate", id, isInput ? "name" : "id",
                      "The id '" + id + "' is used more than once; every node and input needs its own id.",
                      "Rename one of them, e.g. '" + id + "_2'.");
                broken_[k] = true;
                continue;
            }
            if (isInput) {
                types_[k] = registry_.find("Input");
                continue;
            }
            const Node &node = spec_.nodes[k - inputCount()];
            if (node.type == "Input") {
                error("type.input_node", id, "type",
                      "Input '" + id + "' must be declared in \"inputs\", not among the nodes.",
                      "Move it to the spec's \"inputs\" list with its shape.");
                broken_[k] = true;
                continue;
            }
            types_[k] = registry_.find(node.type);
            if (!types_[k]) {
                std::string hint = detail::didYouMean(node.type, registry_.names());
                if (hint.empty()) hint = "See the layer palette or docs/spec-format.md for the available layer types.";
                error("type.unknown", id, "type", "Node '" + id + "' has the unknown layer type '" + node.type + "'.",
                      hint);
                broken_[k] = true;
            }
        }
        for (auto &[id, k] : ids_)
            allIds_.push_back(id);
        std::sort(allIds_.begin(), allIds_.end());
    }

    struct Edge {
        int producer = -1;
        int port = 0;
    };

    void resolveEdges() {
        edges_.assign(spec_.nodes.size(), {});
        consumers_.assign(total(), {});
        for (std::size_t i = 0; i < spec_.nodes.size(); ++i) {
            const Node &node = spec_.nodes[i];
            const int k = inputCount() + static_cast<int>(i);
            const LayerType *type = types_[k];
            if (type && !broken_[k]) {
                const int n = static_cast<int>(node.inputs.size());
                if (n < type->minInputs || (type->maxInputs >= 0 && n > type->maxInputs)) {
                    std::string expected;
                    if (type->maxInputs < 0)
                        expected = "at least " + std::to_string(type->minInputs) + " inputs";
                    else if (type->minInputs == type->maxInputs)
                        expected = std::to_string(type->minInputs) + (type->minInputs == 1 ? " input" : " inputs");
                    else
                        expected =
                            std::to_string(type->minInputs) + " to " + std::to_string(type->maxInputs) + " inputs";
                    error("node.inputs", node.id, "inputs",
                          type->name + " '" + node.id + "' takes " + expected + " but has " + std::to_string(n) + ".",
                          n < type->minInputs ? "Connect another layer to it." : "Remove the extra connections.");
                    broken_[k] = true;
                }
            }
            for (std::size_t j = 0; j < node.inputs.size(); ++j) {
                const PortRef &ref = node.inputs[j];
                Edge e;
                auto it = ids_.find(ref.node);
                if (it == ids_.end()) {
                    std::string hint = detail::didYouMean(ref.node, allIds_);
                    if (hint.empty()) hint = "Connect it to an existing layer or input.";
                    error("input.dangling", node.id, "input " + std::to_string(j + 1),
                          "Node '" + node.id + "' takes input from '" + ref.toString() + "', which does not exist.",
                          hint);
                    broken_[k] = true;
                } else {
                    e.producer = it->second;
                    const LayerType *pt = types_[e.producer];
                    if (pt) {
                        e.port = pt->outputPortIndex(ref.port);
                        if (e.port < 0) {
                            error("input.port", node.id, "input " + std::to_string(j + 1),
                                  "Node '" + node.id + "' reads port '" + ref.port + "' of '" + ref.node + "', but a " +
                                      pt->name + " has the outputs " + detail::joinQuoted(pt->outputPorts, " and ") +
                                      ".");
                            broken_[k] = true;
                            e.port = 0;
                        }
                    }
                    consumers_[e.producer].push_back(k);
                }
                edges_[i].push_back(e);
            }
        }
    }

    std::vector<int> topologicalOrder() {
        const int n = static_cast<int>(spec_.nodes.size());
        std::vector<int> indegree(total(), 0);
        for (int i = 0; i < n; ++i) {
            for (const Edge &e : edges_[i]) {
                if (e.producer >= inputCount()) ++indegree[inputCount() + i];
            }
        }
        std::vector<int> order;
        order.reserve(n);
        std::vector<int> ready;
        for (int i = n - 1; i >= 0; --i) {
            if (indegree[inputCount() + i] == 0) ready.push_back(inputCount() + i);
        }
        // Stable: among ready nodes, process in document order.
        std::vector<bool> done(total(), false);
        while (!ready.empty()) {
            const int k = ready.back();
            ready.pop_back();
            order.push_back(k);
            done[k] = true;
            std::vector<int> next;
            for (int c : consumers_[k]) {
                if (--indegree[c] == 0) next.push_back(c);
            }
            std::sort(next.begin(), next.end(), std::greater<int>());
            next.erase(std::unique(next.begin(), next.end()), next.end());
            for (int c : next)
                ready.push_back(c);
        }
        if (static_cast<int>(order.size()) < n) reportCycle(done);
        return order;
    }

    void reportCycle(const std::vector<bool> &done) {
        // Walk backwards from an unsorted node through unsorted producers until a node repeats.
        int start = -1;
        for (int k = inputCount(); k < total(); ++k) {
            if (!done[k]) {
                start = k;
                break;
            }
        }
        std::vector<int> seenAt(total(), -1), path;
        int k = start;
        while (k >= 0 && seenAt[k] < 0) {
            seenAt[k] = static_cast<int>(path.size());
            path.push_back(k);
            int next = -1;
            for (const Edge &e : edges_[k - inputCount()]) {
                if (e.producer >= inputCount() && !done[e.producer]) {
                    next = e.producer;
                    break;
                }
            }
            k = next;
        }
        std::string loop;
        if (k >= 0) {
            std::vector<int> cycle(path.begin() + seenAt[k], path.end());
            std::reverse(cycle.begin(), cycle.end());
            for (int c : cycle)
                loop += idOf(c) + " -> ";
            loop += idOf(cycle.front());
            for (int c : cycle)
                broken_[c] = true;
        }
        int stuck = 0;
        for (int j = inputCount(); j < total(); ++j)
            stuck += done[j] ? 0 : 1;
        error("graph.cycle", start >= 0 ? idOf(start) : std::string(), {},
              "The network contains a cycle (" + loop + "); data must flow one way from inputs to outputs.",
              "Remove one of the connections in the loop. " + std::to_string(stuck) +
                  " node(s) are in or after the loop.");
        for (int j = inputCount(); j < total(); ++j) {
            if (!done[j]) broken_[j] = true;
        }
    }

    void checkOutputs() {
        if (spec_.outputs.empty()) {
            error("output.missing", {}, "outputs", "The network declares no outputs.",
                  "Add an entry to \"outputs\" naming the layer whose result is the prediction.");
            return;
        }
        std::unordered_map<std::string, int> names;
        for (const auto &o : spec_.outputs) {
            if (!names.emplace(o.name, 1).second)
                error("output.duplicate", {}, "outputs", "Two outputs are named '" + o.name + "'.");
            if (ids_.find(o.from.node) == ids_.end()) {
                std::string hint = detail::didYouMean(o.from.node, allIds_);
                error("output.dangling", o.from.node, "outputs",
                      "Output '" + o.name + "' comes from '" + o.from.toString() + "', which does not exist.", hint);
            }
        }
    }

    NodeInfo &infoFor(int k) {
        if (slot_[k] < 0) {
            slot_[k] = static_cast<int>(out_.nodes.size());
            out_.nodes.emplace_back();
            out_.nodes.back().id = idOf(k);
            out_.index[idOf(k)] = slot_[k];
        }
        return out_.nodes[slot_[k]];
    }

    void runRule(int k, const json &rawParams, const std::vector<TensorType> &inputs,
                 const std::vector<std::string> &inputNames) {
        const LayerType &type = *types_[k];
        NodeInfo &info = infoFor(k);
        info.type = type.name;
        const std::size_t before = out_.diagnostics.size();
        info.params = resolveParams(type, info.id, rawParams, out_.diagnostics);
        if (out_.diagnostics.size() != before &&
            hasErrors({out_.diagnostics.begin() + before, out_.diagnostics.end()})) {
            broken_[k] = true;
            return;
        }
        LayerContext ctx{info.id, type.name, info.params, inputs, inputNames};
        LayerResult result;
        try {
            if (type.rule) type.rule(ctx, result);
        } catch (const std::exception &e) {
            result.fail(ctx, "internal", type.name + " '" + info.id + "' could not be analysed: " + e.what());
        }
        for (auto &d : result.diagnostics)
            out_.diagnostics.push_back(std::move(d));
        if (hasErrors(result.diagnostics) || result.outputs.size() != type.outputPorts.size()) {
            if (!hasErrors(result.diagnostics))
                error("internal", info.id, {}, type.name + " '" + info.id + "' produced no output shape.");
            broken_[k] = true;
            return;
        }
        for (const auto &t : result.outputs) {
            for (auto d : t.shape) {
                if (d != kBatch && d < 1) {
                    error("shape.invalid", info.id, {},
                          type.name + " '" + info.id + "' would produce the empty shape " + formatShape(t.shape) + ".",
                          "Its input is too small for these parameters; reduce kernel size or stride, or add padding.");
                    broken_[k] = true;
                    return;
                }
            }
        }
        info.outputs = std::move(result.outputs);
        info.paramCount = result.params;
        info.bufferCount = result.buffers;
        info.flops = result.flops;
        info.ok = true;
        if (!checkedAdd(out_.totalParams, info.paramCount, out_.totalParams) ||
            !checkedAdd(out_.totalBuffers, info.bufferCount, out_.totalBuffers) ||
            !checkedAdd(out_.totalFlops, info.flops, out_.totalFlops)) {
            error("shape.overflow", info.id, {}, "The network's total parameter or FLOP count overflows 64 bits.");
            broken_[k] = true;
        }
    }

    void inferInputs() {
        for (int k = 0; k < inputCount(); ++k) {
            NodeInfo &info = infoFor(k);
            info.type = "Input";
            if (broken_[k] || !types_[k]) continue;
            const InputDecl &in = spec_.inputs[k];
            if (in.shape.empty()) {
                broken_[k] = true;
                continue;
            }
            json params = json::object();
            json shape = json::array();
            for (auto d : in.shape) {
                if (d == kBatch)
                    shape.push_back("N");
                else
                    shape.push_back(d);
            }
            params["shape"] = std::move(shape);
            params["dtype"] = dtypeName(in.dtype);
            if (!in.axes.empty()) params["axes"] = in.axes;
            static const std::vector<TensorType> none;
            static const std::vector<std::string> noNames;
            runRule(k, params, none, noNames);
        }
    }

    void inferNode(int k) {
        NodeInfo &info = infoFor(k);
        const Node &node = spec_.nodes[k - inputCount()];
        info.type = node.type;
        info.producers.clear();
        for (const auto &ref : node.inputs)
            info.producers.push_back(ref.node);
        if (broken_[k] || !types_[k]) return;
        const auto &edges = edges_[k - inputCount()];
        std::vector<TensorType> inputs;
        std::vector<std::string> names;
        inputs.reserve(edges.size());
        for (std::size_t j = 0; j < edges.size(); ++j) {
            const Edge &e = edges[j];
            if (e.producer < 0 || broken_[e.producer] || slot_[e.producer] < 0 || !out_.nodes[slot_[e.producer]].ok) {
                broken_[k] = true; // upstream problem already reported
                return;
            }
            inputs.push_back(out_.nodes[slot_[e.producer]].outputs[e.port]);
            names.push_back(node.inputs[j].toString());
        }
        runRule(k, node.params, inputs, names);
    }

    void warnUnused() {
        if (spec_.outputs.empty() || hasErrors(out_.diagnostics)) return;
        std::vector<bool> used(total(), false);
        std::vector<int> stack;
        for (const auto &o : spec_.outputs) {
            auto it = ids_.find(o.from.node);
            if (it != ids_.end() && !used[it->second]) {
                used[it->second] = true;
                stack.push_back(it->second);
            }
        }
        while (!stack.empty()) {
            const int k = stack.back();
            stack.pop_back();
            if (k < inputCount()) continue;
            for (const Edge &e : edges_[k - inputCount()]) {
                if (e.producer >= 0 && !used[e.producer]) {
                    used[e.producer] = true;
                    stack.push_back(e.producer);
                }
            }
        }
        for (int k = 0; k < total(); ++k) {
            if (used[k]) continue;
            Diagnostic d;
            d.severity = Severity::Warning;
            d.code = "graph.unused";
            d.node = idOf(k);
            d.message = "'" + idOf(k) + "' does not contribute to any output.";
            d.hint = "Connect it towards an output or delete it.";
            out_.diagnostics.push_back(std::move(d));
        }
    }

    const Spec &spec_;
    Analysis &out_;
    const Registry &registry_;
    std::unordered_map<std::string, int> ids_;
    std::vector<std::string> allIds_;
    std::vector<int> slot_;
    std::vector<bool> broken_;
    std::vector<const LayerType *> types_;
    std::vector<std::vector<Edge>> edges_;
    std::vector<std::vector<int>> consumers_;
};

} // namespace

Analysis analyze(const Spec &spec) {
    Analysis analysis;
    analysis.nodes.reserve(spec.inputs.size() + spec.nodes.size());
    try {
        Analyzer(spec, analysis).run();
        for (const auto &o : spec.outputs)
            analysis.outputProducers.push_back(o.from.node);
    } catch (const std::exception &e) {
        Diagnostic d;
        d.code = "internal";
        d.message = std::string("The spec could not be analysed: ") + e.what();
        analysis.diagnostics.push_back(std::move(d));
    }
    return analysis;
}

bool parseOptimizer(const std::string &name, Optimizer &out) {
    if (name == "sgd")
        out = Optimizer::SGD;
    else if (name == "sgd_momentum" || name == "momentum")
        out = Optimizer::SGDMomentum;
    else if (name == "adam")
        out = Optimizer::Adam;
    else if (name == "adamw")
        out = Optimizer::AdamW;
    else if (name == "rmsprop")
        out = Optimizer::RMSprop;
    else
        return false;
    return true;
}

namespace {
std::int64_t saturatingMul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    return checkedMul(a, b, r) ? r : std::numeric_limits<std::int64_t>::max();
}
std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    return checkedAdd(a, b, r) ? r : std::numeric_limits<std::int64_t>::max();
}
} // namespace

std::int64_t saturatingSum(std::initializer_list<std::int64_t> terms) {
    std::int64_t sum = 0;
    for (auto t : terms)
        sum = saturatingAdd(sum, t);
    return sum;
}

namespace {

/// The activations of `m` when the nodes `recomputed` recompute theirs: runs of consecutive recomputed nodes (in
/// analysis order; a layer that recomputes inside stands alone and keeps its output) count as the values their parts
/// keep plus the most that one part brings back with its gradients (cutRecomputedRun). Never more than keeping them.
std::int64_t recomputedActivations(const Analysis &analysis, const MemoryEstimate &m,
                                   const std::vector<std::string> &recomputed) {
    const std::size_t n = analysis.nodes.size();
    std::vector<double> bytes(n);
    std::vector<std::size_t> lastReader(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<double>(m.nodes[i].activations);
        for (const std::string &producer : analysis.nodes[i].producers) {
            const auto it = analysis.index.find(producer);
            if (it != analysis.index.end())
                lastReader[static_cast<std::size_t>(it->second)] =
                    std::max(lastReader[static_cast<std::size_t>(it->second)], i);
        }
    }
    for (const std::string &producer : analysis.outputProducers) {
        const auto it = analysis.index.find(producer);
        if (it != analysis.index.end()) lastReader[static_cast<std::size_t>(it->second)] = n;
    }
    const auto &registry = Registry::instance();
    const std::unordered_set<std::string> marked(recomputed.begin(), recomputed.end());
    const auto inRun = [&](std::size_t i) {
        const NodeInfo &info = analysis.nodes[i];
        if (marked.count(info.id) == 0) return false;
        const LayerType *type = registry.find(info.type);
        return type && info.type != "Input" && !type->recomputesInside;
    };
    double total = 0.0;
    for (std::size_t i = 0; i < n;) {
        if (!inRun(i)) {
            total += bytes[i++];
            continue;
        }
        std::size_t end = i;
        while (end < n && inRun(end))
            ++end;
        const std::vector<std::size_t> cuts = cutRecomputedRun(bytes, lastReader, i, end);
        double kept = 0.0, most = 0.0, plain = 0.0;
        for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
            // What only backward brings back (the values not kept anyway), and the gradients in flight meanwhile
            // (about twice the part's largest value).
            double inside = 0.0, largest = 0.0;
            for (std::size_t k = cuts[c]; k < cuts[c + 1]; ++k) {
                plain += bytes[k];
                largest = std::max(largest, bytes[k]);
                if (lastReader[k] >= cuts[c + 1])
                    kept += bytes[k];
                else
                    inside += bytes[k];
            }
            most = std::max(most, inside + 2.0 * largest);
        }
        total += std::min(kept + most, plain); // a short run: at most what it would keep
        i = end;
    }
    return total >= 9.0e18 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(total);
}

} // namespace

MemoryEstimate estimateMemory(const Analysis &analysis, const MemoryOptions &options) {
    MemoryEstimate m;
    const std::int64_t bytes = dtypeBytes(options.dtype);
    int stateCopies = 0;
    switch (options.optimizer) {
    case Optimizer::SGD: stateCopies = 0; break;
    case Optimizer::SGDMomentum:
    case Optimizer::RMSprop: stateCopies = 1; break;
    case Optimizer::Adam:
    case Optimizer::AdamW: stateCopies = 2; break;
    }
    for (const NodeInfo &n : analysis.nodes) {
        NodeMemory nm;
        nm.id = n.id;
        if (n.ok) {
            nm.weights = saturatingMul(saturatingAdd(n.paramCount, n.bufferCount), bytes);
            nm.gradients = saturatingMul(n.paramCount, bytes);
            nm.optimizerState = saturatingMul(saturatingMul(n.paramCount, stateCopies), bytes);
            for (const TensorType &t : n.outputs) {
                std::int64_t elems = elementsPerSample(t.shape);
                if (elems < 0) elems = std::numeric_limits<std::int64_t>::max();
                if (batchDimCount(t.shape) > 0) elems = saturatingMul(elems, options.batch);
                const std::int64_t elemBytes = isFloating(t.dtype) ? bytes : dtypeBytes(t.dtype);
                nm.activations = saturatingAdd(nm.activations, saturatingMul(elems, elemBytes));
            }
        }
        m.weights = saturatingAdd(m.weights, nm.weights);
        m.gradients = saturatingAdd(m.gradients, nm.gradients);
        m.optimizerState = saturatingAdd(m.optimizerState, nm.optimizerState);
        m.activations = saturatingAdd(m.activations, nm.activations);
        m.nodes.push_back(std::move(nm));
    }
    if (!options.recomputed.empty()) m.activations = recomputedActivations(analysis, m, options.recomputed);
    return m;
}

} // namespace diamond::spec
