#include "app/run/run_manager.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QTimer>

#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace diamond::app {

namespace {

QString pidFilePath(const QString &runDir) { return QDir(runDir).filePath(QStringLiteral("engine.pid")); }

qint64 readPid(const QString &runDir) {
    QFile f(pidFilePath(runDir));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    return f.readAll().trimmed().toLongLong();
}

} // namespace

RunManager::RunManager(Workspace &workspace, Executor *executor, QObject *parent)
    : QObject(parent), ws_(workspace), store_(workspace), executor_(executor) {
    if (!executor_->parent()) executor_->setParent(this);
    connect(executor_, &Executor::processExited, this, &RunManager::onProcessExited);
}

RunManager::~RunManager() = default;

bool RunManager::fail(const QString &message) {
    error_ = message;
    return false;
}

bool RunManager::enginePidAlive(const QString &runDir) {
    const qint64 pid = readPid(runDir);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly)) return true; // no /proc: trust the pid
    return cmdline.readAll().contains("diamond-train");
}

bool RunManager::moveTo(qint64 runId, RunState state, const QString &note, std::optional<int> exitCode) {
    if (!store_.transition(runId, state, note, exitCode)) return fail(store_.errorString());
    Q_EMIT runStateChanged(runId, state);
    return true;
}

MetricIngestor *RunManager::attachIngestor(qint64 runId) {
    if (auto *existing = ingestors_.value(runId)) return existing;
    auto *ingestor = new MetricIngestor(ws_, runId, this);
    connect(ingestor, &MetricIngestor::metricsAppended, this, &RunManager::metricsAppended);
    connect(ingestor, &MetricIngestor::eventReceived, this, &RunManager::eventReceived);
    ingestors_.insert(runId, ingestor);
    ingestor->start();
    return ingestor;
}

void RunManager::detachIngestor(qint64 runId) {
    if (MetricIngestor *ingestor = ingestors_.take(runId)) {
        ingestor->stop();
        ingestor->deleteLater();
    }
    foreign_.remove(runId);
}

ExecutionRequest RunManager::requestFor(const Run &run, bool resume) const {
    const QString dir = ws_.runDirectory(run.id);
    ExecutionRequest request;
    request.runId = run.id;
    request.specPath = QDir(dir).filePath(QStringLiteral("spec.json"));
    request.configPath = QDir(dir).filePath(QStringLiteral("run.json"));
    request.runDir = dir;
    request.resume = resume;
    request.nproc = std::max(1, run.execution.value(QStringLiteral("nproc")).toInt(1));
    request.threads = std::max(0, run.execution.value(QStringLiteral("threads")).toInt(0));
    request.initWeights = run.execution.value(QStringLiteral("init_weights")).toString();
    request.job = run.execution.value(QStringLiteral("job")).toObject();
    if (run.datasetVersionId > 0 ||
        run.config.value(QStringLiteral("data")).toObject().contains(QStringLiteral("dataset"))) {
        DatasetStore datasets(ws_);
        const auto version = datasets.versionById(run.datasetVersionId);
        if (!version) {
            request.dataError =
                tr("The dataset %1 of run %2 is no longer in this workspace.")
                    .arg(
                        run.config.value(QStringLiteral("data")).toObject().value(QStringLiteral("dataset")).toString())
                    .arg(run.id);
            return request;
        }
        request.dataset = std::make_shared<const DatasetVersion>(*version);
        request.datasetChunks = datasets.chunks().root();
        request.datasetRelative =
            run.config.value(QStringLiteral("data")).toObject().value(QStringLiteral("path")).toString();
        if (executor_->runsOnThisComputer()) {
            const QString copy = datasets.localCopy(*version);
            if (copy.isEmpty())
                request.dataError = tr("Cannot prepare the dataset %1: %2").arg(version->ref(), datasets.errorString());
            else
                request.dataPath = DatasetStore::dataPathIn(copy, *version, request.datasetRelative);
        }
    }
    return request;
}

bool RunManager::markLaunched(qint64 runId, bool resume) {
    QSaveFile pidFile(pidFilePath(ws_.runDirectory(runId)));
    if (pidFile.open(QIODevice::WriteOnly)) {
        pidFile.write(QByteArray::number(executor_->processId(runId)) + '\n');
        pidFile.commit();
    }
    return moveTo(runId, RunState::Running, resume ? tr("resumed") : QString());
}

