#include "app/data/dataset_stager.h"

#include "remote/command_runner.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cstring>
#include <future>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::DatasetStager", text); }

QString q(const QString &word) { return remote::shellWord(word); }

/// The host's fastest SHA-256 that prints "HASH  NAME" or "HASH *NAME".
const char kHashCommand[] = "if command -v openssl >/dev/null 2>&1; then H='openssl dgst -sha256 -r'; "
                            "else H=sha256sum; fi; ";

QString commandError(const remote::CommandResult &r) {
    return r.error.isEmpty() ? QString::fromUtf8(r.stderrData).trimmed().left(2000) : r.error;
}

} // namespace

// --- TarWriter ---

void TarWriter::header(const QByteArray &name, char type, qint64 size, int mode, const QByteArray &link) {
    if (name.size() > 99) { // GNU long name: a pseudo-entry holding the name
        header("././@LongLink", 'L', name.size() + 1, 0644, {});
        out_.append(name);
        out_.append(char(0));
        out_.append(QByteArray((512 - (name.size() + 1) % 512) % 512, '\0'));
    }
    char h[512];
    std::memset(h, 0, sizeof h);
    std::memcpy(h, name.constData(), std::min<qsizetype>(name.size(), 99));
    std::snprintf(h + 100, 8, "%07o", mode);
    std::snprintf(h + 108, 8, "%07o", 0);
    std::snprintf(h + 116, 8, "%07o", 0);
    std::snprintf(h + 124, 12, "%011llo", static_cast<unsigned long long>(size));
    std::snprintf(h + 136, 12, "%011o", 0);
    h[156] = type;
    std::memcpy(h + 157, link.constData(), std::min<qsizetype>(link.size(), 99));
    std::memcpy(h + 257, "ustar  ", 8); // GNU magic + version
    std::memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (const char c : h)
        sum += static_cast<unsigned char>(c);
    std::snprintf(h + 148, 8, "%06o", sum);
    h[155] = ' ';
    out_.append(h, 512);
}

void TarWriter::addFile(const QString &name, const QByteArray &data, int mode) {
    header(name.toUtf8(), '0', data.size(), mode, {});
    out_.append(data);
    out_.append(QByteArray((512 - data.size() % 512) % 512, '\0'));
}

void TarWriter::addDirectory(const QString &name) { header(name.toUtf8() + '/', '5', 0, 0755, {}); }

void TarWriter::addHardLink(const QString &name, const QString &target) {
    header(name.toUtf8(), '1', 0, 0444, target.toUtf8());
}

QByteArray TarWriter::finish() {
    out_.append(QByteArray(1024, '\0'));
    return std::move(out_);
}

// --- DatasetStager ---

QJsonObject StageResult::toJson() const {
    return {{QStringLiteral("remote_dir"), remoteDir},
            {QStringLiteral("bytes_total"), bytesTotal},
            {QStringLiteral("bytes_sent"), bytesSent},
            {QStringLiteral("payload_bytes"), payloadBytes},
            {QStringLiteral("files"), files},
            {QStringLiteral("chunks_sent"), chunksSent},
            {QStringLiteral("shards"), shards},
            {QStringLiteral("retries"), retries},
            {QStringLiteral("repaired_files"), repaired},
            {QStringLiteral("already_staged"), alreadyStaged},
            {QStringLiteral("seconds"), seconds},
            {QStringLiteral("send_seconds"), sendSeconds},
            {QStringLiteral("pack_seconds"), packSeconds},
            {QStringLiteral("assemble_seconds"), assembleSeconds}};
}

QString DatasetStager::remoteDir(const QString &root, const DatasetVersion &version) {
    return QStringLiteral("%1/%2/%3").arg(root, version.name, QString::fromLatin1(version.manifestHash.left(16)));
}

