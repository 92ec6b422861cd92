// Pipeline stages (pipeline.h) in one process: two or three stages on threads, connected by Gloo over a file store,
// run the templates (MLP, CNN, transformer with token inputs, U-Net with batch norm and skips, ResNet-18 at a small
// image; dropout off: each stage has its own random stream) in micro-batches and give the gradients and batch-norm
// statistics of the whole network run on the same micro-batches; checkpoint state gathers into the whole network's
// order and splits back.
#include "distributed.h"
#include "model/network.h"
#include "pipeline.h"
#include "spec_batch.h"

#include "engine_error.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace diamond;
using namespace diamond::engine;

namespace {

spec::Spec loadTemplate(const std::string &name) {
    auto loaded = spec::loadSpecFile(std::string(DIAMOND_SOURCE_DIR) + "/resources/templates/" + name);
    for (const auto &d : loaded.diagnostics)
        if (d.severity == spec::Severity::Error) qWarning("%s", spec::formatDiagnostic(d).c_str());
    return loaded.spec;
}

/// The transformer template without dropout: the stages draw their masks from streams of their own (each rank reseeds
/// its generator), so only a network without dropout can match the whole one mask for mask.
spec::Spec transformerWithoutDropout() {
    spec::Spec s = loadTemplate("transformer_classifier.json");
    for (spec::Node &n : s.nodes)
        if (n.type == "TransformerEncoderLayer") n.params["dropout"] = 0.0;
    return s;
}

/// ResNet-18 at 32 x 32 pixels: the same 69 nodes, small enough for a unit test.
spec::Spec smallResNet() {
    spec::Spec s = loadTemplate("resnet18.json");
    s.inputs.front().shape = {spec::kBatch, 3, 32, 32};
    return s;
}

/// Runs `body(rank)` on one thread per rank and rethrows the first exception.
void onRanks(int world, const std::function<void(int)> &body) {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(world));
    std::vector<std::thread> threads;
    for (int r = 0; r < world; ++r)
        threads.emplace_back([&, r] {
            try {
                body(r);
            } catch (...) {
                errors[static_cast<std::size_t>(r)] = std::current_exception();
            }
        });
    for (auto &t : threads)
        t.join();
    for (auto &e : errors)
        if (e) std::rethrow_exception(e);
}

std::vector<std::unique_ptr<Communicator>> connectRanks(int world, const QString &storeFile) {
    std::vector<std::unique_ptr<Communicator>> comms(static_cast<std::size_t>(world));
    onRanks(world, [&](int r) {
        Rendezvous rv;
        rv.rank = r;
        rv.world = world;
        rv.localRank = r;
        rv.source = "torchrun";
        rv.fileStore = storeFile.toStdString();
        comms[static_cast<std::size_t>(r)] = connect(rv, std::chrono::seconds(60), "cpu");
    });
    return comms;
}

double relativeDifference(const torch::Tensor &a, const torch::Tensor &b) {
    const double scale = std::max(1.0, a.abs().max().item<double>());
    return (a - b).abs().max().item<double>() / scale;
}

} // namespace

class TestPipeline : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    int stores_ = 0;

    std::vector<std::unique_ptr<Communicator>> ranks(int world) {
        return connectRanks(world, dir_.filePath(QStringLiteral("store%1").arg(stores_++)));
    }

