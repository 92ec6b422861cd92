// A cluster run from the desktop app, against the project's Slurm fixture: trained from the run set-up with the
// cluster as target while another job holds the node, its run monitor shows the batch job and its queue phase;
// the app is closed and opened again while the job waits, and the new window follows the same job (no second
// one); Stop in the run monitor cancels the job (gone from squeue within 15 s) and the run ends cancelled. The run
// set-up asks for a chain of 3 jobs: all 3 are queued at once, followed after the restart, and Stop removes all.
#include "common/cluster_runs.h"
#include "ui/main_window.h"

#include "app/cluster/cluster_job_store.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_model.h"
#include "ui/run/runs_panel.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
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
    static constexpr int kChain = 3; ///< jobs of the run's chain

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
        {
            app::Workspace ws;
            QVERIFY(ws.create(folder));
            remote::ClusterProfile lc = runs_->localProfile();
            QVERIFY(app::ClusterStore(ws).add(lc));
        }
        const QString blockerId = runs_->blockNode();
        QVERIFY(!blockerId.isEmpty());

        qint64 runId = 0;
        QString jobId;
        {
            ui::MainWindow window(nullptr, folder);
            window.resize(1500, 950);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
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
            chain->setValue(kChain); // queued at once: the run goes on with the app closed
            for (QScrollArea *area : setup->findChildren<QScrollArea *>())
                area->ensureWidgetVisible(chain);
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
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(runId)).size(), kChain);

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
        QCOMPARE(runs_->jobsNamed(test::ClusterRuns::jobName(runId)).size(), kChain);

        QTest::mouseClick(monitor->stopButton(), Qt::LeftButton);
        QVERIFY2(runs_->msUntilNoJob(runId, 15000) >= 0, "the job is still in squeue 15 s after Stop");
        QTRY_COMPARE_WITH_TIMEOUT(monitor->state(), app::RunState::Cancelled, 30000);
        QCOMPARE(app::ClusterJobStore(*again.workspace()).jobs(runId).size(), kChain);
        runs_->slurm(QStringLiteral("scancel"), {blockerId});
    }
};

QTEST_MAIN(TestItGuiCluster)
#include "tst_it_gui_cluster.moc"
