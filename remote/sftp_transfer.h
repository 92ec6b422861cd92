// SFTP file transfers over an SshSession: upload and download with progress, resume of a partial transfer,
// SHA-256 verification and skipping of files whose content already matches.
//
// Resume contract: when the destination is shorter than the source, the shorter part is kept only if its
// SHA-256 equals that of the source's same-length prefix (hashed on both sides: `head -c N | sha256sum` on the
// host); otherwise the transfer starts again from byte 0. A destination of the same size with the same SHA-256
// is left alone (TransferStats::skipped). Every completed transfer is verified by comparing the whole file's
// SHA-256 on both sides (`sha256sum` on the host). A transfer cancelled through its progress callback or
// SshSession::cancel() keeps its partial destination, so the next call continues from it.
// Remote paths are absolute or relative to the login folder ("~" is not expanded). Blocking; session's thread.
#pragma once

#include "remote/command_runner.h"

#include <QByteArray>
#include <QString>

namespace diamond::remote {

class SshSession;

struct TransferStats {
    qint64 totalBytes = 0;       ///< size of the file
    qint64 transferredBytes = 0; ///< bytes sent or received by this call
    qint64 resumedFrom = 0;      ///< offset this call continued from (0: from the start)
    bool skipped = false;        ///< the destination already held the same content
    QByteArray sha256;           ///< hex SHA-256 of the whole file (both sides agree) once it succeeded
    double seconds = 0;          ///< time spent moving bytes (not hashing)
    double bytesPerSecond() const { return seconds > 0 ? double(transferredBytes) / seconds : 0; }
};

class SftpTransfer {
public:
    explicit SftpTransfer(SshSession &session) : m_session(session) {}

    bool upload(const QString &localPath, const QString &remotePath, const TransferProgress &progress,
                TransferStats *stats, QString *error);
    bool download(const QString &remotePath, const QString &localPath, const TransferProgress &progress,
                  TransferStats *stats, QString *error);
    /// Up to maxBytes of remotePath from offset on; empty without error when the file is missing or has nothing
    /// past offset.
    QByteArray readFrom(const QString &remotePath, qint64 offset, qint64 maxBytes, QString *error);

    /// Hex SHA-256 of the first `length` bytes (length < 0: all) of a file on the host; empty with *error when
    /// it cannot be read.
    QByteArray remoteSha256(const QString &remotePath, qint64 length, QString *error);
    /// The same for a local file.
    static QByteArray localSha256(const QString &path, qint64 length, QString *error);
    /// Size of a remote file; -1 when it does not exist, -2 (with *error) on failure.
    qint64 remoteSize(const QString &remotePath, QString *error);

private:
    SshSession &m_session;
};

} // namespace diamond::remote
