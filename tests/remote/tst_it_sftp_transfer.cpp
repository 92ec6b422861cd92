// SFTP transfers against a real sshd on 127.0.0.1: a 64 MiB upload cancelled at ~40 % and resumed, verified by
// SHA-256 (ours and the host's sha256sum) and skipped when repeated; a corrupted partial file restarts from zero;
// the same for downloads; readFrom by byte offset as used to follow events.jsonl; throughput next to OpenSSH's
// sftp client on the same file.
#include "common/local_cluster.h"
#include "remote/sftp_transfer.h"
#include "remote/ssh_command_runner.h"
#include "remote/ssh_session.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>

using namespace diamond::remote;
using diamond::test::LocalCluster;

namespace {

constexpr qint64 kBigSize = 64 * 1024 * 1024 + 12345; // not a multiple of any chunk size

QByteArray sha256OfFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

/// Cancels the transfer once `fraction` of it is done; records the last progress seen.
struct CancelAt {
    double fraction;
    qint64 last = -1;
    qint64 total = 0;
    int calls = 0;
    TransferProgress callback() {
        return [this](qint64 done, qint64 all) {
            ++calls;
            last = done;
            total = all;
            return double(done) < fraction * double(all);
        };
    }
};

} // namespace

class TestItSftpTransfer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void uploadInterruptedResumedVerifiedSkipped();
    void corruptPartialUploadStartsOver();
    void downloadInterruptedResumedVerifiedSkipped();
    void readFromByOffset();
    void errorsNameThePath();
    void uploadSurvivesSshdRestart();
    void throughputAgainstOpensshSftp();
    void cleanupTestCase();

private:
    QString remote(const QString &name) const { return m_cluster->scratchDir() + QLatin1Char('/') + name; }
    QByteArray opensshRemoteSha(const QString &path) {
        QByteArray out, err;
        m_cluster->ssh(QStringLiteral("sha256sum < ") + shellQuote(path), &out, &err);
        return out.left(64);
    }

    std::unique_ptr<LocalCluster> m_cluster;
    std::unique_ptr<SshCommandRunner> m_runner;
    QTemporaryDir m_tmp;
    QString m_big;
    QByteArray m_bigSha;
};

void TestItSftpTransfer::initTestCase() {
    m_cluster = std::make_unique<LocalCluster>(LocalCluster::Mode::SshOnly);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->log()));
    SshConnectOptions o;
    o.host = m_cluster->host();
    o.port = m_cluster->port();
    o.user = m_cluster->user();
    o.identityFiles = {m_cluster->keyPath()};
    o.useAgent = false;
    o.knownHostsPath = m_cluster->knownHostsPath();
    m_runner = std::make_unique<SshCommandRunner>(o);
    QVERIFY(m_tmp.isValid());
    m_big = m_tmp.filePath(QStringLiteral("big.bin"));
    QFile f(m_big);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (qint64 written = 0; written < kBigSize; written += block.size()) {
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
        f.write(block.constData(), qMin<qint64>(block.size(), kBigSize - written));
    }
    f.close();
    m_bigSha = sha256OfFile(m_big);
}

void TestItSftpTransfer::cleanupTestCase() {
    m_runner.reset();
    m_cluster.reset();
}

void TestItSftpTransfer::uploadInterruptedResumedVerifiedSkipped() {
    const QString target = remote(QStringLiteral("big.bin"));
    QString error;
    CancelAt cancel{0.4};
    QVERIFY(!m_runner->upload(m_big, target, &error, cancel.callback()));
    QVERIFY2(error.contains(QStringLiteral("cancelled")), qPrintable(error));
    QCOMPARE(cancel.total, kBigSize);
    QVERIFY(cancel.last >= qint64(0.4 * kBigSize) && cancel.last < kBigSize);
    SftpTransfer transfer(m_runner->session());
    const qint64 partial = transfer.remoteSize(target, &error);
    QCOMPARE(partial, cancel.last); // every acknowledged byte is on the host, nothing more
    QVERIFY(opensshRemoteSha(target) != m_bigSha);

    CancelAt observe{2.0};
    QVERIFY2(m_runner->upload(m_big, target, &error, observe.callback()), qPrintable(error));
    TransferStats stats = m_runner->lastTransfer();
    QCOMPARE(stats.resumedFrom, partial);
    QCOMPARE(stats.transferredBytes, kBigSize - partial);
    QCOMPARE(stats.totalBytes, kBigSize);
    QVERIFY(!stats.skipped);
    QCOMPARE(stats.sha256, m_bigSha);
    QCOMPARE(opensshRemoteSha(target), m_bigSha); // checked independently of the code under test
    QCOMPARE(observe.last, kBigSize);
    qInfo("resumed upload: %lld bytes from offset %lld at %.1f MB/s", stats.transferredBytes, stats.resumedFrom,
          stats.bytesPerSecond() / 1e6);

    QVERIFY2(m_runner->upload(m_big, target, &error), qPrintable(error));
    stats = m_runner->lastTransfer();
    QVERIFY(stats.skipped);
    QCOMPARE(stats.transferredBytes, qint64(0));
    QCOMPARE(stats.sha256, m_bigSha);
}

