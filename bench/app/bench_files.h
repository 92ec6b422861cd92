// Helpers of the application-core benchmarks: the build's binaries, JSON files, and stopping with a message.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <cstdlib>

namespace diamond::bench {

/// build/bin/<name>, next to the benchmark's build/bench folder.
inline QString binary(const char *name) {
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../bin/") + QLatin1String(name));
}

/// Prints "<benchmark>: message" on stderr and exits 1.
[[noreturn]] inline void die(const QString &message) {
    std::fprintf(stderr, "%s: %s\n", qPrintable(QFileInfo(QCoreApplication::applicationFilePath()).fileName()),
                 qPrintable(message));
    std::exit(1);
}

inline QJsonObject readJson(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) die(QStringLiteral("cannot read ") + path);
    return QJsonDocument::fromJson(f.readAll()).object();
}

inline void writeJson(const QString &path, const QJsonObject &doc) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) die(QStringLiteral("cannot write ") + path);
    f.write(QJsonDocument(doc).toJson());
}

} // namespace diamond::bench
