// PackingLocalExecutor: a LocalExecutor that trains a batch of runs in ONE diamond-train process
// (`diamond-train pack`, docs/trial-packing.md), so that per-process start-up is paid once per batch: many small
// trials of a sweep, a classroom full of spirals. Each run keeps its own run folder, events.jsonl and exit code,
// so RunManager treats packed runs exactly like separate ones.
//
// Contract: startBatch() with two or more packable requests (nproc == 1, same thread count, not detached) starts
// one pack process; other requests go through LocalExecutor::start(). processExited() is emitted per run when
// the pack reports the run's trial_exit (or when the pack process dies: crashed = true for the runs it had not
// finished). cancel() of the running trial sends SIGUSR2 (the trial checkpoints and the pack goes on); cancel() of
// a waiting trial writes <run-dir>/cancel so that the pack skips it; both report cancelRequested = true.
#pragma once

#include "app/run/executor.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <memory>

class QProcess;
class QTemporaryDir;

namespace diamond::app {

class PackingLocalExecutor : public LocalExecutor {
    Q_OBJECT
public:
    explicit PackingLocalExecutor(QObject *parent = nullptr);
    ~PackingLocalExecutor() override;

    bool startBatch(const QList<ExecutionRequest> &requests) override;
    bool cancel(qint64 runId) override;
    ProcessStatus status(qint64 runId) const override;
    qint64 processId(qint64 runId) const override;

    /// Number of pack processes started so far (tests, benchmarks).
    int packsStarted() const { return packsStarted_; }

private:
    struct Pack {
        QProcess *process = nullptr;
        std::shared_ptr<QTemporaryDir> folder; ///< holds pack.json
        QList<qint64> runIds;                  ///< in trial order
        QHash<qint64, QString> runDirs;
        QSet<qint64> finished;
        QSet<qint64> cancelled;
        qint64 current = 0; ///< run of the trial in progress, 0 between trials
        QByteArray stdoutBuffer;
        QByteArray stderrTail;
    };
    void onPackOutput(Pack *pack);
    /// Runs the pack did not report are ended as crashed with the pack's exit code and stderr.
    void onPackFinished(Pack *pack, int exitCode, bool crashed);
    Pack *packOf(qint64 runId) const;

    QList<Pack *> packs_;
    int packsStarted_ = 0;
};

} // namespace diamond::app
