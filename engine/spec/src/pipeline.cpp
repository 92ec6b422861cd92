#include "diamond/spec/pipeline.h"

#include "diamond/spec/registry.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace diamond::spec {

namespace {

/// A value of the whole spec: (analysis index of its producer, output port index).
using ValueKey = std::pair<int, int>;

/// Where each value is produced and last read, in run positions: graph inputs at -1, nodes 0..n-1, spec outputs at n.
struct ValueSpan {
    PortRef ref;           ///< normalised: port "" for port 0, else the port as written
    int producer = -1;     ///< run position
    int lastReader = -1;   ///< run position; n for a spec output
    std::set<int> readers; ///< run positions
};

class Graph {
public:
    Graph(const Spec &spec, const Analysis &analysis) : spec_(spec), analysis_(analysis) {
        const auto &nodes = analysis.nodes;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            if (nodes[i].type == "Input") continue;
            position_[static_cast<int>(i)] = static_cast<int>(order_.size());
            order_.push_back(static_cast<int>(i));
        }
        for (int p = 0; p < static_cast<int>(order_.size()); ++p) {
            const NodeInfo &info = nodes[static_cast<std::size_t>(order_[static_cast<std::size_t>(p)])];
            const int specIndex = spec.nodeIndex(info.id);
            if (specIndex < 0) continue;
            for (const PortRef &in : spec.nodes[static_cast<std::size_t>(specIndex)].inputs)
                read(in, p);
        }
        for (const OutputDecl &out : spec.outputs)
            read(out.from, static_cast<int>(order_.size()));
    }

    int size() const { return static_cast<int>(order_.size()); }
    const NodeInfo &nodeAt(int position) const {
        return analysis_.nodes[static_cast<std::size_t>(order_[static_cast<std::size_t>(position)])];
    }
    int positionOf(const std::string &id) const {
        const auto it = analysis_.index.find(id);
        if (it == analysis_.index.end()) return -1;
        const auto p = position_.find(it->second);
        return p == position_.end() ? -1 : p->second;
    }
    const std::map<ValueKey, ValueSpan> &values() const { return values_; }
    /// The key of `ref`, or {-1, -1} when it names nothing the analysis knows.
    ValueKey keyOf(const PortRef &ref) const {
        const auto it = analysis_.index.find(ref.node);
        if (it == analysis_.index.end()) return {-1, -1};
        int port = 0;
        if (!ref.port.empty()) {
            const LayerType *t = Registry::instance().find(analysis_.nodes[static_cast<std::size_t>(it->second)].type);
            port = t ? t->outputPortIndex(ref.port) : -1;
        }
        return {it->second, port};
    }
    /// The values produced at or before `position` and read after it.
    std::vector<const ValueSpan *> crossingAfter(int position) const {
        std::vector<const ValueSpan *> out;
        for (const auto &[key, span] : values_)
            if (span.producer <= position && span.lastReader > position) out.push_back(&span);
        return out;
    }
    const TensorType *typeOf(const ValueSpan &span) const { return analysis_.portType(span.ref); }

private:
    void read(const PortRef &ref, int reader) {
        const ValueKey key = keyOf(ref);
        if (key.first < 0 || key.second < 0) return;
        ValueSpan &span = values_[key];
        if (span.readers.empty()) {
            span.ref = ref;
            if (key.second == 0) span.ref.port.clear();
            const auto p = position_.find(key.first);
            span.producer = p == position_.end() ? -1 : p->second;
        }
        span.readers.insert(reader);
        span.lastReader = std::max(span.lastReader, reader);
    }

    const Spec &spec_;
    const Analysis &analysis_;
    std::vector<int> order_;      ///< run position -> analysis index
    std::map<int, int> position_; ///< analysis index -> run position
    std::map<ValueKey, ValueSpan> values_;
};

/// "id" for port 0, else "id.port", made unique against every id of the spec and the names already taken.
std::string crossingName(const Spec &spec, const PortRef &ref, std::set<std::string> &taken) {
    std::string name = ref.port.empty() ? ref.node : ref.node + "." + ref.port;
    if (!ref.port.empty())
        while (spec.nodeIndex(name) >= 0 || spec.inputIndex(name) >= 0 || taken.count(name))
            name += "_";
    taken.insert(name);
    return name;
}

} // namespace

std::vector<std::string> runOrder(const Analysis &analysis) {
    std::vector<std::string> ids;
    for (const NodeInfo &n : analysis.nodes)
        if (n.type != "Input") ids.push_back(n.id);
    return ids;
}

