// bench_sftp: upload/download throughput of SftpTransfer (libssh 0.10) and of OpenSSH's `sftp -b` on the same
// random file over the local-cluster fixture's sshd (127.0.0.1). Prints a table and optionally writes JSON.
//
//   bench_sftp [--size-mib N (128)] [--repeat R (3)] [--json FILE]
//
// "transfer" counts only moving bytes; "with verify" adds SftpTransfer's SHA-256 checks on both sides. OpenSSH
// timings are the whole `sftp -b` process minus the median of a no-op `sftp -b` session (its connection setup).
#include "common/local_cluster.h"
#include "remote/sftp_transfer.h"
#include "remote/ssh_session.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace diamond::remote;

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double runSftp(const diamond::test::LocalCluster &cluster, const QByteArray &batch) {
    QProcess p;
    p.start(QStringLiteral("sftp"), {QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("-"),
                                     QStringLiteral("-F"), cluster.sshConfigPath(), cluster.sshAlias()});
    QElapsedTimer t;
    t.start();
    p.write(batch);
    p.closeWriteChannel();
    p.waitForFinished(600000);
    if (p.exitCode() != 0) {
        std::fprintf(stderr, "sftp failed: %s\n", p.readAllStandardError().constData());
        return -1;
    }
    return double(t.nsecsElapsed()) / 1e9;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption sizeOption(QStringLiteral("size-mib"), QStringLiteral("file size in MiB"),
                                        QStringLiteral("N"), QStringLiteral("128"));
    const QCommandLineOption repeatOption(QStringLiteral("repeat"), QStringLiteral("repetitions"), QStringLiteral("R"),
                                          QStringLiteral("3"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("write results here"),
                                        QStringLiteral("FILE"));
    parser.addOptions({sizeOption, repeatOption, jsonOption});
    parser.process(app);
    const qint64 size = parser.value(sizeOption).toLongLong() * 1024 * 1024;
    const int repeat = qMax(1, parser.value(repeatOption).toInt());

    diamond::test::LocalCluster cluster(diamond::test::LocalCluster::Mode::SshOnly);
    if (!cluster.start()) {
        std::fprintf(stderr, "%s\n", qPrintable(cluster.log()));
        return 1;
    }
    QTemporaryDir tmp;
    const QString local = tmp.filePath(QStringLiteral("bench.bin"));
    const QString back = tmp.filePath(QStringLiteral("back.bin"));
    {
        QFile f(local);
        if (!f.open(QIODevice::WriteOnly)) return 1;
        QByteArray block(1 << 20, Qt::Uninitialized);
        for (qint64 done = 0; done < size; done += block.size()) {
            QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
            f.write(block.constData(), qMin<qint64>(block.size(), size - done));
        }
    }
    const QString remote = cluster.scratchDir() + QStringLiteral("/bench.bin");

    SshConnectOptions o;
    o.host = cluster.host();
    o.port = cluster.port();
    o.user = cluster.user();
    o.identityFiles = {cluster.keyPath()};
    o.useAgent = false;
    o.knownHostsPath = cluster.knownHostsPath();
    SshSession session(o);
    QString error;
    if (!session.connect(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    SftpTransfer transfer(session);
    std::vector<double> up, upAll, down, downAll, sftpPut, sftpGet, sftpSetup;
    for (int r = 0; r < repeat; ++r) {
        session.exec(QStringLiteral("rm -f ") + shellQuote(remote));
        QFile::remove(back);
        TransferStats stats;
        QElapsedTimer t;
        t.start();
        if (!transfer.upload(local, remote, {}, &stats, &error)) {
            std::fprintf(stderr, "upload: %s\n", qPrintable(error));
            return 1;
        }
        upAll.push_back(double(size) / (double(t.nsecsElapsed()) / 1e9) / 1e6);
        up.push_back(stats.bytesPerSecond() / 1e6);
        t.restart();
        if (!transfer.download(remote, back, {}, &stats, &error)) {
            std::fprintf(stderr, "download: %s\n", qPrintable(error));
            return 1;
        }
        downAll.push_back(double(size) / (double(t.nsecsElapsed()) / 1e9) / 1e6);
        down.push_back(stats.bytesPerSecond() / 1e6);

        sftpSetup.push_back(runSftp(cluster, "pwd\n"));
        const double put = runSftp(cluster, "put " + local.toLocal8Bit() + ' ' + remote.toLocal8Bit() + '\n');
        QFile::remove(back);
        const double get = runSftp(cluster, "get " + remote.toLocal8Bit() + ' ' + back.toLocal8Bit() + '\n');
        if (put < 0 || get < 0) return 1;
        sftpPut.push_back(put);
        sftpGet.push_back(get);
    }
    const double setup = median(sftpSetup);
    auto rate = [&](const std::vector<double> &secs) {
        std::vector<double> r;
        for (double s : secs)
            r.push_back(double(size) / qMax(1e-6, s - setup) / 1e6);
        return median(r);
    };
    QJsonObject result{{QStringLiteral("size_bytes"), double(size)},
                       {QStringLiteral("repeat"), repeat},
                       {QStringLiteral("libssh_upload_MBps"), median(up)},
                       {QStringLiteral("libssh_upload_with_verify_MBps"), median(upAll)},
                       {QStringLiteral("libssh_download_MBps"), median(down)},
                       {QStringLiteral("libssh_download_with_verify_MBps"), median(downAll)},
                       {QStringLiteral("openssh_sftp_put_MBps"), rate(sftpPut)},
                       {QStringLiteral("openssh_sftp_get_MBps"), rate(sftpGet)},
                       {QStringLiteral("openssh_sftp_session_setup_s"), setup}};
    std::printf("SFTP over 127.0.0.1, %lld MiB, median of %d (MB/s = 1e6 bytes/s)\n", size / (1024 * 1024), repeat);
    std::printf("  libssh upload    %7.1f MB/s  (with SHA-256 verify %7.1f)\n", median(up), median(upAll));
    std::printf("  libssh download  %7.1f MB/s  (with SHA-256 verify %7.1f)\n", median(down), median(downAll));
    std::printf("  OpenSSH sftp put %7.1f MB/s\n", rate(sftpPut));
    std::printf("  OpenSSH sftp get %7.1f MB/s  (sftp session setup %.3f s subtracted)\n", rate(sftpGet), setup);
    if (parser.isSet(jsonOption)) {
        QFile out(parser.value(jsonOption));
        if (out.open(QIODevice::WriteOnly)) out.write(QJsonDocument(result).toJson());
    }
    return 0;
}
