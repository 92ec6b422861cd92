#include "remote/engine_bundle.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

namespace diamond::remote {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::remote::EngineBundle", text); }

constexpr const char *kLauncher = "#!/bin/sh\n"
                                  "# diamond-train from an engine bundle: its own libraries first.\n"
                                  "here=$(dirname \"$(readlink -f \"$0\")\")\n"
                                  "LD_LIBRARY_PATH=\"$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\"\n"
                                  "export LD_LIBRARY_PATH\n"
                                  "exec \"$here/bin/diamond-train\" \"$@\"\n";

QByteArray sha256Of(const QString &path) {
    QFile f(path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (f.open(QIODevice::ReadOnly)) hash.addData(&f);
    return hash.result().toHex();
}

} // namespace

bool isSystemLibrary(const QString &fileName) {
    static const QRegularExpression re(QStringLiteral(
        "^(ld-linux.*|linux-vdso.*|linux-gate.*|lib(c|m|dl|rt|pthread|util|resolv|anl|nsl|mvec|BrokenLocale|"
        "crypt|nss_[a-z]+|thread_db)\\.so.*)$"));
    return re.match(fileName).hasMatch();
}

QStringList sharedLibraries(const QString &binary, QString *error) {
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {binary});
    if (!ldd.waitForStarted() || !ldd.waitForFinished(60000) || ldd.exitCode() != 0) {
        *error = tr("ldd %1 failed: %2")
                     .arg(binary, QString::fromLocal8Bit(ldd.readAllStandardError()).trimmed() + ldd.errorString());
        return {};
    }
    QStringList out;
    static const QRegularExpression line(QStringLiteral("^\\s*(\\S+)\\s+=>\\s+(\\S+)\\s+\\(0x"));
    static const QRegularExpression notFound(QStringLiteral("^\\s*(\\S+)\\s+=>\\s+not found"));
    for (const QString &l : QString::fromLocal8Bit(ldd.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        if (const auto m = notFound.match(l); m.hasMatch()) {
            *error = tr("%1 needs %2, which is not installed").arg(binary, m.captured(1));
            return {};
        }
        if (const auto m = line.match(l); m.hasMatch()) out << m.captured(2);
    }
    return out;
}

bool createEngineBundle(const QString &binary, const QString &dirPath, EngineBundle *bundle, QString *error) {
    const QStringList libs = sharedLibraries(binary, error);
    if (libs.isEmpty()) {
        if (error->isEmpty()) *error = tr("%1 is not a dynamically linked program").arg(binary);
        return false;
    }
    QDir dir(dirPath);
    if (dir.exists() && !dir.isEmpty()) {
        *error = tr("The bundle folder %1 is not empty").arg(dirPath);
        return false;
    }
    if (!dir.mkpath(QStringLiteral("bin")) || !dir.mkpath(QStringLiteral("lib"))) {
        *error = tr("Cannot create %1").arg(dirPath);
        return false;
    }
    *bundle = EngineBundle{dir.absolutePath(), dir.absoluteFilePath(QStringLiteral("diamond-train")), {}, 0};
    QByteArray manifest;
    auto copy = [&](const QString &from, const QString &to) {
        QFile::remove(to);
        if (!QFile::copy(from, to)) {
            *error = tr("Cannot copy %1 to %2").arg(from, to);
            return false;
        }
        QFile::setPermissions(to, QFileInfo(from).permissions() | QFile::ReadOwner | QFile::WriteOwner);
        bundle->bytes += QFileInfo(to).size();
        manifest += sha256Of(to) + "  " + QDir(bundle->dir).relativeFilePath(to).toUtf8() + '\n';
        return true;
    };
    if (!copy(binary, dir.absoluteFilePath(QStringLiteral("bin/diamond-train")))) return false;
    for (const QString &lib : libs) {
        const QString name = QFileInfo(lib).fileName();
        if (isSystemLibrary(name)) continue;
        if (!copy(QFileInfo(lib).canonicalFilePath(), dir.absoluteFilePath(QStringLiteral("lib/") + name)))
            return false;
        bundle->libraries << name;
    }
    QFile launcher(bundle->launcher);
    if (!launcher.open(QIODevice::WriteOnly) || launcher.write(kLauncher) < 0) {
        *error = tr("Cannot write %1").arg(bundle->launcher);
        return false;
    }
    launcher.close();
    launcher.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                            QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
    QFile manifestFile(dir.absoluteFilePath(QStringLiteral("MANIFEST")));
    if (!manifestFile.open(QIODevice::WriteOnly) || manifestFile.write(manifest) != manifest.size()) {
        *error = tr("Cannot write the bundle manifest");
        return false;
    }
    return true;
}

bool createImageRootfs(const QString &binary, const QString &dirPath, const QString &enginePath, qint64 *bytes,
                       QString *error) {
    QStringList files = sharedLibraries(binary, error);
    if (files.isEmpty()) {
        if (error->isEmpty()) *error = tr("%1 is not a dynamically linked program").arg(binary);
        return false;
    }
    // The loader is the one ldd line without "=>": "/lib64/ld-linux-x86-64.so.2 (0x...)".
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {binary});
    ldd.waitForFinished(60000);
    static const QRegularExpression loader(QStringLiteral("^\\s*(/\\S+)\\s+\\(0x"));
    for (const QString &l : QString::fromLocal8Bit(ldd.readAllStandardOutput()).split(QLatin1Char('\n')))
        if (const auto m = loader.match(l); m.hasMatch()) files << m.captured(1);
    *bytes = 0;
    auto copy = [&](const QString &from, const QString &inImage) {
        const QString to = dirPath + inImage;
        QDir().mkpath(QFileInfo(to).absolutePath());
        QFile::remove(to);
        if (!QFile::copy(QFileInfo(from).canonicalFilePath(), to)) {
            *error = tr("Cannot copy %1 to %2").arg(from, to);
            return false;
        }
        QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                      QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        *bytes += QFileInfo(to).size();
        return true;
    };
    for (const QString &file : files)
        if (!copy(file, file)) return false;
    if (!copy(binary, enginePath)) return false;
    QDir(dirPath).mkpath(QStringLiteral("tmp"));
    return true;
}

bool packBundle(const QString &dirPath, const QString &tarball, QString *error) {
    const QFileInfo info(dirPath);
    QProcess tar;
    tar.start(QStringLiteral("tar"), {QStringLiteral("-czf"), QFileInfo(tarball).absoluteFilePath(),
                                      QStringLiteral("-C"), info.absolutePath(), info.fileName()});
    if (!tar.waitForStarted() || !tar.waitForFinished(600000) || tar.exitCode() != 0) {
        *error = tr("tar failed: %1").arg(QString::fromLocal8Bit(tar.readAllStandardError()).trimmed());
        return false;
    }
    return true;
}

} // namespace diamond::remote
