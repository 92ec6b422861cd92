// EnginePlanJob: asks diamond-train for its --dry-run plan of a spec + run config, without blocking the caller's
// thread (async QProcess). The plan is the engine's `plan` event (docs/events-protocol.md): parameters, memory,
// steps, seconds per step, estimated duration; a failure carries the engine's `error` event (message, node id or
// config field).
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QTemporaryDir>

#include <memory>

class QProcess;

namespace diamond::app {

class EnginePlanJob : public QObject {
    Q_OBJECT
public:
    explicit EnginePlanJob(QObject *parent = nullptr);
    ~EnginePlanJob() override;

    /// Engine binary (default LocalExecutor::defaultEnginePath()).
    void setEnginePath(const QString &path) { enginePath_ = path; }
    /// Starts the dry run; a running one is abandoned. threads <= 0 lets the engine choose. `dataPath`: where the
    /// registered dataset of data.dataset is on this computer (DatasetStore::localCopy()), passed as --data-path.
    /// It runs on this computer's CPU whatever the config's device (fp16, GPU only, as fp32).
    void start(const QJsonObject &spec, const QJsonObject &config, int threads = 1, const QString &dataPath = {});
    /// Abandons the running dry run, if any: it emits neither planReady() nor failed().
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    void planReady(const QJsonObject &plan);
    /// message is translated and complete; `event` is the engine's error event when there was one.
    void failed(const QString &message, const QJsonObject &event);

private:
    void onFinished();

    QString enginePath_;
    QProcess *process_ = nullptr;
    std::unique_ptr<QTemporaryDir> dir_;
};

/// One line for an engine error event: "message (node 'id')" / "(field 'optimizer.lr')", plus the hint.
QString describeEngineError(const QJsonObject &event);

} // namespace diamond::app
