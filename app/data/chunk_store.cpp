#include "app/data/chunk_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QUuid>

#include <algorithm>

#include <unistd.h>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ChunkStore", text); }

struct SourceFile {
    QString absolute;
    QString relative;
    qint64 size = 0;
};

} // namespace

QString ChunkStore::chunkPath(const QByteArray &sha256) const {
    return root_ + QLatin1Char('/') + QString::fromLatin1(sha256.left(2)) + QLatin1Char('/') +
           QString::fromLatin1(sha256);
}

bool ChunkStore::contains(const QByteArray &sha256, qint64 size) const {
    const QFileInfo info(chunkPath(sha256));
    return info.isFile() && info.size() == size;
}

bool ChunkStore::storeChunk(const QByteArray &sha256, const char *data, qint64 size, bool *added, QString *error) {
    *added = false;
    if (contains(sha256, size)) return true;
    const QString path = chunkPath(sha256);
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = tr("Cannot create the folder of %1.").arg(path);
        return false;
    }
    const QString temp = path + QStringLiteral(".tmp-") + QUuid::createUuid().toString(QUuid::Id128);
    QFile out(temp);
    if (!out.open(QIODevice::WriteOnly) || out.write(data, size) != size || !out.flush()) {
        *error = tr("Cannot write %1: %2").arg(temp, out.errorString());
        out.remove();
        return false;
    }
    out.setPermissions(QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther);
    out.close();
    QFile::remove(path); // a damaged copy of another size
    if (!QFile::rename(temp, path) && !contains(sha256, size)) {
        *error = tr("Cannot store %1.").arg(path);
        QFile::remove(temp);
        return false;
    }
    QFile::remove(temp);
    *added = true;
    return true;
}

std::optional<ImportResult> ChunkStore::importPath(const QString &source, qint64 chunkBytes,
                                                   const DataProgress &progress, QString *error) {
    const QFileInfo top(source);
    QList<SourceFile> sources;
    ImportResult result;
    result.manifest.chunkBytes = chunkBytes;
    if (top.isFile()) {
        sources.append({top.absoluteFilePath(), top.fileName(), top.size()});
    } else if (top.isDir()) {
        const QDir base(top.absoluteFilePath());
        QDirIterator it(top.absoluteFilePath(), QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            const QFileInfo info = it.fileInfo();
            const QString relative = base.relativeFilePath(info.absoluteFilePath());
            if (info.isSymLink() || (!info.isFile() && !info.isDir())) {
                result.skipped << relative;
            } else if (info.isFile()) {
                if (!isSafeManifestPath(relative)) {
                    *error = tr("%1: the name of \"%2\" cannot be stored (control characters or a backslash).")
                                 .arg(source, relative);
                    return std::nullopt;
                }
                sources.append({info.absoluteFilePath(), relative, info.size()});
            }
        }
        if (sources.isEmpty()) {
            *error = tr("%1 holds no files.").arg(source);
            return std::nullopt;
        }
    } else {
        *error = tr("%1 is neither a file nor a folder.").arg(source);
        return std::nullopt;
    }
    std::sort(sources.begin(), sources.end(),
              [](const SourceFile &a, const SourceFile &b) { return a.relative < b.relative; });
    qint64 total = 0;
    for (const SourceFile &s : sources)
        total += s.size;
    qint64 done = 0;
    QByteArray buffer;
    Sha256 fileHash, chunkHash;
    for (const SourceFile &s : sources) {
        QFile in(s.absolute);
        if (!in.open(QIODevice::ReadOnly)) {
            *error = tr("Cannot read %1: %2").arg(s.absolute, in.errorString());
            return std::nullopt;
        }
        ManifestFile f;
        f.path = s.relative;
        do {
            buffer.resize(chunkBytes);
            const qint64 n = in.read(buffer.data(), chunkBytes);
            if (n < 0) {
                *error = tr("Cannot read %1: %2").arg(s.absolute, in.errorString());
                return std::nullopt;
            }
            chunkHash.add(buffer.constData(), n);
            fileHash.add(buffer.constData(), n);
            const QByteArray sha = chunkHash.hexResult();
            bool added = false;
            if (!storeChunk(sha, buffer.constData(), n, &added, error)) return std::nullopt;
            if (added) {
                result.newBytes += n;
                ++result.newChunks;
            }
            f.chunks.append(sha);
            f.size += n;
            done += n;
            if (progress && !progress(done, total)) {
                *error = tr("Cancelled.");
                return std::nullopt;
            }
            if (n < chunkBytes) break;
        } while (!in.atEnd());
        f.sha256 = fileHash.hexResult();
        if (f.size == 0 && f.chunks.isEmpty()) f.chunks.append(f.sha256);
        // A file whose size is a multiple of the chunk size ends with a full chunk; atEnd() stops the loop.
        result.manifest.files.append(std::move(f));
    }
    return result;
}

QByteArray ChunkStore::readChunk(const QByteArray &sha256, qint64 size, QString *error, bool verify) const {
    QFile in(chunkPath(sha256));
    if (!in.open(QIODevice::ReadOnly) || in.size() != size) {
        *error = tr("The chunk %1 is missing from %2 or has the wrong size.").arg(QString::fromLatin1(sha256), root_);
        return {};
    }
    QByteArray data = in.readAll();
    if (data.size() != size || (verify && Sha256::hex(data) != sha256)) {
        *error = tr("The chunk %1 in %2 is damaged (its SHA-256 differs).").arg(QString::fromLatin1(sha256), root_);
        return {};
    }
    return data;
}

bool ChunkStore::materialize(const ContentManifest &manifest, const QString &folder, QString *error) const {
    const QString temp = folder + QStringLiteral(".partial");
    QDir(temp).removeRecursively();
    for (const ManifestFile &f : manifest.files) {
        const QString target = temp + QLatin1Char('/') + f.path;
        if (!QDir().mkpath(QFileInfo(target).absolutePath())) {
            *error = tr("Cannot create the folder of %1.").arg(target);
            return false;
        }
        if (f.chunks.size() == 1 && contains(f.chunks[0], f.size) &&
            ::link(QFile::encodeName(chunkPath(f.chunks[0])).constData(), QFile::encodeName(target).constData()) == 0)
            continue;
        QFile out(target);
        if (!out.open(QIODevice::WriteOnly)) {
            *error = tr("Cannot write %1: %2").arg(target, out.errorString());
            return false;
        }
        for (int i = 0; i < f.chunks.size(); ++i) {
            const QByteArray data = readChunk(f.chunks[i], manifest.chunkSize(f, i), error);
            if (data.isEmpty() && manifest.chunkSize(f, i) > 0) return false;
            if (out.write(data) != data.size()) {
                *error = tr("Cannot write %1: %2").arg(target, out.errorString());
                return false;
            }
        }
    }
    QDir(folder).removeRecursively();
    if (!QDir().rename(temp, folder)) {
        *error = tr("Cannot rename %1 to %2.").arg(temp, folder);
        return false;
    }
    return true;
}

qint64 ChunkStore::removeUnreferenced(const QSet<QByteArray> &keep) const {
    qint64 freed = 0;
    QDirIterator it(root_, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        const QByteArray name = it.fileName().toLatin1();
        if (keep.contains(name)) continue;
        const qint64 size = it.fileInfo().size();
        if (QFile::remove(it.filePath())) freed += size;
    }
    return freed;
}

} // namespace diamond::app
