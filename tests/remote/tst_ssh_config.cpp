// SshConfig: the OpenSSH client config subset, checked against what `ssh -G` resolves for the same file.
#include "remote/ssh_config.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using diamond::remote::SshConfig;
using diamond::remote::SshHostConfig;

namespace {

const char *const kConfig = R"(# comment
Host cluster hpc-*  !hpc-login9
  HostName %h.example.org
  User alice
  Port 2200
  IdentityFile ~/.ssh/id_%r_%h_%p
  IdentityFile /keys/second
  ServerAliveInterval 30

Host hpc-login9
  HostName 10.0.0.9
  ProxyJump bastion.example.org:2022

Host="quoted"
  HostName=quoted.example.org
  IdentitiesOnly yes
  UserKnownHostsFile "/tmp/known hosts file" /other

Host *
  User bob
  Port 22
  IdentityFile ~/.ssh/id_ed25519
  IdentitiesOnly no
)";

/// `ssh -G -F file host` prints every option OpenSSH resolves; lower-case keys.
QMultiMap<QString, QString> opensshResolve(const QString &file, const QString &host) {
    QProcess p;
    p.start(QStringLiteral("ssh"), {QStringLiteral("-G"), QStringLiteral("-F"), file, host});
    p.waitForFinished(10000);
    QMultiMap<QString, QString> out;
    for (const QByteArray &line : p.readAllStandardOutput().split('\n')) {
        const int space = line.indexOf(' ');
        if (space > 0) out.insert(QString::fromUtf8(line.left(space)), QString::fromUtf8(line.mid(space + 1)));
    }
    return out;
}

} // namespace

class TestSshConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void patterns_data();
    void patterns();
    void resolveAliasWithExpansions();
    void negationFallsThroughToWildcard();
    void quotedAndEqualsSyntax();
    void matchesOpensshResolution_data();
    void matchesOpensshResolution();
    void errorsNameFileAndLine();
    void missingFileIsEmptyConfig();
    void unsupportedKeywordsAreWarnings();
};

void TestSshConfig::patterns_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<bool>("matches");
    QTest::newRow("exact") << "cluster"
                           << "cluster" << true;
    QTest::newRow("case") << "Cluster"
                          << "cLuStEr" << true;
    QTest::newRow("star") << "hpc-login1"
                          << "hpc-*" << true;
    QTest::newRow("star-empty") << "hpc-"
                                << "hpc-*" << true;
    QTest::newRow("star-middle") << "a.b.example.org"
                                 << "*.example.org" << true;
    QTest::newRow("star-no") << "example.org"
                             << "*.example.org" << false;
    QTest::newRow("question") << "node7"
                              << "node?" << true;
    QTest::newRow("question-two") << "node17"
                                  << "node?" << false;
    QTest::newRow("prefix-only") << "clusterX"
                                 << "cluster" << false;
    QTest::newRow("brackets-literal") << "a[1]"
                                      << "a[1]" << true;
}

void TestSshConfig::patterns() {
    QFETCH(QString, host);
    QFETCH(QString, pattern);
    QFETCH(bool, matches);
    QCOMPARE(SshConfig::matchPattern(host, pattern), matches);
}

void TestSshConfig::resolveAliasWithExpansions() {
    SshConfig config;
    QString error;
    QVERIFY2(config.parse(kConfig, QStringLiteral("cfg"), &error), qPrintable(error));
    const SshHostConfig c = config.resolve(QStringLiteral("hpc-login1"), QStringLiteral("me"));
    QCOMPARE(c.hostName, QStringLiteral("hpc-login1.example.org"));
    QCOMPARE(c.user, QStringLiteral("alice")); // first match wins over "Host *"
    QCOMPARE(c.port, 2200);
    QCOMPARE(c.identityFiles,
             QStringList({QDir::homePath() + QStringLiteral("/.ssh/id_alice_hpc-login1.example.org_2200"),
                          QStringLiteral("/keys/second"), QDir::homePath() + QStringLiteral("/.ssh/id_ed25519")}));
    QCOMPARE(c.serverAliveIntervalSec, 30);
    QVERIFY(!c.identitiesOnly);
    QVERIFY(c.proxyJump.isEmpty());
}

void TestSshConfig::negationFallsThroughToWildcard() {
    SshConfig config;
    QString error;
    QVERIFY(config.parse(kConfig, QStringLiteral("cfg"), &error));
    const SshHostConfig c = config.resolve(QStringLiteral("hpc-login9"), QStringLiteral("me"));
    QCOMPARE(c.hostName, QStringLiteral("10.0.0.9"));
    QCOMPARE(c.user, QStringLiteral("bob"));
    QCOMPARE(c.port, 22);
    QCOMPARE(c.proxyJump, QStringLiteral("bastion.example.org:2022"));
    QCOMPARE(c.serverAliveIntervalSec, 0);
    const SshHostConfig other = config.resolve(QStringLiteral("laptop"), QStringLiteral("me"));
    QCOMPARE(other.hostName, QStringLiteral("laptop"));
    QCOMPARE(other.user, QStringLiteral("bob"));
    SshConfig empty;
    QCOMPARE(empty.resolve(QStringLiteral("x"), QStringLiteral("me")).user, QStringLiteral("me"));
}

