// SshConnection, the GUI's asynchronous façade, against a real sshd on 127.0.0.1: prompts arrive as signals and
// are answered by slots while this (GUI) thread keeps running its event loop; commands finish as signals; a
// dropped connection (sshd killed) is noticed by the keepalive and re-established with backoff; cancel.
#include "common/local_cluster.h"
#include "remote/ssh_connection.h"

#include <QCryptographicHash>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::remote;
using diamond::test::LocalCluster;

class TestItSshConnection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void unknownHostAskedThenConnected();
    void declinedHostFails();
    void passphrasePromptAnsweredBySlot();
    void commandsFinishAsSignalsInOrder();
    void cancelAllStopsRunningCommand();
    void transfersAsSignals();
    void reconnectsAfterSshdRestart();
    void cleanupTestCase();

private:
    SshConnectOptions options(const QString &knownHosts) const {
        SshConnectOptions o;
        o.host = m_cluster->host();
        o.port = m_cluster->port();
        o.user = m_cluster->user();
        o.identityFiles = {m_cluster->keyPath()};
        o.useAgent = false;
        o.knownHostsPath = knownHosts;
        return o;
    }
    std::unique_ptr<LocalCluster> m_cluster;
    QTemporaryDir m_tmp;
};

void TestItSshConnection::initTestCase() {
    m_cluster = std::make_unique<LocalCluster>(LocalCluster::Mode::SshOnly);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->log()));
}

void TestItSshConnection::cleanupTestCase() { m_cluster.reset(); }

void TestItSshConnection::unknownHostAskedThenConnected() {
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"), {QStringLiteral("-lf"), m_cluster->hostKeyPubPath()});
    QVERIFY(keygen.waitForFinished());
    const QString expected = QString::fromLatin1(keygen.readAllStandardOutput().split(' ').value(1));

    SshConnection connection(options(m_tmp.filePath(QStringLiteral("kh1"))));
    QSignalSpy asked(&connection, &SshConnection::hostKeyUnknown);
    QSignalSpy connected(&connection, &SshConnection::connected);
    QSignalSpy failed(&connection, &SshConnection::failed);
    // The "user" answers from the event loop, like a dialog would.
    QObject::connect(&connection, &SshConnection::hostKeyUnknown, &connection,
                     [&connection](const QString &, const QString &, const QString &) {
                         QTimer::singleShot(100, &connection, [&connection] { connection.acceptHostKey(true); });
                     });
    QElapsedTimer timer;
    timer.start();
    connection.open();
    QVERIFY(timer.elapsed() < 50); // open() returns at once
    QVERIFY2(connected.wait(15000), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    QCOMPARE(asked.size(), 1);
    QCOMPARE(asked.first().at(2).toString(), expected);
    QVERIFY(connection.isConnected());
    QVERIFY(QFile::exists(m_tmp.filePath(QStringLiteral("kh1"))));
}

void TestItSshConnection::declinedHostFails() {
    SshConnection connection(options(m_tmp.filePath(QStringLiteral("kh2"))));
    QSignalSpy failed(&connection, &SshConnection::failed);
    QObject::connect(&connection, &SshConnection::hostKeyUnknown, &connection,
                     [&connection] { connection.cancelPrompt(); });
    connection.open();
    QVERIFY(failed.wait(15000));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("not accepted")),
             qPrintable(failed.first().first().toString()));
    QVERIFY(!connection.isConnected());
}

void TestItSshConnection::passphrasePromptAnsweredBySlot() {
    SshConnectOptions o = options(m_cluster->knownHostsPath());
    o.identityFiles = {m_cluster->passphraseKeyPath()};
    SshConnection connection(o);
    QSignalSpy asked(&connection, &SshConnection::passphraseRequested);
    QSignalSpy connected(&connection, &SshConnection::connected);
    QSignalSpy finished(&connection, &SshConnection::commandFinished);
    const QString passphrase = m_cluster->keyPassphrase();
    QObject::connect(&connection, &SshConnection::passphraseRequested, &connection,
                     [&connection, passphrase](const QString &, bool retry) {
                         connection.providePassphrase(retry ? passphrase : QStringLiteral("wrong"));
                     });
    // A command before open(): the connection is made (with its prompts) first.
    const int id = connection.runCommand(QStringLiteral("echo ok"));
    QVERIFY(finished.wait(15000));
    QCOMPARE(connected.size(), 1);
    QCOMPARE(asked.size(), 2);
    QCOMPARE(asked.at(1).at(1).toBool(), true);
    QCOMPARE(finished.first().at(0).toInt(), id);
    const auto result = finished.first().at(1).value<CommandResult>();
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(result.stdoutData, QByteArray("ok\n"));
}

void TestItSshConnection::commandsFinishAsSignalsInOrder() {
    SshConnection connection(options(m_cluster->knownHostsPath()));
    QSignalSpy finished(&connection, &SshConnection::commandFinished);
    connection.open();
    QList<int> ids;
    for (int i = 0; i < 5; ++i)
        ids << connection.runCommand(QStringLiteral("echo %1; exit %1").arg(i));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 5, 15000);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(finished.at(i).at(0).toInt(), ids.at(i));
        const auto r = finished.at(i).at(1).value<CommandResult>();
        QCOMPARE(r.exitCode, i);
        QCOMPARE(r.stdoutData, QByteArray::number(i) + '\n');
    }
}

