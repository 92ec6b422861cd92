// Every spec layer type built as a libtorch module (engine/train/model): for each case a
// one-node spec is built with Network::build and run on random input with batch 3 (training
// mode) and batch 1 (evaluation mode). Each output's shape and dtype must equal the spec
// analysis' inference (batch substituted), and the module's parameter and buffer element
// counts the analysis' paramCount and bufferCount (which follow PyTorch's conventions).
#include "model/network.h"

#include "diamond/spec/registry.h"

#include <QtTest>

#include <set>
#include <string>
#include <vector>

using namespace diamond;
using namespace diamond::engine;
using nlohmann::json;

namespace {

struct In {
    json shape; ///< as in the spec, "N" for the batch
    std::string dtype = "float32";
};

struct Case {
    std::string name; ///< row name
    std::string type;
    json params;
    std::vector<In> inputs;
    std::int64_t maxId = 0; ///< integer inputs are drawn from [0, maxId)
};

std::vector<Case> cases() {
    const json n = "N";
    auto shape = [&](std::vector<json> dims) {
        json s = json::array({n});
        for (auto &d : dims)
            s.push_back(d);
        return In{s};
    };
    const auto seq = [&](int len, int features) { return shape({len, features}); };
    In ids = shape({7});
    ids.dtype = "int64";
    In ids32 = shape({2, 5});
    ids32.dtype = "int32";

    return {
        // Linear
        {"Linear", "Linear", {{"out_features", 5}}, {shape({7})}},
        {"Linear 3-D no bias", "Linear", {{"out_features", 4}, {"bias", false}}, {shape({6, 7})}},
        // Convolution
        {"Conv1d stride padding",
         "Conv1d",
         {{"out_channels", 6}, {"kernel_size", 3}, {"stride", 2}, {"padding", 1}},
         {shape({4, 17})}},
        {"Conv1d same dilation reflect",
         "Conv1d",
         {{"out_channels", 4}, {"kernel_size", 4}, {"padding", "same"}, {"dilation", 2}, {"padding_mode", "reflect"}},
         {shape({3, 16})}},
        {"Conv2d groups",
         "Conv2d",
         {{"out_channels", 8}, {"kernel_size", {3, 5}}, {"stride", {1, 2}}, {"padding", {1, 2}}, {"groups", 2}},
         {shape({4, 10, 12})}},
        {"Conv2d depthwise",
         "Conv2d",
         {{"out_channels", 6}, {"kernel_size", 3}, {"groups", 6}, {"padding", 1}, {"bias", false}},
         {shape({6, 9, 9})}},
        {"Conv2d dilation", "Conv2d", {{"out_channels", 5}, {"kernel_size", 3}, {"dilation", 2}}, {shape({3, 11, 11})}},
        {"Conv2d same even kernel",
         "Conv2d",
         {{"out_channels", 4}, {"kernel_size", 4}, {"padding", "same"}},
         {shape({3, 9, 10})}},
        {"Conv2d valid", "Conv2d", {{"out_channels", 4}, {"kernel_size", 2}, {"padding", "valid"}}, {shape({3, 5, 6})}},
        {"Conv2d circular",
         "Conv2d",
         {{"out_channels", 2}, {"kernel_size", 3}, {"padding", 2}, {"padding_mode", "circular"}},
         {shape({2, 6, 6})}},
        {"Conv2d replicate stride",
         "Conv2d",
         {{"out_channels", 3}, {"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"padding_mode", "replicate"}},
         {shape({2, 7, 8})}},
        {"Conv3d",
         "Conv3d",
         {{"out_channels", 4}, {"kernel_size", {2, 3, 3}}, {"stride", {1, 2, 2}}, {"padding", {0, 1, 1}}},
         {shape({2, 5, 8, 8})}},
        {"ConvTranspose2d output_padding",
         "ConvTranspose2d",
         {{"out_channels", 4}, {"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"output_padding", 1}},
         {shape({6, 5, 7})}},
        {"ConvTranspose2d groups dilation",
         "ConvTranspose2d",
         {{"out_channels", 6},
          {"kernel_size", {2, 3}},
          {"stride", {2, 1}},
          {"groups", 2},
          {"dilation", {1, 2}},
          {"bias", false}},
         {shape({4, 4, 5})}},
        // Pooling
        {"MaxPool1d ceil_mode",
         "MaxPool1d",
         {{"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", true}},
         {shape({3, 10})}},
        {"MaxPool2d", "MaxPool2d", {{"kernel_size", 2}}, {shape({3, 7, 9})}},
        {"MaxPool2d ceil_mode",
         "MaxPool2d",
         {{"kernel_size", 3}, {"stride", 2}, {"ceil_mode", true}},
         {shape({2, 8, 8})}},
        {"MaxPool2d dilation padding",
         "MaxPool2d",
         {{"kernel_size", {2, 3}}, {"dilation", 2}, {"padding", 1}},
         {shape({2, 9, 10})}},
        {"AvgPool1d",
         "AvgPool1d",
         {{"kernel_size", 4}, {"stride", 3}, {"padding", 2}, {"count_include_pad", false}},
         {shape({3, 13})}},
        {"AvgPool2d ceil_mode",
         "AvgPool2d",
         {{"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", true}},
         {shape({3, 8, 9})}},
        {"AdaptiveAvgPool2d", "AdaptiveAvgPool2d", {{"output_size", {2, 3}}}, {shape({4, 7, 8})}},
        {"AdaptiveAvgPool2d 1", "AdaptiveAvgPool2d", {{"output_size", 1}}, {shape({4, 5, 5})}},
        // Normalization and Dropout
        {"BatchNorm1d 2-D", "BatchNorm1d", {{"momentum", 0.2}}, {shape({5})}},
        {"BatchNorm1d 3-D no affine", "BatchNorm1d", {{"affine", false}, {"eps", 1e-3}}, {shape({5, 7})}},
        {"BatchNorm1d untracked", "BatchNorm1d", {{"track_running_stats", false}}, {shape({5, 7})}},
        {"BatchNorm2d", "BatchNorm2d", {{"eps", 1e-3}}, {shape({4, 5, 5})}},
        {"LayerNorm last dim", "LayerNorm", json::object(), {shape({6, 8})}},
        {"LayerNorm two dims", "LayerNorm", {{"normalized_shape", {6, 8}}}, {shape({3, 6, 8})}},
        {"LayerNorm no affine", "LayerNorm", {{"elementwise_affine", false}, {"eps", 1e-6}}, {shape({8})}},
        {"GroupNorm", "GroupNorm", {{"num_groups", 2}}, {shape({6, 4, 4})}},
        {"GroupNorm no affine", "GroupNorm", {{"num_groups", 3}, {"affine", false}}, {shape({6, 10})}},
        {"Dropout", "Dropout", {{"p", 0.3}}, {shape({10})}},
        // Activations
        {"ReLU", "ReLU", json::object(), {shape({4, 5})}},
        {"ReLU6", "ReLU6", json::object(), {shape({4, 5})}},
        {"LeakyReLU", "LeakyReLU", {{"negative_slope", 0.2}}, {shape({4, 5})}},
        {"GELU tanh", "GELU", {{"approximate", "tanh"}}, {shape({4, 5})}},
        {"GELU", "GELU", json::object(), {shape({6})}},
        {"ELU", "ELU", {{"alpha", 0.5}}, {shape({4, 5})}},
        {"Softplus", "Softplus", {{"beta", 2.0}, {"threshold", 10.0}}, {shape({4, 5})}},
        {"Mish", "Mish", json::object(), {shape({4, 5})}},
        {"SiLU", "SiLU", json::object(), {shape({4, 5})}},
        {"Tanh", "Tanh", json::object(), {shape({4, 5})}},
        {"Sigmoid", "Sigmoid", json::object(), {shape({4, 5})}},
        {"Softmax dim 1", "Softmax", {{"dim", 1}}, {shape({4, 5})}},
        {"LogSoftmax", "LogSoftmax", {{"dim", -1}}, {shape({4, 5})}},
        // Reshaping
        {"Flatten", "Flatten", json::object(), {shape({2, 3, 4})}},
        {"Flatten start_dim 2", "Flatten", {{"start_dim", 2}}, {shape({2, 3, 4})}},
        {"Reshape with -1", "Reshape", {{"shape", {4, -1}}}, {shape({2, 3, 4})}},
        {"Permute", "Permute", {{"dims", {0, 2, 3, 1}}}, {shape({3, 4, 5})}},
        {"Upsample size", "Upsample", {{"size", {6, 8}}}, {shape({2, 3, 4})}},
        {"Upsample scale bilinear", "Upsample", {{"scale_factor", 2.0}, {"mode", "bilinear"}}, {shape({2, 3, 4})}},
        {"Upsample scale 1.5 linear", "Upsample", {{"scale_factor", 1.5}, {"mode", "linear"}}, {shape({2, 5})}},
        {"Upsample bicubic align_corners",
         "Upsample",
         {{"size", 7}, {"mode", "bicubic"}, {"align_corners", true}},
         {shape({2, 3, 4})}},
        {"Upsample trilinear", "Upsample", {{"scale_factor", 2.0}, {"mode", "trilinear"}}, {shape({1, 2, 3, 2})}},
        // Embedding
        {"Embedding padding_idx",
         "Embedding",
         {{"num_embeddings", 20}, {"embedding_dim", 6}, {"padding_idx", 0}},
         {ids},
         20},
        {"Embedding int32", "Embedding", {{"num_embeddings", 9}, {"embedding_dim", 3}}, {ids32}, 9},
        // Recurrent
        {"LSTM bidirectional 2 layers",
         "LSTM",
         {{"hidden_size", 5}, {"num_layers", 2}, {"bidirectional", true}, {"dropout", 0.1}},
         {seq(6, 3)}},
        {"LSTM no bias", "LSTM", {{"hidden_size", 4}, {"bias", false}}, {seq(5, 2)}},
        {"GRU bidirectional 2 layers",
         "GRU",
         {{"hidden_size", 5}, {"num_layers", 2}, {"bidirectional", true}},
         {seq(6, 3)}},
        {"GRU", "GRU", {{"hidden_size", 7}}, {seq(4, 3)}},
        // Attention
        {"MultiheadAttention self", "MultiheadAttention", {{"num_heads", 2}}, {seq(5, 8)}},
        {"MultiheadAttention q k v",
         "MultiheadAttention",
         {{"num_heads", 4}, {"dropout", 0.1}, {"bias", false}},
         {seq(5, 8), seq(7, 8), seq(7, 8)}},
        {"TransformerEncoderLayer norm_first gelu",
         "TransformerEncoderLayer",
         {{"nhead", 2}, {"dim_feedforward", 16}, {"norm_first", true}, {"activation", "gelu"}},
         {seq(5, 8)}},
        {"TransformerEncoderLayer post-norm",
         "TransformerEncoderLayer",
         {{"nhead", 4}, {"dim_feedforward", 32}, {"dropout", 0.2}, {"layer_norm_eps", 1e-6}},
         {seq(6, 12)}},
        // Merge
        {"Add broadcast 3 inputs", "Add", json::object(), {shape({4, 5}), shape({4, 5}), shape({1, 5})}},
        {"Multiply broadcast", "Multiply", json::object(), {shape({3, 4}), shape({3, 1})}},
        {"Concat dim 1", "Concat", {{"dim", 1}}, {shape({2, 5}), shape({3, 5})}},
        {"Concat dim -1", "Concat", {{"dim", -1}}, {shape({4, 2}), shape({4, 3}), shape({4, 1})}},
        {"Identity", "Identity", json::object(), {shape({3})}},
    };
}

/// A spec with the inputs x0, x1, ..., one node "layer" and one output per output port.
spec::Spec specFor(const Case &c) {
    json doc = {{"format", "diamond.spec/1"}, {"inputs", json::array()}, {"outputs", json::array()}};
    json node = {{"id", "layer"}, {"type", c.type}, {"params", c.params}, {"inputs", json::array()}};
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
        const std::string name = "x" + std::to_string(i);
        doc["inputs"].push_back({{"name", name}, {"shape", c.inputs[i].shape}, {"dtype", c.inputs[i].dtype}});
        node["inputs"].push_back(name);
    }
    doc["nodes"] = json::array({node});
    const spec::LayerType *type = spec::Registry::instance().find(c.type);
    const std::size_t ports = type ? type->outputPorts.size() : 1;
    for (std::size_t p = 0; p < ports; ++p) {
        const std::string port = type ? type->outputPorts[p] : "out";
        doc["outputs"].push_back({{"name", port}, {"from", p == 0 ? "layer" : "layer:" + port}});
    }
    auto parsed = spec::parseSpecJson(doc);
    if (!parsed.ok()) {
        for (const auto &d : parsed.diagnostics)
            qWarning("%s", spec::formatDiagnostic(d).c_str());
    }
    return parsed.spec;
}

std::vector<std::int64_t> concrete(const spec::Shape &shape, std::int64_t batch) {
    std::vector<std::int64_t> out;
    for (auto d : shape)
        out.push_back(d == spec::kBatch ? batch : d);
    return out;
}

std::string sizes(const torch::Tensor &t) {
    std::string s = "[";
    for (std::int64_t i = 0; i < t.dim(); ++i)
        s += (i ? "," : "") + std::to_string(t.size(i));
    return s + "]";
}

} // namespace

class TestLayerModules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { torch::manual_seed(1); }

    void everyRegistryTypeHasAFactoryAndACase() {
        std::set<std::string> covered;
        for (const auto &c : cases())
            covered.insert(c.type);
        const auto &factories = layerFactories();
        int types = 0;
        for (const auto &type : spec::Registry::instance().types()) {
            if (type.name == "Input") continue;
            ++types;
            QVERIFY2(factories.count(type.name) == 1, ("no factory for " + type.name).c_str());
            QVERIFY2(covered.count(type.name) == 1, ("no test case for " + type.name).c_str());
        }
        QCOMPARE(types, 40); // 41 registry types including Input
        QCOMPARE(factories.size(), std::size_t(40));
    }

    void linearMatchesTorchLinear() {
        // The engine's Linear (oneDNN's sgemm on CPU when built with it) against torch::nn::Linear:
        // values, input gradient, weight and bias gradients; also with gradients added in place.
        for (const bool inPlace : {false, true}) {
            for (const bool bias : {true, false}) {
                const spec::Spec s = spec::parseSpecJson({{"format", "diamond.spec/1"},
                                                          {"inputs", {{{"name", "x"}, {"shape", {"N", 7, 16}}}}},
                                                          {"nodes",
                                                           {{{"id", "fc"},
                                                             {"type", "Linear"},
                                                             {"params", {{"out_features", 5}, {"bias", bias}}},
                                                             {"inputs", {"x"}}}}},
                                                          {"outputs", {{{"name", "y"}, {"from", "fc"}}}}})
                                         .spec;
                auto net = Network::build(s);
                const auto named = net->namedParameters();
                torch::nn::Linear ref(torch::nn::LinearOptions(16, 5).bias(bias));
                {
                    torch::NoGradGuard noGrad;
                    ref->weight.copy_(named.at(0).second);
                    if (bias) ref->bias.copy_(named.at(1).second);
                }
                for (const auto &[name, p] : named)
                    p.mutable_grad() = torch::zeros_like(p); // as in training: defined, zeroed gradients
                layers::setLinearWeightGradsInPlace(inPlace);
                const torch::Tensor x = torch::randn({3, 7, 16}, torch::requires_grad());
                const torch::Tensor xr = x.detach().clone().requires_grad_(true);
                const torch::Tensor y = net->forward({x}).front(), yr = ref->forward(xr);
                QCOMPARE(y.sizes().vec(), (std::vector<std::int64_t>{3, 7, 5}));
                QVERIFY(torch::allclose(y, yr, 1e-5, 1e-6));
                const torch::Tensor seed = torch::randn_like(y);
                for (int pass = 0; pass < 2; ++pass) { // the second pass accumulates
                    net->forward({x}).front().backward(seed);
                    ref->forward(xr).backward(seed);
                }
                layers::setLinearWeightGradsInPlace(false);
                QVERIFY(torch::allclose(x.grad(), xr.grad(), 1e-5, 1e-6));
                QVERIFY(torch::allclose(named.at(0).second.grad(), ref->weight.grad(), 1e-4, 1e-5));
                if (bias) QVERIFY(torch::allclose(named.at(1).second.grad(), ref->bias.grad(), 1e-4, 1e-5));
            }
        }
    }

    void linearOverwritesGradientsAtAStepsFirstWrite() {
        if (!layers::linearWeightGradsInPlaceAvailable()) QSKIP("built without oneDNN");
        const spec::Spec s =
            spec::parseSpecJson(
                {{"format", "diamond.spec/1"},
                 {"inputs", {{{"name", "x"}, {"shape", {"N", 6}}}}},
                 {"nodes", {{{"id", "fc"}, {"type", "Linear"}, {"params", {{"out_features", 4}}}, {"inputs", {"x"}}}}},
                 {"outputs", {{{"name", "y"}, {"from", "fc"}}}}})
                .spec;
        auto net = Network::build(s);
        const auto named = net->namedParameters();
        for (const auto &[name, p] : named)
            p.mutable_grad() = torch::full_like(p, 7.0F); // a previous step's leftovers
        const torch::Tensor x = torch::randn({5, 6});
        layers::setLinearWeightGradsInPlace(true);
        const std::uint64_t step = layers::beginLinearGradientStep();
        QVERIFY(step > 0);
        QVERIFY(!layers::linearGradientWritten(named.at(0).second.grad(), step));
        net->forward({x}).front().sum().backward();
        QVERIFY(layers::linearGradientWritten(named.at(0).second.grad(), step));
        const torch::Tensor expectedWeight = torch::ones({5, 4}).t().mm(x); // d(sum y)/dW
        QVERIFY(torch::allclose(named.at(0).second.grad(), expectedWeight, 1e-5, 1e-6));
        QVERIFY(torch::allclose(named.at(1).second.grad(), torch::full({4}, 5.0F)));
        net->forward({x}).front().sum().backward(); // the same step: adds
        QVERIFY(torch::allclose(named.at(0).second.grad(), 2 * expectedWeight, 1e-5, 1e-6));
        const std::uint64_t next = layers::beginLinearGradientStep();
        net->forward({x}).front().sum().backward(); // a new step: overwrites again
        QVERIFY(torch::allclose(named.at(0).second.grad(), expectedWeight, 1e-5, 1e-6));
        QVERIFY(layers::linearGradientWritten(named.at(1).second.grad(), next));
        layers::setLinearWeightGradsInPlace(false);
    }

    void shapesAndCounts_data() {
        QTest::addColumn<int>("index");
        const auto all = cases();
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].name.c_str()) << static_cast<int>(i);
    }

