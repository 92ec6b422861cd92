// SshSession against a real OpenSSH sshd on 127.0.0.1 (tests/fixtures/local-cluster): key, passphrase and agent
// login; strict known_hosts (unknown host fingerprint as ssh-keygen prints it, changed key refused); exec with
// exit code, both outputs and stdin; several channels over one connection; cancel and timeout; reconnect after
// sshd is killed and restarted.
#include "common/local_cluster.h"
#include "remote/ssh_command_runner.h"
#include "remote/ssh_session.h"

#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace diamond::remote;
using diamond::test::LocalCluster;

namespace {

/// Plays the user: answers from preset values and records every question.
class ScriptedUser : public SshPrompter {
public:
    bool acceptHost = false;
    QStringList passphrases; ///< answers in order; an empty list = the user cancels
    QStringList hostQuestions, passphraseQuestions;

    bool acceptUnknownHostKey(const QString &host, const QString &type, const QString &fingerprint) override {
        hostQuestions << host + QLatin1Char(' ') + type + QLatin1Char(' ') + fingerprint;
        return acceptHost;
    }
    std::optional<QString> passphrase(const QString &keyPath, bool retry) override {
        passphraseQuestions << keyPath + (retry ? QStringLiteral(" (retry)") : QString());
        if (passphrases.isEmpty()) return std::nullopt;
        return passphrases.takeFirst();
    }
    std::optional<QString> password(const QString &, bool) override { return std::nullopt; }
    std::optional<QStringList> interactive(const QString &, const QString &, const QList<SshPrompt> &) override {
        return std::nullopt;
    }
};

QByteArray run(const QString &program, const QStringList &args, const QProcessEnvironment &env = {}) {
    QProcess p;
    if (!env.isEmpty()) p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(30000);
    return p.readAllStandardOutput() + p.readAllStandardError();
}

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestItSshSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void keyLogin();
    void passphraseKeyLoginPromptsAndRemembers();
    void agentLogin();
    void unknownHostReportedWithFingerprint();
    void changedHostKeyRefused();
    void refusedKeyGivesClearError();
    void execExitCodeOutputsAndInput();
    void streamedInputGetsAWidePipe();
    void outputBeforeInputDoesNotStallTheWriter();
    void commandEndingBeforeItsInputGivesItsStatus();
    void severalChannelsOverOneConnection();
    void cancelAndTimeout();
    void channelOutlivingItsConnection();
    void hostAliasFromOpensshConfig();
    void proxyJumpThroughBastion();
    void reconnectAfterSshdRestart();
    void regeneratedServerKeyRefusedOnReconnect();
    void cleanupTestCase();

private:
    SshConnectOptions keyOptions() const {
        SshConnectOptions o;
        o.host = m_cluster->host();
        o.port = m_cluster->port();
        o.user = m_cluster->user();
        o.identityFiles = {m_cluster->keyPath()};
        o.useAgent = false;
        o.knownHostsPath = m_cluster->knownHostsPath();
        return o;
    }
    std::unique_ptr<LocalCluster> m_cluster;
    QTemporaryDir m_tmp;
};

void TestItSshSession::initTestCase() {
    m_cluster = std::make_unique<LocalCluster>(LocalCluster::Mode::SshOnly);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->log()));
    QVERIFY(m_tmp.isValid());
}

void TestItSshSession::cleanupTestCase() { m_cluster.reset(); }

void TestItSshSession::keyLogin() {
    ScriptedUser user;
    SshSession session(keyOptions(), &user);
    QString error;
    QElapsedTimer timer;
    timer.start();
    QVERIFY2(session.connect(&error), qPrintable(error));
    qInfo("connect + host key check + key auth: %lld ms", timer.elapsed());
    QCOMPARE(session.authMethod(), QStringLiteral("publickey"));
    QVERIFY(user.hostQuestions.isEmpty());
    QVERIFY(user.passphraseQuestions.isEmpty());
    const CommandResult r = session.exec(QStringLiteral("id -un"));
    QVERIFY2(r.ok(), qPrintable(r.error + QString::fromLocal8Bit(r.stderrData)));
    QCOMPARE(r.stdoutData, QByteArray("diamondtest\n"));
}

