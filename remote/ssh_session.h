// SshSession: one SSH connection (libssh 0.10), blocking, meant to live on one worker thread.
//
// Contract: every call except cancel()/abort() comes from the same thread and blocks until done, failed,
// cancelled or timed out. Several channels (exec, streaming, SFTP) share the one connection. Prompts (unknown
// host key, passphrase, password, keyboard-interactive questions) go to an SshPrompter, which may block the
// worker until the user answers; secrets that worked are kept in a CredentialStore (memory unless the caller
// gives another) so reconnect() needs no second prompt, except for keyboard-interactive answers other than the account
// password (one-time codes: isAccountPasswordPrompt()).
#pragma once

#include "remote/command_runner.h"
#include "remote/ssh_config.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

struct ssh_session_struct;
struct ssh_channel_struct;
struct sftp_session_struct;

namespace diamond::remote {

class CredentialStore;

struct SshConnectOptions {
    QString host; ///< name or address to connect to
    int port = 22;
    QString user;                         ///< remote user (required)
    QStringList identityFiles;            ///< private keys to offer, in order
    bool identitiesOnly = false;          ///< true: do not offer the agent's keys, only identityFiles
    bool useAgent = true;                 ///< try ssh-agent keys
    QString agentSocket;                  ///< ssh-agent socket; empty: $SSH_AUTH_SOCK
    bool allowPassword = true;            ///< password authentication (prompted)
    bool allowKeyboardInteractive = true; ///< keyboard-interactive (MFA prompts, shown as they come)
    QString knownHostsPath;               ///< known_hosts to check and append to (required)
    QString proxyJump;                    ///< "[user@]host[:port]": reach host through this jump host (OpenSSH -W)
    QStringList proxyJumpSshOptions;      ///< extra OpenSSH client options for the jump ("-i", key, "-o", ...)
    int connectTimeoutMs = 15000;
    int keepaliveIntervalSec = 30; ///< TCP keepalive idle time and SshSession::sendKeepalive() period

    /// Options for `alias` from an OpenSSH config (HostName, User, Port, IdentityFile (default: ~/.ssh/id_ed25519,
    /// id_ecdsa, id_rsa), IdentitiesOnly, ProxyJump, ServerAliveInterval, UserKnownHostsFile, else
    /// `defaultKnownHosts`).
    static SshConnectOptions fromConfig(const SshHostConfig &config, const QString &defaultKnownHosts);
    /// "user@host:port"
    QString label() const;
};

struct SshPrompt {
    QString text;
    bool echo = false; ///< the answer may be shown while typed
};

/// Questions the session asks while connecting. Called on the session's thread; an implementation may block
/// until the user answers. std::nullopt / false = the user declined or cancelled.
class SshPrompter {
public:
    virtual ~SshPrompter() = default;
    virtual bool acceptUnknownHostKey(const QString &hostLabel, const QString &keyType, const QString &fingerprint) = 0;
    virtual std::optional<QString> passphrase(const QString &keyPath, bool retry) = 0;
    virtual std::optional<QString> password(const QString &userAtHost, bool retry) = 0;
    virtual std::optional<QStringList> interactive(const QString &name, const QString &instruction,
                                                   const QList<SshPrompt> &prompts) = 0;
};

class SshSession;

/// A command running on its own channel of a session, read as it produces output (e.g. `tail -F`). A channel
/// outliving its connection (disconnect, reconnect) only reports errors; it never touches the new connection.
class SshChannel {
public:
    ~SshChannel();
    /// Feeds the command's stdin; gives up after timeoutMs (<= 0: no limit). Output that arrives meanwhile is kept
    /// for read(). When the command ends before taking all of `data`, the rest is dropped, inputRefused() turns
    /// true and write() returns true: the exit status tells what happened.
    bool write(const QByteArray &data, QString *error, int timeoutMs = 0);
    bool inputRefused() const { return m_inputRefused; }
    void sendEof();
    /// Waits up to timeoutMs for output and appends what arrived. False on a transport error or cancel.
    bool read(QByteArray *out, QByteArray *err, int timeoutMs, QString *error);
    bool atEnd() const; ///< the command closed its output
    /// Exit status once atEnd(); -1 when unknown.
    int exitStatus();
    /// Sends a signal ("TERM", "KILL", ...) to the command (OpenSSH honours it).
    void signal(const char *name);
    void close();

private:
    friend class SshSession;
    SshChannel(SshSession *session, ssh_channel_struct *channel, int generation)
        : m_session(session), m_channel(channel), m_generation(generation) {}
    /// The channel still belongs to the session's current connection (libssh frees channels with the session).
    bool valid() const;
    /// Moves what libssh holds of both output streams into out/err; libssh processes incoming packets (window
    /// adjustments too) only while its buffer of the polled stream is empty. False on a transport error.
    bool drainOutput(QByteArray *out, QByteArray *err, bool *got, QString *error);
    SshSession *m_session;
    QByteArray m_pendingOut; ///< output that arrived while write() waited for window
    QByteArray m_pendingErr;
    bool m_inputRefused = false;
    ssh_channel_struct *m_channel;
    int m_generation;
};

class SshSession {
public:
    SshSession(const SshConnectOptions &options, SshPrompter *prompter = nullptr,
               CredentialStore *credentials = nullptr);
    ~SshSession();
    SshSession(const SshSession &) = delete;
    SshSession &operator=(const SshSession &) = delete;

