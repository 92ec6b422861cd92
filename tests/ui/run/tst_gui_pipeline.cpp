// Pipeline stages from the desktop app: with 2 processes the run set-up offers "Processes work as: Each holds a stage
// of the network", which shows the micro-batches and hides the ZeRO split; the run trained from the Train button gets
// "pipeline": {"stages": 2, ...} in its config, and the engine's two processes really are stages (their started event
// lists each stage's nodes, the finished event each stage's times), with the weights of one process adding up the same
// micro-batches. In the designer, Edit ▸ Pipeline stages shows the stages as coloured bands, Edit ▸ End the pipeline
// stage here moves a cut (undoable), and a pipeline of as many processes is cut there.
#include "common/engine_process.h"
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "diamond/spec/pipeline.h"

#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/graph_items.h"
#include "ui/designer/graph_scene.h"
#include "ui/designer/graph_view.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_recommendation_view.h"
#include "ui/run/run_setup_page.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QJsonArray>
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

class TestGuiPipeline : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_pipeline"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
    }

    void theDesignerShowsStagesAndTheRunCutsThere() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws-designer")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::DesignerPage *designer = window.designer();
        window.tabs()->setCurrentWidget(designer);
        ui::GraphDocument *doc = designer->document();
        const auto stageOf = [&](const QString &id) {
            for (QGraphicsItem *item : designer->scene()->items())
                if (auto *node = dynamic_cast<ui::NodeItem *>(item); node && node->id() == id) return node->stage();
            return -2;
        };
        QCOMPARE(doc->pipelineStages(), 0);
        auto *two = window.findChild<QAction *>(QStringLiteral("pipelineStages2"));
        auto *none = window.findChild<QAction *>(QStringLiteral("pipelineStages0"));
        auto *endStage = window.findChild<QAction *>(QStringLiteral("endStageAction"));
        QVERIFY(two && none && endStage);
        const int undoBefore = doc->undoStack()->count();
        two->trigger();
        QCOMPARE(doc->pipelineStages(), 2);
        QVERIFY(two->isChecked());
        QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
        const QStringList cut = doc->pipelineCut();
        QCOMPARE(cut.size(), 1);
        // Every layer is drawn in its stage: the ones up to the cut in stage 1, the rest in stage 2.
        const QHash<QString, int> stages = doc->pipelineStageOfNodes();
        QVERIFY(stages.size() >= 3);
        QSet<int> seen;
        for (auto it = stages.begin(); it != stages.end(); ++it) {
            QCOMPARE(stageOf(it.key()), it.value());
            seen.insert(it.value());
        }
        QCOMPARE(seen, (QSet<int>{0, 1}));
        designer->zoomToFit();
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/designer-pipeline-stages.png")));

        // Select a layer of the second stage that does not end it, Ctrl+Shift+E: the first stage now ends there.
        QString moved;
        for (const std::string &id : spec::runOrder(doc->analysis())) // the first layer of stage 2 that is not its last
            if (stages.value(QString::fromStdString(id)) == 1) {
                moved = QString::fromStdString(id);
                break;
            }
        QVERIFY(!moved.isEmpty());
        designer->scene()->clearSelection();
        for (QGraphicsItem *item : designer->scene()->items())
            if (auto *node = dynamic_cast<ui::NodeItem *>(item); node && node->id() == moved) node->setSelected(true);
        designer->view()->setFocus();
        QTest::keyClick(designer->view(), Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(doc->pipelineCut(), QStringList{moved});
        QCOMPARE(stageOf(moved), 0);
        doc->undoStack()->undo();
        QCOMPARE(doc->pipelineCut(), cut);
        QCOMPARE(stageOf(moved), 1);
        doc->undoStack()->redo();
        QCOMPARE(doc->pipelineCut(), QStringList{moved});
        // Saved with the spec's layout.
        const QJsonObject layout = designer->specJson().value(QStringLiteral("layout")).toObject();
        QCOMPARE(layout.value(QStringLiteral("designer:pipeline")).toObject().value(QStringLiteral("stages")).toInt(),
                 2);

        // The run set-up's pipeline of 2 processes is cut where the designer shows it; of 3, where the engine chooses.
        ui::RunSetupPage *setup = window.runSetup();
        window.tabs()->setCurrentWidget(setup);
        setup->findChild<QSpinBox *>(QStringLiteral("processes"))->setValue(2);
        auto *parallelism = setup->findChild<QComboBox *>(QStringLiteral("parallelism"));
        parallelism->setCurrentIndex(parallelism->findData(QStringLiteral("pipeline")));
        QCOMPARE(setup->config().value(QStringLiteral("pipeline")).toObject().value(QStringLiteral("cut")).toArray(),
                 QJsonArray{moved});
        setup->findChild<QSpinBox *>(QStringLiteral("processes"))->setValue(3);
        QCOMPARE(setup->config().value(QStringLiteral("pipeline")).toObject().value(QStringLiteral("cut")).toString(),
                 QStringLiteral("auto"));
        // Hidden again: no bands.
        window.tabs()->setCurrentWidget(designer);
        none->trigger();
        QCOMPARE(doc->pipelineStages(), 0);
        QCOMPARE(stageOf(moved), -1);
    }

    /// A plan that cuts the network into stages (the planner's answer when nothing else fits) says so, and its Use
    /// this plan button sets the processes, the stages, the micro-batches and the cut.
    void aPlanWithStagesIsUsedFromItsButton() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws-plan")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::RunSetupPage *setup = window.runSetup();
        window.tabs()->setCurrentWidget(setup);
        auto *advice = setup->findChild<ui::RunRecommendationView *>();
        QVERIFY(advice);
        const QJsonObject stages{{QStringLiteral("stages"), 2},
                                 {QStringLiteral("micro_batches"), 8},
                                 {QStringLiteral("cut"), QJsonArray{QStringLiteral("relu1")}}};
        const QJsonObject plan{{QStringLiteral("target"), QStringLiteral("local")},
                               {QStringLiteral("ranks"), 2},
                               {QStringLiteral("jobs"), 1},
                               {QStringLiteral("predicted_step_s"), 0.01},
                               {QStringLiteral("predicted_total_s"), 10.0},
                               {QStringLiteral("predicted_peak_memory_bytes"), 130.0 * 1048576},
                               {QStringLiteral("confidence"), QStringLiteral("medium")},
                               {QStringLiteral("pipeline"), stages}};
        advice->setAdvice({plan, {}, false});
        QVERIFY2(advice->text().contains(QStringLiteral("each process holding one of 2 pipeline stages (cut after "
                                                        "relu1; 8 micro-batches)")),
                 qPrintable(advice->text()));
        QTest::mouseClick(advice->applyButton(), Qt::LeftButton);
        QCOMPARE(setup->execution().value(QStringLiteral("nproc")).toInt(), 2);
        QCOMPARE(setup->findChild<QComboBox *>(QStringLiteral("parallelism"))->currentData().toString(),
                 QStringLiteral("pipeline"));
        QCOMPARE(setup->config().value(QStringLiteral("pipeline")).toObject(), stages);
    }

    void twoProcessesTrainAsTwoStages() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::RunSetupPage *setup = window.runSetup();
        window.tabs()->setCurrentWidget(setup);
        auto *processes = setup->findChild<QSpinBox *>(QStringLiteral("processes"));
        auto *threads = setup->findChild<QSpinBox *>(QStringLiteral("threads"));
        auto *epochs = setup->findChild<QSpinBox *>(QStringLiteral("epochs"));
        auto *parallelism = setup->findChild<QComboBox *>(QStringLiteral("parallelism"));
        auto *micro = setup->findChild<QSpinBox *>(QStringLiteral("microBatches"));
        auto *shard = setup->findChild<QComboBox *>(QStringLiteral("sharding"));
        QVERIFY(processes && epochs && parallelism && micro && shard);
        QVERIFY(!parallelism->isVisible()); // one process: nothing to share
        if (threads) threads->setValue(1);
        epochs->setValue(2);
        processes->setValue(2);
        QVERIFY(parallelism->isVisible());
        QVERIFY(!micro->isVisible());
        QCOMPARE(parallelism->currentData().toString(), QStringLiteral("data"));
        QVERIFY(!setup->config().contains(QStringLiteral("pipeline")));
        // Alt+K focuses the row, Down picks the stages.
        QTest::keyClick(&window, Qt::Key_K, Qt::AltModifier);
        QTRY_VERIFY(parallelism->hasFocus());
        QTest::keyClick(parallelism, Qt::Key_Down);
        QCOMPARE(parallelism->currentData().toString(), QStringLiteral("pipeline"));
        QVERIFY(micro->isVisible());
        QVERIFY(!shard->isVisible()); // each stage is one process: nothing for ZeRO to split
        micro->setValue(8);
        QJsonObject pipeline = setup->config().value(QStringLiteral("pipeline")).toObject();
        QCOMPARE(pipeline.value(QStringLiteral("stages")).toInt(), 2);
        QCOMPARE(pipeline.value(QStringLiteral("micro_batches")).toInt(), 8);
        QCOMPARE(pipeline.value(QStringLiteral("cut")).toString(), QStringLiteral("auto"));
        QVERIFY(!setup->config().contains(QStringLiteral("sharding")));
        // The plan (the engine's dry run, on one process) still comes.
        QTRY_VERIFY2_WITH_TIMEOUT(!setup->plan().isEmpty(), qPrintable(setup->planText()), 60000);
        for (QWidget *w = parallelism->parentWidget(); w; w = w->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(w)) scroll->ensureWidgetVisible(micro);
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-pipeline.png")));
        // Three processes: three stages.
        processes->setValue(3);
        QCOMPARE(setup->config().value(QStringLiteral("pipeline")).toObject().value(QStringLiteral("stages")).toInt(),
                 3);
        processes->setValue(2);

        QTest::mouseClick(setup->trainButton(), Qt::LeftButton);
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY2(monitor, "Train did not open a run monitor");
        const qint64 runId = monitor->runId();
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() == app::RunState::Finished, 120000);
        const auto run = app::RunStore(*window.workspace()).run(runId);
        QVERIFY(run);
        QCOMPARE(run->config.value(QStringLiteral("pipeline")).toObject().value(QStringLiteral("stages")).toInt(), 2);
        QCOMPARE(run->execution.value(QStringLiteral("nproc")).toInt(), 2);
        const QString runDir = window.workspace()->runDirectory(runId);
        const QJsonObject started = test::lastRunDirEvent(runDir, QStringLiteral("started"));
        const QJsonObject stages = started.value(QStringLiteral("pipeline")).toObject();
        QCOMPARE(stages.value(QStringLiteral("stages")).toInt(), 2);
        QCOMPARE(stages.value(QStringLiteral("micro_batches")).toInt(), 8);
        QCOMPARE(stages.value(QStringLiteral("stage_nodes")).toArray().size(), 2);
        const QJsonArray times = test::lastRunDirEvent(runDir, QStringLiteral("finished"))
                                     .value(QStringLiteral("pipeline"))
                                     .toObject()
                                     .value(QStringLiteral("stages"))
                                     .toArray();
        QCOMPARE(times.size(), 2);
        qint64 parameters = 0;
        for (const QJsonValue &t : times)
            parameters += t[QStringLiteral("parameters")].toInteger();
        QCOMPARE(parameters, started.value(QStringLiteral("parameters")).toInteger());

        // Loading that run's config shows the stages again.
        setup->setConfig(run->config);
        QCOMPARE(processes->value(), 2);
        QCOMPARE(parallelism->currentData().toString(), QStringLiteral("pipeline"));
        QCOMPARE(micro->value(), 8);
    }
};

QTEST_MAIN(TestGuiPipeline)
#include "tst_gui_pipeline.moc"
