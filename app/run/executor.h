// Executors launch diamond-train for a run and report when its process ends. They know nothing about the
// database: RunManager turns their signals into run states (docs/events-protocol.md, exit codes).
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include "app/data/dataset_store.h"
#include "remote/engine_command.h"

#include <memory>

class QProcess;

namespace diamond::app {

/// What an executor needs to launch the engine for one run.
struct ExecutionRequest {
    qint64 runId = 0;
    QString specPath;    ///< spec.json of the run
    QString configPath;  ///< run.json of the run
    QString runDir;      ///< --run-dir; events.jsonl and checkpoints are written there
    bool resume = false; ///< pass --resume (continue from the newest checkpoint)
    int nproc = 1;       ///< local data-parallel ranks (--nproc when > 1)
    int threads = 0;     ///< --threads when > 0
    QString initWeights; ///< --init-weights: safetensors to start from (fine-tuning); empty = fresh weights
    QJsonObject job;     ///< cluster runs: scheduler resources (execution["job"], remote::jobRequestFromJson())
    /// The registered dataset version the run trains on (data.dataset), or null. Executors that run the engine
    /// on this computer get dataPath (its local copy); others put the version where the engine runs (a cluster
    /// executor stages it from the chunk store in datasetChunks) and pass that path.
    std::shared_ptr<const DatasetVersion> dataset;
    QString datasetChunks;   ///< the workspace's chunk store folder
    QString datasetRelative; ///< data.path inside the dataset, when the config names one
    QString dataPath;        ///< --data-path for an engine on this computer
    QString dataError;       ///< why the dataset could not be provided (the run cannot start)
};

/// The engine command (Mode::Train) that runs `request` on this computer; enginePath is left empty.
remote::EngineCommand engineCommandFor(const ExecutionRequest &request);

enum class ProcessStatus { NotRunning, Starting, Running, Stopping };

class Executor : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// Launches the engine without blocking. Returns false (errorString() says why) when it cannot be started
    /// at once; a later failure to start is reported through processExited() with crashed = true.
    virtual bool start(const ExecutionRequest &request) = 0;
    /// Launches several runs at once. The default starts them one by one; an executor that can pack runs into
    /// one engine process (PackingLocalExecutor) does so. Returns false (errorString()) when some run could not
    /// be started; the others keep going and report through processExited() as usual.
    virtual bool startBatch(const QList<ExecutionRequest> &requests) {
        bool ok = true;
        for (const ExecutionRequest &r : requests)
            ok = start(r) && ok;
        return ok;
    }
    /// Same as start() with request.resume set.
    virtual bool resume(ExecutionRequest request) {
        request.resume = true;
        return start(request);
    }
    /// Follows a run whose engine another executor started (e.g. a cluster job submitted before a restart):
    /// processExited() is emitted when it ends. The default cannot (false with errorString()).
    virtual bool adopt(const ExecutionRequest &request) {
        error_ = tr("This executor cannot follow run %1 started elsewhere.").arg(request.runId);
        return false;
    }
    /// True when the engine runs on this computer (reads local files, e.g. a dataset's local copy).
    virtual bool runsOnThisComputer() const { return true; }
    /// Asks the run's engine to stop (SIGTERM, then a kill after a grace period). False when not running here.
    virtual bool cancel(qint64 runId) = 0;
    virtual ProcessStatus status(qint64 runId) const = 0;
    /// Operating-system process id of the run's engine, 0 when none.
    virtual qint64 processId(qint64 runId) const = 0;
    QString errorString() const { return error_; }

Q_SIGNALS:
    void statusChanged(qint64 runId, diamond::app::ProcessStatus status);
    /// The engine process of runId ended. exitCode is meaningful only when !crashed; cancelRequested tells that
    /// cancel() was called for it; errorOutput is the end of its stderr (for runs that wrote no error event).
    void processExited(qint64 runId, int exitCode, bool crashed, bool cancelRequested, const QString &errorOutput);

protected:
    QString error_;
};

/// Runs diamond-train on this machine with QProcess.
class LocalExecutor : public Executor {
    Q_OBJECT
public:
    explicit LocalExecutor(QObject *parent = nullptr);
    ~LocalExecutor() override;

    /// The engine binary: $DIAMOND_TRAIN when set, else diamond-train next to the current executable.
    static QString defaultEnginePath();
    QString enginePath() const { return enginePath_; }
    /// Overrides defaultEnginePath() (tests pass the build's binary).
    void setEnginePath(const QString &path) { enginePath_ = path; }
    /// Time between SIGTERM and the kill on cancel() (default 10 s).
    void setCancelGracePeriod(int ms) { graceMs_ = ms; }
    /// Detached mode: engines are started with QProcess::startDetached and outlive this object (and the
    /// process); their exit is not reported (RunManager::reattach() finds it from events.jsonl). stderr goes
    /// to <run-dir>/engine.stderr. For one-shot command-line use.
    void setDetached(bool detached) { detached_ = detached; }

    bool start(const ExecutionRequest &request) override;
    bool cancel(qint64 runId) override;
    ProcessStatus status(qint64 runId) const override;
    qint64 processId(qint64 runId) const override;

private:
    struct Job {
        QProcess *process = nullptr;
        bool cancelRequested = false;
        QByteArray stderrTail;
    };
    QHash<qint64, Job> jobs_;
    QHash<qint64, qint64> detachedPids_;
    bool detached_ = false;
    QString enginePath_;
    int graceMs_ = 10000;
};

} // namespace diamond::app
