#include "app/data/dataset_stager.h"

#include "remote/command_runner.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::DatasetStager", text); }

QString q(const QString &word) { return remote::shellWord(word); }

/// The host's fastest SHA-256 that prints "HASH  NAME" or "HASH *NAME".
const char kHashCommand[] = "if command -v openssl >/dev/null 2>&1; then H='openssl dgst -sha256 -r'; "
                            "else H=sha256sum; fi; ";

/// The index of a version's packed images, in its folder (read by the engine's image_folder source).
const char kPackIndex[] = ".diamond-packed";

QString commandError(const remote::CommandResult &r) {
    return r.error.isEmpty() ? QString::fromUtf8(r.stderrData).trimmed().left(2000) : r.error;
}

/// Where a pack holds a content: `size` bytes at `offset` of .packs/<pack>.pack.
struct PackedMember {
    QByteArray pack;
    qint64 offset = 0;
    qint64 size = 0;
};

/// What the host's cache holds.
struct CacheListing {
    QHash<QByteArray, qint64> files;                        ///< complete entries: sha256 -> size
    QHash<QByteArray, qint64> partials;                     ///< large files being received: sha256 -> size so far
    QHash<QByteArray, QPair<QByteArray, int>> chunkSources; ///< chunk -> (cached file, chunk index in it)
    QHash<QByteArray, PackedMember> packed;                 ///< content -> where a complete pack holds it
};

/// Parses the listing command's lines "F NAME SIZE", "C ./FILE.chunks INDEX CHUNK", "K PACK.pack SIZE" and
/// "P ./PACK.members CONTENT OFFSET SIZE". The host is not trusted: a chunk counts as a source only when its index
/// lies inside that cached file (`chunkBytes` per chunk), a pack member only when it lies inside its pack.
CacheListing parseListing(const QByteArray &text, qint64 chunkBytes) {
    CacheListing c;
    QList<QPair<QByteArray, QPair<QByteArray, int>>> sources;
    QHash<QByteArray, qint64> packSizes;
    QList<QPair<QByteArray, PackedMember>> members;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() == 3 && parts[0] == "K" && parts[1].endsWith(".pack") && isSha256Hex(parts[1].chopped(5))) {
            packSizes.insert(parts[1].chopped(5), parts[2].toLongLong());
            continue;
        }
        if (parts.size() == 5 && parts[0] == "P" && isSha256Hex(parts[2])) {
            QByteArray pack = parts[1];
            if (pack.startsWith("./")) pack = pack.mid(2);
            if (pack.endsWith(".members")) pack.chop(8);
            bool okOffset = false, okSize = false;
            const PackedMember m{pack, parts[3].toLongLong(&okOffset), parts[4].toLongLong(&okSize)};
            if (okOffset && okSize && m.offset >= 0 && m.size >= 0 && isSha256Hex(pack)) members.append({parts[2], m});
            continue;
        }
        if (parts.size() == 3 && parts[0] == "F") {
            if (isSha256Hex(parts[1]))
                c.files.insert(parts[1], parts[2].toLongLong());
            else if (parts[1].startsWith(".in-") && isSha256Hex(parts[1].mid(4)))
                c.partials.insert(parts[1].mid(4), parts[2].toLongLong());
        } else if (parts.size() == 4 && parts[0] == "C" && isSha256Hex(parts[3])) {
            QByteArray file = parts[1];
            if (file.startsWith("./")) file = file.mid(2);
            if (file.endsWith(".chunks")) file.chop(7);
            bool ok = false;
            const int index = parts[2].toInt(&ok);
            if (ok && index >= 0 && isSha256Hex(file)) sources.append({parts[3], {file, index}});
        }
    }
    for (const auto &[content, member] : members)
        if (member.offset + member.size <= packSizes.value(member.pack, -1) && !c.packed.contains(content))
            c.packed.insert(content, member);
    for (const auto &[chunk, source] : sources) // only complete files are sources
        if (qint64(source.second) * chunkBytes < c.files.value(source.first, 0) && !c.chunkSources.contains(chunk))
            c.chunkSources.insert(chunk, source);
    return c;
}

