// bench_dataset_staging: the dataset registry and staging (app/data) against the local-cluster fixture's sshd on
// 127.0.0.1, with the figures issue #17 asks for:
//   - re-staging an unchanged 1 GiB folder: payload bytes and seconds;
//   - 1 % of the files of that folder changed: a new version, and the share of its bytes that travel;
//   - a transfer cut at 50 % (sshd stopped and started): total bytes sent / dataset size, every file verified;
//   - 10,000 files of about 4 KiB: staging time against one SFTP transfer per file (OpenSSH `sftp -b`, one session),
//     for an image folder (PNGs in 10 class folders: kept in packs on the host) and for other files (unpacked);
//   - one 1 GiB file: staging throughput (hashing and verification included) against raw `cat` over SSH on the same
//     link (the same libssh transport, an exec channel writing to a file).
// The last two alternate staging and baseline three times (fresh caches) and report median ratios.
//
//   bench_dataset_staging [--mib N (1024)] [--small N (10000)] [--rtt-ms MS (0)] [--only-small] [--json FILE]
// --rtt-ms sends every connection through a relay on 127.0.0.1 that delays each direction by MS/2 (a campus or
// wide-area link, where each per-file SFTP transfer pays round trips).
#include "common/data_file_builders.h"
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
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace diamond;
using namespace diamond::app;

namespace {

using test::randomBytes;

bool write(const QString &path, const QByteArray &data) { return test::writeFile(path, data); }

double seconds(const QElapsedTimer &t) { return double(t.nsecsElapsed()) / 1e9; }

/// A 64x64 gray PNG of noise from `seed` (about 4.2 KiB: noise does not compress).
QByteArray noisePng(quint32 seed) {
    QRandomGenerator g(seed);
    std::string rows;
    for (int y = 0; y < 64; ++y) {
        rows.push_back('\0');
        for (int x = 0; x < 64; ++x)
            rows.push_back(char(g.bounded(256)));
    }
    const std::string png = diamond::test::files::png(64, 64, 0, rows);
    return QByteArray(png.data(), qsizetype(png.size()));
}

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

/// A TCP relay on 127.0.0.1 that delays every byte by `oneWay` in each direction: a link with a round-trip time
/// of 2 x oneWay between this machine and the fixture's sshd, for comparing per-file transfers with staging on
/// something like a campus or wide-area link. Loopback only.
class DelayRelay {
public:
    DelayRelay(quint16 targetPort, std::chrono::microseconds oneWay) : target_(targetPort), delay_(oneWay) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
            ::listen(listener_, 16) != 0 || ::getsockname(listener_, reinterpret_cast<sockaddr *>(&a), &len) != 0)
            die(QStringLiteral("cannot listen on 127.0.0.1"));
        port_ = ntohs(a.sin_port);
        threads_.emplace_back([this] { acceptLoop(); });
    }
    ~DelayRelay() {
        stop_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        ::close(listener_);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (const int fd : sockets_)
                ::shutdown(fd, SHUT_RDWR);
        }
        for (std::thread &t : threads_)
            t.join();
        for (const int fd : sockets_)
            ::close(fd);
    }
    quint16 port() const { return port_; }

