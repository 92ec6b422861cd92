// GraphDocument without widgets: edits give the spec library's shapes and diagnostics, undo and
// redo are exact, scrubs and drags merge, paste makes fresh ids, templates round-trip unchanged.
#include "common/test_paths.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/graph_layout.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSet>
#include <QSignalSpy>
#include <QUndoStack>
#include <QtTest>

using diamond::ui::GraphConnection;
using diamond::ui::GraphDocument;
using diamond::ui::GraphPortRef;

namespace {

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool hasCode(const QVector<diamond::spec::Diagnostic> &diags, const char *code) {
    for (const auto &d : diags)
        if (d.code == code) return true;
    return false;
}

/// input [N,4] -> fc (Linear 8) -> out
struct SmallNet {
    QString in, fc, out;
};

SmallNet buildSmallNet(GraphDocument &doc) {
    SmallNet n;
    n.in = doc.addNode(QStringLiteral("Input"), {0, 0}, QStringLiteral("x"));
    doc.setParam(n.in, QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 4});
    n.fc = doc.addNode(QStringLiteral("Linear"), {0, 100}, QStringLiteral("fc"));
    doc.setParam(n.fc, QStringLiteral("out_features"), 8);
    n.out = doc.addNode(QStringLiteral("Output"), {0, 200});
    doc.connectPorts({n.in, {}}, n.fc, 0);
    doc.connectPorts({n.fc, {}}, n.out, 0);
    return n;
}

} // namespace

