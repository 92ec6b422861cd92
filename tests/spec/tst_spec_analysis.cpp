// analyze(): one test per diagnostic class, totals, the memory estimate and large graphs.
#include "diamond/spec/analysis.h"
#include "diamond/spec/registry.h"

#include <QtTest>

using namespace diamond::spec;
using nlohmann::json;

namespace {

/// Builds a spec from a JSON literal; the literal must be structurally valid.
Spec specFrom(const char *text) {
    ParseResult r = parseSpec(text);
    if (!r.ok()) qFatal("fixture does not parse: %s", formatDiagnostic(r.diagnostics.front()).c_str());
    return r.spec;
}

const Diagnostic *findCode(const Analysis &a, const std::string &code) {
    for (const auto &d : a.diagnostics) {
        if (d.code == code) return &d;
    }
    return nullptr;
}

bool contains(const std::string &haystack, const std::string &needle) {
    return haystack.find(needle) != std::string::npos;
}

} // namespace

class TestSpecAnalysis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void infersShapesParamsAndFlops() {
        const Analysis a = analyze(specFrom(R"({"format": "diamond.spec/1",
            "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "fc1", "type": "Linear", "params": {"out_features": 64}, "inputs": ["x"]},
                      {"id": "r1", "type": "ReLU", "inputs": ["fc1"]},
                      {"id": "fc2", "type": "Linear", "params": {"out_features": 3}, "inputs": ["r1"]}],
            "outputs": [{"name": "logits", "from": "fc2"}]})"));
        QVERIFY(a.ok());
        QCOMPARE(a.nodes.size(), std::size_t(4));
        QCOMPARE(a.nodes[0].id, std::string("x"));
        QCOMPARE(a.node("fc1")->outputs[0].shape, (Shape{kBatch, 64}));
        QCOMPARE(a.node("fc2")->outputs[0].shape, (Shape{kBatch, 3}));
        QCOMPARE(a.node("fc1")->paramCount, std::int64_t(2 * 64 + 64));
        QCOMPARE(a.totalParams, std::int64_t(2 * 64 + 64 + 64 * 3 + 3));
        QCOMPARE(a.node("fc2")->flops, std::int64_t(2 * 64 * 3 + 3));
        QVERIFY(a.totalFlops >= a.node("fc1")->flops + a.node("fc2")->flops);
        QCOMPARE(a.node("fc1")->params.at("bias").get<bool>(), true); // default filled in
    }

    void duplicateIds() {
        const Analysis a = analyze(specFrom(R"({"format": "diamond.spec/1",
            "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "a", "type": "ReLU", "inputs": ["x"]}, {"id": "a", "type": "Tanh", "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "a"}]})"));
        const Diagnostic *d = findCode(a, "id.duplicate");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("a"));
    }

    void invalidIds() {
        Spec s = specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "has space", "type": "ReLU", "inputs": ["x"]}], "outputs": [{"name": "y", "from": "x"}]})");
        QVERIFY(findCode(analyze(s), "id.invalid"));
    }

    void unknownTypeSuggestsTheClosest() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 3, 8, 8]}],
            "nodes": [{"id": "c", "type": "Conv2D", "params": {"out_channels": 4, "kernel_size": 3}, "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "c"}]})"));
        const Diagnostic *d = findCode(a, "type.unknown");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("c"));
        QVERIFY2(contains(d->hint, "'Conv2d'"), d->hint.c_str());
    }

    void badAndOutOfRangeParameters() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 3, 8, 8]}],
            "nodes": [{"id": "c", "type": "Conv2d", "params": {"out_channels": 0, "kernel_size": 3, "strid": 2}, "inputs": ["x"]},
                      {"id": "d", "type": "Dropout", "params": {"p": "half"}, "inputs": ["x"]},
                      {"id": "g", "type": "GELU", "params": {"approximate": "tanhh"}, "inputs": ["x"]},
                      {"id": "l", "type": "Linear", "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "c"}]})"));
        bool range = false, unknown = false, type = false, choice = false, missing = false;
        for (const auto &d : a.diagnostics) {
            range = range || (d.node == "c" && d.field == "out_channels" && contains(d.message, "at least 1"));
            unknown = unknown || (d.code == "param.unknown" && d.node == "c" && contains(d.hint, "'stride'"));
            type = type || (d.node == "d" && d.field == "p" && contains(d.message, "number"));
            choice = choice || (d.node == "g" && d.field == "approximate" && contains(d.hint, "'tanh'"));
            missing = missing || (d.code == "param.missing" && d.node == "l" && d.field == "out_features");
        }
        QVERIFY(range);
        QVERIFY(unknown);
        QVERIFY(type);
        QVERIFY(choice);
        QVERIFY(missing);
    }

    void danglingInputSuggestsAnId() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "fc1", "type": "Linear", "params": {"out_features": 2}, "inputs": ["x"]},
                      {"id": "act", "type": "ReLU", "inputs": ["fc_1"]}],
            "outputs": [{"name": "y", "from": "act"}]})"));
        const Diagnostic *d = findCode(a, "input.dangling");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("act"));
        QVERIFY(contains(d->hint, "'fc1'"));
        QCOMPARE(a.diagnostics.size(), std::size_t(1)); // nothing downstream piles on
    }

    void unknownPort() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 5, 4]}],
            "nodes": [{"id": "rnn", "type": "LSTM", "params": {"hidden_size": 8}, "inputs": ["x"]},
                      {"id": "f", "type": "Flatten", "inputs": ["rnn:hidden"]}],
            "outputs": [{"name": "y", "from": "f"}]})"));
        const Diagnostic *d = findCode(a, "input.port");
        QVERIFY(d);
        QVERIFY(contains(d->message, "'h_n'"));
    }

    void wrongNumberOfInputs() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "sum", "type": "Add", "inputs": ["x"]}], "outputs": [{"name": "y", "from": "sum"}]})"));
        const Diagnostic *d = findCode(a, "node.inputs");
        QVERIFY(d);
        QVERIFY(contains(d->message, "at least 2"));
    }

    void cycleIsReportedWithItsPath() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "a", "type": "Add", "inputs": ["x", "c"]},
                      {"id": "b", "type": "ReLU", "inputs": ["a"]},
                      {"id": "c", "type": "Tanh", "inputs": ["b"]},
                      {"id": "d", "type": "Tanh", "inputs": ["c"]}],
            "outputs": [{"name": "y", "from": "d"}]})"));
        const Diagnostic *d = findCode(a, "graph.cycle");
        QVERIFY(d);
        QVERIFY2(contains(d->message, "a -> b -> c -> a") || contains(d->message, "b -> c -> a -> b") ||
                     contains(d->message, "c -> a -> b -> c"),
                 d->message.c_str());
        QVERIFY(!a.node("d") || !a.node("d")->ok);
    }

    void missingAndDanglingOutputs() {
        const Analysis none =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "a", "type": "ReLU", "inputs": ["x"]}], "outputs": []})"));
        QVERIFY(findCode(none, "output.missing"));
        const Analysis dangling =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "a", "type": "ReLU", "inputs": ["x"]}], "outputs": [{"name": "y", "from": "b"}]})"));
        const Diagnostic *d = findCode(dangling, "output.dangling");
        QVERIFY(d);
        QVERIFY(contains(d->hint, "'a'"));
    }

    void addShapeMismatchNamesBothProducers() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 3, 8, 8]}],
            "nodes": [{"id": "conv2", "type": "Conv2d", "params": {"out_channels": 64, "kernel_size": 3, "padding": 1}, "inputs": ["x"]},
                      {"id": "conv5", "type": "Conv2d", "params": {"out_channels": 32, "kernel_size": 3, "padding": 1}, "inputs": ["x"]},
                      {"id": "add3", "type": "Add", "inputs": ["conv2", "conv5"]}],
            "outputs": [{"name": "y", "from": "add3"}]})"));
        const Diagnostic *d = findCode(a, "shape.mismatch");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("add3"));
        QVERIFY2(contains(d->message, "conv2") && contains(d->message, "conv5"), d->message.c_str());
        QVERIFY(contains(d->message, "[N,64,8,8]"));
    }

    void concatMismatch() {
        const Analysis a = analyze(specFrom(R"({"format": "diamond.spec/1",
            "inputs": [{"name": "x", "shape": ["N", 3, 8, 8]}, {"name": "z", "shape": ["N", 3, 4, 4]}],
            "nodes": [{"id": "cat", "type": "Concat", "inputs": ["x", "z"]}], "outputs": [{"name": "y", "from": "cat"}]})"));
        const Diagnostic *d = findCode(a, "shape.mismatch");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("cat"));
    }

    void wrongRankMentionsTheProducer() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 8, 16, 16]}],
            "nodes": [{"id": "flatten1", "type": "Flatten", "inputs": ["x"]},
                      {"id": "conv3", "type": "Conv2d", "params": {"out_channels": 8, "kernel_size": 3}, "inputs": ["flatten1"]}],
            "outputs": [{"name": "y", "from": "conv3"}]})"));
        const Diagnostic *d = findCode(a, "shape.rank");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("conv3"));
        QVERIFY2(contains(d->message, "flatten1") && contains(d->message, "[N,2048]"), d->message.c_str());
        QVERIFY(!d->hint.empty());
    }

    void emptyOutputShapeIsAnError() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 1, 4, 4]}],
            "nodes": [{"id": "big", "type": "Conv2d", "params": {"out_channels": 2, "kernel_size": 7}, "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "big"}]})"));
        QVERIFY(!a.ok());
        QCOMPARE(a.diagnostics.front().node, std::string("big"));
    }

    void overflowIsAnError() {
        const Analysis a = analyze(
            specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 4611686018427387904]}],
            "nodes": [{"id": "fc", "type": "Linear", "params": {"out_features": 4611686018427387904}, "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "fc"}]})"));
        QVERIFY(!a.ok());
        QCOMPARE(a.diagnostics.front().node, std::string("fc"));
    }

    void unusedNodesAreWarnings() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}],
            "nodes": [{"id": "a", "type": "ReLU", "inputs": ["x"]}, {"id": "stray", "type": "Tanh", "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "a"}]})"));
        QVERIFY(a.ok());
        const Diagnostic *d = findCode(a, "graph.unused");
        QVERIFY(d);
        QCOMPARE(d->node, std::string("stray"));
        QCOMPARE(d->severity, Severity::Warning);
    }

    void memoryEstimateFollowsItsFormula() {
        const Analysis a =
            analyze(specFrom(R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 10]}],
            "nodes": [{"id": "fc", "type": "Linear", "params": {"out_features": 5}, "inputs": ["x"]}],
            "outputs": [{"name": "y", "from": "fc"}]})"));
        QVERIFY(a.ok());
        MemoryOptions o;
        o.batch = 8;
        o.optimizer = Optimizer::Adam;
        const MemoryEstimate m = estimateMemory(a, o);
        const std::int64_t params = 55;
        QCOMPARE(m.weights, params * 4);
        QCOMPARE(m.gradients, params * 4);
        QCOMPARE(m.optimizerState, 2 * params * 4);
        QCOMPARE(m.activations, std::int64_t(8 * (10 + 5) * 4));
        QCOMPARE(m.total(), m.weights + m.gradients + m.optimizerState + m.activations);
        o.optimizer = Optimizer::SGD;
        QCOMPARE(estimateMemory(a, o).optimizerState, std::int64_t(0));
        o.optimizer = Optimizer::SGDMomentum;
        QCOMPARE(estimateMemory(a, o).optimizerState, params * 4);
    }

    void fiveHundredNodeChain() {
        Spec s;
        s.inputs.push_back({"x", {kBatch, 32}, DType::Float32, {}, {}});
        std::string prev = "x";
        for (int i = 0; i < 500; ++i) {
            Node n;
            n.id = "n" + std::to_string(i);
            n.type = i % 2 ? "ReLU" : "Linear";
            if (i % 2 == 0) n.params = {{"out_features", 32}};
            n.inputs.push_back(PortRef::parse(prev));
            prev = n.id;
            s.nodes.push_back(std::move(n));
        }
        s.outputs.push_back({"y", PortRef::parse(prev), {}});
        const Analysis a = analyze(s);
        QVERIFY(a.ok());
        QCOMPARE(a.nodes.size(), std::size_t(501));
        QCOMPARE(a.totalParams, std::int64_t(250 * (32 * 32 + 32)));
    }

    void everyRegisteredTypeHasDocsAndARule() {
        const Registry &r = Registry::instance();
        QVERIFY(r.types().size() >= 40);
        for (const LayerType &t : r.types()) {
            QVERIFY2(!t.doc.empty(), t.name.c_str());
            QVERIFY2(!t.family.empty(), t.name.c_str());
            QVERIFY2(static_cast<bool>(t.rule), t.name.c_str());
            for (const ParamSpec &p : t.params)
                QVERIFY2(!p.doc.empty(), (t.name + "." + p.name).c_str());
        }
        for (const char *name : {"Input",
                                 "Linear",
                                 "Conv1d",
                                 "Conv2d",
                                 "Conv3d",
                                 "ConvTranspose2d",
                                 "MaxPool1d",
                                 "MaxPool2d",
                                 "AvgPool2d",
                                 "AdaptiveAvgPool2d",
                                 "BatchNorm1d",
                                 "BatchNorm2d",
                                 "LayerNorm",
                                 "GroupNorm",
                                 "Dropout",
                                 "ReLU",
                                 "ReLU6",
                                 "LeakyReLU",
                                 "GELU",
                                 "SiLU",
                                 "Tanh",
                                 "Sigmoid",
                                 "Softmax",
                                 "LogSoftmax",
                                 "Flatten",
                                 "Reshape",
                                 "Permute",
                                 "Embedding",
                                 "LSTM",
                                 "GRU",
                                 "MultiheadAttention",
                                 "TransformerEncoderLayer",
                                 "Upsample",
                                 "Add",
                                 "Multiply",
                                 "Concat",
                                 "Identity"})
            QVERIFY2(r.find(name), name);
    }
};

QTEST_APPLESS_MAIN(TestSpecAnalysis)
#include "tst_spec_analysis.moc"
