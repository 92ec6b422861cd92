// Staging a dataset version to a cluster through a CommandRunner (SSH exec channels; `cat`-speed streams), into a
// content-addressed cache per user and cluster:
//
//   <root>/.chunks/<sha256>        one file per chunk (root: <scratch>/datasets)
//   <root>/<name>/<hash16>/...     the version's files: hard links to single-chunk files, larger files concatenated
//   <root>/<name>/<hash16>.verified  the full manifest hash, written once every file's SHA-256 matched
//
// Only chunks missing from the cache (by name and size) are sent, packed into tar shards (many small files travel
// as a few streams, not one transfer each) that are unpacked straight into the cache. A cut connection loses at most
// the shard in flight: the next attempt reconnects (the runner's backoff), lists the cache again and sends what is
// still missing. Every file is verified by SHA-256 on the far side after it is assembled; a mismatch removes the file's
// cached chunks and sends them again. A version whose .verified marker and file sizes match is not touched.
// Blocking: run on a worker thread with a runner of that thread.
#pragma once

#include "app/data/chunk_store.h"
#include "app/data/dataset_store.h"

#include <QJsonObject>

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
    int retries = 0;            ///< shards or steps repeated after a failure (a cut connection)
    int repaired = 0;           ///< files whose cached chunks failed verification and were sent again
    bool alreadyStaged = false; ///< the verified copy was there; nothing was sent
    double seconds = 0;
    double sendSeconds = 0;     ///< of which moving shards
    double packSeconds = 0;     ///< of which reading chunks and building shards here
    double assembleSeconds = 0; ///< of which assembling and hashing the files on the host
    QJsonObject toJson() const;
};

/// (bytes sent so far, bytes that need sending, phase: "checking", "sending", "verifying"); false cancels.
using StageProgress = std::function<bool(qint64 sent, qint64 toSend, const QString &phase)>;

class DatasetStager {
public:
    /// `root`: the cache folder on the host (absolute or relative to the login folder, no "~").
    DatasetStager(remote::CommandRunner &runner, const QString &root) : runner_(runner), root_(root) {}

    /// Bytes of chunks per shard; 0 (default): 1/16 of what is missing, within 8 … 64 MiB, so that a cut connection
    /// costs at most about 6 % of a large transfer.
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
    qint64 size() const { return out_.size(); }
    void reserve(qint64 bytes) { out_.reserve(bytes); }

private:
    void header(const QByteArray &name, char type, qint64 size, int mode, const QByteArray &link);
    QByteArray out_;
};

} // namespace diamond::app