private:
    void acceptLoop() {
        while (!stop_) {
            const int client = ::accept(listener_, nullptr, nullptr);
            if (client < 0) return;
            const int server = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            a.sin_port = htons(target_);
            if (::connect(server, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
                ::close(client);
                ::close(server);
                continue;
            }
            const int one = 1;
            ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            ::setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            std::lock_guard<std::mutex> lock(mutex_);
            sockets_ << client << server;
            threads_.emplace_back([this, client, server] { pump(client, server); });
            threads_.emplace_back([this, client, server] { pump(server, client); });
        }
    }
    /// Bytes read from `from` are written to `to` once they are delay_ old; EOF is passed on after them.
    void pump(int from, int to) {
        using Clock = std::chrono::steady_clock;
        std::deque<std::pair<Clock::time_point, QByteArray>> queue;
        bool ended = false;
        char buffer[65536];
        while (!stop_ && !(ended && queue.empty())) {
            qint64 waitUs = 20000;
            if (!queue.empty())
                waitUs = std::max<qint64>(
                    0,
                    std::chrono::duration_cast<std::chrono::microseconds>(queue.front().first - Clock::now()).count());
            pollfd p{from, POLLIN, 0};
            const timespec wait{time_t(waitUs / 1000000), long(waitUs % 1000000) * 1000};
            if (!ended && ::ppoll(&p, 1, &wait, nullptr) > 0) {
                const ssize_t n = ::read(from, buffer, sizeof buffer);
                if (n <= 0)
                    ended = true;
                else
                    queue.emplace_back(Clock::now() + delay_, QByteArray(buffer, n));
            } else if (ended && !queue.empty()) {
                std::this_thread::sleep_for(std::chrono::microseconds(waitUs));
            }
            while (!queue.empty() && queue.front().first <= Clock::now()) {
                const QByteArray &data = queue.front().second;
                for (qsizetype done = 0; done < data.size();) {
                    const ssize_t n = ::write(to, data.constData() + done, size_t(data.size() - done));
                    if (n <= 0) return;
                    done += n;
                }
                queue.pop_front();
            }
        }
        ::shutdown(to, SHUT_WR);
    }

    quint16 target_;
    std::chrono::microseconds delay_;
    int listener_ = -1;
    quint16 port_ = 0;
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    QList<int> sockets_;
    std::vector<std::thread> threads_;
};

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
    const QCommandLineOption rttOption(
        QStringLiteral("rtt-ms"), QStringLiteral("round-trip time added to the loopback link (ms, fractions allowed)"),
        QStringLiteral("MS"), QStringLiteral("0"));
    const QCommandLineOption onlySmallOption(QStringLiteral("only-small"),
                                             QStringLiteral("only the command latency and the small-files figures"));
    parser.addOptions({mibOption, smallOption, jsonOption, rttOption, onlySmallOption});
    parser.process(app);
    const qint64 mib = parser.value(mibOption).toLongLong();
    const int small = parser.value(smallOption).toInt();
    const double rttMs = parser.value(rttOption).toDouble();
    const bool onlySmall = parser.isSet(onlySmallOption);
    const auto oneWay = std::chrono::microseconds(qint64(rttMs * 500.0));

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
    // With --rtt-ms, every connection (staging, sftp, raw cat) goes through a delaying relay; the host key is the
    // fixture's, listed for the relay's port.
    std::unique_ptr<DelayRelay> relay;
    QStringList sshPortOptions;
    if (oneWay.count() > 0) {
        relay = std::make_unique<DelayRelay>(quint16(cluster.port()), oneWay);
        QByteArray known = test::readFile(cluster.knownHostsPath());
        const QByteArray from = "]:" + QByteArray::number(cluster.port()) + ' ';
        const QByteArray to = "]:" + QByteArray::number(relay->port()) + ' ';
        known.replace(from, to);
        profile.knownHostsFile = dir.filePath(QStringLiteral("relay_known_hosts"));
        write(profile.knownHostsFile, known);
        profile.port = relay->port();
        sshPortOptions = {QStringLiteral("-P"), QString::number(relay->port()), QStringLiteral("-o"),
                          QStringLiteral("UserKnownHostsFile=") + profile.knownHostsFile};
        std::printf("link: loopback through a relay adding %.3f ms of round-trip time\n",
                    2.0 * double(oneWay.count()) / 1000.0);
    }
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

    auto median = [](QList<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    QElapsedTimer t;

    // 0. What one command costs on an open connection (each staging step is one): `true`, 20 times.
    {
        auto runner = makeClusterRunner(profile);
        runner->run(QStringLiteral("true"));
        QList<double> ms;
        for (int i = 0; i < 20; ++i) {
            t.restart();
            if (!runner->run(QStringLiteral("true")).ok()) die(QStringLiteral("`true` failed on the fixture"));
            ms << seconds(t) * 1000.0;
        }
        std::printf("one command on the open connection: median %.1f ms (min %.1f, max %.1f)\n", median(ms),
                    *std::min_element(ms.cbegin(), ms.cend()), *std::max_element(ms.cbegin(), ms.cend()));
        out.insert(QStringLiteral("command_ms"), median(ms));
    }

    if (!onlySmall) {
        // 1. A folder of `mib` files of 1 MiB.
        const QString folder = dir.filePath(QStringLiteral("folder"));
        for (qint64 i = 0; i < mib; ++i)
            write(QStringLiteral("%1/d%2/f%3.bin").arg(folder).arg(i % 16).arg(i), randomBytes(1 << 20, quint32(i)));
        t.start();
        const auto v1 = datasets.addVersion(QStringLiteral("folder"), folder);
        if (!v1) die(datasets.errorString());
        const double importS = seconds(t);
        const StageResult first = stage(*v1);
        const StageResult again = stage(*v1);
        std::printf(
            "folder of %lld x 1 MiB: import %.2f s, first staging %.2f s (%.0f MB/s), re-staging %.3f s with %lld "
            "bytes sent\n",
            mib, importS, first.seconds, double(first.bytesTotal) / first.seconds / 1e6, again.seconds,
            again.bytesSent);
        out.insert(QStringLiteral("folder_mib"), mib);
        out.insert(QStringLiteral("added_rtt_ms"), 2.0 * double(oneWay.count()) / 1000.0);
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
            changed, 100.0 * double(changed) / double(mib), v2->newBytes, delta.bytesSent, 100 * deltaShare,
            v2->sizeBytes, delta.seconds);
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

    } // !onlySmall

    // 4 and 5 alternate the staging and its baseline three times, each into a fresh cache or folder, and report the
    // median ratio: single runs on this 2-core VM vary by up to 1.6x.
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

    // 4. Many small files against one SFTP transfer per file (OpenSSH sftp, one session): an image folder (4 KiB PNGs
    // in 10 classes; kept packed on the host) and a folder of other files (unpacked into files there).
    auto smallFiles = [&](const QString &name, const QString &suffix, bool images, const QString &key) {
        const QString folder = dir.filePath(name);
        QStringList paths;
        for (int i = 0; i < small; ++i) {
            const QString rel = QStringLiteral("c%1/s%2%3").arg(i % 10).arg(i).arg(suffix);
            paths << rel;
            write(folder + QLatin1Char('/') + rel,
                  images ? noisePng(quint32(7000000 + i)) : randomBytes(4096, quint32(7000000 + i)));
        }
        const auto version = datasets.addVersion(name, folder);
        if (!version) die(datasets.errorString());
        std::printf("%d files (%s, %lld bytes)\n", small, qPrintable(version->format),
                    static_cast<long long>(version->sizeBytes));
        QList<double> ratios, stageS, sftpS;
        for (int rep = 0; rep < 3; ++rep) {
            const StageResult staged = stageFresh(*version, rep);
            const QByteArray target =
                cluster.scratchDir().toUtf8() + "/sftp-" + name.toUtf8() + QByteArray::number(rep);
            QByteArray batch = "-mkdir " + target + "\n";
            for (int c = 0; c < 10; ++c)
                batch += "-mkdir " + target + "/c" + QByteArray::number(c) + "\n";
            for (const QString &rel : paths)
                batch += "put \"" + (folder + QLatin1Char('/') + rel).toUtf8() + "\" \"" + target + "/" + rel.toUtf8() +
                         "\"\n";
            settle();
            QProcess sftp;
            sftp.start(QStringLiteral("sftp"),
                       QStringList{QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("-"),
                                   QStringLiteral("-F"), cluster.sshConfigPath()} +
                           sshPortOptions + QStringList{cluster.sshAlias()});
            t.restart();
            sftp.write(batch);
            sftp.closeWriteChannel();
            sftp.waitForFinished(1800000);
            const double sftpSeconds = seconds(t);
            if (sftp.exitCode() != 0) die(QString::fromUtf8(sftp.readAllStandardError()));
            std::printf("  one SFTP put per file: %.2f s\n", sftpSeconds);
            stageS << staged.seconds;
            sftpS << sftpSeconds;
            ratios << sftpSeconds / staged.seconds;
        }
        if (!images) {
            // The host's floor for unpacked files: the same files extracted from a tar already on its disk (file
            // creation alone, no network, no hashing), against which the staging time above can be read.
            auto runner = makeClusterRunner(profile);
            const QString floorDir = cluster.scratchDir() + QStringLiteral("/floor-") + name;
            runner->run(QStringLiteral("rm -rf %1 && mkdir -p %1/x && tar -cf %1/all.tar -C %2 . && sync")
                            .arg(floorDir, root + QStringLiteral("-rep0/") + name));
            QList<double> floorS;
            for (int rep = 0; rep < 3; ++rep) {
                runner->run(QStringLiteral("rm -rf %1/x && mkdir %1/x && sync").arg(floorDir));
                t.restart();
                const remote::CommandResult r =
                    runner->run(QStringLiteral("cd %1/x && tar -x -m -f ../all.tar").arg(floorDir));
                floorS << seconds(t);
                if (!r.ok()) die(r.error + QString::fromUtf8(r.stderrData));
            }
            runner->run(QStringLiteral("rm -rf %1").arg(floorDir));
            std::printf("  the host's floor: extracting the same files from a tar on its own disk took %.2f s "
                        "(median of %.2f, %.2f, %.2f)\n",
                        median(floorS), floorS[0], floorS[1], floorS[2]);
            out.insert(key + QStringLiteral("_host_extract_seconds"), median(floorS));
        }
        std::printf("%d files of about 4 KiB (%s): staged (verified) in %.2f s, one SFTP put per file %.2f s "
                    "(medians): %.1f x faster (median of %.1f, %.1f, %.1f)\n",
                    small, qPrintable(version->format), median(stageS), median(sftpS), median(ratios), ratios[0],
                    ratios[1], ratios[2]);
        out.insert(key + QStringLiteral("_files"), small);
        out.insert(key + QStringLiteral("_bytes"), version->sizeBytes);
        out.insert(key + QStringLiteral("_stage_seconds"), median(stageS));
        out.insert(key + QStringLiteral("_sftp_per_file_seconds"), median(sftpS));
        out.insert(key + QStringLiteral("_speedup"), median(ratios));
    };
    smallFiles(QStringLiteral("small"), QStringLiteral(".png"), true, QStringLiteral("small"));
    smallFiles(QStringLiteral("small-bin"), QStringLiteral(".bin"), false, QStringLiteral("small_other"));

    if (!onlySmall) {

        // 5. One large file: staging throughput against raw cat over the same SSH link (an exec channel of the same
        // libssh transport writing to a file, its stdin pipe widened as for staging's streams).
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
            const remote::CommandResult raw = runner->runStreaming(
                QStringLiteral("cat > %1/raw-cat-%2.bin").arg(cluster.scratchDir()).arg(rep), remote::inputOf(big), 0);
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
    } // !onlySmall

    if (parser.isSet(jsonOption)) {
        QFile f(parser.value(jsonOption));
        if (f.open(QIODevice::WriteOnly)) f.write(QJsonDocument(out).toJson());
    }
    return 0;
}
