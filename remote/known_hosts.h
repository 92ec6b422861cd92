// Strict known_hosts policy for SSH sessions (OpenSSH's StrictHostKeyChecking=ask): a known key passes; an
// unknown host is reported with its SHA-256 fingerprint (the text `ssh-keygen -lf` prints, "SHA256:...") and
// is accepted only when the user says yes, which appends it to the session's known_hosts file; a key that
// differs from the recorded one (changed, or recorded with another key type) is refused with a warning and
// never accepted or overwritten.
#pragma once

#include <QString>

struct ssh_session_struct;

namespace diamond::remote {

enum class HostKeyState {
    Known,   ///< matches known_hosts
    Unknown, ///< not in known_hosts (or no known_hosts file yet): ask the user
    Changed, ///< known_hosts holds a different key for this host: refuse
    Error    ///< no host key could be obtained or the file could not be read
};

struct HostKeyCheck {
    HostKeyState state = HostKeyState::Error;
    QString keyType;     ///< e.g. "ssh-ed25519"
    QString fingerprint; ///< "SHA256:<base64 without padding>", as `ssh-keygen -lf` prints
    QString message;     ///< for Changed and Error: what to tell the user
};

/// Checks the server key of a connected (not yet authenticated) libssh session against the known_hosts file
/// set on it (SSH_OPTIONS_KNOWNHOSTS). `hostLabel` ("host:port") names the host in messages.
HostKeyCheck checkHostKey(ssh_session_struct *session, const QString &hostLabel);

/// Appends the session's current server key to its known_hosts file (creating folder and file, mode 0600).
/// Only for an Unknown host the user accepted; refuses (false, *error) when the host's state is not Unknown.
bool addHostKey(ssh_session_struct *session, const QString &hostLabel, QString *error);

} // namespace diamond::remote
