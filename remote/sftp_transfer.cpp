#include "remote/sftp_transfer.h"

#include "remote/ssh_session.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <fcntl.h>
#include <openssl/evp.h>

#include <deque>
#include <memory>

namespace diamond::remote {

namespace {

// OpenSSH's sftp-server drops the connection on a 256 KiB write, and 256 KiB async reads corrupted files
// (libssh 0.10 notes): stay below.
constexpr qint64 kWriteChunk = 255 * 1024;
constexpr uint32_t kReadChunk = 64 * 1024;
constexpr int kReadsInFlight = 32;

struct SftpFileCloser {
    void operator()(sftp_file_struct *f) const {
        if (f) sftp_close(f);
    }
};
using SftpFilePtr = std::unique_ptr<sftp_file_struct, SftpFileCloser>;

QString sftpErrorText(sftp_session sftp, SshSession &session) {
    const int code = sftp ? sftp_get_error(sftp) : -1;
    QString what;
    switch (code) {
    case SSH_FX_NO_SUCH_FILE: what = QStringLiteral("no such file"); break;
    case SSH_FX_PERMISSION_DENIED: what = QStringLiteral("permission denied"); break;
    case SSH_FX_NO_SUCH_PATH: what = QStringLiteral("no such folder"); break;
    case SSH_FX_FILE_ALREADY_EXISTS: what = QStringLiteral("file exists"); break;
    case SSH_FX_WRITE_PROTECT: what = QStringLiteral("read-only file system"); break;
    case SSH_FX_NO_MEDIA: what = QStringLiteral("no media"); break;
    default: what = session.libsshError(); break;
    }
    // The SFTP session stays until the next disconnect()/reconnect(): open files of it are still to be closed.
    session.markDisconnected();
    if (!session.isConnected()) return QStringLiteral("connection lost: %1").arg(session.libsshError());
    return what;
}

/// Incremental SHA-256 (OpenSSL: several times faster than QCryptographicHash, which matters at 100+ MB/s).
class Sha256 {
public:
    Sha256() : m_ctx(EVP_MD_CTX_new()) { reset(); }
    ~Sha256() { EVP_MD_CTX_free(m_ctx); }
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;
    void reset() { EVP_DigestInit_ex(m_ctx, EVP_sha256(), nullptr); }
    void add(const char *data, qint64 n) { EVP_DigestUpdate(m_ctx, data, size_t(n)); }
    /// Hex digest of what was added so far; the state stays usable (a copy is finalised).
    QByteArray hex() const {
        EVP_MD_CTX *copy = EVP_MD_CTX_new();
        EVP_MD_CTX_copy_ex(copy, m_ctx);
        unsigned char digest[EVP_MAX_MD_SIZE];
        unsigned int length = 0;
        EVP_DigestFinal_ex(copy, digest, &length);
        EVP_MD_CTX_free(copy);
        return QByteArray(reinterpret_cast<const char *>(digest), int(length)).toHex();
    }

private:
    EVP_MD_CTX *m_ctx;
};

/// Adds the first `length` bytes of an open file (from its current position) to `hash`.
bool hashFile(QFile &f, qint64 length, Sha256 &hash, QString *error) {
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qint64 left = length;
    while (left != 0) {
        const qint64 n = f.read(buffer.data(), left < 0 ? buffer.size() : qMin<qint64>(buffer.size(), left));
        if (n < 0) {
            *error = QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString());
            return false;
        }
        if (n == 0) break;
        hash.add(buffer.constData(), n);
        if (left > 0) left -= n;
    }
    return true;
}

/// `sha256sum` of a remote file (or its first `length` bytes) running on its own channel while the caller
/// does other work on the session (hashing locally, transferring).
class RemoteHash {
public:
    bool start(SshSession &session, const QString &path, qint64 length, QString *error) {
        m_path = path;
        const QString quoted = shellQuote(path);
        const QString command = length < 0 ? QStringLiteral("sha256sum < %1").arg(quoted)
                                           : QStringLiteral("head -c %1 < %2 | sha256sum").arg(length).arg(quoted);
        m_channel = session.openExec(command, error);
        if (m_channel) m_channel->sendEof();
        return bool(m_channel);
    }
    /// Waits for the hex digest; empty with *error on failure.
    QByteArray result(QString *error) {
        if (!m_channel) return {};
        QByteArray out, err;
        while (!m_channel->atEnd())
            if (!m_channel->read(&out, &err, 200, error)) return {};
        m_channel->read(&out, &err, 0, error);
        const int status = m_channel->exitStatus();
        m_channel.reset();
        if (status != 0 || out.size() < 64) {
            *error = QStringLiteral("sha256sum of %1 on the host failed: %2")
                         .arg(m_path, QString::fromLocal8Bit(err.trimmed().isEmpty() ? out : err.trimmed()));
            return {};
        }
        return out.left(64);
    }

private:
    QString m_path;
    std::unique_ptr<SshChannel> m_channel;
};

} // namespace

