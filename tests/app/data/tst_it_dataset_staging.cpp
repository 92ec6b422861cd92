// Staging registered datasets to the project's cluster fixture (sshd + Slurm on 127.0.0.1) through SSH exec
// channels: only missing chunks travel, every file is verified on the far side, a connection cut in the middle of a
// shard (sshd stopped and started) is survived with little re-sending, damaged cache entries are sent again, and a
// cluster run whose config names "dataset" trains on the staged copy and records the version; the REST routes
// (`diamondctl serve`) upload, list, show, stage, unstage and remove datasets; `diamondctl data unstage|clean` free
// only the cache entries no staged version uses.
#include "common/cluster_runs.h"
#include "common/data_file_builders.h"
#include "common/dataset_files.h"
#include "common/engine_process.h"

#include "app/cluster/cluster_connection.h"
#include "app/cluster/cluster_store.h"
#include "app/data/dataset_cache_cleaner.h"
#include "app/data/dataset_stager.h"
#include "app/data/dataset_store.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "remote/command_runner.h"

#include <QDirIterator>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace diamond;
using namespace diamond::app;

/// Stops sshd (every connection drops) `delayMs` after half of what needs sending was handed over, and starts it
/// again 500 ms later; the destructor waits for that. With `delayMs` 0 the sender waits until sshd is stopped, so
/// the cut lands before the rest of the stream can leave.
class CutHalfway {
public:
    CutHalfway(test::LocalCluster &cluster, int delayMs) : cluster_(cluster), delayMs_(delayMs) {}
    ~CutHalfway() {
        if (thread_.joinable()) thread_.join();
    }
    StageProgress progress() {
        return [this](qint64 sent, qint64 toSend, const QString &) {
            if (!cut_ && toSend > 0 && sent * 2 >= toSend) {
                cut_ = true;
                if (delayMs_ == 0) cluster_.stopSshd();
                thread_ = std::thread([this] {
                    if (delayMs_ > 0) {
                        std::this_thread::sleep_for(std::chrono::milliseconds(delayMs_));
                        cluster_.stopSshd();
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(500));
                    cluster_.start();
                });
            }
            return true;
        };
    }
    /// True once the cut started; waits until sshd is back.
    bool happened() {
        if (thread_.joinable()) thread_.join();
        return cut_;
    }

private:
    test::LocalCluster &cluster_;
    int delayMs_;
    std::atomic<bool> cut_{false};
    std::thread thread_;
};

/// Runs commands on this machine but adds `lies` to every cache listing, as a hostile or broken host could.
class LyingRunner : public remote::LocalCommandRunner {
public:
    QList<QByteArray> lies;
    remote::CommandResult run(const QString &command, const QByteArray &input, int timeoutMs) override {
        remote::CommandResult r = LocalCommandRunner::run(command, input, timeoutMs);
        if (command.contains(QLatin1String("-printf 'F %f %s")))
            for (const QByteArray &lie : lies)
                r.stdoutData += lie + '\n';
        return r;
    }
};

/// Runs commands on this machine and counts them (each is one round trip to a cluster); LocalCommandRunner::run()
/// goes through runStreaming().
class CountingRunner : public remote::LocalCommandRunner {
public:
    int commands = 0;
    remote::CommandResult runStreaming(const QString &command, const remote::InputSource &input,
                                       int timeoutMs) override {
        ++commands;
        return LocalCommandRunner::runStreaming(command, input, timeoutMs);
    }
};

/// Runs commands on this machine but adds malformed and hostile lines to the cache cleaner's listing and counts.
class HostileCacheRunner : public remote::LocalCommandRunner {
public:
    remote::CommandResult run(const QString &command, const QByteArray &input, int timeoutMs) override {
        remote::CommandResult r = LocalCommandRunner::run(command, input, timeoutMs);
        if (command.contains(QLatin1String("-printf '%P")))
            r.stdoutData += "../../etc/0123456789abcdef\nx/y; rm -rf ~\n" + QByteArray(70, 'a') +
                            "/0123456789abcdef\nname/0123456789ABCDEF\n.files/0123456789abcdef\n" +
                            QByteArray(100000, 'z') + "\n";
        else
            r.stdoutData += "F 99999999999999999999999 18446744073709551616\nV\nK one two\nL -5\n";
        return r;
    }
};

class TestItDatasetStaging : public QObject {
    Q_OBJECT

    test::LocalCluster cluster_{test::LocalCluster::Mode::Slurm};
    QTemporaryDir dir_;
    std::unique_ptr<test::ClusterRuns> runs_;
    Workspace ws_;
    remote::ClusterProfile profile_;

