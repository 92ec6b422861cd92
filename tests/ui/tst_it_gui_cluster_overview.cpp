// One view of all clusters, with two instances of the project's Slurm fixture side by side (their own ports and
// state): `diamondctl cluster status` and the Clusters page's "All clusters" tab (driven from the main window) list
// both within 5 s, show a job holding one cluster's node as allocated with its state, and mark that cluster stale —
// without delaying the other — within one refresh after its sshd and slurmctld are stopped.
#include "common/cluster_runs.h"
#include "common/rest_test_server.h"
#include "ui/cluster/cluster_manager_page.h"
#include "ui/cluster/cluster_overview_view.h"
#include "ui/main_window.h"

#include "app/cluster/cluster_store.h"
#include "app/workspace/workspace.h"

#include <QAction>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace diamond;

class TestItGuiClusterOverview : public QObject {
    Q_OBJECT

    test::LocalCluster a_{test::LocalCluster::Mode::Slurm}, b_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runsA_, runsB_;
    QString ws_;
    test::RestTestServer rest_;

    /// GET /api/v1/clusters/status of `diamondctl serve`: cluster name -> its entry.
    QMap<QString, QJsonObject> restStatus() {
        const test::RestResponse r = rest_.request("GET", QStringLiteral("/api/v1/clusters/status"));
        QMap<QString, QJsonObject> out;
        if (r.status != 200) qWarning("GET /api/v1/clusters/status: %d %s", r.status, r.body.constData());
        for (const QJsonValue &v : r.json().value(QStringLiteral("clusters")).toArray())
            out.insert(v.toObject().value(QStringLiteral("cluster")).toString(), v.toObject());
        return out;
    }

    /// `diamondctl cluster status --json`: cluster name -> its entry, and the seconds the command took.
    QMap<QString, QJsonObject> status(double *seconds) {
        QProcess p;
        QElapsedTimer clock;
        clock.start();
        p.start(test::binary(QStringLiteral("diamondctl")),
                {QStringLiteral("--workspace"), ws_, QStringLiteral("cluster"), QStringLiteral("status"),
                 QStringLiteral("--json")});
        p.waitForFinished(120000);
        *seconds = double(clock.elapsed()) / 1000.0;
        QMap<QString, QJsonObject> out;
        const QJsonObject doc = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        for (const QJsonValue &v : doc.value(QStringLiteral("clusters")).toArray())
            out.insert(v.toObject().value(QStringLiteral("cluster")).toString(), v.toObject());
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_it_gui_cluster_overview"));
        QSettings().clear();
        QVERIFY2(a_.start(), qPrintable(a_.log()));
        QVERIFY2(b_.start(), qPrintable(b_.log()));
        QVERIFY(a_.port() != b_.port());
        QVERIFY(QDir().mkpath(dir_.filePath(QStringLiteral("a"))) && QDir().mkpath(dir_.filePath(QStringLiteral("b"))));
        runsA_ = std::make_unique<test::ClusterRuns>(a_, dir_.filePath(QStringLiteral("a")));
        runsB_ = std::make_unique<test::ClusterRuns>(b_, dir_.filePath(QStringLiteral("b")));
        ws_ = dir_.filePath(QStringLiteral("ws"));
        app::Workspace ws;
        QVERIFY(ws.create(ws_));
        app::ClusterStore store(ws);
        QVERIFY2(store.add(runsA_->sshProfile(QStringLiteral("alpha"))), qPrintable(store.errorString()));
        QVERIFY2(store.add(runsB_->sshProfile(QStringLiteral("beta"))), qPrintable(store.errorString()));
        QVERIFY(rest_.start(QProcessEnvironment::systemEnvironment(), ws_));
    }

