// Activation checkpointing (model/recompute.h, Network::setRecompute): a network that recomputes its activations in
// backward gives the outputs, gradients, batch norm statistics and random number stream of the same network without
// recompute, on the templates (MLP, CNN, transformer with dropout, U-Net with batch norm and skips), under bf16
// autocast too; it holds at most a quarter of the tensor memory between forward and backward on the transformer and
// U-Net, and a step's peak falls by a third; runs are cut into several parts; only marked nodes are recomputed in
// "marked" mode.
#include "model/network.h"
#include "model/recompute.h"
#include "precision.h"
#include "spec_batch.h"
#include "tensor_bytes.h"

#include "engine_error.h"

#include <QtTest>

#include <c10/util/ThreadLocalDebugInfo.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

using namespace diamond;
using namespace diamond::engine;
using nlohmann::json;

namespace {

std::string templatePath(const std::string &name) {
    return std::string(DIAMOND_SOURCE_DIR) + "/resources/templates/" + name;
}

spec::Spec loadTemplate(const std::string &name) {
    auto loaded = spec::loadSpecFile(templatePath(name));
    for (const auto &d : loaded.diagnostics)
        if (d.severity == spec::Severity::Error) qWarning("%s", spec::formatDiagnostic(d).c_str());
    return loaded.spec;
}

using testing::batchFor;

struct StepResult {
    torch::Tensor output;
    std::vector<torch::Tensor> grads;
    std::vector<torch::Tensor> buffers;
    torch::Tensor nextRandom; ///< what the generator draws after the step
};

/// Builds the spec's network from seed 1 with `recompute`, and runs one forward and backward pass in training mode
/// on a fixed batch (seed 2) with a fixed output weighting; `precision` as the run config's.
StepResult trainStep(const spec::Spec &s, const std::string &recompute, const std::string &precision = "fp32") {
    torch::manual_seed(1);
    auto net = Network::build(s);
    net->setRecompute(recompute);
    net->train(true);
    torch::manual_seed(2);
    const torch::Tensor x = batchFor(s, 4);
    torch::Tensor out;
    {
        AutocastScope autocast(precision, torch::kCPU);
        out = net->forward({x}).front();
    }
    const torch::Tensor weighting = torch::randn(out.sizes());
    (out.to(torch::kFloat) * weighting).sum().backward();
    StepResult r;
    r.output = out.detach();
    for (const auto &p : net->parameters())
        r.grads.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    for (const auto &[name, b] : net->namedBuffers())
        r.buffers.push_back(b.clone());
    r.nextRandom = torch::rand({8});
    return r;
}

/// The largest difference between two gradients relative to the larger one's size (at least 1).
double relativeDifference(const torch::Tensor &a, const torch::Tensor &b) {
    const double scale = std::max(1.0, a.abs().max().item<double>());
    return (a - b).abs().max().item<double>() / scale;
}

struct StepMemory {
    std::int64_t heldForBackward = 0; ///< tensor bytes alive between forward and backward
    std::int64_t peak = 0;            ///< the most tensor bytes alive during forward and backward
};

/// Tensor memory of the second training step of `s` (batch `batch`) with `recompute`, counted from the step's start.
StepMemory stepMemory(const spec::Spec &s, const std::string &recompute, std::int64_t batch) {
    torch::manual_seed(1);
    auto net = Network::build(s);
    net->setRecompute(recompute);
    net->train(true);
    const torch::Tensor x = batchFor(s, batch);
    StepMemory m;
    for (int step = 0; step < 2; ++step) {
        auto counter = std::make_shared<TensorBytesCounter>();
        c10::DebugInfoGuard guard(c10::DebugInfoKind::PROFILER_STATE, counter);
        torch::Tensor out = net->forward({x}).front();
        m.heldForBackward = counter->now;
        out.sum().backward();
        m.peak = counter->peak;
    }
    return m;
}
} // namespace

