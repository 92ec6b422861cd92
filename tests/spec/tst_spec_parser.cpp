// parseSpec / toJson: syntax errors with positions, versions, structure, limits, round trip.
#include "common/test_paths.h"
#include "diamond/spec/spec.h"

#include <QDir>
#include <QtTest>

using namespace diamond::spec;
using nlohmann::json;

namespace {

const Diagnostic *findCode(const std::vector<Diagnostic> &ds, const std::string &code) {
    for (const auto &d : ds) {
        if (d.code == code) return &d;
    }
    return nullptr;
}

std::string readFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

const char *kSmall = R"({
  "format": "diamond.spec/1",
  "name": "tiny",
  "inputs": [{"name": "x", "shape": ["N", 2], "dtype": "float32", "axes": ["batch", "feature"]}],
  "nodes": [
    {"id": "fc1", "type": "Linear", "params": {"out_features": 4}, "inputs": ["x"]},
    {"id": "act", "type": "ReLU", "inputs": ["fc1"]}
  ],
  "outputs": [{"name": "y", "from": "act"}],
  "layout": {"fc1": {"x": 0, "y": 100}}
})";

} // namespace

class TestSpecParser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesAllSections() {
        const ParseResult r = parseSpec(kSmall);
        QVERIFY(r.ok());
        QCOMPARE(r.spec.name, std::string("tiny"));
        QCOMPARE(r.spec.inputs.size(), std::size_t(1));
        QCOMPARE(r.spec.inputs[0].shape, (Shape{kBatch, 2}));
        QCOMPARE(r.spec.inputs[0].axes.size(), std::size_t(2));
        QCOMPARE(r.spec.nodes.size(), std::size_t(2));
        QCOMPARE(r.spec.nodes[0].params.at("out_features").get<int>(), 4);
        QCOMPARE(r.spec.outputs[0].from.node, std::string("act"));
        QVERIFY(r.spec.layout.is_object());
    }

    void syntaxErrorHasLineAndColumn() {
        const ParseResult r = parseSpec("{\n  \"format\": \"diamond.spec/1\",\n  \"nodes\": [1 2]\n}");
        QVERIFY(!r.ok());
        const Diagnostic *d = findCode(r.diagnostics, "json.syntax");
        QVERIFY(d);
        QCOMPARE(d->line, 3);
        QCOMPARE(d->column, 15);
        QVERIFY(d->message.find("not valid JSON") != std::string::npos);
    }

    void unknownFormatVersionIsRefused() {
        const ParseResult r = parseSpec(R"({"format": "diamond.spec/7", "nodes": []})");
        const Diagnostic *d = findCode(r.diagnostics, "format.version");
        QVERIFY(d);
        QVERIFY(d->message.find("diamond.spec/7") != std::string::npos);
        QVERIFY(d->hint.find("newer Diamond") != std::string::npos);
        QVERIFY(findCode(parseSpec(R"({"nodes": []})").diagnostics, "format.missing"));
        QVERIFY(findCode(parseSpec("[1, 2]").diagnostics, "spec.invalid"));
    }

    void structuralErrorsNameTheNode() {
        const ParseResult r = parseSpec(R"({"format": "diamond.spec/1",
            "inputs": [{"name": "x", "shape": ["N", 0]}, {"name": "z", "shape": ["N", 2], "dtype": "complex"}],
            "nodes": [{"id": "a", "inputs": ["x"]}, {"type": "ReLU"}, {"id": "b", "type": "ReLU", "inputs": [3]}],
            "outputs": [{"name": "y"}]})");
        QVERIFY(!r.ok());
        const Diagnostic *shape = findCode(r.diagnostics, "input.invalid");
        QVERIFY(shape);
        QCOMPARE(shape->node, std::string("x"));
        bool dtypeNamed = false, typeMissing = false, idMissing = false, badRef = false;
        for (const auto &d : r.diagnostics) {
            dtypeNamed = dtypeNamed || (d.node == "z" && d.field == "dtype");
            typeMissing = typeMissing || (d.node == "a" && d.field == "type");
            idMissing = idMissing || (d.code == "node.invalid" && d.field == "nodes[1]");
            badRef = badRef || (d.node == "b" && d.field == "inputs");
        }
        QVERIFY(dtypeNamed);
        QVERIFY(typeMissing);
        QVERIFY(idMissing);
        QVERIFY(badRef);
        QVERIFY(findCode(r.diagnostics, "output.invalid"));
    }

    void portReferences() {
        QCOMPARE(PortRef::parse("lstm:h_n").node, std::string("lstm"));
        QCOMPARE(PortRef::parse("lstm:h_n").port, std::string("h_n"));
        QCOMPARE(PortRef::parse("conv1").port, std::string());
        QCOMPARE(PortRef::parse("lstm:h_n").toString(), std::string("lstm:h_n"));
    }

    void roundTripIsLossless() {
        const json original = json::parse(kSmall);
        const ParseResult r = parseSpecJson(original);
        QVERIFY(r.ok());
        QCOMPARE(toJson(r.spec), original);
        // Unknown fields and metadata survive too (with a warning).
        json extended = original;
        extended["metadata"] = {{"owner", "lab"}};
        extended["x-tool"] = {1, 2, 3};
        extended["nodes"][0]["comment"] = "first layer";
        const ParseResult e = parseSpecJson(extended);
        QVERIFY(e.ok());
        QVERIFY(findCode(e.diagnostics, "spec.unknown_field"));
        QCOMPARE(toJson(e.spec), extended);
    }

    void templatesRoundTrip() {
        const QDir dir(diamond::test::sourcePath(QStringLiteral("resources/templates")));
        const QStringList files = dir.entryList({QStringLiteral("*.json")});
        QVERIFY(files.size() >= 7);
        for (const QString &f : files) {
            const json original = json::parse(readFile(dir.filePath(f)));
            const ParseResult r = parseSpecJson(original);
            QVERIFY2(r.ok(), qPrintable(f));
            QVERIFY2(toJson(r.spec) == original, qPrintable(f));
            QVERIFY2(toJson(parseSpecJson(toJson(r.spec)).spec) == original, qPrintable(f));
        }
    }

    void deepNestingIsRefusedQuickly() {
        std::string deep(200000, '[');
        deep += std::string(200000, ']');
        const ParseResult r = parseSpec(deep);
        const Diagnostic *d = findCode(r.diagnostics, "json.too_deep");
        QVERIFY(d);
        QCOMPARE(d->line, 1);
        QCOMPARE(d->column, 65);
        // Brackets inside strings do not count.
        std::string text = "{\"format\": \"diamond.spec/1\", \"name\": \"" + std::string(1000, '[') +
                           "\", \"inputs\": [], \"nodes\": [], \"outputs\": []}";
        QVERIFY(!findCode(parseSpec(text).diagnostics, "json.too_deep"));
    }

    void hugeDimensionsAreErrorsNotCrashes() {
        const ParseResult r = parseSpec(R"({"format": "diamond.spec/1",
            "inputs": [{"name": "x", "shape": ["N", 99999999999999999999999]}], "nodes": [], "outputs": []})");
        QVERIFY(!r.ok());
        QVERIFY(findCode(r.diagnostics, "input.invalid"));
    }

    void millionNodesGetAClearError() {
        std::string text = R"({"format": "diamond.spec/1", "inputs": [{"name": "x", "shape": ["N", 2]}], "nodes": [)";
        text.reserve(48u << 20);
        for (int i = 0; i < 1000000; ++i) {
            if (i) text += ',';
            text += "{\"id\":\"n" + std::to_string(i) + "\",\"type\":\"ReLU\",\"inputs\":[\"x\"]}";
        }
        text += "], \"outputs\": [{\"name\": \"y\", \"from\": \"n0\"}]}";
        QElapsedTimer timer;
        timer.start();
        const ParseResult r = parseSpec(text);
        const Diagnostic *d = findCode(r.diagnostics, "spec.too_large");
        QVERIFY(d);
        QVERIFY(d->message.find("1000000") != std::string::npos);
        QVERIFY(r.spec.nodes.empty());
        qInfo("1e6-node document refused in %lld ms", static_cast<long long>(timer.elapsed()));
    }

    void oversizedTextIsRefused() {
        SpecLimits limits;
        limits.maxTextBytes = 100;
        const ParseResult r = parseSpec(std::string(200, ' '), limits);
        QVERIFY(findCode(r.diagnostics, "spec.too_large"));
    }

    void missingFileIsAnIoDiagnostic() {
        const ParseResult r = loadSpecFile("/nonexistent/diamond/spec.json");
        const Diagnostic *d = findCode(r.diagnostics, "io");
        QVERIFY(d);
        QVERIFY(d->message.find("/nonexistent/diamond/spec.json") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSpecParser)
#include "tst_spec_parser.moc"