private Q_SLOTS:
    void stagesTrainLikeTheWholeNetwork_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microBatches");
        QTest::newRow("mlp 2") << QStringLiteral("mlp.json") << 2 << 2;
        QTest::newRow("cnn28 2") << QStringLiteral("cnn28.json") << 2 << 4;
        QTest::newRow("transformer 2") << QStringLiteral("transformer_classifier.json") << 2 << 2;
        QTest::newRow("transformer 3") << QStringLiteral("transformer_classifier.json") << 3 << 2;
        QTest::newRow("unet 2") << QStringLiteral("unet.json") << 2 << 2;
        QTest::newRow("unet 3") << QStringLiteral("unet.json") << 3 << 2;
        QTest::newRow("resnet18 small 2") << QStringLiteral("resnet18-small") << 2 << 2;
    }
    void stagesTrainLikeTheWholeNetwork() {
        QFETCH(QString, file);
        QFETCH(int, stages);
        QFETCH(int, microBatches);
        const spec::Spec s = file == QLatin1String("resnet18-small")         ? smallResNet()
                             : file.startsWith(QLatin1String("transformer")) ? transformerWithoutDropout()
                                                                             : loadTemplate(file.toStdString());
        QVERIFY(!s.nodes.empty());
        torch::manual_seed(1);
        auto whole = Network::build(s);
        whole->train(true);
        const torch::Tensor rngAfterBuild = torch::randint(0, 1 << 30, {1}, torch::kLong);

        config::PipelineConfig config;
        config.stages = stages;
        config.microBatches = microBatches;
        auto comms = ranks(stages);
        std::vector<std::unique_ptr<PipelineStage>> pipeline;
        std::vector<std::unique_ptr<Network>> nets;
        torch::manual_seed(1);
        auto again = Network::build(s); // the stages are built from a whole network as each rank builds it
        for (int r = 0; r < stages; ++r) {
            pipeline.push_back(std::make_unique<PipelineStage>(s, *again, config, *comms[static_cast<std::size_t>(r)],
                                                               "fp32", torch::kCPU));
            nets.push_back(pipeline.back()->takeNetwork());
            nets.back()->train(true);
        }
        // Building the stages drew nothing from the generator.
        QVERIFY(torch::equal(torch::randint(0, 1 << 30, {1}, torch::kLong), rngAfterBuild));
        QCOMPARE(pipeline.front()->cut().size(), std::size_t(stages - 1));
        std::int64_t stageParameters = 0;
        for (const auto &n : nets)
            stageParameters += n->parameterCount();
        QCOMPARE(stageParameters, whole->parameterCount());

        torch::manual_seed(2);
        const std::int64_t rows = 2 * microBatches;
        const torch::Tensor x = testing::batchFor(s, rows);
        std::vector<std::int64_t> outShape;
        for (std::int64_t d : whole->analysis().portType(s.outputs.front().from)->shape)
            outShape.push_back(d == spec::kBatch ? rows : d);
        const torch::Tensor weighting = torch::randn(outShape);

        // The whole network on the same micro-batches, gradients accumulated in the same order.
        const std::int64_t micro = rows / microBatches;
        for (int m = 0; m < microBatches; ++m) {
            const torch::Tensor out = whole->forward({x.narrow(0, m * micro, micro)}).front();
            (out * weighting.narrow(0, m * micro, micro)).sum().backward();
        }
        std::vector<StageTimes> times(static_cast<std::size_t>(stages));
        onRanks(stages, [&](int r) {
            times[static_cast<std::size_t>(r)] = pipeline[static_cast<std::size_t>(r)]->trainBatch(
                *nets[static_cast<std::size_t>(r)], x, rows,
                [&](const torch::Tensor &out, std::int64_t begin, std::int64_t n) {
                    return (out * weighting.narrow(0, begin, n)).sum();
                });
        });
        std::map<std::string, torch::Tensor> wholeGrads, wholeBuffers;
        for (const auto &[name, p] : whole->namedParameters())
            wholeGrads[name] = p.grad();
        for (const auto &[name, b] : whole->namedBuffers())
            wholeBuffers[name] = b;
        double worst = 0;
        std::size_t compared = 0, identical = 0;
        for (const auto &n : nets) {
            for (const auto &[name, p] : n->namedParameters()) {
                QVERIFY2(wholeGrads.count(name), name.c_str());
                QVERIFY2(p.grad().defined(), name.c_str());
                worst = std::max(worst, relativeDifference(wholeGrads[name], p.grad()));
                identical += torch::equal(wholeGrads[name], p.grad()) ? 1 : 0;
                ++compared;
            }
            for (const auto &[name, b] : n->namedBuffers())
                QVERIFY2(torch::allclose(wholeBuffers.at(name), b, 1e-6, 1e-7), name.c_str());
        }
        QCOMPARE(compared, wholeGrads.size());
        qInfo("%zu gradients, %zu bit-identical, worst relative difference %.3g; stage 1 forward %.1f ms, waiting "
              "%.1f ms",
              compared, identical, worst, times[0].forward * 1e3, times[0].waiting * 1e3);
        QVERIFY2(worst <= 1e-5, qPrintable(QStringLiteral("gradients differ by %1").arg(worst)));
    }

    /// Checkpoint state: each stage's entries gathered on rank 0 in the whole network's order, per-parameter optimizer
    /// tensors placed at the whole network's canonical offsets, and split back per stage.
    void stateGathersIntoTheWholeNetworkAndSplitsBack() {
        const spec::Spec s = loadTemplate("unet.json");
        torch::manual_seed(1);
        auto whole = Network::build(s);
        config::PipelineConfig config;
        config.stages = 3;
        auto comms = ranks(3);
        std::vector<std::unique_ptr<PipelineStage>> pipeline;
        std::vector<std::unique_ptr<Network>> nets;
        for (int r = 0; r < 3; ++r) {
            pipeline.push_back(std::make_unique<PipelineStage>(s, *whole, config, *comms[static_cast<std::size_t>(r)],
                                                               "fp32", torch::kCPU));
            nets.push_back(pipeline.back()->takeNetwork());
        }
        // A per-parameter "optimizer" tensor: each stage's parameters, flattened in its order, plus a step count.
        std::vector<std::vector<std::pair<std::string, torch::Tensor>>> models(3);
        std::vector<std::map<std::string, torch::Tensor>> optimizers(3);
        for (int r = 0; r < 3; ++r) {
            std::vector<torch::Tensor> flat;
            for (const torch::Tensor &p : nets[static_cast<std::size_t>(r)]->parameters())
                flat.push_back(p.detach().reshape({-1}) * 2);
            optimizers[static_cast<std::size_t>(r)] = {{"exp_avg", torch::cat(flat)},
                                                       {"step", torch::tensor(7, torch::kLong)}};
            models[static_cast<std::size_t>(r)] = nets[static_cast<std::size_t>(r)]->namedState();
        }
        onRanks(3, [&](int r) {
            pipeline[static_cast<std::size_t>(r)]->gatherState(models[static_cast<std::size_t>(r)],
                                                               optimizers[static_cast<std::size_t>(r)]);
        });
        const auto wholeState = whole->namedState();
        QCOMPARE(models[0].size(), wholeState.size());
        for (std::size_t i = 0; i < wholeState.size(); ++i) {
            QCOMPARE(models[0][i].first, wholeState[i].first);
            QVERIFY2(torch::equal(models[0][i].second, wholeState[i].second), wholeState[i].first.c_str());
        }
        std::vector<torch::Tensor> flat;
        for (const torch::Tensor &p : whole->parameters())
            flat.push_back(p.detach().reshape({-1}) * 2);
        QVERIFY(torch::equal(optimizers[0].at("exp_avg"), torch::cat(flat)));
        QCOMPARE(optimizers[0].at("step").item<std::int64_t>(), std::int64_t(7));
        // Other ranks keep theirs; each stage gets its part back from the whole.
        QCOMPARE(models[1].size(), nets[1]->namedState().size());
        for (int r = 0; r < 3; ++r) {
            const auto part = pipeline[static_cast<std::size_t>(r)]->stageOptimizerState(optimizers[0]);
            std::vector<torch::Tensor> own;
            for (const torch::Tensor &p : nets[static_cast<std::size_t>(r)]->parameters())
                own.push_back(p.detach().reshape({-1}) * 2);
            QVERIFY(torch::equal(part.at("exp_avg"), torch::cat(own)));
        }
    }

    void badLayoutsAreRefusedByField() {
        const spec::Spec s = loadTemplate("mlp.json");
        torch::manual_seed(1);
        auto whole = Network::build(s);
        auto single = singleProcessCommunicator();
        config::PipelineConfig config;
        config.stages = 2;
        try {
            PipelineStage stage(s, *whole, config, *single, "fp32", torch::kCPU);
            QFAIL("a pipeline of 2 stages ran on 1 process");
        } catch (const EngineError &e) {
            QCOMPARE(e.field(), std::string("pipeline.stages"));
        }
        auto comms = ranks(2);
        config.cut = {"no_such_node"};
        try {
            PipelineStage stage(s, *whole, config, *comms[0], "fp32", torch::kCPU);
            QFAIL("a cut after an unknown node was used");
        } catch (const EngineError &e) {
            QCOMPARE(e.field(), std::string("pipeline.cut"));
            QVERIFY2(std::string(e.what()).find("no_such_node") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
