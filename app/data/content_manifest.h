// Content manifests of datasets: every file of a dataset version with its size, its SHA-256 and the SHA-256 of
// each of its fixed-size chunks. A changed byte changes exactly one chunk (and the file's hash); storage and
// staging move chunks, so a new version or a re-staging sends only chunks that are not there already.
//
// JSON form (docs/datasets.md): {"format": "diamond.manifest/1", "chunk_size": N,
//   "files": [{"path": "a/b.png", "size": S, "sha256": "...", "chunks": ["...", ...]}, ...]}
// Paths are relative, '/'-separated, sorted, without "." or ".." parts. A file of at most one chunk has exactly
// one chunk, whose hash is the file's hash. hash() is the SHA-256 of the compact JSON text.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

/// Bytes per chunk of new manifests (4 MiB).
inline constexpr qint64 kDefaultChunkBytes = qint64(4) << 20;

struct ManifestFile {
    QString path;             ///< relative to the dataset's root, '/'-separated
    qint64 size = 0;          ///< bytes
    QByteArray sha256;        ///< hex SHA-256 of the whole file
    QList<QByteArray> chunks; ///< hex SHA-256 of each chunk, in order (one for an empty file)
};

struct ContentManifest {
    qint64 chunkBytes = kDefaultChunkBytes;
    QList<ManifestFile> files; ///< sorted by path

    qint64 totalBytes() const;
    /// Size of chunk `index` of `file`.
    qint64 chunkSize(const ManifestFile &file, int index) const;
    /// Every distinct chunk (hash -> size).
    QList<QPair<QByteArray, qint64>> distinctChunks() const;
    QJsonObject toJson() const;
    /// Hex SHA-256 of the compact JSON text: the version's identity.
    QByteArray hash() const;
    /// nullopt with *error on a malformed manifest (bad paths, hashes, sizes or chunk counts).
    static std::optional<ContentManifest> fromJson(const QJsonObject &json, QString *error);
};

/// True when `path` is a safe relative manifest path (no absolute path, no "." or ".." part, no empty part, no
/// backslash or control character).
bool isSafeManifestPath(const QString &path);

/// True for 64 lower-case hex characters.
bool isSha256Hex(const QByteArray &text);

/// Incremental SHA-256 (OpenSSL; several times faster than QCryptographicHash here).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;
    void add(const char *data, qint64 size);
    void add(const QByteArray &data) { add(data.constData(), data.size()); }
    /// Hex digest; the object is reset afterwards.
    QByteArray hexResult();
    static QByteArray hex(const QByteArray &data);

private:
    void *ctx_;
};

} // namespace diamond::app
