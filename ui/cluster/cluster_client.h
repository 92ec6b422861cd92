// ClusterClient: the cluster manager's asynchronous access to a cluster profile's host. One worker thread owns
// the blocking CommandRunner (SSH, or this computer for host "local") and keeps its connection open between
// requests of the same profile, so the queue view's auto refresh does not log in (or ask for an MFA code) every
// time. Requests run one after the other on that thread; every result comes back as a signal on the thread this
// object lives in (the GUI thread). Nothing here ever blocks the caller.
//
// Prompts while connecting are request/response pairs: hostKeyUnknown -> answerHostKey(bool);
// secretRequested -> answerSecret(answers) or answerSecret(std::nullopt) to decline. The worker waits for the
// answer; destroying the client declines an open prompt and aborts the running request.
#pragma once

#include "app/cluster_connection.h"
#include "remote/cluster_profile.h"
#include "remote/scheduler.h"

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace diamond::ui {

/// Result of a connection test (app::testCluster plus what happened while connecting).
struct ClusterTestResult {
    bool ok = false;                 ///< connected and every check passed
    QList<app::ClusterCheck> checks; ///< empty when the connection failed before any command ran
    QString error;                   ///< why connecting failed; empty when connected
    bool hostKeyRefused = false;     ///< the host key did not match known_hosts (changed key): refused
    QString fingerprint;             ///< the server key's fingerprint ("SHA256:..."), when seen
};

struct ClusterProbeResult {
    bool ok = false;
    QList<remote::PartitionInfo> partitions;
    QString error;
};

struct ClusterQueueResult {
    bool ok = false;
    QList<remote::JobStatus> jobs; ///< the connected user's queued and running jobs
    QString error;
};

class ClusterWorker;
class ClusterPromptBridge;

class ClusterClient : public QObject {
    Q_OBJECT
public:
    enum class SecretKind { Passphrase, Password, Interactive };
    Q_ENUM(SecretKind)

    explicit ClusterClient(QObject *parent = nullptr);
    ~ClusterClient() override;

    /// Each returns a request id, echoed by the matching *Finished signal.
    int testConnection(const remote::ClusterProfile &profile);
    /// Partitions from the profile's scheduler (sinfo / scontrol, qstat -Qf).
    int probe(const remote::ClusterProfile &profile);
    /// The connected user's jobs from the profile's scheduler (squeue, qstat).
    int fetchQueue(const remote::ClusterProfile &profile);
    int cancelJob(const remote::ClusterProfile &profile, const QString &jobId);

    /// Requests started and not finished yet.
    int pendingCount() const { return m_pending; }
    /// Closes the kept connection (the next request connects again).
    void disconnectHost();

public Q_SLOTS:
    void answerHostKey(bool accept);
    /// std::nullopt: the user cancelled the prompt.
    void answerSecret(const std::optional<QStringList> &answers);

Q_SIGNALS:
    /// A request started or reached a step ("Connecting to alice@hpc:22…", "Running the checks…").
    void progress(int requestId, const QString &message);
    void testFinished(int requestId, const diamond::ui::ClusterTestResult &result);
    void probeFinished(int requestId, const diamond::ui::ClusterProbeResult &result);
    void queueFinished(int requestId, const diamond::ui::ClusterQueueResult &result);
    void cancelFinished(int requestId, bool ok, const QString &error);
    /// The server's key is not in known_hosts: show the fingerprint and ask (answerHostKey).
    void hostKeyUnknown(const QString &hostLabel, const QString &keyType, const QString &fingerprint);
    /// A passphrase, password or keyboard-interactive round (answerSecret with one answer per prompt).
    void secretRequested(diamond::ui::ClusterClient::SecretKind kind, const QString &title, const QString &instruction,
                         const QStringList &prompts, const QList<bool> &echo);

private:
    friend class ClusterWorker;
    friend class ClusterPromptBridge;
    int post(std::function<void(ClusterWorker &, int)> job);
    void finishOne() { --m_pending; }

    QThread *m_thread = nullptr;
    ClusterWorker *m_worker = nullptr; // lives on m_thread
    std::shared_ptr<ClusterPromptBridge> m_prompts;
    int m_nextId = 1;
    int m_pending = 0;
};

} // namespace diamond::ui

Q_DECLARE_METATYPE(diamond::ui::ClusterTestResult)
Q_DECLARE_METATYPE(diamond::ui::ClusterProbeResult)
Q_DECLARE_METATYPE(diamond::ui::ClusterQueueResult)
