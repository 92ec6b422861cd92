// Recomputing activations from the desktop app: Edit ▸ Recompute in backward (Ctrl+Shift+R) marks the selected
// layers on the canvas (a ↻ before their type), one undo step; the inspector's checkbox marks one layer; the saved
// spec carries "recompute": true; Train runs the marked network and the engine recomputes those nodes; the run set-up's
// "Recompute every layer in backward" puts "recompute": "all" in the run's config.
#include "common/engine_process.h"
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_items.h"
#include "ui/designer/graph_scene.h"
#include "ui/designer/graph_view.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace diamond;

class TestGuiRecompute : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static QStringList layers(const ui::GraphDocument *doc) {
        QStringList ids;
        for (const QString &id : doc->nodeIds())
            if (doc->canRecompute(id)) ids << id;
        return ids;
    }
    static int marked(const ui::GraphDocument *doc) {
        int n = 0;
        for (const QString &id : doc->nodeIds())
            n += doc->recomputes(id) ? 1 : 0;
        return n;
    }
    static ui::NodeItem *itemOf(ui::DesignerPage *designer, const QString &id) {
        for (QGraphicsItem *item : designer->scene()->items())
            if (auto *node = dynamic_cast<ui::NodeItem *>(item); node && node->id() == id) return node;
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_recompute"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
    }

    void markLayersUndoSaveAndTrain() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::DesignerPage *designer = window.designer();
        window.tabs()->setCurrentWidget(designer);
        ui::GraphDocument *doc = designer->document();
        const QStringList layerIds = layers(doc);
        QVERIFY2(layerIds.size() >= 3, qPrintable(layerIds.join(QLatin1Char(','))));
        QCOMPARE(marked(doc), 0);
        auto *action = window.findChild<QAction *>(QStringLiteral("recomputeAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));

        // Select all on the canvas, then Ctrl+Shift+R: every layer, not the inputs and outputs; one undo step.
        designer->view()->setFocus();
        QTest::keyClick(designer->view(), Qt::Key_A, Qt::ControlModifier);
        QVERIFY(designer->scene()->selectedNodeIds().size() > layerIds.size());
        const int undoBefore = doc->undoStack()->count();
        QTest::keyClick(designer->view(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(marked(doc), int(layerIds.size()));
        QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
        ui::NodeItem *first = itemOf(designer, layerIds.first());
        QVERIFY(first && first->recomputes());
        QVERIFY(first->toolTip().contains(QStringLiteral("Recomputed in backward")));
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/designer-recompute.png")));
        // All marked: the same key unmarks them; undo brings the marks back, undo again removes them.
        QTest::keyClick(designer->view(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(marked(doc), 0);
        doc->undoStack()->undo();
        QCOMPARE(marked(doc), int(layerIds.size()));
        doc->undoStack()->undo();
        QCOMPARE(marked(doc), 0);
        QVERIFY(!first->recomputes());

        // The inspector's checkbox marks the one selected layer.
        designer->scene()->clearSelection();
        itemOf(designer, layerIds.first())->setSelected(true);
        auto *check = designer->inspectorPanel()->findChild<QCheckBox *>(QStringLiteral("recomputeCheck"));
        QTRY_VERIFY(check && check->isVisible());
        QVERIFY(!check->isChecked());
        check->click();
        QVERIFY(doc->recomputes(layerIds.first()));
        QCOMPARE(marked(doc), 1);
        QVERIFY(itemOf(designer, layerIds.first())->recomputes());
        // Its neighbour too, through the canvas and the menu's shortcut.
        designer->scene()->clearSelection();
        itemOf(designer, layerIds.at(1))->setSelected(true);
        designer->view()->setFocus();
        QTest::keyClick(designer->view(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(marked(doc), 2);
        QTRY_VERIFY(check = designer->inspectorPanel()->findChild<QCheckBox *>(QStringLiteral("recomputeCheck")));
        QTRY_VERIFY(check->isChecked());
        for (QWidget *w = check->parentWidget(); w; w = w->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(w)) scroll->ensureWidgetVisible(check);
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/designer-recompute-inspector.png")));

        // Saved specs carry the marks; a reopened spec shows them.
        const QString path = dir_.filePath(QStringLiteral("marked.json"));
        QString error;
        QVERIFY2(designer->saveSpec(path, &error), qPrintable(error));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        int inFile = 0;
        for (const QJsonValue &n :
             QJsonDocument::fromJson(saved.readAll()).object().value(QStringLiteral("nodes")).toArray())
            inFile += n.toObject().value(QStringLiteral("recompute")).toBool() ? 1 : 0;
        QCOMPARE(inFile, 2);
        QVERIFY2(designer->openSpec(path, &error), qPrintable(error));
        QCOMPARE(marked(designer->document()), 2);

        // Train: the engine recomputes the two marked nodes.
        ui::RunSetupPage *setup = window.runSetup();
        window.tabs()->setCurrentWidget(setup);
        if (auto *epochs = setup->findChild<QSpinBox *>(QStringLiteral("epochs"))) epochs->setValue(1);
        if (auto *threads = setup->findChild<QSpinBox *>(QStringLiteral("threads"))) threads->setValue(1);
        auto *all = setup->findChild<QCheckBox *>(QStringLiteral("recomputeAll"));
        QVERIFY(all && all->isVisible());
        QVERIFY(!all->isChecked());
        QVERIFY(!setup->config().contains(QStringLiteral("recompute")));
        QTest::mouseClick(setup->trainButton(), Qt::LeftButton);
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY2(monitor, "Train did not open a run monitor");
        const qint64 runId = monitor->runId();
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() == app::RunState::Finished, 120000);
        const QJsonObject recompute =
            test::lastRunDirEvent(window.workspace()->runDirectory(runId), QStringLiteral("started"))
                .value(QStringLiteral("recompute"))
                .toObject();
        QCOMPARE(recompute.value(QStringLiteral("mode")).toString(), QStringLiteral("marked"));
        QCOMPARE(recompute.value(QStringLiteral("nodes")).toInt(), 2);

        // "Recompute every layer" goes into the config, and out again.
        window.tabs()->setCurrentWidget(setup);
        all->click();
        QCOMPARE(setup->config().value(QStringLiteral("recompute")).toString(), QStringLiteral("all"));
        for (QWidget *w = all->parentWidget(); w; w = w->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(w)) scroll->ensureWidgetVisible(all);
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-recompute.png")));
        all->click();
        QVERIFY(!setup->config().contains(QStringLiteral("recompute")));
    }
};

QTEST_MAIN(TestGuiRecompute)
#include "tst_gui_recompute.moc"
