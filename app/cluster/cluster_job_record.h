// ClusterJobRecord: <run-dir>/cluster-job.json, what a ClusterExecutor needs to follow a run's cluster job after the
// process that submitted it is gone (ClusterExecutor::adopt()): the cluster profile, the current job and attempt,
// the run folder on the cluster, the queued links of its chain, the staged dataset, and whether a cancel was asked
// for (by any process). Written at every submission, advance and cancel request; read back as untrusted input.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace diamond::app {

struct ClusterJobRecord {
    static constexpr const char *kFileName = "cluster-job.json";

    QString profile;   ///< the cluster profile's name
    QString jobId;     ///< the job of the current attempt
    QString remoteDir; ///< the run folder on the cluster
    int attempt = 1;   ///< number of the current attempt (attempt-N.sh / attempt-N.exit)
    bool cancelRequested = false;
    QString dataPath;        ///< --data-path of the staged dataset; empty = none
    QStringList queuedLinks; ///< later jobs of the chain, submitted and waiting, in order

    static QString path(const QString &runDir);
    /// Nothing when the file is missing, over 1 MiB, not a JSON object, or names no job or remote folder.
    static std::optional<ClusterJobRecord> read(const QString &runDir);
    /// Atomically (a temporary file renamed); false when it cannot be written.
    bool write(const QString &runDir) const;
};

} // namespace diamond::app
