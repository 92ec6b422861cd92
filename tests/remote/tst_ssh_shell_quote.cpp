// shellQuote: every string survives a real /bin/sh unchanged (remote paths in sha256sum/head commands).
#include "remote/ssh_session.h"

#include <QProcess>
#include <QtTest>

using diamond::remote::shellQuote;

class TestSshShellQuote : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripThroughSh_data();
    void roundTripThroughSh();
};

void TestSshShellQuote::roundTripThroughSh_data() {
    QTest::addColumn<QString>("text");
    QTest::newRow("plain") << "runs/abc-1.2/events.jsonl";
    QTest::newRow("empty") << "";
    QTest::newRow("space") << "my file.txt";
    QTest::newRow("single-quote") << "it's";
    QTest::newRow("quotes-mixed") << "a'b\"c'\"d";
    QTest::newRow("dollar-backtick") << "$(rm -rf /) `id` $HOME";
    QTest::newRow("glob") << "*.txt ?[a]";
    QTest::newRow("newline") << "line1\nline2";
    QTest::newRow("leading-dash") << "-rf";
    QTest::newRow("unicode") << QStringLiteral("données/μ.bin");
}

void TestSshShellQuote::roundTripThroughSh() {
    QFETCH(QString, text);
    QProcess sh;
    sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("printf '%s' ") + shellQuote(text)});
    QVERIFY(sh.waitForFinished(10000));
    QCOMPARE(sh.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), text);
}

QTEST_GUILESS_MAIN(TestSshShellQuote)
#include "tst_ssh_shell_quote.moc"