    static QByteArray randomBytes(qint64 size, quint32 seed) { return diamond::test::randomBytes(size, seed); }
    static bool write(const QString &path, const QByteArray &data) { return diamond::test::writeFile(path, data); }
    static QByteArray read(const QString &path) { return diamond::test::readFile(path); }
    QString cacheRoot() const { return profile_.scratchDir + QStringLiteral("/datasets"); }
    /// Every file of `version` in its staged folder has the bytes of the source folder.
    QString compareStaged(const StageResult &staged, const DatasetVersion &version, const QString &source) {
        for (const ManifestFile &f : version.manifest.files) {
            const QByteArray there = read(staged.remoteDir + QLatin1Char('/') + f.path);
            if (there != read(source + QLatin1Char('/') + f.path)) return f.path;
        }
        return {};
    }
    std::optional<StageResult> stage(const DatasetVersion &v, QString *error, qint64 shardBytes = 0,
                                     const StageProgress &progress = {}) {
        auto runner = makeClusterRunner(profile_);
        DatasetStager stager(*runner, cacheRoot());
        if (shardBytes > 0) stager.setShardBytes(shardBytes);
        DatasetStore datasets(ws_);
        return stager.stage(v, datasets.chunks(), progress, error);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        qputenv("LOCAL_CLUSTER_KILL_WAIT", "5");
        QVERIFY2(cluster_.start(), qPrintable(cluster_.log()));
        runs_ = std::make_unique<test::ClusterRuns>(cluster_, dir_.path());
        profile_ = runs_->sshProfile();
        QVERIFY2(ws_.create(dir_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
        ClusterStore clusters(ws_);
        QVERIFY2(clusters.add(profile_), qPrintable(clusters.errorString()));
    }

    void onlyMissingChunksTravelAndEveryFileIsVerified() {
        // 60 files of 64 KiB and one of 9 MiB (3 chunks).
        const QString src = dir_.filePath(QStringLiteral("cells"));
        for (int i = 0; i < 60; ++i)
            QVERIFY(write(QStringLiteral("%1/class%2/img%3.bin").arg(src).arg(i % 3).arg(i),
                          randomBytes(65536, quint32(i))));
        QVERIFY(write(src + QStringLiteral("/table.bin"), randomBytes(9 << 20, 77)));
        DatasetStore datasets(ws_);
        const auto v1 = datasets.addVersion(QStringLiteral("cells"), src);
        QVERIFY2(v1, qPrintable(datasets.errorString()));
        QString error;
        auto staged = stage(*v1, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->payloadBytes, v1->sizeBytes);
        QCOMPARE(staged->files, 61);
        QVERIFY(!staged->alreadyStaged);
        QCOMPARE(compareStaged(*staged, *v1, src), QString());
        qInfo("first staging: %lld bytes in %.2f s (%d shards)", staged->bytesSent, staged->seconds, staged->shards);

        // Unchanged: nothing is sent.
        staged = stage(*v1, &error);
        QVERIFY2(staged, qPrintable(error));
        QVERIFY(staged->alreadyStaged);
        QCOMPARE(staged->bytesSent, qint64(0));
        QVERIFY2(staged->seconds < 5, qPrintable(QString::number(staged->seconds)));

        // One small file and one byte of the large file changed: one 64 KiB chunk and one 4 MiB chunk travel.
        QVERIFY(write(src + QStringLiteral("/class1/img4.bin"), randomBytes(65536, 4444)));
        QByteArray table = read(src + QStringLiteral("/table.bin"));
        table[5 << 20] = char(table[5 << 20] ^ 1);
        QVERIFY(write(src + QStringLiteral("/table.bin"), table));
        const auto v2 = datasets.addVersion(QStringLiteral("cells"), src);
        QVERIFY(v2);
        QCOMPARE(v2->version, 2);
        staged = stage(*v2, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->payloadBytes, qint64(65536 + (4 << 20)));
        QCOMPARE(staged->chunksSent, 2);
        QCOMPARE(staged->streamedFiles, 1); // the large file: its two unchanged chunks were copied on the host
        QCOMPARE(compareStaged(*staged, *v2, src), QString());
        QVERIFY(QFileInfo::exists(staged->remoteDir + QStringLiteral(".verified")));
    }

    void aCutConnectionIsSurvived() {
        const QString src = dir_.filePath(QStringLiteral("big"));
        for (int i = 0; i < 16; ++i)
            QVERIFY(write(QStringLiteral("%1/part%2.bin").arg(src).arg(i), randomBytes(4 << 20, quint32(1000 + i))));
        DatasetStore datasets(ws_);
        const auto v = datasets.addVersion(QStringLiteral("big"), src);
        QVERIFY(v);
        // In the middle of the next shard: drop every connection, then let sshd come back.
        CutHalfway cut(cluster_, 15);
        QString error;
        const auto staged = stage(*v, &error, 4 << 20, cut.progress());
        QVERIFY2(staged, qPrintable(error));
        QVERIFY(cut.happened());
        QVERIFY2(staged->retries >= 1, "the cut did not interrupt anything");
        QCOMPARE(compareStaged(*staged, *v, src), QString());
        const double ratio = double(staged->bytesSent) / double(v->sizeBytes);
        qInfo("cut at 50%%: %lld of %lld bytes sent in all (%.3f x), %d retries, %.2f s", staged->bytesSent,
              v->sizeBytes, ratio, staged->retries, staged->seconds);
        QVERIFY2(ratio <= 1.1, qPrintable(QString::number(ratio)));
    }

    void aCutInTheMiddleOfALargeFileResumesFromItsLastWholeChunk() {
        // One file of 10 chunks, sent as one stream; sshd stops while it travels.
        const QString src = dir_.filePath(QStringLiteral("volume"));
        QVERIFY(write(src + QStringLiteral("/volume.raw"), randomBytes((40 << 20) + 12345, 31337)));
        DatasetStore datasets(ws_);
        const auto v = datasets.addVersion(QStringLiteral("volume"), src);
        QVERIFY(v);
        QCOMPARE(v->manifest.files.first().chunks.size(), 11);
        CutHalfway cut(cluster_, 0);
        QString error;
        const auto staged = stage(*v, &error, 0, cut.progress());
        QVERIFY2(staged, qPrintable(error));
        QVERIFY(cut.happened());
        QVERIFY2(staged->retries >= 1, "the cut did not interrupt the stream");
        QCOMPARE(staged->streamedFiles, 1);
        QCOMPARE(compareStaged(*staged, *v, src), QString());
        // Resumed, not restarted: less than the file plus the chunks in flight (the SSH window and pipes, ~2 chunks).
        const double ratio = double(staged->bytesSent) / double(v->sizeBytes);
        qInfo("cut in a 40 MiB stream: %lld of %lld bytes sent (%.3f x), %d retries", staged->bytesSent, v->sizeBytes,
              ratio, staged->retries);
        QVERIFY2(ratio < 1.4, qPrintable(QString::number(ratio)));
    }

    void liesInTheCacheListingAreNotBelieved() {
        // A negative partial size and chunk lists pointing outside their file must neither crash nor stall staging.
        const QString src = dir_.filePath(QStringLiteral("lies"));
        QByteArray table = randomBytes(9 << 20, 99);
        QVERIFY(write(src + QStringLiteral("/table.bin"), table));
        DatasetStore datasets(ws_);
        const auto v1 = datasets.addVersion(QStringLiteral("lies"), src);
        QVERIFY(v1);
        LyingRunner runner;
        const QString root = dir_.filePath(QStringLiteral("lying-host"));
        QString error;
        DatasetStager first(runner, root);
        QVERIFY2(first.stage(*v1, datasets.chunks(), {}, &error), qPrintable(error));
        table[5 << 20] = char(table[5 << 20] ^ 1);
        QVERIFY(write(src + QStringLiteral("/table.bin"), table));
        const auto v2 = datasets.addVersion(QStringLiteral("lies"), src);
        QVERIFY(v2);
        const ManifestFile &f1 = v1->manifest.files.first(), &f2 = v2->manifest.files.first();
        const QByteArray changedChunk = f2.chunks[1];
        runner.lies = {"F .in-" + f2.sha256 + " -5000000", "C ./" + f1.sha256 + ".chunks -1 " + changedChunk,
                       "C ./" + f1.sha256 + ".chunks 1000 " + changedChunk};
        DatasetStager second(runner, root);
        second.setMaxFailures(2);
        const auto staged = second.stage(*v2, datasets.chunks(), {}, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->retries, 0);
        QCOMPARE(staged->payloadBytes, qint64(4) << 20); // the changed chunk, sent; the others copied there
        QCOMPARE(compareStaged(*staged, *v2, src), QString());
    }

    void aNewVersionTakesThreeCommands() {
        // The check for a staged copy also lists the cache, 200 small files travel in one stream, and the
        // assembly completes the version: three round trips; an unchanged version is one.
        const QString src = dir_.filePath(QStringLiteral("trips"));
        for (int i = 0; i < 200; ++i)
            QVERIFY(write(QStringLiteral("%1/f%2.bin").arg(src).arg(i), randomBytes(4096, quint32(4000 + i))));
        DatasetStore datasets(ws_);
        const auto v = datasets.addVersion(QStringLiteral("trips"), src);
        QVERIFY(v);
        const QString root = dir_.filePath(QStringLiteral("counted-host"));
        QString error;
        CountingRunner runner;
        DatasetStager stager(runner, root);
        const auto staged = stager.stage(*v, datasets.chunks(), {}, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->shards, 1);
        QCOMPARE(runner.commands, 3);
        QCOMPARE(compareStaged(*staged, *v, src), QString());
        CountingRunner again;
        DatasetStager second(again, root);
        QVERIFY(second.stage(*v, datasets.chunks(), {}, &error)->alreadyStaged);
        QCOMPARE(again.commands, 1);
    }

    void damagedCacheEntriesAreSentAgain() {
        DatasetStore datasets(ws_);
        const auto v2 = datasets.resolve(QStringLiteral("cells@2"));
        QVERIFY(v2);
        // Damage the cached chunk of one file (same size, other bytes); the next version shares it.
        const ManifestFile &victim = v2->manifest.files.first();
        const QString cached = cacheRoot() + QStringLiteral("/.files/") + QString::fromLatin1(victim.sha256);
        QVERIFY(QFile::exists(cached));
        // As the cluster's user; the staged copies are hard links: replace, not overwrite, the cache entry.
        QByteArray out, err;
        QCOMPARE(cluster_.ssh(QStringLiteral("rm -f %1 && head -c %2 /dev/urandom > %1").arg(cached).arg(victim.size),
                              &out, &err),
                 0);
        QVERIFY(read(cached) != read(dir_.filePath(QStringLiteral("cells/")) + victim.path));
        const QString src = dir_.filePath(QStringLiteral("cells"));
        QVERIFY(write(src + QStringLiteral("/class0/new.bin"), randomBytes(1000, 5)));
        const auto v3 = datasets.addVersion(QStringLiteral("cells"), src);
        QVERIFY(v3);
        QString error;
        const auto staged = stage(*v3, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->repaired, 1);
        QCOMPARE(compareStaged(*staged, *v3, src), QString());
        QCOMPARE(read(cached), read(src + QLatin1Char('/') + victim.path));
    }

    /// The staged images of `version` (an image folder) read from their packs through the version's index are the
    /// source's bytes; returns the first path that differs or is missing, else "".
    QString comparePacked(const StageResult &staged, const DatasetVersion &version, const QString &source) {
        QHash<QString, QByteArray> bytes;
        const QList<QByteArray> lines = read(staged.remoteDir + QStringLiteral("/.diamond-packed")).split('\n');
        if (lines.value(0) != "diamond-packed 1 ../../.packs") return QStringLiteral("(header)");
        for (const QByteArray &line : lines.mid(1)) {
            const QList<QByteArray> parts = line.split(' ');
            if (parts.size() < 4) continue;
            const QByteArray pack = read(cacheRoot() + QStringLiteral("/.packs/") + QString::fromLatin1(parts[0]) +
                                         QStringLiteral(".pack"));
            bytes.insert(QString::fromUtf8(line.mid(parts[0].size() + parts[1].size() + parts[2].size() + 3)),
                         pack.mid(parts[1].toLongLong(), parts[2].toLongLong()));
        }
        for (const ManifestFile &f : version.manifest.files)
            if (!bytes.contains(f.path) || bytes.value(f.path) != read(source + QLatin1Char('/') + f.path))
                return f.path;
        return bytes.size() == version.manifest.files.size() ? QString() : QStringLiteral("(extra lines)");
    }
    /// A side x side gray PNG of noise from `seed`.
    static QByteArray noisePng(quint32 seed, int side = 8) {
        QRandomGenerator g(seed);
        std::string rows;
        for (int y = 0; y < side; ++y) {
            rows.push_back('\0');
            for (int x = 0; x < side; ++x)
                rows.push_back(char(g.bounded(256)));
        }
        const std::string png = test::files::png(quint32(side), quint32(side), 0, rows);
        return QByteArray(png.data(), qsizetype(png.size()));
    }
    static int filesUnder(const QString &folder, const QString &pattern) {
        int n = 0;
        for (QDirIterator it(folder, {pattern}, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();
             it.next())
            ++n;
        return n;
    }

    void anImageFolderStaysPackedAndTheEngineReadsIt() {
        // 300 small images in 3 classes: kept on the host in packs (a few files), not as 300 files.
        const QString src = dir_.filePath(QStringLiteral("tiles"));
        for (int i = 0; i < 300; ++i)
            QVERIFY(write(QStringLiteral("%1/c%2/tile %3.png").arg(src).arg(i % 3).arg(i), noisePng(quint32(i))));
        DatasetStore datasets(ws_);
        const auto v1 = datasets.addVersion(QStringLiteral("tiles"), src);
        QVERIFY2(v1, qPrintable(datasets.errorString()));
        QCOMPARE(v1->format, QStringLiteral("image_folder"));
        QString error;
        auto staged = stage(*v1, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->payloadBytes, v1->sizeBytes);
        QCOMPARE(staged->shards, 1);
        QCOMPARE(filesUnder(staged->remoteDir, QStringLiteral("*.png")), 0);
        QCOMPARE(comparePacked(*staged, *v1, src), QString());
        const int packsAfterV1 = filesUnder(cacheRoot() + QStringLiteral("/.packs"), QStringLiteral("*.pack"));
        QVERIFY(packsAfterV1 >= 1);

        // The engine reads the staged folder: 300 images of 3 classes.
        QJsonObject config = test::ClusterRuns::config(1);
        config.insert(QStringLiteral("batch_size"), 32);
        config.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("image_folder")},
                                                          {QStringLiteral("path"), staged->remoteDir},
                                                          {QStringLiteral("grayscale"), true},
                                                          {QStringLiteral("size"), QJsonArray{2, 1}}});
        const QString configFile = dir_.filePath(QStringLiteral("tiles-run.json"));
        QVERIFY(write(configFile, QJsonDocument(config).toJson()));
        const QString specFile = dir_.filePath(QStringLiteral("tiles-spec.json"));
        // The spirals network (3 classes) on [N, 1, 2, 1] images, flattened first.
        QJsonObject spec = test::ClusterRuns::spec();
        spec.insert(QStringLiteral("inputs"),
                    QJsonArray{QJsonObject{
                        {QStringLiteral("name"), QStringLiteral("x")},
                        {QStringLiteral("dtype"), QStringLiteral("float32")},
                        {QStringLiteral("axes"), QJsonArray{QStringLiteral("batch"), QStringLiteral("channel"),
                                                            QStringLiteral("height"), QStringLiteral("width")}},
                        {QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 1, 2, 1}}}});
        QJsonArray nodes = spec.value(QStringLiteral("nodes")).toArray();
        QJsonObject first = nodes.first().toObject();
        first.insert(QStringLiteral("inputs"), QJsonArray{QStringLiteral("flat")});
        nodes[0] = first;
        nodes.insert(0, QJsonObject{{QStringLiteral("id"), QStringLiteral("flat")},
                                    {QStringLiteral("type"), QStringLiteral("Flatten")},
                                    {QStringLiteral("inputs"), QJsonArray{QStringLiteral("x")}}});
        spec.insert(QStringLiteral("nodes"), nodes);
        spec.remove(QStringLiteral("layout"));
        QVERIFY(write(specFile, QJsonDocument(spec).toJson()));
        const test::EngineRun dry = test::runEngine(
            {QStringLiteral("--spec"), specFile, QStringLiteral("--config"), configFile, QStringLiteral("--dry-run")});
        const QJsonObject plan = dry.last(QStringLiteral("plan"));
        QVERIFY2(dry.exitCode == 0, qPrintable(dry.stderrText));
        QCOMPARE(plan.value(QStringLiteral("train_samples")).toInt() +
                     plan.value(QStringLiteral("validation_samples")).toInt(),
                 300);
        QVERIFY2(plan.value(QStringLiteral("data")).toString().contains(QStringLiteral("3 classes")),
                 qPrintable(plan.value(QStringLiteral("data")).toString()));