void TestItSshSession::passphraseKeyLoginPromptsAndRemembers() {
    ScriptedUser user;
    user.passphrases = {QStringLiteral("wrong"), m_cluster->keyPassphrase()};
    SshConnectOptions o = keyOptions();
    o.identityFiles = {m_cluster->passphraseKeyPath()};
    SshSession session(o, &user);
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    QCOMPARE(session.authMethod(), QStringLiteral("publickey"));
    QCOMPARE(user.passphraseQuestions,
             QStringList({o.identityFiles.first(), o.identityFiles.first() + QStringLiteral(" (retry)")}));
    // The passphrase that worked is kept in memory: reconnecting asks nothing.
    QVERIFY2(session.reconnect(&error), qPrintable(error));
    QCOMPARE(user.passphraseQuestions.size(), 2);
    QVERIFY(session.exec(QStringLiteral("true")).ok());

    // A user who cancels the prompt gets a clear failure naming the key.
    ScriptedUser cancelling;
    SshSession refused(o, &cancelling);
    QVERIFY(!refused.connect(&error));
    QVERIFY2(error.contains(o.identityFiles.first()), qPrintable(error));
    QCOMPARE(cancelling.passphraseQuestions.size(), 1);
}

void TestItSshSession::agentLogin() {
    const QString socket = m_tmp.filePath(QStringLiteral("agent.sock"));
    QProcess agent;
    agent.start(QStringLiteral("ssh-agent"), {QStringLiteral("-D"), QStringLiteral("-a"), socket});
    QVERIFY(agent.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(socket), 10000);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SSH_AUTH_SOCK"), socket);
    const QByteArray added = run(QStringLiteral("ssh-add"), {m_cluster->keyPath()}, env);
    QVERIFY2(run(QStringLiteral("ssh-add"), {QStringLiteral("-l")}, env).contains("ED25519"), added.constData());

    ScriptedUser user;
    SshConnectOptions o = keyOptions();
    o.identityFiles.clear(); // only the agent holds the key
    o.useAgent = true;
    o.agentSocket = socket;
    SshSession session(o, &user);
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    QCOMPARE(session.authMethod(), QStringLiteral("agent"));
    QCOMPARE(session.exec(QStringLiteral("echo via-agent")).stdoutData, QByteArray("via-agent\n"));

    // Without the agent the same options cannot log in.
    agent.kill();
    agent.waitForFinished();
    SshSession without(o, &user);
    QVERIFY(!without.connect(&error));
    QVERIFY2(error.contains(QStringLiteral("ssh-agent")), qPrintable(error));
}

void TestItSshSession::unknownHostReportedWithFingerprint() {
    // What OpenSSH shows for the server's key: "256 SHA256:... comment (ED25519)".
    const QList<QByteArray> keygen =
        run(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), m_cluster->hostKeyPubPath()}).split(' ');
    QVERIFY(keygen.size() >= 2);
    const QString expected = QString::fromLatin1(keygen.at(1));
    QVERIFY(expected.startsWith(QStringLiteral("SHA256:")));

    const QString knownHosts = m_tmp.filePath(QStringLiteral("fresh/known_hosts")); // folder does not exist yet
    SshConnectOptions o = keyOptions();
    o.knownHostsPath = knownHosts;
    ScriptedUser declining;
    SshSession first(o, &declining);
    QString error;
    QVERIFY(!first.connect(&error));
    QCOMPARE(declining.hostQuestions.size(), 1);
    QVERIFY2(declining.hostQuestions.first().endsWith(QStringLiteral(" ssh-ed25519 ") + expected),
             qPrintable(declining.hostQuestions.first()));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY(!QFile::exists(knownHosts));

    ScriptedUser accepting;
    accepting.acceptHost = true;
    SshSession second(o, &accepting);
    QVERIFY2(second.connect(&error), qPrintable(error));
    QCOMPARE(second.hostKeyFingerprint(), expected);
    QCOMPARE(accepting.hostQuestions.size(), 1);
    // The accepted key is now recorded; OpenSSH agrees it is the right one.
    const QByteArray found = run(QStringLiteral("ssh-keygen"),
                                 {QStringLiteral("-F"), QStringLiteral("[127.0.0.1]:%1").arg(m_cluster->port()),
                                  QStringLiteral("-f"), knownHosts});
    QVERIFY2(found.contains("ssh-ed25519"), found.constData());
    QCOMPARE(QFileInfo(knownHosts).permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
             QFileDevice::Permissions());

    ScriptedUser askNothing;
    SshSession third(o, &askNothing);
    QVERIFY2(third.connect(&error), qPrintable(error));
    QVERIFY(askNothing.hostQuestions.isEmpty());
}

