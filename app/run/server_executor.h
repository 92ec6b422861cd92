// Runs on a class server (app/run/class_server.h): start() sends the run's spec.json and run.json to
// POST /api/v1/runs (project and name kept, target = the server's target), then follows the server's run:
// GET /api/v1/runs/{id}/events?offset=N appends the server's events.jsonl, from the last offset received, to the
// local <run-dir>/events.jsonl, where RunManager ingests it as for any run. When the server reports the run ended
// and every event has arrived, processExited() gives the exit code the state stands for (finished 0, preempted 85,
// failed 1; cancelled as a cancel). <run-dir>/server-run.json records the server, the remote run id and the offset,
// so adopt() follows the run again after a restart.
#pragma once

#include "app/run/class_server.h"
#include "app/run/executor.h"

#include <QHash>
#include <QTimer>

namespace diamond::app {

class ServerExecutor : public Executor {
    Q_OBJECT
public:
    explicit ServerExecutor(ClassServer server, QObject *parent = nullptr);

    const ClassServer &server() const { return server_; }
    /// Time between event polls of a run (default 300 ms).
    void setPollInterval(int ms) { pollMs_ = ms; }
    /// The project and name the run gets on the server and the server's target it runs on ("local" or a cluster
    /// profile of the server); RunManager does not pass them in the request.
    void setRunLabels(qint64 runId, const QString &project, const QString &name, const QString &remoteTarget);

    bool start(const ExecutionRequest &request) override;
    bool adopt(const ExecutionRequest &request) override;
    bool runsOnThisComputer() const override { return false; }
    bool cancel(qint64 runId) override;
    ProcessStatus status(qint64 runId) const override;
    qint64 processId(qint64) const override { return 0; }
    /// The server's id of a run (from <run-dir>/server-run.json), 0 when unknown.
    static qint64 remoteRunId(const QString &runDir);
    /// POST /api/v1/runs/{remote id}/publish with `options` (docs/rest-api.md): `done` gets the new gallery entry,
    /// or a translated error (a student needs the instructor's permission to publish: 403).
    void publish(const QString &runDir, const QJsonObject &options,
                 std::function<void(const QJsonObject &entry, const QString &error)> done);

private:
    struct Job {
        qint64 remoteId = 0;
        qint64 offset = 0; ///< bytes of the server's events.jsonl received
        QString runDir;
        bool cancelRequested = false;
        bool polling = false;
        ProcessStatus status = ProcessStatus::NotRunning;
    };
    void poll(qint64 runId);
    void schedulePoll(qint64 runId);
    void finish(qint64 runId, const QString &state, const QString &message);
    bool saveRecord(qint64 runId);

    ClassServer server_;
    ClassServerClient *client_;
    QHash<qint64, Job> jobs_;
    struct Labels {
        QString project, name, remoteTarget;
    };
    QHash<qint64, Labels> labels_;
    int pollMs_ = 300;
};

} // namespace diamond::app
