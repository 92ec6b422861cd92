// Pipeline stages from the desktop app: with 2 processes the run set-up offers "Processes work as: Each holds a stage
// of the network", which shows the micro-batches and hides the ZeRO split; the run trained from the Train button gets
// "pipeline": {"stages": 2, ...} in its config, and the engine's two processes really are stages (their started event
// lists each stage's nodes, the finished event each stage's times), with the weights of one process adding up the same
// micro-batches.
#include "common/engine_process.h"
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"

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