void TestItSshSession::changedHostKeyRefused() {
    // known_hosts records another key for [127.0.0.1]:PORT, as after a reinstall or an attack.
    const QString otherKey = m_tmp.filePath(QStringLiteral("other_host_key"));
    run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                       QStringLiteral("-N"), QString(), QStringLiteral("-f"), otherKey});
    const QByteArray pub = readFile(otherKey + QStringLiteral(".pub"));
    QVERIFY(pub.startsWith("ssh-ed25519 "));
    const QString knownHosts = m_tmp.filePath(QStringLiteral("changed_known_hosts"));
    const QByteArray line =
        "[127.0.0.1]:" + QByteArray::number(m_cluster->port()) + ' ' + pub.split(' ').mid(0, 2).join(' ') + '\n';
    {
        QFile f(knownHosts);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(line);
    }
    SshConnectOptions o = keyOptions();
    o.knownHostsPath = knownHosts;
    ScriptedUser user;
    user.acceptHost = true; // even a user who says yes to everything is not asked
    SshSession session(o, &user);
    QString error;
    QVERIFY(!session.connect(&error));
    QVERIFY(user.hostQuestions.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("CHANGED")), qPrintable(error));
    QVERIFY2(error.contains(knownHosts), qPrintable(error));
    QVERIFY(!session.isConnected());
    QCOMPARE(readFile(knownHosts), line); // never overwritten
    // And OpenSSH refuses it too.
    QProcess ssh;
    ssh.start(QStringLiteral("ssh"),
              {QStringLiteral("-i"), m_cluster->keyPath(), QStringLiteral("-p"), QString::number(m_cluster->port()),
               QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + knownHosts, QStringLiteral("-o"),
               QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
               QStringLiteral("diamondtest@127.0.0.1"), QStringLiteral("true")});
    QVERIFY(ssh.waitForFinished(20000));
    QVERIFY(ssh.exitCode() != 0);
    QVERIFY(ssh.readAllStandardError().contains("CHANGED"));
}

void TestItSshSession::refusedKeyGivesClearError() {
    const QString stranger = m_tmp.filePath(QStringLiteral("stranger_key"));
    run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                       QStringLiteral("-N"), QString(), QStringLiteral("-f"), stranger});
    SshConnectOptions o = keyOptions();
    o.identityFiles = {stranger};
    ScriptedUser user;
    SshSession session(o, &user);
    QString error;
    QVERIFY(!session.connect(&error));
    QVERIFY2(error.contains(QStringLiteral("refused every authentication method")), qPrintable(error));
    QVERIFY2(error.contains(stranger), qPrintable(error));
}

void TestItSshSession::execExitCodeOutputsAndInput() {
    SshSession session(keyOptions());
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    CommandResult r = session.exec(QStringLiteral("echo out; echo err >&2; exit 3"));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(r.stdoutData, QByteArray("out\n"));
    QCOMPARE(r.stderrData, QByteArray("err\n"));
    QVERIFY(!r.ok());

    QByteArray input(3 * 1024 * 1024 + 17, 'x');
    r = session.exec(QStringLiteral("wc -c"), input);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.stdoutData.trimmed(), QByteArray::number(input.size()));

    r = session.exec(QStringLiteral("head -c 5000000 /dev/zero; head -c 70000 /dev/zero >&2"));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.stdoutData.size(), 5000000);
    QCOMPARE(r.stderrData.size(), 70000);

    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 20; ++i)
        QVERIFY(session.exec(QStringLiteral("true")).ok());
    qInfo("exec on an open session: %.1f ms each", double(timer.elapsed()) / 20);
}

