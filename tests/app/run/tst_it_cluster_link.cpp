// ClusterLink, this session's one connection to a cluster, against a real sshd on 127.0.0.1 (tests/fixtures/
// local-cluster, with its password / keyboard-interactive user): prompts reach the ClusterPrompter on the link's
// thread of residence, one sign-in serves every user of the link, a declined prompt is not asked again by background
// work, a reconnect after sshd restarted signs in again without asking (the password stays in this process's
// memory; rounds other than the account password, i.e. one-time codes, are asked anew: tst_ssh_prompt_rules), and
// shutdown() declines an open prompt.
#include "common/local_cluster.h"

#include "app/cluster/cluster_client.h"
#include "app/cluster/cluster_link.h"
#include "remote/ssh_command_runner.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace diamond;
using app::ClusterLink;
using app::ClusterPrompt;
using test::LocalCluster;

namespace {

/// Plays the user: answers from a script, records every question and the thread it was asked on.
class ScriptedPrompter : public app::ClusterPrompter {
public:
    bool acceptHost = false;
    QStringList answers; ///< one per secret prompt, in order; none left = the user cancels
    QList<ClusterPrompt> asked;
    QList<QThread *> threads;
    bool deferAnswers = false; ///< keep the answer function instead of answering (a dialog left open)
    std::function<void(std::optional<QStringList>)> pending;

    void ask(const ClusterPrompt &p, std::function<void(std::optional<QStringList>)> answer) override {
        asked << p;
        threads << QThread::currentThread();
        if (deferAnswers) {
            pending = std::move(answer);
            return;
        }
        if (p.kind == ClusterPrompt::Kind::HostKey)
            return answer(acceptHost ? std::optional<QStringList>(QStringList{}) : std::nullopt);
        QStringList out;
        for (int i = 0; i < p.prompts.size(); ++i) {
            if (answers.isEmpty()) return answer(std::nullopt);
            out << answers.takeFirst();
        }
        answer(out);
    }
    int count(ClusterPrompt::Kind kind) const {
        int n = 0;
        for (const auto &p : asked)
            n += p.kind == kind;
        return n;
    }
};

} // namespace

class TestItClusterLink : public QObject {
    Q_OBJECT

    std::unique_ptr<LocalCluster> cluster_;
    QTemporaryDir dir_;

    remote::ClusterProfile keyProfile(const QString &knownHosts) const {
        remote::ClusterProfile p;
        p.name = QStringLiteral("lc");
        p.host = cluster_->host();
        p.port = cluster_->port();
        p.user = cluster_->user();
        p.identityFile = cluster_->keyPath();
        p.knownHostsFile = knownHosts;
        p.scheduler = remote::SchedulerKind::None;
        p.scratchDir = QStringLiteral("/tmp");
        p.enginePath = QStringLiteral("diamond-train");
        return p;
    }
    remote::ClusterProfile passwordProfile() const {
        remote::ClusterProfile p = keyProfile(cluster_->knownHostsPath());
        p.name = QStringLiteral("pw");
        p.user = cluster_->passwordUser();
        p.identityFile.clear();
        return p;
    }
    /// `id -un` over the link's runner, from the link's thread.
    static QString whoami(ClusterLink &link, QString *error,
                          ClusterLink::Access access = ClusterLink::Access::Interactive) {
        QString out;
        app::runAndWait(link, [&] {
            if (remote::CommandRunner *r = link.runner(error, access))
                out = QString::fromUtf8(r->run(QStringLiteral("id -un")).stdoutData.trimmed());
        });
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        cluster_ = std::make_unique<LocalCluster>(LocalCluster::Mode::SshOnly);
        cluster_->enablePasswordUser();
        QVERIFY2(cluster_->start(), qPrintable(cluster_->log()));
    }
    void cleanupTestCase() { cluster_.reset(); }

    void unknownHostKeyIsAskedOnTheOwnerThread() {
        const QString knownHosts = dir_.filePath(QStringLiteral("kh-accept"));
        ScriptedPrompter user;
        user.acceptHost = true;
        ClusterLink link(keyProfile(knownHosts));
        link.setPrompter(&user);
        QString error;
        QCOMPARE(whoami(link, &error), cluster_->user());
        QCOMPARE(user.count(ClusterPrompt::Kind::HostKey), 1);
        QVERIFY(user.asked.first().fingerprint.startsWith(QStringLiteral("SHA256:")));
        QCOMPARE(user.asked.first().cluster, QStringLiteral("lc"));
        QCOMPARE(user.threads.first(), QThread::currentThread()); // never the worker
        QFile kh(knownHosts);
        QVERIFY(kh.open(QIODevice::ReadOnly));
        QVERIFY(!kh.readAll().isEmpty()); // remembered
    }

