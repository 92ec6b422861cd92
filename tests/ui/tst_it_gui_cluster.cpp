// A cluster run from the desktop app, against the project's Slurm fixture: trained from the run set-up with the
// cluster as target while another job holds the node, its run monitor shows the batch job and its queue phase;
// the app is closed and opened again while the job waits, and the new window follows the same job (no second
// one); Stop in the run monitor cancels the job (gone from squeue within 15 s) and the run ends cancelled. The run
// set-up asks for a chain of 3 jobs: all 3 are queued at once, followed after the restart, and Stop removes all.
#include "common/cluster_runs.h"
#include "diamond/version.h"
#include "ui/cluster/cluster_manager_page.h"
#include "ui/main_window.h"

#include "app/cluster/cluster_job_store.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "ui/run/job_chain_chart.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_recommendation_view.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_model.h"
#include "ui/run/runs_panel.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestItGuiCluster : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runs_;
    int chainJobs_ = 0; ///< jobs of the run's chain, as the recommendation planned them

    /// The runs table's state text of a run.
    static QString rowState(ui::MainWindow &w, qint64 runId) {
        ui::RunsTableModel *model = w.runsPanel()->model();
        return model->index(model->rowOfRun(runId), ui::RunsTableModel::State).data().toString();
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_it_gui_cluster"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        qputenv("SLURM_CONF", cluster_.slurmConf().toLocal8Bit());
        runs_ = std::make_unique<test::ClusterRuns>(cluster_, dir_.path());
    }

    void queuedRunIsFollowedAgainAndStopped() {
        const QString folder = dir_.filePath(QStringLiteral("ws"));
        remote::ClusterProfile lc = runs_->localProfile();
        {
            app::Workspace ws;
            QVERIFY(ws.create(folder));
            remote::PartitionInfo partition; // as `cluster probe` finds the fixture's (MaxTime=01:00:00)
            partition.name = cluster_.partition();
            partition.cpusPerNode = 2;
            partition.maxWalltimeMinutes = 60;
            partition.isDefault = true;
            lc.partitions = {partition};
            QVERIFY(app::ClusterStore(ws).add(lc));
        }
        QString blockerId;

        qint64 runId = 0;
        QString jobId;
        {
            ui::MainWindow window(nullptr, folder);
            window.resize(1500, 950);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            // Clusters ▸ the partition ▸ Calibrate: a short job step measures the node; plans then use it.
            window.action(QStringLiteral("showClusters"))->trigger();
            auto *clusters = window.findChild<ui::ClusterManagerPage *>();
            QVERIFY(clusters && clusters->isVisible());
            QVERIFY(clusters->selectProfile(QStringLiteral("lc")));
            auto *partitions = clusters->findChild<QTableView *>(QStringLiteral("partitions"));
            QVERIFY(partitions && partitions->model()->rowCount() == 1);
            partitions->setCurrentIndex(partitions->model()->index(0, 0));
            QSignalSpy calibrated(clusters, &ui::ClusterManagerPage::calibrateFinished);
            QTest::mouseClick(clusters->calibrateButton(), Qt::LeftButton);
            QVERIFY(!clusters->calibrateButton()->isEnabled()); // the window stays usable; the button waits
            QVERIFY(calibrated.wait(180000));
            const QString partitionProfile = QStringLiteral("lc.") + cluster_.partition();
            QVERIFY2(calibrated.at(0).at(0).toBool(), qPrintable(clusters->statusText()));
            QVERIFY2(clusters->statusText().contains(partitionProfile), qPrintable(clusters->statusText()));
            QVERIFY(QFile::exists(folder + QStringLiteral("/device-profiles/") + partitionProfile +
                                  QStringLiteral(".json")));
            QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
            QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters-calibrated.png")));

            // Deploy engine ▸ Copy this computer's engine: bundled, copied into the scratch folder, started there; the
            // profile then runs it (the run below trains with it).
            QSignalSpy deployed(clusters, &ui::ClusterManagerPage::deployFinished);
            QVERIFY(clusters->deployButton()->isEnabled() && clusters->deployButton()->menu());
            clusters->deployButton()->menu()->findChild<QAction *>(QStringLiteral("deployBundleAction"))->trigger();
            QVERIFY(!clusters->deployButton()->isEnabled());
            QVERIFY(deployed.wait(300000));
            QVERIFY2(deployed.at(0).at(0).toBool(), qPrintable(clusters->statusText()));
            const QString deployedEngine = lc.scratchDir + QStringLiteral("/engine/diamond-train-") +
                                           QStringLiteral(DIAMOND_VERSION) + QStringLiteral("/diamond-train");
            QVERIFY2(clusters->statusText().contains(QStringLiteral("deployed")), qPrintable(clusters->statusText()));
            QCOMPARE(clusters->editedProfile().enginePath, deployedEngine);
            QVERIFY(!clusters->isModified()); // stored, not just shown
            QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters-deployed.png")));
            blockerId = runs_->blockNode(); // from here on, the run's jobs wait in the queue
            QVERIFY(!blockerId.isEmpty());

            window.action(QStringLiteral("showRunSetup"))->trigger();
            ui::RunSetupPage *setup = window.runSetup();
            QComboBox *target = nullptr;
            for (QComboBox *box : setup->findChildren<QComboBox *>())
                if (box->findData(QStringLiteral("lc")) >= 0) target = box;
            QVERIFY2(target, "the cluster is not offered as a target");
            target->setCurrentIndex(target->findData(QStringLiteral("lc")));
            QCOMPARE(setup->target(), QStringLiteral("lc"));
            auto *chain = setup->findChild<QSpinBox *>(QStringLiteral("chainJobs"));
            QVERIFY(chain && chain->isVisible());

            // Device GPU: the job asks for GPUs (one per process unless set), of a type; precision goes into the
            // config. Back to CPU for the run itself (the fixture's node has no GPU).
            auto *device = setup->findChild<QComboBox *>(QStringLiteral("device"));
            auto *gpus = setup->findChild<QSpinBox *>(QStringLiteral("gpusPerNode"));
            auto *gpuType = setup->findChild<QComboBox *>(QStringLiteral("gpuType"));
            auto *precision = setup->findChild<QComboBox *>(QStringLiteral("precision"));
            QVERIFY(device && gpus && gpuType && precision);
            QVERIFY(!gpus->isVisible());
            device->setCurrentIndex(device->findData(QStringLiteral("cuda")));
            QVERIFY(gpus->isVisible() && gpuType->isVisible());
            precision->setCurrentIndex(precision->findData(QStringLiteral("fp16")));
            QCOMPARE(setup->config().value(QStringLiteral("device")).toString(), QStringLiteral("cuda"));
            QCOMPARE(setup->config().value(QStringLiteral("precision")).toString(), QStringLiteral("fp16"));
            QJsonObject gpuJob = setup->execution().value(QStringLiteral("job")).toObject();
            QCOMPARE(gpuJob.value(QStringLiteral("nodes")).toInt(), 1);
            QVERIFY(!gpuJob.contains(QStringLiteral("gpus_per_node"))); // one per process, decided at submission
            gpus->setValue(2);
            gpuType->setEditText(QStringLiteral("a100"));
            gpuJob = setup->execution().value(QStringLiteral("job")).toObject();
            QCOMPARE(gpuJob.value(QStringLiteral("gpus_per_node")).toInt(), 2);
            QCOMPARE(gpuJob.value(QStringLiteral("gpu_type")).toString(), QStringLiteral("a100"));
            QTest::qWait(100); // the form's new rows laid out
            for (QWidget *w = gpuType; w; w = w->parentWidget())
                if (auto *scroll = qobject_cast<QScrollArea *>(w)) {
                    scroll->ensureWidgetVisible(gpuType);
                    break;
                }
            QTest::qWait(50);
            QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-gpu.png")));
            device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
            QCOMPARE(precision->currentData().toString(), QStringLiteral("bf16")); // fp16 needs the GPU
            precision->setCurrentIndex(precision->findData(QStringLiteral("fp32")));
            QVERIFY(!setup->config().contains(QStringLiteral("device")));
            QVERIFY(!setup->config().contains(QStringLiteral("precision")));
            QVERIFY(
                !setup->execution().value(QStringLiteral("job")).toObject().contains(QStringLiteral("gpus_per_node")));

            // A run of about 2.6 hours: the recommendation cuts it into jobs of the partition's hour, queued at
            // once (the run goes on with the app closed), drawn as a Gantt chart; "Use these settings" copies it.
            ui::RunRecommendationView *advice = setup->recommendation();
            const auto adviceSteps = [&] { return advice->plan().value(QStringLiteral("steps")).toInteger(); };
            QTRY_VERIFY_WITH_TIMEOUT(adviceSteps() > 0, 120000);
            QCOMPARE(advice->plan().value(QStringLiteral("target")).toString(), QStringLiteral("lc"));
            QCOMPARE(
                advice->plan().value(QStringLiteral("profile")).toObject().value(QStringLiteral("name")).toString(),
                partitionProfile);
            // The scheduler's queue-wait estimate arrives in the background: the only node is held, so the
            // recommendation's finish includes the wait and says so.
            QTRY_VERIFY_WITH_TIMEOUT(advice->plan().value(QStringLiteral("queue_wait_s")).toDouble() > 60, 30000);
            QVERIFY(advice->plan().value(QStringLiteral("predicted_finish_s")).toDouble() >=
                    advice->plan().value(QStringLiteral("queue_wait_s")).toDouble());
            qInfo("queue wait in the recommendation: %.0f s",
                  advice->plan().value(QStringLiteral("queue_wait_s")).toDouble());
            const qint64 shortSteps = adviceSteps();
            setup->findChild<QSpinBox *>(QStringLiteral("samples"))->setValue(1000000);
            QTRY_VERIFY_WITH_TIMEOUT(adviceSteps() > 10 * shortSteps, 60000);
            QSpinBox *epochs = setup->findChild<QSpinBox *>(QStringLiteral("epochs"));
            const double stepsPerEpoch = double(adviceSteps()) / epochs->value();
            const double stepSeconds = advice->plan().value(QStringLiteral("predicted_step_s")).toDouble();
            QVERIFY(stepSeconds > 0);
            const int longEpochs = int(std::ceil(2.6 * 3600 / (stepSeconds * stepsPerEpoch)));
            QVERIFY2(longEpochs <= epochs->maximum(), qPrintable(QString::number(longEpochs)));
            const qint64 before = adviceSteps();
            epochs->setValue(longEpochs);
            QTRY_VERIFY_WITH_TIMEOUT(adviceSteps() > before, 60000);
            const QJsonObject plan = advice->plan();
            chainJobs_ = plan.value(QStringLiteral("jobs")).toInt();
            QVERIFY2(chainJobs_ >= 2 && chainJobs_ <= 6, qPrintable(QString::number(chainJobs_)));
            QCOMPARE(plan.value(QStringLiteral("time_limit_s")).toDouble(), 3600.0);
            QVERIFY(advice->chart()->isVisible());
            QCOMPARE(advice->chart()->bars().size(), chainJobs_);
            QVERIFY(advice->chart()->totalSeconds() >= 2.6 * 3600);
            QVERIFY(advice->text().contains(QStringLiteral("partition ") + cluster_.partition()));
            QTest::mouseClick(advice->applyButton(), Qt::LeftButton);
            QCOMPARE(chain->value(), chainJobs_);
            const QJsonObject job = setup->execution().value(QStringLiteral("job")).toObject();
            QCOMPARE(job.value(QStringLiteral("time_limit_minutes")).toInt(), 60);
            QCOMPARE(job.value(QStringLiteral("partition")).toString(), cluster_.partition());
            QCOMPARE(job.value(QStringLiteral("tasks_per_node")).toInt(), plan.value(QStringLiteral("ranks")).toInt());
            QCOMPARE(job.value(QStringLiteral("signal_seconds")).toDouble(),
                     std::ceil(plan.value(QStringLiteral("signal_seconds")).toDouble()));
            for (QScrollArea *area : setup->findChildren<QScrollArea *>()) {
                area->ensureWidgetVisible(chain);
                area->ensureWidgetVisible(advice->chart());
            }
            QTest::qWait(200); // the layout settles after the edits
            QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
            QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-cluster-chain.png")));
            window.action(QStringLiteral("trainAction"))->trigger();
            auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
            QVERIFY(monitor);
            runId = monitor->runId();
            QTRY_VERIFY_WITH_TIMEOUT(monitor->jobText().contains(QStringLiteral("pending")), 60000);
            QVERIFY(
                monitor->findChild<QLabel *>(QStringLiteral("runState"))->text().contains(QStringLiteral("queued")));
            QTRY_COMPARE(rowState(window, runId), QStringLiteral("queued on the cluster"));
            jobId = app::ClusterJobStore(*window.workspace()).current(runId)->jobId;
            QVERIFY2(monitor->jobText().contains(jobId), qPrintable(monitor->jobText()));
            QVERIFY(monitor->stopButton()->isEnabled());
            QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
            QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-monitor-cluster.png")));
            window.close(); // a cluster job does not stop with the app: no question asked
        }
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(runId)).size(), chainJobs_);

        ui::MainWindow again(nullptr, folder);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(again.runService()->isActive(runId));
        // Open its monitor from the runs table (click the row, then the table's "Open monitor").
        QTableView *view = again.runsPanel()->view();
        const QModelIndex index = again.runsPanel()->proxy()->mapFromSource(
            again.runsPanel()->model()->index(again.runsPanel()->model()->rowOfRun(runId), 0));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, view->visualRect(index).center());
        again.runsPanel()->openAction()->trigger();
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(again.tabs()->currentWidget());
        QVERIFY(monitor && monitor->runId() == runId);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->jobText().contains(jobId), 10000);
        QTest::qWait(1500); // several polls of the waiting job
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(runId)).size(), chainJobs_);

        QTest::mouseClick(monitor->stopButton(), Qt::LeftButton);
        QVERIFY2(runs_->msUntilNoJob(runId, 15000) >= 0, "the job is still in squeue 15 s after Stop");
        QTRY_COMPARE_WITH_TIMEOUT(monitor->state(), app::RunState::Cancelled, 30000);
        QCOMPARE(app::ClusterJobStore(*again.workspace()).jobs(runId).size(), chainJobs_);
        runs_->slurm(QStringLiteral("scancel"), {blockerId});
    }
};

QTEST_MAIN(TestItGuiCluster)
#include "tst_it_gui_cluster.moc"
