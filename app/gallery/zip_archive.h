// Minimal, defensive zip access for model packages (libzip underneath).
//
// ZipWriter stores files given as bytes under flat names. ZipReader opens an archive and refuses, before any
// byte is extracted: more than `maxEntries` entries, absolute names (leading '/' or '\\', a drive letter),
// names with a ".." component, symbolic links and other non-regular entries (Unix mode in the external
// attributes), names outside [A-Za-z0-9._-] (packages are flat), duplicate names, entries whose declared size
// is over the limit for that name, and a declared size over 1000x the compressed size (zip bombs). Reads stop
// at the declared size, and a CRC mismatch is an error. Nothing is ever written outside the caller's folder.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

struct zip;

namespace diamond::app::gallery {

/// Stable error codes of archive and package checks (also used as REST error codes).
namespace ErrorCode {
inline constexpr const char *kNotZip = "package_not_zip";
inline constexpr const char *kTooManyEntries = "package_too_many_entries";
inline constexpr const char *kAbsolutePath = "package_absolute_path";
inline constexpr const char *kPathTraversal = "package_path_traversal";
inline constexpr const char *kSymlink = "package_symlink";
inline constexpr const char *kBadEntryName = "package_bad_entry_name";
inline constexpr const char *kDuplicateEntry = "package_duplicate_entry";
inline constexpr const char *kEntryTooLarge = "package_entry_too_large";
inline constexpr const char *kCorrupt = "package_corrupt";
inline constexpr const char *kUnknownFormat = "package_unknown_format";
inline constexpr const char *kBadManifest = "package_bad_manifest";
inline constexpr const char *kHashMismatch = "package_hash_mismatch";
inline constexpr const char *kMissingFile = "package_missing_file";
inline constexpr const char *kUnlistedFile = "package_unlisted_file";
inline constexpr const char *kTooLarge = "package_too_large";
inline constexpr const char *kBadSignature = "package_bad_signature";
} // namespace ErrorCode

struct ZipEntry {
    QString name;
    qint64 size = 0;           ///< uncompressed, as declared in the central directory
    qint64 compressedSize = 0; ///< as declared
};

class ZipWriter {
public:
    /// Adds a file (kept in memory until write()). Deflated unless `store` is true.
    void add(const QString &name, const QByteArray &data, bool store = false);
    /// Writes the archive to `path` (through a temporary file and a rename). False with errorString() on failure.
    bool write(const QString &path);
    QString errorString() const { return error_; }

private:
    struct File {
        QString name;
        QByteArray data;
        bool store = false;
    };
    QList<File> files_;
    QString error_;
};

class ZipReader {
public:
    ZipReader() = default;
    ~ZipReader();
    ZipReader(const ZipReader &) = delete;
    ZipReader &operator=(const ZipReader &) = delete;

    /// Opens `path` and checks every entry (see the file comment). `maxSizeFor(name)` gives the largest
    /// uncompressed size allowed for an entry. False with errorCode()/errorString() when refused.
    bool open(const QString &path, int maxEntries, const std::function<qint64(const QString &)> &maxSizeFor);
    const QList<ZipEntry> &entries() const { return entries_; }
    bool contains(const QString &name) const;
    /// Reads one entry completely into memory (its declared size was checked at open()).
    bool read(const QString &name, QByteArray *out);
    /// Streams one entry into `sink` in chunks; false on a read or CRC error.
    bool stream(const QString &name, const std::function<void(const char *, qint64)> &sink);

    QString errorCode() const { return code_; }
    QString errorString() const { return error_; }

private:
    bool fail(const char *code, const QString &message);
    zip *zip_ = nullptr;
    QString path_;
    QList<ZipEntry> entries_;
    QList<qint64> indexes_;
    QString code_, error_;
};

} // namespace diamond::app::gallery
