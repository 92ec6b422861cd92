// Network (engine/train/model/network.h): graph execution (residual Add, Concat branch, node
// order independent of the execution order), parameter/buffer naming and order, reproducible
// initialisation from torch's seed, errors naming the node, train()/eval(), the cnn28 and
// resnet18 templates, and agreement with PyTorch-Python (torch 1.13) for initial weights and
// for the batch-first layers' forward values. A ReLU feeding only a max pool runs after the pool,
// one fed only by a Linear runs inside it (same values and gradients); channels-last
// convolutions give the same results.
#include "model/network.h"
#include "optimizer.h"

#include "engine_error.h"

#include <QtTest>

#include <limits>
#include <string>
#include <thread>
#include <vector>

using namespace diamond;
using namespace diamond::engine;
using nlohmann::json;

namespace {

spec::Spec parse(const json &doc) {
    auto parsed = spec::parseSpecJson(doc);
    for (const auto &d : parsed.diagnostics)
        qWarning("%s", spec::formatDiagnostic(d).c_str());
    return parsed.spec;
}

/// x [N,3,8,8] -> conv1 -> bn -> relu -> conv2, add = conv2 + conv1 (residual); a 1x1 conv
/// branch on x; cat = Concat(add, branch) along channels -> pool -> flatten -> fc. The nodes
/// are listed out of execution order on purpose (fc first).
json dagDoc() {
    return {
        {"format", "diamond.spec/1"},
        {"inputs", {{{"name", "x"}, {"shape", {"N", 3, 8, 8}}}}},
        {"nodes",
         {
             {{"id", "fc"}, {"type", "Linear"}, {"params", {{"out_features", 5}}}, {"inputs", {"flatten"}}},
             {{"id", "conv1"},
              {"type", "Conv2d"},
              {"params", {{"out_channels", 8}, {"kernel_size", 3}, {"padding", 1}}},
              {"inputs", {"x"}}},
             {{"id", "bn"}, {"type", "BatchNorm2d"}, {"inputs", {"conv1"}}},
             {{"id", "relu"}, {"type", "ReLU"}, {"inputs", {"bn"}}},
             {{"id", "conv2"},
              {"type", "Conv2d"},
              {"params", {{"out_channels", 8}, {"kernel_size", 3}, {"padding", "same"}, {"bias", false}}},
              {"inputs", {"relu"}}},
             {{"id", "add"}, {"type", "Add"}, {"inputs", {"conv2", "conv1"}}},
             {{"id", "branch"},
              {"type", "Conv2d"},
              {"params", {{"out_channels", 4}, {"kernel_size", 1}}},
              {"inputs", {"x"}}},
             {{"id", "cat"}, {"type", "Concat"}, {"inputs", {"add", "branch"}}},
             {{"id", "pool"}, {"type", "AdaptiveAvgPool2d"}, {"params", {{"output_size", 1}}}, {"inputs", {"cat"}}},
             {{"id", "flatten"}, {"type", "Flatten"}, {"inputs", {"pool"}}},
         }},
        {"outputs", {{{"name", "logits"}, {"from", "fc"}}, {{"name", "features"}, {"from", "cat"}}}},
    };
}

/// A one-node spec: inputs named x0.. with the given shapes, node "layer", output "out".
spec::Spec oneNode(const std::string &type, const json &params, const std::vector<json> &shapes) {
    json doc = {{"format", "diamond.spec/1"}, {"inputs", json::array()}, {"outputs", json::array()}};
    json node = {{"id", "layer"}, {"type", type}, {"params", params}, {"inputs", json::array()}};
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        doc["inputs"].push_back({{"name", "x" + std::to_string(i)}, {"shape", shapes[i]}});
        node["inputs"].push_back("x" + std::to_string(i));
    }
    doc["nodes"] = json::array({node});
    doc["outputs"].push_back({{"name", "out"}, {"from", "layer"}});
    return parse(doc);
}

torch::Tensor param(const Network &net, const std::string &name) {
    for (const auto &[n, t] : net.namedParameters()) {
        if (n == name) return t;
    }
    return {};
}