void TestSshConfig::quotedAndEqualsSyntax() {
    SshConfig config;
    QString error;
    QVERIFY(config.parse(kConfig, QStringLiteral("cfg"), &error));
    const SshHostConfig c = config.resolve(QStringLiteral("quoted"), QStringLiteral("me"));
    QCOMPARE(c.hostName, QStringLiteral("quoted.example.org"));
    QVERIFY(c.identitiesOnly);
    QCOMPARE(c.userKnownHostsFile, QStringLiteral("/tmp/known hosts file"));
    QCOMPARE(config.hostAliases(),
             QStringList({QStringLiteral("cluster"), QStringLiteral("hpc-login9"), QStringLiteral("quoted")}));
}

void TestSshConfig::matchesOpensshResolution_data() {
    QTest::addColumn<QString>("alias");
    for (const char *alias : {"cluster", "hpc-login1", "hpc-login9", "quoted", "elsewhere"})
        QTest::newRow(alias) << alias;
}

void TestSshConfig::matchesOpensshResolution() {
    QFETCH(QString, alias);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("config"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kConfig);
    f.close();
    SshConfig config;
    QString error;
    QVERIFY2(config.load(file, &error), qPrintable(error));
    const SshHostConfig ours = config.resolve(alias);
    const auto theirs = opensshResolve(file, alias);
    QVERIFY2(!theirs.isEmpty(), "ssh -G printed nothing");
    QCOMPARE(ours.hostName, theirs.value(QStringLiteral("hostname")));
    QCOMPARE(ours.user, theirs.value(QStringLiteral("user")));
    QCOMPARE(QString::number(ours.port), theirs.value(QStringLiteral("port")));
    QCOMPARE(ours.identitiesOnly ? QStringLiteral("yes") : QStringLiteral("no"),
             theirs.value(QStringLiteral("identitiesonly")));
    QCOMPARE(QString::number(ours.serverAliveIntervalSec), theirs.value(QStringLiteral("serveraliveinterval")));
    QStringList theirIds = theirs.values(QStringLiteral("identityfile"));
    std::reverse(theirIds.begin(), theirIds.end()); // QMultiMap returns the newest first
    // ssh -G prints identity files unexpanded; expand as ssh does at use.
    for (QString &id : theirIds) {
        if (id.startsWith(QLatin1String("~/"))) id = QDir::homePath() + id.mid(1);
        id.replace(QLatin1String("%r"), theirs.value(QStringLiteral("user")))
            .replace(QLatin1String("%h"), theirs.value(QStringLiteral("hostname")))
            .replace(QLatin1String("%p"), theirs.value(QStringLiteral("port")));
    }
    QCOMPARE(ours.identityFiles, theirIds);
    if (theirs.contains(QStringLiteral("proxyjump")))
        QCOMPARE(ours.proxyJump, theirs.value(QStringLiteral("proxyjump")));
    else
        QVERIFY(ours.proxyJump.isEmpty());
}

void TestSshConfig::errorsNameFileAndLine() {
    SshConfig config;
    QString error;
    QVERIFY(!config.parse("Host a\n  Port 99999\n", QStringLiteral("my.cfg"), &error));
    QVERIFY2(error.startsWith(QStringLiteral("my.cfg:2:")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("99999")), qPrintable(error));
    QVERIFY(!config.parse("Host\n", QStringLiteral("my.cfg"), &error));
    QVERIFY2(error.startsWith(QStringLiteral("my.cfg:1:")), qPrintable(error));
    QVERIFY(!config.parse("Host a\n User \"bob\n", QStringLiteral("my.cfg"), &error));
    QVERIFY2(error.contains(QStringLiteral("quote")), qPrintable(error));
    QVERIFY(!config.parse("Host a\n IdentitiesOnly maybe\n", QStringLiteral("my.cfg"), &error));
}

void TestSshConfig::missingFileIsEmptyConfig() {
    SshConfig config;
    QString error;
    QVERIFY(config.load(QStringLiteral("/nonexistent/diamond/ssh_config"), &error));
    QCOMPARE(config.resolve(QStringLiteral("h"), QStringLiteral("me")).port, 22);
}

void TestSshConfig::unsupportedKeywordsAreWarnings() {
    SshConfig config;
    QString error;
    QVERIFY(config.parse("Include other\nHost a\n  User x\nMatch host a\n  User y\nHost b\n  User z\n",
                         QStringLiteral("c"), &error));
    QCOMPARE(config.warnings().size(), 2);
    QCOMPARE(config.resolve(QStringLiteral("a")).user, QStringLiteral("x"));
    QCOMPARE(config.resolve(QStringLiteral("b")).user, QStringLiteral("z"));
}

QTEST_GUILESS_MAIN(TestSshConfig)
#include "tst_ssh_config.moc"