    void shapesAndCounts() {
        QFETCH(int, index);
        const Case c = cases()[static_cast<std::size_t>(index)];
        const spec::Spec s = specFor(c);
        std::unique_ptr<Network> net;
        try {
            net = Network::build(s);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        const spec::NodeInfo *info = net->analysis().node("layer");
        QVERIFY(info && info->ok);

        std::int64_t params = 0, buffers = 0;
        for (const auto &[name, t] : net->namedParameters()) {
            QVERIFY2(name.rfind("layer.", 0) == 0, name.c_str());
            params += t.numel();
        }
        for (const auto &[name, t] : net->namedBuffers())
            buffers += t.numel();
        QCOMPARE(params, info->paramCount);
        QCOMPARE(buffers, info->bufferCount);
        QCOMPARE(net->parameterCount(), info->paramCount);

        for (const std::int64_t batch : {3, 1}) {
            net->train(batch > 1); // batch 1 in evaluation mode (BatchNorm needs > 1 value per channel to train)
            std::vector<torch::Tensor> inputs;
            for (std::size_t i = 0; i < s.inputs.size(); ++i) {
                const auto shape = concrete(s.inputs[i].shape, batch);
                const torch::Dtype dtype = torchType(s.inputs[i].dtype);
                inputs.push_back(c.maxId > 0 ? torch::randint(0, c.maxId, shape, dtype) : torch::randn(shape, dtype));
            }
            std::vector<torch::Tensor> outputs;
            try {
                outputs = net->forward(inputs);
            } catch (const std::exception &e) {
                QFAIL(e.what());
            }
            QCOMPARE(outputs.size(), info->outputs.size());
            for (std::size_t p = 0; p < outputs.size(); ++p) {
                const auto expected = concrete(info->outputs[p].shape, batch);
                const std::string what = "output " + std::to_string(p) + " with batch " + std::to_string(batch) + ": " +
                                         sizes(outputs[p]) + " vs inferred " +
                                         spec::formatShape(info->outputs[p].shape);
                QVERIFY2(outputs[p].sizes().vec() == expected, what.c_str());
                QVERIFY2(outputs[p].scalar_type() == torchType(info->outputs[p].dtype), what.c_str());
                if (outputs[p].is_floating_point())
                    QVERIFY2(torch::isfinite(outputs[p]).all().item<bool>(), ("non-finite " + what).c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestLayerModules)
#include "tst_layer_modules.moc"
