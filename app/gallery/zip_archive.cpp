#include "zip_archive.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <sys/stat.h>
#include <zip.h>

namespace diamond::app::gallery {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::gallery", text); }

bool isAbsoluteName(const QString &name) {
    if (name.startsWith(QLatin1Char('/')) || name.startsWith(QLatin1Char('\\'))) return true;
    return name.size() >= 2 && name.at(1) == QLatin1Char(':') && name.at(0).isLetter();
}

bool hasDotDot(const QString &name) {
    static const QRegularExpression separators(QStringLiteral("[/\\\\]"));
    const QStringList parts = name.split(separators);
    return parts.contains(QStringLiteral(".."));
}

} // namespace

void ZipWriter::add(const QString &name, const QByteArray &data, bool store) { files_.append({name, data, store}); }

namespace {
constexpr time_t kEntryTime = 946728000; // 2000-01-01 12:00:00 UTC
} // namespace

bool ZipWriter::write(const QString &path) {
    error_.clear();
    const QString tmp = path + QStringLiteral(".part");
    QFile::remove(tmp);
    int err = 0;
    zip_t *z = zip_open(QFile::encodeName(tmp).constData(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!z) {
        error_ = tr("cannot create %1 (libzip error %2)").arg(tmp).arg(err);
        return false;
    }
    for (const File &f : files_) {
        zip_source_t *src = zip_source_buffer(z, f.data.constData(), static_cast<zip_uint64_t>(f.data.size()), 0);
        const zip_int64_t index =
            src ? zip_file_add(z, f.name.toUtf8().constData(), src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE) : -1;
        if (index < 0) {
            if (src) zip_source_free(src);
            error_ = tr("cannot add %1 to %2: %3").arg(f.name, path, QString::fromUtf8(zip_strerror(z)));
            zip_discard(z);
            return false;
        }
        zip_set_file_compression(z, static_cast<zip_uint64_t>(index), f.store ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0);
        // One fixed modification time (2000-01-01 12:00 UTC, the same calendar day in every time
        // zone): the same files give the same bytes, so a package's SHA-256 identifies its content.
        zip_file_set_mtime(z, static_cast<zip_uint64_t>(index), kEntryTime, 0);
        // Regular file, rw-r--r--: readers that honour Unix modes never see anything executable.
        zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                         static_cast<zip_uint32_t>(S_IFREG | 0644) << 16);
    }
    if (zip_close(z) != 0) {
        error_ = tr("cannot write %1: %2").arg(path, QString::fromUtf8(zip_strerror(z)));
        zip_discard(z);
        QFile::remove(tmp);
        return false;
    }
    QFile::remove(path);
    if (!QFile::rename(tmp, path)) {
        error_ = tr("cannot rename %1 to %2").arg(tmp, path);
        return false;
    }
    return true;
}

ZipReader::~ZipReader() {
    if (zip_) zip_discard(zip_);
}

bool ZipReader::fail(const char *code, const QString &message) {
    code_ = QString::fromLatin1(code);
    error_ = message;
    return false;
}