/// "HASH  NAME" or "HASH *NAME" lines of the host's hash command over ".files/SHA" or ".packs/SHA.pack" names ->
/// SHA -> HASH.
void parseHashes(const QByteArray &text, QHash<QByteArray, QByteArray> *hashes) {
    for (QByteArray line : text.split('\n')) {
        if (line.endsWith(".pack")) line.chop(5);
        if (line.size() < 130) continue;
        const QByteArray name = line.right(64);
        if (isSha256Hex(name)) hashes->insert(name, line.left(64));
    }
}

/// Calls `produce` on its own thread, keeping up to `depth` blocks ready for next(): reading and packing the next
/// files overlaps sending the previous ones. `produce` fills one block (empty: the end) or returns false (failed).
/// The destructor stops the thread after the block in progress and joins it; only then may the caller read what
/// `produce` writes.
class BlockPrefetcher {
public:
    BlockPrefetcher(std::function<bool(QByteArray *)> produce, std::size_t depth)
        : produce_(std::move(produce)), depth_(depth), thread_([this] { loop(); }) {}
    ~BlockPrefetcher() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    BlockPrefetcher(const BlockPrefetcher &) = delete;
    BlockPrefetcher &operator=(const BlockPrefetcher &) = delete;

    /// The next block, empty after the last one; false when `produce` failed.
    bool next(QByteArray *block) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return !queue_.empty() || done_; });
        if (queue_.empty()) return block->clear(), ok_;
        *block = std::move(queue_.front());
        queue_.pop_front();
        wake_.notify_all();
        return true;
    }

private:
    void loop() {
        for (;;) {
            QByteArray block;
            const bool ok = produce_(&block);
            std::unique_lock<std::mutex> lock(mutex_);
            if (!ok || block.isEmpty()) {
                ok_ = ok;
                done_ = true;
                wake_.notify_all();
                return;
            }
            queue_.push_back(std::move(block));
            wake_.notify_all();
            wake_.wait(lock, [this] { return queue_.size() < depth_ || stop_; });
            if (stop_) return;
        }
    }

    std::function<bool(QByteArray *)> produce_;
    std::size_t depth_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<QByteArray> queue_;
    bool done_ = false, ok_ = true, stop_ = false;
    std::thread thread_; // last: started once the rest is initialised
};

