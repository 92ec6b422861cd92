#include "app/run/executor.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

namespace diamond::app {

remote::EngineCommand engineCommandFor(const ExecutionRequest &request) {
    remote::EngineCommand command;
    command.specPath = request.specPath;
    command.configPath = request.configPath;
    command.runDir = request.runDir;
    command.resume = request.resume;
    command.threads = request.threads;
    command.nproc = request.nproc;
    command.initWeights = request.initWeights;
    command.dataPath = request.dataPath;
    return command;
}

namespace {

constexpr qsizetype kStderrTailBytes = 8192;

} // namespace

LocalExecutor::LocalExecutor(QObject *parent) : Executor(parent), enginePath_(defaultEnginePath()) {}

LocalExecutor::~LocalExecutor() {
    // Engines outlive a closing front end only when detached; ours are children, so stop them quietly.
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
        QProcess *p = it->process;
        p->disconnect(this);
        if (p->state() != QProcess::NotRunning) {
            p->terminate();
            if (!p->waitForFinished(3000)) p->kill();
            p->waitForFinished(1000);
        }
        delete p;
    }
}

QString LocalExecutor::defaultEnginePath() {
    const QString env = QProcessEnvironment::systemEnvironment().value(QStringLiteral("DIAMOND_TRAIN"));
    if (!env.isEmpty()) return env;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("diamond-train"));
}

bool LocalExecutor::start(const ExecutionRequest &request) {
    error_.clear();
    if (jobs_.contains(request.runId)) {
        error_ = tr("Run %1 is already running.").arg(request.runId);
        return false;
    }
    if (!QFileInfo(enginePath_).isExecutable()) {
        error_ = tr("The training engine %1 was not found (set DIAMOND_TRAIN to its path).").arg(enginePath_);
        return false;
    }
    const QStringList args = engineCommandFor(request).arguments();

    if (detached_) {
        QProcess process;
        process.setProgram(enginePath_);
        process.setArguments(args);
        process.setWorkingDirectory(request.runDir);
        process.setStandardInputFile(QProcess::nullDevice());
        process.setStandardOutputFile(QProcess::nullDevice());
        process.setStandardErrorFile(QDir(request.runDir).filePath(QStringLiteral("engine.stderr")));
        qint64 pid = 0;
        if (!process.startDetached(&pid)) {
            error_ = tr("Cannot start %1: %2").arg(enginePath_, process.errorString());
            return false;
        }
        detachedPids_.insert(request.runId, pid);
        return true;
    }
    auto *process = new QProcess(this);
    process->setProgram(enginePath_);
    process->setArguments(args);
    process->setWorkingDirectory(request.runDir);
    process->setStandardOutputFile(QProcess::nullDevice()); // the same events are in events.jsonl
    const qint64 runId = request.runId;
    jobs_.insert(runId, Job{process, false, {}});

    connect(process, &QProcess::readyReadStandardError, this, [this, runId, process] {
        auto it = jobs_.find(runId);
        if (it == jobs_.end()) return;
        it->stderrTail += process->readAllStandardError();
        if (it->stderrTail.size() > kStderrTailBytes) it->stderrTail = it->stderrTail.right(kStderrTailBytes);
    });
    connect(process, &QProcess::started, this, [this, runId] { Q_EMIT statusChanged(runId, ProcessStatus::Running); });
    auto finish = [this, runId, process](int exitCode, bool crashed) {
        auto it = jobs_.find(runId);
        if (it == jobs_.end() || it->process != process) return;
        Job job = *it;
        jobs_.erase(it);
        job.stderrTail += process->readAllStandardError();
        process->deleteLater();
        Q_EMIT statusChanged(runId, ProcessStatus::NotRunning);
        Q_EMIT processExited(runId, exitCode, crashed, job.cancelRequested,
                             QString::fromUtf8(job.stderrTail.right(kStderrTailBytes)).trimmed());
    };
    connect(process, &QProcess::finished, this,
            [finish](int code, QProcess::ExitStatus status) { finish(code, status == QProcess::CrashExit); });
    connect(process, &QProcess::errorOccurred, this, [this, runId, process, finish](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        auto it = jobs_.find(runId);
        if (it != jobs_.end())
            it->stderrTail += tr("Cannot start %1: %2").arg(enginePath_, process->errorString()).toUtf8();
        finish(-1, true);
    });
    Q_EMIT statusChanged(runId, ProcessStatus::Starting);
    process->start();
    return true;
}

bool LocalExecutor::cancel(qint64 runId) {
    auto it = jobs_.find(runId);
    if (it == jobs_.end()) return false;
    it->cancelRequested = true;
    QPointer<QProcess> process = it->process;
    Q_EMIT statusChanged(runId, ProcessStatus::Stopping);
    process->terminate(); // the engine checkpoints and exits 85 on SIGTERM
    QTimer::singleShot(graceMs_, this, [process] {
        if (process && process->state() != QProcess::NotRunning) process->kill();
    });
    return true;
}

ProcessStatus LocalExecutor::status(qint64 runId) const {
    const auto it = jobs_.constFind(runId);
    if (it == jobs_.constEnd()) return ProcessStatus::NotRunning;
    if (it->cancelRequested) return ProcessStatus::Stopping;
    return it->process->state() == QProcess::Running ? ProcessStatus::Running : ProcessStatus::Starting;
}

qint64 LocalExecutor::processId(qint64 runId) const {
    const auto it = jobs_.constFind(runId);
    return it == jobs_.constEnd() ? detachedPids_.value(runId) : it->process->processId();
}

} // namespace diamond::app
