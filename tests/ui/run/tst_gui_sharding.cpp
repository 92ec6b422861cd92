// Splitting the optimizer state (and the gradients) over the processes from the desktop app: the run set-up shows
// "Split over processes (ZeRO)" once there are 2 processes, the run trained from the Train button gets "sharding":
// "gradients" in its config, and the engine's ranks really share them (their started event says so, and rank 0 holds
// half of Adam's state and about half the gradients).
#include "common/engine_process.h"
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_recommendation_view.h"
#include "ui/run/run_setup_page.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestGuiSharding : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_sharding"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
    }

    void twoProcessesShareTheOptimizerStateAndGradients() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::RunSetupPage *setup = window.runSetup();
        window.tabs()->setCurrentWidget(setup);
        auto *processes = setup->findChild<QSpinBox *>(QStringLiteral("processes"));
        auto *threads = setup->findChild<QSpinBox *>(QStringLiteral("threads"));
        auto *epochs = setup->findChild<QSpinBox *>(QStringLiteral("epochs"));
        auto *shard = setup->findChild<QComboBox *>(QStringLiteral("sharding"));
        QVERIFY(processes && epochs && shard);
        QVERIFY(!shard->isVisible()); // one process: nothing to split
        if (threads) threads->setValue(1);
        epochs->setValue(2);
        processes->setValue(2);
        QVERIFY(shard->isVisible());
        QCOMPARE(shard->currentData().toString(), QStringLiteral("none"));
        QVERIFY(!setup->config().contains(QStringLiteral("sharding")));
        // Chosen from the keyboard, as a user would: Alt+Z focuses the row, Down picks the next entry.
        QTest::keyClick(&window, Qt::Key_Z, Qt::AltModifier);
        QTRY_VERIFY(shard->hasFocus());
        QTest::keyClick(shard, Qt::Key_Down);
        QCOMPARE(setup->config().value(QStringLiteral("sharding")).toString(), QStringLiteral("optimizer"));
        QTest::keyClick(shard, Qt::Key_Down);
        QCOMPARE(setup->config().value(QStringLiteral("sharding")).toString(), QStringLiteral("gradients"));
        for (QWidget *w = shard->parentWidget(); w; w = w->parentWidget())
            if (auto *scroll = qobject_cast<QScrollArea *>(w)) scroll->ensureWidgetVisible(shard);
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-sharding.png")));
        // Back to one process: the row hides and the config leaves it out; two again: still chosen.
        processes->setValue(1);
        QVERIFY(!shard->isVisible());
        QVERIFY(!setup->config().contains(QStringLiteral("sharding")));
        processes->setValue(2);
        QCOMPARE(setup->config().value(QStringLiteral("sharding")).toString(), QStringLiteral("gradients"));

        QTest::mouseClick(setup->trainButton(), Qt::LeftButton);
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY2(monitor, "Train did not open a run monitor");
        const qint64 runId = monitor->runId();
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() == app::RunState::Finished, 120000);
        const auto run = app::RunStore(*window.workspace()).run(runId);
        QVERIFY(run);
        QCOMPARE(run->config.value(QStringLiteral("sharding")).toString(), QStringLiteral("gradients"));
        QCOMPARE(run->execution.value(QStringLiteral("nproc")).toInt(), 2);
        const QString runDir = window.workspace()->runDirectory(runId);
        const QJsonObject started = test::lastRunDirEvent(runDir, QStringLiteral("started"));
        QCOMPARE(started.value(QStringLiteral("world_size")).toInt(), 2);
        QCOMPARE(started.value(QStringLiteral("sharding")).toString(), QStringLiteral("gradients"));
        const QJsonObject memory =
            test::lastRunDirEvent(runDir, QStringLiteral("finished")).value(QStringLiteral("memory")).toObject();
        const qint64 parameters = started.value(QStringLiteral("parameters")).toInteger();
        QVERIFY(parameters > 0);
        // Adam's two floats per weight, half of them on rank 0 (rounded up), and its 8-byte step count.
        QCOMPARE(memory.value(QStringLiteral("optimizer_state_bytes")).toInteger(), 2 * 4 * ((parameters + 1) / 2) + 8);
        // Half the gradients, and the reduction's buffers (this small network's gradients are one bucket).
        const qint64 gradients = memory.value(QStringLiteral("gradient_bytes")).toInteger();
        QVERIFY2(gradients >= 4 * ((parameters + 1) / 2) && gradients <= 4 * ((parameters + 1) / 2) + 4 * parameters,
                 qPrintable(QString::number(gradients)));
    }

    /// A plan that splits the optimizer state says so next to the memory per process.
    void theRecommendationSaysTheStateIsSplit() {
        QJsonObject plan{{QStringLiteral("target"), QStringLiteral("local")},
                         {QStringLiteral("ranks"), 2},
                         {QStringLiteral("jobs"), 1},
                         {QStringLiteral("predicted_step_s"), 0.01},
                         {QStringLiteral("predicted_total_s"), 10.0},
                         {QStringLiteral("predicted_peak_memory_bytes"), 512.0 * 1048576},
                         {QStringLiteral("confidence"), QStringLiteral("medium")}};
        ui::RunRecommendationView view;
        view.setAdvice({plan, {}, false});
        QVERIFY2(view.text().contains(QStringLiteral("512.0 MiB per process")), qPrintable(view.text()));
        QVERIFY(!view.text().contains(QStringLiteral("split")));
        plan.insert(QStringLiteral("sharding"), QStringLiteral("optimizer"));
        view.setAdvice({plan, {}, false});
        QVERIFY2(view.text().contains(QStringLiteral("512.0 MiB per process, with the optimizer state split over the "
                                                     "processes")),
                 qPrintable(view.text()));
        plan.insert(QStringLiteral("recompute"), QStringLiteral("auto"));
        plan.insert(QStringLiteral("activation_budget_mb"), 1273.0);
        view.setAdvice({plan, {}, false});
        QVERIFY2(view.text().contains(QStringLiteral("layers that keep the activations within 1,273 MiB")) ||
                     view.text().contains(QStringLiteral("layers that keep the activations within 1273 MiB")),
                 qPrintable(view.text()));
        plan.remove(QStringLiteral("recompute"));
        plan.insert(QStringLiteral("sharding"), QStringLiteral("gradients"));
        view.setAdvice({plan, {}, false});
        QVERIFY2(
            view.text().contains(QStringLiteral("512.0 MiB per process, with the optimizer state and the gradients "
                                                "split over the processes")),
            qPrintable(view.text()));
    }
};

QTEST_MAIN(TestGuiSharding)
#include "tst_gui_sharding.moc"