/// One contiguous piece of a large file's stream: bytes from here (source empty) or from a cached file on the host.
struct Segment {
    QByteArray source;
    qint64 offset = 0;
    qint64 bytes = 0;
};

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
            {QStringLiteral("streamed_files"), streamedFiles},
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
    const QString partialName = version.name + QStringLiteral("/.") + hash16 + QStringLiteral(".partial");
    const QString listName = version.name + QStringLiteral("/.") + hash16 + QStringLiteral(".list");
    // 2's listing: what the cache holds (names and sizes, and the chunks of its large files). The version's partial
    // folder starts empty each round; stale partial large files of dead attempts go after a day.
    const QString listCommand =
        QStringLiteral("set -e; mkdir -p %1/.files; cd %1/.files; "
                       "find . -maxdepth 1 -name '.in-*' -mmin +1440 -exec rm -f {} + ; "
                       "find . -maxdepth 1 -type f -printf 'F %f %s\\n'; "
                       "find . -maxdepth 1 -type f -name '*.chunks' -exec awk '{print \"C\", FILENAME, FNR-1, $0}' "
                       "{} + ; cd ..; mkdir -p .packs; cd .packs; "
                       "find . -maxdepth 1 -name '.in-*' -mmin +1440 -exec rm -f {} + ; "
                       "find . -maxdepth 1 -type f -name '*.pack' -printf 'K %f %s\\n'; "
                       "find . -maxdepth 1 -type f -name '*.members' -exec awk '{print \"P\", FILENAME, $0}' {} + ; "
                       "cd ..; rm -rf %2; mkdir -p %2")
            .arg(q(root_), q(partialName));
    // Without a marker (a version not staged yet) step 1's command lists the cache too: one round trip fewer.
    std::optional<remote::CommandResult> listedWithCheck;

    // 1. A verified copy with the right file sizes is left alone.
    if (!verifyAlways_) {
        // The version's files, then its packed images ("//packed": index lines) and their packs' sizes.
        remote::CommandResult r = runner_.run(
            QStringLiteral(
                "cat %1 2>/dev/null; echo; (cd %2 2>/dev/null && find . -type f -printf '%P %s\\n' && "
                "echo //packed && tail -n +2 %3 2>/dev/null; echo //packs; "
                "tail -n +2 %3 2>/dev/null | cut -d' ' -f1 | sort -u | while read p; do "
                "printf '%s %s\\n' \"$p\" \"$(stat -c %s ../../.packs/\"$p\".pack 2>/dev/null || echo -1)\"; "
                "done); if [ ! -s %1 ]; then echo //listing; (%4); echo \"//listed $?\"; fi")
                .arg(q(marker), q(result.remoteDir), QLatin1String(kPackIndex), listCommand));
        const QByteArray listingStart = "\n//listing\n", listingEnd = "//listed ";
        if (const qsizetype at = r.stdoutData.indexOf(listingStart); at >= 0) {
            const QByteArray listing = r.stdoutData.mid(at + listingStart.size());
            const qsizetype end = listing.lastIndexOf(listingEnd);
            if (end >= 0 && listing.mid(end + listingEnd.size()).trimmed() == "0") {
                listedWithCheck.emplace();
                listedWithCheck->exitCode = 0;
                listedWithCheck->stdoutData = listing.left(end);
            }
            r.stdoutData.truncate(at + 1);
        }
        if (r.error.isEmpty()) {
            const QList<QByteArray> lines = r.stdoutData.split('\n');
            QHash<QString, qint64> sizes;
            QHash<QByteArray, qint64> packSizes;
            QList<QByteArray> packedLines;
            int section = 0;
            for (int i = 1; i < lines.size(); ++i) {
                if (lines[i] == "//packed" || lines[i] == "//packs") {
                    section = lines[i] == "//packed" ? 1 : 2;
                    continue;
                }
                const QList<QByteArray> parts = lines[i].split(' ');
                if (section == 1) {
                    packedLines.append(lines[i]);
                } else if (section == 2 && parts.size() == 2) {
                    packSizes.insert(parts[0], parts[1].toLongLong());
                } else if (section == 0 && lines[i].lastIndexOf(' ') > 0) {
                    const qsizetype space = lines[i].lastIndexOf(' ');
                    const QString path = QString::fromUtf8(lines[i].left(space));
                    if (path != QLatin1String(kPackIndex)) sizes.insert(path, lines[i].mid(space + 1).toLongLong());
                }
            }
            bool packsWhole = true;
            for (const QByteArray &line : packedLines) {
                const QList<QByteArray> parts = line.split(' ');
                if (parts.size() < 4) continue;
                const qint64 offset = parts[1].toLongLong(), size = parts[2].toLongLong();
                packsWhole = packsWhole && offset >= 0 && size >= 0 && offset + size <= packSizes.value(parts[0], -1);
                sizes.insert(QString::fromUtf8(line.mid(parts[0].size() + parts[1].size() + parts[2].size() + 3)),
                             size);
            }
            bool same = packsWhole && !lines.isEmpty() && lines[0].trimmed() == version.manifestHash &&
                        sizes.size() == m.files.size();
            for (const ManifestFile &f : m.files)
                same = same && sizes.value(f.path, -1) == f.size;
            if (same) {
                result.alreadyStaged = true;
                return finish();
            }
        }
    }

    // Distinct contents of the version and the paths that hold each. The single-chunk images of an image folder
    // stay packed on the host (kPackIndex lists them), so that thousands of small files cost a few file writes there.
    QHash<QByteArray, const ManifestFile *> contents;
    QHash<QByteArray, QStringList> pathsOf;
    bool packImages = version.format == QLatin1String("image_folder");
    for (const ManifestFile &f : m.files) {
        contents.insert(f.sha256, &f);
        pathsOf[f.sha256].append(f.path);
        packImages = packImages && !f.path.contains(QLatin1Char('\n'));
    }
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
    const QString cacheFile = QStringLiteral(".files/%1");
    bool hardLinks = true; // off when the host refuses them (another file system, protected_hardlinks)
    // Packs that arrived and matched their hash, to be named and listed by the next command that can (the assembly,
    // or after a failure the next listing): until then the listing ignores them.
    struct PackToKeep {
        QString temp;
        QByteArray sha, members;
    };
    QList<PackToKeep> packsToKeep;
    // Adds the member lists of packsToKeep to `tar` and returns the commands (run in the root, before the `tar -x`)
    // that name the packs; a pack named by an earlier attempt is left as it is.
    auto keepPacks = [&](TarWriter &tar) {
        QString commands;
        for (const PackToKeep &k : packsToKeep) {
            commands +=
                QStringLiteral("if [ -f .packs/%1 ]; then chmod 444 .packs/%1; mv -f .packs/%1 .packs/%2.pack; fi; ")
                    .arg(k.temp, QString::fromLatin1(k.sha));
            tar.addFile(QStringLiteral(".packs/%1.members").arg(QString::fromLatin1(k.sha)), k.members, 0644);
        }
        return commands;
    };
    for (int round = 0; round < 100; ++round) {
        // 2. What the cache holds (listCommand; in round 0 perhaps already listed by step 1).
        TarWriter keepTar;
        const QString listKeep = keepPacks(keepTar);
        remote::CommandResult list;
        if (round == 0 && listedWithCheck) {
            list = *listedWithCheck;
        } else {
            list =
                runner_.run(QString(listCommand)
                                .prepend(packsToKeep.isEmpty()
                                             ? QString()
                                             : QStringLiteral("set -e; mkdir -p %1/.packs; (cd %1 && %2tar -x -f -); ")
                                                   .arg(q(root_), listKeep)),
                            packsToKeep.isEmpty() ? QByteArray() : keepTar.finish());
        }
        if (!list.ok()) {
            if (failed(tr("cannot list the cache %1: %2").arg(root_, commandError(list)))) return std::nullopt;
            continue;
        }
        packsToKeep.clear();
        const CacheListing cache = parseListing(list.stdoutData, m.chunkBytes);
        QList<const ManifestFile *> smallMissing, largeMissing;
        qint64 toSend = 0;
        for (auto it = contents.cbegin(); it != contents.cend(); ++it) {
            const ManifestFile *f = it.value();
            if (f->chunks.size() <= 1 && packImages) {
                if (cache.packed.value(f->sha256).size == f->size && cache.packed.contains(f->sha256)) continue;
                smallMissing.append(f);
                toSend += f->size;
                continue;
            }
            if (cache.files.value(f->sha256, -1) == f->size) continue;
            if (f->chunks.size() <= 1) {
                smallMissing.append(f);
                toSend += f->size;
            } else {
                largeMissing.append(f);
                for (int i = 0; i < f->chunks.size(); ++i)
                    if (!cache.chunkSources.contains(f->chunks[i])) toSend += m.chunkSize(*f, i);
            }
        }
        auto bySha = [](const ManifestFile *a, const ManifestFile *b) { return a->sha256 < b->sha256; };
        std::sort(smallMissing.begin(), smallMissing.end(), bySha);
        std::sort(largeMissing.begin(), largeMissing.end(), bySha);
        QHash<QByteArray, QByteArray> hashed;      // content -> SHA-256 the host computed this round
        QSet<QByteArray> linked;                   // contents whose paths shards linked this round
        QHash<QByteArray, PackedMember> packedNow; // contents of the packs that arrived (and matched) this round
        qint64 sentThisRound = 0;
        const bool verifyLocally = round > 0; // the host verifies every file anyway

        // 3. Small files in shards: the content into the cache, hard links into the version, then hashed there (a
        // shard cut short leaves at most a file of the wrong size, which the next listing does not count). Each
        // shard is a tar stream built while it travels: files are read here while the host unpacks the previous ones.
        // One shard when all fits in 64 MiB (each shard is a command and a pause of the stream).
        const qint64 shardBytes = shardBytes_ > 0 ? shardBytes_
                                  : toSend <= (qint64(64) << 20)
                                      ? toSend
                                      : std::clamp<qint64>(toSend / 16, qint64(32) << 20, qint64(64) << 20);
        bool sendFailed = false;
        QElapsedTimer phase;
        for (qsizetype next = 0; next < smallMissing.size() && !sendFailed;) {
            // Built on the prefetcher's thread: the tar blocks, their hash, the pack's member list.
            TarWriter tar;
            QByteArray names, members; // members: "CONTENT OFFSET SIZE" lines of a pack
            Sha256 packHash;
            QList<QByteArray> shardContents;
            qint64 payload = 0, produced = 0;
            std::atomic<qint64> payloadReady{0};
            bool ended = false;
            QString readError;
            const qsizetype first = next;
            QByteArray pack; // packed: the contents back to back (offsets in `members`), no tar headers
            auto produce = [&](QByteArray *block) {
                const qint64 blockBytes = qint64(1) << 20;
                if (packImages)
                    pack.reserve(blockBytes + (qint64(64) << 10));
                else
                    tar.reserve(blockBytes + (qint64(64) << 10));
                while (!ended && (packImages ? pack.size() : tar.size()) < blockBytes) {
                    if (next < smallMissing.size() &&
                        (next == first || payload + smallMissing[next]->size <= shardBytes)) {
                        const ManifestFile &f = *smallMissing[next++];
                        const QByteArray data =
                            f.size == 0 ? QByteArray()
                                        : store.readChunk(f.chunks.value(0), f.size, &readError, verifyLocally);
                        if (data.size() != f.size) return false;
                        if (packImages) {
                            members += f.sha256 + ' ' + QByteArray::number(produced + pack.size()) + ' ' +
                                       QByteArray::number(f.size) + '\n';
                            pack.append(data);
                        } else {
                            const QString name = cacheFile.arg(QString::fromLatin1(f.sha256));
                            tar.addFile(name, data);
                            if (hardLinks)
                                for (const QString &path : pathsOf.value(f.sha256))
                                    tar.addHardLink(partialName + QLatin1Char('/') + path, name);
                            names += name.toLatin1() + '\0';
                        }
                        payload += f.size;
                        shardContents.append(f.sha256);
                    } else {
                        if (packImages) {
                            *block = std::exchange(pack, QByteArray());
                        } else {
                            tar.addFile(listName, names);
                            *block = tar.finish();
                        }
                        ended = true;
                    }
                }
                if (block->isEmpty()) *block = packImages ? std::exchange(pack, QByteArray()) : tar.take();
                produced += block->size();
                packHash.add(*block);
                payloadReady = payload;
                return true;
            };
            qint64 shardSent = 0;
            bool cancelled = false;
            phase.start();
            // Packed: the shard is kept whole as a pack (hashed once written, from the page cache: a `tee` pipe was
            // slower); else unpacked into the cache.
            const QString packTemp = QStringLiteral(".in-%1-%2-%3").arg(hash16).arg(round).arg(first);
            remote::CommandResult r;
            {
                BlockPrefetcher prefetch(produce, 16);
                auto input = [&](QByteArray *block) {
                    if (!prefetch.next(block)) return false;
                    shardSent += block->size();
                    if (progress && !progress(sentThisRound + payloadReady, toSend, QStringLiteral("sending"))) {
                        cancelled = true;
                        return false;
                    }
                    return true;
                };
                r = runner_.runStreaming(
                    packImages ? QStringLiteral("set -e; %1 cd %2/.packs; cat > %3; $H < %3; stat -c %s %3")
                                     .arg(QString::fromLatin1(kHashCommand), q(root_), packTemp)
                               : QStringLiteral(
                                     "set -e; %1 cd %2; tar -x -m --no-same-owner -B -b 256 -f -; xargs -0 -r $H < %3")
                                     .arg(QString::fromLatin1(kHashCommand), q(root_), q(listName)),
                    input, 0);
            } // the prefetcher's thread is joined: what produce wrote may be read
            if (cancelled) readError = tr("Cancelled.");
            result.sendSeconds += double(phase.nsecsElapsed()) / 1e9;
            result.bytesSent += shardSent;
            if (!readError.isEmpty()) return *error = readError, std::nullopt;
            if (!r.ok()) {
                sendFailed = true;
                if (hardLinks && r.stderrData.contains("Cannot hard link")) hardLinks = false;
                if (failed(tr("a shard of %1 bytes did not arrive: %2").arg(shardSent).arg(commandError(r))))
                    return std::nullopt;
                break;
            }
            if (packImages) {
                // The host's hash and size of what it wrote must be those of what was sent.
                const QByteArray sha = packHash.hexResult();
                const QList<QByteArray> lines = r.stdoutData.split('\n');
                if (lines.size() < 2 || lines[0].left(64) != sha || lines[1].trimmed().toLongLong() != shardSent) {
                    runner_.run(QStringLiteral("rm -f %1/.packs/%2").arg(q(root_), packTemp));
                    sendFailed = true;
                    if (failed(tr("a pack of %1 bytes arrived damaged (the host read %2)")
                                   .arg(shardSent)
                                   .arg(QString::fromUtf8(r.stdoutData.left(200).simplified()))))
                        return std::nullopt;
                    break;
                }
                // Named and listed by the assembly step (one command fewer per pack); until then the listing
                // ignores it, so a cut before then sends it again.
                packsToKeep.append({packTemp, sha, members});
                for (const QByteArray &line : members.split('\n')) {
                    const QList<QByteArray> parts = line.split(' ');
                    if (parts.size() == 3)
                        packedNow.insert(parts[0], {sha, parts[1].toLongLong(), parts[2].toLongLong()});
                }
            }
            parseHashes(r.stdoutData, &hashed);
            if (hardLinks && !packImages)
                for (const QByteArray &c : shardContents)
                    linked.insert(c);
            ++result.shards;
            result.chunksSent += int(shardContents.size());
            result.payloadBytes += payload;
            sentThisRound += payload;
        }
        if (sendFailed) continue;

        // 4. Large files, one stream each, in file order: new chunks from here, unchanged ones copied on the host
        // from cached files that hold them; written once and hashed while written. A cut keeps what arrived, and
        // the next round continues from its last whole chunk.
        const qint64 cb = m.chunkBytes;
        for (const ManifestFile *f : largeMissing) {
            const QString sha = QString::fromLatin1(f->sha256);
            qint64 resume = cache.partials.value(f->sha256, 0) / cb * cb;
            if (resume < 0 || resume >= f->size) resume = 0; // the host's size is not trusted
            QList<Segment> segments;
            QList<int> newChunks;
            QSet<QByteArray> sources;
            qint64 newBytes = 0;
            for (int i = int(resume / cb); i < f->chunks.size(); ++i) {
                const qint64 size = m.chunkSize(*f, i);
                const auto src = cache.chunkSources.constFind(f->chunks[i]);
                Segment next;
                if (src != cache.chunkSources.cend() && src->first != f->sha256) {
                    next = {src->first, qint64(src->second) * cb, size};
                    sources.insert(src->first);
                } else {
                    newChunks.append(i);
                    newBytes += size;
                    next.bytes = size;
                }
                Segment *last = segments.isEmpty() ? nullptr : &segments.last();
                if (last && last->source == next.source &&
                    (next.source.isEmpty() || last->offset + last->bytes == next.offset))
                    last->bytes += next.bytes;
                else
                    segments.append(next);
            }
            QString pieces;
            for (const Segment &s : segments)
                pieces += s.source.isEmpty()
                              ? (segments.size() == 1 ? QStringLiteral("cat; ")
                                                      : QStringLiteral("dd bs=%1 iflag=fullblock,count_bytes count=%2 "
                                                                       "status=none; ")
                                                            .arg(cb)
                                                            .arg(s.bytes))
                              : QStringLiteral("dd if=%1 bs=%2 iflag=skip_bytes,count_bytes skip=%3 count=%4 "
                                               "status=none; ")
                                    .arg(QString::fromLatin1(s.source))
                                    .arg(cb)
                                    .arg(s.offset)
                                    .arg(s.bytes);
            QByteArray chunkList;
            for (const QByteArray &c : f->chunks)
                chunkList += c + '\n';
            // The script travels ahead of the data on the same stdin, so its length is not bound by the command
            // line; a short file (a cut) keeps its partial copy, a wrong hash removes it.
            const QByteArray script =
                QStringLiteral("set -e\n%1\nP=.in-%2\n[ -f \"$P\" ] || : > \"$P\"\ntruncate -s %3 \"$P\"\n"
                               "{ %4} >> \"$P\"\n"
                               "s=$(stat -c %s \"$P\")\n"
                               "if [ \"$s\" != %5 ]; then echo \"%2: $s of %5 bytes arrived\" >&2; exit 4; fi\n"
                               "h=$($H < \"$P\" | cut -c1-64)\n"
                               "if [ \"$h\" != %2 ]; then rm -f \"$P\"; echo \"%2: SHA-256 $h\" >&2; exit 5; fi\n"
                               "chmod 444 \"$P\"\nmv -f \"$P\" %2\ncat > %2.chunks <<'EOF'\n")
                    .arg(QString::fromLatin1(kHashCommand), sha)
                    .arg(resume)
                    .arg(pieces)
                    .arg(f->size)
                    .toUtf8() +
                chunkList + "EOF\necho verified\n";
            int next = 0;
            bool scriptSent = false;
            QString readError;
            qint64 streamed = 0;
            auto input = [&](QByteArray *block) {
                if (!scriptSent) {
                    scriptSent = true;
                    *block = script;
                    result.bytesSent += script.size();
                } else if (next < newChunks.size()) {
                    const int i = newChunks[next++];
                    *block = store.readChunk(f->chunks[i], m.chunkSize(*f, i), &readError, verifyLocally);
                    if (block->size() != m.chunkSize(*f, i)) return false;
                    streamed += block->size();
                    result.bytesSent += block->size();
                    if (progress && !progress(sentThisRound + streamed, toSend, QStringLiteral("sending"))) {
                        readError = tr("Cancelled.");
                        return false;
                    }
                }
                return true;
            };
            phase.start();
            const remote::CommandResult r = runner_.runStreaming(
                QStringLiteral("set -e; cd %1/.files; dd bs=65536 iflag=fullblock,count_bytes count=%2 "
                               "status=none > .in-%3.sh; sh .in-%3.sh; rm -f .in-%3.sh")
                    .arg(q(root_))
                    .arg(script.size())
                    .arg(sha),
                input, 0);
            result.sendSeconds += double(phase.nsecsElapsed()) / 1e9;
            if (!readError.isEmpty()) return *error = readError, std::nullopt;
            if (!r.ok() || !r.stdoutData.contains("verified")) {
                if (r.exitCode == 5) { // the sources may be damaged: send them again when needed
                    QStringList names;
                    for (const QByteArray &s : sources)
                        names << QString::fromLatin1(s) << QString::fromLatin1(s) + QStringLiteral(".chunks");
                    runner_.run(QStringLiteral("cd %1/.files && rm -f %2").arg(q(root_), names.join(QLatin1Char(' '))));
                }
                sendFailed = true;
                if (failed(tr("%1 did not arrive: %2").arg(f->path, commandError(r)))) return std::nullopt;
                break;
            }
            hashed.insert(f->sha256, f->sha256);
            ++result.streamedFiles;
            result.chunksSent += int(newChunks.size());
            result.payloadBytes += newBytes;
            sentThisRound += streamed;
        }
        if (sendFailed) continue;

        // 5. Link the files the shards did not link, and hash every content not hashed on arrival this round.
        if (progress && !progress(sentThisRound, toSend, QStringLiteral("verifying")))
            return *error = tr("Cancelled."), std::nullopt;
        TarWriter links;
        QByteArray names, copies, packIndex = "diamond-packed 1 ../../.packs\n";
        QHash<QByteArray, PackedMember> packedAt; // small contents of a packed version -> their pack
        QSet<QByteArray> packsToHash;
        for (const ManifestFile &f : m.files) {
            if (packImages && f.chunks.size() <= 1) {
                const PackedMember at = packedNow.value(f.sha256, cache.packed.value(f.sha256));
                packedAt.insert(f.sha256, at);
                packIndex += at.pack + ' ' + QByteArray::number(at.offset) + ' ' + QByteArray::number(at.size) + ' ' +
                             f.path.toUtf8() + '\n';
                if (!packedNow.contains(f.sha256)) packsToHash.insert(at.pack);
                continue;
            }
            if (linked.contains(f.sha256)) continue;
            const QString target = cacheFile.arg(QString::fromLatin1(f.sha256));
            const QString path = partialName + QLatin1Char('/') + f.path;
            if (hardLinks)
                links.addHardLink(path, target);
            else
                copies += QStringLiteral("mkdir -p \"$(dirname %1)\" && cp %2 %1\n").arg(q(path), target).toUtf8();
        }
        for (auto it = contents.cbegin(); it != contents.cend(); ++it)
            if (!hashed.contains(it.key()) && !packedAt.contains(it.key()))
                names += cacheFile.arg(QString::fromLatin1(it.key())).toLatin1() + '\0';
        for (const QByteArray &pack : packsToHash)
            names += ".packs/" + pack + ".pack" + '\0';
        links.addFile(listName, names);
        if (packImages) links.addFile(partialName + QLatin1Char('/') + QLatin1String(kPackIndex), packIndex);
        const QString keepCommands = keepPacks(links); // the packs of this round take their names first
        const QString copyScript = listName + QStringLiteral(".sh");
        links.addFile(copyScript, copies);
        phase.start();
        // Every name hashed here is its content's SHA-256 (.files/SHA, .packs/SHA.pack): when each hash equals its
        // name, the same command completes the version (and says "//complete"); what this side checks below decides.
        const QString finalDir = version.name + QLatin1Char('/') + hash16;
        const remote::CommandResult assembled = runner_.run(
            QStringLiteral("set -e; %1 cd %2; %5tar -x -f -; sh %3; xargs -0 -r $H < %4 > %4.sums; rm -f %3 %4; "
                           "cat %4.sums; if awk '{n=$NF; sub(/^[*]/, \"\", n); sub(/.*[/]/, \"\", n); "
                           "sub(/[.]pack$/, \"\", n); if (n != $1) bad = 1} END {exit bad}' %4.sums; then "
                           "rm -rf %6; mv %7 %6; printf '%s\\n' %8 > %9; echo //complete; fi; rm -f %4.sums")
                .arg(QString::fromLatin1(kHashCommand), q(root_), q(copyScript), q(listName), keepCommands, q(finalDir),
                     q(partialName), QString::fromLatin1(version.manifestHash),
                     q(finalDir + QStringLiteral(".verified"))),
            links.finish(), 0);
        result.assembleSeconds += double(phase.nsecsElapsed()) / 1e9;
        if (!assembled.ok()) {
            if (assembled.stderrData.contains("Cannot hard link")) hardLinks = false;
            if (failed(tr("cannot assemble %1 in %2: %3").arg(version.ref(), root_, commandError(assembled))))
                return std::nullopt;
            continue;
        }
        packsToKeep.clear();
        parseHashes(assembled.stdoutData, &hashed);
        QStringList bad;
        QSet<QByteArray> badPacks;
        for (auto it = contents.cbegin(); it != contents.cend(); ++it) {
            if (packedAt.contains(it.key())) {
                const PackedMember &at = packedAt[it.key()];
                if (at.size != it.value()->size || (packsToHash.contains(at.pack) && hashed.value(at.pack) != at.pack))
                    badPacks.insert(at.pack);
                continue;
            }
            if (hashed.value(it.key()) == it.key()) continue;
            result.repaired += int(pathsOf.value(it.key()).size());
            bad << cacheFile.arg(QString::fromLatin1(it.key()))
                << cacheFile.arg(QString::fromLatin1(it.key())) + QStringLiteral(".chunks");
        }
        const int damagedFiles = int(bad.size() / 2);
        for (auto it = packedAt.cbegin(); it != packedAt.cend(); ++it)
            if (badPacks.contains(it->pack)) result.repaired += int(pathsOf.value(it.key()).size());
        for (const QByteArray &pack : badPacks)
            bad << QStringLiteral(".packs/%1.pack").arg(QString::fromLatin1(pack))
                << QStringLiteral(".packs/%1.members").arg(QString::fromLatin1(pack));
        if (!bad.isEmpty()) {
            // Damaged cache entries: drop them (and a completion the host may have recorded) and send them again.
            bad << q(finalDir + QStringLiteral(".verified"));
            runner_.run(QStringLiteral("cd %1 && rm -f %2").arg(q(root_), bad.join(QLatin1Char(' '))));
            if (failed(tr("%1 files and %2 packs differed from their SHA-256 on the host")
                           .arg(damagedFiles)
                           .arg(badPacks.size())))
                return std::nullopt;
            continue;
        }
        if (assembled.stdoutData.contains("//complete")) return finish();
        const remote::CommandResult done =
            runner_.run(QStringLiteral("set -e; cd %1; rm -rf %2; mv %3 %2; printf '%s\\n' %4 > %5")
                            .arg(q(root_), q(finalDir), q(partialName), QString::fromLatin1(version.manifestHash),
                                 q(finalDir + QStringLiteral(".verified"))));
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