void TestItSftpTransfer::corruptPartialUploadStartsOver() {
    const QString target = remote(QStringLiteral("corrupt.bin"));
    QString error;
    CancelAt cancel{0.5};
    QVERIFY(!m_runner->upload(m_big, target, &error, cancel.callback()));
    // Flip the first byte on the host: the prefix no longer matches, so resuming would be wrong.
    QByteArray out, err;
    QCOMPARE(
        m_cluster->ssh(
            QStringLiteral("printf '\\377' | dd of=%1 bs=1 count=1 conv=notrunc status=none").arg(shellQuote(target)),
            &out, &err),
        0);
    QVERIFY2(m_runner->upload(m_big, target, &error), qPrintable(error));
    const TransferStats stats = m_runner->lastTransfer();
    QCOMPARE(stats.resumedFrom, qint64(0));
    QCOMPARE(stats.transferredBytes, kBigSize);
    QCOMPARE(opensshRemoteSha(target), m_bigSha);

    // A longer file on the host than here is replaced too.
    const QString small = m_tmp.filePath(QStringLiteral("small.txt"));
    QFile f(small);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("short\n");
    f.close();
    QVERIFY2(m_runner->upload(small, target, &error), qPrintable(error));
    QCOMPARE(m_runner->lastTransfer().resumedFrom, qint64(0));
    QCOMPARE(m_cluster->ssh(QStringLiteral("cat ") + shellQuote(target), &out, &err), 0);
    QCOMPARE(out, QByteArray("short\n"));
}

void TestItSftpTransfer::downloadInterruptedResumedVerifiedSkipped() {
    const QString source = remote(QStringLiteral("big.bin"));
    QString error;
    QVERIFY2(m_runner->upload(m_big, source, &error), qPrintable(error)); // present (skipped if already there)
    const QString local = m_tmp.filePath(QStringLiteral("downloaded.bin"));
    CancelAt cancel{0.4};
    QVERIFY(!m_runner->download(source, local, &error, cancel.callback()));
    QVERIFY2(error.contains(QStringLiteral("cancelled")), qPrintable(error));
    const qint64 partial = QFileInfo(local).size();
    QVERIFY(partial >= qint64(0.4 * kBigSize) && partial < kBigSize);
    QCOMPARE(partial, cancel.last);

    QVERIFY2(m_runner->download(source, local, &error), qPrintable(error));
    TransferStats stats = m_runner->lastTransfer();
    QCOMPARE(stats.resumedFrom, partial);
    QCOMPARE(stats.transferredBytes, kBigSize - partial);
    QCOMPARE(sha256OfFile(local), m_bigSha);
    qInfo("resumed download: %lld bytes at %.1f MB/s", stats.transferredBytes, stats.bytesPerSecond() / 1e6);

    QVERIFY2(m_runner->download(source, local, &error), qPrintable(error));
    QVERIFY(m_runner->lastTransfer().skipped);

    // A local partial file whose content differs is downloaded again from the start.
    QFile f(local);
    QVERIFY(f.open(QIODevice::ReadWrite));
    f.resize(1000);
    f.seek(10);
    f.write("garbage");
    f.close();
    QVERIFY2(m_runner->download(source, local, &error), qPrintable(error));
    QCOMPARE(m_runner->lastTransfer().resumedFrom, qint64(0));
    QCOMPARE(sha256OfFile(local), m_bigSha);
}

