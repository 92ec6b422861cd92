// Password and keyboard-interactive login against a real sshd (PAM) on 127.0.0.1, with a user of the fixture
// instance that has a random password: prompts with retry, the answer remembered in memory for reconnects,
// keyboard-interactive prompts shown as they come (the same through a ClusterLink: tst_it_cluster_link).
#include "common/local_cluster.h"
#include "remote/ssh_session.h"

#include <QSignalSpy>
#include <QtTest>

using namespace diamond::remote;
using diamond::test::LocalCluster;

namespace {

class ScriptedUser : public SshPrompter {
public:
    QStringList passwords;          ///< answers in order; empty = cancel
    QStringList interactiveAnswers; ///< answer to every keyboard-interactive prompt, in order
    QStringList passwordQuestions;  ///< "user@host:port" [+ " (retry)"]
    QList<QList<SshPrompt>> interactiveRounds;

    bool acceptUnknownHostKey(const QString &, const QString &, const QString &) override { return false; }
    std::optional<QString> passphrase(const QString &, bool) override { return std::nullopt; }
    std::optional<QString> password(const QString &who, bool retry) override {
        passwordQuestions << who + (retry ? QStringLiteral(" (retry)") : QString());
        if (passwords.isEmpty()) return std::nullopt;
        return passwords.takeFirst();
    }
    std::optional<QStringList> interactive(const QString &, const QString &, const QList<SshPrompt> &prompts) override {
        interactiveRounds << prompts;
        if (interactiveAnswers.size() < prompts.size()) return std::nullopt;
        QStringList out = interactiveAnswers.mid(0, prompts.size());
        interactiveAnswers = interactiveAnswers.mid(prompts.size());
        return out;
    }
};

} // namespace

class TestItSshPassword : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void passwordWithRetryAndReconnect();
    void keyboardInteractivePrompts();
    void wrongPasswordsFailClearly();
    void cleanupTestCase();

private:
    SshConnectOptions options(bool password, bool interactive) const {
        SshConnectOptions o;
        o.host = m_cluster->host();
        o.port = m_cluster->port();
        o.user = m_cluster->passwordUser();
        o.useAgent = false;
        o.allowPassword = password;
        o.allowKeyboardInteractive = interactive;
        o.knownHostsPath = m_cluster->knownHostsPath();
        return o;
    }
    std::unique_ptr<LocalCluster> m_cluster;
};

void TestItSshPassword::initTestCase() {
    m_cluster = std::make_unique<LocalCluster>(LocalCluster::Mode::SshOnly);
    m_cluster->enablePasswordUser();
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->log()));
    QVERIFY(!m_cluster->passwordUser().isEmpty());
    QVERIFY(m_cluster->password().size() >= 16);
}

void TestItSshPassword::cleanupTestCase() { m_cluster.reset(); }

void TestItSshPassword::passwordWithRetryAndReconnect() {
    ScriptedUser user;
    user.passwords = {QStringLiteral("wrong"), m_cluster->password()};
    SshSession session(options(true, false), &user);
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    QCOMPARE(session.authMethod(), QStringLiteral("password"));
    const QString who = session.options().label();
    QCOMPARE(user.passwordQuestions, QStringList({who, who + QStringLiteral(" (retry)")}));
    const CommandResult r = session.exec(QStringLiteral("id -un"));
    QCOMPARE(r.stdoutData, (m_cluster->passwordUser() + QLatin1Char('\n')).toLatin1());
    QVERIFY2(session.reconnect(&error), qPrintable(error));
    QCOMPARE(user.passwordQuestions.size(), 2); // remembered in memory
}

void TestItSshPassword::keyboardInteractivePrompts() {
    ScriptedUser user;
    user.interactiveAnswers = {m_cluster->password()};
    SshSession session(options(false, true), &user);
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    QCOMPARE(session.authMethod(), QStringLiteral("keyboard-interactive"));
    QVERIFY(!user.interactiveRounds.isEmpty());
    const SshPrompt prompt = user.interactiveRounds.first().first();
    QVERIFY2(prompt.text.contains(QStringLiteral("assword")), qPrintable(prompt.text));
    QVERIFY(!prompt.echo);
    QVERIFY(user.passwordQuestions.isEmpty());
    // A round that asks only the account password is remembered like a password: the reconnect asks nothing.
    const int rounds = int(user.interactiveRounds.size());
    QVERIFY2(session.reconnect(&error), qPrintable(error));
    QCOMPARE(int(user.interactiveRounds.size()), rounds);
    QCOMPARE(session.authMethod(), QStringLiteral("keyboard-interactive"));
}

void TestItSshPassword::wrongPasswordsFailClearly() {
    ScriptedUser user;
    user.passwords = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")};
    SshSession session(options(true, false), &user);
    QString error;
    QVERIFY(!session.connect(&error));
    QVERIFY2(error.contains(QStringLiteral("password")), qPrintable(error));
    QVERIFY2(error.contains(session.options().label()), qPrintable(error));
    QVERIFY(user.passwordQuestions.size() >= 2);

    ScriptedUser cancelling; // cancels the prompt at once
    SshSession cancelled(options(true, false), &cancelling);
    QVERIFY(!cancelled.connect(&error));
    QCOMPARE(cancelling.passwordQuestions.size(), 1);
}

QTEST_GUILESS_MAIN(TestItSshPassword)
#include "tst_it_ssh_password.moc"
