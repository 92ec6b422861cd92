// CommandRunner over SSH: commands on exec channels, files through SFTP (resume + SHA-256, see SftpTransfer),
// readFrom through SFTP seek + read. A dropped connection is re-established with exponential backoff before an
// operation is given up: reads, transfers (which resume) and commands whose channel never opened are retried
// once connected again; a command that had started is not re-run (it may not be idempotent) and reports the loss.
// Only network failures are retried: a changed host key or refused credentials end the attempts at once.
#pragma once

#include "remote/command_runner.h"
#include "remote/sftp_transfer.h"
#include "remote/ssh_session.h"

#include <functional>
#include <memory>

namespace diamond::remote {

struct ReconnectPolicy {
    int maxAttempts = 6;      ///< 0: never reconnect
    int initialDelayMs = 250; ///< first wait, doubled per attempt
    int maxDelayMs = 8000;
};

class SshCommandRunner : public CommandRunner {
public:
    /// Uses `session` (not owned), which must outlive the runner; connects it on first use if needed.
    explicit SshCommandRunner(SshSession *session);
    /// Owns a session built from `options`.
    explicit SshCommandRunner(const SshConnectOptions &options, SshPrompter *prompter = nullptr,
                              CredentialStore *credentials = nullptr);
    ~SshCommandRunner() override;

    CommandResult run(const QString &command, const QByteArray &input = {}, int timeoutMs = 60000) override;
    /// Widens the command's stdin pipe to 1 MiB first (see kWidenStdinPipe): large inputs move several times faster.
    CommandResult runStreaming(const QString &command, const InputSource &input, int timeoutMs = 0) override;
    bool upload(const QString &localPath, const QString &remotePath, QString *error,
                const TransferProgress &progress = {}) override;
    bool download(const QString &remotePath, const QString &localPath, QString *error,
                  const TransferProgress &progress = {}) override;
    QByteArray readFrom(const QString &remotePath, qint64 offset, qint64 maxBytes, QString *error) override;
    QString describe() const override;

    SshSession &session() { return *m_session; }
    void setReconnectPolicy(const ReconnectPolicy &policy) { m_policy = policy; }
    /// Statistics of the last upload or download.
    TransferStats lastTransfer() const { return m_lastTransfer; }
    /// How many times the connection was re-established so far.
    int reconnectCount() const { return m_reconnects; }
    /// Called before each reconnect attempt with (attempt, delay before it in ms).
    void setReconnectObserver(std::function<void(int, int)> observer) { m_observer = std::move(observer); }

    /// Connected, reconnecting with backoff (ReconnectPolicy) when the connection was lost; the first connect
    /// has no backoff. False with *error when every attempt failed or the session was cancelled.
    bool ensureConnected(QString *error);

private:
    /// Runs `command` on an exec channel, reconnecting once when the channel could not start on a lost connection.
    CommandResult execute(const QString &command, const InputSource &input, int timeoutMs);

    std::unique_ptr<SshSession> m_owned;
    SshSession *m_session;
    ReconnectPolicy m_policy;
    TransferStats m_lastTransfer;
    int m_reconnects = 0;
    bool m_everConnected = false;
    std::function<void(int, int)> m_observer;
};

} // namespace diamond::remote