void TestItSftpTransfer::readFromByOffset() {
    const QString events = remote(QStringLiteral("events.jsonl"));
    QString error;
    QCOMPARE(m_runner->readFrom(events, 0, 1000, &error), QByteArray()); // not there yet: nothing, no error
    QVERIFY(error.isEmpty());
    QByteArray out, err;
    QCOMPARE(m_cluster->ssh(QStringLiteral("printf '{\"a\":1}\\n{\"b\":2}\\n' > ") + shellQuote(events), &out, &err),
             0);
    QCOMPARE(m_runner->readFrom(events, 0, 8, &error), QByteArray("{\"a\":1}\n"));
    QCOMPARE(m_runner->readFrom(events, 8, 1000, &error), QByteArray("{\"b\":2}\n"));
    QCOMPARE(m_runner->readFrom(events, 16, 1000, &error), QByteArray());
    QVERIFY(error.isEmpty());
    QCOMPARE(m_cluster->ssh(QStringLiteral("printf '{\"c\":3}\\n' >> ") + shellQuote(events), &out, &err), 0);
    QCOMPARE(m_runner->readFrom(events, 16, 1000, &error), QByteArray("{\"c\":3}\n"));
    // Larger than one SFTP request.
    const QByteArray big = m_runner->readFrom(remote(QStringLiteral("big.bin")), 1000, 1000000, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QFile f(m_big);
    QVERIFY(f.open(QIODevice::ReadOnly));
    f.seek(1000);
    QCOMPARE(big, f.read(1000000));
}

void TestItSftpTransfer::errorsNameThePath() {
    QString error;
    QVERIFY(!m_runner->upload(m_tmp.filePath(QStringLiteral("missing")), remote(QStringLiteral("x")), &error));
    QVERIFY2(error.contains(m_tmp.filePath(QStringLiteral("missing"))), qPrintable(error));
    QVERIFY(!m_runner->upload(m_big, QStringLiteral("/nonexistent-dir/big.bin"), &error));
    QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/big.bin")), qPrintable(error));
    QVERIFY(!m_runner->download(remote(QStringLiteral("nope.bin")), m_tmp.filePath(QStringLiteral("n")), &error));
    QVERIFY2(error.contains(QStringLiteral("nope.bin")), qPrintable(error));
    // The session survives these errors.
    QVERIFY(m_runner->run(QStringLiteral("true")).ok());
}

void TestItSftpTransfer::uploadSurvivesSshdRestart() {
    // sshd is killed (with every connection) at ~30 % of an upload and back 1 s later: the runner reconnects
    // with backoff and the same upload() call resumes from what reached the host, verified by SHA-256.
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
    runner.setReconnectPolicy(ReconnectPolicy{10, 200, 1000});
    const QString target = cluster.scratchDir() + QStringLiteral("/restart.bin");
    bool killed = false;
    std::thread restarter;
    const TransferProgress progress = [&](qint64 done, qint64 total) {
        if (!killed && done > total * 3 / 10) {
            killed = true;
            cluster.stopSshd();
            restarter = std::thread([&cluster] {
                std::this_thread::sleep_for(std::chrono::milliseconds(1000));
                cluster.start();
            });
        }
        return true;
    };
    QString error;
    const bool ok = runner.upload(m_big, target, &error, progress);
    if (restarter.joinable()) restarter.join();
    QVERIFY(killed);
    QVERIFY2(ok, qPrintable(error + QStringLiteral(" / ") + cluster.log()));
    const TransferStats stats = runner.lastTransfer();
    QCOMPARE(runner.reconnectCount(), 1);
    QVERIFY2(stats.resumedFrom > kBigSize / 4, qPrintable(QString::number(stats.resumedFrom)));
    QCOMPARE(stats.sha256, m_bigSha);
    QByteArray out, err;
    QCOMPARE(cluster.ssh(QStringLiteral("sha256sum < ") + shellQuote(target), &out, &err), 0);
    QCOMPARE(out.left(64), m_bigSha);
}

void TestItSftpTransfer::throughputAgainstOpensshSftp() {
    const QString target = remote(QStringLiteral("bench.bin"));
    const QString back = m_tmp.filePath(QStringLiteral("bench-back.bin"));
    QString error;
    QByteArray out, err;
    m_cluster->ssh(QStringLiteral("rm -f ") + shellQuote(target), &out, &err);
    QVERIFY2(m_runner->upload(m_big, target, &error), qPrintable(error));
    const TransferStats up = m_runner->lastTransfer();
    QFile::remove(back);
    QVERIFY2(m_runner->download(target, back, &error), qPrintable(error));
    const TransferStats down = m_runner->lastTransfer();
    QCOMPARE(up.transferredBytes, kBigSize);
    QCOMPARE(down.transferredBytes, kBigSize);

    // OpenSSH's sftp in batch mode on the same file and connection settings.
    auto sftpSeconds = [&](const QByteArray &batch) {
        QProcess p;
        p.start(QStringLiteral("sftp"), {QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("-"),
                                         QStringLiteral("-F"), m_cluster->sshConfigPath(), m_cluster->sshAlias()});
        p.write(batch);
        p.closeWriteChannel();
        QElapsedTimer t;
        t.start();
        p.waitForFinished(120000);
        return p.exitCode() == 0 ? double(t.nsecsElapsed()) / 1e9 : -1.0;
    };
    const double opensshUp = sftpSeconds("put " + m_big.toLocal8Bit() + " " + target.toLocal8Bit() + "\n");
    const double opensshDown = sftpSeconds("get " + target.toLocal8Bit() + " " + back.toLocal8Bit() + "\n");
    QVERIFY(opensshUp > 0 && opensshDown > 0);
    qInfo("64 MiB over loopback: libssh upload %.1f MB/s, download %.1f MB/s; OpenSSH sftp put %.1f MB/s, get %.1f "
          "MB/s (sftp timings include its connection setup)",
          up.bytesPerSecond() / 1e6, down.bytesPerSecond() / 1e6, double(kBigSize) / opensshUp / 1e6,
          double(kBigSize) / opensshDown / 1e6);
}

QTEST_GUILESS_MAIN(TestItSftpTransfer)
#include "tst_it_sftp_transfer.moc"