QByteArray SftpTransfer::localSha256(const QString &path, qint64 length, QString *error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return {};
    }
    Sha256 hash;
    if (!hashFile(f, length, hash, error)) return {};
    return hash.hex();
}

QByteArray SftpTransfer::remoteSha256(const QString &remotePath, qint64 length, QString *error) {
    RemoteHash remote;
    if (!remote.start(m_session, remotePath, length, error)) return {};
    return remote.result(error);
}

qint64 SftpTransfer::remoteSize(const QString &remotePath, QString *error) {
    sftp_session sftp = m_session.sftp(error);
    if (!sftp) return -2;
    sftp_attributes attributes = sftp_stat(sftp, remotePath.toUtf8().constData());
    if (!attributes) {
        if (sftp_get_error(sftp) == SSH_FX_NO_SUCH_FILE) return -1;
        *error = QStringLiteral("cannot stat %1 on the host: %2").arg(remotePath, sftpErrorText(sftp, m_session));
        return -2;
    }
    const qint64 size = qint64(attributes->size);
    sftp_attributes_free(attributes);
    return size;
}

bool SftpTransfer::upload(const QString &localPath, const QString &remotePath, const TransferProgress &progress,
                          TransferStats *stats, QString *error) {
    TransferStats s;
    QFile local(localPath);
    if (!local.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(localPath, local.errorString());
        return false;
    }
    s.totalBytes = local.size();
    const qint64 remote = remoteSize(remotePath, error);
    if (remote == -2) return false;

    // `hash` always covers local bytes [0, position of `local`).
    Sha256 hash;
    qint64 start = 0;
    if (remote >= 0 && remote <= s.totalBytes) {
        // The host hashes its part while we hash ours.
        RemoteHash theirs;
        if (!theirs.start(m_session, remotePath, remote == s.totalBytes ? -1 : remote, error)) return false;
        if (!hashFile(local, remote, hash, error)) return false;
        const QByteArray theirHex = theirs.result(error);
        if (theirHex.isEmpty()) return false;
        if (theirHex == hash.hex()) {
            if (remote == s.totalBytes) {
                s.skipped = true;
                s.sha256 = theirHex;
                if (stats) *stats = s;
                if (progress) progress(s.totalBytes, s.totalBytes);
                return true;
            }
            start = remote;
        } else {
            hash.reset();
            local.seek(0);
        }
    }
    s.resumedFrom = start;

    sftp_session sftp = m_session.sftp(error);
    if (!sftp) return false;
    const int flags = O_WRONLY | O_CREAT | (start == 0 ? O_TRUNC : 0);
    SftpFilePtr file(sftp_open(sftp, remotePath.toUtf8().constData(), flags, 0644));
    if (!file) {
        *error = QStringLiteral("cannot open %1 on the host for writing: %2")
                     .arg(remotePath, sftpErrorText(sftp, m_session));
        return false;
    }
    if (start > 0 && sftp_seek64(file.get(), quint64(start)) != 0) {
        *error = QStringLiteral("cannot continue %1 at byte %2").arg(remotePath).arg(start);
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    qint64 done = start;
    auto cancelled = [&] {
        *error = QStringLiteral("upload of %1 cancelled at byte %2 of %3").arg(localPath).arg(done).arg(s.totalBytes);
        return false;
    };
    if (progress && !progress(done, s.totalBytes)) return cancelled();
    QByteArray buffer(int(kWriteChunk), Qt::Uninitialized);
    while (done < s.totalBytes) {
        if (m_session.isCancelled()) return cancelled();
        const qint64 n = local.read(buffer.data(), qMin(kWriteChunk, s.totalBytes - done));
        if (n <= 0) {
            *error = QStringLiteral("cannot read %1: %2").arg(localPath, local.errorString());
            return false;
        }
        const ssize_t written = sftp_write(file.get(), buffer.constData(), size_t(n));
        if (written != n) {
            *error = QStringLiteral("writing %1 on the host failed at byte %2: %3")
                         .arg(remotePath)
                         .arg(done)
                         .arg(sftpErrorText(sftp, m_session));
            return false;
        }
        hash.add(buffer.constData(), n);
        done += n;
        s.transferredBytes += n;
        if (progress && !progress(done, s.totalBytes)) return cancelled();
    }
    if (sftp_close(file.release()) != SSH_NO_ERROR) {
        *error = QStringLiteral("closing %1 on the host failed: %2").arg(remotePath, sftpErrorText(sftp, m_session));
        return false;
    }
    s.seconds = double(timer.nsecsElapsed()) / 1e9;
    const QByteArray ours = hash.hex();
    const QByteArray theirs = remoteSha256(remotePath, -1, error);
    if (theirs.isEmpty()) return false;
    if (theirs != ours) {
        *error = QStringLiteral("SHA-256 of %1 on the host (%2) differs from %3 (%4) after the upload")
                     .arg(remotePath, QString::fromLatin1(theirs), localPath, QString::fromLatin1(ours));
        return false;
    }
    s.sha256 = ours;
    if (stats) *stats = s;
    return true;
}

bool SftpTransfer::download(const QString &remotePath, const QString &localPath, const TransferProgress &progress,
                            TransferStats *stats, QString *error) {
    TransferStats s;
    const qint64 size = remoteSize(remotePath, error);
    if (size == -2) return false;
    if (size == -1) {
        *error = QStringLiteral("%1 does not exist on the host").arg(remotePath);
        return false;
    }
    s.totalBytes = size;
    // The host hashes the whole file on its own channel during the download; collected at the end.
    RemoteHash remoteFull;
    if (!remoteFull.start(m_session, remotePath, -1, error)) return false;
    const QFileInfo info(localPath);
    const qint64 have = info.exists() ? info.size() : -1;
    Sha256 hash; // covers local bytes [0, start)
    qint64 start = 0;
    if (have > 0 && have <= size) {
        QFile existing(localPath);
        if (!existing.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read %1: %2").arg(localPath, existing.errorString());
            return false;
        }
        RemoteHash prefix;
        if (have < size && !prefix.start(m_session, remotePath, have, error)) return false;
        if (!hashFile(existing, have, hash, error)) return false;
        const QByteArray theirs = have == size ? remoteFull.result(error) : prefix.result(error);
        if (theirs.isEmpty()) return false;
        if (theirs == hash.hex()) {
            if (have == size) {
                s.skipped = true;
                s.sha256 = theirs;
                if (stats) *stats = s;
                if (progress) progress(size, size);
                return true;
            }
            start = have;
        } else {
            hash.reset();
        }
        if (have == size && !remoteFull.start(m_session, remotePath, -1, error)) return false; // consumed above
    }
    s.resumedFrom = start;
    QFile local(localPath);
    if (!local.open(start > 0 ? (QIODevice::ReadWrite) : (QIODevice::WriteOnly | QIODevice::Truncate)) ||
        !local.seek(start)) {
        *error = QStringLiteral("cannot write %1: %2").arg(localPath, local.errorString());
        return false;
    }
    if (start == 0) local.resize(0);
    sftp_session sftp = m_session.sftp(error);
    if (!sftp) return false;
    SftpFilePtr file(sftp_open(sftp, remotePath.toUtf8().constData(), O_RDONLY, 0));
    if (!file) {
        *error = QStringLiteral("cannot open %1 on the host: %2").arg(remotePath, sftpErrorText(sftp, m_session));
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    qint64 done = start;
    QByteArray buffer(int(kReadChunk), Qt::Uninitialized);
    struct Request {
        uint32_t id;
        qint64 offset;
        uint32_t length;
    };
    std::deque<Request> inFlight;
    qint64 next = start; // offset of the next request
    bool ok = true;
    while (done < size) {
        // Keep the pipeline full; each request starts at an explicit offset.
        while (int(inFlight.size()) < kReadsInFlight && next < size) {
            const uint32_t length = uint32_t(qMin<qint64>(kReadChunk, size - next));
            sftp_seek64(file.get(), quint64(next));
            const int id = sftp_async_read_begin(file.get(), length);
            if (id < 0) {
                *error =
                    QStringLiteral("reading %1 on the host failed: %2").arg(remotePath, sftpErrorText(sftp, m_session));
                return false;
            }
            inFlight.push_back(Request{uint32_t(id), next, length});
            next += length;
        }
        const Request r = inFlight.front();
        inFlight.pop_front();
        const int n = sftp_async_read(file.get(), buffer.data(), r.length, r.id);
        if (n < 0) {
            *error = QStringLiteral("reading %1 on the host failed at byte %2: %3")
                         .arg(remotePath)
                         .arg(r.offset)
                         .arg(sftpErrorText(sftp, m_session));
            ok = false;
            break;
        }
        if (n == 0) {
            *error = QStringLiteral("%1 on the host shrank to %2 bytes during the download").arg(remotePath).arg(done);
            ok = false;
            break;
        }
        if (local.write(buffer.constData(), n) != n) {
            *error = QStringLiteral("cannot write %1: %2").arg(localPath, local.errorString());
            ok = false;
            break;
        }
        hash.add(buffer.constData(), n);
        done += n;
        s.transferredBytes += n;
        if (uint32_t(n) < r.length) {
            // Short read: drop the requests behind it and ask again from where it stopped.
            for (const Request &rest : inFlight)
                sftp_async_read(file.get(), buffer.data(), rest.length, rest.id);
            inFlight.clear();
            next = done;
        }
        if (m_session.isCancelled() || (progress && !progress(done, size))) {
            *error = QStringLiteral("download of %1 cancelled at byte %2 of %3").arg(remotePath).arg(done).arg(size);
            ok = false;
            break;
        }
    }
    if (!ok) {
        // Collect the answers still on their way, so the SFTP channel stays usable for the next call.
        if (m_session.isConnected())
            for (const Request &rest : inFlight)
                sftp_async_read(file.get(), buffer.data(), rest.length, rest.id);
        local.close();
        return false;
    }
    if (!local.flush()) {
        *error = QStringLiteral("cannot write %1: %2").arg(localPath, local.errorString());
        return false;
    }
    local.close();
    s.seconds = double(timer.nsecsElapsed()) / 1e9;
    const QByteArray ours = hash.hex();
    const QByteArray theirs = remoteFull.result(error);
    if (theirs.isEmpty()) return false;
    if (ours != theirs) {
        *error = QStringLiteral("SHA-256 of %1 (%2) differs from %3 on the host (%4) after the download")
                     .arg(localPath, QString::fromLatin1(ours), remotePath, QString::fromLatin1(theirs));
        return false;
    }
    s.sha256 = ours;
    if (stats) *stats = s;
    return true;
}

QByteArray SftpTransfer::readFrom(const QString &remotePath, qint64 offset, qint64 maxBytes, QString *error) {
    error->clear();
    sftp_session sftp = m_session.sftp(error);
    if (!sftp) return {};
    SftpFilePtr file(sftp_open(sftp, remotePath.toUtf8().constData(), O_RDONLY, 0));
    if (!file) {
        if (sftp_get_error(sftp) == SSH_FX_NO_SUCH_FILE) return {};
        *error = QStringLiteral("cannot open %1 on the host: %2").arg(remotePath, sftpErrorText(sftp, m_session));
        return {};
    }
    if (sftp_seek64(file.get(), quint64(offset)) != 0) {
        *error = QStringLiteral("cannot seek %1 to byte %2").arg(remotePath).arg(offset);
        return {};
    }
    QByteArray out;
    QByteArray buffer(int(kWriteChunk), Qt::Uninitialized);
    while (out.size() < maxBytes) {
        const ssize_t n =
            sftp_read(file.get(), buffer.data(), size_t(qMin<qint64>(buffer.size(), maxBytes - out.size())));
        if (n < 0) {
            *error =
                QStringLiteral("reading %1 on the host failed: %2").arg(remotePath, sftpErrorText(sftp, m_session));
            return {};
        }
        if (n == 0) break;
        out.append(buffer.constData(), n);
    }
    return out;
}

} // namespace diamond::remote
