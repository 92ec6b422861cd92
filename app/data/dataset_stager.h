// Staging a dataset version to a cluster through a CommandRunner (SSH exec channels; `cat`-speed streams), into a
// content-addressed cache per user and cluster:
//
//   <root>/.files/<sha256>          one file per distinct content (root: <scratch>/datasets)
//   <root>/.files/<sha256>.chunks   for files of several chunks: their chunk hashes, so that later versions copy
//                                   unchanged chunks from them on the host instead of sending them
//   <root>/.files/.in-<sha256>      a large file being received (kept for resuming after a cut)
//   <root>/.packs/<sha256>.pack     image folders: a shard of small images back to back (named by its SHA-256)
//   <root>/.packs/<sha256>.members  "CONTENT OFFSET SIZE" per image of that pack, written once the pack matched
//   <root>/<name>/<hash16>/...      the version's files: hard links into .files (copies where links are refused)
//   <root>/<name>/<hash16>.verified the full manifest hash, written once every file's SHA-256 matched
//
// Only content missing from the cache (by name and size) travels. Files of one chunk travel packed in tar shards
// (many small files as a few streams, not one transfer each), unpacked into the cache and linked into the version in
// the same pass, then hashed there; in image folders they stay in their shard, kept whole as a pack (the contents
// back to back) and hashed once written, and the version's .diamond-packed index says where each image lies (the
// engine's image_folder source reads it), so the host writes a few large files instead of one per image. A file of
// several chunks travels as one stream in file order: its new chunks come from here, unchanged ones are copied from
// older cached files on the host; the host writes it once and then hashes it from its page cache. A cut connection
// loses at most the shard in flight, or a large file's last partial chunk: the next attempt reconnects (the runner's
// backoff), lists the cache again and continues. Every file is verified by SHA-256 on the far side; a mismatch removes
// the cached file and sends it again. A version whose .verified marker and file sizes match is not touched. Blocking:
// run on a worker thread with a runner of that thread.
#pragma once

#include "app/data/chunk_store.h"
#include "app/data/dataset_store.h"

#include <QJsonObject>

#include <utility>

namespace diamond::remote {
class CommandRunner;
}

namespace diamond::app {

struct StageResult {
    QString remoteDir;       ///< the version's folder on the host
    qint64 bytesTotal = 0;   ///< size of the version
    qint64 bytesSent = 0;    ///< stream bytes written, failed shards included (tar headers count)
    qint64 payloadBytes = 0; ///< chunk bytes in the shards that arrived
    int files = 0;
    int chunksSent = 0;
    int shards = 0;
    int streamedFiles = 0;      ///< files of several chunks sent as streams
    int retries = 0;            ///< shards or steps repeated after a failure (a cut connection)
    int repaired = 0;           ///< files whose cached chunks failed verification and were sent again
    bool alreadyStaged = false; ///< the verified copy was there; nothing was sent
    double seconds = 0;
    double sendSeconds = 0;     ///< of which moving shards and streams (unpacking, writing and hashing there)
    double packSeconds = 0;     ///< of which reading chunks and building shards here, while nothing travelled
    double assembleSeconds = 0; ///< of which linking the version's files and hashing those not hashed on arrival
    QJsonObject toJson() const;
};

/// (bytes sent so far, bytes that need sending, phase: "checking", "sending", "verifying"); false cancels.
using StageProgress = std::function<bool(qint64 sent, qint64 toSend, const QString &phase)>;

class DatasetStager {
public:
    /// `root`: the cache folder on the host (absolute or relative to the login folder, no "~").
    DatasetStager(remote::CommandRunner &runner, const QString &root) : runner_(runner), root_(root) {}

    /// Bytes of small files per shard; 0 (default): one shard when at most 64 MiB are missing, else 1/16 of what is
    /// missing, within 32 … 64 MiB, so that a cut connection costs at most about 6 % of a large transfer while each
    /// stream's start-up cost stays small.
    void setShardBytes(qint64 bytes) { shardBytes_ = bytes; }
    /// Attempts after failures before stage() gives up (default 8).
    void setMaxFailures(int count) { maxFailures_ = count; }
    /// Hash every staged file again even when the verified marker is there.
    void setVerifyAlways(bool verify) { verifyAlways_ = verify; }

    static QString remoteDir(const QString &root, const DatasetVersion &version);
    std::optional<StageResult> stage(const DatasetVersion &version, const ChunkStore &store,
                                     const StageProgress &progress, QString *error);

private:
    remote::CommandRunner &runner_;
    QString root_;
    qint64 shardBytes_ = 0;
    int maxFailures_ = 8;
    bool verifyAlways_ = false;
};

/// Minimal tar (GNU format) in memory: regular files, folders and hard links; long names as GNU LongLink.
class TarWriter {
public:
    void addFile(const QString &name, const QByteArray &data, int mode = 0444);
    void addDirectory(const QString &name);
    void addHardLink(const QString &name, const QString &target);
    QByteArray finish();
    /// The bytes written so far, removed from the writer (for streaming an archive while it is built).
    QByteArray take() { return std::exchange(out_, QByteArray()); }
    qint64 size() const { return out_.size(); }
    void reserve(qint64 bytes) { out_.reserve(bytes); }

private:
    void header(const QByteArray &name, char type, qint64 size, int mode, const QByteArray &link);
    QByteArray out_;
};

} // namespace diamond::app
