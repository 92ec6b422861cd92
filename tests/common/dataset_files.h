// Files for dataset tests and benchmarks: reproducible random bytes, and writing/reading whole files.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QString>

namespace diamond::test {

/// `size` bytes (a multiple of 4) drawn from a generator seeded with `seed`: the same seed gives the same bytes.
inline QByteArray randomBytes(qint64 size, quint32 seed) {
    QByteArray b(size, Qt::Uninitialized);
    QRandomGenerator g(seed);
    g.fillRange(reinterpret_cast<quint32 *>(b.data()), size / 4);
    return b;
}

/// Writes `data` to `path`, creating its folders; false on failure.
inline bool writeFile(const QString &path, const QByteArray &data) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

/// The whole file; empty when it cannot be read.
inline QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace diamond::test
