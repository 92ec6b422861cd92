// ClusterOverview: one view of every cluster profile — reachable or not, each partition's idle and allocated nodes,
// this user's queued and running jobs with their reason, and the fair share where the scheduler reports it — for the
// Clusters page's overview and `diamondctl cluster status`.
//
// Contract:
// - Each cluster is read on its own ClusterLink (this session's one persistent connection to it), as background work
//   (no sign-in prompt after one was declined), so a slow or unreachable cluster never delays the others and nothing
//   runs on the caller's thread.
// - A refresh asks every cluster; one whose previous read is still running is read again as soon as that one
//   answers (so a refresh always reflects the cluster after it was asked for). One that has not answered within
//   staleAfter()
//   (5 s by default, never more than the interval) is marked stale with "no answer for N s" and not asked again until
//   it answers (a connection that dropped is retried by its link for up to ~15 s before the read fails). A failed
//   read marks the cluster stale and unreachable at once, with the reason; its last good figures are kept for
//   display.
#pragma once

#include "app/cluster/cluster_link.h"
#include "remote/cluster_profile.h"
#include "remote/scheduler.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QSet>

class QTimer;

namespace diamond::app {

struct ClusterStatusEntry {
    QString cluster;
    bool reachable = false; ///< the last read connected and read the queue
    bool stale = true;      ///< no successful read in the last refresh (or none yet)
    QString error;          ///< why the last read failed, or what is missing (the load)
    QDateTime refreshedAt;  ///< the last successful read (UTC)
    double readSeconds = 0; ///< how long that read took
    QList<remote::PartitionLoad> partitions;
    QList<remote::JobStatus> jobs; ///< this user's queued and running jobs
    QList<remote::FairShare> shares;
    QString sharesNote; ///< why no fair share is shown

    QJsonObject toJson() const;
};

/// Reads one cluster's status through `scheduler` (blocking: on the cluster link's worker). The queue decides
/// reachable; the load and the fair share are best effort (their problems go to error and sharesNote).
ClusterStatusEntry readClusterStatus(remote::Scheduler &scheduler, const QString &cluster);

/// Reads every profile at once, each on a thread of its own with a connection of its own (no prompts: keys and agent
/// only), and returns when all answered or after `timeoutMs`; a cluster that has not answered by then is stale with
/// "no answer within N s" (its thread ends by itself). For callers without an event loop (the REST API).
QList<ClusterStatusEntry> readAllClusterStatus(const QList<remote::ClusterProfile> &profiles, int timeoutMs);

class ClusterOverview : public QObject {
    Q_OBJECT
public:
    /// Reads through `links` (not owned; must outlive the overview).
    explicit ClusterOverview(ClusterLinks *links, QObject *parent = nullptr);
    ~ClusterOverview() override;

    /// The clusters shown, in this order; entries of profiles no longer listed go.
    void setProfiles(const QList<remote::ClusterProfile> &profiles);
    /// Starts a read of every cluster (see the contract); returns at once.
    void refresh();
    /// Refreshes every `ms` milliseconds (0: only on refresh()); also the deadline of each refresh.
    void setInterval(int ms);
    int interval() const { return intervalMs_; }
    /// How long a read may take before its cluster is shown stale (default 5000 ms).
    void setStaleAfter(int ms) { staleAfterMs_ = std::max(100, ms); }
    int staleAfter() const { return deadlineMs(); }
    QList<ClusterStatusEntry> entries() const;
    ClusterStatusEntry entry(const QString &cluster) const;
    /// Clusters asked by the last refresh() that have not answered yet.
    int pendingCount() const { return int(pending_.size()); }

Q_SIGNALS:
    void entryChanged(const QString &cluster);
    /// Every cluster asked by the last refresh() answered or passed the deadline.
    void refreshFinished();

private:
    void read(const remote::ClusterProfile &profile);
    void answered(const ClusterStatusEntry &result);
    void checkDeadline();
    int deadlineMs() const;

    ClusterLinks *links_;
    QList<remote::ClusterProfile> profiles_;
    QMap<QString, ClusterStatusEntry> entries_;
    QMap<QString, QElapsedTimer> pending_; ///< cluster -> since when its read runs
    QSet<QString> again_;                  ///< clusters to read again once their pending read answers
    QTimer *timer_, *deadline_;
    int intervalMs_ = 0;
    int staleAfterMs_ = 5000;
    std::shared_ptr<bool> alive_;
};

} // namespace diamond::app
