// ClusterClient: the cluster manager's asynchronous requests (connection test, partitions, queue, cancel of a job),
// run on the cluster's ClusterLink, i.e. on this session's one connection to that cluster, shared with the run
// service's jobs. Nothing here blocks the caller: every result comes back as a signal, with the request id, on the
// thread the client lives in. Prompts raised while connecting go to the links' ClusterPrompter.
#pragma once

#include "app/cluster/cluster_connection.h"
#include "app/cluster/cluster_link.h"
#include "app/cluster/engine_deploy.h"
#include "remote/cluster_profile.h"
#include "remote/scheduler.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

namespace diamond::app {

/// Result of a connection test (testCluster plus what happened while connecting).
struct ClusterTestResult {
    bool ok = false;             ///< connected and every check passed
    QList<ClusterCheck> checks;  ///< empty when the connection failed before any command ran
    QString error;               ///< why connecting failed; empty when connected
    bool hostKeyRefused = false; ///< the host key did not match known_hosts (changed key): refused
    QString fingerprint;         ///< the server key's fingerprint ("SHA256:..."), when seen
};

struct ClusterProbeResult {
    bool ok = false;
    QList<remote::PartitionInfo> partitions;
    QString error;
};

struct ClusterCalibrationResult {
    bool ok = false;
    QString partition;   ///< as asked (empty: the default)
    QJsonObject profile; ///< the device profile measured there (app/plan/cluster_calibration.h)
    QString error;
};

struct ClusterDeployResult {
    bool ok = false;
    EngineDeployOptions options;
    EngineDeployment deployment;
    QString error;
};

struct ClusterQueueResult {
    bool ok = false;
    QList<remote::JobStatus> jobs; ///< the connected user's queued and running jobs
    QString error;
};

class ClusterClient : public QObject {
    Q_OBJECT
public:
    /// Requests go through `links` (not owned; must outlive the client).
    explicit ClusterClient(ClusterLinks *links, QObject *parent = nullptr);

    ClusterLinks *links() const { return links_; }
    /// Each returns a request id, echoed by the matching *Finished signal.
    int testConnection(const remote::ClusterProfile &profile);
    /// Partitions from the profile's scheduler (sinfo / scontrol, qstat -Qf).
    int probe(const remote::ClusterProfile &profile);
    /// Measures a node of `partition` (empty: the default) with a short job step: cluster_calibration.h.
    int calibrate(const remote::ClusterProfile &profile, const QString &partition);
    /// The connected user's jobs from the profile's scheduler (squeue, qstat).
    int fetchQueue(const remote::ClusterProfile &profile);
    int cancelJob(const remote::ClusterProfile &profile, const QString &jobId);
    /// Puts an engine on the cluster (engine_deploy.h); progress() reports each step. The profile is not saved.
    int deployEngine(const remote::ClusterProfile &profile, const EngineDeployOptions &options);

    /// Requests started and not finished yet.
    int pendingCount() const { return pending_; }
    /// Closes the profile's connection (the next request connects again).
    void disconnectHost(const remote::ClusterProfile &profile);

Q_SIGNALS:
    /// A request started or reached a step ("Connecting to alice@hpc:22…", "Running the checks…").
    void progress(int requestId, const QString &message);
    void testFinished(int requestId, const diamond::app::ClusterTestResult &result);
    void probeFinished(int requestId, const diamond::app::ClusterProbeResult &result);
    void queueFinished(int requestId, const diamond::app::ClusterQueueResult &result);
    void calibrateFinished(int requestId, const diamond::app::ClusterCalibrationResult &result);
    void cancelFinished(int requestId, bool ok, const QString &error);
    void deployFinished(int requestId, const diamond::app::ClusterDeployResult &result);

private:
    /// How work on a link's thread answers: queued onto the client's thread, dropped when the client is gone.
    struct Reply {
        ClusterLinks *context;
        QPointer<ClusterClient> client;
        void progress(int id, const QString &text) const;
        /// Calls `f` with the client and counts the request finished.
        void finish(std::function<void(ClusterClient *)> f) const;
    };
    /// Runs `work(link, id, reply)` on the profile's link.
    int post(const remote::ClusterProfile &profile, std::function<void(ClusterLink &, int, const Reply &)> work);

    ClusterLinks *links_;
    QSet<ClusterLink *> relayed_; ///< links whose progress lines are relayed
    int nextId_ = 1;
    int pending_ = 0;
};

} // namespace diamond::app

Q_DECLARE_METATYPE(diamond::app::ClusterTestResult)
Q_DECLARE_METATYPE(diamond::app::ClusterProbeResult)
Q_DECLARE_METATYPE(diamond::app::ClusterQueueResult)
Q_DECLARE_METATYPE(diamond::app::ClusterCalibrationResult)
Q_DECLARE_METATYPE(diamond::app::ClusterDeployResult)