void TestItSshConnection::cancelAllStopsRunningCommand() {
    SshConnection connection(options(m_cluster->knownHostsPath()));
    QSignalSpy finished(&connection, &SshConnection::commandFinished);
    QSignalSpy connected(&connection, &SshConnection::connected);
    connection.open();
    QVERIFY(connected.wait(15000));
    connection.runCommand(QStringLiteral("sleep 30"), {}, 0);
    connection.runCommand(QStringLiteral("echo queued"));
    QTest::qWait(300);
    QElapsedTimer timer;
    timer.start();
    connection.cancelAll();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 5000);
    QVERIFY(timer.elapsed() < 3000);
    QCOMPARE(finished.at(0).at(1).value<CommandResult>().error, QStringLiteral("cancelled"));
    QCOMPARE(finished.at(1).at(1).value<CommandResult>().error, QStringLiteral("cancelled"));
    // Later requests run normally.
    connection.runCommand(QStringLiteral("echo again"));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 5000);
    QCOMPARE(finished.at(2).at(1).value<CommandResult>().stdoutData, QByteArray("again\n"));
}

void TestItSshConnection::transfersAsSignals() {
    const QString local = m_tmp.filePath(QStringLiteral("payload.bin"));
    QByteArray payload(24 * 1024 * 1024 + 7, Qt::Uninitialized);
    for (qsizetype i = 0; i < payload.size(); ++i)
        payload[i] = char((i * 7919) >> 3);
    {
        QFile f(local);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(payload);
    }
    SshConnection connection(options(m_cluster->knownHostsPath()));
    QSignalSpy progress(&connection, &SshConnection::transferProgress);
    QSignalSpy finished(&connection, &SshConnection::transferFinished);
    const QString remote = m_cluster->scratchDir() + QStringLiteral("/payload.bin");
    const int up = connection.upload(local, remote);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toInt(), up);
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(2).toString()));
    const auto stats = finished.first().at(3).value<TransferStats>();
    QCOMPARE(stats.totalBytes, qint64(payload.size()));
    QCOMPARE(stats.sha256, QCryptographicHash::hash(payload, QCryptographicHash::Sha256).toHex());
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(1).toLongLong(), qint64(payload.size()));

    const QString back = m_tmp.filePath(QStringLiteral("payload-back.bin"));
    const int down = connection.download(remote, back);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(1).at(0).toInt(), down);
    QVERIFY2(finished.at(1).at(1).toBool(), qPrintable(finished.at(1).at(2).toString()));
    QFile f(back);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll() == payload);

    const int missing = connection.download(m_cluster->scratchDir() + QStringLiteral("/absent"), back);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.at(2).at(0).toInt(), missing);
    QVERIFY(!finished.at(2).at(1).toBool());
    QVERIFY2(finished.at(2).at(2).toString().contains(QStringLiteral("absent")),
             qPrintable(finished.at(2).at(2).toString()));
}

void TestItSshConnection::reconnectsAfterSshdRestart() {
    LocalCluster cluster(LocalCluster::Mode::SshOnly);
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    SshConnectOptions o;
    o.host = cluster.host();
    o.port = cluster.port();
    o.user = cluster.user();
    o.identityFiles = {cluster.keyPath()};
    o.useAgent = false;
    o.knownHostsPath = cluster.knownHostsPath();
    o.keepaliveIntervalSec = 1;
    SshConnection connection(o);
    connection.setReconnectPolicy(ReconnectPolicy{10, 200, 1000});
    QSignalSpy connected(&connection, &SshConnection::connected);
    QSignalSpy lost(&connection, &SshConnection::connectionLost);
    QSignalSpy reconnecting(&connection, &SshConnection::reconnecting);
    QSignalSpy reconnected(&connection, &SshConnection::reconnected);
    QSignalSpy finished(&connection, &SshConnection::commandFinished);
    connection.open();
    QVERIFY(connected.wait(15000));

    QVERIFY2(cluster.stopSshd(), qPrintable(cluster.log()));
    QVERIFY(lost.wait(5000)); // noticed by the keepalive, without any request
    QTRY_VERIFY_WITH_TIMEOUT(reconnecting.size() >= 2, 10000);
    QVERIFY(!connection.isConnected());
    QVERIFY2(cluster.start(), qPrintable(cluster.log()));
    QVERIFY(reconnected.wait(15000));
    QVERIFY(connection.isConnected());
    // Delays grow: 200, 400, 800, 1000 (capped).
    QCOMPARE(reconnecting.at(0).at(1).toInt(), 200);
    QCOMPARE(reconnecting.at(1).at(1).toInt(), 400);
    connection.runCommand(QStringLiteral("echo back"));
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(1).value<CommandResult>().stdoutData, QByteArray("back\n"));
}

QTEST_GUILESS_MAIN(TestItSshConnection)
#include "tst_it_ssh_connection.moc"