std::optional<StageResult> DatasetStager::stage(const DatasetVersion &version, const ChunkStore &store,
                                                const StageProgress &progress, QString *error) {
    QElapsedTimer timer;
    timer.start();
    StageResult result;
    const ContentManifest &m = version.manifest;
    result.remoteDir = remoteDir(root_, version);
    result.bytesTotal = m.totalBytes();
    result.files = int(m.files.size());
    const QString hash16 = QString::fromLatin1(version.manifestHash.left(16));
    auto finish = [&]() {
        result.seconds = double(timer.nsecsElapsed()) / 1e9;
        return result;
    };
    if (progress && !progress(0, 0, QStringLiteral("checking"))) return *error = tr("Cancelled."), std::nullopt;
    if (root_.startsWith(QLatin1String("~/")) || root_ == QLatin1String("~")) {
        const remote::CommandResult home = runner_.run(QStringLiteral("printf %s \"$HOME\""));
        if (!home.ok() || home.stdoutData.isEmpty())
            return *error = tr("Cannot find the home folder on %1: %2").arg(runner_.describe(), commandError(home)),
                   std::nullopt;
        root_ = QString::fromUtf8(home.stdoutData) + root_.mid(1);
        result.remoteDir = remoteDir(root_, version);
    }
    const QString marker = result.remoteDir + QStringLiteral(".verified");

    // 1. A verified copy with the right file sizes is left alone.
    if (!verifyAlways_) {
        const remote::CommandResult r = runner_.run(
            QStringLiteral("cat %1 2>/dev/null; echo; cd %2 2>/dev/null && find . -type f -printf '%P %s\\n'")
                .arg(q(marker), q(result.remoteDir)));
        if (r.error.isEmpty()) {
            const QList<QByteArray> lines = r.stdoutData.split('\n');
            QHash<QString, qint64> sizes;
            for (int i = 1; i < lines.size(); ++i) {
                const qsizetype space = lines[i].lastIndexOf(' ');
                if (space > 0)
                    sizes.insert(QString::fromUtf8(lines[i].left(space)), lines[i].mid(space + 1).toLongLong());
            }
            bool same =
                !lines.isEmpty() && lines[0].trimmed() == version.manifestHash && sizes.size() == m.files.size();
            for (const ManifestFile &f : m.files)
                same = same && sizes.value(f.path, -1) == f.size;
            if (same) {
                result.alreadyStaged = true;
                return finish();
            }
        }
    }

    QHash<QByteArray, qint64> needed; // chunk -> size
    for (const auto &[sha, size] : m.distinctChunks())
        needed.insert(sha, size);
    int failures = 0;
    auto failed = [&](const QString &what) {
        ++failures;
        ++result.retries;
        if (failures > maxFailures_) {
            *error = tr("Staging %1 to %2 failed %3 times; last: %4")
                         .arg(version.ref(), runner_.describe())
                         .arg(failures)
                         .arg(what);
            return true;
        }
        return false;
    };
    bool hardLinks = true; // off when the host refuses them (another file system, protected_hardlinks)
    for (int round = 0; round < 100; ++round) {
        // 2. Which chunks the cache holds (name and size); stale shard folders of dead attempts are removed.
        const remote::CommandResult list =
            runner_.run(QStringLiteral("mkdir -p %1/.chunks && cd %1/.chunks && "
                                       "find . -maxdepth 1 -name '.in-*' -mmin +60 -exec rm -rf {} + ; "
                                       "find . -maxdepth 1 -type f -printf '%f %s\\n'")
                            .arg(q(root_)));
        if (!list.ok()) {
            if (failed(tr("cannot list the cache %1: %2").arg(root_, commandError(list)))) return std::nullopt;
            continue;
        }
        QSet<QByteArray> present;
        for (const QByteArray &line : list.stdoutData.split('\n')) {
            const QList<QByteArray> parts = line.split(' ');
            if (parts.size() == 2 && needed.value(parts[0], -1) == parts[1].toLongLong()) present.insert(parts[0]);
        }
        QList<QPair<QByteArray, qint64>> missing;
        qint64 toSend = 0;
        for (auto it = needed.cbegin(); it != needed.cend(); ++it)
            if (!present.contains(it.key())) {
                missing.append({it.key(), it.value()});
                toSend += it.value();
            }
        std::sort(missing.begin(), missing.end());

        // 3. Missing chunks in shards, each unpacked straight into the cache (a shard cut short leaves at most a
        // chunk of the wrong size there, which the next listing does not count). The next shard is packed on a
        // worker thread while this one travels. Chunks are verified here only after a failed round: the host
        // verifies every file anyway.
        struct Shard {
            QByteArray bytes;
            qint64 payload = 0;
            int chunks = 0;
            QString error;
        };
        const bool verifyLocally = round > 0;
        const qint64 shardBytes =
            shardBytes_ > 0 ? shardBytes_ : std::clamp<qint64>(toSend / 16, qint64(8) << 20, qint64(64) << 20);
        qsizetype next = 0;
        auto pack = [&store, &missing, shardBytes, verifyLocally](qsizetype from, qsizetype *end) {
            Shard s;
            TarWriter tar;
            tar.reserve(shardBytes + (qint64(1) << 20));
            qsizetype i = from;
            for (; i < missing.size() && (s.chunks == 0 || s.payload + missing[i].second <= shardBytes); ++i) {
                const QByteArray data = store.readChunk(missing[i].first, missing[i].second, &s.error, verifyLocally);
                if (data.size() != missing[i].second) return s;
                tar.addFile(QString::fromLatin1(missing[i].first), data);
                s.payload += missing[i].second;
                ++s.chunks;
            }
            *end = i;
            s.bytes = tar.finish();
            return s;
        };
        bool shardFailed = false;
        qint64 sentThisRound = 0;
        QElapsedTimer phase;
        phase.start();
        qsizetype afterCurrent = 0;
        std::future<Shard> pending = std::async(std::launch::async, pack, next, &afterCurrent);
        while (pending.valid()) {
            Shard shard = pending.get();
            result.packSeconds += double(phase.nsecsElapsed()) / 1e9;
            if (!shard.error.isEmpty()) return *error = shard.error, std::nullopt;
            next = afterCurrent;
            qsizetype afterNext = next;
            if (next < missing.size()) pending = std::async(std::launch::async, pack, next, &afterNext);
            phase.restart();
            result.bytesSent += shard.bytes.size();
            const remote::CommandResult r =
                runner_.run(QStringLiteral("set -e; cd %1/.chunks; tar -x -f -").arg(q(root_)), shard.bytes, 0);
            result.sendSeconds += double(phase.nsecsElapsed()) / 1e9;
            phase.restart();
            if (!r.ok()) {
                shardFailed = true;
                if (pending.valid()) pending.wait();
                if (failed(tr("a shard of %1 bytes did not arrive: %2").arg(shard.bytes.size()).arg(commandError(r))))
                    return std::nullopt;
                break;
            }
            ++result.shards;
            result.chunksSent += shard.chunks;
            result.payloadBytes += shard.payload;
            sentThisRound += shard.payload;
            if (pending.valid()) {
                pending.wait();
                afterCurrent = afterNext;
            }
            if (progress && !progress(sentThisRound, toSend, QStringLiteral("sending"))) {
                if (pending.valid()) pending.wait();
                return *error = tr("Cancelled."), std::nullopt;
            }
        }
        if (shardFailed) continue;

        // 4. Assemble the version from the cache and hash every file there.
        if (progress && !progress(sentThisRound, toSend, QStringLiteral("verifying")))
            return *error = tr("Cancelled."), std::nullopt;
        const QString partialName = version.name + QStringLiteral("/.") + hash16 + QStringLiteral(".partial");
        TarWriter links;
        QSet<QString> folders;
        QString concatenations;
        for (const ManifestFile &f : m.files) {
            const QStringList parts = f.path.split(QLatin1Char('/'));
            QString folder = partialName;
            for (int p = 0; p + 1 < parts.size(); ++p) {
                folder += QLatin1Char('/') + parts[p];
                if (!folders.contains(folder)) {
                    folders.insert(folder);
                    links.addDirectory(folder);
                }
            }
            if (f.chunks.size() == 1 && hardLinks) {
                links.addHardLink(partialName + QLatin1Char('/') + f.path,
                                  QStringLiteral(".chunks/") + QString::fromLatin1(f.chunks[0]));
            } else {
                // Concatenated and hashed in one pass: "HASH  ./PATH" like the linked files' lines.
                concatenations += QStringLiteral("h=$(cat");
                for (const QByteArray &c : f.chunks)
                    concatenations += QStringLiteral(" .chunks/") + QString::fromLatin1(c);
                concatenations +=
                    QStringLiteral(" | tee %1 | $H | cut -c1-64); printf '%s  %s\\n' \"$h\" %2\n")
                        .arg(q(partialName + QLatin1Char('/') + f.path), q(QStringLiteral("./") + f.path));
            }
        }
        QElapsedTimer assembleTimer;
        assembleTimer.start();
        // Linked files are hashed before the concatenated ones exist (those are hashed as they are written).
        const remote::CommandResult assembled = runner_.run(
            QStringLiteral("set -e; %1 cd %2; mkdir -p %3; rm -rf %4; mkdir -p %4; tar -x -f -; "
                           "(cd %4 && find . -type f -print0 | xargs -0 -r $H)\n%5")
                .arg(QString::fromLatin1(kHashCommand), q(root_), q(version.name), q(partialName), concatenations),
            links.finish(), 0);
        result.assembleSeconds += double(assembleTimer.nsecsElapsed()) / 1e9;
        if (!assembled.ok()) {
            if (assembled.stderrData.contains("Cannot hard link")) hardLinks = false;
            if (failed(tr("cannot assemble %1 in %2: %3").arg(version.ref(), root_, commandError(assembled))))
                return std::nullopt;
            continue;
        }
        QHash<QString, QByteArray> remoteHashes;
        for (const QByteArray &line : assembled.stdoutData.split('\n')) {
            if (line.size() < 68) continue;
            QByteArray name = line.mid(66);
            if (name.startsWith("./")) name = name.mid(2);
            remoteHashes.insert(QString::fromUtf8(name), line.left(64));
        }
        QStringList badChunks;
        for (const ManifestFile &f : m.files) {
            if (remoteHashes.value(f.path) == f.sha256) continue;
            ++result.repaired;
            for (const QByteArray &c : f.chunks)
                badChunks << QStringLiteral(".chunks/") + QString::fromLatin1(c);
        }
        if (!badChunks.isEmpty()) {
            // Damaged cache entries (or a file that did not assemble): drop them and send them again.
            runner_.run(QStringLiteral("cd %1 && rm -f %2").arg(q(root_), badChunks.join(QLatin1Char(' '))));
            if (failed(tr("%1 files differed from their SHA-256 after assembly").arg(badChunks.size())))
                return std::nullopt;
            continue;
        }
        const remote::CommandResult done =
            runner_.run(QStringLiteral("set -e; cd %1; rm -rf %2; mv %3 %2; printf '%s\\n' %4 > %5")
                            .arg(q(root_), q(version.name + QLatin1Char('/') + hash16), q(partialName),
                                 QString::fromLatin1(version.manifestHash),
                                 q(version.name + QLatin1Char('/') + hash16 + QStringLiteral(".verified"))));
        if (!done.ok()) {
            if (failed(tr("cannot complete %1: %2").arg(result.remoteDir, commandError(done)))) return std::nullopt;
            continue;
        }
        return finish();
    }
    *error = tr("Staging %1 did not converge.").arg(version.ref());
    return std::nullopt;
}

} // namespace diamond::app