StageSplit splitIntoStages(const Spec &spec, const Analysis &analysis, const std::vector<std::string> &cutAfter) {
    StageSplit split;
    if (!analysis.ok()) {
        split.error = "the network has errors; fix them before cutting it into stages";
        return split;
    }
    const Graph graph(spec, analysis);
    std::vector<int> ends;
    for (const std::string &id : cutAfter) {
        const int p = graph.positionOf(id);
        if (p < 0) {
            split.error = "the cut names '" + id + "', which is not a node of the network";
            return split;
        }
        if (p >= graph.size() - 1) {
            split.error = "the cut after '" + id + "' leaves nothing for the last stage";
            return split;
        }
        if (!ends.empty() && p <= ends.back()) {
            split.error = "the cut after '" + id + "' is not after the cut before it in run order";
            return split;
        }
        ends.push_back(p);
    }
    ends.push_back(graph.size() - 1);

    std::set<std::string> taken;
    std::map<ValueKey, std::string> names; // crossing value -> its name in the stage specs
    const auto nameOf = [&](const ValueSpan &span) {
        const ValueKey key = graph.keyOf(span.ref);
        auto it = names.find(key);
        if (it == names.end()) it = names.emplace(key, crossingName(spec, span.ref, taken)).first;
        return it->second;
    };
    std::vector<CrossingValue> received;
    for (const InputDecl &in : spec.inputs) {
        TensorType t;
        t.shape = in.shape;
        t.dtype = in.dtype;
        t.axes = in.axes;
        received.push_back({PortRef{in.name, {}}, in.name, t});
        names[graph.keyOf(PortRef{in.name, {}})] = in.name;
        taken.insert(in.name);
    }
    int first = 0;
    for (std::size_t s = 0; s < ends.size(); ++s) {
        const int last = ends[s];
        Stage stage;
        stage.spec.format = spec.format;
        stage.spec.name = spec.name + " (stage " + std::to_string(s + 1) + " of " + std::to_string(ends.size()) + ")";
        stage.receives = received;
        for (const CrossingValue &v : received) {
            InputDecl decl;
            decl.name = v.name;
            decl.shape = v.type.shape;
            decl.dtype = v.type.dtype;
            decl.axes = v.type.axes;
            stage.spec.inputs.push_back(std::move(decl));
        }
        std::set<std::string> inStage;
        for (int p = first; p <= last; ++p) {
            stage.nodes.push_back(graph.nodeAt(p).id);
            inStage.insert(graph.nodeAt(p).id);
            stage.flops += graph.nodeAt(p).flops;
            stage.parameters += graph.nodeAt(p).paramCount;
        }
        // The stage's nodes keep the whole spec's node order (so its parameters are a subsequence of the whole
        // network's); a value from an earlier stage is read through the input named for it.
        for (const Node &node : spec.nodes) {
            if (!inStage.count(node.id)) continue;
            Node copy = node;
            for (PortRef &in : copy.inputs) {
                if (inStage.count(in.node)) continue;
                const auto it = names.find(graph.keyOf(in));
                if (it == names.end()) {
                    split.error = "node '" + node.id + "' reads '" + in.toString() + "', which no stage provides";
                    return split;
                }
                in = PortRef{it->second, {}};
            }
            stage.spec.nodes.push_back(std::move(copy));
        }
        const bool lastStage = s + 1 == ends.size();
        std::vector<CrossingValue> sends;
        if (!lastStage) {
            for (const ValueSpan *span : graph.crossingAfter(last)) {
                const TensorType *type = graph.typeOf(*span);
                if (!type) {
                    split.error = "the type of '" + span->ref.toString() + "' is unknown";
                    return split;
                }
                sends.push_back({span->ref, nameOf(*span), *type});
            }
            for (const CrossingValue &v : sends) {
                OutputDecl out;
                out.name = v.name;
                // Produced here: the node's port; received: the stage input of that name (a pass-through).
                out.from = inStage.count(v.value.node) ? v.value : PortRef{v.name, {}};
                stage.spec.outputs.push_back(std::move(out));
            }
        } else {
            for (const OutputDecl &o : spec.outputs) {
                OutputDecl out = o;
                if (!inStage.count(o.from.node)) {
                    const auto it = names.find(graph.keyOf(o.from));
                    if (it == names.end()) {
                        split.error = "the output '" + o.name + "' is not produced by any stage";
                        return split;
                    }
                    out.from = PortRef{it->second, {}};
                }
                stage.spec.outputs.push_back(std::move(out));
            }
        }
        stage.sends = sends;
        split.stages.push_back(std::move(stage));
        received = std::move(sends);
        first = last + 1;
    }
    return split;
}

std::vector<std::int64_t> crossingBytesPerSample(const Spec &spec, const Analysis &analysis) {
    const Graph graph(spec, analysis);
    std::vector<std::int64_t> bytes(static_cast<std::size_t>(graph.size()), 0);
    // A value crosses every cut from its producer up to (not including) its last reader.
    std::vector<std::int64_t> delta(static_cast<std::size_t>(graph.size()) + 1, 0);
    for (const auto &[key, span] : graph.values()) {
        const TensorType *type = graph.typeOf(span);
        if (!type) continue;
        const std::int64_t elements = elementsPerSample(type->shape);
        if (elements < 0) continue;
        const std::int64_t b = elements * dtypeBytes(type->dtype);
        const int from = std::max(span.producer, 0);
        const int to = std::min(span.lastReader, graph.size()); // cuts after positions [from, to)
        if (from >= to) continue;
        delta[static_cast<std::size_t>(from)] += b;
        delta[static_cast<std::size_t>(to)] -= b;
    }
    std::int64_t running = 0;
    for (int p = 0; p < graph.size(); ++p) {
        running += delta[static_cast<std::size_t>(p)];
        bytes[static_cast<std::size_t>(p)] = running;
    }
    return bytes;
}