/// The first values of `t` (flattened) equal `expected` exactly (float32 values printed by Python as doubles).
bool startsWith(const torch::Tensor &t, const std::vector<double> &expected) {
    const torch::Tensor flat = t.detach().flatten();
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double v = flat[static_cast<std::int64_t>(i)].item<float>();
        if (v != expected[i]) {
            qWarning("value %zu: %.17g, expected %.17g", i, v, expected[i]);
            return false;
        }
    }
    return true;
}

/// Shape, first four values and sum of `t` match Python's within 1e-5.
bool near(const torch::Tensor &t, const std::vector<std::int64_t> &shape, const std::vector<double> &first,
          double sum) {
    if (t.sizes().vec() != shape) {
        qWarning("shape mismatch");
        return false;
    }
    const torch::Tensor flat = t.detach().flatten().to(torch::kFloat64);
    bool ok = std::abs(flat.sum().item<double>() - sum) < 1e-5;
    for (std::size_t i = 0; i < first.size(); ++i)
        ok = ok && std::abs(flat[static_cast<std::int64_t>(i)].item<double>() - first[i]) < 1e-5;
    if (!ok) {
        qWarning("got %.9g %.9g %.9g %.9g sum %.9g", flat[0].item<double>(), flat[1].item<double>(),
                 flat[2].item<double>(), flat[3].item<double>(), flat.sum().item<double>());
    }
    return ok;
}

/// x [N,2,8,8] -> conv -> relu -> pool (MaxPool2d 2) -> flatten -> fc; `reluIsOutput` also
/// makes the ReLU a network output (then it must not be fused into the pool).
spec::Spec convReluPoolSpec(bool reluIsOutput, int inChannels = 2) {
    json doc = {
        {"format", "diamond.spec/1"},
        {"inputs", {{{"name", "x"}, {"shape", {"N", inChannels, 8, 8}}}}},
        {"nodes",
         {{{"id", "conv"},
           {"type", "Conv2d"},
           {"params", {{"out_channels", 4}, {"kernel_size", 3}, {"padding", 1}}},
           {"inputs", {"x"}}},
          {{"id", "relu"}, {"type", "ReLU"}, {"inputs", {"conv"}}},
          {{"id", "pool"}, {"type", "MaxPool2d"}, {"params", {{"kernel_size", 2}}}, {"inputs", {"relu"}}},
          {{"id", "flatten"}, {"type", "Flatten"}, {"inputs", {"pool"}}},
          {{"id", "fc"}, {"type", "Linear"}, {"params", {{"out_features", 3}}}, {"inputs", {"flatten"}}}}},
        {"outputs", {{{"name", "y"}, {"from", "fc"}}}},
    };
    if (reluIsOutput) doc["outputs"].push_back({{"name", "r"}, {"from", "relu"}});
    return parse(doc);
}

/// x [N,6] -> fc1 (Linear 16, bias optional) -> relu -> fc2 (Linear 3); `fc1IsOutput` also makes
/// fc1's output (before the ReLU) a network output, which must then not be fused.
spec::Spec linearReluSpec(bool fc1IsOutput, bool bias) {
    json doc = {
        {"format", "diamond.spec/1"},
        {"inputs", {{{"name", "x"}, {"shape", {"N", 6}}}}},
        {"nodes",
         {{{"id", "fc1"}, {"type", "Linear"}, {"params", {{"out_features", 16}, {"bias", bias}}}, {"inputs", {"x"}}},
          {{"id", "relu"}, {"type", "ReLU"}, {"inputs", {"fc1"}}},
          {{"id", "fc2"}, {"type", "Linear"}, {"params", {{"out_features", 3}}}, {"inputs", {"relu"}}}}},
        {"outputs", {{{"name", "y"}, {"from", "fc2"}}}},
    };
    if (fc1IsOutput) doc["outputs"].push_back({{"name", "z"}, {"from", "fc1"}});
    return parse(doc);
}

std::string templatePath(const char *name) { return std::string(DIAMOND_SOURCE_DIR) + "/resources/templates/" + name; }

} // namespace

