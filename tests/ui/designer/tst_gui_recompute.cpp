// Recomputing activations from the desktop app: Edit ▸ Recompute in backward (Ctrl+Shift+R) marks the selected
// layers on the canvas (a ↻ before their type), one undo step; the inspector's checkbox marks one layer; the saved
// spec carries "recompute": true; Train runs the marked network and the engine recomputes those nodes; the run set-up's
// Activations row puts "recompute": "all", or "auto" with its budget, in the run's config; Edit ▸ Recompute to fit a
// memory budget marks the layers chosen for a budget.
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
#include "ui/designer/recompute_budget_dialog.h"
#include "ui/designer/summary_panel.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
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
        auto *mode = setup->findChild<QComboBox *>(QStringLiteral("recompute"));
        auto *budget = setup->findChild<QSpinBox *>(QStringLiteral("activationBudget"));
        QVERIFY(mode && mode->isVisible() && budget);
        QCOMPARE(mode->currentData().toString(), QStringLiteral("marked"));
        QVERIFY(!budget->isVisible());
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

        // "Recompute every layer" goes into the config; "what a budget needs" shows the budget row and puts both in;
        // back to the marks, both go out again.
        window.tabs()->setCurrentWidget(setup);
        mode->setCurrentIndex(mode->findData(QStringLiteral("all")));
        QCOMPARE(setup->config().value(QStringLiteral("recompute")).toString(), QStringLiteral("all"));
        QVERIFY(!setup->config().contains(QStringLiteral("activation_budget_mb")));
        mode->setCurrentIndex(mode->findData(QStringLiteral("auto")));
        QVERIFY(budget->isVisible());
        budget->setValue(300);
        QCOMPARE(setup->config().value(QStringLiteral("recompute")).toString(), QStringLiteral("auto"));
        QCOMPARE(setup->config().value(QStringLiteral("activation_budget_mb")).toInt(), 300);
        for (QWidget *w = budget->parentWidget(); w; w = w->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(w)) scroll->ensureWidgetVisible(budget);
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-recompute.png")));
        mode->setCurrentIndex(mode->findData(QStringLiteral("marked")));
        QVERIFY(!budget->isVisible());
        QVERIFY(!setup->config().contains(QStringLiteral("recompute")));
        QVERIFY(!setup->config().contains(QStringLiteral("activation_budget_mb")));
    }

    /// Edit ▸ Recompute to fit a memory budget: the dialog previews the layers chosen for a budget between "every
    /// layer" and "none", marking them is one undo step, and the summary's activations then fit the budget.
    void aBudgetMarksTheCheapestLayers() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws-budget")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::DesignerPage *designer = window.designer();
        window.tabs()->setCurrentWidget(designer);
        QString error;
        QVERIFY2(designer->openSpec(test::sourcePath(QStringLiteral("resources/templates/unet.json")), &error),
                 qPrintable(error));
        ui::GraphDocument *doc = designer->document();
        const int layerCount = int(layers(doc).size());
        QCOMPARE(marked(doc), 0);
        designer->summaryPanel()->batchSpin()->setValue(16);
        auto *action = window.findChild<QAction *>(QStringLiteral("recomputeBudgetAction"));
        QVERIFY(action && action->isEnabled());
        const int undoBefore = doc->undoStack()->count();
        qint64 budgetBytes = 0;
        QStringList chosen;
        bool handled = false;
        QTimer::singleShot(0, this, [&] {
            auto *dialog = qobject_cast<ui::RecomputeBudgetDialog *>(QApplication::activeModalWidget());
            QTRY_VERIFY(dialog = qobject_cast<ui::RecomputeBudgetDialog *>(QApplication::activeModalWidget()));
            auto *batch = dialog->findChild<QSpinBox *>(QStringLiteral("budgetBatch"));
            auto *budget = dialog->findChild<QSpinBox *>(QStringLiteral("budgetMiB"));
            auto *preview = dialog->findChild<QLabel *>(QStringLiteral("budgetPreview"));
            auto *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
            QVERIFY(batch && budget && preview && ok);
            QCOMPARE(batch->value(), 16); // the summary's
            // Between the ends of the range it shows.
            budget->setValue(80);
            QTRY_VERIFY(ok->isEnabled());
            QVERIFY2(preview->text().contains(QStringLiteral("layers recompute")), qPrintable(preview->text()));
            QVERIFY(
                dialog->grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/designer-recompute-budget.png")));
            budgetBytes = qint64(budget->value()) * 1024 * 1024;
            chosen = dialog->chosenLayers();
            ok->click();
            handled = true;
        });
        action->trigger();
        QVERIFY(handled);
        QVERIFY2(!chosen.isEmpty() && chosen.size() < layerCount, qPrintable(QString::number(chosen.size())));
        QCOMPARE(marked(doc), int(chosen.size()));
        QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
        QVERIFY(doc->memoryEstimate(16).activations <= budgetBytes);
        QVERIFY(
            window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/designer-recompute-budget-marked.png")));
        doc->undoStack()->undo();
        QCOMPARE(marked(doc), 0);
        doc->undoStack()->redo();
        QCOMPARE(marked(doc), int(chosen.size()));
    }
};

QTEST_MAIN(TestGuiRecompute)
#include "tst_gui_recompute.moc"