class TestRecompute : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recomputedTrainingStepEqualsPlain_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("precision");
        QTest::newRow("mlp") << QStringLiteral("mlp.json") << QStringLiteral("fp32");
        QTest::newRow("cnn28") << QStringLiteral("cnn28.json") << QStringLiteral("fp32");
        QTest::newRow("transformer") << QStringLiteral("transformer_classifier.json") << QStringLiteral("fp32");
        QTest::newRow("unet") << QStringLiteral("unet.json") << QStringLiteral("fp32");
        QTest::newRow("lstm") << QStringLiteral("lstm_regressor.json") << QStringLiteral("fp32");
        QTest::newRow("transformer bf16") << QStringLiteral("transformer_classifier.json") << QStringLiteral("bf16");
        QTest::newRow("cnn28 bf16") << QStringLiteral("cnn28.json") << QStringLiteral("bf16");
    }
    void recomputedTrainingStepEqualsPlain() {
        QFETCH(QString, file);
        QFETCH(QString, precision);
        const spec::Spec s = loadTemplate(file.toStdString());
        QVERIFY(!s.nodes.empty());
        const StepResult plain = trainStep(s, "none", precision.toStdString());
        const StepResult recomputed = trainStep(s, "all", precision.toStdString());
        QVERIFY(torch::equal(plain.output, recomputed.output));
        QCOMPARE(recomputed.grads.size(), plain.grads.size());
        double worst = 0.0;
        bool anyGradient = false;
        for (std::size_t i = 0; i < plain.grads.size(); ++i) {
            anyGradient = anyGradient || plain.grads[i].abs().sum().item<double>() > 0;
            worst = std::max(worst, relativeDifference(plain.grads[i], recomputed.grads[i]));
        }
        QVERIFY(anyGradient);
        QVERIFY2(worst <= 1e-5, qPrintable(QStringLiteral("gradients differ by %1").arg(worst)));
        // Batch norm statistics are updated once, not once more by the recomputation.
        QCOMPARE(recomputed.buffers.size(), plain.buffers.size());
        for (std::size_t i = 0; i < plain.buffers.size(); ++i)
            QVERIFY(torch::equal(plain.buffers[i], recomputed.buffers[i]));
        // The generator is where the plain step left it.
        QVERIFY(torch::equal(plain.nextRandom, recomputed.nextRandom));
    }

    void recomputeKeepsLessForBackward_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("batch");
        QTest::newRow("transformer") << QStringLiteral("transformer_classifier.json") << 16;
        QTest::newRow("unet") << QStringLiteral("unet.json") << 4;
    }
    void recomputeKeepsLessForBackward() {
        QFETCH(QString, file);
        QFETCH(int, batch);
        const spec::Spec s = loadTemplate(file.toStdString());
        const StepMemory plain = stepMemory(s, "none", batch);
        const StepMemory recomputed = stepMemory(s, "all", batch);
        qInfo("held for backward %.2f -> %.2f MiB, step peak %.2f -> %.2f MiB", plain.heldForBackward / 1048576.0,
              recomputed.heldForBackward / 1048576.0, plain.peak / 1048576.0, recomputed.peak / 1048576.0);
        QVERIFY(plain.heldForBackward > 0);
        QVERIFY(recomputed.heldForBackward * 4 <= plain.heldForBackward);
        QVERIFY(recomputed.peak * 3 <= plain.peak * 2);
    }

    void runsAreCutIntoParts() {
        torch::manual_seed(1);
        auto unet = Network::build(loadTemplate("unet.json"));
        QCOMPARE(unet->recomputedParts(), 0);
        unet->setRecompute("all");
        QCOMPARE(unet->recomputedNodes(), 52);
        // One part keeps nothing; one part per node keeps everything.
        QVERIFY(unet->recomputedParts() > 1);
        QVERIFY(unet->recomputedParts() < 52);

        // embed | encoder1 | encoder2 | permute, reshape, mean, flatten, fc: the encoder layers recompute their halves.
        auto transformer = Network::build(loadTemplate("transformer_classifier.json"));
        transformer->setRecompute("all");
        QCOMPARE(transformer->recomputedNodes(), 8);
        QCOMPARE(transformer->recomputedParts(), 1 + 2 + 3);
        transformer->setRecompute("none");
        QCOMPARE(transformer->recomputedParts(), 0);
    }

    void onlyMarkedNodesAreRecomputed() {
        spec::Spec s = loadTemplate("unet.json");
        for (auto &node : s.nodes)
            node.recompute = node.id.rfind("enc2.", 0) == 0 || node.id.rfind("dec1.", 0) == 0;
        torch::manual_seed(1);
        auto net = Network::build(s);
        QCOMPARE(net->recomputedNodes(), 12);
        QVERIFY(net->recomputedParts() >= 2); // two runs of 6
        QVERIFY(net->recomputedParts() <= 12);
        net->setRecompute("none");
        QCOMPARE(net->recomputedNodes(), 0);
        net->setRecompute("marked");
        QCOMPARE(net->recomputedNodes(), 12);

        const StepResult plain = trainStep(s, "none");
        const StepResult marked = trainStep(s, "marked");
        for (std::size_t i = 0; i < plain.grads.size(); ++i)
            QVERIFY(relativeDifference(plain.grads[i], marked.grads[i]) <= 1e-5);

        try {
            net->setRecompute("some");
            QFAIL("an unknown mode was accepted");
        } catch (const EngineError &e) {
            QVERIFY(std::string(e.what()).find("recompute") != std::string::npos);
        }
    }

    void specFieldRoundTripsAndIsChecked() {
        const json doc = {{"format", "diamond.spec/1"},
                          {"inputs", {{{"name", "x"}, {"shape", {"N", 4}}}}},
                          {"nodes",
                           {{{"id", "fc"},
                             {"type", "Linear"},
                             {"params", {{"out_features", 2}}},
                             {"inputs", {"x"}},
                             {"recompute", true}}}},
                          {"outputs", {{{"name", "y"}, {"from", "fc"}}}}};
        const auto parsed = spec::parseSpecJson(doc);
        QVERIFY(parsed.ok());
        QVERIFY(parsed.spec.nodes.front().recompute);
        QCOMPARE(spec::toJson(parsed.spec)["nodes"][0]["recompute"].get<bool>(), true);
        json bad = doc;
        bad["nodes"][0]["recompute"] = "yes";
        const auto refused = spec::parseSpecJson(bad);
        QVERIFY(!refused.ok());
        bool named = false;
        for (const auto &d : refused.diagnostics)
            named = named || (d.node == "fc" && d.field == "recompute");
        QVERIFY(named);
    }

    /// The encoder layer's own self-attention (whose dropout a recomputed layer keeps) computes what torch's
    /// MultiheadAttention does, random draws included: the layer in training mode against the same layer assembled
    /// from its torch submodules.
    void encoderLayerMatchesTorchsModulesInTraining() {
        const json doc = {{"format", "diamond.spec/1"},
                          {"inputs", {{{"name", "x"}, {"shape", {"N", 12, 32}}}}},
                          {"nodes",
                           {{{"id", "enc"},
                             {"type", "TransformerEncoderLayer"},
                             {"params", {{"nhead", 4}, {"dim_feedforward", 64}, {"dropout", 0.2}}},
                             {"inputs", {"x"}}}}},
                          {"outputs", {{{"name", "y"}, {"from", "enc"}}}}};
        const auto parsed = spec::parseSpecJson(doc);
        QVERIFY(parsed.ok());
        torch::manual_seed(3);
        auto net = Network::build(parsed.spec);
        net->train(true);
        const torch::Tensor x = torch::randn({5, 12, 32});
        torch::manual_seed(11);
        const torch::Tensor ours = net->forward({x}).front();

        auto layer = net->layer("enc");
        std::map<std::string, std::shared_ptr<torch::nn::Module>> parts;
        for (const auto &child : layer->named_children())
            parts[child.key()] = child.value();
        auto *mha = dynamic_cast<torch::nn::MultiheadAttentionImpl *>(parts.at("self_attn").get());
        auto *linear1 = dynamic_cast<torch::nn::LinearImpl *>(parts.at("linear1").get());
        auto *linear2 = dynamic_cast<torch::nn::LinearImpl *>(parts.at("linear2").get());
        auto *norm1 = dynamic_cast<torch::nn::LayerNormImpl *>(parts.at("norm1").get());
        auto *norm2 = dynamic_cast<torch::nn::LayerNormImpl *>(parts.at("norm2").get());
        QVERIFY(mha && linear1 && linear2 && norm1 && norm2);
        torch::manual_seed(11);
        const torch::Tensor t = x.transpose(0, 1);
        const torch::Tensor attention = std::get<0>(mha->forward(t, t, t, {}, false)).transpose(0, 1);
        torch::Tensor h = norm1->forward(x + torch::dropout(attention, 0.2, true));
        const torch::Tensor ff = linear2->forward(torch::dropout(torch::relu(linear1->forward(h)), 0.2, true));
        const torch::Tensor reference = norm2->forward(h + torch::dropout(ff, 0.2, true));
        QVERIFY(torch::equal(ours, reference));
    }

    void withoutGradientsThePartJustRuns() {
        int runs = 0;
        const RecomputedPart part = [&runs](const std::vector<torch::Tensor> &in) {
            ++runs;
            return std::vector<torch::Tensor>{in.front() * 2};
        };
        const torch::Tensor x = torch::ones({3}, torch::requires_grad());
        {
            torch::NoGradGuard noGrad;
            QVERIFY(torch::equal(runRecomputed(part, {x}).front(), torch::full({3}, 2.0F)));
        }
        QCOMPARE(runs, 1);
        // With gradients: once forward, once more in backward.
        runRecomputed(part, {x}).front().sum().backward();
        QCOMPARE(runs, 3);
        QVERIFY(torch::equal(x.grad(), torch::full({3}, 2.0F)));
    }
};

QTEST_GUILESS_MAIN(TestRecompute)
#include "tst_recompute.moc"