class TestNetwork : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void reluBeforeMaxPoolRunsAfterIt() {
        for (const bool reluIsOutput : {false, true}) {
            torch::manual_seed(11);
            auto net = Network::build(convReluPoolSpec(reluIsOutput));
            const torch::Tensor x = torch::randn({5, 2, 8, 8}, torch::requires_grad());
            const auto outs = net->forward({x});
            // The reference: the same modules in spec order, ReLU before the pool.
            const torch::Tensor xr = x.detach().clone().requires_grad_(true);
            const torch::Tensor conv = net->layer("conv")->forward({xr}).front();
            const torch::Tensor relu = torch::relu(conv);
            const torch::Tensor pooled = net->layer("pool")->forward({relu}).front();
            const torch::Tensor y = net->layer("fc")->forward({pooled.flatten(1)}).front();
            QVERIFY(torch::equal(outs.front(), y));
            if (reluIsOutput) QVERIFY(torch::equal(outs.back(), relu));
            const torch::Tensor seed = torch::randn_like(y);
            const torch::Tensor gx = torch::autograd::grad({outs.front()}, {x}, {seed}).front();
            const torch::Tensor gxr = torch::autograd::grad({y}, {xr}, {seed}).front();
            QVERIFY(torch::allclose(gx, gxr, 1e-5, 1e-6));
        }
    }

    /// The oneDNN kernel warm-up runs on a thread of its own while set-up goes on: it must leave
    /// the caller's thread count and concurrent training alone (scratch buffers only).
    void linearWarmUpOnAnotherThreadChangesNothing() {
        const int threadsBefore = at::get_num_threads();
        at::set_num_threads(2);
        const auto train = [](std::vector<torch::Tensor> &grads) {
            torch::manual_seed(5);
            auto net = Network::build(linearReluSpec(false, true));
            const torch::Tensor x = torch::randn({64, 6});
            const torch::Tensor out = net->forward({x}).front();
            out.square().sum().backward();
            grads.clear();
            for (const torch::Tensor &p : net->parameters())
                grads.push_back(p.grad().clone());
            return out.detach();
        };
        std::vector<torch::Tensor> reference, concurrent;
        const torch::Tensor expected = train(reference);
        std::thread warmUp([] { layers::warmUpLinearProducts({{512, 784}, {4, 6}, {0, 3}, {3, 4}}, 64); });
        const torch::Tensor actual = train(concurrent);
        warmUp.join();
        QCOMPARE(at::get_num_threads(), 2);
        QVERIFY(torch::equal(actual, expected));
        QCOMPARE(concurrent.size(), reference.size());
        for (std::size_t i = 0; i < reference.size(); ++i)
            QVERIFY(torch::equal(concurrent[i], reference[i]));
        at::set_num_threads(threadsBefore);
    }

    void reluAfterLinearIsFoldedIntoIt() {
        for (const bool fc1IsOutput : {false, true}) {
            for (const bool bias : {true, false}) {
                torch::manual_seed(13);
                auto net = Network::build(linearReluSpec(fc1IsOutput, bias));
                QCOMPARE(net->runsReluInside("fc1"), !fc1IsOutput);
                QVERIFY(!net->runsReluInside("fc2")); // no ReLU after it
                torch::Tensor input = torch::randn({9, 6});
                input[4][2] = std::numeric_limits<float>::quiet_NaN(); // a NaN row stays NaN, as torch.relu
                const torch::Tensor x = input.requires_grad_(true);
                const auto outs = net->forward({x});
                // The reference: torch's own operations on the same parameters.
                const torch::Tensor xr = x.detach().clone().requires_grad_(true);
                const torch::Tensor w1 = param(*net, "fc1.weight").detach().clone().requires_grad_(true);
                const torch::Tensor w2 = param(*net, "fc2.weight").detach().clone().requires_grad_(true);
                const torch::Tensor b1 =
                    bias ? param(*net, "fc1.bias").detach().clone().requires_grad_(true) : torch::Tensor();
                const torch::Tensor b2 = param(*net, "fc2.bias").detach().clone().requires_grad_(true);
                const torch::Tensor z = torch::nn::functional::linear(xr, w1, b1);
                const torch::Tensor y = torch::nn::functional::linear(torch::relu(z), w2, b2);
                QVERIFY(torch::allclose(outs.front(), y, 1e-5, 1e-6, /*equal_nan=*/true));
                QVERIFY(outs.front()[4].isnan().all().item<bool>());
                if (fc1IsOutput) QVERIFY(torch::allclose(outs.back(), z, 1e-5, 1e-6, true));
                const torch::Tensor seed = torch::randn_like(y);
                (outs.front().nan_to_num() * seed).sum().backward();
                (y.nan_to_num() * seed).sum().backward();
                QVERIFY(torch::allclose(param(*net, "fc1.weight").grad(), w1.grad(), 1e-4, 1e-5, true));
                QVERIFY(torch::allclose(param(*net, "fc2.weight").grad(), w2.grad(), 1e-4, 1e-5, true));
                if (bias) QVERIFY(torch::allclose(param(*net, "fc1.bias").grad(), b1.grad(), 1e-4, 1e-5, true));
                QVERIFY(torch::allclose(x.grad(), xr.grad(), 1e-4, 1e-5, true));
            }
        }
    }

    void channelsLastGivesTheSameResults_data() {
        QTest::addColumn<int>("inChannels");
        QTest::newRow("2 input channels") << 2;
        // [4,1,3,3] is channels-last-contiguous with NCHW strides too: it must still get
        // channels-last strides, or the convolution keeps NCHW and so does the max-pool after it
        // (whose NCHW kernel is 10x slower).
        QTest::newRow("1 input channel") << 1;
    }
    void channelsLastGivesTheSameResults() {
        QFETCH(int, inChannels);
        const auto channelsLast = torch::MemoryFormat::ChannelsLast;
        torch::manual_seed(12);
        auto plain = Network::build(convReluPoolSpec(false, inChannels));
        torch::manual_seed(12);
        auto fast = Network::build(convReluPoolSpec(false, inChannels));
        fast->useChannelsLast();
        const FlatParameters flat(fast->parameters()); // as the trainer does: the layout must survive it
        QCOMPARE(param(*fast, "conv.weight").suggest_memory_format(), channelsLast);
        QVERIFY(torch::equal(param(*fast, "conv.weight"), param(*plain, "conv.weight")));
        const torch::Tensor x = torch::randn({6, inChannels, 8, 8});
        QCOMPARE(fast->layer("conv")->forward({x})[0].suggest_memory_format(), channelsLast);
        QCOMPARE(plain->layer("conv")->forward({x})[0].suggest_memory_format(), torch::MemoryFormat::Contiguous);
        const torch::Tensor a = plain->forward({x}).front(), b = fast->forward({x}).front();
        QVERIFY(torch::allclose(a, b, 1e-5, 1e-6));
        a.sum().backward();
        b.sum().backward();
        QVERIFY(torch::allclose(param(*plain, "conv.weight").grad(), param(*fast, "conv.weight").grad(), 1e-4, 1e-5));
        QVERIFY(torch::allclose(param(*plain, "fc.weight").grad(), param(*fast, "fc.weight").grad(), 1e-5, 1e-6));
    }

    void dagRunsWithResidualAndConcat() {
        torch::manual_seed(3);
        auto net = Network::build(parse(dagDoc()));
        const torch::Tensor x = torch::randn({4, 3, 8, 8});
        net->train(false);
        const auto out = net->forward({x});
        QCOMPARE(out.size(), std::size_t(2));
        QCOMPARE(out[0].sizes().vec(), (std::vector<std::int64_t>{4, 5}));
        QCOMPARE(out[1].sizes().vec(), (std::vector<std::int64_t>{4, 12, 8, 8}));

        // The same computation by hand from the node modules.
        const auto run = [&](const char *id, std::vector<torch::Tensor> in) { return net->layer(id)->forward(in)[0]; };
        const torch::Tensor c1 = run("conv1", {x});
        const torch::Tensor add = run("conv2", {run("relu", {run("bn", {c1})})}) + c1;
        const torch::Tensor cat = torch::cat({add, run("branch", {x})}, 1);
        QVERIFY(torch::allclose(out[1], cat));
        QVERIFY(torch::allclose(out[0], run("fc", {cat.mean({2, 3})}), 1e-5, 1e-6));

        // Training mode runs too, and gradients reach every parameter.
        net->train(true);
        const auto trained = net->forward({x});
        (trained[0].sum() + trained[1].sum()).backward();
        for (const auto &[name, p] : net->namedParameters())
            QVERIFY2(p.grad().defined(), name.c_str());
        QVERIFY(net->layer("missing") == nullptr);
    }

    void unusedNodeIsBuiltButNotRun() {
        json doc = dagDoc();
        doc["nodes"].push_back(
            {{"id", "unused"}, {"type", "Linear"}, {"params", {{"out_features", 3}}}, {"inputs", {"flatten"}}});
        auto net = Network::build(parse(doc));
        QVERIFY(net->layer("unused") != nullptr);
        QVERIFY(param(*net, "unused.weight").defined()); // built: part of the state and of the optimiser's view
        const auto out = net->forward({torch::randn({2, 3, 8, 8})});
        out[0].sum().backward();
        QVERIFY(param(*net, "fc.weight").grad().defined());
        QVERIFY(!param(*net, "unused.weight").grad().defined()); // not executed
    }

    void toDeviceKeepsWorking() {
        // Only the CPU here; to() goes through every layer, including the RNN's own to() override.
        auto net = Network::build(oneNode("LSTM", {{"hidden_size", 4}, {"num_layers", 2}}, {json{"N", 5, 3}}));
        const torch::Tensor before = param(*net, "layer.weight_ih_l1").clone();
        net->to(torch::Device(torch::kCPU));
        QVERIFY(torch::equal(param(*net, "layer.weight_ih_l1"), before));
        QCOMPARE(net->forward({torch::randn({2, 5, 3})})[0].sizes().vec(), (std::vector<std::int64_t>{2, 5, 4}));
    }

    void parameterNamesAndOrder() {
        auto net = Network::build(parse(dagDoc()));
        std::vector<std::string> names;
        for (const auto &[name, t] : net->namedParameters())
            names.push_back(name);
        const std::vector<std::string> expected = {"fc.weight",    "fc.bias",       "conv1.weight",
                                                   "conv1.bias",   "bn.weight",     "bn.bias",
                                                   "conv2.weight", "branch.weight", "branch.bias"};
        QCOMPARE(names, expected);
        const auto params = net->parameters();
        QCOMPARE(params.size(), expected.size());
        for (std::size_t i = 0; i < params.size(); ++i)
            QVERIFY(params[i].is_same(net->namedParameters()[i].second));

        std::vector<std::string> buffers;
        for (const auto &[name, t] : net->namedBuffers())
            buffers.push_back(name);
        QCOMPARE(buffers, (std::vector<std::string>{"bn.running_mean", "bn.running_var", "bn.num_batches_tracked"}));

        std::vector<std::string> state;
        for (const auto &[name, t] : net->namedState())
            state.push_back(name);
        const std::vector<std::string> expectedState = {"fc.weight",       "fc.bias",        "conv1.weight",
                                                        "conv1.bias",      "bn.weight",      "bn.bias",
                                                        "bn.running_mean", "bn.running_var", "bn.num_batches_tracked",
                                                        "conv2.weight",    "branch.weight",  "branch.bias"};
        QCOMPARE(state, expectedState);
        QCOMPARE(net->parameterCount(), net->analysis().totalParams);
        QCOMPARE(net->parameterCount(), std::int64_t(5 * 12 + 5 + 8 * 3 * 9 + 8 + 16 + 8 * 8 * 9 + 4 * 3 + 4));

        // Torch's names inside nodes with submodules.
        auto tel = Network::build(
            oneNode("TransformerEncoderLayer", {{"nhead", 2}, {"dim_feedforward", 16}}, {json{"N", 5, 8}}));
        names.clear();
        for (const auto &[name, t] : tel->namedParameters())
            names.push_back(name);
        const std::vector<std::string> telNames = {"layer.self_attn.in_proj_weight",
                                                   "layer.self_attn.in_proj_bias",
                                                   "layer.self_attn.out_proj.weight",
                                                   "layer.self_attn.out_proj.bias",
                                                   "layer.linear1.weight",
                                                   "layer.linear1.bias",
                                                   "layer.linear2.weight",
                                                   "layer.linear2.bias",
                                                   "layer.norm1.weight",
                                                   "layer.norm1.bias",
                                                   "layer.norm2.weight",
                                                   "layer.norm2.bias"}; // == Python's
        QCOMPARE(names, telNames);
        auto mha = Network::build(oneNode("MultiheadAttention", {{"num_heads", 2}}, {json{"N", 5, 8}}));
        names.clear();
        for (const auto &[name, t] : mha->namedParameters())
            names.push_back(name);
        QCOMPARE(names, (std::vector<std::string>{"layer.in_proj_weight", "layer.in_proj_bias", "layer.out_proj.weight",
                                                  "layer.out_proj.bias"}));
        auto lstm = Network::build(oneNode("LSTM", {{"hidden_size", 4}, {"bidirectional", true}}, {json{"N", 5, 3}}));
        QCOMPARE(lstm->namedParameters().front().first, std::string("layer.weight_ih_l0"));
        QCOMPARE(lstm->namedParameters().back().first, std::string("layer.bias_hh_l0_reverse"));
    }

    void sameSeedSameParameters() {
        torch::manual_seed(7);
        auto a = Network::build(parse(dagDoc()));
        torch::manual_seed(7);
        auto b = Network::build(parse(dagDoc()));
        const auto sa = a->namedState(), sb = b->namedState();
        QCOMPARE(sa.size(), sb.size());
        for (std::size_t i = 0; i < sa.size(); ++i) {
            QCOMPARE(sa[i].first, sb[i].first);
            QVERIFY2(torch::equal(sa[i].second, sb[i].second), sa[i].first.c_str());
        }
        torch::manual_seed(8);
        auto c = Network::build(parse(dagDoc()));
        QVERIFY(!torch::equal(param(*a, "conv1.weight"), param(*c, "conv1.weight")));
    }

    void invalidSpecNamesTheNode() {
        // Conv2d on a 2-D input: a shape error at "conv".
        const spec::Spec bad = oneNode("Conv2d", {{"out_channels", 4}, {"kernel_size", 3}}, {json{"N", 5}});
        try {
            Network::build(bad);
            QFAIL("no EngineError");
        } catch (const EngineError &e) {
            QCOMPARE(e.node(), std::string("layer"));
            QVERIFY2(std::string(e.what()).find("'layer'") != std::string::npos, e.what());
            QVERIFY(!e.hint().empty());
        }
        // An unknown layer type.
        try {
            Network::build(oneNode("Conv4d", {{"out_channels", 4}}, {json{"N", 5}}));
            QFAIL("no EngineError");
        } catch (const EngineError &e) {
            QCOMPARE(e.node(), std::string("layer"));
        }
        // Data of the wrong shape names the input.
        auto net = Network::build(oneNode("Linear", {{"out_features", 2}}, {json{"N", 5}}));
        try {
            net->forward({torch::zeros({2, 6})});
            QFAIL("no EngineError");
        } catch (const EngineError &e) {
            QCOMPARE(e.node(), std::string("x0"));
            QVERIFY2(std::string(e.what()).find("[N,5]") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(EngineError, net->forward({}));
    }

    void trainEvalSwitchesDropout() {
        auto net = Network::build(oneNode("Dropout", {{"p", 0.5}}, {json{"N", 1000}}));
        const torch::Tensor x = torch::ones({2, 1000});
        net->train(true);
        torch::Tensor y = net->forward({x})[0];
        const auto zeros = (y == 0).sum().item<std::int64_t>();
        QVERIFY2(zeros > 800 && zeros < 1200, std::to_string(zeros).c_str());
        QVERIFY(((y == 0) | (y == 2)).all().item<bool>()); // kept values scaled by 1/(1-p)
        net->train(false);
        QVERIFY(torch::equal(net->forward({x})[0], x));

        // Dropout inside wrapped and assembled modules follows too.
        auto mha =
            Network::build(oneNode("MultiheadAttention", {{"num_heads", 2}, {"dropout", 0.5}}, {json{"N", 6, 8}}));
        auto tel = Network::build(oneNode(
            "TransformerEncoderLayer", {{"nhead", 2}, {"dim_feedforward", 16}, {"dropout", 0.5}}, {json{"N", 6, 8}}));
        const torch::Tensor s = torch::randn({2, 6, 8});
        for (auto *n : {mha.get(), tel.get()}) {
            n->train(true);
            QVERIFY(!torch::equal(n->forward({s})[0], n->forward({s})[0]));
            n->train(false);
            QVERIFY(torch::equal(n->forward({s})[0], n->forward({s})[0]));
        }
    }

    void cnn28Template() {
        const auto loaded = spec::loadSpecFile(templatePath("cnn28.json"));
        QVERIFY(loaded.ok());
        auto net = Network::build(loaded.spec);
        QCOMPARE(net->parameterCount(), std::int64_t(225034));
        const auto out = net->forward({torch::randn({2, 1, 28, 28})});
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].sizes().vec(), (std::vector<std::int64_t>{2, 10}));
    }

    void resnet18Template() {
        auto loaded = spec::loadSpecFile(templatePath("resnet18.json"));
        QVERIFY(loaded.ok());
        auto net = Network::build(loaded.spec);
        QCOMPARE(net->parameterCount(), std::int64_t(11689512));
        QCOMPARE(net->analysis().totalParams, std::int64_t(11689512));
        std::int64_t buffers = 0;
        for (const auto &[name, t] : net->namedBuffers())
            buffers += t.numel();
        QCOMPARE(buffers, net->analysis().totalBuffers);

        // forward() checks the declared input shape, so a smaller image needs a spec that says so;
        // the adaptive pooling keeps the parameters the same.
        loaded.spec.inputs[0].shape = {spec::kBatch, 3, 64, 64};
        auto small = Network::build(loaded.spec);
        QCOMPARE(small->parameterCount(), std::int64_t(11689512));
        small->train(false);
        const auto out = small->forward({torch::randn({1, 3, 64, 64})});
        QCOMPARE(out[0].sizes().vec(), (std::vector<std::int64_t>{1, 1000}));
    }

    // The values below were printed by PyTorch-Python, torch 1.13 (Debian python3-torch), e.g.
    //   torch.manual_seed(0); l = torch.nn.Linear(4, 3); print(l.weight.flatten()[:4].tolist(), l.bias.tolist())
    // The C++ modules (through our factories) draw the same numbers from the same seed.
    void initialWeightsMatchPython() {
        torch::manual_seed(0);
        auto linear = Network::build(oneNode("Linear", {{"out_features", 3}}, {json{"N", 4}}));
        QVERIFY(startsWith(param(*linear, "layer.weight"),
                           {-0.003743410110473633, 0.26822179555892944, -0.4115225672721863, -0.3679695129394531}));
        QVERIFY(startsWith(param(*linear, "layer.bias"),
                           {-0.4776742458343506, -0.33114105463027954, -0.20611155033111572}));

        // torch.manual_seed(0); c = torch.nn.Conv2d(2, 4, 3)
        torch::manual_seed(0);
        auto conv = Network::build(oneNode("Conv2d", {{"out_channels", 4}, {"kernel_size", 3}}, {json{"N", 2, 5, 5}}));
        QVERIFY(startsWith(param(*conv, "layer.weight"),
                           {-0.0017646604683250189, 0.12644097208976746, -0.19399359822273254, -0.17346249520778656}));
        QVERIFY(startsWith(param(*conv, "layer.bias"), {0.09263332188129425, 0.1952909678220749}));

        // torch.manual_seed(0); r = torch.nn.LSTM(3, 5, batch_first=True)
        torch::manual_seed(0);
        auto lstm = Network::build(oneNode("LSTM", {{"hidden_size", 5}}, {json{"N", 6, 3}}));
        QVERIFY(startsWith(param(*lstm, "layer.weight_ih_l0"),
                           {-0.003348207799717784, 0.23990486562252045, -0.36807698011398315, -0.3291219472885132}));
        QVERIFY(startsWith(param(*lstm, "layer.bias_hh_l0"), {0.047988224774599075, -0.0936325341463089}));
    }

    // Forward values of the batch-first layers against torch 1.13 in eval mode, from
    //   q = torch.linspace(-1, 1, 48).reshape(2, 3, 8); k = torch.linspace(-2, 1, 64).reshape(2, 4, 8)
    //   v = torch.linspace(0, 1, 64).reshape(2, 4, 8); x = torch.linspace(-1, 1, 24).reshape(2, 4, 3)
    // with torch.manual_seed(0) before constructing each module (batch_first=True), printing the
    // shape, the first four values and the sum of each output.
    void forwardMatchesPython() {
        const torch::Tensor q = torch::linspace(-1, 1, 48).reshape({2, 3, 8});
        const torch::Tensor k = torch::linspace(-2, 1, 64).reshape({2, 4, 8});
        const torch::Tensor v = torch::linspace(0, 1, 64).reshape({2, 4, 8});
        const torch::Tensor x = torch::linspace(-1, 1, 24).reshape({2, 4, 3});

        // nn.MultiheadAttention(8, 2, batch_first=True); m(q, k, v)
        torch::manual_seed(0);
        auto mha = Network::build(
            oneNode("MultiheadAttention", {{"num_heads", 2}}, {json{"N", 3, 8}, json{"N", 4, 8}, json{"N", 4, 8}}));
        mha->train(false);
        torch::Tensor out = mha->forward({q, k, v})[0];
        const torch::Tensor weights = mha->layer("layer")->forward({q, k, v})[1];
        QVERIFY(near(out, {2, 3, 8}, {0.00396351051, 0.00841489714, 0.0160628669, 0.0427486449}, 0.594705701));
        QVERIFY(near(weights, {2, 3, 4}, {0.306913137, 0.262564689, 0.228433371, 0.202088788}, 6.0));

        // nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, activation=..., batch_first=True, norm_first=...)
        torch::manual_seed(0);
        auto preNorm = Network::build(oneNode(
            "TransformerEncoderLayer",
            {{"nhead", 2}, {"dim_feedforward", 16}, {"activation", "gelu"}, {"norm_first", true}}, {json{"N", 3, 8}}));
        preNorm->train(false);
        QVERIFY(near(preNorm->forward({q})[0], {2, 3, 8}, {-1.19943857, -1.25624239, -0.519778252, -0.45279032},
                     -0.732095957));
        torch::manual_seed(0);
        auto postNorm = Network::build(
            oneNode("TransformerEncoderLayer", {{"nhead", 2}, {"dim_feedforward", 16}}, {json{"N", 3, 8}}));
        postNorm->train(false);
        QVERIFY(near(postNorm->forward({q})[0], {2, 3, 8}, {-1.5628134, -0.318718374, -0.533115089, -0.380435616},
                     -9.53674316e-07));

        // nn.LSTM(3, 5, num_layers=2, bidirectional=True, batch_first=True); out, (h, c) = r(x)
        torch::manual_seed(0);
        auto lstm = Network::build(
            oneNode("LSTM", {{"hidden_size", 5}, {"num_layers", 2}, {"bidirectional", true}}, {json{"N", 4, 3}}));
        lstm->train(false);
        const auto lo = lstm->layer("layer")->forward({x});
        QVERIFY(near(lo[0], {2, 4, 10}, {-0.042904716, 0.00482905935, -0.0550809503, -0.0299303271}, -2.29578686));
        QVERIFY(near(lo[1], {4, 2, 5}, {0.267619669, 0.118968949, 0.0542548671, 0.0406098142}, -2.49520087));
        QVERIFY(near(lo[2], {4, 2, 5}, {0.609360576, 0.245917648, 0.114502281, 0.0887438431}, -5.34032822));

        // nn.GRU(3, 5, num_layers=2, bidirectional=True, batch_first=True); out, h = g(x)
        torch::manual_seed(0);
        auto gru = Network::build(
            oneNode("GRU", {{"hidden_size", 5}, {"num_layers", 2}, {"bidirectional", true}}, {json{"N", 4, 3}}));
        gru->train(false);
        const auto go = gru->layer("layer")->forward({x});
        QVERIFY(near(go[0], {2, 4, 10}, {-0.0248453543, -0.166755795, 0.0595823787, -0.336324304}, 0.7390486));
        QVERIFY(near(go[1], {4, 2, 5}, {-0.165181056, 0.44130823, -0.332587928, -0.00589211099}, -1.12939012));
    }
};

QTEST_GUILESS_MAIN(TestNetwork)
#include "tst_network.moc"