bool RunManager::launch(const Run &run, bool resume) {
    const ExecutionRequest request = requestFor(run, resume);
    attachIngestor(run.id);
    if (!request.dataError.isEmpty() || !executor_->start(request)) {
        const QString message = request.dataError.isEmpty() ? executor_->errorString() : request.dataError;
        detachIngestor(run.id);
        store_.setRunResult(run.id, {}, {}, message);
        moveTo(run.id, RunState::Failed, message);
        Q_EMIT runEnded(run.id, RunState::Failed);
        return fail(message);
    }
    return markLaunched(run.id, resume);
}

int RunManager::startRuns(const QList<qint64> &runIds) {
    error_.clear();
    QList<ExecutionRequest> requests;
    QStringList problems;
    for (qint64 id : runIds) {
        const auto run = store_.run(id);
        if (!run) {
            problems << store_.errorString();
            continue;
        }
        if (run->state != RunState::Draft && run->state != RunState::Queued) {
            problems
                << tr("Run %1 is %2; only a draft or queued run can be started.").arg(id).arg(runStateName(run->state));
            continue;
        }
        if (run->state == RunState::Draft && !moveTo(id, RunState::Queued)) {
            problems << error_;
            continue;
        }
        const ExecutionRequest request = requestFor(*run, false);
        if (!request.dataError.isEmpty()) {
            store_.setRunResult(id, {}, {}, request.dataError);
            moveTo(id, RunState::Failed, request.dataError);
            Q_EMIT runEnded(id, RunState::Failed);
            problems << request.dataError;
            continue;
        }
        requests.append(request);
        attachIngestor(id);
    }
    int launched = 0;
    if (!requests.isEmpty()) {
        const bool ok = executor_->startBatch(requests);
        for (const ExecutionRequest &r : std::as_const(requests)) {
            if (executor_->status(r.runId) == ProcessStatus::NotRunning && !ok) {
                const QString message = executor_->errorString();
                detachIngestor(r.runId);
                store_.setRunResult(r.runId, {}, {}, message);
                moveTo(r.runId, RunState::Failed, message);
                Q_EMIT runEnded(r.runId, RunState::Failed);
                problems << message;
                continue;
            }
            if (markLaunched(r.runId, false)) ++launched;
        }
    }
    if (!problems.isEmpty()) error_ = problems.join(QLatin1Char('\n'));
    return launched;
}

bool RunManager::startRun(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (run->state == RunState::Draft && !moveTo(runId, RunState::Queued)) return false;
    if (run->state != RunState::Draft && run->state != RunState::Queued)
        return fail(
            tr("Run %1 is %2; only a draft or queued run can be started.").arg(runId).arg(runStateName(run->state)));
    return launch(*run, false);
}

bool RunManager::resume(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (run->state != RunState::Resumed && !moveTo(runId, RunState::Resumed)) return false;
    return launch(*run, true);
}

bool RunManager::cancel(qint64 runId) {
    error_.clear();
    if (executor_->cancel(runId)) return true; // cancelled once the engine has exited
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    const QString dir = ws_.runDirectory(runId);
    if (enginePidAlive(dir)) // an engine of another process
        ::kill(static_cast<pid_t>(readPid(dir)), SIGTERM);
    if (!moveTo(runId, RunState::Cancelled, tr("cancelled"))) return false;
    detachIngestor(runId);
    Q_EMIT runEnded(runId, RunState::Cancelled);
    return true;
}

void RunManager::onProcessExited(qint64 runId, int exitCode, bool crashed, bool cancelRequested,
                                 const QString &stderrTail) {
    QString errorMessage;
    if (MetricIngestor *ingestor = ingestors_.value(runId)) {
        ingestor->poll(); // everything the engine wrote before exiting
        errorMessage = ingestor->lastErrorMessage();
    }
    detachIngestor(runId);
    QFile::remove(pidFilePath(ws_.runDirectory(runId)));
    RunState state = cancelRequested ? RunState::Cancelled : crashed ? RunState::Failed : stateForExitCode(exitCode);
    if (state == RunState::Failed) {
        if (errorMessage.isEmpty())
            errorMessage = stderrTail.isEmpty() ? tr("diamond-train exited with code %1.").arg(exitCode)
                                                : stderrTail.section(QLatin1Char('\n'), -1);
        store_.setRunResult(runId, {}, {}, errorMessage);
    }
    moveTo(runId, state, errorMessage, crashed ? std::optional<int>() : std::optional<int>(exitCode));
    Q_EMIT runEnded(runId, state);
}