        // Three images changed: one small pack of three travels; the others stay where they are.
        qint64 changed = 0;
        for (int i : {4, 150, 299}) {
            const QByteArray png = noisePng(quint32(1000 + i));
            changed += png.size();
            QVERIFY(write(QStringLiteral("%1/c%2/tile %3.png").arg(src).arg(i % 3).arg(i), png));
        }
        const auto v2 = datasets.addVersion(QStringLiteral("tiles"), src);
        QVERIFY(v2);
        staged = stage(*v2, &error);
        QVERIFY2(staged, qPrintable(error));
        QCOMPARE(staged->payloadBytes, changed);
        QCOMPARE(staged->shards, 1);
        QCOMPARE(comparePacked(*staged, *v2, src), QString());
        staged = stage(*v2, &error);
        QVERIFY2(staged && staged->alreadyStaged, qPrintable(error));

        // A damaged pack (same size, other bytes) is found by its SHA-256 and its images are sent again.
        const QList<QByteArray> index = read(staged->remoteDir + QStringLiteral("/.diamond-packed")).split('\n');
        const QString firstPack = cacheRoot() + QStringLiteral("/.packs/") +
                                  QString::fromLatin1(index.value(1).left(64)) + QStringLiteral(".pack");
        QByteArray out, err;
        QCOMPARE(
            cluster_.ssh(
                QStringLiteral("f=%1; s=$(stat -c %s $f); rm -f $f && head -c $s /dev/urandom > $f").arg(firstPack),
                &out, &err),
            0);
        QVERIFY(write(src + QStringLiteral("/c0/extra.png"), noisePng(7)));
        const auto v3 = datasets.addVersion(QStringLiteral("tiles"), src);
        QVERIFY(v3);
        staged = stage(*v3, &error);
        QVERIFY2(staged, qPrintable(error));
        QVERIFY2(staged->repaired >= 297, qPrintable(QString::number(staged->repaired)));
        QCOMPARE(comparePacked(*staged, *v3, src), QString());
    }

    void aCutWhilePacksTravelSendsOnlyThePackInFlightAgain() {
        // 2,400 images of about 4 KiB in packs of 1 MiB; sshd stops in the middle of one of them.
        const QString src = dir_.filePath(QStringLiteral("patches"));
        for (int i = 0; i < 2400; ++i)
            QVERIFY(
                write(QStringLiteral("%1/c%2/p%3.png").arg(src).arg(i % 4).arg(i), noisePng(quint32(50000 + i), 64)));
        DatasetStore datasets(ws_);
        const auto v = datasets.addVersion(QStringLiteral("patches"), src);
        QVERIFY(v);
        // What an uninterrupted staging sends (into another cache).
        QString error;
        auto runner = makeClusterRunner(profile_);
        DatasetStager clean(*runner, cacheRoot() + QStringLiteral("-clean"));
        clean.setShardBytes(1 << 20);
        const auto uncut = clean.stage(*v, datasets.chunks(), {}, &error);
        QVERIFY2(uncut && uncut->retries == 0, qPrintable(error));
        QCOMPARE(uncut->bytesSent, v->sizeBytes); // packs carry the images back to back, nothing else
        CutHalfway cut(cluster_, 0); // stopped from the progress callback: the pack in flight cannot finish first
        const auto staged = stage(*v, &error, 1 << 20, cut.progress());
        QVERIFY2(staged, qPrintable(error));
        QVERIFY(cut.happened());
        QVERIFY2(staged->retries >= 1, "the cut did not interrupt anything");
        QCOMPARE(comparePacked(*staged, *v, src), QString());
        const double ratio = double(staged->bytesSent) / double(uncut->bytesSent);
        qInfo("cut at 50%% of %d packs: %lld bytes sent in all, %.3f x an uncut staging, %d retries", staged->shards,
              staged->bytesSent, ratio, staged->retries);
        QVERIFY2(ratio <= 1.15, qPrintable(QString::number(ratio)));
    }

    void restUploadsListsStagesAndRemoves() {
        QProcess server;
        server.start(test::binary(QStringLiteral("diamondctl")),
                     {QStringLiteral("--workspace"), ws_.path(), QStringLiteral("serve"), QStringLiteral("--port"),
                      QStringLiteral("0")});
        QElapsedTimer t;
        t.start();
        while (!server.canReadLine() && t.elapsed() < 30000)
            server.waitForReadyRead(1000);
        const auto m =
            QRegularExpression(QStringLiteral(":(\\d+)/api/v1/")).match(QString::fromUtf8(server.readLine()));
        QVERIFY(m.hasMatch());
        const QString base = QStringLiteral("http://127.0.0.1:%1/api/v1").arg(m.captured(1));
        QProcess tokenProcess;
        tokenProcess.start(
            test::binary(QStringLiteral("diamondctl")),
            {QStringLiteral("--workspace"), ws_.path(), QStringLiteral("serve"), QStringLiteral("--print-token")});
        QVERIFY(tokenProcess.waitForFinished(30000));
        const QByteArray token = tokenProcess.readAllStandardOutput().trimmed();
        QNetworkAccessManager nam;
        auto call = [&](const QByteArray &method, const QString &path, const QByteArray &body = {},
                        const QByteArray &type = "application/json") {
            QNetworkRequest req(QUrl(base + path));
            req.setRawHeader("Authorization", "Bearer " + token);
            if (!body.isEmpty()) req.setHeader(QNetworkRequest::ContentTypeHeader, type);
            QNetworkReply *reply = nam.sendCustomRequest(req, method, body);
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            QTimer::singleShot(120000, &loop, &QEventLoop::quit);
            loop.exec();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QJsonObject doc = QJsonDocument::fromJson(reply->readAll()).object();
            reply->deleteLater();
            return std::pair{status, doc};
        };
        const QByteArray csv = "x,y,label\n1,2,a\n3,4,b\n5,6,a\n7,8,b\n";
        auto [status, doc] =
            call("POST", QStringLiteral("/datasets?name=tiny&file=tiny.csv"), csv, "application/octet-stream");
        QVERIFY2(status == 201, QJsonDocument(doc).toJson().constData());
        QCOMPARE(doc.value(QStringLiteral("ref")).toString(), QStringLiteral("tiny@1"));
        QCOMPARE(doc.value(QStringLiteral("rows")).toInt(), 4);
        std::tie(status, doc) =
            call("POST", QStringLiteral("/datasets?name=tiny&file=../evil.csv"), csv, "application/octet-stream");
        QCOMPARE(status, 400);
        std::tie(status, doc) = call("GET", QStringLiteral("/datasets"));
        QCOMPARE(status, 200);
        QVERIFY(doc.value(QStringLiteral("datasets")).toArray().size() >= 2);
        std::tie(status, doc) = call("GET", QStringLiteral("/datasets/tiny"));
        QCOMPARE(doc.value(QStringLiteral("manifest")).toArray()[0].toObject().value(QStringLiteral("path")).toString(),
                 QStringLiteral("tiny.csv"));
        std::tie(status, doc) = call("GET", QStringLiteral("/datasets/tiny/versions"));
        QCOMPARE(doc.value(QStringLiteral("versions")).toArray().size(), 1);
        std::tie(status, doc) = call("GET", QStringLiteral("/datasets/nothing"));
        QCOMPARE(status, 404);
        std::tie(status, doc) = call("POST", QStringLiteral("/datasets/tiny/stage"),
                                     QByteArray("{\"target\": \"") + profile_.name.toUtf8() + "\"}");
        QVERIFY2(status == 200, QJsonDocument(doc).toJson().constData());
        QCOMPARE(doc.value(QStringLiteral("bytes_total")).toInteger(), qint64(csv.size()));
        QCOMPARE(doc.value(QStringLiteral("files")).toInt(), 1);
        QVERIFY(doc.value(QStringLiteral("bytes_sent")).toInteger() > 0);
        QVERIFY(doc.contains(QStringLiteral("seconds")));
        std::tie(status, doc) = call("POST", QStringLiteral("/datasets/tiny/stage"),
                                     QByteArray("{\"target\": \"") + profile_.name.toUtf8() + "\"}");
        QCOMPARE(doc.value(QStringLiteral("bytes_sent")).toInteger(), qint64(0));
        QCOMPARE(doc.value(QStringLiteral("already_staged")).toBool(), true);
        const QByteArray targetBody = QByteArray("{\"target\": \"") + profile_.name.toUtf8() + "\"}";
        std::tie(status, doc) = call("POST", QStringLiteral("/datasets/tiny/unstage"), targetBody);
        QVERIFY2(status == 200, QJsonDocument(doc).toJson().constData());
        QCOMPARE(doc.value(QStringLiteral("removed_versions")).toArray().size(), 1);
        QVERIFY(
            doc.value(QStringLiteral("removed_versions")).toArray()[0].toString().startsWith(QStringLiteral("tiny/")));
        QCOMPARE(doc.value(QStringLiteral("file_bytes_freed")).toInteger(), qint64(csv.size()));
        std::tie(status, doc) = call("POST", QStringLiteral("/datasets/tiny/unstage"), targetBody);
        QCOMPARE(status, 404); // no longer staged
        std::tie(status, doc) =
            call("POST", QStringLiteral("/clusters/%1/dataset-cache/clean").arg(profile_.name), QByteArray("{}"));
        QVERIFY2(status == 200, QJsonDocument(doc).toJson().constData());
        QVERIFY(doc.value(QStringLiteral("versions_left")).toInt() > 0);
        QVERIFY(doc.value(QStringLiteral("bytes_left")).toInteger() > 0);
        std::tie(status, doc) = call("POST", QStringLiteral("/clusters/nowhere/dataset-cache/clean"), QByteArray("{}"));
        QCOMPARE(status, 404);
        std::tie(status, doc) = call("DELETE", QStringLiteral("/datasets/tiny"));
        QCOMPARE(status, 200);
        std::tie(status, doc) = call("GET", QStringLiteral("/datasets/tiny"));
        QCOMPARE(status, 404);
        server.terminate();
        server.waitForFinished(10000);
    }

    void aClusterRunTrainsOnTheStagedDataset() {
        QByteArray csv = "400,2,a,b\n";
        QRandomGenerator g(9);
        for (int i = 0; i < 400; ++i)
            csv += QByteArray::number((i % 2) * 3 + g.generateDouble(), 'f', 4) + "," +
                   QByteArray::number(g.generateDouble(), 'f', 4) + "," + QByteArray::number(i % 2) + "\n";
        QVERIFY(write(dir_.filePath(QStringLiteral("pts/points.csv")), csv));
        DatasetStore datasets(ws_);
        QVERIFY(datasets.addVersion(QStringLiteral("points"), dir_.filePath(QStringLiteral("pts/points.csv"))));
        QJsonObject config = test::ClusterRuns::config(300);
        config.remove(QStringLiteral("checkpoint"));
        config.insert(QStringLiteral("batch_size"), 32);
        config.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                                          {QStringLiteral("dataset"), QStringLiteral("points")},
                                                          {QStringLiteral("skip_rows"), 1},
                                                          {QStringLiteral("header"), false},
                                                          {QStringLiteral("target"), 2}});
        QJsonObject spec = test::ClusterRuns::spec();
        QJsonArray nodes = spec.value(QStringLiteral("nodes")).toArray();
        QJsonObject last = nodes.last().toObject();
        last.insert(QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), 2}});
        nodes[nodes.size() - 1] = last;
        spec.insert(QStringLiteral("nodes"), nodes);
        auto write = [&](const QString &name, const QJsonObject &doc) {
            const QString path = dir_.filePath(name);
            TestItDatasetStaging::write(path, QJsonDocument(doc).toJson());
            return path;
        };
        const QJsonObject job = runs_->execution().value(QStringLiteral("job")).toObject();
        QProcess p;
        QProcessEnvironment env = cluster_.environment();
        env.insert(QStringLiteral("HOME"), dir_.path());
        p.setProcessEnvironment(env);
        p.start(test::binary(QStringLiteral("diamondctl")),
                {QStringLiteral("--workspace"), ws_.path(), QStringLiteral("run"), QStringLiteral("start"),
                 QStringLiteral("--spec"), write(QStringLiteral("pspec.json"), spec), QStringLiteral("--config"),
                 write(QStringLiteral("prun.json"), config), QStringLiteral("--target"), profile_.name,
                 QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--job"),
                 QString::fromUtf8(QJsonDocument(job).toJson(QJsonDocument::Compact)), QStringLiteral("--follow")});
        QVERIFY(p.waitForFinished(300000));
        const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, out.constData());
        QVERIFY2(out.contains("Staging dataset points@1") && out.contains("every file verified"), out.constData());
        RunStore runs(ws_);
        const QList<Run> all = runs.runs();
        QVERIFY(!all.isEmpty());
        const Run run = all.last();
        QCOMPARE(run.datasetRef, QStringLiteral("points@1"));
        QCOMPARE(run.state, RunState::Finished);
        // The engine on the cluster read the staged copy.
        QDirIterator scripts(profile_.scratchDir + QStringLiteral("/runs"), {QStringLiteral("attempt-*.sh")},
                             QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(scripts.hasNext());
        const QByteArray script = read(scripts.next());
        QVERIFY2(script.contains("--data-path") && script.contains(QByteArray(cacheRoot().toUtf8() + "/points/")),
                 script.constData());
    }

    void unstagingAndCleaningFreeOnlyWhatNoStagedVersionUses() {
        // "keep" and "drop" share one file; drop@2 changes drop@1's other file; "snaps" is an image folder (packs).
        const QString keepSrc = dir_.filePath(QStringLiteral("keep")), dropSrc = dir_.filePath(QStringLiteral("drop"));
        const QString snapsSrc = dir_.filePath(QStringLiteral("snaps"));
        QVERIFY(write(keepSrc + QStringLiteral("/shared.bin"), randomBytes(65536, 910031)));
        QVERIFY(write(keepSrc + QStringLiteral("/own.bin"), randomBytes(9 << 20, 910032))); // 3 chunks
        QVERIFY(write(dropSrc + QStringLiteral("/shared.bin"), randomBytes(65536, 910031)));
        QVERIFY(write(dropSrc + QStringLiteral("/a.bin"), randomBytes(65536, 910033)));
        for (int i = 0; i < 30; ++i)
            QVERIFY(
                write(QStringLiteral("%1/c%2/s%3.png").arg(snapsSrc).arg(i % 2).arg(i), noisePng(quint32(500 + i))));
        DatasetStore datasets(ws_);
        const auto keep = datasets.addVersion(QStringLiteral("keep"), keepSrc);
        const auto drop1 = datasets.addVersion(QStringLiteral("drop"), dropSrc);
        QVERIFY(write(dropSrc + QStringLiteral("/a.bin"), randomBytes(65536, 910034)));
        const auto drop2 = datasets.addVersion(QStringLiteral("drop"), dropSrc);
        const auto snaps = datasets.addVersion(QStringLiteral("snaps"), snapsSrc);
        QVERIFY(keep && drop1 && drop2 && snaps);
        QString error;
        std::optional<StageResult> staged;
        for (const DatasetVersion *v : {&*keep, &*drop1, &*drop2, &*snaps})
            QVERIFY2((staged = stage(*v, &error)), qPrintable(error));
        const QString keepDir = DatasetStager::remoteDir(cacheRoot(), *keep);

        auto ctl = [&](const QStringList &args, int *exitCode) {
            QProcess p;
            QProcessEnvironment env = cluster_.environment();
            env.insert(QStringLiteral("HOME"), dir_.path());
            p.setProcessEnvironment(env);
            p.start(test::binary(QStringLiteral("diamondctl")),
                    QStringList{QStringLiteral("--workspace"), ws_.path()} + args);
            p.waitForFinished(120000);
            *exitCode = p.exitCode();
            const QByteArray out = p.readAllStandardOutput();
            if (*exitCode != 0) qWarning("%s", QByteArray(out + p.readAllStandardError()).constData());
            return QJsonDocument::fromJson(out).object();
        };
        int code = 0;
        // Settle what earlier tests left unused, so that the counts below are this test's own.
        ctl({QStringLiteral("data"), QStringLiteral("clean"), QStringLiteral("--target"), profile_.name,
             QStringLiteral("--json")},
            &code);
        QCOMPARE(code, 0);

        // drop@1 alone: only its own file's content goes; shared.bin stays for keep and drop@2.
        QJsonObject doc = ctl({QStringLiteral("data"), QStringLiteral("unstage"), QStringLiteral("drop@1"),
                               QStringLiteral("--target"), profile_.name, QStringLiteral("--json")},
                              &code);
        QCOMPARE(code, 0);
        QCOMPARE(doc.value(QStringLiteral("removed_versions")).toArray(),
                 QJsonArray{DatasetCacheCleaner::entryOf(*drop1)});
        QCOMPARE(doc.value(QStringLiteral("files_freed")).toInt(), 1);
        QCOMPARE(doc.value(QStringLiteral("file_bytes_freed")).toInteger(), qint64(65536));
        QCOMPARE(doc.value(QStringLiteral("packs_freed")).toInt(), 0);
        QVERIFY(!QFileInfo::exists(DatasetStager::remoteDir(cacheRoot(), *drop1)));
        QCOMPARE(read(keepDir + QStringLiteral("/shared.bin")), read(keepSrc + QStringLiteral("/shared.bin")));
        // drop@2 is intact: a verifying staging finds every file and sends nothing.
        {
            auto runner = makeClusterRunner(profile_);
            DatasetStager stager(*runner, cacheRoot());
            stager.setVerifyAlways(true);
            staged = stager.stage(*drop2, datasets.chunks(), {}, &error);
            QVERIFY2(staged, qPrintable(error));
            QCOMPARE(staged->payloadBytes, qint64(0));
        }

        // Every version of snaps: its packs go, and nothing else.
        doc = ctl({QStringLiteral("data"), QStringLiteral("unstage"), QStringLiteral("snaps"),
                   QStringLiteral("--target"), profile_.name, QStringLiteral("--json")},
                  &code);
        QCOMPARE(code, 0);
        QCOMPARE(doc.value(QStringLiteral("removed_versions")).toArray().size(), 1);
        QVERIFY(doc.value(QStringLiteral("packs_freed")).toInt() >= 1);
        QCOMPARE(doc.value(QStringLiteral("pack_bytes_freed")).toInteger(), snaps->sizeBytes);
        QCOMPARE(doc.value(QStringLiteral("files_freed")).toInt(), 0);
        ctl({QStringLiteral("data"), QStringLiteral("unstage"), QStringLiteral("snaps"), QStringLiteral("--target"),
             profile_.name},
            &code);
        QCOMPARE(code, 1); // not staged any more

        // drop removed from the workspace: --unregistered removes its staged copy; keep stays whole.
        ctl({QStringLiteral("data"), QStringLiteral("remove"), QStringLiteral("drop")}, &code);
        QCOMPARE(code, 0);
        doc = ctl({QStringLiteral("data"), QStringLiteral("clean"), QStringLiteral("--target"), profile_.name,
                   QStringLiteral("--unregistered"), QStringLiteral("--json")},
                  &code);
        QCOMPARE(code, 0);
        const QJsonArray removed = doc.value(QStringLiteral("removed_versions")).toArray();
        QVERIFY(removed.contains(DatasetCacheCleaner::entryOf(*drop2)));
        for (const QJsonValue &v : removed)
            QVERIFY2(!v.toString().startsWith(QStringLiteral("keep/")) &&
                         !v.toString().startsWith(QStringLiteral("cells/")),
                     qPrintable(v.toString()));
        QVERIFY(doc.value(QStringLiteral("file_bytes_freed")).toInteger() >= 65536); // drop@2's a.bin
        QCOMPARE(read(keepDir + QStringLiteral("/own.bin")), read(keepSrc + QStringLiteral("/own.bin")));
        QCOMPARE(read(keepDir + QStringLiteral("/shared.bin")), read(keepSrc + QStringLiteral("/shared.bin")));
        QVERIFY(QFileInfo::exists(keepDir + QStringLiteral(".verified")));

        // Malformed entries never reach the host's shell.
        remote::LocalCommandRunner local;
        DatasetCacheCleaner cleaner(local, cacheRoot());
        QVERIFY(!cleaner.clean({QStringLiteral("keep/../../x")}, &error));
        QVERIFY2(error.contains(QLatin1String("keep/../../x")), qPrintable(error));
        QVERIFY(!cleaner.clean({QStringLiteral("'; rm -rf ~; '/0123456789abcdef")}, &error));
        QVERIFY(QFileInfo::exists(keepDir + QStringLiteral(".verified")));

        // A host that answers with malformed or hostile lines: none of them becomes a version to remove, and the
        // counts stay what the real lines say.
        const auto honest = cleaner.stagedVersions(&error);
        QVERIFY2(honest, qPrintable(error));
        HostileCacheRunner hostile;
        DatasetCacheCleaner fooled(hostile, cacheRoot());
        QCOMPARE(fooled.stagedVersions(&error), honest);
        const auto counted = fooled.clean(QStringList(), &error);
        QVERIFY2(counted, qPrintable(error));
        QVERIFY(counted->removedVersions.isEmpty());
        QVERIFY(counted->fileBytesFreed >= 0 && counted->packsFreed == 0 && counted->versionsLeft >= 1);
    }
};

QTEST_GUILESS_MAIN(TestItDatasetStaging)
#include "tst_it_dataset_staging.moc"
