// bench_dataset_staging: the dataset registry and staging (app/data) against the local-cluster fixture's sshd on
// 127.0.0.1, with the figures issue #17 asks for:
//   - re-staging an unchanged 1 GiB folder: payload bytes and seconds;
//   - 1 % of the files of that folder changed: a new version, and the share of its bytes that travel;
//   - a transfer cut at 50 % (sshd stopped and started): total bytes sent / dataset size, every file verified;
//   - 10,000 files of 4 KiB: staging time against one SFTP transfer per file (OpenSSH `sftp -b`, one session);
//   - one 1 GiB file: staging throughput (hashing and verification included) against raw `cat` over SSH on the same
//     link (the same libssh transport, an exec channel writing to a file).
// The last two alternate staging and baseline three times (fresh caches) and report median ratios.
//
//   bench_dataset_staging [--mib N (1024)] [--small N (10000)] [--json FILE]
#include "common/dataset_files.h"
#include "common/local_cluster.h"

#include "app/cluster/cluster_connection.h"
#include "app/data/dataset_stager.h"
#include "app/data/dataset_store.h"
#include "app/workspace/workspace.h"
#include "remote/command_runner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

using namespace diamond;
using namespace diamond::app;

namespace {

using test::randomBytes;

bool write(const QString &path, const QByteArray &data) { return test::writeFile(path, data); }

double seconds(const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e9; }

/// Before each measurement: the previous step's dirty pages written out, so that its write-back does not slow the
/// next one.
void settle() {
    QProcess::execute(QStringLiteral("sync"), {});
    QThread::msleep(300);
}

[[noreturn]] void die(const QString &what) {
    std::fprintf(stderr, "bench_dataset_staging: %s\n", qPrintable(what));
    std::exit(1);
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption mibOption(QStringLiteral("mib"), QStringLiteral("size of the large datasets in MiB"),
                                       QStringLiteral("N"), QStringLiteral("1024"));
    const QCommandLineOption smallOption(QStringLiteral("small"), QStringLiteral("number of 4 KiB files"),
                                         QStringLiteral("N"), QStringLiteral("10000"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("write the figures here"),
                                        QStringLiteral("FILE"));
    parser.addOptions({mibOption, smallOption, jsonOption});
    parser.process(app);
    const qint64 mib = parser.value(mibOption).toLongLong();
    const int small = parser.value(smallOption).toInt();

    QTemporaryDir dir;
    test::LocalCluster cluster(test::LocalCluster::Mode::SshOnly);
    if (!cluster.start()) die(cluster.log());
    remote::ClusterProfile profile;
    profile.name = QStringLiteral("bench");
    profile.host = cluster.host();
    profile.port = cluster.port();
    profile.user = cluster.user();
    profile.identityFile = cluster.keyPath();
    profile.knownHostsFile = cluster.knownHostsPath();
    profile.scratchDir = cluster.scratchDir();
    const QString root = profile.scratchDir + QStringLiteral("/datasets");
    Workspace ws;
    if (!ws.create(dir.filePath(QStringLiteral("ws")))) die(ws.errorString());
    DatasetStore datasets(ws);
    QJsonObject out;
    auto stage = [&](const DatasetVersion &v, const StageProgress &progress = {}) {
        settle();
        auto runner = makeClusterRunner(profile);
        runner->run(QStringLiteral("true")); // connected, as for the raw cat and sftp baselines
        DatasetStager stager(*runner, root);
        QString error;
        const auto r = stager.stage(v, datasets.chunks(), progress, &error);
        if (!r) die(error);
        return *r;
    };

    // 1. A folder of `mib` files of 1 MiB.
    const QString folder = dir.filePath(QStringLiteral("folder"));
    for (qint64 i = 0; i < mib; ++i)
        write(QStringLiteral("%1/d%2/f%3.bin").arg(folder).arg(i % 16).arg(i), randomBytes(1 << 20, quint32(i)));
    QElapsedTimer t;
    t.start();
    const auto v1 = datasets.addVersion(QStringLiteral("folder"), folder);
    if (!v1) die(datasets.errorString());
    const double importS = seconds(t);
    const StageResult first = stage(*v1);
    const StageResult again = stage(*v1);
    std::printf("folder of %lld x 1 MiB: import %.2f s, first staging %.2f s (%.0f MB/s), re-staging %.3f s with %lld "
                "bytes sent\n",
                mib, importS, first.seconds, double(first.bytesTotal) / first.seconds / 1e6, again.seconds,
                again.bytesSent);
    out.insert(QStringLiteral("folder_mib"), mib);
    out.insert(QStringLiteral("import_seconds"), importS);
    out.insert(QStringLiteral("first_stage_seconds"), first.seconds);
    out.insert(QStringLiteral("restage_seconds"), again.seconds);
    out.insert(QStringLiteral("restage_bytes_sent"), again.bytesSent);

    // 2. 1 % of the files changed.
    const qint64 changed = std::max<qint64>(1, mib / 100);
    for (qint64 i = 0; i < changed; ++i)
        write(QStringLiteral("%1/d%2/f%3.bin").arg(folder).arg((i * 97) % 16).arg(i * 97 % mib),
              randomBytes(1 << 20, quint32(900000 + i)));
    const auto v2 = datasets.addVersion(QStringLiteral("folder"), folder);
    if (!v2) die(datasets.errorString());
    const StageResult delta = stage(*v2);
    const double deltaShare = double(delta.bytesSent) / double(v2->sizeBytes);
    std::printf(
        "%lld files (%.2f %%) changed: version stored %lld new bytes; staging sent %lld bytes = %.2f %% of %lld "
        "in %.2f s\n",
        changed, 100.0 * double(changed) / double(mib), v2->newBytes, delta.bytesSent, 100 * deltaShare, v2->sizeBytes,
        delta.seconds);
    out.insert(QStringLiteral("changed_files"), changed);
    out.insert(QStringLiteral("changed_version_new_bytes"), v2->newBytes);
    out.insert(QStringLiteral("changed_stage_bytes_sent"), delta.bytesSent);
    out.insert(QStringLiteral("changed_stage_share"), deltaShare);

    // 3. A cut at 50 %: a fresh dataset of the same size, sshd stopped in the middle of a shard and started again.
    const QString cutFolder = dir.filePath(QStringLiteral("cut"));
    for (qint64 i = 0; i < mib; ++i)
        write(QStringLiteral("%1/f%2.bin").arg(cutFolder).arg(i), randomBytes(1 << 20, quint32(5000000 + i)));
    const auto cutVersion = datasets.addVersion(QStringLiteral("cut"), cutFolder);
    if (!cutVersion) die(datasets.errorString());
    std::atomic<bool> cut{false};
    std::thread cutter;
    const StageResult cutResult = stage(*cutVersion, [&](qint64 sent, qint64 toSend, const QString &) {
        if (!cut && toSend > 0 && sent * 2 >= toSend) {
            cut = true;
            cutter = std::thread([&cluster] {
                std::this_thread::sleep_for(std::chrono::milliseconds(40));
                cluster.stopSshd();
                std::this_thread::sleep_for(std::chrono::milliseconds(1000));
                cluster.start();
            });
        }
        return true;
    });
    if (cutter.joinable()) cutter.join();
    const double cutRatio = double(cutResult.bytesSent) / double(cutVersion->sizeBytes);
    std::printf("cut at 50 %%: %lld bytes sent for %lld (%.3f x), %d retries, %d files verified, %.2f s\n",
                cutResult.bytesSent, cutVersion->sizeBytes, cutRatio, cutResult.retries, cutResult.files,
                cutResult.seconds);
    out.insert(QStringLiteral("cut_bytes_ratio"), cutRatio);
    out.insert(QStringLiteral("cut_retries"), cutResult.retries);

    // 4 and 5 alternate the staging and its baseline three times, each into a fresh cache or folder, and report the
    // median ratio: single runs on this 2-core VM vary by up to 1.6x.
    auto median = [](QList<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    auto stageFresh = [&](const DatasetVersion &v, int rep) {
        settle();
        auto runner = makeClusterRunner(profile);
        runner->run(QStringLiteral("true")); // connected, as for the baselines
        DatasetStager stager(*runner, root + QStringLiteral("-rep%1").arg(rep));
        QString error;
        const auto r = stager.stage(v, datasets.chunks(), {}, &error);
        if (!r) die(error);
        std::printf("  staged in %.2f s (pack %.2f s, send %.2f s, assemble + hash %.2f s, %d shards, %d streams)\n",
                    r->seconds, r->packSeconds, r->sendSeconds, r->assembleSeconds, r->shards, r->streamedFiles);
        return *r;
    };

    // 4. Many small files against one SFTP transfer per file (OpenSSH sftp, one session).
    const QString smallFolder = dir.filePath(QStringLiteral("small"));
    for (int i = 0; i < small; ++i)
        write(QStringLiteral("%1/s%2.bin").arg(smallFolder).arg(i), randomBytes(4096, quint32(7000000 + i)));
    const auto smallVersion = datasets.addVersion(QStringLiteral("small"), smallFolder);
    if (!smallVersion) die(datasets.errorString());
    QList<double> smallRatios, smallStageS, sftpTimes;
    for (int rep = 0; rep < 3; ++rep) {
        const StageResult staged = stageFresh(*smallVersion, rep);
        const QByteArray target = cluster.scratchDir().toUtf8() + "/sftp-small-" + QByteArray::number(rep);
        QByteArray batch = "-mkdir " + target + "\n";
        for (int i = 0; i < small; ++i)
            batch += "put " + QStringLiteral("%1/s%2.bin").arg(smallFolder).arg(i).toUtf8() + " " + target + "/s" +
                     QByteArray::number(i) + ".bin\n";
        settle();
        QProcess sftp;
        sftp.start(QStringLiteral("sftp"), {QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("-"),
                                            QStringLiteral("-F"), cluster.sshConfigPath(), cluster.sshAlias()});
        t.restart();
        sftp.write(batch);
        sftp.closeWriteChannel();
        sftp.waitForFinished(1800000);
        const double sftpS = seconds(t);
        if (sftp.exitCode() != 0) die(QString::fromUtf8(sftp.readAllStandardError()));
        std::printf("  one SFTP put per file: %.2f s\n", sftpS);
        smallStageS << staged.seconds;
        sftpTimes << sftpS;
        smallRatios << sftpS / staged.seconds;
    }
    std::printf("%d files of 4 KiB: staged (verified) in %.2f s, one SFTP put per file %.2f s (medians): %.1f x faster "
                "(median of %.1f, %.1f, %.1f)\n",
                small, median(smallStageS), median(sftpTimes), median(smallRatios), smallRatios[0], smallRatios[1],
                smallRatios[2]);
    out.insert(QStringLiteral("small_files"), small);
    out.insert(QStringLiteral("small_stage_seconds"), median(smallStageS));
    out.insert(QStringLiteral("small_sftp_per_file_seconds"), median(sftpTimes));
    out.insert(QStringLiteral("small_speedup"), median(smallRatios));

    // 5. One large file: staging throughput against raw cat over the same SSH link (an exec channel of the same
    // libssh transport writing to a file).
    const QString bigFile = dir.filePath(QStringLiteral("big/one.bin"));
    const QByteArray big = randomBytes(mib << 20, 4242);
    write(bigFile, big);
    const auto bigVersion = datasets.addVersion(QStringLiteral("big"), bigFile);
    if (!bigVersion) die(datasets.errorString());
    QList<double> largeRatios, stageRates, rawRates;
    for (int rep = 0; rep < 3; ++rep) {
        const StageResult staged = stageFresh(*bigVersion, rep);
        settle();
        auto runner = makeClusterRunner(profile);
        runner->run(QStringLiteral("true"));
        t.restart();
        const remote::CommandResult raw =
            runner->run(QStringLiteral("cat > %1/raw-cat-%2.bin").arg(cluster.scratchDir()).arg(rep), big, 0);
        const double rawS = seconds(t);
        if (!raw.ok()) die(raw.error + QString::fromUtf8(raw.stderrData));
        std::printf("  raw cat over SSH: %.2f s\n", rawS);
        stageRates << double(staged.bytesTotal) / staged.seconds / 1e6;
        rawRates << double(big.size()) / rawS / 1e6;
        largeRatios << stageRates.last() / rawRates.last();
    }
    std::printf("one %lld MiB file: staged at %.0f MB/s (hashing and verification included), raw cat over SSH %.0f "
                "MB/s (medians): %.0f %% (median of %.0f, %.0f, %.0f %%)\n",
                mib, median(stageRates), median(rawRates), 100 * median(largeRatios), 100 * largeRatios[0],
                100 * largeRatios[1], 100 * largeRatios[2]);
    out.insert(QStringLiteral("large_stage_mb_s"), median(stageRates));
    out.insert(QStringLiteral("raw_cat_mb_s"), median(rawRates));
    out.insert(QStringLiteral("large_stage_vs_raw"), median(largeRatios));

    if (parser.isSet(jsonOption)) {
        QFile f(parser.value(jsonOption));
        if (f.open(QIODevice::WriteOnly)) f.write(QJsonDocument(out).toJson());
    }
    return 0;
}