bool RunManager::endByTerminalEvent(qint64 runId, const QJsonObject &event) {
    const QString kind = event.value(QStringLiteral("event")).toString();
    RunState state;
    if (kind == QLatin1String("finished")) {
        state = RunState::Finished;
    } else if (kind == QLatin1String("requeue")) {
        state = RunState::Preempted;
    } else if (kind == QLatin1String("error")) {
        state = RunState::Failed;
        store_.setRunResult(runId, {}, {}, event.value(QStringLiteral("message")).toString());
    } else {
        return false;
    }
    detachIngestor(runId);
    // The owning process may have recorded the end already: then the transition is refused, which is fine.
    if (!moveTo(runId, state, tr("reattached"))) return true;
    Q_EMIT runEnded(runId, state);
    return true;
}

bool RunManager::isStaleEvent(qint64 runId, const QJsonObject &event) {
    // The newest launch: the last transition to queued or resumed, recorded before the engine started.
    const QList<RunTransition> transitions = store_.transitions(runId);
    for (auto it = transitions.crbegin(); it != transitions.crend(); ++it) {
        if (it->to != RunState::Queued && it->to != RunState::Resumed) continue;
        const QDateTime launched = QDateTime::fromString(it->at, Qt::ISODateWithMs);
        const double time = event.value(QStringLiteral("time")).toDouble();
        return launched.isValid() && time > 0 && time * 1000.0 < double(launched.toMSecsSinceEpoch()) - 1000.0;
    }
    return false;
}

bool RunManager::adopt(qint64 runId) {
    error_.clear();
    const auto run = store_.run(runId);
    if (!run) return fail(store_.errorString());
    if (run->state != RunState::Running) return fail(tr("Run %1 is not running.").arg(runId));
    if (ingestors_.contains(runId)) return true;
    attachIngestor(runId);
    if (!executor_->adopt(requestFor(*run, false))) {
        detachIngestor(runId);
        return fail(executor_->errorString());
    }
    return true;
}

int RunManager::reattach() {
    int looked = 0;
    const QList<Run> all = store_.runs();
    for (const Run &run : all) {
        if (run.state != RunState::Running || ingestors_.contains(run.id)) continue;
        // A cluster run's engine is not a process of this machine: only the ClusterExecutor that submitted it
        // can tell whether its job is alive, so it is not judged by engine.pid here.
        if (!run.target.isEmpty() && run.target != QLatin1String("local")) continue;
        ++looked;
        MetricIngestor *ingestor = attachIngestor(run.id);
        ingestor->poll();
        if (const auto terminal = ingestor->lastTerminalEvent();
            terminal && !isStaleEvent(run.id, *terminal) && endByTerminalEvent(run.id, *terminal))
            continue;
        if (enginePidAlive(ws_.runDirectory(run.id))) {
            foreign_.insert(run.id);
            connect(ingestor, &MetricIngestor::terminalEventReceived, this,
                    [this](qint64 id, const QJsonObject &event) { endByTerminalEvent(id, event); });
            continue;
        }
        const QString message = tr("engine process lost");
        detachIngestor(run.id);
        store_.setRunResult(run.id, {}, {}, message);
        if (moveTo(run.id, RunState::Failed, message)) Q_EMIT runEnded(run.id, RunState::Failed);
    }
    if (!foreign_.isEmpty() && !liveness_) {
        liveness_ = new QTimer(this);
        connect(liveness_, &QTimer::timeout, this, &RunManager::checkForeignEngines);
        liveness_->start(1000);
    }
    return looked;
}

void RunManager::checkForeignEngines() {
    const QList<qint64> ids = foreign_.values();
    for (qint64 id : ids) {
        if (enginePidAlive(ws_.runDirectory(id))) continue;
        MetricIngestor *ingestor = ingestors_.value(id);
        if (ingestor) ingestor->poll(); // may end the run through its terminal event
        if (!foreign_.contains(id)) continue;
        const auto terminal = ingestor ? ingestor->lastTerminalEvent() : std::nullopt;
        if (terminal && !isStaleEvent(id, *terminal) && endByTerminalEvent(id, *terminal)) continue;
        const auto run = store_.run(id);
        detachIngestor(id);
        if (!run || run->state != RunState::Running) continue; // ended by its owner
        const QString message = tr("engine process lost");
        store_.setRunResult(id, {}, {}, message);
        if (moveTo(id, RunState::Failed, message)) Q_EMIT runEnded(id, RunState::Failed);
    }
}

} // namespace diamond::app
