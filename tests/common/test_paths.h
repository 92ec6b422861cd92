// Paths shared by the test suites: the build's bin folder and the source tree.
#pragma once

#include <QDir>
#include <QProcessEnvironment>
#include <QString>

namespace diamond::test {

/// Folder holding diamond, diamondctl and diamond-train of the build under test.
inline QString binDir() {
    const QString fromEnv = QProcessEnvironment::systemEnvironment().value(QStringLiteral("DIAMOND_BIN_DIR"));
    return fromEnv.isEmpty() ? QStringLiteral(DIAMOND_BINARY_DIR "/bin") : fromEnv;
}

inline QString binary(const QString &name) { return QDir(binDir()).filePath(name); }

inline QString sourcePath(const QString &relative) {
    return QDir(QStringLiteral(DIAMOND_SOURCE_DIR)).filePath(relative);
}

} // namespace diamond::test