class TestGraphDocument : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void editsGiveShapesParamsAndFlops() {
        GraphDocument doc;
        QSignalSpy analysed(&doc, &GraphDocument::analysisChanged);
        const SmallNet n = buildSmallNet(doc);
        QVERIFY(analysed.count() >= 5);
        QCOMPARE(doc.shapeText({n.in, {}}), QStringLiteral("[N,4]"));
        QCOMPARE(doc.shapeText({n.fc, {}}), QStringLiteral("[N,8]"));
        QCOMPARE(doc.paramCount(n.fc), qint64(4 * 8 + 8));
        QCOMPARE(doc.flops(n.fc), qint64(2 * 4 * 8 + 8));
        QCOMPARE(doc.totalParams(), qint64(40));
        QCOMPARE(doc.errorCount(), 0);
        QVERIFY(doc.diagnostics(n.fc).isEmpty());
        // The spec written for the engine: the output is named and comes from fc.
        const nlohmann::json j = doc.toJson();
        QCOMPARE(QString::fromStdString(j["outputs"][0]["from"].get<std::string>()), QStringLiteral("fc"));
        QCOMPARE(QString::fromStdString(j["outputs"][0]["name"].get<std::string>()), QStringLiteral("output"));
        // A parameter edit changes the shape downstream.
        QVERIFY(doc.setParam(n.fc, QStringLiteral("out_features"), 3));
        QCOMPARE(doc.shapeText({n.fc, {}}), QStringLiteral("[N,3]"));
        QCOMPARE(doc.paramCount(n.fc), qint64(4 * 3 + 3));
        // Memory grows with the batch.
        QVERIFY(doc.memoryEstimate(64).total() > doc.memoryEstimate(1).total());
    }

    void cycleIsRejected() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        const QString relu = doc.addNode(QStringLiteral("ReLU"), {0, 300});
        QVERIFY(doc.connectPorts({n.fc, {}}, relu, 0));
        const QString add = doc.addNode(QStringLiteral("Add"), {0, 400});
        QVERIFY(doc.connectPorts({relu, {}}, add, 0));
        QVERIFY(doc.connectPorts({n.fc, {}}, add, 1));
        const int steps = doc.undoStack()->count();
        QString reason;
        // fc -> relu -> add; add -> fc would close a loop (fc has one input slot: replacing it).
        QVERIFY(!doc.connectPorts({add, {}}, n.fc, 0, &reason));
        QVERIFY2(reason.contains(QStringLiteral("cycle")), qPrintable(reason));
        QVERIFY(!doc.connectPorts({relu, {}}, relu, 0, &reason));
        QCOMPARE(doc.undoStack()->count(), steps);
        QCOMPARE(doc.inputs(n.fc).first().node, n.in);
        // Unknown ports and slots are refused with a reason too.
        QVERIFY(!doc.connectPorts({n.fc, QStringLiteral("h_n")}, relu, 0, &reason));
        QVERIFY(!doc.connectPorts({n.fc, {}}, n.in, 0, &reason));
    }

    void invalidConnectionGivesDiagnosticOnTheConsumer() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        const QString conv = doc.addNode(QStringLiteral("Conv2d"), {200, 100});
        QVERIFY(doc.connectPorts({n.in, {}}, conv, 0)); // [N,4] into a 2-D convolution
        const auto diags = doc.diagnostics(conv);
        QVERIFY(!diags.isEmpty());
        QCOMPARE(diags.first().severity, diamond::spec::Severity::Error);
        QVERIFY(hasCode(diags, "shape.rank"));
        QVERIFY(!diags.first().hint.empty());
        QVERIFY(doc.diagnostics(n.in).isEmpty());
        QVERIFY(doc.diagnostics(n.fc).isEmpty());
        QCOMPARE(doc.connectionDiagnostics(GraphConnection{{n.in, {}}, conv, 0}).size(), 1);
        QVERIFY(doc.connectionDiagnostics(GraphConnection{{n.in, {}}, n.fc, 0}).isEmpty());
        QVERIFY(doc.errorCount() >= 1);
        // A new Linear with no input is an error on that node.
        const QString lonely = doc.addNode(QStringLiteral("Linear"), {400, 100});
        QVERIFY(hasCode(doc.diagnostics(lonely), "node.inputs"));
        // An unconnected output is flagged on the output node.
        const QString out2 = doc.addNode(QStringLiteral("Output"), {400, 300});
        QVERIFY(hasCode(doc.diagnostics(out2), "output.unconnected"));
    }

    void undoBackToEmptyAndRedo() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        doc.renameNode(n.fc, QStringLiteral("dense"));
        doc.moveNodes({{QStringLiteral("dense"), QPointF(40, 120)}}, doc.newMergeSession());
        const nlohmann::json full = doc.toJson();
        QUndoStack *stack = doc.undoStack();
        while (stack->canUndo())
            stack->undo();
        QCOMPARE(doc.nodeCount(), 0);
        QCOMPARE(doc.connections().size(), 0);
        QCOMPARE(doc.totalParams(), qint64(0));
        while (stack->canRedo())
            stack->redo();
        QCOMPARE(doc.toJson(), full);
        QCOMPARE(doc.shapeText({QStringLiteral("dense"), {}}), QStringLiteral("[N,8]"));
    }

    void removeTakesEdgesAndUndoRestores() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        const nlohmann::json before = doc.toJson();
        const int steps = doc.undoStack()->count();
        QVERIFY(doc.removeNodes({n.fc}));
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(!doc.hasNode(n.fc));
        QVERIFY(doc.inputs(n.out).isEmpty());
        doc.undoStack()->undo();
        QCOMPARE(doc.toJson(), before);
        // Several at once: one step.
        QVERIFY(doc.removeNodes({n.in, n.fc, n.out}));
        QCOMPARE(doc.nodeCount(), 0);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        doc.undoStack()->undo();
        QCOMPARE(doc.toJson(), before);
    }

    void scrubsAndDragsMergeIntoOneStep() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        QUndoStack *stack = doc.undoStack();
        const int steps = stack->count();
        for (int v = 9; v <= 40; ++v)
            doc.setParam(n.fc, QStringLiteral("out_features"), v);
        QCOMPARE(stack->count(), steps + 1);
        QCOMPARE(doc.shapeText({n.fc, {}}), QStringLiteral("[N,40]"));
        stack->undo();
        QCOMPARE(doc.param(n.fc, QStringLiteral("out_features")).toInt(), 8);
        QCOMPARE(doc.shapeText({n.fc, {}}), QStringLiteral("[N,8]"));
        stack->redo();
        // A different parameter is a new step.
        doc.setParam(n.fc, QStringLiteral("bias"), false);
        QCOMPARE(stack->count(), steps + 2);
        // Setting a parameter back to its default removes it from the spec.
        doc.setParam(n.fc, QStringLiteral("bias"), true);
        QVERIFY(!doc.params(n.fc).contains(QStringLiteral("bias")));

        const int beforeDrag = stack->count();
        const int session = doc.newMergeSession();
        for (int i = 1; i <= 20; ++i)
            doc.moveNodes({{n.fc, QPointF(i * 5, 100 + i)}, {n.out, QPointF(i * 5, 200 + i)}}, session);
        QCOMPARE(stack->count(), beforeDrag + 1);
        QCOMPARE(doc.position(n.fc), QPointF(100, 120));
        doc.moveNodes({{n.fc, QPointF(0, 0)}}, doc.newMergeSession());
        QCOMPARE(stack->count(), beforeDrag + 2);
        stack->undo();
        stack->undo();
        QCOMPARE(doc.position(n.fc), QPointF(0, 100));
        QCOMPARE(doc.position(n.out), QPointF(0, 200));
    }

    void copyPasteGivesFreshIds() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        const QByteArray fragment = doc.copy({n.in, n.fc});
        const int steps = doc.undoStack()->count();
        const QStringList pasted = doc.paste(fragment, QPointF(300, 0));
        QCOMPARE(pasted.size(), 2);
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(doc.nodeCount(), 5);
        const QStringList all = doc.nodeIds();
        const QSet<QString> ids(all.begin(), all.end());
        QCOMPARE(ids.size(), 5);
        for (const QString &id : pasted)
            QVERIFY(id != n.in && id != n.fc);
        // The internal connection is kept and points at the new copy, not the original.
        QCOMPARE(doc.inputs(pasted[1]).size(), 1);
        QCOMPARE(doc.inputs(pasted[1]).first().node, pasted[0]);
        QCOMPARE(doc.position(pasted[1]), QPointF(300, 100));
        QCOMPARE(doc.shapeText({pasted[1], {}}), QStringLiteral("[N,8]"));
        // Pasting again gives yet other ids.
        const QStringList again = doc.paste(fragment, QPointF(600, 0));
        QCOMPARE(again.size(), 2);
        QVERIFY(!pasted.contains(again[0]) && !pasted.contains(again[1]));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.nodeCount(), 3);
        QVERIFY(doc.paste("not json", {}).isEmpty());
        // Hostile fragments are refused or cleaned, never thrown at the GUI.
        QVERIFY(doc.paste(R"({"format": 5, "nodes": []})", {}).isEmpty());
        const QStringList odd = doc.paste(R"({"format": "diamond.fragment/1", "nodes": [3, {"id": "q", "type":
            "ReLU", "x": "left", "params": [1], "inputs": [7, "nowhere"]}, {"id": "o", "type": "Output",
            "params": {"name": 5}}, {"id": "z", "type": "NoSuchLayer"}]})",
                                          {});
        QCOMPARE(odd.size(), 2);
        QCOMPARE(doc.position(odd[0]), QPointF(0, 0));
        QVERIFY(doc.inputs(odd[0]).isEmpty());
    }

    void recomputeMarksAreOneUndoStepAndTravel() {
        GraphDocument doc;
        // x -> fc -> (ReLU, Linear 64) x 5 -> out: a chain of eleven layers.
        const SmallNet n = buildSmallNet(doc);
        QString last = n.fc;
        QStringList chain{n.fc};
        for (const char *type :
             {"ReLU", "Linear", "ReLU", "Linear", "ReLU", "Linear", "ReLU", "Linear", "ReLU", "Linear"}) {
            const QString id = doc.addNode(QLatin1String(type), {0, 0});
            if (QLatin1String(type) == QLatin1String("Linear")) doc.setParam(id, QStringLiteral("out_features"), 64);
            doc.connectPorts({last, {}}, id, 0);
            last = id;
            chain << id;
        }
        doc.connectPorts({last, {}}, n.out, 0);
        QCOMPARE(doc.errorCount(), 0);
        const qint64 plain = doc.memoryEstimate(256).activations;
        QVERIFY(!doc.canRecompute(n.in));
        QVERIFY(!doc.canRecompute(n.out));
        QVERIFY(doc.canRecompute(n.fc));
        QSignalSpy changed(&doc, &GraphDocument::nodeParamsChanged);
        const int steps = doc.undoStack()->count();
        QVERIFY(doc.setRecompute(doc.nodeIds(), true)); // inputs and outputs are skipped
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QCOMPARE(changed.count(), int(chain.size()));
        for (const QString &id : chain)
            QVERIFY(doc.recomputes(id));
        QVERIFY(!doc.recomputes(n.in));
        QVERIFY(!doc.setRecompute(chain, true)); // nothing changes: no step
        QCOMPARE(doc.undoStack()->count(), steps + 1);
        QVERIFY(doc.memoryEstimate(256).activations < plain);
        // The spec and the clipboard carry the marks.
        const diamond::spec::Spec s = doc.toSpec();
        int inSpec = 0;
        for (const auto &node : s.nodes)
            inSpec += node.recompute ? 1 : 0;
        QCOMPARE(inSpec, int(chain.size()));
        const QStringList pasted = doc.paste(doc.copy({n.fc, chain.at(1)}), {300, 0});
        QCOMPARE(pasted.size(), 2);
        QVERIFY(doc.recomputes(pasted.first()));
        doc.undoStack()->undo(); // the paste
        doc.undoStack()->undo(); // the marks
        for (const QString &id : chain)
            QVERIFY(!doc.recomputes(id));
        QCOMPARE(doc.memoryEstimate(256).activations, plain);
        doc.undoStack()->redo();
        QVERIFY(doc.recomputes(chain.last()));
        // Loaded back from the spec.
        GraphDocument copy;
        QVERIFY(copy.loadSpec(doc.toSpec()));
        QVERIFY(copy.recomputes(chain.first()));
        // A fragment that marks an input is not believed.
        const QByteArray hostile = QByteArrayLiteral(
            R"({"format": "diamond.fragment/1", "nodes": [{"id": "x9", "type": "Input", "recompute": true, "params": {}}]})");
        const QStringList added = copy.paste(hostile, {0, 0});
        for (const QString &id : added)
            QVERIFY(!copy.recomputes(id));
    }

    void renameUpdatesReferences() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        QString reason;
        QVERIFY(!doc.renameNode(n.fc, QStringLiteral("has space"), &reason));
        QVERIFY(!reason.isEmpty());
        QVERIFY(!doc.renameNode(n.fc, n.in, &reason));
        QVERIFY(doc.renameNode(n.fc, QStringLiteral("classifier")));
        QCOMPARE(doc.inputs(n.out).first().node, QStringLiteral("classifier"));
        QCOMPARE(doc.errorCount(), 0);
        doc.undoStack()->undo();
        QCOMPARE(doc.inputs(n.out).first().node, n.fc);
    }

    void openEndedMergesGrowTheirSlots() {
        GraphDocument doc;
        const SmallNet n = buildSmallNet(doc);
        const QString add = doc.addNode(QStringLiteral("Add"), {0, 300});
        QCOMPARE(doc.inputSlotCount(add), 2);
        QVERIFY(doc.connectPorts({n.fc, {}}, add, 0));
        QVERIFY(doc.connectPorts({n.fc, {}}, add, 1));
        QCOMPARE(doc.inputSlotCount(add), 3);
        QVERIFY(doc.connectPorts({n.fc, {}}, add, 2));
        QCOMPARE(doc.shapeText({add, {}}), QStringLiteral("[N,8]"));
        QVERIFY(doc.disconnectInput(add, 0));
        QCOMPARE(doc.inputs(add).size(), 2);
        QCOMPARE(doc.inputSlotCount(n.in), 0);
        QCOMPARE(doc.outputPorts(doc.addNode(QStringLiteral("LSTM"), {})),
                 (QStringList{QStringLiteral("out"), QStringLiteral("h_n"), QStringLiteral("c_n")}));
    }

    void everyTemplateRoundTripsUnchanged_data() {
        QTest::addColumn<QString>("path");
        const QDir dir(diamond::test::sourcePath(QStringLiteral("resources/templates")));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 7);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void everyTemplateRoundTripsUnchanged() {
        QFETCH(QString, path);
        const QByteArray text = readFile(path);
        const auto parsed = diamond::spec::parseSpec(text.toStdString());
        QVERIFY(parsed.ok());
        GraphDocument doc;
        QString error;
        QVERIFY2(doc.loadSpec(parsed.spec, &error), qPrintable(error));
        QVERIFY(!doc.needsLayout());
        QCOMPARE(doc.toJson(), diamond::spec::toJson(parsed.spec));
        QCOMPARE(doc.toJson(), nlohmann::json::parse(text.toStdString()));
        QCOMPARE(doc.errorCount(), 0);
        // Through the designer's own loader, and again from its output.
        GraphDocument again;
        QVERIFY(again.loadJson(QByteArray::fromStdString(doc.toJson().dump()), &error));
        QCOMPARE(again.toJson(), doc.toJson());
        QCOMPARE(again.totalParams(), qint64(diamond::spec::analyze(parsed.spec).totalParams));
        QVERIFY(again.undoStack()->count() == 0);
    }

    void loadErrorsNameLineAndNode() {
        GraphDocument doc;
        QString error;
        QVERIFY(!doc.loadJson("{\n  \"format\": \"diamond.spec/1\",\n  \"inputs\": [,]\n}", &error));
        QVERIFY2(error.contains(QStringLiteral("line 3")), qPrintable(error));
        const QByteArray dup = R"({"format":"diamond.spec/1","inputs":[{"name":"x","shape":["N",2]}],
            "nodes":[{"id":"a","type":"ReLU","inputs":["x"]},{"id":"a","type":"ReLU","inputs":["x"]}],
            "outputs":[{"name":"y","from":"a"}]})";
        QVERIFY(!doc.loadJson(dup, &error));
        QVERIFY2(error.contains(QStringLiteral("\"a\"")), qPrintable(error));
    }

    /// Pipeline stages kept in the layout: shown, moved and undone headless; hostile values show none and are kept.
    void pipelineStagesLiveInTheLayout() {
        const auto chain = [](const char *pipeline) -> QByteArray {
            return QByteArray(R"({"format":"diamond.spec/1","inputs":[{"name":"x","shape":["N",2]}],
                "nodes":[{"id":"a","type":"Linear","params":{"out_features":64},"inputs":["x"]},
                         {"id":"b","type":"ReLU","inputs":["a"]},
                         {"id":"c","type":"Linear","params":{"out_features":64},"inputs":["b"]},
                         {"id":"d","type":"Linear","params":{"out_features":3},"inputs":["c"]}],
                "outputs":[{"name":"y","from":"d"}], "layout": {"designer:pipeline": )") +
                   pipeline + "}}";
        };
        GraphDocument doc;
        QString error;
        QVERIFY2(doc.loadJson(chain(R"({"stages": 2, "cut": ["b"]})"), &error), qPrintable(error));
        QCOMPARE(doc.pipelineStages(), 2);
        QCOMPARE(doc.pipelineCut(), QStringList{QStringLiteral("b")});
        QCOMPARE(doc.pipelineStageOfNodes().value(QStringLiteral("a")), 0);
        QCOMPARE(doc.pipelineStageOfNodes().value(QStringLiteral("c")), 1);
        QSignalSpy changed(&doc, &GraphDocument::pipelineChanged);
        QVERIFY(doc.endPipelineStageAt(QStringLiteral("c")));
        QCOMPARE(doc.pipelineCut(), QStringList{QStringLiteral("c")});
        QCOMPARE(changed.size(), 1);
        QVERIFY(!doc.endPipelineStageAt(QStringLiteral("c"))); // already ends there
        doc.undoStack()->undo();
        QCOMPARE(doc.pipelineCut(), QStringList{QStringLiteral("b")});
        // A cut that no longer fits the graph (renamed away) falls back to the FLOP balance.
        QVERIFY(doc.renameNode(QStringLiteral("b"), QStringLiteral("act")));
        QCOMPARE(doc.pipelineCut().size(), 1);
        QVERIFY(doc.setPipelineStages(3));
        QCOMPARE(doc.pipelineCut().size(), 2);
        QVERIFY(!doc.setPipelineStages(9)); // four layers
        QVERIFY(doc.setPipelineStages(0));
        QCOMPARE(doc.pipelineStages(), 0);
        QVERIFY(!doc.toSpec().layout.contains("designer:pipeline"));
        // Hostile layouts show no stages, cost no time and survive a round trip untouched.
        for (const char *bad :
             {R"("three")", R"({"stages": "3"})", R"({"stages": 100000000})", R"({"stages": 3, "cut": 7})",
              R"({"stages": -2})", R"({"stages": 2, "cut": ["nope"]})"}) {
            QVERIFY2(doc.loadJson(chain(bad), &error), qPrintable(error));
            const int shown = doc.pipelineStages();
            QVERIFY2(shown == 0 || shown == 2 || shown == 3, bad);
            if (shown == 0)
                QVERIFY(doc.pipelineStageOfNodes().isEmpty());
            else
                QCOMPARE(doc.pipelineCut().size(), shown - 1); // an unusable cut is replaced, not trusted
            QCOMPARE(doc.toSpec().layout.at("designer:pipeline"), nlohmann::json::parse(bad));
        }
    }

    void specWithoutLayoutIsLaidOut() {
        const QByteArray text = R"({"format":"diamond.spec/1","inputs":[{"name":"x","shape":["N",2]}],
            "nodes":[{"id":"a","type":"Linear","params":{"out_features":4},"inputs":["x"]},
                     {"id":"b","type":"ReLU","inputs":["a"]},{"id":"c","type":"Tanh","inputs":["a"]},
                     {"id":"d","type":"Add","inputs":["b","c"]}],
            "outputs":[{"name":"y","from":"d"}]})";
        GraphDocument doc;
        QString error;
        QVERIFY2(doc.loadJson(text, &error), qPrintable(error));
        QVERIFY(doc.needsLayout());
        for (auto direction : {GraphDocument::Direction::TopToBottom, GraphDocument::Direction::LeftToRight}) {
            const QHash<QString, QPointF> pos = diamond::ui::computeLayout(doc, direction, &error);
            QCOMPARE(pos.size(), doc.nodeCount());
            // Producers come before consumers along the flow; siblings b and c share a rank.
            auto along = [&](const QString &id) {
                return direction == GraphDocument::Direction::TopToBottom ? pos[id].y() : pos[id].x();
            };
            QVERIFY(along(QStringLiteral("x")) < along(QStringLiteral("a")));
            QVERIFY(along(QStringLiteral("a")) < along(QStringLiteral("b")));
            QCOMPARE(along(QStringLiteral("b")), along(QStringLiteral("c")));
            QVERIFY(along(QStringLiteral("d")) > along(QStringLiteral("b")));
            QVERIFY(pos[QStringLiteral("b")] != pos[QStringLiteral("c")]);
            doc.applyLayout(pos, direction);
            QCOMPARE(doc.direction(), direction);
            QCOMPARE(doc.position(QStringLiteral("d")), pos[QStringLiteral("d")]);
        }
        // Auto-layout is one undo step each, and the direction is saved with the layout.
        QCOMPARE(doc.undoStack()->count(), 2);
        QCOMPARE(doc.toJson()["layout"]["designer:direction"].get<std::string>(), std::string("LR"));
        doc.undoStack()->undo();
        QCOMPARE(doc.direction(), GraphDocument::Direction::TopToBottom);
    }
};

QTEST_GUILESS_MAIN(TestGraphDocument)
#include "tst_graph_document.moc"
