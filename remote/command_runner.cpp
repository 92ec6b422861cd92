#include "remote/command_runner.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace diamond::remote {

namespace {

/// Appends src[from..] to dst (opened for append), reporting progress; false on error or cancel.
bool copyFrom(QFile &src, QFile &dst, qint64 from, const TransferProgress &progress, QString *error) {
    const qint64 total = src.size();
    if (!src.seek(from)) {
        *error = QCoreApplication::translate("diamond::remote", "Cannot seek in %1").arg(src.fileName());
        return false;
    }
    qint64 done = from;
    QByteArray buffer;
    while (!src.atEnd()) {
        buffer = src.read(1 << 20);
        if (buffer.isEmpty() && src.error() != QFile::NoError) break;
        if (dst.write(buffer) != buffer.size()) {
            *error = QCoreApplication::translate("diamond::remote", "Cannot write %1: %2")
                         .arg(dst.fileName(), dst.errorString());
            return false;
        }
        done += buffer.size();
        if (progress && !progress(done, total)) {
            *error = QCoreApplication::translate("diamond::remote", "Transfer cancelled");
            return false;
        }
    }
    if (src.error() != QFile::NoError) {
        *error =
            QCoreApplication::translate("diamond::remote", "Cannot read %1: %2").arg(src.fileName(), src.errorString());
        return false;
    }
    return true;
}

bool copyResuming(const QString &from, const QString &to, QString *error, const TransferProgress &progress) {
    QFile src(from);
    if (!src.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("diamond::remote", "Cannot open %1: %2").arg(from, src.errorString());
        return false;
    }
    QFile dst(to);
    qint64 offset = QFileInfo(to).exists() ? QFileInfo(to).size() : 0;
    if (offset > src.size()) offset = 0;
    if (!dst.open(offset > 0 ? QIODevice::Append : (QIODevice::WriteOnly | QIODevice::Truncate))) {
        *error = QCoreApplication::translate("diamond::remote", "Cannot open %1: %2").arg(to, dst.errorString());
        return false;
    }
    return copyFrom(src, dst, offset, progress, error);
}

} // namespace

InputSource inputOf(const QByteArray &data) {
    return [data, given = false](QByteArray *block) mutable {
        if (!given) *block = data;
        given = true;
        return true;
    };
}

CommandResult LocalCommandRunner::run(const QString &command, const QByteArray &input, int timeoutMs) {
    return runStreaming(command, inputOf(input), timeoutMs);
}

CommandResult LocalCommandRunner::runStreaming(const QString &command, const InputSource &input, int timeoutMs) {
    CommandResult result;
    QProcess process;
    process.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    if (!process.waitForStarted()) {
        result.error = process.errorString();
        return result;
    }
    QElapsedTimer timer;
    timer.start();
    auto timedOut = [&] { return timeoutMs > 0 && timer.elapsed() > timeoutMs; };
    for (QByteArray block;;) {
        block.clear();
        if (!input(&block)) {
            result.error = QCoreApplication::translate("diamond::remote", "The input of the command was stopped");
            break;
        }
        if (block.isEmpty()) break;
        process.write(block);
        // At most a few blocks wait in the pipe buffer.
        while (process.bytesToWrite() > (qint64(16) << 20) && process.state() == QProcess::Running && !timedOut())
            process.waitForBytesWritten(100);
        if (process.state() != QProcess::Running) break;
        if (timedOut()) {
            result.error =
                QCoreApplication::translate("diamond::remote", "Command timed out after %1 ms").arg(timeoutMs);
            break;
        }
    }
    if (!result.error.isEmpty()) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    process.closeWriteChannel();
    const int left = timeoutMs > 0 ? int(qMax<qint64>(1, timeoutMs - timer.elapsed())) : -1;
    if (!process.waitForFinished(left)) {
        process.kill();
        process.waitForFinished();
        result.error = QCoreApplication::translate("diamond::remote", "Command timed out after %1 ms").arg(timeoutMs);
    }
    result.stdoutData = process.readAllStandardOutput();
    result.stderrData = process.readAllStandardError();
    if (result.error.isEmpty() && process.exitStatus() == QProcess::NormalExit)
        result.exitCode = process.exitCode();
    else if (result.error.isEmpty())
        result.error = QCoreApplication::translate("diamond::remote", "Command crashed");
    return result;
}

bool LocalCommandRunner::upload(const QString &localPath, const QString &remotePath, QString *error,
                                const TransferProgress &progress) {
    return copyResuming(localPath, remotePath, error, progress);
}

bool LocalCommandRunner::download(const QString &remotePath, const QString &localPath, QString *error,
                                  const TransferProgress &progress) {
    return copyResuming(remotePath, localPath, error, progress);
}

QByteArray LocalCommandRunner::readFrom(const QString &remotePath, qint64 offset, qint64 maxBytes, QString *error) {
    error->clear();
    QFile file(remotePath);
    if (!file.exists()) return {};
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset)) {
        *error =
            QCoreApplication::translate("diamond::remote", "Cannot read %1: %2").arg(remotePath, file.errorString());
        return {};
    }
    return file.read(maxBytes);
}

QString LocalCommandRunner::describe() const { return QCoreApplication::translate("diamond::remote", "this computer"); }

} // namespace diamond::remote
