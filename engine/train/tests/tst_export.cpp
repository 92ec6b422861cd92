// `diamond-train export` (engine/train/export): the safetensors writer and reader (round trip,
// bit-identical data, metadata; malformed files refused with a clear message), and the export
// of specs that together use every registry layer type (plus the cnn28, lstm_regressor and
// transformer_classifier templates and a residual Add/Concat DAG with dotted ids): weights and
// test outputs must equal the engine's, the manifest must hash every file, and the generated
// model.py, run by Debian's python3 with torch 1.13, must reproduce the engine's outputs
// within 1e-5. The CLI is exercised through the real diamond-train binary.
#include "checkpoint.h"
#include "engine_error.h"
#include "export/export.h"
#include "export/python_codegen.h"
#include "export/safetensors.h"
#include "model/network.h"
#include "sha256.h"

#include "common/test_paths.h"
#include "diamond/spec/registry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace diamond;
using namespace diamond::engine;
using nlohmann::json;

namespace {

const char *const kPython = "/usr/bin/python3";

std::string u64(std::uint64_t v) {
    std::string out;
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return out;
}

/// A safetensors file from a raw header text and `dataBytes` zero bytes.
std::string rawFile(const std::string &header, std::size_t dataBytes) {
    return u64(header.size()) + header + std::string(dataBytes, '\0');
}

std::string bytesOf(const torch::Tensor &tensor) {
    const torch::Tensor t = tensor.detach().contiguous();
    return std::string(static_cast<const char *>(t.data_ptr()), static_cast<std::size_t>(t.numel() * t.element_size()));
}

torch::Tensor toTorch(const SafetensorsTensor &t) {
    static const std::map<std::string, torch::Dtype> types = {
        {"F64", torch::kFloat64}, {"F32", torch::kFloat32}, {"F16", torch::kFloat16}, {"BF16", torch::kBFloat16},
        {"I64", torch::kInt64},   {"I32", torch::kInt32},   {"BOOL", torch::kBool},
    };
    torch::Tensor out = torch::empty(t.shape, types.at(t.dtype));
    std::memcpy(out.data_ptr(), t.data.data(), t.data.size());
    return out;
}

std::string readText(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// ---- specs ----------------------------------------------------------------------------------

// Lists are built with json::array: a braced pair like {"x", "y"} would become an object.
json node(const std::string &id, const std::string &type, const std::vector<std::string> &inputs,
          const json &params = json::object()) {
    return {{"id", id}, {"type", type}, {"params", params}, {"inputs", inputs}};
}

json input(const std::string &name, const std::vector<json> &shape, const std::string &dtype = "float32") {
    return {{"name", name}, {"shape", json(shape)}, {"dtype", dtype}};
}

json output(const std::string &name, const std::string &from) { return {{"name", name}, {"from", from}}; }

json doc(const std::vector<json> &inputs, const std::vector<json> &nodes, const std::vector<json> &outputs) {
    return {{"format", "diamond.spec/1"}, {"inputs", json(inputs)}, {"nodes", json(nodes)}, {"outputs", json(outputs)}};
}

/// Residual Add and Concat DAG with ids that are not Python names (dots, dashes, a leading
/// digit, "eval", two ids that sanitise alike); listed out of execution order.
json residualDag() {
    return doc(
        {input("image.in", {"N", 3, 8, 8})},
        {
            node("fc", "Linear", {"2flat"}, {{"out_features", 5}}),
            node("stem.conv", "Conv2d", {"image.in"}, {{"out_channels", 8}, {"kernel_size", 3}, {"padding", 1}}),
            node("stem.bn", "BatchNorm2d", {"stem.conv"}),
            node("block-1.relu", "ReLU", {"stem.bn"}),
            node("block-1.conv", "Conv2d", {"block-1.relu"},
                 {{"out_channels", 8}, {"kernel_size", 3}, {"padding", "same"}, {"bias", false}}),
            node("eval", "Add", {"block-1.conv", "stem.conv"}),
            node("branch", "Conv2d", {"image.in"}, {{"out_channels", 4}, {"kernel_size", 1}, {"padding", "valid"}}),
            node("a.b", "Concat", {"eval", "branch"}),
            node("a_b", "AdaptiveAvgPool2d", {"a.b"}, {{"output_size", 1}}),
            node("2flat", "Flatten", {"a_b"}),
        },
        {output("logits", "fc"), output("features", "a.b")});
}

json convolutions() {
    return doc(
        {input("img", {"N", 4, 9, 10}), input("vol", {"N", 2, 5, 8, 8})},
        {
            node("c1", "Conv2d", {"img"},
                 {{"out_channels", 6},
                  {"kernel_size", {3, 5}},
                  {"stride", {1, 2}},
                  {"padding", {1, 2}},
                  {"groups", 2},
                  {"padding_mode", "replicate"}}),
            node("ct", "ConvTranspose2d", {"c1"},
                 {{"out_channels", 4}, {"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"output_padding", 1}}),
            node(
                "ap", "AvgPool2d", {"ct"},
                {{"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", true}, {"count_include_pad", false}}),
            node("gn", "GroupNorm", {"ap"}, {{"num_groups", 2}}),
            node("gn2", "GroupNorm", {"lrelu"}, {{"num_groups", 3}, {"affine", false}, {"eps", 1e-3}}),
            node("gelu", "GELU", {"gn"}, {{"approximate", "tanh"}}),
            node("up", "Upsample", {"gelu"}, {{"scale_factor", 2.0}, {"mode", "bilinear"}}),
            node("dw", "Conv2d", {"gelu"},
                 {{"out_channels", 4}, {"kernel_size", 3}, {"groups", 4}, {"padding", 1}, {"bias", false}}),
            node("dil", "Conv2d", {"up"},
                 {{"out_channels", 2},
                  {"kernel_size", 3},
                  {"dilation", 2},
                  {"padding_mode", "circular"},
                  {"padding", 2}}),
            node("c3", "Conv3d", {"vol"},
                 {{"out_channels", 3}, {"kernel_size", {2, 3, 3}}, {"stride", {1, 2, 2}}, {"padding", {0, 1, 1}}}),
            node("lrelu", "LeakyReLU", {"c3"}, {{"negative_slope", 0.2}}),
        },
        {output("up", "up"), output("depthwise", "dw"), output("dilated", "dil"), output("volume", "gn2")});
}

json oneDimensional() {
    return doc(
        {input("x", {"N", 4, 17})},
        {
            node("c1", "Conv1d", {"x"}, {{"out_channels", 6}, {"kernel_size", 3}, {"stride", 2}, {"padding", 1}}),
            node("bn", "BatchNorm1d", {"c1"}, {{"momentum", 0.2}}),
            node("elu", "ELU", {"bn"}, {{"alpha", 0.5}}),
            node("mp", "MaxPool1d", {"elu"}, {{"kernel_size", 3}, {"stride", 2}, {"padding", 1}, {"ceil_mode", true}}),
            node("up", "Upsample", {"mp"}, {{"scale_factor", 1.5}, {"mode", "linear"}}),
            node("c2", "Conv1d", {"up"},
                 {{"out_channels", 4},
                  {"kernel_size", 4},
                  {"padding", "same"},
                  {"dilation", 2},
                  {"padding_mode", "reflect"}}),
            node("sp", "Softplus", {"c2"}, {{"beta", 2.0}, {"threshold", 10.0}}),
            node("avg", "AvgPool1d", {"sp"}, {{"kernel_size", 2}}),
            node("mp2d", "MaxPool2d", {"c2d"}, {{"kernel_size", {2, 3}}, {"dilation", 2}, {"padding", 1}}),
            node("c2d", "Reshape", {"sp"}, {{"shape", {1, 4, 7}}}),
            node("bn2", "BatchNorm1d", {"avg"}, {{"track_running_stats", false}}),
            node("lstm", "LSTM", {"perm"}, {{"hidden_size", 3}, {"bias", false}}),
            node("perm", "Permute", {"bn2"}, {{"dims", {0, 2, 1}}}),
        },
        {output("pooled", "bn2"), output("pooled2d", "mp2d"), output("lstm", "lstm:out")});
}

json sequences() {
    return doc({input("x", {"N", 6, 8})},
               {
                   node("att", "MultiheadAttention", {"x"}, {{"num_heads", 2}}),
                   node("gru", "GRU", {"x"}, {{"hidden_size", 4}, {"num_layers", 2}, {"bidirectional", true}}),
                   node("cross", "MultiheadAttention", {"att", "gru", "gru:out"}, {{"num_heads", 4}, {"bias", false}}),
                   node("enc", "TransformerEncoderLayer", {"cross"},
                        {{"nhead", 2}, {"dim_feedforward", 16}, {"norm_first", true}, {"activation", "gelu"}}),
                   node("enc2", "TransformerEncoderLayer", {"enc"},
                        {{"nhead", 4}, {"dim_feedforward", 32}, {"dropout", 0.2}, {"layer_norm_eps", 1e-6}}),
                   node("lstm", "LSTM", {"enc2"},
                        {{"hidden_size", 5}, {"num_layers", 2}, {"bidirectional", true}, {"dropout", 0.1}}),
                   node("ln", "LayerNorm", {"lstm"}),
                   node("gru1", "GRU", {"ln"}, {{"hidden_size", 3}, {"bias", false}}),
               },
               {output("features", "ln"), output("self_weights", "att:weights"),
                output("cross_weights", "cross:weights"), output("gru_h", "gru:h_n"), output("lstm_h", "lstm:h_n"),
                output("lstm_c", "lstm:c_n"), output("gru1", "gru1")});
}

json elementwise() {
    return doc({input("x", {"N", 5, 6})},
               {
                   node("sig", "Sigmoid", {"x"}),
                   node("gate", "Multiply", {"x", "sig"}),
                   node("tanh", "Tanh", {"gate"}),
                   node("silu", "SiLU", {"x"}),
                   node("sm", "Softmax", {"silu"}, {{"dim", 1}}),
                   node("lsm", "LogSoftmax", {"tanh"}, {{"dim", -1}}),
                   node("drop", "Dropout", {"lsm"}, {{"p", 0.3}}),
                   node("id", "Identity", {"drop"}),
                   node("ln", "LayerNorm", {"sm"}, {{"normalized_shape", {5, 6}}, {"eps", 1e-6}}),
                   node("bn", "BatchNorm1d", {"ln"}, {{"affine", false}, {"eps", 1e-3}}),
                   node("cat", "Concat", {"id", "bn"}, {{"dim", -1}}),
                   node("mish", "Mish", {"cat"}),
                   node("perm", "Permute", {"mish"}, {{"dims", {0, 2, 1}}}),
                   node("img", "Reshape", {"perm"}, {{"shape", {3, 4, -1}}}),
                   node("near", "Upsample", {"img"}, {{"size", {6, 7}}}),
                   node("cubic", "Upsample", {"img"}, {{"size", 5}, {"mode", "bicubic"}, {"align_corners", true}}),
                   node("flat", "Flatten", {"cubic"}, {{"start_dim", 2}}),
                   node("ln2", "LayerNorm", {"flat"}, {{"elementwise_affine", false}}),
                   node("vol", "Reshape", {"perm"}, {{"shape", {1, 3, 4, 5}}}),
                   node("tri", "Upsample", {"vol"}, {{"scale_factor", 2.0}, {"mode", "trilinear"}}),
                   node("unused", "ReLU", {"x"}),
               },
               {output("normed", "ln2"), output("nearest", "near"), output("trilinear", "tri")});
}

json tokens() {
    return doc(
        {input("tokens", {"N", 7}, "int64"), input("grid", {"N", 2, 5}, "int32")},
        {
            node("emb", "Embedding", {"tokens"}, {{"num_embeddings", 20}, {"embedding_dim", 6}, {"padding_idx", 0}}),
            node("emb2", "Embedding", {"grid"}, {{"num_embeddings", 9}, {"embedding_dim", 3}}),
            node("clamp", "ReLU6", {"tokens"}),
            node("fc", "Linear", {"emb"}, {{"out_features", 3}, {"bias", false}}),
        },
        {output("vectors", "fc"), output("grid_vectors", "emb2"), output("clamped", "clamp")});
}

struct SpecCase {
    const char *name;
    const char *templateFile; ///< under resources/templates, or nullptr
    json doc;
};

std::vector<SpecCase> specCases() {
    return {
        {"cnn28", "cnn28.json", {}},
        {"lstm_regressor", "lstm_regressor.json", {}},
        {"transformer_classifier", "transformer_classifier.json", {}},
        {"residual dag", nullptr, residualDag()},
        {"convolutions", nullptr, convolutions()},
        {"one-dimensional", nullptr, oneDimensional()},
        {"sequences", nullptr, sequences()},
        {"elementwise", nullptr, elementwise()},
        {"tokens", nullptr, tokens()},
    };
}

json specDoc(const SpecCase &c) {
    if (!c.templateFile) return c.doc;
    const std::string path = test::sourcePath(QStringLiteral("resources/templates/")).toStdString() + c.templateFile;
    return json::parse(readText(path));
}

/// Builds the spec's network from `seed`, gives BatchNorm buffers non-default values (as after
/// training) and writes it as the checkpoint of `runDir` at `step`. Returns the network.
std::unique_ptr<Network> trainedCheckpoint(const std::string &specPath, const std::string &runDir, std::uint64_t seed,
                                           std::int64_t step) {
    auto parsed = spec::loadSpecFile(specPath);
    for (const auto &d : parsed.diagnostics)
        qWarning("%s", spec::formatDiagnostic(d).c_str());
    torch::manual_seed(seed);
    auto net = Network::build(parsed.spec);
    {
        torch::NoGradGuard noGrad;
        for (auto &[name, buffer] : net->namedBuffers()) {
            if (name.size() > 11 && name.compare(name.size() - 11, 11, "running_var") == 0)
                buffer.uniform_(0.5, 1.5);
            else if (buffer.is_floating_point())
                buffer.normal_(0, 0.3);
            else
                buffer.fill_(step);
        }
    }
    CheckpointState state;
    state.step = step;
    state.model = net->namedState();
    state.rngState = cpuRngState();
    writeCheckpoint(runDir, state);
    return net;
}

struct PythonRun {
    int exitCode = -1;
    QString output;
    double maxDiff = -1;
};

PythonRun runModelPy(const QString &dir, const QStringList &extra = {}) {
    PythonRun r;
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QString::fromLatin1(kPython), QStringList{QDir(dir).filePath(QStringLiteral("model.py"))} + extra);
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.output = QString::fromUtf8(p.readAll());
    const auto m = QRegularExpression(QStringLiteral("max_abs_diff (\\S+)")).match(r.output);
    if (m.hasMatch()) r.maxDiff = m.captured(1).toDouble();
    return r;
}

bool writeJsonFile(const std::string &path, const json &doc) {
    std::ofstream out(path);
    out << doc.dump(2);
    return static_cast<bool>(out);
}

} // namespace

class TestExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QString::fromLatin1(kPython))) QSKIP("no /usr/bin/python3");
    }

    // ---- safetensors ---------------------------------------------------------------------

    void safetensorsRoundTrip() {
        torch::manual_seed(3);
        SafetensorsFile file;
        const auto add = [&](const std::string &name, const std::string &dtype, const torch::Tensor &t) {
            file.tensors.push_back({name, dtype, t.sizes().vec(), bytesOf(t)});
        };
        add("layer1.0.conv1.weight", "F32", torch::randn({4, 3, 3, 3}));
        add("bn.num_batches_tracked", "I64", torch::tensor(std::int64_t(123456789012345)));
        add("f64", "F64", torch::randn({5}, torch::kFloat64));
        add("empty", "F32", torch::empty({0, 3}));
        add("mask", "BOOL", torch::tensor({true, false, true}));
        add("a", "F16", torch::randn({3, 1}).to(torch::kFloat16));
        add("ids", "I32", torch::randint(-5, 5, {7}, torch::kInt32));
        file.metadata = {{"format", "pt"}, {"diamond.spec_sha256", std::string(64, 'a')}, {"note", "ü \"quoted\""}};

        const std::string bytes = serializeSafetensors(file);
        std::uint64_t headerSize = 0;
        for (int i = 7; i >= 0; --i)
            headerSize = (headerSize << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
        QCOMPARE(headerSize % 8, std::uint64_t(0));
        QVERIFY(bytes[8] == '{');

        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("t.safetensors")).toStdString();
        QCOMPARE(writeSafetensors(path, file), bytes);
        QCOMPARE(readText(path), bytes);
        for (const SafetensorsFile &back : {parseSafetensors(bytes), readSafetensors(path)}) {
            QCOMPARE(back.tensors.size(), file.tensors.size());
            for (std::size_t i = 0; i < file.tensors.size(); ++i) {
                QCOMPARE(back.tensors[i].name, file.tensors[i].name);
                QCOMPARE(back.tensors[i].dtype, file.tensors[i].dtype);
                QVERIFY(back.tensors[i].shape == file.tensors[i].shape);
                QVERIFY(back.tensors[i].data == file.tensors[i].data); // bit-identical
            }
            QVERIFY(back.metadata == file.metadata);
            QVERIFY(back.find("ids") && !back.find("nope"));
            QCOMPARE(serializeSafetensors(back), bytes);
        }
        // The header is plain JSON with the documented fields.
        const json header = json::parse(bytes.substr(8, headerSize));
        QCOMPARE(header["__metadata__"]["format"].get<std::string>(), std::string("pt"));
        QVERIFY(header["f64"]["data_offsets"] == json::array({440, 480})); // after 432 + 8 bytes
        QVERIFY(header["empty"]["shape"] == json::array({0, 3}));
    }

    void safetensorsWriterRefusesBadTensors() {
        SafetensorsFile twice;
        twice.tensors = {{"w", "F32", {1}, std::string(4, '\0')}, {"w", "F32", {1}, std::string(4, '\0')}};
        QVERIFY_THROWS_EXCEPTION(EngineError, serializeSafetensors(twice));
        SafetensorsFile size;
        size.tensors = {{"w", "F32", {2}, std::string(4, '\0')}};
        QVERIFY_THROWS_EXCEPTION(EngineError, serializeSafetensors(size));
        SafetensorsFile dtype;
        dtype.tensors = {{"w", "F128", {1}, std::string(16, '\0')}};
        QVERIFY_THROWS_EXCEPTION(EngineError, serializeSafetensors(dtype));
        SafetensorsFile reserved;
        reserved.tensors = {{"__metadata__", "U8", {1}, std::string(1, '\0')}};
        QVERIFY_THROWS_EXCEPTION(EngineError, serializeSafetensors(reserved));
    }

    void safetensorsMalformed_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto row = [](const char *name, const std::string &bytes, const char *message) {
            QTest::newRow(name) << QByteArray(bytes.data(), static_cast<int>(bytes.size()))
                                << QString::fromLatin1(message);
        };
        const std::string ok = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        row("valid control", rawFile(ok, 8), "");
        row("too short", std::string("\x08\0\0", 3), "too short");
        row("header over 100 MB", u64(100'000'001) + "{}", "more than the limit");
        row("header past the end", u64(64) + "{}", "truncated");
        row("not JSON", rawFile("{\"w\": [1, }", 0), "not valid JSON");
        row("not an object", rawFile("[1, 2]", 0), "not a JSON object");
        row("too deep", rawFile("{\"w\":[[[[[[1]]]]]]}", 0), "nested too deeply");
        row("entry not an object", rawFile(R"({"w": 3})", 0), "not a JSON object");
        row("no dtype", rawFile(R"({"w":{"shape":[2],"data_offsets":[0,8]}})", 8), "lacks one of");
        row("unknown dtype", rawFile(R"({"w":{"dtype":"F128","shape":[2],"data_offsets":[0,8]}})", 8), "unknown dtype");
        row("negative dimension", rawFile(R"({"w":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8),
            "invalid shape");
        row("offsets not a pair", rawFile(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[8]}})", 8),
            "invalid data_offsets");
        row("begin after end", rawFile(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[8,4]}})", 8),
            "begin is after its end");
        row("out of range", rawFile(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4), "out of range");
        row("size mismatch", rawFile(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8), "needs 12");
        row("overlap",
            rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                    R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                    12),
            "overlaps");
        row("gap",
            rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                    R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                    12),
            "belong to no tensor");
        row("trailing bytes", rawFile(ok, 12), "after the last tensor");
        row("duplicate name",
            rawFile(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                    R"("w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                    8),
            "more than once");
        row("metadata not strings", rawFile(R"({"__metadata__":{"step":3}})", 0), "is not a string");
    }

    void safetensorsMalformed() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const std::string_view view(bytes.constData(), static_cast<std::size_t>(bytes.size()));
        if (message.isEmpty()) {
            QCOMPARE(parseSafetensors(view).tensors.size(), std::size_t(1));
            return;
        }
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("bad.safetensors")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        for (int fromFile = 0; fromFile < 2; ++fromFile) {
            try {
                if (fromFile)
                    readSafetensors(f.fileName().toStdString());
                else
                    parseSafetensors(view, "bad.safetensors");
                QFAIL("accepted");
            } catch (const EngineError &e) {
                const QString what = QString::fromUtf8(e.what());
                QVERIFY2(what.contains(message) && what.contains(QStringLiteral("bad.safetensors")), qPrintable(what));
            }
        }
    }

    // ---- export -------------------------------------------------------------------------

    void everyLayerTypeIsCovered() {
        std::set<std::string> covered;
        for (const auto &c : specCases()) {
            const json d = specDoc(c);
            for (const auto &n : d["nodes"])
                covered.insert(n["type"].get<std::string>());
        }
        const auto &generators = pygen::pythonLayerGenerators();
        int types = 0;
        for (const auto &type : spec::Registry::instance().types()) {
            if (type.name == "Input") continue;
            ++types;
            QVERIFY2(generators.count(type.name) == 1, ("no Python generator for " + type.name).c_str());
            QVERIFY2(covered.count(type.name) == 1, ("no export case uses " + type.name).c_str());
        }
        QCOMPARE(types, 40);
        QCOMPARE(generators.size(), std::size_t(40));
    }

    void exportMatchesPyTorch_data() {
        QTest::addColumn<int>("index");
        const auto all = specCases();
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].name) << static_cast<int>(i);
    }

    void exportMatchesPyTorch() {
        QFETCH(int, index);
        const SpecCase c = specCases()[static_cast<std::size_t>(index)];
        QTemporaryDir tmp;
        if (qEnvironmentVariableIsSet("DIAMOND_KEEP_EXPORTS")) { // for inspecting the generated files
            tmp.setAutoRemove(false);
            qInfo("%s: exported to %s/run/export", c.name, qPrintable(tmp.path()));
        }
        const std::string root = tmp.path().toStdString();
        const std::string runDir = root + "/run";
        std::string specPath = root + "/net.json";
        if (c.templateFile)
            specPath = test::sourcePath(QStringLiteral("resources/templates/")).toStdString() + c.templateFile;
        else
            QVERIFY(writeJsonFile(specPath, c.doc));

        std::unique_ptr<Network> trained;
        try {
            trained = trainedCheckpoint(specPath, runDir, 1000 + static_cast<std::uint64_t>(index), 7);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        ExportOptions options;
        options.specPath = specPath;
        options.runDir = runDir;
        ExportResult result;
        try {
            result = exportModel(options);
        } catch (const std::exception &e) {
            QFAIL(e.what());
        }
        const std::string out = runDir + "/export";
        QCOMPARE(result.step, std::int64_t(7));
        QCOMPARE(QString::fromStdString(result.path), QDir(QString::fromStdString(out)).absolutePath());
        const std::vector<std::string> expectedFiles = {
            "model.safetensors",        "spec.json",    "model.py", "test_inputs.safetensors",
            "test_outputs.safetensors", "manifest.json"};
        QVERIFY(result.files == expectedFiles);

        // The manifest hashes every other file.
        const json manifest = json::parse(readText(out + "/manifest.json"));
        QCOMPARE(manifest["files"].size(), expectedFiles.size() - 1);
        for (const auto &[name, sha] : manifest["files"].items()) {
            const std::string bytes = readText(out + "/" + name);
            QCOMPARE(sha.get<std::string>(), sha256Hex(bytes.data(), bytes.size()));
        }
        QVERIFY(!manifest["engine_version"].get<std::string>().empty());
        QCOMPARE(readText(out + "/spec.json"), readText(specPath));

        // Weights: namedState() names in order, bit-identical to the checkpointed network.
        const SafetensorsFile weights = readSafetensors(out + "/model.safetensors");
        const auto state = trained->namedState();
        QCOMPARE(weights.tensors.size(), state.size());
        for (std::size_t i = 0; i < state.size(); ++i) {
            QCOMPARE(weights.tensors[i].name, state[i].first);
            QVERIFY2(weights.tensors[i].data == bytesOf(state[i].second), state[i].first.c_str());
        }
        QCOMPARE(weights.metadata.at("format"), std::string("pt"));
        QCOMPARE(weights.metadata.at("diamond.spec_sha256"), manifest["files"]["spec.json"].get<std::string>());

        // Test outputs are the engine's outputs in evaluation mode for the test inputs.
        const SafetensorsFile inputs = readSafetensors(out + "/test_inputs.safetensors");
        const SafetensorsFile outputs = readSafetensors(out + "/test_outputs.safetensors");
        std::vector<torch::Tensor> in;
        for (const auto &decl : trained->spec().inputs) {
            QVERIFY2(inputs.find(decl.name), decl.name.c_str());
            in.push_back(toTorch(*inputs.find(decl.name)));
            QCOMPARE(in.back().size(0), std::int64_t(4));
        }
        trained->train(false);
        torch::NoGradGuard noGrad;
        const auto expected = trained->forward(in);
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const std::string &name = trained->spec().outputs[i].name;
            QVERIFY2(outputs.find(name), name.c_str());
            QVERIFY2(torch::equal(toTorch(*outputs.find(name)), expected[i].contiguous()), name.c_str());
        }

        // The generated PyTorch module reproduces them.
        const PythonRun py = runModelPy(QString::fromStdString(out));
        QVERIFY2(py.exitCode == 0, qPrintable(py.output));
        QVERIFY2(py.maxDiff >= 0 && py.maxDiff <= 1e-5, qPrintable(py.output));
        qInfo("%s: max |engine - PyTorch module| = %.3e", c.name, py.maxDiff);
    }

    void pythonDetectsWrongWeights() {
        QTemporaryDir tmp;
        const std::string runDir = tmp.path().toStdString() + "/run";
        const std::string specPath = tmp.path().toStdString() + "/net.json";
        QVERIFY(writeJsonFile(specPath, residualDag()));
        trainedCheckpoint(specPath, runDir, 5, 3);
        ExportOptions options;
        options.specPath = specPath;
        options.runDir = runDir;
        exportModel(options);
        // Other weights of the same network: load, run, report a difference and exit 1.
        const std::string other = tmp.path().toStdString() + "/other";
        trainedCheckpoint(specPath, other, 6, 3);
        options.runDir = other;
        exportModel(options);
        const PythonRun py = runModelPy(QString::fromStdString(runDir + "/export"),
                                        {QString::fromStdString(other + "/export/model.safetensors")});
        QVERIFY2(py.exitCode == 1 && py.maxDiff > 1e-5, qPrintable(py.output));
    }

    void newestValidCheckpointIsUsed() {
        QTemporaryDir tmp;
        const std::string runDir = tmp.path().toStdString() + "/run";
        const std::string specPath = tmp.path().toStdString() + "/net.json";
        QVERIFY(writeJsonFile(specPath, residualDag()));
        ExportOptions options;
        options.specPath = specPath;
        options.runDir = runDir;
        try {
            exportModel(options);
            QFAIL("exported without a checkpoint");
        } catch (const EngineError &e) {
            QVERIFY2(std::string(e.what()).find("no checkpoint") != std::string::npos, e.what());
            QVERIFY(!e.hint().empty());
        }

        trainedCheckpoint(specPath, runDir, 11, 5);
        { // a newer, corrupt checkpoint is skipped
            std::ofstream(runDir + "/checkpoints/step-0000000009.pt") << "not a checkpoint";
        }
        QCOMPARE(exportModel(options).step, std::int64_t(5));

        // An explicit checkpoint of another network is refused with the reason.
        const std::string otherSpec = tmp.path().toStdString() + "/other.json";
        QVERIFY(writeJsonFile(otherSpec, elementwise()));
        options.specPath = otherSpec;
        options.checkpoint = runDir + "/checkpoints/step-0000000005.pt";
        options.outDir = tmp.path().toStdString() + "/out";
        try {
            exportModel(options);
            QFAIL("exported a checkpoint of another network");
        } catch (const EngineError &e) {
            QVERIFY2(std::string(e.what()).find("step-0000000005.pt") != std::string::npos, e.what());
        }
    }

    void commandLine() {
        const QString binary = test::binary(QStringLiteral("diamond-train"));
        if (!QFile::exists(binary)) QSKIP("diamond-train is not built");
        QTemporaryDir tmp;
        const QString runDir = tmp.filePath(QStringLiteral("run"));
        const QString specPath = test::sourcePath(QStringLiteral("resources/templates/cnn28.json"));
        trainedCheckpoint(specPath.toStdString(), runDir.toStdString(), 21, 12);
        const QString out = tmp.filePath(QStringLiteral("exported model"));

        QProcess p;
        p.start(binary, {QStringLiteral("export"), QStringLiteral("--spec"), specPath, QStringLiteral("--run-dir"),
                         runDir, QStringLiteral("--out"), out, QStringLiteral("--samples"), QStringLiteral("2")});
        QVERIFY(p.waitForFinished(120000));
        const QByteArray stdoutText = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QList<QByteArray> lines = stdoutText.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        const QJsonObject event = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(event.value(QStringLiteral("event")).toString(), QStringLiteral("exported"));
        QCOMPARE(event.value(QStringLiteral("path")).toString(), QDir(out).absolutePath());
        QCOMPARE(event.value(QStringLiteral("files")).toArray().size(), 6);
        const SafetensorsFile inputs =
            readSafetensors(QDir(out).filePath(QStringLiteral("test_inputs.safetensors")).toStdString());
        QVERIFY(inputs.find("image") && inputs.find("image")->shape == std::vector<std::int64_t>({2, 1, 28, 28}));

        const PythonRun py = runModelPy(out);
        QVERIFY2(py.exitCode == 0 && py.maxDiff >= 0 && py.maxDiff <= 1e-5, qPrintable(py.output));

        // Usage errors exit 2, a missing checkpoint 1, each with an error event.
        const auto exitCode = [&](const QStringList &args, QByteArray *events = nullptr) {
            QProcess q;
            q.start(binary, QStringList{QStringLiteral("export")} + args);
            q.waitForFinished(120000);
            if (events) *events = q.readAllStandardOutput();
            return q.exitCode();
        };
        QCOMPARE(exitCode({QStringLiteral("--run-dir"), runDir}), 2);
        QCOMPARE(exitCode({QStringLiteral("--spec"), specPath, QStringLiteral("--run-dir"), runDir,
                           QStringLiteral("--samples"), QStringLiteral("0")}),
                 2);
        QByteArray events;
        QCOMPARE(exitCode({QStringLiteral("--spec"), specPath, QStringLiteral("--run-dir"),
                           tmp.filePath(QStringLiteral("empty"))},
                          &events),
                 1);
        QVERIFY2(events.contains("\"error\"") && events.contains("no checkpoint"), events.constData());
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
