// Unit tests of the layer catalogue's rules (engine/spec/src/layers): output shapes, parameter
// and buffer counts and FLOPs for every layer type, and the error diagnostics of the rules.
// Parameters go through resolveParams first, as analysis does.
//
// The expected shapes and parameter/buffer counts of shapes() were all produced by torch 1.13
// (Debian python3-torch): each case built the equivalent torch.nn module (batch_first=True for
// LSTM/GRU/MultiheadAttention/TransformerEncoderLayer), ran a batch through it and counted
// sum(p.numel() for p in m.parameters()) and sum(b.numel() for b in m.buffers()). The FLOP
// values in that table come from torch.profiler(with_flops=True) per sample, plus the bias adds
// (one per output element) that the profiler leaves out.
#include "diamond/spec/registry.h"

#include <QtTest>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace diamond::spec;
using nlohmann::json;

namespace {

struct Case {
    std::string type;
    json params;
    std::vector<TensorType> inputs;
    std::vector<Shape> outputs;
    std::int64_t paramCount = 0;
    std::int64_t buffers = 0;
    std::int64_t flops = -1; ///< -1: not checked
};

struct ErrorCase {
    std::string type;
    json params;
    std::vector<TensorType> inputs;
    std::vector<std::string> inputNames;
    std::string code;
    std::string field;    ///< expected Diagnostic::field, "*" = not checked
    std::string fragment; ///< must occur in the message
};

struct Outcome {
    bool found = false;
    json resolved;
    std::vector<Diagnostic> paramDiagnostics;
    LayerResult result;

    /// The first error, from parameter resolution or from the rule.
    const Diagnostic *firstError() const {
        for (const auto *list : {&paramDiagnostics, &result.diagnostics}) {
            for (const auto &d : *list) {
                if (d.severity == Severity::Error) return &d;
            }
        }
        return nullptr;
    }
};

TensorType T(Shape shape, DType dtype = DType::Float32) { return TensorType{std::move(shape), dtype, {}}; }

/// Resolves `params` and runs the rule like analysis does: the rule only runs when the
/// parameters resolved without errors. Producer names default to "src1", "src2", ...
Outcome runLayer(const std::string &type, const json &params, const std::vector<TensorType> &inputs,
                 const std::string &nodeId = "node1", std::vector<std::string> names = {}) {
    Outcome o;
    const LayerType *t = Registry::instance().find(type);
    if (!t) return o;
    o.found = true;
    o.resolved = resolveParams(*t, nodeId, params, o.paramDiagnostics);
    if (hasErrors(o.paramDiagnostics)) return o;
    for (std::size_t i = names.size(); i < inputs.size(); ++i)
        names.push_back("src" + std::to_string(i + 1));
    LayerContext ctx{nodeId, t->name, o.resolved, inputs, names};
    t->rule(ctx, o.result);
    return o;
}

QString q(const std::string &s) { return QString::fromStdString(s); }
QString shapeText(const Shape &s) { return q(formatShape(s)); }
/// The first diagnostic on one line, for failure messages; empty when there is none.
std::string firstText(const std::vector<Diagnostic> &list) { return list.empty() ? "" : formatDiagnostic(list[0]); }
bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

constexpr std::int64_t k2Pow62 = std::int64_t(1) << 62;

} // namespace

Q_DECLARE_METATYPE(Case)
Q_DECLARE_METATYPE(ErrorCase)

/// Checks an expected error: code, node id, no outputs.
#define EXPECT_ERROR(outcome, codeText, nodeText)                                                                      \
    do {                                                                                                               \
        const Diagnostic *d_ = (outcome).firstError();                                                                 \
        QVERIFY2(d_, "expected an error diagnostic");                                                                  \
        QCOMPARE(q(d_->code), QStringLiteral(codeText));                                                               \
        QCOMPARE(q(d_->node), QStringLiteral(nodeText));                                                               \
        QVERIFY((outcome).result.outputs.empty());                                                                     \
    } while (false)

class TestLayerRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void catalogue() {
        const Registry &r = Registry::instance();
        const std::vector<std::string> families = {"Input",         "Linear",         "Convolution", "Pooling",
                                                   "Normalization", "Regularization", "Activation",  "Reshaping",
                                                   "Embedding",     "Recurrent",      "Attention",   "Merge"};
        QCOMPARE(r.families(), families);
        for (const LayerType &t : r.types()) {
            QVERIFY2(!t.doc.empty() && static_cast<bool>(t.rule), t.name.c_str());
            QVERIFY2(!t.outputPorts.empty(), t.name.c_str());
            std::vector<Diagnostic> diags;
            resolveParams(t, "n", json::object(), diags); // defaults must be valid
            for (const Diagnostic &d : diags) {
                QVERIFY2(d.code == "param.missing", formatDiagnostic(d).c_str());
                QVERIFY2(t.param(d.field) && t.param(d.field)->required(), formatDiagnostic(d).c_str());
            }
            for (const ParamSpec &p : t.params) {
                QVERIFY2(!p.doc.empty(), (t.name + "." + p.name).c_str());
                QVERIFY2(p.kind != ParamKind::Enum || !p.choices.empty(), (t.name + "." + p.name).c_str());
            }
        }
        QCOMPARE(r.find("Input")->minInputs, 0);
        QCOMPARE(r.find("Input")->maxInputs, 0);
        QCOMPARE(r.find("Add")->maxInputs, -1);
        QCOMPARE(r.find("Concat")->minInputs, 2);
        QCOMPARE(r.find("MultiheadAttention")->maxInputs, 3);
        QCOMPARE(r.find("LSTM")->outputPorts, (std::vector<std::string>{"out", "h_n", "c_n"}));
        QCOMPARE(r.find("GRU")->outputPorts, (std::vector<std::string>{"out", "h_n"}));
        QCOMPARE(r.find("MultiheadAttention")->outputPorts, (std::vector<std::string>{"out", "weights"}));
        QCOMPARE(r.find("Dropout")->family, std::string("Regularization"));
        // Input-size arguments are inferred, never parameters.
        for (const char *type : {"Linear", "Conv2d", "BatchNorm2d", "LSTM", "MultiheadAttention"}) {
            for (const char *name : {"in_features", "in_channels", "input_size", "num_features", "embed_dim"})
                QVERIFY2(!r.find(type)->param(name), type);
        }
    }

    void shapes_data() {
        QTest::addColumn<Case>("c");
        const auto addCase = [](const char *tag, const char *type, const char *params, std::vector<TensorType> inputs,
                                std::vector<Shape> outputs, std::int64_t paramCount, std::int64_t buffers,
                                std::int64_t flops = -1) {
            QTest::newRow(tag) << Case{
                type, json::parse(params), std::move(inputs), std::move(outputs), paramCount, buffers, flops};
        };
        // Verified with torch 1.13 (see the file comment): shapes, parameter and buffer counts, FLOPs.
        addCase("Linear", "Linear", R"({"out_features": 10})", {T({kBatch, 20})}, {{kBatch, 10}}, 210, 0, 410);
        addCase("Linear no bias 3-D", "Linear", R"({"out_features": 7, "bias": false})", {T({kBatch, 5, 20})},
                {{kBatch, 5, 7}}, 140, 0);
        addCase("Conv1d", "Conv1d", R"({"out_channels": 8, "kernel_size": 5, "stride": 2, "padding": 1})",
                {T({kBatch, 4, 50})}, {{kBatch, 8, 24}}, 168, 0);
        addCase("Conv2d same-size", "Conv2d", R"({"out_channels": 16, "kernel_size": 3, "padding": 1})",
                {T({kBatch, 3, 32, 32})}, {{kBatch, 16, 32, 32}}, 448, 0, 901120);
        addCase("Conv2d strided dilated", "Conv2d",
                R"({"out_channels": 12, "kernel_size": [3, 5], )"
                R"("stride": 2, "padding": [1, 2], "dilation": 2})",
                {T({kBatch, 8, 28, 30})}, {{kBatch, 12, 13, 13}}, 1452, 0, 488748);
        addCase("Conv2d depthwise", "Conv2d", R"({"out_channels": 64, "kernel_size": 3, "groups": 32, "bias": false})",
                {T({kBatch, 32, 16, 16})}, {{kBatch, 64, 14, 14}}, 576, 0, 225792);
        addCase("Conv2d same even kernel", "Conv2d",
                R"({"out_channels": 5, "kernel_size": 4, )"
                R"("padding": "same", "dilation": 2})",
                {T({kBatch, 3, 17, 19})}, {{kBatch, 5, 17, 19}}, 245, 0);
        addCase("Conv2d valid reflect", "Conv2d",
                R"({"out_channels": 6, "kernel_size": 3, )"
                R"("padding": "valid", "padding_mode": "reflect"})",
                {T({kBatch, 3, 10, 10})}, {{kBatch, 6, 8, 8}}, 168, 0);
        addCase("Conv2d reflect padding", "Conv2d",
                R"({"out_channels": 6, "kernel_size": 5, )"
                R"("padding": 2, "padding_mode": "reflect", "bias": false})",
                {T({kBatch, 3, 10, 12})}, {{kBatch, 6, 10, 12}}, 450, 0);
        addCase("Conv3d", "Conv3d", R"({"out_channels": 6, "kernel_size": 3, "stride": [1, 2, 2], "padding": 1})",
                {T({kBatch, 2, 8, 16, 16})}, {{kBatch, 6, 8, 8, 8}}, 330, 0);
        addCase("ConvTranspose2d", "ConvTranspose2d",
                R"({"out_channels": 8, "kernel_size": 4, )"
                R"("stride": 2, "padding": 1})",
                {T({kBatch, 16, 7, 7})}, {{kBatch, 8, 14, 14}}, 2056, 0);
        addCase("ConvTranspose2d grouped", "ConvTranspose2d",
                R"({"out_channels": 6, "kernel_size": 3, "stride": 3, )"
                R"("padding": 1, "output_padding": 1, "groups": 2, "dilation": 2})",
                {T({kBatch, 4, 5, 6})}, {{kBatch, 6, 16, 19}}, 114, 0);
        addCase("MaxPool2d", "MaxPool2d", R"({"kernel_size": 2})", {T({kBatch, 16, 32, 32})}, {{kBatch, 16, 16, 16}}, 0,
                0);
        addCase("MaxPool2d ceil drops last window", "MaxPool2d",
                R"({"kernel_size": 2, "stride": 2, )"
                R"("padding": 1, "ceil_mode": true})",
                {T({kBatch, 1, 5, 5})}, {{kBatch, 1, 3, 3}}, 0, 0);
        addCase("MaxPool2d ceil", "MaxPool2d", R"({"kernel_size": 3, "stride": 2, "ceil_mode": true})",
                {T({kBatch, 4, 8, 9})}, {{kBatch, 4, 4, 4}}, 0, 0);
        addCase("MaxPool1d dilated", "MaxPool1d", R"({"kernel_size": 3, "stride": 2, "dilation": 2, "padding": 1})",
                {T({kBatch, 4, 20})}, {{kBatch, 4, 9}}, 0, 0);
        addCase("AvgPool2d ceil", "AvgPool2d", R"({"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": true})",
                {T({kBatch, 2, 6, 7})}, {{kBatch, 2, 4, 4}}, 0, 0);
        addCase("AvgPool1d", "AvgPool1d", R"({"kernel_size": 4, "stride": 3, "padding": 2, "ceil_mode": true})",
                {T({kBatch, 5, 17})}, {{kBatch, 5, 7}}, 0, 0);
        addCase("AdaptiveAvgPool2d", "AdaptiveAvgPool2d", R"({"output_size": [2, 3]})", {T({kBatch, 8, 7, 7})},
                {{kBatch, 8, 2, 3}}, 0, 0);
        addCase("AdaptiveAvgPool2d global", "AdaptiveAvgPool2d", R"({"output_size": 1})", {T({kBatch, 512, 7, 7})},
                {{kBatch, 512, 1, 1}}, 0, 0);
        addCase("BatchNorm1d 2-D", "BatchNorm1d", R"({})", {T({kBatch, 64})}, {{kBatch, 64}}, 128, 129);
        addCase("BatchNorm1d 3-D", "BatchNorm1d", R"({"momentum": 0.01})", {T({kBatch, 16, 30})}, {{kBatch, 16, 30}},
                32, 33);
        addCase("BatchNorm2d", "BatchNorm2d", R"({})", {T({kBatch, 32, 8, 8})}, {{kBatch, 32, 8, 8}}, 64, 65);
        addCase("BatchNorm2d no affine no stats", "BatchNorm2d", R"({"affine": false, "track_running_stats": false})",
                {T({kBatch, 32, 8, 8})}, {{kBatch, 32, 8, 8}}, 0, 0);
        addCase("LayerNorm", "LayerNorm", R"({})", {T({kBatch, 10, 64})}, {{kBatch, 10, 64}}, 128, 0);
        addCase("LayerNorm 2 dims", "LayerNorm", R"({"normalized_shape": [10, 64]})", {T({kBatch, 10, 64})},
                {{kBatch, 10, 64}}, 1280, 0);
        addCase("LayerNorm no affine", "LayerNorm", R"({"elementwise_affine": false})", {T({kBatch, 64})},
                {{kBatch, 64}}, 0, 0);
        addCase("GroupNorm", "GroupNorm", R"({"num_groups": 4})", {T({kBatch, 32, 8, 8})}, {{kBatch, 32, 8, 8}}, 64, 0);
        addCase("Dropout", "Dropout", R"({"p": 0.2})", {T({kBatch, 128})}, {{kBatch, 128}}, 0, 0);
        addCase("ReLU", "ReLU", R"({})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("ReLU6", "ReLU6", R"({})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("SiLU", "SiLU", R"({})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("Tanh", "Tanh", R"({})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("Sigmoid", "Sigmoid", R"({})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("ELU", "ELU", R"({"alpha": 0.5})", {T({kBatch, 6})}, {{kBatch, 6}}, 0, 0);
        addCase("Softplus", "Softplus", R"({"beta": 2.0})", {T({kBatch, 6})}, {{kBatch, 6}}, 0, 0);
        addCase("Mish", "Mish", R"({})", {T({kBatch, 2, 6})}, {{kBatch, 2, 6}}, 0, 0);
        addCase("LeakyReLU", "LeakyReLU", R"({"negative_slope": 0.2})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("GELU", "GELU", R"({"approximate": "tanh"})", {T({kBatch, 3, 4})}, {{kBatch, 3, 4}}, 0, 0);
        addCase("Softmax", "Softmax", R"({"dim": 1})", {T({kBatch, 10, 4})}, {{kBatch, 10, 4}}, 0, 0);
        addCase("LogSoftmax", "LogSoftmax", R"({})", {T({kBatch, 10})}, {{kBatch, 10}}, 0, 0);
        addCase("Flatten", "Flatten", R"({})", {T({kBatch, 64, 4, 4})}, {{kBatch, 1024}}, 0, 0);
        addCase("Flatten middle", "Flatten", R"({"start_dim": 1, "end_dim": 2})", {T({kBatch, 3, 4, 5})},
                {{kBatch, 12, 5}}, 0, 0);
        addCase("Flatten negative", "Flatten", R"({"start_dim": -2})", {T({kBatch, 3, 4, 5})}, {{kBatch, 3, 20}}, 0, 0);
        addCase("Reshape", "Reshape", R"({"shape": [16, -1]})", {T({kBatch, 1024})}, {{kBatch, 16, 64}}, 0, 0);
        addCase("Reshape explicit", "Reshape", R"({"shape": [4, 8, 2]})", {T({kBatch, 8, 8})}, {{kBatch, 4, 8, 2}}, 0,
                0);
        addCase("Permute", "Permute", R"({"dims": [0, 2, 3, 1]})", {T({kBatch, 3, 4, 5})}, {{kBatch, 4, 5, 3}}, 0, 0);
        addCase("Upsample nearest", "Upsample", R"({"scale_factor": 2.0})", {T({kBatch, 3, 5, 7})},
                {{kBatch, 3, 10, 14}}, 0, 0);
        addCase("Upsample bilinear fractional", "Upsample",
                R"({"scale_factor": 1.5, )"
                R"("mode": "bilinear", "align_corners": false})",
                {T({kBatch, 3, 5, 7})}, {{kBatch, 3, 7, 10}}, 0, 0);
        addCase("Upsample bicubic size", "Upsample", R"({"size": [4, 9], "mode": "bicubic"})", {T({kBatch, 3, 5, 7})},
                {{kBatch, 3, 4, 9}}, 0, 0);
        addCase("Upsample linear", "Upsample", R"({"size": 9, "mode": "linear", "align_corners": true})",
                {T({kBatch, 3, 5})}, {{kBatch, 3, 9}}, 0, 0);
        addCase("Upsample trilinear", "Upsample", R"({"scale_factor": 2.0, "mode": "trilinear"})",
                {T({kBatch, 2, 3, 4, 5})}, {{kBatch, 2, 6, 8, 10}}, 0, 0);
        addCase("Embedding", "Embedding", R"({"num_embeddings": 1000, "embedding_dim": 64, "padding_idx": 0})",
                {T({kBatch, 12}, DType::Int64)}, {{kBatch, 12, 64}}, 64000, 0);
        addCase("LSTM", "LSTM", R"({"hidden_size": 32})", {T({kBatch, 10, 16})},
                {{kBatch, 10, 32}, {1, kBatch, 32}, {1, kBatch, 32}}, 6400, 0);
        addCase("LSTM stacked bidirectional", "LSTM",
                R"({"hidden_size": 20, "num_layers": 2, )"
                R"("bidirectional": true, "dropout": 0.1})",
                {T({kBatch, 7, 12})}, {{kBatch, 7, 40}, {4, kBatch, 20}, {4, kBatch, 20}}, 15360, 0);
        addCase("GRU", "GRU", R"({"hidden_size": 32})", {T({kBatch, 10, 16})}, {{kBatch, 10, 32}, {1, kBatch, 32}},
                4800, 0);
        addCase("GRU stacked bidirectional no bias", "GRU",
                R"({"hidden_size": 24, "num_layers": 3, )"
                R"("bidirectional": true, "bias": false})",
                {T({kBatch, 5, 8})}, {{kBatch, 5, 48}, {6, kBatch, 24}}, 25344, 0);
        addCase("MultiheadAttention self", "MultiheadAttention", R"({"num_heads": 8})", {T({kBatch, 10, 64})},
                {{kBatch, 10, 64}, {kBatch, 10, 10}}, 16640, 0);
        addCase("MultiheadAttention cross no bias", "MultiheadAttention", R"({"num_heads": 4, "bias": false})",
                {T({kBatch, 10, 32}), T({kBatch, 7, 32}), T({kBatch, 7, 32})}, {{kBatch, 10, 32}, {kBatch, 10, 7}},
                4096, 0);
        addCase("TransformerEncoderLayer", "TransformerEncoderLayer", R"({"nhead": 8, "dim_feedforward": 256})",
                {T({kBatch, 10, 64})}, {{kBatch, 10, 64}}, 49984, 0);
        addCase("TransformerEncoderLayer default ff gelu", "TransformerEncoderLayer",
                R"({"nhead": 4, )"
                R"("activation": "gelu", "norm_first": true})",
                {T({kBatch, 6, 32})}, {{kBatch, 6, 32}}, 137504, 0);
        addCase("Add residual", "Add", R"({})", {T({kBatch, 64, 8, 8}), T({kBatch, 64, 8, 8})}, {{kBatch, 64, 8, 8}}, 0,
                0);
        addCase("Add broadcast", "Add", R"({})", {T({kBatch, 64, 8, 8}), T({kBatch, 64, 1, 1}), T({8})},
                {{kBatch, 64, 8, 8}}, 0, 0);
        addCase("Multiply gate", "Multiply", R"({})", {T({kBatch, 1, 8, 8}), T({kBatch, 16, 8, 8})},
                {{kBatch, 16, 8, 8}}, 0, 0);
        addCase("Concat channels", "Concat", R"({})",
                {T({kBatch, 16, 8, 8}), T({kBatch, 32, 8, 8}), T({kBatch, 1, 8, 8})}, {{kBatch, 49, 8, 8}}, 0, 0);
        addCase("Concat last", "Concat", R"({"dim": -1})", {T({kBatch, 5, 3}), T({kBatch, 5, 4})}, {{kBatch, 5, 7}}, 0,
                0);
        addCase("Identity", "Identity", R"({})", {T({kBatch, 7, 3})}, {{kBatch, 7, 3}}, 0, 0);
    }

    void shapes() {
        QFETCH(Case, c);
        const Outcome o = runLayer(c.type, c.params, c.inputs);
        QVERIFY(o.found);
        QVERIFY2(o.paramDiagnostics.empty(), firstText(o.paramDiagnostics).c_str());
        QVERIFY2(o.result.diagnostics.empty(), firstText(o.result.diagnostics).c_str());
        QCOMPARE(o.result.outputs.size(), c.outputs.size());
        const DType dtype = c.type == "Embedding" ? DType::Float32 : c.inputs[0].dtype;
        for (std::size_t i = 0; i < c.outputs.size(); ++i) {
            QCOMPARE(shapeText(o.result.outputs[i].shape), shapeText(c.outputs[i]));
            QCOMPARE(o.result.outputs[i].dtype, dtype);
        }
        QCOMPARE(qint64(o.result.params), qint64(c.paramCount));
        QCOMPARE(qint64(o.result.buffers), qint64(c.buffers));
        if (c.flops >= 0) QCOMPARE(qint64(o.result.flops), qint64(c.flops));
    }

    /// FLOP conventions that torch's profiler does not cover, derived from the documented formulas.
    void flopConventions() {
        // LSTM: 2 * gates * hidden * (in + hidden) per timestep, layer and direction.
        QCOMPARE(qint64(runLayer("LSTM", {{"hidden_size", 32}}, {T({kBatch, 10, 16})}).result.flops),
                 qint64(2 * 4 * 32 * (16 + 32) * 10));
        // Stacked bidirectional GRU: layer 1 reads 2*H features.
        QCOMPARE(qint64(runLayer("GRU", {{"hidden_size", 8}, {"num_layers", 2}, {"bidirectional", true}},
                                 {T({kBatch, 5, 4})})
                            .result.flops),
                 qint64(2 * (2 * 3 * 8 * (4 + 8) * 5) + 2 * (2 * 3 * 8 * (16 + 8) * 5)));
        // Linear over [N,L,in] counts every row of a sample.
        QCOMPARE(qint64(runLayer("Linear", {{"out_features", 7}}, {T({kBatch, 5, 20})}).result.flops),
                 qint64(5 * (2 * 20 * 7 + 7)));
        // ConvTranspose2d: every input element scatters into out/groups * k*k outputs, plus the bias.
        QCOMPARE(
            qint64(runLayer("ConvTranspose2d", {{"out_channels", 8}, {"kernel_size", 4}, {"stride", 2}, {"padding", 1}},
                            {T({kBatch, 16, 7, 7})})
                       .result.flops),
            qint64(2 * 16 * 7 * 7 * 8 * 16 + 8 * 14 * 14));
        // Activations, Add and pooling.
        QCOMPARE(qint64(runLayer("ReLU", {}, {T({kBatch, 3, 4})}).result.flops), qint64(12));
        QCOMPARE(qint64(runLayer("GELU", {}, {T({kBatch, 3, 4})}).result.flops), qint64(8 * 12));
        QCOMPARE(qint64(runLayer("Add", {}, {T({kBatch, 4}), T({kBatch, 4}), T({kBatch, 4})}).result.flops), qint64(8));
        QCOMPARE(qint64(runLayer("MaxPool2d", {{"kernel_size", 2}}, {T({kBatch, 16, 32, 32})}).result.flops),
                 qint64(16 * 16 * 16 * 4));
        // MultiheadAttention self-attention, E=64, h=8, L=S=10: projections, QK^T, softmax, AV.
        const qint64 e = 64, l = 10;
        QCOMPARE(qint64(runLayer("MultiheadAttention", {{"num_heads", 8}}, {T({kBatch, l, e})}).result.flops),
                 qint64(2 * e * e * 4 * l + e * 4 * l + 4 * l * l * e + 5 * 8 * l * l));
    }

    void batchIsKeptAndAxesFollow() {
        // A concrete leading dimension is treated as the batch as well.
        Outcome o = runLayer("Conv2d", {{"out_channels", 4}, {"kernel_size", 3}}, {T({2, 3, 8, 8})});
        QCOMPARE(shapeText(o.result.outputs.at(0).shape), QStringLiteral("[2,4,6,6]"));
        // Elementwise layers keep axis names; Permute permutes them.
        TensorType named = T({kBatch, 3, 5});
        named.axes = {"batch", "channel", "time"};
        o = runLayer("ReLU", {}, {named});
        QCOMPARE(o.result.outputs.at(0).axes, named.axes);
        o = runLayer("Permute", {{"dims", {0, 2, 1}}}, {named});
        QCOMPARE(o.result.outputs.at(0).axes, (std::vector<std::string>{"batch", "time", "channel"}));
        // Input outputs its declared shape, dtype and axes.
        o = runLayer("Input", {{"shape", {"N", 3, 28, 28}}, {"dtype", "int64"}, {"axes", {"n", "c", "h", "w"}}}, {},
                     "x");
        QVERIFY(!hasErrors(o.result.diagnostics));
        QCOMPARE(shapeText(o.result.outputs.at(0).shape), QStringLiteral("[N,3,28,28]"));
        QCOMPARE(o.result.outputs.at(0).dtype, DType::Int64);
        QCOMPARE(o.result.outputs.at(0).axes.size(), std::size_t(4));
        QCOMPARE(qint64(o.result.params), qint64(0));
        // LSTM h_n/c_n carry the batch at position 1; a Linear after them still works.
        o = runLayer("LSTM", {{"hidden_size", 8}, {"num_layers", 2}}, {T({kBatch, 5, 4})});
        const Shape hn = o.result.outputs.at(1).shape;
        QCOMPARE(shapeText(hn), QStringLiteral("[2,N,8]"));
        o = runLayer("Linear", {{"out_features", 3}}, {T(hn)});
        QCOMPARE(shapeText(o.result.outputs.at(0).shape), QStringLiteral("[2,N,3]"));
        QCOMPARE(qint64(o.result.flops), qint64(2 * (2 * 8 * 3 + 3)));
    }

    void rankErrorNamesProducerAndSuggestsAFix() {
        const Outcome o =
            runLayer("Conv2d", {{"out_channels", 8}, {"kernel_size", 3}}, {T({kBatch, 2048})}, "conv3", {"flatten1"});
        EXPECT_ERROR(o, "shape.rank", "conv3");
        const Diagnostic &d = *o.firstError();
        QCOMPARE(q(d.message), QStringLiteral("Conv2d 'conv3' expects a 4-D input [N,C,H,W] but 'flatten1' gives "
                                              "[N,2048]."));
        QVERIFY2(contains(d.hint, "Move 'flatten1' after 'conv3'"), d.hint.c_str());
        // Without a Flatten in sight the hint still says what the layer needs.
        const Outcome other = runLayer("BatchNorm1d", {}, {T({kBatch, 3, 4, 4})}, "bn", {"pool"});
        EXPECT_ERROR(other, "shape.rank", "bn");
        QVERIFY(contains(other.firstError()->message, "[N,C] or a 3-D input [N,C,L]"));
        QVERIFY(contains(other.firstError()->hint, "BatchNorm1d needs"));
    }

    void addMismatchMessage() {
        const Outcome o =
            runLayer("Add", {}, {T({kBatch, 64, 8, 8}), T({kBatch, 32, 8, 8})}, "add3", {"conv2", "conv5"});
        EXPECT_ERROR(o, "shape.mismatch", "add3");
        const Diagnostic &d = *o.firstError();
        QCOMPARE(q(d.message), QStringLiteral("Add 'add3' cannot combine [N,64,8,8] from 'conv2' with [N,32,8,8] "
                                              "from 'conv5': dimension 1 differs (64 vs 32)."));
        QVERIFY(!d.hint.empty());
        QCOMPARE(q(d.field), QStringLiteral("input 2"));
        // With three inputs, the message names the input that set the conflicting dimension.
        const Outcome three = runLayer("Multiply", {}, {T({kBatch, 1, 8}), T({kBatch, 4, 8}), T({kBatch, 5, 8})},
                                       "gate", {"a", "b", "c"});
        EXPECT_ERROR(three, "shape.mismatch", "gate");
        QVERIFY2(contains(three.firstError()->message, "[N,4,8] from 'b' with [N,5,8] from 'c'"),
                 three.firstError()->message.c_str());
    }

    void errors_data() {
        QTest::addColumn<ErrorCase>("e");
        const auto add = [](const char *tag, const char *type, json params, std::vector<TensorType> inputs,
                            const char *code, const char *field, const char *fragment) {
            QTest::newRow(tag) << ErrorCase{type, std::move(params), std::move(inputs), {}, code, field, fragment};
        };
        // Each of these is also rejected by torch 1.13, except where a comment says otherwise.
        add("Conv2d groups do not divide in_channels", "Conv2d",
            {{"out_channels", 6}, {"kernel_size", 3}, {"groups", 3}}, {T({kBatch, 4, 8, 8})}, "param.invalid", "groups",
            "groups=3");
        add("Conv2d groups do not divide out_channels", "Conv2d",
            {{"out_channels", 6}, {"kernel_size", 3}, {"groups", 4}}, {T({kBatch, 4, 8, 8})}, "param.invalid", "groups",
            "6 output channels");
        add("Conv2d same with stride", "Conv2d",
            {{"out_channels", 6}, {"kernel_size", 3}, {"stride", 2}, {"padding", "same"}}, {T({kBatch, 3, 8, 8})},
            "param.invalid", "padding", "\"same\"");
        add("Conv2d kernel larger than input", "Conv2d", {{"out_channels", 6}, {"kernel_size", 7}},
            {T({kBatch, 3, 5, 5})}, "shape.invalid", "kernel_size", "kernel height 7");
        add("Conv2d bad padding_mode enum", "Conv2d",
            {{"out_channels", 6}, {"kernel_size", 3}, {"padding_mode", "mirror"}}, {T({kBatch, 3, 8, 8})},
            "param.invalid", "padding_mode", "padding_mode");
        add("Conv1d circular padding wraps twice", "Conv1d",
            {{"out_channels", 6}, {"kernel_size", 3}, {"padding", 6}, {"padding_mode", "circular"}},
            {T({kBatch, 3, 5})}, "param.invalid", "padding", "circular");
        add("Conv2d integer input", "Conv2d", {{"out_channels", 6}, {"kernel_size", 3}},
            {T({kBatch, 3, 8, 8}, DType::Int64)}, "dtype.invalid", "*", "int64");
        add("ConvTranspose2d output_padding", "ConvTranspose2d",
            {{"out_channels", 4}, {"kernel_size", 3}, {"stride", 2}, {"output_padding", 2}}, {T({kBatch, 4, 5, 5})},
            "param.invalid", "output_padding", "output_padding 2");
        add("MaxPool2d padding above half the kernel", "MaxPool2d", {{"kernel_size", 3}, {"padding", 2}},
            {T({kBatch, 3, 8, 8})}, "param.invalid", "padding", "half the kernel");
        add("MaxPool2d window larger than input", "MaxPool2d", {{"kernel_size", 4}}, {T({kBatch, 3, 3, 8})},
            "shape.invalid", "kernel_size", "height 3");
        add("GroupNorm channels not divisible", "GroupNorm", {{"num_groups", 5}}, {T({kBatch, 32, 4, 4})},
            "param.invalid", "num_groups", "num_groups=5");
        add("LayerNorm shape mismatch", "LayerNorm", {{"normalized_shape", json::array({32})}}, {T({kBatch, 10, 64})},
            "shape.mismatch", "normalized_shape", "[32]");
        add("Dropout p above 1", "Dropout", {{"p", 1.5}}, {T({kBatch, 4})}, "param.invalid", "p", "at most 1");
        add("GELU bad enum", "GELU", {{"approximate", "fast"}}, {T({kBatch, 4})}, "param.invalid", "approximate",
            "approximate");
        // Our convention (torch accepts dim=0): the batch dimension is never normalised over.
        add("Softmax over the batch", "Softmax", {{"dim", 0}}, {T({kBatch, 10})}, "param.invalid", "dim", "batch");
        add("Softmax dim out of range", "Softmax", {{"dim", 3}}, {T({kBatch, 10})}, "param.invalid", "dim",
            "out of range");
        add("Flatten start_dim 0", "Flatten", {{"start_dim", 0}}, {T({kBatch, 3, 4})}, "param.invalid", "start_dim",
            "batch");
        add("Flatten start after end", "Flatten", {{"start_dim", 2}, {"end_dim", 1}}, {T({kBatch, 3, 4, 5})},
            "param.invalid", "start_dim", "comes after");
        add("Reshape element count", "Reshape", {{"shape", {5, -1}}}, {T({kBatch, 12})}, "shape.mismatch", "shape",
            "12 elements per sample");
        add("Reshape two -1", "Reshape", {{"shape", {-1, -1}}}, {T({kBatch, 12})}, "param.invalid", "shape", "-1");
        add("Permute moves the batch", "Permute", {{"dims", {1, 0, 2}}}, {T({kBatch, 3, 4})}, "param.invalid", "dims",
            "batch");
        add("Permute not a permutation", "Permute", {{"dims", {0, 1}}}, {T({kBatch, 3, 4})}, "param.invalid", "dims",
            "permutation");
        add("Upsample bilinear on 3-D", "Upsample", {{"scale_factor", 2.0}, {"mode", "bilinear"}}, {T({kBatch, 4, 5})},
            "param.invalid", "mode", "4-D");
        add("Upsample size and scale", "Upsample", {{"scale_factor", 2.0}, {"size", 8}}, {T({kBatch, 4, 5, 5})},
            "param.invalid", "*", "exactly one");
        add("Upsample align_corners with nearest", "Upsample", {{"scale_factor", 2.0}, {"align_corners", true}},
            {T({kBatch, 4, 5, 5})}, "param.invalid", "align_corners", "interpolating");
        add("Embedding float input", "Embedding", {{"num_embeddings", 10}, {"embedding_dim", 4}}, {T({kBatch, 5})},
            "dtype.invalid", "*", "float32");
        add("Embedding padding_idx outside", "Embedding",
            {{"num_embeddings", 10}, {"embedding_dim", 4}, {"padding_idx", 10}}, {T({kBatch, 5}, DType::Int64)},
            "param.invalid", "padding_idx", "padding_idx 10");
        // Our convention (torch also accepts unbatched [L,H_in]): recurrent layers are batch-first 3-D.
        add("LSTM 2-D input", "LSTM", {{"hidden_size", 8}}, {T({kBatch, 16})}, "shape.rank", "*", "[N,L,H_in]");
        add("MultiheadAttention heads", "MultiheadAttention", {{"num_heads", 6}}, {T({kBatch, 10, 64})},
            "param.invalid", "num_heads", "not divisible");
        add("MultiheadAttention key size", "MultiheadAttention", {{"num_heads", 4}},
            {T({kBatch, 10, 32}), T({kBatch, 7, 16}), T({kBatch, 7, 16})}, "shape.mismatch", "input 2",
            "embedding size");
        add("MultiheadAttention key/value length", "MultiheadAttention", {{"num_heads", 4}},
            {T({kBatch, 10, 32}), T({kBatch, 7, 32}), T({kBatch, 6, 32})}, "shape.mismatch", "input 3",
            "sequence length");
        add("MultiheadAttention two inputs", "MultiheadAttention", {{"num_heads", 4}},
            {T({kBatch, 10, 32}), T({kBatch, 10, 32})}, "shape.invalid", "*", "3 inputs");
        add("TransformerEncoderLayer nhead", "TransformerEncoderLayer", {{"nhead", 5}}, {T({kBatch, 10, 64})},
            "param.invalid", "nhead", "nhead=5");
        add("TransformerEncoderLayer bad activation", "TransformerEncoderLayer", {{"nhead", 4}, {"activation", "tanh"}},
            {T({kBatch, 10, 64})}, "param.invalid", "activation", "relu");
        add("Concat mismatch", "Concat", json::object(), {T({kBatch, 3, 8, 8}), T({kBatch, 3, 4, 4})}, "shape.mismatch",
            "input 2", "dimension 2 differs (8 vs 4)");
        add("Concat rank", "Concat", json::object(), {T({kBatch, 3, 8, 8}), T({kBatch, 3})}, "shape.rank", "input 2",
            "ranks differ");
        add("Concat over the batch", "Concat", {{"dim", 0}}, {T({kBatch, 3}), T({kBatch, 3})}, "param.invalid", "dim",
            "batch");
        add("Add dtypes", "Add", json::object(), {T({kBatch, 3}), T({kBatch, 3}, DType::Float64)}, "dtype.invalid",
            "input 2", "float64");
        add("Add batch against concrete", "Add", json::object(), {T({kBatch, 3}), T({4, 3})}, "shape.mismatch",
            "input 2", "(N vs 4)");
        add("Input axes length", "Input", {{"shape", {"N", 3}}, {"axes", json::array({"n"})}}, {}, "param.invalid",
            "axes", "1 axes");
        add("Input two batch dims", "Input", {{"shape", {"N", "N"}}}, {}, "shape.invalid", "shape", "more than one");
        add("Input bad dtype", "Input", {{"shape", {"N", 3}}, {"dtype", "float8"}}, {}, "param.invalid", "dtype",
            "dtype");
        add("Conv2d batch in a spatial dimension", "Conv2d", {{"out_channels", 2}, {"kernel_size", 1}},
            {T({2, 3, kBatch, 4})}, "shape.invalid", "*", "batch");

        // Sizes that overflow int64 are errors, never undefined behaviour.
        add("Input overflow", "Input", {{"shape", {"N", k2Pow62, 4}}}, {}, "shape.overflow", "shape", "overflows");
        add("Linear overflow", "Linear", {{"out_features", 4}}, {T({kBatch, k2Pow62})}, "shape.overflow", "*",
            "parameter count overflows");
        add("Linear FLOP overflow", "Linear", {{"out_features", 2}}, {T({kBatch, k2Pow62, 2})}, "shape.overflow", "*",
            "FLOP count overflows");
        add("Conv2d FLOP overflow", "Conv2d", {{"out_channels", 8}, {"kernel_size", 3}},
            {T({kBatch, 3, k2Pow62, k2Pow62})}, "shape.overflow", "*", "overflows");
        add("Conv2d dilated kernel overflow", "Conv2d",
            {{"out_channels", 8}, {"kernel_size", k2Pow62}, {"dilation", 4}}, {T({kBatch, 3, 8, 8})}, "shape.overflow",
            "*", "overflows");
        add("Conv2d padding overflow", "Conv2d", {{"out_channels", 8}, {"kernel_size", 1}, {"padding", k2Pow62}},
            {T({kBatch, 3, 8, 8})}, "shape.overflow", "*", "overflows");
        add("ConvTranspose2d stride overflow", "ConvTranspose2d",
            {{"out_channels", 8}, {"kernel_size", 1}, {"stride", k2Pow62}}, {T({kBatch, 3, 8, 8})}, "shape.overflow",
            "*", "overflows");
        add("MaxPool2d ceil overflow", "MaxPool2d", {{"kernel_size", 2}, {"ceil_mode", true}},
            {T({kBatch, 3, std::numeric_limits<std::int64_t>::max(), 8})}, "shape.overflow", "*", "overflows");
        add("Flatten overflow", "Flatten", json::object(), {T({kBatch, k2Pow62, 4})}, "shape.overflow", "*",
            "overflows");
        add("Reshape overflow", "Reshape", {{"shape", json::array({-1})}}, {T({kBatch, k2Pow62, 4})}, "shape.overflow",
            "shape", "overflows");
        add("Upsample overflow", "Upsample", {{"scale_factor", 4.0}}, {T({kBatch, 1, k2Pow62, 1})}, "shape.overflow",
            "*", "overflows");
        add("LSTM layers overflow", "LSTM", {{"hidden_size", 1024}, {"num_layers", k2Pow62}}, {T({kBatch, 5, 4})},
            "shape.overflow", "*", "overflows");
        add("Embedding overflow", "Embedding", {{"num_embeddings", k2Pow62}, {"embedding_dim", 4}},
            {T({kBatch, 5}, DType::Int64)}, "shape.overflow", "*", "overflows");
        add("Concat overflow", "Concat", json::object(), {T({kBatch, k2Pow62 + (k2Pow62 - 1)}), T({kBatch, 2})},
            "shape.overflow", "*", "overflows");
        add("Add overflow", "Add", json::object(), {T({kBatch, k2Pow62, 4}), T({kBatch, k2Pow62, 4})}, "shape.overflow",
            "*", "overflows");
        add("MultiheadAttention overflow", "MultiheadAttention", {{"num_heads", 1}}, {T({kBatch, 2, k2Pow62})},
            "shape.overflow", "*", "overflows");
    }

    void errors() {
        QFETCH(ErrorCase, e);
        const Outcome o = runLayer(e.type, e.params, e.inputs, "bad7", e.inputNames);
        QVERIFY(o.found);
        const Diagnostic *d = o.firstError();
        QVERIFY2(d, "expected an error");
        QVERIFY(o.result.outputs.empty());
        QCOMPARE(q(d->code), q(e.code));
        QCOMPARE(q(d->node), QStringLiteral("bad7"));
        if (e.field != "*") QCOMPARE(q(d->field), q(e.field));
        QVERIFY2(contains(d->message, e.fragment), formatDiagnostic(*d).c_str());
        QVERIFY2(contains(d->message, "'bad7'"), d->message.c_str());
        if (o.paramDiagnostics.empty()) QVERIFY2(!d->hint.empty(), d->message.c_str()); // rule errors give a fix
    }

    void warningsKeepTheOutputs() {
        // torch warns about dropout on a single-layer LSTM; so do we, without failing the node.
        const Outcome o = runLayer("LSTM", {{"hidden_size", 8}, {"dropout", 0.2}}, {T({kBatch, 5, 4})}, "rnn");
        QVERIFY(!hasErrors(o.result.diagnostics));
        QCOMPARE(o.result.diagnostics.size(), std::size_t(1));
        QCOMPARE(o.result.diagnostics[0].severity, Severity::Warning);
        QCOMPARE(q(o.result.diagnostics[0].node), QStringLiteral("rnn"));
        QCOMPARE(o.result.outputs.size(), std::size_t(3));
    }
};

QTEST_APPLESS_MAIN(TestLayerRules)
#include "tst_layer_rules.moc"