void TestItSshSession::streamedInputGetsAWidePipe() {
    // F_GETPIPE_SZ (1032) of the command's stdin: 64 KiB for a plain command, 1 MiB for a streamed input.
    SshSession session(keyOptions());
    SshCommandRunner runner(&session);
    const QString pipeSize = QStringLiteral("perl -e 'print fcntl(STDIN, 1032, 0)'; cat > /dev/null");
    const CommandResult plain = runner.run(pipeSize, "x");
    QVERIFY2(plain.ok(), qPrintable(plain.error + QString::fromUtf8(plain.stderrData)));
    QCOMPARE(plain.stdoutData, QByteArray("65536"));
    const CommandResult streamed = runner.runStreaming(pipeSize, inputOf(QByteArray(3 << 20, 'x')));
    QVERIFY2(streamed.ok(), qPrintable(streamed.error + QString::fromUtf8(streamed.stderrData)));
    QCOMPARE(streamed.stdoutData, QByteArray("1048576"));
}

void TestItSshSession::outputBeforeInputDoesNotStallTheWriter() {
    // The command prints, then reads its input only after the writer has used up the channel window (2 MiB): with
    // the output still buffered, libssh did not read the window adjustment and the writer waited for good.
    SshSession session(keyOptions());
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    const QByteArray input(6 << 20, 'y');
    QElapsedTimer timer;
    timer.start();
    const CommandResult r =
        session.execStreaming(QStringLiteral("echo early; echo early-err >&2; sleep 1; wc -c"), inputOf(input), 60000);
    QVERIFY2(r.ok(), qPrintable(r.error + QString::fromUtf8(r.stderrData)));
    QCOMPARE(r.stdoutData, QByteArray("early\n") + QByteArray::number(input.size()) + '\n');
    QCOMPARE(r.stderrData, QByteArray("early-err\n"));
    qInfo("6 MiB after early output: %lld ms", timer.elapsed());
}

void TestItSshSession::commandEndingBeforeItsInputGivesItsStatus() {
    SshSession session(keyOptions());
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    const CommandResult r =
        session.execStreaming(QStringLiteral("echo done-early; exit 3"), inputOf(QByteArray(6 << 20, 'z')), 60000);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.exitCode, 3);
    QCOMPARE(r.stdoutData, QByteArray("done-early\n"));
    // The session stays usable.
    const CommandResult next = session.exec(QStringLiteral("echo next"));
    QVERIFY2(next.ok(), qPrintable(next.error));
    QCOMPARE(next.stdoutData, QByteArray("next\n"));
}

void TestItSshSession::severalChannelsOverOneConnection() {
    SshSession session(keyOptions());
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    QElapsedTimer timer;
    timer.start();
    std::vector<std::unique_ptr<SshChannel>> channels;
    for (int i = 0; i < 4; ++i) {
        channels.push_back(session.openExec(QStringLiteral("sleep 1; echo channel-%1").arg(i), &error));
        QVERIFY2(channels.back(), qPrintable(error));
    }
    QList<QByteArray> outputs(4);
    QByteArray ignored;
    bool allDone = false;
    while (!allDone && timer.elapsed() < 20000) {
        allDone = true;
        for (int i = 0; i < 4; ++i) {
            if (channels[size_t(i)]->atEnd()) continue;
            allDone = false;
            QVERIFY2(channels[size_t(i)]->read(&outputs[i], &ignored, 20, &error), qPrintable(error));
        }
    }
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(outputs[i], QStringLiteral("channel-%1\n").arg(i).toLatin1());
        QCOMPARE(channels[size_t(i)]->exitStatus(), 0);
    }
    // Four one-second commands ran at the same time, not one after the other.
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
}

