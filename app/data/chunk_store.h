// The workspace's content-addressed chunk store: <workspace>/datasets/.chunks/<first 2 hex>/<sha256>, one
// read-only file per distinct chunk. Importing a file or folder hashes it chunk by chunk and stores only chunks
// that are not there yet, so a new version of a folder where 1 % of the files changed adds only that 1 %.
// Dataset versions are materialised for local runs by hard-linking single-chunk files from the store and
// concatenating the chunks of larger ones.
//
// Blocking; safe on any thread (each call opens its own files). Several processes may import at once: chunks
// are written to a temporary file and renamed into place.
#pragma once

#include "app/data/content_manifest.h"

#include <QSet>
#include <QStringList>

#include <functional>

namespace diamond::app {

/// Called with (bytes done, bytes total); returning false cancels the work.
using DataProgress = std::function<bool(qint64 done, qint64 total)>;

struct ImportResult {
    ContentManifest manifest;
    qint64 newBytes = 0; ///< bytes of chunks this import added to the store
    int newChunks = 0;
    QStringList skipped; ///< entries left out (symbolic links, sockets, ...), relative paths
};

class ChunkStore {
public:
    /// `root` is the store folder (created on first write).
    explicit ChunkStore(const QString &root) : root_(root) {}

    QString root() const { return root_; }
    QString chunkPath(const QByteArray &sha256) const;
    bool contains(const QByteArray &sha256, qint64 size) const;

    /// Hashes `source` (a regular file, or a folder walked recursively, hidden entries included) and stores its
    /// chunks. nullopt with *error when something cannot be read or written, or when cancelled.
    std::optional<ImportResult> importPath(const QString &source, qint64 chunkBytes, const DataProgress &progress,
                                           QString *error);
    /// Chunk `sha256` (of `size` bytes), read and checked against its hash; empty with *error otherwise.
    /// `verify` false checks only the size (for readers whose output is verified elsewhere).
    QByteArray readChunk(const QByteArray &sha256, qint64 size, QString *error, bool verify = true) const;
    /// Builds the files of `manifest` in `folder` (replacing it), from the store. False with *error when a chunk
    /// is missing or damaged.
    bool materialize(const ContentManifest &manifest, const QString &folder, QString *error) const;
    /// Removes stored chunks not in `keep`; returns the bytes freed.
    qint64 removeUnreferenced(const QSet<QByteArray> &keep) const;

private:
    bool storeChunk(const QByteArray &sha256, const char *data, qint64 size, bool *added, QString *error);

    QString root_;
};

} // namespace diamond::app
