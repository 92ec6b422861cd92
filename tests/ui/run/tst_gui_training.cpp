// The whole path from the GUI: the spirals example is on the canvas at start, Train is clicked on the run set-up
// page, the real diamond-train trains, the run monitor's charts receive points, the run finishes with a
// confusion matrix; then the runs table, the compare tab and screenshots of the main screens (PNG files under
// <build>/screenshots, to look at), presenter mode (F5) among them. The presenter shots in docs/screenshots were taken
// on a 1280x720 screen: QT_QPA_PLATFORM=offscreen:configfile=tests/ui/run/projector-screen.json.
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "app/run/run_manager.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/run/compare_page.h"
#include "ui/run/confusion_matrix_view.h"
#include "ui/run/curve_chart.h"
#include "ui/run/job_chain_chart.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_recommendation_view.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_model.h"
#include "ui/run/runs_panel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace diamond;

class TestGuiTraining : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString shots_;

    void shoot(QWidget *w, const char *name) {
        QDir().mkpath(shots_);
        QVERIFY(w->grab().save(QDir(shots_).filePath(QLatin1String(name))));
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_training"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
        shots_ = QStringLiteral(DIAMOND_BINARY_DIR "/screenshots");
    }

    void trainSpiralsFromTheGui() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.designer()->document()->nodeCount() > 0);
        QCOMPARE(window.designer()->document()->errorCount(), 0);
        shoot(&window, "designer.png");

        // Run set-up: short run, one thread; the plan (engine dry run) must appear before training.
        ui::RunSetupPage *setup = window.runSetup();
        window.tabs()->setCurrentWidget(setup);
        const auto spins = setup->findChildren<QSpinBox *>();
        for (QSpinBox *box : spins) {
            // Epochs and threads by their current meaning: the form's epochs box holds the example's 20.
            if (box->value() == 20) box->setValue(4);
        }
        QJsonObject config = setup->config();
        QCOMPARE(config.value(QStringLiteral("epochs")).toInt(), 4);
        QTRY_VERIFY_WITH_TIMEOUT(!setup->plan().isEmpty(), 60000);
        QVERIFY(setup->plan().value(QStringLiteral("parameters")).toInt() > 0);
        QVERIFY(setup->findChild<QLabel *>(QStringLiteral("planLabel"))->text().contains(QStringLiteral("4,547")) ||
                setup->findChild<QLabel *>(QStringLiteral("planLabel"))->text().contains(QStringLiteral("4547")));
        // The planner's recommendation follows: this computer is calibrated in the background on first use.
        ui::RunRecommendationView *advice = setup->recommendation();
        QVERIFY(advice->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!advice->plan().isEmpty(), 120000);
        QVERIFY(!advice->plan().contains(QStringLiteral("measured_widths")));
        // Measure processes: short trainings at each width on a worker thread; the recommendation then uses them.
        QVERIFY(advice->measureButton()->isVisible());
        QTest::mouseClick(advice->measureButton(), Qt::LeftButton);
        QVERIFY(!advice->measureButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(advice->plan().contains(QStringLiteral("measured_widths")), 120000);
        QVERIFY(advice->measureButton()->isEnabled());
        QVERIFY2(advice->text().contains(QStringLiteral("Measured:")), qPrintable(advice->text()));
        shoot(&window, "run-setup-measured.png");
        const QJsonObject recommended = advice->plan();
        QCOMPARE(recommended.value(QStringLiteral("target")).toString(), QStringLiteral("local"));
        QCOMPARE(recommended.value(QStringLiteral("jobs")).toInt(), 1);
        QVERIFY(recommended.value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        QVERIFY(advice->text().contains(QStringLiteral("Recommended")));
        QCOMPARE(advice->chart()->bars().size(), 1);
        QVERIFY(!advice->chart()->isVisible()); // one job without a time limit: the Gantt is for cluster chains
        QTest::mouseClick(advice->applyButton(), Qt::LeftButton);
        QCOMPARE(setup->execution().value(QStringLiteral("nproc")).toInt(1),
                 recommended.value(QStringLiteral("ranks")).toInt());
        // The measured choice includes its threads per process, and is at least as fast as every single process
        // measured (those are always eligible; more processes must also keep E >= 0.7).
        double fastestSingle = 0;
        for (const QJsonValue &w : recommended.value(QStringLiteral("measured_widths")).toArray())
            if (w[QStringLiteral("ranks")].toInt() == 1 &&
                (fastestSingle == 0 || w[QStringLiteral("measured_step_s")].toDouble() < fastestSingle))
                fastestSingle = w[QStringLiteral("measured_step_s")].toDouble();
        QVERIFY(fastestSingle > 0);
        QVERIFY(recommended.value(QStringLiteral("predicted_step_s")).toDouble() <= fastestSingle * 1.0001);
        QCOMPARE(setup->execution().value(QStringLiteral("threads")).toInt(),
                 recommended.value(QStringLiteral("threads_per_rank")).toInt());
        QCOMPARE(setup->config()
                     .value(QStringLiteral("checkpoint"))
                     .toObject()
                     .value(QStringLiteral("every_steps"))
                     .toInteger(),
                 recommended.value(QStringLiteral("checkpoint_every_steps")).toInteger());
        QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("ws/device-profiles/this-computer.json"))));
        shoot(&window, "run-setup.png");

        QTest::mouseClick(setup->trainButton(), Qt::LeftButton);
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY2(monitor, "Train did not open a run monitor");
        const qint64 runId = monitor->runId();
        QVERIFY(runId > 0);

        // Live points reach the charts while the run trains.
        QTRY_VERIFY_WITH_TIMEOUT(monitor->chart(QStringLiteral("loss")) &&
                                     monitor->chart(QStringLiteral("loss"))->pointCount(QStringLiteral("loss/train")) >
                                         5,
                                 60000);
        if (monitor->state() == app::RunState::Running) shoot(&window, "run-monitor-live.png");
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() == app::RunState::Finished, 120000);
        // The performance model learned from it: its measured step time next to the prediction, per profile.
        {
            QFile observations(dir_.filePath(QStringLiteral("ws/device-profiles/this-computer.observations.jsonl")));
            QVERIFY(observations.open(QIODevice::ReadOnly));
            const QJsonObject line = QJsonDocument::fromJson(observations.readAll().trimmed()).object();
            QCOMPARE(line.value(QStringLiteral("run")).toInteger(), runId);
            QVERIFY(line.value(QStringLiteral("measured_step_s")).toDouble() > 0);
            QVERIFY(line.value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        }
        QTRY_VERIFY_WITH_TIMEOUT(monitor->confusionMatrix()->matrix().size() == 3, 10000);
        QVERIFY(monitor->confusionMatrix()->accuracy() > 0.5);
        QCOMPARE(monitor->progressBar()->value(), monitor->progressBar()->maximum());
        QVERIFY(monitor->pointCount(QStringLiteral("loss"), app::MetricSplit::Validation) >= 4);
        QTRY_VERIFY(!monitor->chart(QStringLiteral("loss"))->hasPendingFrame());
        QVERIFY(monitor->chart(QStringLiteral("accuracy")));
        QVERIFY(monitor->chart(QStringLiteral("lr")));
        shoot(&window, "run-monitor.png");

        // The runs table shows the finished run with its best metric; the model passes the tester.
        ui::RunsTableModel *model = window.runsPanel()->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(window.runsPanel()->proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int row = model->rowOfRun(runId);
        QVERIFY(row >= 0);
        QCOMPARE(model->index(row, ui::RunsTableModel::State).data().toString(), QStringLiteral("finished"));
        QVERIFY(model->index(row, ui::RunsTableModel::BestMetric)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("val_accuracy")));
        window.runsPanel()->proxy()->setFilterFixedString(QStringLiteral("finished"));
        QCOMPARE(window.runsPanel()->proxy()->rowCount(), 1);
        window.runsPanel()->proxy()->setFilterFixedString(QString());

        // A second run with a lower learning rate, then both overlaid in the compare tab.
        for (QDoubleSpinBox *box : setup->findChildren<QDoubleSpinBox *>())
            if (std::abs(box->value() - 0.01) < 1e-12) box->setValue(0.003);
        QCOMPARE(setup->config().value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("lr")).toDouble(),
                 0.003);
        QVERIFY(window.train() > runId);
        auto *second = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY(second);
        QTRY_VERIFY_WITH_TIMEOUT(second->state() == app::RunState::Finished, 120000);
        ui::ComparePage *compare = window.showCompare({runId, second->runId()});
        QSignalSpy loaded(compare, &ui::ComparePage::loaded);
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isLoading(), 30000);
        compare->setMetric(QStringLiteral("loss"), app::MetricSplit::Validation);
        QCOMPARE(compare->chart()->seriesKeys().size(), 2);
        QVERIFY(compare->chart()->pointCount(QString::number(runId)) >= 4);
        compare->chart()->setSeriesVisible(QString::number(runId), false);
        QVERIFY(!compare->chart()->isSeriesVisible(QString::number(runId)));
        compare->chart()->setSeriesVisible(QString::number(runId), true);
        QTRY_VERIFY(!compare->chart()->hasPendingFrame());
        shoot(&window, "compare.png");

        // Presenter mode (F5) on the pages a class looks at, for the projector.
        QTest::keyClick(&window, Qt::Key_F5);
        QTRY_VERIFY(window.windowState().testFlag(Qt::WindowFullScreen));
        QTRY_VERIFY(!compare->chart()->hasPendingFrame());
        QTest::qWait(200);
        shoot(&window, "presenter-compare.png");
        window.tabs()->setCurrentWidget(monitor);
        QVERIFY(monitor->isPresenting());
        QTest::qWait(200);
        QVERIFY(monitor->confusionMatrix()->isVisible());
        QVERIFY(!monitor->findChild<QPlainTextEdit *>()->isVisible()); // the log gives its room to the charts
        shoot(&window, "presenter-run-monitor.png");
        window.tabs()->setCurrentWidget(window.designer());
        QTest::qWait(200);
        shoot(&window, "presenter-designer.png");
        QTest::keyClick(&window, Qt::Key_F5);
        QTRY_VERIFY(!window.windowState().testFlag(Qt::WindowFullScreen));
        QVERIFY(!monitor->isPresenting());
        window.tabs()->setCurrentWidget(monitor);
        QTRY_VERIFY(monitor->findChild<QPlainTextEdit *>()->isVisible());
        QVERIFY(monitor->confusionMatrix()->isVisible());
    }

    // The Chinese user interface: the translation catalogue is embedded, menus and pages are translated.
    void chineseUserInterface() {
        QTranslator translator;
        QVERIFY(translator.load(QLocale(QStringLiteral("zh_CN")), QStringLiteral("diamond"), QStringLiteral("_"),
                                QStringLiteral(":/i18n")));
        QCoreApplication::installTranslator(&translator);
        {
            ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
            window.resize(1400, 900);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QStringList menus;
            for (QAction *a : window.menuBar()->actions())
                menus << a->text();
            QVERIFY2(menus.first().startsWith(QStringLiteral("文件")), qPrintable(menus.join(QLatin1Char(' '))));
            QCOMPARE(window.tabs()->tabText(0), QStringLiteral("设计器"));
            window.tabs()->setCurrentIndex(1);
            QTest::qWait(200);
            shoot(&window, "main-zh_CN.png");
            const QList<app::Run> runs = app::RunStore(*window.workspace()).runs();
            auto finished = std::find_if(runs.begin(), runs.end(),
                                         [](const app::Run &r) { return r.state == app::RunState::Finished; });
            QVERIFY(finished != runs.end());
            QTest::keyClick(&window, Qt::Key_F5);
            ui::RunMonitorPage *monitor = window.showRunMonitor(finished->id); // opened while presenting
            QVERIFY(monitor->isPresenting());
            QTRY_VERIFY(window.windowState().testFlag(Qt::WindowFullScreen));
            QTRY_VERIFY(monitor->chart(QStringLiteral("loss")) &&
                        monitor->chart(QStringLiteral("loss"))->pointCount(QStringLiteral("loss/train")) > 5);
            QTest::qWait(300);
            shoot(&window, "presenter-zh_CN.png");
            QTest::keyClick(&window, Qt::Key_F5);
        }
        QCoreApplication::removeTranslator(&translator);
    }
};

QTEST_MAIN(TestGuiTraining)
#include "tst_gui_training.moc"
