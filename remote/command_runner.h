// Running shell commands and moving files on a compute host, behind one interface so that schedulers
// (Slurm, PBS) and the cluster executor work the same over SSH and on this machine (tests, "none" profiles).
//
// Contract: every call blocks until done, fails or times out, so it must run on a worker thread, never the
// GUI thread. Implementations are not required to be thread-safe; use one per worker thread.
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

namespace diamond::remote {

struct CommandResult {
    int exitCode = -1;     ///< the command's exit status; -1 when it did not run to completion
    QByteArray stdoutData; ///< everything it wrote on stdout
    QByteArray stderrData; ///< everything it wrote on stderr
    QString error;         ///< why it could not run (connection lost, timeout); empty when it ran
    bool ok() const { return error.isEmpty() && exitCode == 0; }
};

/// Called with (bytes done, bytes total) during a transfer; returning false cancels it.
using TransferProgress = std::function<bool(qint64 done, qint64 total)>;

/// Supplies a command's stdin piece by piece, so that large inputs never sit in memory whole: fills *block with the
/// next bytes, an empty block at the end of the input; returning false stops the command (cancelled, or a local read
/// error the caller records itself).
using InputSource = std::function<bool(QByteArray *block)>;

/// The InputSource that gives `data` as one block.
InputSource inputOf(const QByteArray &data);

class CommandRunner {
public:
    virtual ~CommandRunner() = default;
    /// Runs `command` with /bin/sh on the host, feeding `input` on stdin. timeoutMs <= 0: no limit.
    virtual CommandResult run(const QString &command, const QByteArray &input = {}, int timeoutMs = 60000) = 0;
    /// Like run(), with stdin streamed from `input`. When `input` returns false the command is stopped and the
    /// result has an error.
    virtual CommandResult runStreaming(const QString &command, const InputSource &input, int timeoutMs = 0) = 0;
    /// Copies a local file to the host (parent folders must exist). A shorter remote file is taken as a partial
    /// transfer and continued from its size; callers verify the result by SHA-256. False with *error on failure.
    virtual bool upload(const QString &localPath, const QString &remotePath, QString *error,
                        const TransferProgress &progress = {}) = 0;
    /// Copies a file of the host to this machine, resuming a partial local file.
    virtual bool download(const QString &remotePath, const QString &localPath, QString *error,
                          const TransferProgress &progress = {}) = 0;
    /// Bytes of remotePath from `offset` on (at most maxBytes); empty with *error empty when there is nothing
    /// new, empty with *error set on failure. Used to follow a remote events.jsonl by byte offset.
    virtual QByteArray readFrom(const QString &remotePath, qint64 offset, qint64 maxBytes, QString *error) = 0;
    /// Human-readable target, e.g. "alice@cluster:22" or "this computer".
    virtual QString describe() const = 0;
};

/// Runs commands on this machine (QProcess, /bin/sh -c); files are copied locally.
class LocalCommandRunner : public CommandRunner {
public:
    CommandResult run(const QString &command, const QByteArray &input = {}, int timeoutMs = 60000) override;
    CommandResult runStreaming(const QString &command, const InputSource &input, int timeoutMs = 0) override;
    bool upload(const QString &localPath, const QString &remotePath, QString *error,
                const TransferProgress &progress = {}) override;
    bool download(const QString &remotePath, const QString &localPath, QString *error,
                  const TransferProgress &progress = {}) override;
    QByteArray readFrom(const QString &remotePath, qint64 offset, qint64 maxBytes, QString *error) override;
    QString describe() const override;
};

} // namespace diamond::remote
