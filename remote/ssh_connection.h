// SshConnection: the GUI's asynchronous handle on one SSH connection. The blocking SshSession lives on a worker
// thread owned by this object; requests go there as queued calls and results come back as signals, so no call
// here ever blocks the caller's thread. Every signal is emitted on the thread this object lives in, in order.
//
// Prompts are request/response pairs: hostKeyUnknown -> acceptHostKey(bool); passphraseRequested ->
// providePassphrase(); passwordRequested -> providePassword(); interactivePrompts -> provideInteractiveAnswers();
// cancelPrompt() declines whichever is open. The worker waits for the answer, the GUI thread does not.
// Keepalive every SshConnectOptions::keepaliveIntervalSec; a lost connection is re-established with exponential
// backoff (connectionLost, reconnecting(attempt, delay), reconnected or failed). Secrets that worked stay in
// memory (or the CredentialStore given), so a reconnect only asks again for keyboard-interactive answers.
#pragma once

#include "remote/command_runner.h"
#include "remote/ssh_command_runner.h"
#include "remote/ssh_session.h"

#include <QMetaType>
#include <QObject>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <memory>

namespace diamond::remote {

class SshConnectionWorker;
class PromptBridge;

class SshConnection : public QObject {
    Q_OBJECT
public:
    explicit SshConnection(const SshConnectOptions &options, QObject *parent = nullptr,
                           CredentialStore *credentials = nullptr);
    /// Cancels open prompts and running requests and stops the worker thread.
    ~SshConnection() override;

    void setReconnectPolicy(const ReconnectPolicy &policy);
    QString describe() const { return m_options.label(); }
    /// As last reported by connected / connectionLost / reconnected / failed / closed.
    bool isConnected() const { return m_connected; }

    /// Queues `command` (connecting first if needed); its result arrives as commandFinished(id, result).
    int runCommand(const QString &command, const QByteArray &input = {}, int timeoutMs = 60000);
    /// Queues an SFTP upload / download (resume, SHA-256 verification, skip when unchanged: SftpTransfer);
    /// transferProgress(id, done, total) while it runs, then transferFinished(id, ok, error, stats).
    int upload(const QString &localPath, const QString &remotePath);
    int download(const QString &remotePath, const QString &localPath);

public Q_SLOTS:
    /// Connects; answers with connected() or failed(message) (after any prompts).
    void open();
    /// Disconnects; pending requests finish with a "cancelled" error; then closed().
    void close();
    void acceptHostKey(bool accept);
    void providePassphrase(const QString &passphrase);
    void providePassword(const QString &password);
    void provideInteractiveAnswers(const QStringList &answers);
    /// The user dismissed the open prompt.
    void cancelPrompt();
    /// Stops the running command and drops the queued ones (each finishes with a "cancelled" error).
    void cancelAll();

Q_SIGNALS:
    void hostKeyUnknown(const QString &hostLabel, const QString &keyType, const QString &fingerprint);
    void passphraseRequested(const QString &keyPath, bool retry);
    void passwordRequested(const QString &userAtHost, bool retry);
    /// A keyboard-interactive round (e.g. an MFA code); `echo[i]`: the answer to prompts[i] may be shown.
    void interactivePrompts(const QString &name, const QString &instruction, const QStringList &prompts,
                            const QList<bool> &echo);
    void connected();
    void failed(const QString &message);
    void connectionLost(const QString &reason);
    void reconnecting(int attempt, int delayMs);
    void reconnected();
    void commandFinished(int requestId, const diamond::remote::CommandResult &result);
    /// At most about 10 per second per transfer.
    void transferProgress(int requestId, qint64 done, qint64 total);
    void transferFinished(int requestId, bool ok, const QString &error, const diamond::remote::TransferStats &stats);
    void closed();

private:
    friend class SshConnectionWorker;
    friend class PromptBridge;
    void setConnected(bool connected) { m_connected = connected; }

    SshConnectOptions m_options;
    QThread m_thread;
    SshConnectionWorker *m_worker = nullptr; // lives on m_thread
    std::shared_ptr<PromptBridge> m_prompts;
    std::atomic<int> m_nextId{1};
    std::atomic<int> m_generation{0};
    std::atomic<bool> m_connected{false};
};

} // namespace diamond::remote

Q_DECLARE_METATYPE(diamond::remote::CommandResult)
Q_DECLARE_METATYPE(diamond::remote::TransferStats)