bool ZipReader::open(const QString &path, int maxEntries, const std::function<qint64(const QString &)> &maxSizeFor) {
    path_ = path;
    entries_.clear();
    indexes_.clear();
    int err = 0;
    zip_ = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!zip_) {
        zip_error_t e;
        zip_error_init_with_code(&e, err);
        const QString why = QString::fromUtf8(zip_error_strerror(&e));
        zip_error_fini(&e);
        if (err == ZIP_ER_EXISTS) // libzip's answer to two entries with one name
            return fail(ErrorCode::kDuplicateEntry, tr("%1 holds two entries with the same name").arg(path));
        if (err == ZIP_ER_INCONS)
            return fail(ErrorCode::kCorrupt,
                        tr("%1 is an inconsistent zip archive (duplicate or mismatched entries): %2").arg(path, why));
        return fail(ErrorCode::kNotZip, tr("%1 is not a readable zip archive: %2").arg(path, why));
    }
    const zip_int64_t n = zip_get_num_entries(zip_, 0);
    if (n < 0 || n > maxEntries)
        return fail(ErrorCode::kTooManyEntries,
                    tr("%1 holds %2 entries; a package may hold at most %3").arg(path).arg(n).arg(maxEntries));
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9._-]{1,128}$"));
    for (zip_int64_t i = 0; i < n; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(zip_, static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
            return fail(ErrorCode::kCorrupt, tr("%1: cannot read entry %2").arg(path).arg(i));
        const QString name = QString::fromUtf8(st.name);
        if (isAbsoluteName(name))
            return fail(ErrorCode::kAbsolutePath, tr("%1: entry \"%2\" has an absolute path").arg(path, name));
        if (hasDotDot(name))
            return fail(ErrorCode::kPathTraversal,
                        tr("%1: entry \"%2\" leaves the package folder (\"..\")").arg(path, name));
        zip_uint8_t opsys = 0;
        zip_uint32_t attributes = 0;
        if (zip_file_get_external_attributes(zip_, static_cast<zip_uint64_t>(i), 0, &opsys, &attributes) == 0 &&
            opsys == ZIP_OPSYS_UNIX) {
            const mode_t mode = static_cast<mode_t>(attributes >> 16);
            if (S_ISLNK(mode))
                return fail(ErrorCode::kSymlink, tr("%1: entry \"%2\" is a symbolic link").arg(path, name));
            if ((mode & S_IFMT) != 0 && !S_ISREG(mode))
                return fail(ErrorCode::kBadEntryName, tr("%1: entry \"%2\" is not a regular file").arg(path, name));
        }
        if (!allowed.match(name).hasMatch() || name == QLatin1String(".") || name == QLatin1String(".."))
            return fail(
                ErrorCode::kBadEntryName,
                tr("%1: entry \"%2\" is not a plain file name (letters, digits, '.', '_', '-')").arg(path, name));
        if (contains(name))
            return fail(ErrorCode::kDuplicateEntry, tr("%1: entry \"%2\" appears twice").arg(path, name));
        const qint64 size = static_cast<qint64>(st.size);
        const qint64 compressed = static_cast<qint64>(st.comp_size);
        if (size < 0 || size > maxSizeFor(name))
            return fail(ErrorCode::kEntryTooLarge, tr("%1: entry \"%2\" is %3 bytes; the limit for it is %4 bytes")
                                                       .arg(path, name)
                                                       .arg(size)
                                                       .arg(maxSizeFor(name)));
        if (size > 1024 * 1024 && size / qMax<qint64>(compressed, 1) > 1000)
            return fail(ErrorCode::kEntryTooLarge,
                        tr("%1: entry \"%2\" expands more than 1000-fold (zip bomb?)").arg(path, name));
        entries_.append({name, size, compressed});
        indexes_.append(i);
    }
    return true;
}

bool ZipReader::contains(const QString &name) const {
    for (const ZipEntry &e : entries_)
        if (e.name == name) return true;
    return false;
}

bool ZipReader::stream(const QString &name, const std::function<void(const char *, qint64)> &sink) {
    int at = -1;
    for (int i = 0; i < entries_.size(); ++i)
        if (entries_[i].name == name) at = i;
    if (at < 0 || !zip_) return fail(ErrorCode::kMissingFile, tr("%1: no entry \"%2\"").arg(path_, name));
    zip_file_t *f = zip_fopen_index(zip_, static_cast<zip_uint64_t>(indexes_[at]), 0);
    if (!f)
        return fail(ErrorCode::kCorrupt,
                    tr("%1: cannot open entry \"%2\": %3").arg(path_, name, QString::fromUtf8(zip_strerror(zip_))));
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    qint64 total = 0;
    const qint64 declared = entries_[at].size;
    for (;;) {
        const zip_int64_t got = zip_fread(f, buffer.data(), static_cast<zip_uint64_t>(buffer.size()));
        if (got < 0) {
            const QString why = QString::fromUtf8(zip_file_strerror(f));
            zip_fclose(f);
            return fail(ErrorCode::kCorrupt, tr("%1: entry \"%2\" is damaged: %3").arg(path_, name, why));
        }
        if (got == 0) break;
        total += got;
        if (total > declared) {
            zip_fclose(f);
            return fail(ErrorCode::kCorrupt, tr("%1: entry \"%2\" is longer than declared").arg(path_, name));
        }
        sink(buffer.constData(), got);
    }
    zip_fclose(f);
    if (total != declared)
        return fail(ErrorCode::kCorrupt, tr("%1: entry \"%2\" is shorter than declared").arg(path_, name));
    return true;
}

bool ZipReader::read(const QString &name, QByteArray *out) {
    out->clear();
    return stream(name, [out](const char *data, qint64 n) { out->append(data, n); });
}

} // namespace diamond::app::gallery
