// isAccountPasswordPrompt: which keyboard-interactive rounds may be answered from memory on a reconnect. Only a
// round asking the account password alone; one-time codes, tokens and anything shown while typed are asked anew.
#include "remote/ssh_session.h"

#include <QtTest>

using diamond::remote::isAccountPasswordPrompt;
using diamond::remote::SshPrompt;

class TestSshPromptRules : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rounds_data() {
        QTest::addColumn<QList<SshPrompt>>("prompts");
        QTest::addColumn<bool>("remembered");
        QTest::newRow("PAM password") << QList<SshPrompt>{{QStringLiteral("Password: "), false}} << true;
        QTest::newRow("named password") << QList<SshPrompt>{{QStringLiteral("alice@ls6's Password:"), false}} << true;
        QTest::newRow("TACC token") << QList<SshPrompt>{{QStringLiteral("TACC Token Code:"), false}} << false;
        QTest::newRow("verification code") << QList<SshPrompt>{{QStringLiteral("Verification code: "), false}} << false;
        QTest::newRow("one-time password")
            << QList<SshPrompt>{{QStringLiteral("One-time password (OTP): "), true}} << false;
        QTest::newRow("password and code together")
            << QList<SshPrompt>{{QStringLiteral("Password: "), false}, {QStringLiteral("Code: "), false}} << false;
        QTest::newRow("no prompt") << QList<SshPrompt>{} << false;
    }
    void rounds() {
        QFETCH(QList<SshPrompt>, prompts);
        QFETCH(bool, remembered);
        QCOMPARE(isAccountPasswordPrompt(prompts), remembered);
    }
};

QTEST_GUILESS_MAIN(TestSshPromptRules)
#include "tst_ssh_prompt_rules.moc"
