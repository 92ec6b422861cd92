// Pipeline stages in the spec library (diamond/spec/pipeline.h): every cut of the templates gives stage specs that
// analyse, hand each other the same values and together hold every node and parameter; a skip connection passes through
// the stages it skips; bad cuts are refused by name; the balanced cut is the best of all cuts.
#include "common/spec_builders.h"
#include "common/test_paths.h"
#include "diamond/spec/analysis.h"
#include "diamond/spec/pipeline.h"

#include <QtTest>

#include <set>

using namespace diamond::spec;

namespace {

Spec loadTemplate(const char *file) { return diamond::test::loadTemplateSpec(file); }

Spec parse(const char *json) {
    const ParseResult r = parseSpec(json);
    if (!r.ok()) qFatal("spec does not parse: %s", formatDiagnostic(r.diagnostics.front()).c_str());
    return r.spec;
}

/// x -> a -> b -> c -> add(b, d) where d = relu(c): b is read by c and by the add three nodes later.
const char *kSkip = R"({"format": "diamond.spec/1",
  "inputs": [{"name": "x", "shape": ["N", 8]}],
  "nodes": [
    {"id": "a", "type": "Linear", "inputs": ["x"], "params": {"out_features": 16}},
    {"id": "b", "type": "ReLU", "inputs": ["a"]},
    {"id": "c", "type": "Linear", "inputs": ["b"], "params": {"out_features": 16}},
    {"id": "d", "type": "ReLU", "inputs": ["c"]},
    {"id": "sum", "type": "Add", "inputs": ["b", "d"]},
    {"id": "out", "type": "Linear", "inputs": ["sum"], "params": {"out_features": 3}}],
  "outputs": [{"name": "logits", "from": "out"}]})";

/// A chain of 12 Linear layers of the widths given (input 4), with ReLUs between them: 23 nodes.
Spec chain(const std::vector<int> &widths) {
    std::string nodes, previous = "x";
    for (std::size_t i = 0; i < widths.size(); ++i) {
        const std::string fc = "fc" + std::to_string(i), relu = "relu" + std::to_string(i);
        nodes += (nodes.empty() ? "" : ",") + std::string(R"({"id": ")") + fc + R"(", "type": "Linear", "inputs": [")" +
                 previous + R"("], "params": {"out_features": )" + std::to_string(widths[i]) + "}}";
        previous = fc;
        if (i + 1 < widths.size()) {
            nodes += R"(,{"id": ")" + relu + R"(", "type": "ReLU", "inputs": [")" + fc + R"("]})";
            previous = relu;
        }
    }
    const std::string text =
        R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 4]}], "nodes": [)" + nodes +
        R"(], "outputs": [{"name": "y", "from": ")" + previous + R"("}]})";
    return parse(text.c_str());
}

/// Checks a split against its spec; returns false (with a message) on the first mismatch.
bool consistent(const Spec &spec, const Analysis &analysis, const StageSplit &split, QString *why) {
    std::set<std::string> seen;
    std::int64_t params = 0;
    for (std::size_t s = 0; s < split.stages.size(); ++s) {
        const Stage &stage = split.stages[s];
        const Analysis a = analyze(stage.spec);
        if (!a.ok()) {
            *why =
                QStringLiteral("stage %1: %2").arg(s).arg(QString::fromStdString(formatDiagnostic(a.diagnostics[0])));
            return false;
        }
        if (a.totalParams != stage.parameters) {
            *why = QStringLiteral("stage %1 parameters %2 vs %3").arg(s).arg(a.totalParams).arg(stage.parameters);
            return false;
        }
        params += a.totalParams;
        for (const std::string &id : stage.nodes)
            if (!seen.insert(id).second) {
                *why = QStringLiteral("node %1 twice").arg(QString::fromStdString(id));
                return false;
            }
        if (s + 1 < split.stages.size()) {
            const Stage &next = split.stages[s + 1];
            if (stage.sends.size() != next.receives.size() || stage.spec.outputs.size() != stage.sends.size()) {
                *why = QStringLiteral("stage %1 sends %2 values, the next receives %3")
                           .arg(s)
                           .arg(stage.sends.size())
                           .arg(next.receives.size());
                return false;
            }
            for (std::size_t i = 0; i < stage.sends.size(); ++i) {
                // What it sends has the type the analysis of the stage gives its output, and the next its input.
                const TensorType *out = a.portType(stage.spec.outputs[i].from);
                if (stage.sends[i].name != next.receives[i].name || !out || out->shape != next.spec.inputs[i].shape ||
                    out->dtype != next.spec.inputs[i].dtype) {
                    *why = QStringLiteral("stage %1 value %2").arg(s).arg(QString::fromStdString(stage.sends[i].name));
                    return false;
                }
            }
        } else if (stage.spec.outputs.size() != spec.outputs.size()) {
            *why = QStringLiteral("the last stage has %1 outputs").arg(stage.spec.outputs.size());
            return false;
        }
    }
    if (seen.size() != runOrder(analysis).size() || params != analysis.totalParams) {
        *why = QStringLiteral("%1 of %2 nodes, %3 of %4 parameters")
                   .arg(seen.size())
                   .arg(runOrder(analysis).size())
                   .arg(params)
                   .arg(analysis.totalParams);
        return false;
    }
    return true;
}