std::vector<std::string> balancedCut(const Analysis &analysis, int stages, const std::vector<double> &nodeCost,
                                     const std::vector<double> &boundaryCost) {
    const std::vector<std::string> ids = runOrder(analysis);
    const int n = static_cast<int>(ids.size());
    if (stages < 2 || stages > kMaxPipelineStages || n < stages || static_cast<int>(nodeCost.size()) != n ||
        static_cast<int>(boundaryCost.size()) != n)
        return {};
    // Large graphs: runs of consecutive nodes (a cut only between runs), so that the search stays O(stages·1024²).
    const int maxUnits = 1024;
    const int per = (n + maxUnits - 1) / maxUnits;
    std::vector<double> unitCost;
    std::vector<int> unitLast; // run position of each unit's last node
    for (int p = 0; p < n; p += per) {
        double c = 0;
        const int end = std::min(n, p + per);
        for (int q = p; q < end; ++q)
            c += nodeCost[static_cast<std::size_t>(q)];
        unitCost.push_back(c);
        unitLast.push_back(end - 1);
    }
    const int units = static_cast<int>(unitCost.size());
    if (units < stages) return {};
    std::vector<double> prefix(static_cast<std::size_t>(units) + 1, 0);
    for (int u = 0; u < units; ++u)
        prefix[static_cast<std::size_t>(u) + 1] =
            prefix[static_cast<std::size_t>(u)] + unitCost[static_cast<std::size_t>(u)];
    const auto cutCost = [&](int unit) { // a cut after `unit`
        return boundaryCost[static_cast<std::size_t>(unitLast[static_cast<std::size_t>(unit)])];
    };
    const double inf = std::numeric_limits<double>::infinity();
    // best[k][u]: the slowest of k stages covering units [0, u], the k-th ending at u and sending across the cut after
    // it (none after the last unit); a stage also pays for receiving across the cut before it.
    const auto sendCost = [&](int unit) { return unit + 1 < units ? cutCost(unit) : 0.0; };
    std::vector<std::vector<double>> best(static_cast<std::size_t>(stages) + 1,
                                          std::vector<double>(static_cast<std::size_t>(units), inf));
    std::vector<std::vector<int>> from(static_cast<std::size_t>(stages) + 1,
                                       std::vector<int>(static_cast<std::size_t>(units), -1));
    for (int u = 0; u < units; ++u)
        best[1][static_cast<std::size_t>(u)] = prefix[static_cast<std::size_t>(u) + 1] + sendCost(u);
    for (int k = 2; k <= stages; ++k) {
        for (int u = k - 1; u < units; ++u) {
            for (int v = k - 2; v < u; ++v) { // the (k-1)-th stage ends at v
                const double before = best[static_cast<std::size_t>(k) - 1][static_cast<std::size_t>(v)];
                if (before == inf) continue;
                const double here = prefix[static_cast<std::size_t>(u) + 1] - prefix[static_cast<std::size_t>(v) + 1] +
                                    cutCost(v) + sendCost(u);
                const double worst = std::max(before, here);
                if (worst < best[static_cast<std::size_t>(k)][static_cast<std::size_t>(u)]) {
                    best[static_cast<std::size_t>(k)][static_cast<std::size_t>(u)] = worst;
                    from[static_cast<std::size_t>(k)][static_cast<std::size_t>(u)] = v;
                }
            }
        }
    }
    std::vector<std::string> cut;
    int u = units - 1;
    for (int k = stages; k >= 2; --k) {
        const int v = from[static_cast<std::size_t>(k)][static_cast<std::size_t>(u)];
        if (v < 0) return {};
        cut.push_back(ids[static_cast<std::size_t>(unitLast[static_cast<std::size_t>(v)])]);
        u = v;
    }
    std::reverse(cut.begin(), cut.end());
    return cut;
}

std::vector<std::string> flopBalancedCut(const Spec &spec, const Analysis &analysis, int stages) {
    const std::vector<std::string> ids = runOrder(analysis);
    std::vector<double> cost;
    for (const std::string &id : ids) {
        const NodeInfo *n = analysis.node(id);
        double elements = 0;
        for (const TensorType &t : n->outputs)
            elements += static_cast<double>(std::max<std::int64_t>(0, elementsPerSample(t.shape)));
        cost.push_back(std::max(static_cast<double>(n->flops), elements));
    }
    // A byte sent costs about as much as a FLOP's worth of a small layer: enough to prefer the narrower of two
    // equally balanced cuts.
    std::vector<double> boundary;
    for (std::int64_t b : crossingBytesPerSample(spec, analysis))
        boundary.push_back(static_cast<double>(b));
    return balancedCut(analysis, stages, cost, boundary);
}

} // namespace diamond::spec
