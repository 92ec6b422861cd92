// The designer on the real canvas: layers dropped from the palette, ports connected by mouse
// drags, a parameter typed into the inspector, shapes on the edges, an error badge for a bad
// connection, undo back to empty and redo; plus the palette model, keyboard commands, export,
// and a screenshot of the CNN template (build folder, screenshots/).
#include "common/test_paths.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_items.h"
#include "ui/designer/graph_scene.h"
#include "ui/designer/graph_view.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTemporaryDir>
#include <QTreeView>
#include <QUndoStack>
#include <QtTest>

using namespace diamond::ui;

namespace {

/// The page with its panels side by side, like MainWindow's docks.
struct Host {
    QWidget window;
    DesignerPage *page;
    explicit Host(const QSize &size = QSize(1400, 900)) {
        auto *splitter = new QSplitter(&window);
        page = new DesignerPage;
        splitter->addWidget(page->palette());
        splitter->addWidget(page);
        auto *right = new QSplitter(Qt::Vertical);
        right->addWidget(page->inspector());
        right->addWidget(page->summary());
        splitter->addWidget(right);
        splitter->setSizes({240, size.width() - 560, 320});
        right->setSizes({size.height() * 3 / 5, size.height() * 2 / 5});
        page->palette()->show();
        page->inspector()->show();
        page->summary()->show();
        auto *layout = new QHBoxLayout(&window);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(splitter);
        window.resize(size);
    }
    GraphView *view() const { return page->view(); }
    QWidget *viewport() const { return page->view()->viewport(); }
    GraphScene *scene() const { return page->scene(); }
    QPoint toView(const QPointF &scenePos) const { return view()->mapFromScene(scenePos); }
};

/// Drops a palette item on the canvas the way a drag would end (QDrag cannot run offscreen).
QString drop(Host &host, const QString &type, const QPoint &at) {
    LayerPaletteModel *model = host.page->layerPalette()->model();
    std::unique_ptr<QMimeData> mime(model->mimeData({model->indexOfType(type)}));
    if (!mime) return {};
    const QStringList before = host.page->document()->nodeIds();
    QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(host.viewport(), &enter);
    QDropEvent dropEvent(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(host.viewport(), &dropEvent);
    for (const QString &id : host.page->document()->nodeIds())
        if (!before.contains(id)) return id;
    return {};
}

/// Drags with the left button from one scene point to another through the viewport.
void dragOnCanvas(Host &host, const QPointF &from, const QPointF &to) {
    const QPoint a = host.toView(from), b = host.toView(to);
    QTest::mousePress(host.viewport(), Qt::LeftButton, Qt::NoModifier, a);
    for (int i = 1; i <= 8; ++i)
        QTest::mouseMove(host.viewport(), a + (b - a) * i / 8);
    QTest::mouseRelease(host.viewport(), Qt::LeftButton, Qt::NoModifier, b);
}

void clickNode(Host &host, const QString &id) {
    NodeItem *item = host.scene()->nodeItem(id);
    QTest::mouseClick(host.viewport(), Qt::LeftButton, Qt::NoModifier, host.toView(item->mapToScene(QPointF(40, 40))));
}

} // namespace

class TestDesignerCanvas : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void buildGraphWithMouseAndKeyboard() {
        Host host;
        host.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host.window));
        GraphDocument *doc = host.page->document();

        const QString in = drop(host, QStringLiteral("Input"), QPoint(200, 120));
        const QString fc = drop(host, QStringLiteral("Linear"), QPoint(200, 300));
        const QString out = drop(host, QStringLiteral("Output"), QPoint(200, 480));
        QVERIFY(!in.isEmpty() && !fc.isEmpty() && !out.isEmpty());
        QCOMPARE(host.scene()->nodeItems().size(), 3);
        // The drop point is the node's centre (snapped to the grid).
        const QPointF centre = host.scene()->nodeItem(fc)->sceneBoundingRect().center();
        QVERIFY(QLineF(centre, host.view()->mapToScene(QPoint(200, 300))).length() < 25);

        // Connect by dragging from output ports to input ports.
        dragOnCanvas(host, host.scene()->nodeItem(in)->outputAnchor(0), host.scene()->nodeItem(fc)->inputAnchor(0));
        dragOnCanvas(host, host.scene()->nodeItem(fc)->outputAnchor(0), host.scene()->nodeItem(out)->inputAnchor(0));
        QCOMPARE(doc->connections().size(), 2);
        EdgeItem *e1 = host.scene()->edgeItem(fc, 0);
        QVERIFY(e1);
        QCOMPARE(e1->label(), QStringLiteral("[N,2]"));
        QCOMPARE(host.scene()->edgeItem(out, 0)->label(), QStringLiteral("[N,64]"));
        QVERIFY(!host.scene()->nodeItem(fc)->badge()->isVisible());

        // Type a parameter into the inspector.
        clickNode(host, fc);
        QCOMPARE(host.page->inspectorPanel()->nodeId(), fc);
        auto *spin = qobject_cast<QSpinBox *>(host.page->inspectorPanel()->editor(QStringLiteral("out_features")));
        QVERIFY(spin);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("10"));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(doc->param(fc, QStringLiteral("out_features")).toInt(), 10);
        QCOMPARE(host.scene()->edgeItem(out, 0)->label(), QStringLiteral("[N,10]"));
        QCOMPARE(host.page->inspectorPanel()->outputShapeText(), QStringLiteral("[N,10]"));
        QVERIFY(host.page->summaryPanel()->paramsText().contains(QStringLiteral("30")));
        QCOMPARE(host.page->summaryPanel()->errorsText(), QStringLiteral("None"));
        // The input's shape typed as text: [N,6] gives 6*10+10 parameters.
        clickNode(host, in);
        auto *shape = qobject_cast<QLineEdit *>(host.page->inspectorPanel()->editor(QStringLiteral("shape")));
        QVERIFY(shape);
        shape->setFocus();
        shape->selectAll();
        QTest::keyClicks(shape, QStringLiteral("N, 6"));
        QTest::keyClick(shape, Qt::Key_Return);
        QCOMPARE(host.scene()->edgeItem(fc, 0)->label(), QStringLiteral("[N,6]"));
        QCOMPARE(doc->totalParams(), qint64(70));

        // An invalid connection: a 2-D convolution fed by [N,10] shows a badge and a red edge.
        const QString conv = drop(host, QStringLiteral("Conv2d"), QPoint(520, 480));
        dragOnCanvas(host, host.scene()->nodeItem(fc)->outputAnchor(0), host.scene()->nodeItem(conv)->inputAnchor(0));
        BadgeItem *badge = host.scene()->nodeItem(conv)->badge();
        QVERIFY(badge->isVisible());
        QVERIFY(badge->isError());
        QVERIFY2(badge->toolTip().contains(conv), qPrintable(badge->toolTip()));
        EdgeItem *bad = host.scene()->edgeItem(conv, 0);
        QVERIFY(bad && bad->isInvalid());
        QVERIFY(!bad->toolTip().isEmpty());
        QVERIFY(!host.scene()->edgeItem(out, 0)->isInvalid());
        QVERIFY(host.page->summaryPanel()->errorsText().contains(QStringLiteral("1 error")));

        // A refused cycle leaves the document alone and says why.
        QSignalSpy messages(host.page, &DesignerPage::message);
        const int edges = doc->connections().size();
        dragOnCanvas(host, host.scene()->nodeItem(conv)->outputAnchor(0), host.scene()->nodeItem(fc)->inputAnchor(0));
        QCOMPARE(doc->connections().size(), edges);
        QCOMPARE(messages.count(), 1);

        // Undo back to empty, then redo everything.
        const nlohmann::json full = doc->toJson();
        QUndoStack *stack = host.page->undoStack();
        while (stack->canUndo())
            stack->undo();
        QCOMPARE(doc->nodeCount(), 0);
        QCOMPARE(host.scene()->nodeItems().size(), 0);
        QCOMPARE(host.scene()->edgeItems().size(), 0);
        while (stack->canRedo())
            stack->redo();
        QCOMPARE(doc->toJson(), full);
        QCOMPARE(host.scene()->edgeItems().size(), 3);
        QVERIFY(host.scene()->nodeItem(conv)->badge()->isVisible());
        QCOMPARE(host.scene()->edgeItem(fc, 0)->label(), QStringLiteral("[N,6]"));
    }

    void moveRubberBandCopyPasteDelete() {
        Host host;
        host.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host.window));
        GraphDocument *doc = host.page->document();
        QVERIFY(host.page->newFromTemplate(QStringLiteral(":/templates/mlp.json")));
        QVERIFY(!host.page->isModified());
        const int nodes = doc->nodeCount();
        QVERIFY(nodes >= 6);
        const QString fc1 = QStringLiteral("fc1");
        const QPointF start = doc->position(fc1);

        // Drag a node: it follows in grid steps and the whole drag is one undo step.
        NodeItem *item = host.scene()->nodeItem(fc1);
        const QPointF grip = item->mapToScene(QPointF(60, 40));
        const int steps = host.page->undoStack()->count();
        dragOnCanvas(host, grip, grip + QPointF(163, 47));
        QCOMPARE(host.page->undoStack()->count(), steps + 1);
        const QPointF moved = doc->position(fc1);
        QVERIFY(moved != start);
        QCOMPARE(std::fmod(moved.x(), 20.0), 0.0);
        QCOMPARE(item->pos(), moved);
        QVERIFY(host.page->isModified());
        host.page->undoStack()->undo();
        QCOMPARE(doc->position(fc1), start);

        // Rubber band from empty space selects what it touches.
        host.view()->setFocus();
        QTest::keyClick(host.viewport(), Qt::Key_F);
        host.scene()->clearSelection();
        const QRectF all = host.scene()->contentRect();
        dragOnCanvas(host, all.topLeft() - QPointF(30, 30), all.bottomRight() + QPointF(30, 30));
        QCOMPARE(host.scene()->selectedNodeIds().size(), nodes);

        // Ctrl+C / Ctrl+V: fresh ids, one step; Delete removes the selection in one step.
        QTest::keyClick(host.view(), Qt::Key_C, Qt::ControlModifier);
        QTest::keyClick(host.view(), Qt::Key_V, Qt::ControlModifier);
        QCOMPARE(doc->nodeCount(), 2 * nodes);
        const QStringList pasted = host.scene()->selectedNodeIds();
        QCOMPARE(pasted.size(), nodes);
        QVERIFY(!pasted.contains(fc1));
        QCOMPARE(doc->shapeText({pasted[1], {}}), doc->shapeText({fc1, {}}));
        QTest::keyClick(host.view(), Qt::Key_Delete);
        QCOMPARE(doc->nodeCount(), nodes);
        host.page->undoStack()->undo();
        QCOMPARE(doc->nodeCount(), 2 * nodes);

        // Zoom keys and fit.
        const qreal z = host.view()->zoom();
        QTest::keyClick(host.view(), Qt::Key_Plus);
        QVERIFY(host.view()->zoom() > z);
        QTest::keyClick(host.view(), Qt::Key_Minus);
        QTest::keyClick(host.view(), Qt::Key_Minus);
        QVERIFY(host.view()->zoom() < z);
        QTest::keyClick(host.view(), Qt::Key_F);
        const QRect visible = host.view()->mapFromScene(host.scene()->contentRect()).boundingRect();
        QVERIFY(host.viewport()->rect().adjusted(-2, -2, 2, 2).contains(visible));
    }

    void pickUpConnectionsPanAndWheelZoom() {
        Host host;
        host.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host.window));
        GraphDocument *doc = host.page->document();
        QVERIFY(host.page->newFromTemplate(QStringLiteral(":/templates/mlp.json")));
        host.page->zoomToFit();
        QUndoStack *stack = host.page->undoStack();
        const QString relu1 = QStringLiteral("relu1"), fc2 = QStringLiteral("fc2"), relu2 = QStringLiteral("relu2");

        // Drag the connection off fc2's input onto empty canvas: it is removed (one step).
        NodeItem *fc2Item = host.scene()->nodeItem(fc2);
        const QPointF in = fc2Item->inputAnchor(0);
        dragOnCanvas(host, in, in + QPointF(260, -30));
        QVERIFY(doc->inputs(fc2).isEmpty());
        QVERIFY(!host.scene()->edgeItem(fc2, 0));
        stack->undo();
        QCOMPARE(doc->inputs(fc2).first().node, relu1);
        QVERIFY(host.scene()->edgeItem(fc2, 0)->isVisible());

        // Picking it up and dropping it back changes nothing.
        const int steps = stack->count();
        dragOnCanvas(host, in, in);
        QCOMPARE(stack->count(), steps);
        QVERIFY(host.scene()->edgeItem(fc2, 0)->isVisible());

        // Moving it to another layer's input reconnects in one undo step.
        doc->addNode(QStringLiteral("Linear"), QPointF(300, 300), QStringLiteral("side"));
        dragOnCanvas(host, in, host.scene()->nodeItem(QStringLiteral("side"))->inputAnchor(0));
        QCOMPARE(doc->inputs(QStringLiteral("side")).first().node, relu1);
        QVERIFY(doc->inputs(fc2).isEmpty());
        stack->undo();
        QCOMPARE(doc->inputs(fc2).first().node, relu1);
        QVERIFY(doc->inputs(QStringLiteral("side")).isEmpty());

        // Select an edge by clicking it, then Delete disconnects it.
        EdgeItem *edge = host.scene()->edgeItem(relu2, 0);
        const QPointF mid = edge->shape().boundingRect().center();
        host.scene()->clearSelection();
        QTest::mouseClick(host.viewport(), Qt::LeftButton, Qt::NoModifier,
                          host.toView(QPointF(edge->scenePos().x() + mid.x(), mid.y())));
        QVERIFY(edge->isSelected());
        QTest::keyClick(host.view(), Qt::Key_Delete);
        QVERIFY(doc->inputs(relu2).isEmpty());
        QVERIFY(doc->hasNode(fc2));

        // Middle-button drag pans; Ctrl+wheel zooms.
        const QPointF centre = host.view()->viewCenter();
        const QPoint a(400, 400), b(250, 300);
        QTest::mousePress(host.viewport(), Qt::MiddleButton, Qt::NoModifier, a);
        QTest::mouseMove(host.viewport(), (a + b) / 2);
        QTest::mouseMove(host.viewport(), b);
        QTest::mouseRelease(host.viewport(), Qt::MiddleButton, Qt::NoModifier, b);
        QVERIFY(QLineF(host.view()->viewCenter(), centre).length() > 50);
        // Space + left drag pans too (even starting on a node), and selects or moves nothing.
        const QPointF centre2 = host.view()->viewCenter();
        const nlohmann::json before = doc->toJson();
        host.view()->setFocus();
        QTest::keyPress(host.view(), Qt::Key_Space);
        const QPoint onNode = host.toView(host.scene()->nodeItem(fc2)->sceneBoundingRect().center());
        QTest::mousePress(host.viewport(), Qt::LeftButton, Qt::NoModifier, onNode);
        QTest::mouseMove(host.viewport(), onNode + QPoint(60, 40));
        QTest::mouseMove(host.viewport(), onNode + QPoint(120, 80));
        QTest::mouseRelease(host.viewport(), Qt::LeftButton, Qt::NoModifier, onNode + QPoint(120, 80));
        QTest::keyRelease(host.view(), Qt::Key_Space);
        QVERIFY(QLineF(host.view()->viewCenter(), centre2).length() > 50);
        QCOMPARE(doc->toJson(), before);
        const qreal z = host.view()->zoom();
        QWheelEvent wheel(QPointF(300, 300), host.viewport()->mapToGlobal(QPointF(300, 300)), QPoint(), QPoint(0, 120),
                          Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(host.viewport(), &wheel);
        QVERIFY(host.view()->zoom() > z);
    }

    void paletteModelFilterAndDoubleClick() {
        Host host;
        host.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host.window));
        LayerPalette *palette = host.page->layerPalette();
        QAbstractItemModelTester tester(palette->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(palette->proxyModel(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        LayerPaletteModel *model = palette->model();
        QVERIFY(model->rowCount() >= 10);
        const QModelIndex conv = model->indexOfType(QStringLiteral("Conv2d"));
        QVERIFY(conv.isValid());
        QCOMPARE(conv.parent().data(LayerPaletteModel::FamilyRole).toString(), QStringLiteral("Convolution"));
        QVERIFY(!conv.data(Qt::DecorationRole).value<QIcon>().isNull());
        QVERIFY(model->flags(conv) & Qt::ItemIsDragEnabled);
        QVERIFY(!(model->flags(conv.parent()) & Qt::ItemIsDragEnabled));
        std::unique_ptr<QMimeData> mime(model->mimeData({conv}));
        QVERIFY(mime);
        QCOMPARE(mime->data(QLatin1String(kLayerMimeType)), QByteArray("Conv2d"));
        QVERIFY(model->mimeTypes().contains(QLatin1String(kLayerMimeType)));
        QVERIFY(model->indexOfType(QStringLiteral("Output")).isValid());

        // Typing in the search field keeps the matching layers and their family.
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("conv"));
        QSortFilterProxyModel *proxy = palette->proxyModel();
        QCOMPARE(proxy->rowCount(), 1);
        QVERIFY(proxy->rowCount(proxy->index(0, 0)) >= 4);
        palette->filterEdit()->clear();
        QVERIFY(proxy->rowCount() >= 10);
        QTest::keyClicks(palette->filterEdit(), QStringLiteral("elementwise sum")); // matches the doc of Add
        QCOMPARE(proxy->index(0, 0, proxy->index(0, 0)).data().toString(), QStringLiteral("Add"));

        // Double-click adds at the view centre; Enter in the filter adds the first match.
        QTreeView *tree = palette->treeView();
        const QModelIndex add = proxy->index(0, 0, proxy->index(0, 0));
        const QPoint p = tree->visualRect(add).center();
        QVERIFY(tree->viewport()->rect().contains(p));
        // A real double-click: press, release, then the double-click event.
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::NoModifier, p);
        QTest::mouseDClick(tree->viewport(), Qt::LeftButton, Qt::NoModifier, p);
        GraphDocument *doc = host.page->document();
        QCOMPARE(doc->nodeCount(), 1);
        const QString id = doc->nodeIds().first();
        QCOMPARE(doc->nodeType(id), QStringLiteral("Add"));
        const QPointF centre = host.scene()->nodeItem(id)->sceneBoundingRect().center();
        QVERIFY(QLineF(centre, host.view()->viewCenter()).length() < 25);
        QTest::keyClick(palette->filterEdit(), Qt::Key_Return);
        QCOMPARE(doc->nodeCount(), 2);
    }

    void openSaveExport() {
        Host host;
        QTemporaryDir dir;
        DesignerPage *page = host.page;
        QString error;
        // A broken file: the error names the file and the line.
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        QFile f(broken);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"format\": \"diamond.spec/1\",\n  \"nodes\": [\n}\n");
        f.close();
        QVERIFY(!page->openSpec(broken, &error));
        QVERIFY2(error.contains(QStringLiteral("broken.json")) && error.contains(QStringLiteral("line 4")),
                 qPrintable(error));
        // A template saved, reopened: same spec, unmodified, file remembered.
        QVERIFY(page->newFromTemplate(QStringLiteral(":/templates/lenet5.json"), &error));
        const QJsonObject spec = page->specJson();
        QSignalSpy fileChanged(page, &DesignerPage::currentFileChanged);
        QSignalSpy modified(page, &DesignerPage::modifiedChanged);
        QVERIFY(page->document()->setParam(QStringLiteral("fc3"), QStringLiteral("out_features"), 7));
        QCOMPARE(modified.count(), 1);
        QCOMPARE(modified.last().first().toBool(), true);
        page->undoStack()->undo();
        QCOMPARE(modified.last().first().toBool(), false);
        page->undoStack()->redo();
        const QString saved = dir.filePath(QStringLiteral("lenet.json"));
        QVERIFY2(page->saveSpec(saved, &error), qPrintable(error));
        QCOMPARE(modified.last().first().toBool(), false);
        QVERIFY(!page->isModified());
        QCOMPARE(fileChanged.count(), 1);
        QCOMPARE(page->title(), QStringLiteral("lenet.json"));
        QVERIFY(page->openSpec(saved, &error));
        QCOMPARE(page->currentFile(), saved);
        QVERIFY(!page->isModified());
        QVERIFY(page->specJson() != spec); // fc3 has 7 outputs now
        page->document()->setParam(QStringLiteral("fc3"), QStringLiteral("out_features"), 10);
        QCOMPARE(page->specJson(), spec);
        QVERIFY(page->isModified());
        // Export PNG and SVG.
        const QString png = dir.filePath(QStringLiteral("net.png")), svg = dir.filePath(QStringLiteral("net.svg"));
        QVERIFY2(page->exportImage(png, &error), qPrintable(error));
        QVERIFY2(page->exportImage(svg, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(image.width() > 300 && image.height() > 600);
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
        QVERIFY(!page->exportImage(dir.filePath(QStringLiteral("net.bmpx")), &error));
        // A spec without layout is laid out on open (no overlapping nodes), and autoLayout is undoable.
        const QString bare = dir.filePath(QStringLiteral("bare.json"));
        QFile b(bare);
        QVERIFY(b.open(QIODevice::WriteOnly));
        b.write(R"({"format":"diamond.spec/1","inputs":[{"name":"x","shape":["N",2]}],
            "nodes":[{"id":"a","type":"Linear","params":{"out_features":4},"inputs":["x"]},
                     {"id":"b","type":"ReLU","inputs":["a"]},{"id":"c","type":"Tanh","inputs":["a"]},
                     {"id":"d","type":"Add","inputs":["b","c"]}],
            "outputs":[{"name":"y","from":"d"}]})");
        b.close();
        QVERIFY2(page->openSpec(bare, &error), qPrintable(error));
        const QList<NodeItem *> items = host.scene()->nodeItems();
        for (NodeItem *x : items)
            for (NodeItem *y : items)
                if (x != y) QVERIFY(!x->sceneBoundingRect().adjusted(4, 4, -4, -4).intersects(y->sceneBoundingRect()));
        page->autoLayoutDirection(GraphDocument::Direction::LeftToRight);
        QCOMPARE(page->undoStack()->count(), 1);
        QVERIFY(page->document()->position(QStringLiteral("d")).x() >
                page->document()->position(QStringLiteral("a")).x());
    }

    void screenshotOfTheCnnTemplate() {
        Host host(QSize(1400, 900));
        host.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host.window));
        QString error;
        QVERIFY2(host.page->newFromTemplate(QStringLiteral(":/templates/cnn28.json"), &error), qPrintable(error));
        host.scene()->selectNodes({QStringLiteral("conv2")});
        QTest::qWait(50);
        const QString folder = QStringLiteral(DIAMOND_BINARY_DIR "/screenshots");
        QVERIFY(QDir().mkpath(folder));
        const QImage shot = host.window.grab().toImage();
        QVERIFY(shot.save(folder + QStringLiteral("/designer_cnn28.png")));
        // And one with an error, in the dark palette.
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(37, 37, 40));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Base, QColor(30, 30, 33));
        dark.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        dark.setColor(QPalette::Button, QColor(45, 45, 48));
        dark.setColor(QPalette::ButtonText, QColor(230, 230, 230));
        dark.setColor(QPalette::Highlight, QColor(64, 128, 255));
        dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        host.window.setPalette(dark);
        GraphDocument *doc = host.page->document();
        doc->setParam(QStringLiteral("fc1"), QStringLiteral("out_features"), 100);
        const QString conv =
            doc->addNode(QStringLiteral("Conv2d"), doc->position(QStringLiteral("fc2")) + QPointF(240, 0));
        QVERIFY(doc->connectPorts({QStringLiteral("relu3"), {}}, conv, 0));
        host.scene()->selectNodes({conv});
        host.page->zoomToFit();
        QTest::qWait(50);
        QVERIFY(host.window.grab().toImage().save(folder + QStringLiteral("/designer_cnn28_dark_error.png")));
        // Every template, light palette, for a look at larger graphs.
        host.window.setPalette(QPalette());
        const QStringList templates = QDir(QStringLiteral(":/templates")).entryList({QStringLiteral("*.json")});
        QVERIFY(templates.size() >= 7);
        for (const QString &t : templates) {
            QVERIFY(host.page->newFromTemplate(QStringLiteral(":/templates/") + t, &error));
            QCOMPARE(host.page->document()->errorCount(), 0);
            QTest::qWait(20);
            QVERIFY(host.window.grab().toImage().save(folder + QStringLiteral("/designer_template_") +
                                                      QFileInfo(t).baseName() + QStringLiteral(".png")));
        }
        // Graphviz, left to right.
        QVERIFY(host.page->newFromTemplate(QStringLiteral(":/templates/resnet18.json"), &error));
        host.page->autoLayoutDirection(GraphDocument::Direction::LeftToRight);
        host.page->view()->fitForReading();
        QTest::qWait(20);
        QVERIFY(host.window.grab().toImage().save(folder + QStringLiteral("/designer_resnet18_autolayout_lr.png")));
        host.page->autoLayoutDirection(GraphDocument::Direction::TopToBottom);
        host.page->view()->fitForReading();
        QTest::qWait(20);
        QVERIFY(host.window.grab().toImage().save(folder + QStringLiteral("/designer_resnet18_autolayout_tb.png")));
    }
};

QTEST_MAIN(TestDesignerCanvas)
#include "tst_designer_canvas.moc"