    void declinedSignInIsNotAskedAgainInTheBackground() {
        ScriptedPrompter user; // declines the host key
        ClusterLink link(keyProfile(dir_.filePath(QStringLiteral("kh-decline"))));
        link.setPrompter(&user);
        QString error;
        QVERIFY(whoami(link, &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("cancelled")), qPrintable(error));
        QCOMPARE(user.asked.size(), 1);
        // Polling does not ask again...
        for (int i = 0; i < 3; ++i) {
            error.clear();
            QVERIFY(whoami(link, &error, ClusterLink::Access::Background).isEmpty());
            QCOMPARE(error, link.signedOutMessage());
        }
        QCOMPARE(user.asked.size(), 1);
        // ... until the user asks for something.
        user.acceptHost = true;
        QCOMPARE(whoami(link, &error), cluster_->user());
        QCOMPARE(user.asked.size(), 2);
        QCOMPARE(whoami(link, &error, ClusterLink::Access::Background), cluster_->user());
    }

    void oneSignInServesEveryUserOfTheLink() {
        // The password user through a ClusterClient (the cluster manager's requests) and plain work (a run's
        // polling) on the same link: the password is asked once.
        ScriptedPrompter user;
        user.answers = {cluster_->password()};
        app::ClusterLinks links;
        links.setPrompter(&user);
        app::ClusterClient client(&links);
        QSignalSpy tested(&client, &app::ClusterClient::testFinished);
        client.testConnection(passwordProfile());
        QVERIFY(tested.wait(60000));
        const auto result = tested.first().at(1).value<app::ClusterTestResult>();
        QVERIFY2(!result.checks.isEmpty() && result.checks.first().ok, qPrintable(result.error));
        ClusterLink *link = links.link(passwordProfile());
        QString error;
        for (int i = 0; i < 3; ++i)
            QCOMPARE(whoami(*link, &error, ClusterLink::Access::Background), cluster_->passwordUser());
        QCOMPARE(user.asked.size(), 1);
        QVERIFY(user.asked.first().kind == ClusterPrompt::Kind::Password ||
                user.asked.first().kind == ClusterPrompt::Kind::Interactive);
        QCOMPARE(links.links().size(), 1);
    }

    void reconnectAfterSshdRestartAsksNothingMore() {
        // Password or keyboard-interactive only: after sshd restarts (every connection dropped), polling reconnects
        // with the password kept in memory.
        for (const bool interactiveOnly : {true, false}) {
            ScriptedPrompter user;
            user.answers = {cluster_->password()};
            remote::SshConnectOptions o;
            o.host = cluster_->host();
            o.port = cluster_->port();
            o.user = cluster_->passwordUser();
            o.useAgent = false;
            o.allowPassword = !interactiveOnly;
            o.allowKeyboardInteractive = interactiveOnly;
            o.knownHostsPath = cluster_->knownHostsPath();
            ClusterLink link(passwordProfile(), [o](remote::SshPrompter *prompter) {
                auto runner = std::make_unique<remote::SshCommandRunner>(o, prompter);
                runner->setReconnectPolicy({20, 250, 1000});
                return runner;
            });
            link.setPrompter(&user);
            QString error;
            QCOMPARE(whoami(link, &error), cluster_->passwordUser());
            QCOMPARE(user.asked.size(), 1);
            QVERIFY2(cluster_->stopSshd(), qPrintable(cluster_->log()));
            QVERIFY2(cluster_->start(), qPrintable(cluster_->log()));
            QCOMPARE(whoami(link, &error, ClusterLink::Access::Background), cluster_->passwordUser());
            QCOMPARE(user.asked.size(), 1);
            QCOMPARE(user.asked.last().kind,
                     interactiveOnly ? ClusterPrompt::Kind::Interactive : ClusterPrompt::Kind::Password);
        }
    }

    void shutdownDeclinesAnOpenPrompt() {
        ScriptedPrompter user;
        user.deferAnswers = true; // the dialog stays open
        auto link = std::make_unique<ClusterLink>(passwordProfile());
        link->setPrompter(&user);
        QString error = QStringLiteral("unset");
        bool done = false;
        link->post([&] {
            link->runner(&error);
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(!user.asked.isEmpty(), 30000);
        QElapsedTimer timer;
        timer.start();
        link.reset(); // declines the open prompt and joins the thread
        QVERIFY(done);
        QVERIFY(timer.elapsed() < 10000);
        QVERIFY(error != QLatin1String("unset") && !error.isEmpty());
        user.pending(QStringList{cluster_->password()}); // a late answer goes nowhere
    }
};

QTEST_GUILESS_MAIN(TestItClusterLink)
#include "tst_it_cluster_link.moc"
