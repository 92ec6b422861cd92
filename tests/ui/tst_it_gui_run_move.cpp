// Moving a run between clusters, with two instances of the project's Slurm fixture side by side (alpha and beta,
// their own sshd, slurmctld and scratch):
// - `diamondctl run move ID --target beta` stops a run training on alpha at a checkpoint, brings it home, sends it
//   with the events to beta and continues there; the run ends with the weights_sha256 of an uninterrupted run, its
//   metric lines are the uninterrupted run's steps (one series, nothing repeated or missing), alpha keeps no job.
// - The runs table's "Move to another cluster…" action of the main window (dialog "moveRunDialog") does the same
//   for a run training on beta, back to alpha.
// - Refusals name what is wrong: an unknown target, a finished run (CLI; REST 400 and 409).
#include "common/cluster_runs.h"
#include "common/rest_test_server.h"
#include "ui/main_window.h"
#include "ui/run/runs_model.h"
#include "ui/run/runs_panel.h"

#include "app/cluster/cluster_job_store.h"
#include "app/cluster/cluster_store.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QAction>
#include <QComboBox>
#include <QInputDialog>
#include <QJsonArray>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestItGuiRunMove : public QObject {
    Q_OBJECT

    test::LocalCluster a_{test::LocalCluster::Mode::Slurm}, b_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runsA_, runsB_;
    QString ws_;
    test::RestTestServer rest_;
    static constexpr int kSteps = 50000; // about 10 s at one thread

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };
    Result ctl(const QStringList &args, int timeoutMs = 300000) {
        QProcess p;
        p.start(test::binary(QStringLiteral("diamondctl")), QStringList{QStringLiteral("--workspace"), ws_} + args);
        p.closeWriteChannel();
        Result r;
        if (!p.waitForFinished(timeoutMs)) return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
    QString writeFile(const QString &name, const QJsonObject &doc) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly)) f.write(QJsonDocument(doc).toJson());
        return path;
    }
    /// `run start --target T --detach`: the run's id, 0 on failure.
    qint64 startOn(const QString &target) {
        const QJsonObject job = runsA_->execution().value(QStringLiteral("job")).toObject();
        const Result r =
            ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"),
                 writeFile(QStringLiteral("spec.json"), test::ClusterRuns::spec()), QStringLiteral("--config"),
                 writeFile(QStringLiteral("run.json"), test::ClusterRuns::config(kSteps)), QStringLiteral("--target"),
                 target, QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--job"),
                 QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact)), QStringLiteral("--detach"),
                 QStringLiteral("--json")});
        if (r.code != 0) qWarning("run start: %s", r.err.constData());
        return r.code == 0 ? r.json().value(QStringLiteral("id")).toInteger() : 0;
    }
    /// Waits until the run's engine on the cluster of `runs` has written at least `metrics` metric lines.
    static bool waitForTraining(const test::ClusterRuns &runs, const QString &profile, qint64 id, int metrics) {
        const QDir dir(runs.sshProfile(profile).scratchDir + QStringLiteral("/runs"));
        return QTest::qWaitFor(
            [&] {
                for (const QString &d : dir.entryList({QStringLiteral("*-%1").arg(id)}, QDir::Dirs))
                    if (test::runDirEvents(dir.filePath(d), QStringLiteral("metric")).size() >= metrics) return true;
                return false;
            },
            120000);
    }
    /// The (split, step) of every train/validation metric line, in file order.
    static QStringList metricSteps(const QString &runDir) {
        QStringList out;
        for (const QJsonObject &e : test::runDirEvents(runDir, QStringLiteral("metric")))
            out << QStringLiteral("%1/%2/%3")
                       .arg(e.value(QStringLiteral("split")).toString(), e.value(QStringLiteral("name")).toString())
                       .arg(e.value(QStringLiteral("step")).toInteger());
        return out;
    }
    /// Checks a moved run's end: finished on `to`, the reference weights, the reference's metric steps, two starts
    /// (the second from a checkpoint), jobs on both clusters, no job left on `fromRuns`' cluster.
    void verifyMoved(qint64 id, const QString &from, const QString &to, const test::ClusterRuns &fromRuns) {
        app::Workspace ws;
        QVERIFY(ws.open(ws_));
        const auto run = app::RunStore(ws).run(id);
        QVERIFY(run);
        QCOMPARE(app::runStateName(run->state), QStringLiteral("finished"));
        QCOMPARE(run->target, to);
        QCOMPARE(run->weightsHash, runsA_->referenceWeights(kSteps));
        const QString runDir = ws.runDirectory(id);
        const QStringList steps = metricSteps(runDir);
        const QStringList reference = metricSteps(dir_.filePath(QStringLiteral("a/reference-%1/run").arg(kSteps)));
        QVERIFY(!reference.isEmpty());
        QCOMPARE(steps, reference);
        const QList<QJsonObject> starts = test::runDirEvents(runDir, QStringLiteral("started"));
        QCOMPARE(starts.size(), 2);
        const qint64 resumedAt = starts.last().value(QStringLiteral("start_step")).toInteger();
        QVERIFY2(resumedAt > 0 && resumedAt < kSteps, qPrintable(QString::number(resumedAt)));
        QVERIFY(!starts.last().value(QStringLiteral("resumed_from")).toString().isEmpty());
        QSet<QString> clusters;
        for (const app::ClusterJob &j : app::ClusterJobStore(ws).jobs(id))
            clusters.insert(j.cluster);
        QCOMPARE(clusters, (QSet<QString>{from, to}));
        QVERIFY(fromRuns.jobsNamed(test::ClusterRuns::jobName(id)).isEmpty());
        bool noted = false;
        for (const app::RunMessage &m : app::RunStore(ws).messages(id))
            noted = noted || m.text.contains(QStringLiteral("Moved from %1 to %2").arg(from, to));
        QVERIFY(noted);
        qInfo("run %lld moved %s -> %s at step %lld of %d: same weights as an uninterrupted run, %lld metric lines", id,
              qPrintable(from), qPrintable(to), resumedAt, kSteps, qlonglong(steps.size()));
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_it_gui_run_move"));
        QSettings().clear();
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        QVERIFY2(a_.start(), qPrintable(a_.log()));
        QVERIFY2(b_.start(), qPrintable(b_.log()));
        QVERIFY(QDir().mkpath(dir_.filePath(QStringLiteral("a"))) && QDir().mkpath(dir_.filePath(QStringLiteral("b"))));
        runsA_ = std::make_unique<test::ClusterRuns>(a_, dir_.filePath(QStringLiteral("a")));
        runsB_ = std::make_unique<test::ClusterRuns>(b_, dir_.filePath(QStringLiteral("b")));
        ws_ = dir_.filePath(QStringLiteral("ws"));
        app::Workspace ws;
        QVERIFY(ws.create(ws_));
        app::ClusterStore store(ws);
        QVERIFY2(store.add(runsA_->sshProfile(QStringLiteral("alpha"))), qPrintable(store.errorString()));
        QVERIFY2(store.add(runsB_->sshProfile(QStringLiteral("beta"))), qPrintable(store.errorString()));
        QVERIFY(!runsA_->referenceWeights(kSteps).isEmpty());
        QVERIFY(rest_.start(QProcessEnvironment::systemEnvironment(), ws_));
    }

    void commandLineMovesARunFromAlphaToBeta() {
        const qint64 id = startOn(QStringLiteral("alpha"));
        QVERIFY(id > 0);
        QVERIFY(waitForTraining(*runsA_, QStringLiteral("alpha"), id, 3000));
        QElapsedTimer clock;
        clock.start();
        const Result r = ctl({QStringLiteral("run"), QStringLiteral("move"), QString::number(id),
                              QStringLiteral("--target"), QStringLiteral("beta"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        qInfo("diamondctl run move returned after %lld ms (stopped on alpha, submitted on beta)", clock.elapsed());
        QCOMPARE(r.json().value(QStringLiteral("target")).toString(), QStringLiteral("beta"));
        QCOMPARE(r.json().value(QStringLiteral("job")).toObject().value(QStringLiteral("cluster")).toString(),
                 QStringLiteral("beta"));
        const Result follow =
            ctl({QStringLiteral("run"), QStringLiteral("metrics"), QString::number(id), QStringLiteral("--follow")});
        QVERIFY2(follow.code == 0, follow.err.constData());
        verifyMoved(id, QStringLiteral("alpha"), QStringLiteral("beta"), *runsA_);

        // Refusals name what is wrong; nothing changes.
        Result refused = ctl({QStringLiteral("run"), QStringLiteral("move"), QString::number(id),
                              QStringLiteral("--target"), QStringLiteral("gamma")});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("gamma"), refused.err.constData());
        refused = ctl({QStringLiteral("run"), QStringLiteral("move"), QString::number(id), QStringLiteral("--target"),
                       QStringLiteral("alpha")});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("has finished"), refused.err.constData());
        const QString path = QStringLiteral("/api/v1/runs/%1/move").arg(id);
        QCOMPARE(rest_.request("POST", path, R"({"target":"gamma"})").status, 400);
        QCOMPARE(rest_.request("POST", path, R"({"target":"alpha"})").status, 409);
        QCOMPARE(rest_.request("POST", path, R"({"target":"alpha","job":3})").status, 400);
    }

    void runsTableMovesARunFromBetaToAlpha() {
        const qint64 id = startOn(QStringLiteral("beta"));
        QVERIFY(id > 0);
        ui::MainWindow window(nullptr, ws_);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(waitForTraining(*runsB_, QStringLiteral("beta"), id, 3000));
        ui::RunsPanel *panel = window.runsPanel();
        panel->reload();
        QSortFilterProxyModel *proxy = panel->proxy();
        int row = -1;
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (proxy->index(r, 0).data(ui::RunsTableModel::RunIdRole).toLongLong() == id) row = r;
        QVERIFY(row >= 0);
        panel->view()->selectRow(row);
        QTRY_VERIFY(panel->moveAction()->isEnabled());
        QSignalSpy moved(window.runService(), &app::RunService::runMoved);
        panel->moveAction()->trigger();
        QInputDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QInputDialog *>(QStringLiteral("moveRunDialog"))) != nullptr);
        auto *combo = dialog->findChild<QComboBox *>();
        QVERIFY(combo);
        QVERIFY(combo->findText(QStringLiteral("beta")) < 0); // not where it is already
        QVERIFY(combo->findText(QStringLiteral("alpha")) >= 0);
        combo->setCurrentIndex(combo->findText(QStringLiteral("alpha")));
        QTest::qWait(100);
        QVERIFY(dialog->grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-move-dialog.png")));
        dialog->accept();
        QVERIFY2(moved.wait(120000) || !moved.isEmpty(), "the move did not complete in 120 s");
        QCOMPARE(moved.first().at(2).toString(), QStringLiteral("alpha"));
        QSignalSpy ended(window.runService(), &app::RunService::runEnded);
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (const auto &e : ended)
                    if (e.at(0).toLongLong() == id) return true;
                return false;
            },
            180000));
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-moved.png")));
        verifyMoved(id, QStringLiteral("beta"), QStringLiteral("alpha"), *runsB_);
    }
};

QTEST_MAIN(TestItGuiRunMove)
#include "tst_it_gui_run_move.moc"