/// The slowest stage of `cut` under `cost` and `boundary` (as balancedCut counts it).
double slowest(const std::vector<std::string> &order, const std::vector<std::string> &cut,
               const std::vector<double> &cost, const std::vector<double> &boundary) {
    double worst = 0, current = 0;
    std::size_t c = 0;
    for (std::size_t p = 0; p < order.size(); ++p) {
        current += cost[p];
        if (c < cut.size() && order[p] == cut[c]) {
            worst = std::max(worst, current + boundary[p]);
            current = boundary[p];
            ++c;
        }
    }
    return std::max(worst, current);
}

} // namespace

class TestSpecPipeline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyCutOfTheTemplatesIsConsistent_data() {
        QTest::addColumn<QString>("file");
        for (const char *f : {"mlp.json", "cnn28.json", "transformer_classifier.json", "unet.json", "resnet18.json"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void everyCutOfTheTemplatesIsConsistent() {
        QFETCH(QString, file);
        const Spec spec = loadTemplate(file.toLatin1().constData());
        const Analysis analysis = analyze(spec);
        QVERIFY(analysis.ok());
        const std::vector<std::string> order = runOrder(analysis);
        int cuts = 0;
        for (std::size_t p = 0; p + 1 < order.size(); ++p) {
            const StageSplit split = splitIntoStages(spec, analysis, {order[p]});
            QVERIFY2(split.ok(), split.error.c_str());
            QCOMPARE(split.stages.size(), std::size_t(2));
            QString why;
            QVERIFY2(consistent(spec, analysis, split, &why),
                     qPrintable(QStringLiteral("cut after %1: %2").arg(QString::fromStdString(order[p]), why)));
            ++cuts;
        }
        // Three and four stages at evenly spaced cuts.
        for (std::size_t stages : {3, 4}) {
            std::vector<std::string> cut;
            for (std::size_t k = 1; k < stages; ++k)
                cut.push_back(order[k * order.size() / stages - 1]);
            const StageSplit split = splitIntoStages(spec, analysis, cut);
            QVERIFY2(split.ok(), split.error.c_str());
            QString why;
            QVERIFY2(consistent(spec, analysis, split, &why), qPrintable(why));
        }
        qInfo("%s: %d two-stage cuts checked", qPrintable(file), cuts);
    }

    void aSkipConnectionPassesThroughTheStagesItSkips() {
        const Spec spec = parse(kSkip);
        const Analysis analysis = analyze(spec);
        const StageSplit split = splitIntoStages(spec, analysis, {"b", "c"});
        QVERIFY2(split.ok(), split.error.c_str());
        QCOMPARE(split.stages.size(), std::size_t(3));
        // Stage 1 (a, b) sends b; stage 2 (c) receives b, sends c and b; stage 3 (d, sum, out) receives both.
        QCOMPARE(split.stages[0].nodes, (std::vector<std::string>{"a", "b"}));
        QCOMPARE(split.stages[0].sends.size(), std::size_t(1));
        QCOMPARE(split.stages[0].sends[0].name, std::string("b"));
        const Stage &middle = split.stages[1];
        QCOMPARE(middle.nodes, std::vector<std::string>{"c"});
        QCOMPARE(middle.sends.size(), std::size_t(2));
        bool passesB = false;
        for (const OutputDecl &o : middle.spec.outputs)
            passesB = passesB || (o.name == "b" && o.from.node == "b" && middle.spec.inputIndex("b") >= 0);
        QVERIFY(passesB);
        QString why;
        QVERIFY2(consistent(spec, analysis, split, &why), qPrintable(why));
        // The bytes per sample crossing each cut: after a only a (16 floats), after b and c two values cross there.
        const std::vector<std::int64_t> bytes = crossingBytesPerSample(spec, analysis);
        QCOMPARE(bytes, (std::vector<std::int64_t>{64, 64, 128, 128, 64, 12}));
    }

    void badCutsAreRefusedByName() {
        const Spec spec = parse(kSkip);
        const Analysis analysis = analyze(spec);
        StageSplit split = splitIntoStages(spec, analysis, {"nope"});
        QVERIFY(!split.ok());
        QVERIFY(split.error.find("'nope'") != std::string::npos);
        split = splitIntoStages(spec, analysis, {"out"});
        QVERIFY(split.error.find("nothing for the last stage") != std::string::npos);
        split = splitIntoStages(spec, analysis, {"c", "a"});
        QVERIFY(split.error.find("'a'") != std::string::npos);
        split = splitIntoStages(spec, analysis, {"a", "a"});
        QVERIFY(!split.ok());
        split = splitIntoStages(spec, analysis, {"x"}); // a graph input is no node to cut after
        QVERIFY(!split.ok());
    }

    void theBalancedCutIsTheBestOfAllCuts() {
        const Spec spec = chain({64, 256, 32, 512, 128, 128, 64, 1024, 16, 256, 64, 3});
        const Analysis analysis = analyze(spec);
        const std::vector<std::string> order = runOrder(analysis);
        QCOMPARE(order.size(), std::size_t(23));
        std::vector<double> cost, boundary;
        for (std::size_t p = 0; p < order.size(); ++p) {
            cost.push_back(static_cast<double>(analysis.node(order[p])->flops) + 1);
            boundary.push_back(static_cast<double>(p % 5) * 300.0);
        }
        for (int stages : {2, 3}) {
            const std::vector<std::string> cut = balancedCut(analysis, stages, cost, boundary);
            QCOMPARE(cut.size(), std::size_t(stages - 1));
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t i = 0; i + 1 < order.size(); ++i) {
                if (stages == 2) {
                    best = std::min(best, slowest(order, {order[i]}, cost, boundary));
                    continue;
                }
                for (std::size_t j = i + 1; j + 1 < order.size(); ++j)
                    best = std::min(best, slowest(order, {order[i], order[j]}, cost, boundary));
            }
            QCOMPARE(slowest(order, cut, cost, boundary), best);
        }
        // Too few nodes for the stages: no cut.
        QVERIFY(balancedCut(analysis, 24, std::vector<double>(23, 1.0), std::vector<double>(23, 0.0)).empty());
        // The engine's own cut splits the chain's FLOPs about evenly.
        const std::vector<std::string> flops = flopBalancedCut(spec, analysis, 2);
        QCOMPARE(flops.size(), std::size_t(1));
        const StageSplit split = splitIntoStages(spec, analysis, flops);
        QVERIFY(split.ok());
        const double first = static_cast<double>(split.stages[0].flops),
                     second = static_cast<double>(split.stages[1].flops);
        qInfo("FLOP-balanced cut after %s: %.0f / %.0f FLOPs per sample", flops[0].c_str(), first, second);
        QVERIFY(std::max(first, second) <= 0.75 * (first + second));
    }
};

QTEST_APPLESS_MAIN(TestSpecPipeline)
#include "tst_spec_pipeline.moc"