void TestItSshSession::cancelAndTimeout() {
    SshSession session(keyOptions());
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    QElapsedTimer timer;
    timer.start();
    CommandResult r = session.exec(QStringLiteral("sleep 30"), {}, 500);
    QVERIFY2(r.error.contains(QStringLiteral("timed out")), qPrintable(r.error));
    QVERIFY(timer.elapsed() < 3000);

    timer.restart();
    std::thread canceller([&session] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        session.cancel();
    });
    r = session.exec(QStringLiteral("sleep 30"), {}, 0);
    canceller.join();
    QCOMPARE(r.error, QStringLiteral("cancelled"));
    QVERIFY(timer.elapsed() < 3000);
    session.resetCancel();
    // The connection is still usable after a cancel.
    r = session.exec(QStringLiteral("echo still-here"));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.stdoutData, QByteArray("still-here\n"));
}

void TestItSshSession::channelOutlivingItsConnection() {
    SshSession session(keyOptions());
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    std::unique_ptr<SshChannel> stale = session.openExec(QStringLiteral("sleep 5"), &error);
    QVERIFY2(stale, qPrintable(error));
    QVERIFY2(session.reconnect(&error), qPrintable(error));
    QByteArray out, err;
    QVERIFY(!stale->read(&out, &err, 100, &error));
    QVERIFY(stale->atEnd());
    QCOMPARE(stale->exitStatus(), -1);
    stale.reset(); // must not touch the new connection
    QCOMPARE(session.exec(QStringLiteral("echo fine")).stdoutData, QByteArray("fine\n"));
}

void TestItSshSession::hostAliasFromOpensshConfig() {
    // The fixture's OpenSSH client config (Host localcluster: HostName, Port, User, IdentityFile,
    // IdentitiesOnly, UserKnownHostsFile) drives the session exactly as it drives `ssh localcluster`.
    SshConfig config;
    QString error;
    QVERIFY2(config.load(m_cluster->sshConfigPath(), &error), qPrintable(error));
    const SshHostConfig host = config.resolve(m_cluster->sshAlias());
    QCOMPARE(host.port, m_cluster->port());
    const SshConnectOptions o = SshConnectOptions::fromConfig(host, QStringLiteral("/nonexistent/known_hosts"));
    QCOMPARE(o.knownHostsPath, m_cluster->knownHostsPath());
    ScriptedUser user;
    SshSession session(o, &user);
    QVERIFY2(session.connect(&error), qPrintable(error));
    QCOMPARE(session.authMethod(), QStringLiteral("publickey"));
    QCOMPARE(session.exec(QStringLiteral("id -un")).stdoutData, QByteArray("diamondtest\n"));
}

void TestItSshSession::proxyJumpThroughBastion() {
    // The fixture's sshd is its own bastion: ProxyJump diamondtest@127.0.0.1:PORT, then 127.0.0.1:PORT.
    const QString log = m_cluster->baseDir() + QStringLiteral("/log/sshd.log");
    const int acceptedBefore = int(readFile(log).count("Accepted publickey"));
    SshConnectOptions o = keyOptions();
    o.proxyJump = QStringLiteral("%1@127.0.0.1:%2").arg(m_cluster->user()).arg(m_cluster->port());
    o.proxyJumpSshOptions = {QStringLiteral("-i"), m_cluster->keyPath(),
                             QStringLiteral("-o"), QStringLiteral("IdentitiesOnly=yes"),
                             QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + m_cluster->knownHostsPath(),
                             QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=yes")};
    ScriptedUser user;
    SshSession session(o, &user);
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    const CommandResult r = session.exec(QStringLiteral("echo jumped"));
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.stdoutData, QByteArray("jumped\n"));
    // Two logins reached sshd: the bastion hop and the session through it.
    QTRY_COMPARE_WITH_TIMEOUT(int(readFile(log).count("Accepted publickey")), acceptedBefore + 2, 5000);

    // A bastion that cannot be reached makes the connection fail with a clear error.
    o.proxyJump = QStringLiteral("%1@127.0.0.1:1").arg(m_cluster->user());
    SshSession broken(o, &user);
    QVERIFY(!broken.connect(&error));
    QVERIFY2(error.contains(QStringLiteral("cannot connect")), qPrintable(error));
}

