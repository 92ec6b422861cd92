// Moving a run between clusters, with two instances of the project's Slurm fixture side by side (alpha and beta,
// their own sshd, slurmctld and scratch):
// - `diamondctl run move ID --target beta` stops a run training on alpha at a checkpoint, brings it home, sends it
//   with the events to beta and continues there; the run ends with the weights_sha256 of an uninterrupted run, its
//   metric lines are the uninterrupted run's steps (one series, nothing repeated or missing), alpha keeps no job.
// - The runs table's "Move to another cluster…" action of the main window (dialog "moveRunDialog") does the same
//   for a run training on beta, back to alpha.
// - Refusals name what is wrong: an unknown target, a finished run (CLI; REST 400 and 409).
// - Start-anywhere, first to start wins: `run start --target alpha,beta --race` with alpha's only node held keeps
//   the run on beta (alpha's job cancelled, the uninterrupted run's weights); the run set-up's "First of alpha, beta
//   to start" with beta's node held keeps it on alpha.
#include "common/cluster_runs.h"
#include "common/rest_test_server.h"
#include "ui/main_window.h"
#include "ui/run/run_setup_page.h"
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
#include <QScrollArea>
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
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished(5000);
            qWarning("diamondctl %s did not finish in %d ms: %s", qPrintable(args.join(u' ')), timeoutMs,
                     p.readAllStandardError().right(4000).constData());
            return r;
        }
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

    /// `run start --target alpha,beta --race`: alpha's only node is held, so beta's job starts first; alpha's job
    /// is cancelled and the run trains on beta to the uninterrupted run's weights.
    void raceKeepsTheClusterThatStartsFirst() {
        const QString holder = runsA_->blockNode();
        QVERIFY(!holder.isEmpty());
        QVERIFY(QTest::qWaitFor(
            [&] { return runsA_->jobsNamed(QStringLiteral("blocker")).join(u' ').contains(QLatin1String("RUNNING")); },
            60000));
        const QJsonObject job = runsA_->execution().value(QStringLiteral("job")).toObject();
        QElapsedTimer clock;
        clock.start();
        const Result r =
            ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"),
                 writeFile(QStringLiteral("spec.json"), test::ClusterRuns::spec()), QStringLiteral("--config"),
                 writeFile(QStringLiteral("run.json"), test::ClusterRuns::config(kSteps)), QStringLiteral("--target"),
                 QStringLiteral("alpha,beta"), QStringLiteral("--race"), QStringLiteral("--threads"),
                 QStringLiteral("1"), QStringLiteral("--job"),
                 QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact)), QStringLiteral("--json")},
                180000);
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        qInfo("race decided and the loser cancelled after %lld ms: %s", clock.elapsed(), r.err.trimmed().constData());
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        QCOMPARE(r.json().value(QStringLiteral("target")).toString(), QStringLiteral("beta"));
        QVERIFY2(runsA_->msUntilNoJob(id, 15000) >= 0, "alpha still has a job of the run");
        const Result follow =
            ctl({QStringLiteral("run"), QStringLiteral("metrics"), QString::number(id), QStringLiteral("--follow")});
        QVERIFY2(follow.code == 0, follow.err.constData());
        runsA_->slurm(QStringLiteral("scancel"), {holder});

        app::Workspace ws;
        QVERIFY(ws.open(ws_));
        const auto run = app::RunStore(ws).run(id);
        QVERIFY(run);
        QCOMPARE(app::runStateName(run->state), QStringLiteral("finished"));
        QCOMPARE(run->weightsHash, runsA_->referenceWeights(kSteps));
        QHash<QString, QString> phases;
        for (const app::ClusterJob &j : app::ClusterJobStore(ws).jobs(id))
            phases.insert(j.cluster, j.phase);
        QCOMPARE(phases.value(QStringLiteral("alpha")), QStringLiteral("cancelled"));
        QCOMPARE(phases.value(QStringLiteral("beta")), QStringLiteral("completed"));
        QCOMPARE(metricSteps(ws.runDirectory(id)),
                 metricSteps(dir_.filePath(QStringLiteral("a/reference-%1/run").arg(kSteps))));
        QTRY_VERIFY_WITH_TIMEOUT(runsA_->jobsNamed(QStringLiteral("blocker")).isEmpty(), 60000);
    }

    /// The run set-up's "First of alpha, beta to start": beta's node is held, alpha keeps the run.
    void runSetupRacesBothClusters() {
        const QString holder = runsB_->blockNode();
        QVERIFY(!holder.isEmpty());
        QVERIFY(QTest::qWaitFor(
            [&] { return runsB_->jobsNamed(QStringLiteral("blocker")).join(u' ').contains(QLatin1String("RUNNING")); },
            60000));
        ui::MainWindow window(nullptr, ws_);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.action(QStringLiteral("showRunSetup"))->trigger();
        ui::RunSetupPage *setup = window.runSetup();
        QVERIFY(setup->setTarget(QStringLiteral("race:alpha,beta")));
        QCOMPARE(setup->raceClusters(), (QStringList{QStringLiteral("alpha"), QStringLiteral("beta")}));
        QVERIFY(!setup->execution().value(QStringLiteral("job")).toObject().contains(QStringLiteral("partition")));
        QTest::qWait(200);
        for (QComboBox *box : setup->findChildren<QComboBox *>())
            if (box->findData(QStringLiteral("race:alpha,beta")) >= 0)
                for (QWidget *w = box; w; w = w->parentWidget())
                    if (auto *scroll = qobject_cast<QScrollArea *>(w)) {
                        scroll->ensureWidgetVisible(box);
                        break;
                    }
        QTest::qWait(100);
        QVERIFY(window.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/run-setup-race.png")));
        QSignalSpy won(window.runService(), &app::RunService::raceWon);
        QSignalSpy ended(window.runService(), &app::RunService::runEnded);
        window.action(QStringLiteral("trainAction"))->trigger();
        QVERIFY2(won.wait(120000) || !won.isEmpty(), "no cluster started the run");
        const qint64 id = won.first().at(0).toLongLong();
        QCOMPARE(won.first().at(1).toString(), QStringLiteral("alpha"));
        QVERIFY2(runsB_->msUntilNoJob(id, 15000) >= 0, "beta still has a job of the run");
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (const auto &e : ended)
                    if (e.at(0).toLongLong() == id) return true;
                return false;
            },
            240000));
        runsB_->slurm(QStringLiteral("scancel"), {holder});
        const auto run = app::RunStore(*window.workspace()).run(id);
        QVERIFY(run);
        QCOMPARE(app::runStateName(run->state), QStringLiteral("finished"));
        QCOMPARE(run->target, QStringLiteral("alpha"));
        QTRY_VERIFY_WITH_TIMEOUT(runsB_->jobsNamed(QStringLiteral("blocker")).isEmpty(), 60000);
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
