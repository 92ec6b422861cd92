#include "remote/known_hosts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <libssh/libssh.h>

namespace diamond::remote {

namespace {

QString knownHostsPathOf(ssh_session session) {
    char *path = nullptr;
    if (ssh_options_get(session, SSH_OPTIONS_KNOWNHOSTS, &path) != SSH_OK || !path) return {};
    const QString out = QString::fromLocal8Bit(path);
    ssh_string_free_char(path);
    return out;
}

} // namespace

HostKeyCheck checkHostKey(ssh_session_struct *session, const QString &hostLabel) {
    HostKeyCheck check;
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session, &key) != SSH_OK || !key) {
        check.message =
            QStringLiteral("%1 sent no host key: %2").arg(hostLabel, QString::fromLocal8Bit(ssh_get_error(session)));
        return check;
    }
    check.keyType = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    unsigned char *hash = nullptr;
    size_t hashLength = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLength) == SSH_OK) {
        char *text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLength);
        if (text) check.fingerprint = QString::fromLatin1(text);
        ssh_string_free_char(text);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(key);
    const QString file = knownHostsPathOf(session);
    switch (ssh_session_is_known_server(session)) {
    case SSH_KNOWN_HOSTS_OK: check.state = HostKeyState::Known; break;
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN: check.state = HostKeyState::Unknown; break;
    case SSH_KNOWN_HOSTS_CHANGED:
        check.state = HostKeyState::Changed;
        check.message =
            QStringLiteral("WARNING: the host key of %1 has CHANGED (now %2 %3), it differs from the one recorded in "
                           "%4. Someone could be intercepting the connection, or the host was reinstalled. The "
                           "connection was refused; if the change is expected, remove the old entry from %4.")
                .arg(hostLabel, check.keyType, check.fingerprint, file);
        break;
    case SSH_KNOWN_HOSTS_OTHER:
        check.state = HostKeyState::Changed;
        check.message =
            QStringLiteral("WARNING: %1 offered a %2 host key (%3) but %4 records a key of another type for it. The "
                           "connection was refused; if the change is expected, remove the old entry from %4.")
                .arg(hostLabel, check.keyType, check.fingerprint, file);
        break;
    case SSH_KNOWN_HOSTS_ERROR:
    default:
        check.state = HostKeyState::Error;
        check.message = QStringLiteral("cannot check the host key of %1 against %2: %3")
                            .arg(hostLabel, file, QString::fromLocal8Bit(ssh_get_error(session)));
        break;
    }
    return check;
}

bool addHostKey(ssh_session_struct *session, const QString &hostLabel, QString *error) {
    const HostKeyCheck check = checkHostKey(session, hostLabel);
    if (check.state != HostKeyState::Unknown) {
        *error = check.state == HostKeyState::Known
                     ? QString()
                     : QStringLiteral("refusing to record the host key of %1: %2").arg(hostLabel, check.message);
        return check.state == HostKeyState::Known;
    }
    const QString file = knownHostsPathOf(session);
    if (file.isEmpty()) {
        *error = QStringLiteral("no known_hosts file is set for %1").arg(hostLabel);
        return false;
    }
    const QFileInfo info(file);
    if (!QDir().mkpath(info.absolutePath())) {
        *error = QStringLiteral("cannot create folder %1").arg(info.absolutePath());
        return false;
    }
    const bool existed = info.exists();
    if (ssh_session_update_known_hosts(session) != SSH_OK) {
        *error = QStringLiteral("cannot write %1: %2").arg(file, QString::fromLocal8Bit(ssh_get_error(session)));
        return false;
    }
    if (!existed) QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

} // namespace diamond::remote