void TestItSshSession::reconnectAfterSshdRestart() {
    LocalCluster cluster(LocalCluster::Mode::SshOnly);
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    SshConnectOptions o;
    o.host = cluster.host();
    o.port = cluster.port();
    o.user = cluster.user();
    o.identityFiles = {cluster.keyPath()};
    o.useAgent = false;
    o.knownHostsPath = cluster.knownHostsPath();
    SshCommandRunner runner(o);
    runner.setReconnectPolicy(ReconnectPolicy{8, 200, 2000});
    QList<int> attempts;
    runner.setReconnectObserver([&attempts](int attempt, int) { attempts << attempt; });
    CommandResult r = runner.run(QStringLiteral("echo before"));
    QVERIFY2(r.ok(), qPrintable(r.error));

    QVERIFY2(cluster.stopSshd(), qPrintable(cluster.log())); // kills the listener and our connection
    QString error;
    QTRY_VERIFY_WITH_TIMEOUT(!runner.session().sendKeepalive(&error), 5000); // the loss is noticed
    // sshd comes back 1.5 s later on the same port, while the runner is retrying.
    std::thread restarter([&cluster] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        cluster.start();
    });
    QElapsedTimer timer;
    timer.start();
    r = runner.run(QStringLiteral("echo after"));
    restarter.join();
    QVERIFY2(cluster.isRunning(), qPrintable(cluster.log()));
    QVERIFY2(r.ok(), qPrintable(r.error + QStringLiteral(" / ") + cluster.log()));
    QCOMPARE(r.stdoutData, QByteArray("after\n"));
    QCOMPARE(runner.reconnectCount(), 1);
    QVERIFY(attempts.size() >= 2); // it failed at least once while sshd was down, with growing delays
    qInfo("reconnected after %lld ms, %lld attempts", timer.elapsed(), qint64(attempts.size()));
}

void TestItSshSession::regeneratedServerKeyRefusedOnReconnect() {
    // The server is "reinstalled" (new host key) while we are connected: the reconnect must refuse it.
    LocalCluster cluster(LocalCluster::Mode::SshOnly);
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    const QString knownHosts = m_tmp.filePath(QStringLiteral("reinstall_known_hosts"));
    QVERIFY(QFile::copy(cluster.knownHostsPath(), knownHosts));
    SshConnectOptions o;
    o.host = cluster.host();
    o.port = cluster.port();
    o.user = cluster.user();
    o.identityFiles = {cluster.keyPath()};
    o.useAgent = false;
    o.knownHostsPath = knownHosts;
    ScriptedUser user;
    user.acceptHost = true;
    SshSession session(o, &user);
    QString error;
    QVERIFY2(session.connect(&error), qPrintable(error));
    const QString oldFingerprint = session.hostKeyFingerprint();
    const QByteArray recorded = readFile(knownHosts);

    QVERIFY2(cluster.stopSshd(), qPrintable(cluster.log()));
    const QString hostKey = cluster.hostKeyPubPath().chopped(4);
    QVERIFY(QFile::remove(hostKey) && QFile::remove(hostKey + QStringLiteral(".pub")));
    QVERIFY2(cluster.start(), qPrintable(cluster.log())); // start.sh makes a new host key
    QVERIFY(!session.reconnect(&error));
    QVERIFY2(error.contains(QStringLiteral("CHANGED")), qPrintable(error));
    QVERIFY(session.hostKeyFingerprint() != oldFingerprint);
    QVERIFY2(error.contains(session.hostKeyFingerprint()), qPrintable(error));
    QVERIFY(user.hostQuestions.isEmpty());
    QCOMPARE(readFile(knownHosts), recorded);
    QCOMPARE(session.lastFailure(), SshSession::Failure::HostKey);

    // The runner's automatic reconnect gives up at once instead of retrying a refused key.
    SshCommandRunner runner(&session);
    runner.setReconnectPolicy(ReconnectPolicy{5, 100, 100});
    int attempts = 0;
    runner.setReconnectObserver([&attempts](int, int) { ++attempts; });
    const CommandResult r = runner.run(QStringLiteral("true"));
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("CHANGED")), qPrintable(r.error));
    QVERIFY(attempts <= 1);
}

QTEST_GUILESS_MAIN(TestItSshSession)
#include "tst_it_ssh_session.moc"
