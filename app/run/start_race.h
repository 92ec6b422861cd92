// StartRace: start-anywhere with "first to start wins" (docs/clusters.md, "Start anywhere"), as Mila's cluv does it:
// the draft run's job is submitted to every candidate cluster at once; the first whose job starts running keeps the
// run and the others' jobs are cancelled.
//
// Contract:
// - Each candidate gets its own ClusterExecutor over the session's link and its own staging folder
//   <run-dir>/race/<cluster>/ (spec.json, run.json, its events and job record), so the candidates never write the
//   same file. The run is `queued` meanwhile.
// - The first candidate whose job the scheduler reports running (or that ended before a poll saw it run) wins: the
//   others are cancelled through their scheduler, the winner's executor stops following without cancelling, its job
//   record and events become the run's own, the run's target becomes the winner and RunService follows it like any
//   cluster run (ClusterExecutor::adopt). Every candidate's job is stored with its cluster (ClusterJobStore), the
//   losers' as cancelled.
// - When no candidate could submit, the run fails with every cluster's reason. cancel() cancels every candidate.
// - The race deletes itself once it is decided and every loser's cancel is confirmed.
#pragma once

#include <QHash>
#include <QObject>
#include <QStringList>

namespace diamond::app {

class ClusterExecutor;
class RunService;

class StartRace : public QObject {
    Q_OBJECT
public:
    StartRace(RunService &service, qint64 runId, const QStringList &clusters, QObject *parent = nullptr);
    ~StartRace() override;

    /// Queues the run and submits to every candidate. False with *error when nothing could be submitted at once.
    bool start(QString *error);
    /// Cancels every candidate's job; the run ends cancelled.
    void cancel();
    qint64 runId() const { return runId_; }
    bool isDecided() const { return over_; }
    QStringList clusters() const { return clusters_; }

Q_SIGNALS:
    /// `cluster` started first and keeps the run; the other candidates' jobs are being cancelled.
    void won(qint64 runId, const QString &cluster);
    /// No candidate could take the run (or it was cancelled); the run has ended.
    void lost(qint64 runId, const QString &error);

private:
    void onPhase(const QString &cluster, const QString &phase);
    void onExit(const QString &cluster, bool crashed, bool cancelled, const QString &message);
    void win(const QString &cluster);
    void finish(const QString &error, bool cancelled);
    /// Deletes the race once it is decided and every candidate's executor is gone.
    void settleIfDone();

    RunService &service_;
    qint64 runId_;
    QStringList clusters_;
    QHash<QString, ClusterExecutor *> executors_;
    QHash<QString, QString> failures_; ///< candidate -> why it could not take the run
    QStringList submitted_;            ///< candidates whose job was submitted
    QString winner_;
    bool over_ = false;
};

} // namespace diamond::app