    /// `run start --target any`: alpha's only node is held, so its queue wait (sbatch --test-only) puts beta first.
    void startAnywherePicksTheFreeCluster() {
        const QString holder = runsA_->blockNode();
        QVERIFY(!holder.isEmpty());
        const QString spec = dir_.filePath(QStringLiteral("spec.json")),
                      config = dir_.filePath(QStringLiteral("run.json"));
        for (const auto &[path, doc] :
             {std::pair{spec, test::ClusterRuns::spec()}, std::pair{config, test::ClusterRuns::config(300)}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(doc).toJson());
        }
        const QJsonObject job = runsA_->execution().value(QStringLiteral("job")).toObject();
        QProcess p;
        p.start(test::binary(QStringLiteral("diamondctl")),
                {QStringLiteral("--workspace"), ws_, QStringLiteral("run"), QStringLiteral("start"),
                 QStringLiteral("--spec"), spec, QStringLiteral("--config"), config, QStringLiteral("--target"),
                 QStringLiteral("any"), QStringLiteral("--job"),
                 QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact)), QStringLiteral("--threads"),
                 QStringLiteral("1"), QStringLiteral("--detach"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(240000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, err.constData());
        qInfo("%s", err.constData());
        const QJsonObject run = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(run.value(QStringLiteral("target")).toString(), QStringLiteral("beta"));
        QVERIFY2(err.contains("alpha: finish in") && err.contains("beta: finish in") && err.contains("Chosen: beta"),
                 err.constData());
        // Both free again for what follows: the run cancelled, alpha's holder job gone.
        QProcess cancel;
        cancel.start(test::binary(QStringLiteral("diamondctl")),
                     {QStringLiteral("--workspace"), ws_, QStringLiteral("run"), QStringLiteral("cancel"),
                      QString::number(run.value(QStringLiteral("id")).toInteger())});
        QVERIFY(cancel.waitForFinished(120000));
        runsA_->slurm(QStringLiteral("scancel"), {holder});
        QTRY_VERIFY_WITH_TIMEOUT(runsA_->jobsNamed(QStringLiteral("blocker")).isEmpty(), 60000);
        const qint64 id = run.value(QStringLiteral("id")).toInteger();
        QTRY_VERIFY_WITH_TIMEOUT(runsB_->jobsNamed(test::ClusterRuns::jobName(id)).isEmpty(), 60000);
    }

    void bothClustersThenOneStale() {
        double seconds = 0;
        QMap<QString, QJsonObject> cli = status(&seconds);
        qInfo("cluster status, 2 clusters: %.2f s", seconds);
        QCOMPARE(cli.size(), 2);
        for (const QString &name : {QStringLiteral("alpha"), QStringLiteral("beta")}) {
            QVERIFY2(cli[name].value(QStringLiteral("reachable")).toBool(), qPrintable(name));
            const QJsonObject partition = cli[name].value(QStringLiteral("partitions")).toArray().at(0).toObject();
            QCOMPARE(partition.value(QStringLiteral("nodes_total")).toInt(), 1);
        }
        QVERIFY2(seconds < 5, qPrintable(QString::number(seconds)));
        QMap<QString, QJsonObject> web = restStatus(); // the same view over REST
        QVERIFY(web[QStringLiteral("alpha")].value(QStringLiteral("reachable")).toBool());
        QVERIFY(web[QStringLiteral("beta")].value(QStringLiteral("reachable")).toBool());

        // beta's only node is taken by a job of the cluster's user, submitted over SSH like any user's.
        QProcess ssh;
        ssh.start(QStringLiteral("ssh"), {QStringLiteral("-F"), b_.sshConfigPath(), b_.sshAlias(),
                                          QStringLiteral("sbatch --parsable --exclusive -J holder -o /dev/null "
                                                         "--wrap 'sleep 300'")});
        QVERIFY(ssh.waitForFinished(30000));
        const QString blocker =
            QString::fromLatin1(ssh.readAllStandardOutput().trimmed()).section(QLatin1Char(';'), 0, 0);
        QVERIFY2(!blocker.isEmpty(), ssh.readAllStandardError().constData());

        ui::MainWindow window(nullptr, ws_);
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.action(QStringLiteral("showClusters"))->trigger();
        auto *clusters = window.findChild<ui::ClusterManagerPage *>();
        QVERIFY(clusters && clusters->isVisible());
        clusters->showOverviewTab();
        ui::ClusterOverviewView *view = clusters->overviewTab();
        QVERIFY(view->isVisible());
        app::ClusterOverview *overview = view->overview();
        const auto entry = [&](const QString &name) { return overview->entry(name); };
        QElapsedTimer clock;
        clock.start();
        const auto both = [&] {
            return QJsonDocument(
                       QJsonArray{entry(QStringLiteral("alpha")).toJson(), entry(QStringLiteral("beta")).toJson()})
                .toJson(QJsonDocument::Compact);
        };
        QTRY_VERIFY2_WITH_TIMEOUT(entry(QStringLiteral("alpha")).reachable && entry(QStringLiteral("beta")).reachable,
                                  both().constData(), 5000);
        const double firstRead = double(clock.elapsed()) / 1000.0;
        // The holder job starts within seconds: read again (the Refresh button) until beta's node shows allocated.
        QElapsedTimer started;
        started.start();
        while (started.elapsed() < 20000 &&
               !(entry(QStringLiteral("beta")).partitions.value(0).nodesAllocated == 1 &&
                 entry(QStringLiteral("beta")).jobs.value(0).state == QLatin1String("RUNNING"))) {
            if (overview->pendingCount() == 0)
                QTest::mouseClick(view->findChild<QPushButton *>(QStringLiteral("overviewRefresh")), Qt::LeftButton);
            QTest::qWait(250);
        }
        QVERIFY2(entry(QStringLiteral("beta")).partitions.value(0).nodesAllocated == 1, both().constData());
        QVERIFY2(entry(QStringLiteral("beta")).jobs.size() == 1,
                 QJsonDocument(entry(QStringLiteral("beta")).toJson()).toJson().constData());
        qInfo("overview, 2 clusters: both read in %.2f s", firstRead);
        QCOMPARE(entry(QStringLiteral("beta")).jobs.first().jobId, blocker);
        QCOMPARE(entry(QStringLiteral("alpha")).partitions.value(0).nodesIdle, 1);
        QTreeWidget *tree = view->tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QVERIFY(tree->topLevelItem(1)->text(4).contains(blocker));
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters-overview.png")));

        QTRY_COMPARE_WITH_TIMEOUT(overview->pendingCount(), 0, 10000);
        // beta goes away: stale within one refresh, with the reason; alpha is read as before.
        QVERIFY(b_.stopSshd());
        QVERIFY(b_.stopSlurmctld());
        QSignalSpy finished(overview, &app::ClusterOverview::refreshFinished);
        clock.restart();
        QTest::mouseClick(view->findChild<QPushButton *>(QStringLiteral("overviewRefresh")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(entry(QStringLiteral("beta")).stale, overview->staleAfter() + 1000);
        const double staleAfter = double(clock.elapsed()) / 1000.0;
        qInfo("beta stale %.2f s after the refresh: %s", staleAfter, qPrintable(entry(QStringLiteral("beta")).error));
        QVERIFY(!entry(QStringLiteral("beta")).error.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 10000);
        // The read itself fails once the link has given up reconnecting: unreachable, with the connection's reason.
        QTRY_VERIFY_WITH_TIMEOUT(!entry(QStringLiteral("beta")).reachable && overview->pendingCount() == 0, 30000);
        QVERIFY2(entry(QStringLiteral("beta")).error.contains(QStringLiteral("onnect")),
                 qPrintable(entry(QStringLiteral("beta")).error));
        QVERIFY(entry(QStringLiteral("alpha")).reachable && !entry(QStringLiteral("alpha")).stale);
        QCOMPARE(tree->topLevelItem(1)->text(1), QStringLiteral("unreachable"));
        QVERIFY(!tree->topLevelItem(1)->text(7).isEmpty()); // the reason
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters-overview-stale.png")));

        cli = status(&seconds);
        QVERIFY(cli[QStringLiteral("alpha")].value(QStringLiteral("reachable")).toBool());
        QVERIFY(!cli[QStringLiteral("beta")].value(QStringLiteral("reachable")).toBool());
        QVERIFY(cli[QStringLiteral("beta")].value(QStringLiteral("stale")).toBool());
        QVERIFY2(!cli[QStringLiteral("beta")].value(QStringLiteral("error")).toString().isEmpty(),
                 QJsonDocument(cli[QStringLiteral("beta")]).toJson().constData());
        QVERIFY2(seconds < 5, qPrintable(QString::number(seconds)));
        web = restStatus();
        QVERIFY(web[QStringLiteral("alpha")].value(QStringLiteral("reachable")).toBool());
        QVERIFY(!web[QStringLiteral("beta")].value(QStringLiteral("reachable")).toBool());
        QVERIFY(!web[QStringLiteral("beta")].value(QStringLiteral("error")).toString().isEmpty());
    }
};

QTEST_MAIN(TestItGuiClusterOverview)
#include "tst_it_gui_cluster_overview.moc"