    const SshConnectOptions &options() const { return m_options; }
    /// Connects, checks the host key and authenticates. False with *error (the host key warning, the
    /// authentication methods tried, ...).
    bool connect(QString *error);
    void disconnect();
    /// Connected and authenticated, as far as the last operation saw.
    bool isConnected() const;
    /// disconnect() then connect() with the secrets that worked before.
    bool reconnect(QString *error);
    /// Why the last connect() failed. Only Network failures are worth retrying without the user.
    enum class Failure { None, Configuration, Network, HostKey, Authentication, Cancelled };
    Failure lastFailure() const { return m_failure; }
    /// The server key's fingerprint ("SHA256:...") seen at the last connect.
    QString hostKeyFingerprint() const { return m_fingerprint; }
    /// Authentication method that succeeded: "publickey", "agent", "password", "keyboard-interactive".
    QString authMethod() const { return m_authMethod; }

    /// Runs `command` on a new channel, feeding `input`; captures exit code and both outputs. timeoutMs <= 0:
    /// no limit. CommandResult::error tells a transport failure, a timeout or a cancel from a command's failure.
    CommandResult exec(const QString &command, const QByteArray &input = {}, int timeoutMs = 60000);
    /// exec() with stdin streamed from `input` (see InputSource); the input is asked for its first block only once
    /// the channel is open, so a command that never started consumed nothing.
    CommandResult execStreaming(const QString &command, const InputSource &input, int timeoutMs);
    /// Starts `command` on a new channel and returns at once (nullptr with *error on failure).
    std::unique_ptr<SshChannel> openExec(const QString &command, QString *error);
    /// Sends an SSH ignore message; false when the connection is gone.
    bool sendKeepalive(QString *error);

    /// Thread-safe: makes the running and following operations stop with "cancelled" until resetCancel().
    void cancel();
    /// Thread-safe: cancel() and shut the socket down, so that even a blocked SFTP call returns. The session
    /// must reconnect afterwards.
    void abort();
    void resetCancel();
    bool isCancelled() const { return m_cancel.load(); }

    /// The SFTP channel of this connection, opened on first use (nullptr with *error on failure).
    sftp_session_struct *sftp(QString *error);
    /// Forgets a broken SFTP channel (after a transfer error) so the next sftp() opens a new one.
    void resetSftp();
    ssh_session_struct *handle() const { return m_session; }
    /// The last libssh error text of this session.
    QString libsshError() const;
    /// Marks the connection as lost (after a transport error seen by a caller).
    void markDisconnected();

private:
    friend class SshChannel;
    bool authenticate(QString *error);
    bool authWithKeyFile(const QString &path, QString *why);
    bool authWithPassword(QString *why);
    bool authKeyboardInteractive(QString *why);
    void applySocketOptions();

    SshConnectOptions m_options;
    SshPrompter *m_prompter;
    CredentialStore *m_credentials;
    std::unique_ptr<CredentialStore> m_ownedCredentials;
    ssh_session_struct *m_session = nullptr;
    sftp_session_struct *m_sftp = nullptr;
    bool m_connected = false;
    std::atomic<bool> m_cancel{false};
    std::atomic<int> m_fd{-1};
    int m_generation = 0; ///< incremented whenever the libssh session is freed
    QString m_fingerprint;
    QString m_authMethod;
    Failure m_failure = Failure::None;
};

/// True when a keyboard-interactive round asks only for the account password (one hidden prompt mentioning
/// "password"): such an answer is remembered like a password; every other round (one-time codes) is never kept.
bool isAccountPasswordPrompt(const QList<SshPrompt> &prompts);

/// Quotes `s` for a POSIX shell: 'it'"'"'s'.
QString shellQuote(const QString &s);

} // namespace diamond::remote
