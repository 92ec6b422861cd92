// ClusterManagerPage against a real workspace and the project's real local cluster (sshd + Slurm on 127.0.0.1,
// tests/fixtures/local-cluster): profiles added, edited, renamed and removed round-trip through ClusterStore;
// an empty host is refused inline; the connection test and the probe run over real SSH without blocking the
// GUI thread (the event loop keeps turning); an unknown host key raises the fingerprint dialog (accepted and
// declined here), a changed one is refused; the Jobs tab lists a job submitted with sbatch and drops it after
// scancel, and cancels one itself. Renders <build>/screenshots/clusters.png and clusters-jobs.png.
#include "ui/cluster/cluster_manager_page.h"
#include "ui/cluster/cluster_models.h"
#include "ui/cluster/sign_in_prompter.h"

#include "app/cluster/cluster_store.h"
#include "app/workspace/workspace.h"

#include "common/local_cluster.h"
#include "common/test_paths.h"

#include <QAbstractItemModelTester>
#include <QDialog>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace diamond;
using namespace diamond::ui;

class TestClusterManager : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    int wsCount_ = 0;

    QString newWorkspace() {
        const QString folder = dir_.filePath(QStringLiteral("ws%1").arg(++wsCount_));
        app::Workspace ws;
        if (!ws.create(folder)) qFatal("cannot create workspace: %s", qPrintable(ws.errorString()));
        return folder;
    }

    static QString engine() {
        return qEnvironmentVariableIsSet("DIAMOND_TRAIN") ? qEnvironmentVariable("DIAMOND_TRAIN")
                                                          : test::binary(QStringLiteral("diamond-train"));
    }

    remote::ClusterProfile fixtureProfile(const QString &name = QStringLiteral("localcluster")) const {
        remote::ClusterProfile p;
        p.name = name;
        p.host = cluster_.host();
        p.port = cluster_.port();
        p.user = cluster_.user();
        p.identityFile = cluster_.keyPath();
        p.knownHostsFile = cluster_.knownHostsPath();
        p.scratchDir = cluster_.scratchDir();
        p.enginePath = engine();
        return p;
    }

    static QString fingerprintOf(const QString &pubKey) {
        QProcess p;
        p.start(QStringLiteral("ssh-keygen"),
                {QStringLiteral("-l"), QStringLiteral("-E"), QStringLiteral("sha256"), QStringLiteral("-f"), pubKey});
        p.waitForFinished(10000);
        return QString::fromLatin1(p.readAllStandardOutput()).section(QLatin1Char(' '), 1, 1);
    }

    static QLineEdit *edit(ClusterManagerPage &page, const QString &key) {
        auto *e = page.findChild<QLineEdit *>(key);
        if (!e) qFatal("no line edit %s", qPrintable(key));
        return e;
    }

    /// Replaces a line edit's text the way a user does (textEdited fires).
    static void type(ClusterManagerPage &page, const QString &key, const QString &text) {
        QLineEdit *e = edit(page, key);
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Delete);
        QTest::keyClicks(e, text);
    }

    /// Waits for `spy` while counting event-loop turns: a blocked GUI thread would show as few turns.
    static bool waitTurning(QSignalSpy &spy, int timeoutMs, int *turns = nullptr) {
        QElapsedTimer t;
        t.start();
        int n = 0;
        QTimer ticker;
        QObject::connect(&ticker, &QTimer::timeout, [&n] { ++n; });
        ticker.start(20);
        while (spy.isEmpty() && t.elapsed() < timeoutMs)
            QTest::qWait(20);
        if (turns) *turns = n;
        return !spy.isEmpty();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "3");
        qunsetenv("SSH_AUTH_SOCK"); // keys come from the profile only: an agent would skip the passphrase prompt
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        QVERIFY2(QFile::exists(engine()),
                 qPrintable(QStringLiteral("no engine at %1 (set DIAMOND_TRAIN)").arg(engine())));
    }

    void addEditRenameRemoveRoundTrip() {
        const QString folder = newWorkspace();
        ClusterManagerPage page;
        QAbstractItemModelTester listTester(page.profilesModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester partTester(page.partitionsModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester jobTester(page.queueModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&page, &ClusterManagerPage::profilesChanged);
        QVERIFY(page.setWorkspaceFolder(folder));
        QVERIFY(page.clusterNames().isEmpty());

        page.addProfile();
        type(page, QStringLiteral("name"), QStringLiteral("hpc"));
        type(page, QStringLiteral("host"), QStringLiteral("login.hpc.example"));
        type(page, QStringLiteral("user"), QStringLiteral("alice"));
        type(page, QStringLiteral("account"), QStringLiteral("proj1"));
        type(page, QStringLiteral("scratch_dir"), QStringLiteral("/scratch/alice/diamond"));
        type(page, QStringLiteral("engine_path"), QStringLiteral("/scratch/alice/diamond/engine/diamond-train"));
        type(page, QStringLiteral("modules"), QStringLiteral("cuda/12.1, nccl/2.18"));
        const int row = page.partitionsModel()->appendPartition();
        auto *pm = page.partitionsModel();
        QVERIFY(pm->setData(pm->index(row, PartitionsModel::Name), QStringLiteral("gpu")));
        QVERIFY(pm->setData(pm->index(row, PartitionsModel::GpuType), QStringLiteral("a100")));
        QVERIFY(pm->setData(pm->index(row, PartitionsModel::GpusPerNode), 4));
        QVERIFY(pm->setData(pm->index(row, PartitionsModel::MaxWalltime), 2880));
        QVERIFY(pm->setData(pm->index(row, PartitionsModel::Default), Qt::Checked, Qt::CheckStateRole));
        QVERIFY(page.isModified());
        QVERIFY2(page.save(), qPrintable(page.statusText()));
        QCOMPARE(page.clusterNames(), QStringList{QStringLiteral("hpc")});
        QCOMPARE(changed.last().first().toStringList(), QStringList{QStringLiteral("hpc")});

        {
            app::Workspace ws;
            QVERIFY(ws.open(folder));
            app::ClusterStore store(ws);
            const auto stored = store.profile(QStringLiteral("hpc"));
            QVERIFY2(stored, qPrintable(store.errorString()));
            QCOMPARE(stored->host, QStringLiteral("login.hpc.example"));
            QCOMPARE(stored->user, QStringLiteral("alice"));
            QCOMPARE(stored->account, QStringLiteral("proj1"));
            QCOMPARE(stored->modules, (QStringList{QStringLiteral("cuda/12.1"), QStringLiteral("nccl/2.18")}));
            QCOMPARE(stored->partitions.size(), 1);
            QCOMPARE(stored->partitions[0].name, QStringLiteral("gpu"));
            QCOMPARE(stored->partitions[0].gpusPerNode, 4);
            QCOMPARE(stored->partitions[0].maxWalltimeMinutes, 2880);
            QVERIFY(stored->partitions[0].isDefault);
            QCOMPARE(*stored, page.editedProfile());
        }

        // Edit, duplicate, rename.
        type(page, QStringLiteral("account"), QStringLiteral("proj2"));
        QVERIFY(page.save());
        page.duplicateProfile();
        QCOMPARE(page.currentProfileName(), QString());
        QCOMPARE(page.editedProfile().name, QStringLiteral("hpc-copy"));
        QVERIFY(page.save());
        QCOMPARE(page.clusterNames(), (QStringList{QStringLiteral("hpc"), QStringLiteral("hpc-copy")}));
        type(page, QStringLiteral("name"), QStringLiteral("hpc2"));
        QVERIFY(page.save());
        QCOMPARE(page.clusterNames(), (QStringList{QStringLiteral("hpc"), QStringLiteral("hpc2")}));
        // A taken name is refused at the name field, nothing changes.
        type(page, QStringLiteral("name"), QStringLiteral("hpc"));
        QVERIFY(!page.save());
        QVERIFY2(!page.fieldError(QStringLiteral("name")).isEmpty(), qPrintable(page.statusText()));
        page.revert();
        QCOMPARE(page.editedProfile().name, QStringLiteral("hpc2"));
        {
            app::Workspace ws;
            QVERIFY(ws.open(folder));
            app::ClusterStore store(ws);
            QCOMPARE(store.profile(QStringLiteral("hpc"))->account, QStringLiteral("proj2"));
            QCOMPARE(store.profile(QStringLiteral("hpc2"))->account, QStringLiteral("proj2"));
            QVERIFY(!store.profile(QStringLiteral("hpc-copy")));
        }
        QVERIFY(page.removeProfile(false));
        QVERIFY(page.selectProfile(QStringLiteral("hpc")));
        QVERIFY(page.removeProfile(false));
        QVERIFY(page.clusterNames().isEmpty());
        QCOMPARE(changed.last().first().toStringList(), QStringList{});
        app::Workspace ws;
        QVERIFY(ws.open(folder));
        QVERIFY(app::ClusterStore(ws).profiles().isEmpty());
    }

    void emptyHostIsRefusedInline() {
        const QString folder = newWorkspace();
        ClusterManagerPage page;
        QVERIFY(page.setWorkspaceFolder(folder));
        page.setEditedProfile(fixtureProfile(QStringLiteral("nohost")));
        type(page, QStringLiteral("host"), QString());
        QVERIFY(!page.save());
        const QString error = page.fieldError(QStringLiteral("host"));
        QVERIFY2(error.startsWith(QStringLiteral("host:")), qPrintable(error));
        QVERIFY(page.fieldError(QStringLiteral("name")).isEmpty());
        QVERIFY(edit(page, QStringLiteral("host"))->property("clusterFieldInvalid").toBool());
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters-invalid.png")));
        QVERIFY(page.clusterNames().isEmpty());
        // The connection test refuses the same form without contacting anything.
        QCOMPARE(page.testConnection(), 0);
        // Fixing it clears the error.
        type(page, QStringLiteral("host"), cluster_.host());
        QVERIFY(page.save());
        QVERIFY(page.fieldError(QStringLiteral("host")).isEmpty());
        app::Workspace ws;
        QVERIFY(ws.open(folder));
        QCOMPARE(app::ClusterStore(ws).profile(QStringLiteral("nohost"))->host, cluster_.host());
    }

    void connectionTestAndProbe() {
        const QString folder = newWorkspace();
        ClusterManagerPage page;
        QAbstractItemModelTester partTester(page.partitionsModel(),
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.setWorkspaceFolder(folder));
        page.setEditedProfile(fixtureProfile());
        QVERIFY(page.save());

        QSignalSpy tested(&page, &ClusterManagerPage::testFinished);
        QVERIFY(page.testConnection() > 0);
        QVERIFY(page.isBusy());
        QVERIFY(tested.isEmpty()); // the call returned before any SSH work was done
        int turns = 0;
        QVERIFY2(waitTurning(tested, 120000, &turns), qPrintable(page.statusText()));
        QVERIFY2(tested.first().first().toBool(),
                 qPrintable(page.statusText() + QLatin1Char('\n') + page.testResultLines().join(QLatin1Char('\n'))));
        const QStringList lines = page.testResultLines();
        QVERIFY2(lines.size() >= 4, qPrintable(lines.join(QLatin1Char('\n'))));
        for (const QString &l : lines)
            QVERIFY2(l.contains(QStringLiteral(": ok: ")), qPrintable(l));
        QVERIFY2(page.statusText().contains(QStringLiteral("OK")), qPrintable(page.statusText()));
        qInfo("connection test: %d event-loop turns while it ran; %s", turns,
              qPrintable(lines.join(QStringLiteral(" | "))));

        QSignalSpy probed(&page, &ClusterManagerPage::probeFinished);
        QVERIFY(page.probe() > 0);
        QVERIFY2(waitTurning(probed, 60000), qPrintable(page.statusText()));
        QVERIFY2(probed.first().first().toBool(), qPrintable(page.statusText()));
        const auto partitions = page.partitionsModel()->partitions();
        QVERIFY(!partitions.isEmpty());
        QCOMPARE(partitions.first().name, cluster_.partition());
        QVERIFY(partitions.first().cpusPerNode > 0);
        QVERIFY(page.isModified());
        QVERIFY(page.save());

        // A wrong engine path fails the test, naming the check.
        type(page, QStringLiteral("engine_path"), QStringLiteral("/nonexistent/diamond-train"));
        tested.clear();
        QVERIFY(page.testConnection() > 0);
        QVERIFY(waitTurning(tested, 120000));
        QCOMPARE(tested.first().first().toBool(), false);
        QVERIFY2(page.testResultLines().last().startsWith(QStringLiteral("engine: FAIL")),
                 qPrintable(page.testResultLines().join(QLatin1Char('\n'))));
        QVERIFY2(page.statusText().contains(QStringLiteral("1 of 4")), qPrintable(page.statusText()));
        page.revert();
        app::Workspace ws;
        QVERIFY(ws.open(folder));
        QCOMPARE(app::ClusterStore(ws).profile(QStringLiteral("localcluster"))->partitions, partitions);
    }

    void unknownHostKeyAsksWithFingerprint() {
        const QString expected = fingerprintOf(cluster_.hostKeyPubPath());
        QVERIFY(expected.startsWith(QStringLiteral("SHA256:")));
        for (const bool accept : {false, true}) {
            const QString knownHosts = dir_.filePath(QStringLiteral("known_hosts_%1").arg(accept));
            QFile::remove(knownHosts);
            QVERIFY(QFile(knownHosts).open(QIODevice::WriteOnly));
            ClusterManagerPage page;
            QVERIFY(page.setWorkspaceFolder(newWorkspace()));
            auto p = fixtureProfile();
            p.knownHostsFile = knownHosts;
            page.setEditedProfile(p);
            QSignalSpy asked(page.prompter(), &SignInPrompter::asked);
            QSignalSpy tested(&page, &ClusterManagerPage::testFinished);
            QVERIFY(page.testConnection() > 0);
            QVERIFY(QTest::qWaitFor([&] { return page.hostKeyDialog() != nullptr; }, 60000));
            QCOMPARE(asked.size(), 1);
            QCOMPARE(asked.first().first().value<app::ClusterPrompt>().fingerprint, expected);
            QMessageBox *box = page.hostKeyDialog();
            QVERIFY2(box->informativeText().contains(expected), qPrintable(box->informativeText()));
            auto *button = box->findChild<QPushButton *>(accept ? QStringLiteral("acceptHostKey")
                                                                : QStringLiteral("rejectHostKey"));
            QVERIFY(button);
            button->click();
            QVERIFY2(waitTurning(tested, 120000), qPrintable(page.statusText()));
            QCOMPARE(tested.first().first().toBool(), accept);
            QFile f(knownHosts);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray saved = f.readAll();
            if (accept) {
                QVERIFY2(!saved.isEmpty(), "the accepted key was not remembered");
                QVERIFY(page.messageDialog() == nullptr);
            } else {
                QVERIFY(saved.isEmpty());
                QVERIFY2(page.statusText().contains(QStringLiteral("not accepted")), qPrintable(page.statusText()));
            }
        }
    }

    void passphraseAskedInADialog() {
        ClusterManagerPage page;
        QVERIFY(page.setWorkspaceFolder(newWorkspace()));
        auto p = fixtureProfile();
        p.identityFile = cluster_.passphraseKeyPath();
        page.setEditedProfile(p);
        QSignalSpy tested(&page, &ClusterManagerPage::testFinished);
        QVERIFY(page.testConnection() > 0);
        QDialog *dialog = nullptr;
        QVERIFY(QTest::qWaitFor(
            [&] { return (dialog = page.findChild<QDialog *>(QStringLiteral("secretDialog"))) != nullptr; }, 60000));
        auto *edit = dialog->findChild<QLineEdit *>();
        QVERIFY(edit);
        QCOMPARE(edit->echoMode(), QLineEdit::Password);
        QTest::keyClicks(edit, cluster_.keyPassphrase());
        dialog->accept();
        QVERIFY2(waitTurning(tested, 120000), qPrintable(page.statusText()));
        QVERIFY2(tested.first().first().toBool(), qPrintable(page.statusText()));
    }

    void changedHostKeyIsRefused() {
        // known_hosts holding another key of the same type for [host]:port.
        QFile pub(cluster_.hostKeyPubPath());
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QString type = QString::fromLatin1(pub.readAll()).section(QLatin1Char(' '), 0, 0);
        const QString other = dir_.filePath(QStringLiteral("otherkey"));
        QCOMPARE(QProcess::execute(QStringLiteral("ssh-keygen"),
                                   {QStringLiteral("-q"), QStringLiteral("-t"),
                                    type == QLatin1String("ssh-rsa")          ? QStringLiteral("rsa")
                                    : type.startsWith(QLatin1String("ecdsa")) ? QStringLiteral("ecdsa")
                                                                              : QStringLiteral("ed25519"),
                                    QStringLiteral("-N"), QString(), QStringLiteral("-f"), other}),
                 0);
        QFile otherPub(other + QStringLiteral(".pub"));
        QVERIFY(otherPub.open(QIODevice::ReadOnly));
        const QString knownHosts = dir_.filePath(QStringLiteral("known_hosts_changed"));
        QFile kh(knownHosts);
        QVERIFY(kh.open(QIODevice::WriteOnly));
        kh.write(QStringLiteral("[%1]:%2 ").arg(cluster_.host()).arg(cluster_.port()).toLatin1() +
                 otherPub.readAll().split(' ').mid(0, 2).join(' ') + '\n');
        kh.close();

        ClusterManagerPage page;
        QVERIFY(page.setWorkspaceFolder(newWorkspace()));
        auto p = fixtureProfile();
        p.knownHostsFile = knownHosts;
        page.setEditedProfile(p);
        QSignalSpy asked(page.prompter(), &SignInPrompter::asked);
        QSignalSpy tested(&page, &ClusterManagerPage::testFinished);
        QSignalSpy raw(page.client(), &app::ClusterClient::testFinished);
        QVERIFY(page.testConnection() > 0);
        QVERIFY2(waitTurning(tested, 60000), qPrintable(page.statusText()));
        QCOMPARE(tested.first().first().toBool(), false);
        QCOMPARE(asked.size(), 0); // never offered for acceptance
        QVERIFY(raw.first().at(1).value<app::ClusterTestResult>().hostKeyRefused);
        QVERIFY(page.messageDialog() != nullptr);
        QVERIFY2(page.messageDialog()->text().contains(QStringLiteral("does not match")),
                 qPrintable(page.messageDialog()->text()));
    }

    void jobsTabListsAndDropsJobs() {
        ClusterManagerPage page;
        QAbstractItemModelTester jobTester(page.queueModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.setWorkspaceFolder(newWorkspace()));
        page.setEditedProfile(fixtureProfile());
        QVERIFY(page.save());
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.queueTimer()->interval(), 10000);
        QVERIFY(!page.queueTimer()->isActive());

        auto submit = [&]() -> QString {
            QByteArray out, err;
            const int rc = cluster_.ssh(QStringLiteral("cd %1 && sbatch --parsable -J dmtest -o /dev/null --wrap "
                                                       "'sleep 30'")
                                            .arg(cluster_.scratchDir()),
                                        &out, &err);
            if (rc != 0) qWarning("sbatch failed: %s", err.constData());
            return rc == 0 ? QString::fromLatin1(out.trimmed()).section(QLatin1Char(';'), 0, 0) : QString();
        };
        const QString job = submit();
        QVERIFY(!job.isEmpty());

        QSignalSpy refreshed(&page, &ClusterManagerPage::queueRefreshed);
        page.showJobsTab(); // showing the tab refreshes at once and starts the 10 s timer
        QVERIFY(QTest::qWaitFor([&] { return page.queueTimer()->isActive(); }, 5000));
        QVERIFY2(QTest::qWaitFor([&] { return page.queueModel()->rowOf(job) >= 0; }, 60000),
                 qPrintable(page.findChild<QLabel *>(QStringLiteral("jobsStatus"))->text()));
        QVERIFY(refreshed.first().first().toBool());
        const int row = page.queueModel()->rowOf(job);
        const QString state = page.queueModel()
                                  ->data(page.queueModel()->index(row, JobQueueModel::State), JobQueueModel::PhaseRole)
                                  .toString();
        QVERIFY2(state == QLatin1String("running") || state == QLatin1String("pending"), qPrintable(state));

        // Auto refresh (interval shortened for the test) drops the job once scancel has removed it.
        page.queueTimer()->setInterval(500);
        QCOMPARE(cluster_.ssh(QStringLiteral("scancel %1").arg(job)), 0);
        QVERIFY2(QTest::qWaitFor([&] { return page.queueModel()->rowOf(job) < 0; }, 60000),
                 qPrintable(page.findChild<QLabel *>(QStringLiteral("jobsStatus"))->text()));

        // A new job appears without pressing Refresh, and "Cancel job" cancels it.
        const QString second = submit();
        QVERIFY(!second.isEmpty());
        QVERIFY(QTest::qWaitFor([&] { return page.queueModel()->rowOf(second) >= 0; }, 60000));
        page.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters-jobs.png"));
        QSignalSpy cancelled(&page, &ClusterManagerPage::jobCancelled);
        QVERIFY(page.cancelJob(second) > 0);
        QVERIFY(waitTurning(cancelled, 60000));
        QVERIFY(cancelled.first().first().toBool());
        QVERIFY(QTest::qWaitFor([&] { return page.queueModel()->rowOf(second) < 0; }, 60000));
        QByteArray out;
        QCOMPARE(cluster_.ssh(QStringLiteral("squeue -h --me -o %i"), &out), 0);
        QVERIFY2(!out.contains(second.toLatin1()) && !out.contains(job.toLatin1()), out.constData());

        // Hidden tab: no more refreshes.
        page.showJobsTab(false);
        QVERIFY(QTest::qWaitFor([&] { return !page.queueTimer()->isActive(); }, 5000));
    }

    void screenshot() {
        const QString folder = newWorkspace();
        ClusterManagerPage page;
        QVERIFY(page.setWorkspaceFolder(folder));
        remote::ClusterProfile hpc;
        hpc.name = QStringLiteral("hpc-a100");
        hpc.host = QStringLiteral("login.hpc.example.org");
        hpc.user = QStringLiteral("alice");
        hpc.account = QStringLiteral("proj-vision");
        hpc.scratchDir = QStringLiteral("/scratch/alice/diamond");
        hpc.enginePath = QStringLiteral("/opt/diamond/bin/diamond-train");
        hpc.container.runtime = remote::ContainerRuntime::Apptainer;
        hpc.container.image = QStringLiteral("/scratch/alice/diamond/diamond-train.sif");
        hpc.modules = QStringList{QStringLiteral("cuda/12.1")};
        page.setEditedProfile(hpc);
        QVERIFY(page.save());
        page.addProfile();
        page.setEditedProfile(fixtureProfile());
        QVERIFY(page.save());
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy tested(&page, &ClusterManagerPage::testFinished);
        QSignalSpy probed(&page, &ClusterManagerPage::probeFinished);
        page.probe();
        QVERIFY(waitTurning(probed, 60000));
        QVERIFY(page.save());
        page.testConnection();
        QVERIFY(waitTurning(tested, 120000));
        QVERIFY(tested.first().first().toBool());
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(page.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/clusters.png")));
    }
};

QTEST_MAIN(TestClusterManager)
#include "tst_cluster_manager.moc"
