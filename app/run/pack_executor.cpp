#include "app/run/pack_executor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>

namespace diamond::app {

PackingLocalExecutor::PackingLocalExecutor(QObject *parent) : LocalExecutor(parent) {}

PackingLocalExecutor::~PackingLocalExecutor() {
    for (Pack *pack : std::as_const(packs_)) {
        pack->process->disconnect(this);
        if (pack->process->state() != QProcess::NotRunning) {
            pack->process->terminate();
            if (!pack->process->waitForFinished(3000)) pack->process->kill();
            pack->process->waitForFinished(1000);
        }
        delete pack->process;
        delete pack;
    }
}

PackingLocalExecutor::Pack *PackingLocalExecutor::packOf(qint64 runId) const {
    for (Pack *pack : packs_)
        if (pack->runIds.contains(runId) && !pack->finished.contains(runId)) return pack;
    return nullptr;
}

bool PackingLocalExecutor::startBatch(const QList<ExecutionRequest> &requests) {
    error_.clear();
    QList<ExecutionRequest> packable, single;
    for (const ExecutionRequest &r : requests)
        (r.nproc <= 1 && r.initWeights.isEmpty() && r.dataPath.isEmpty() && r.threads == requests.first().threads
             ? packable
             : single)
            .append(r);
    if (packable.size() < 2) {
        single += packable;
        packable.clear();
    }
    bool ok = true;
    for (const ExecutionRequest &r : std::as_const(single))
        ok = start(r) && ok;
    if (packable.isEmpty()) return ok;
    for (const ExecutionRequest &r : std::as_const(packable))
        if (packOf(r.runId) || status(r.runId) != ProcessStatus::NotRunning) {
            error_ = tr("Run %1 is already running.").arg(r.runId);
            return false;
        }
    if (!QFileInfo(enginePath()).isExecutable()) {
        error_ = tr("The training engine %1 was not found (set DIAMOND_TRAIN to its path).").arg(enginePath());
        return false;
    }

    auto *pack = new Pack;
    pack->folder = std::make_shared<QTemporaryDir>();
    QJsonArray trials;
    for (const ExecutionRequest &r : std::as_const(packable)) {
        QFile::remove(QDir(r.runDir).filePath(QStringLiteral("cancel")));
        trials.append(QJsonObject{{QStringLiteral("spec"), r.specPath},
                                  {QStringLiteral("config"), r.configPath},
                                  {QStringLiteral("run_dir"), r.runDir},
                                  {QStringLiteral("resume"), r.resume}});
        pack->runIds.append(r.runId);
        pack->runDirs.insert(r.runId, r.runDir);
    }
    const QString packFile = QDir(pack->folder->path()).filePath(QStringLiteral("pack.json"));
    QFile file(packFile);
    if (!pack->folder->isValid() || !file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("diamond.pack/1")},
                                             {QStringLiteral("trials"), trials}})
                       .toJson()) <= 0) {
        error_ = tr("Cannot write the trial pack file %1.").arg(packFile);
        delete pack;
        return false;
    }
    file.close();

    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::Pack;
    command.trialsFile = packFile;
    command.threads = packable.first().threads;
    const QStringList args = command.arguments();
    pack->process = new QProcess(this);
    pack->process->setProgram(enginePath());
    pack->process->setArguments(args);
    pack->process->setWorkingDirectory(pack->folder->path());
    packs_.append(pack);
    ++packsStarted_;
    connect(pack->process, &QProcess::readyReadStandardOutput, this, [this, pack] { onPackOutput(pack); });
    connect(pack->process, &QProcess::readyReadStandardError, this, [pack] {
        pack->stderrTail = QByteArray(pack->stderrTail + pack->process->readAllStandardError()).right(8192);
    });
    connect(pack->process, &QProcess::finished, this, [this, pack](int code, QProcess::ExitStatus status) {
        onPackFinished(pack, code, status == QProcess::CrashExit);
    });
    connect(pack->process, &QProcess::errorOccurred, this, [this, pack](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        pack->stderrTail += tr("Cannot start %1: %2").arg(enginePath(), pack->process->errorString()).toUtf8();
        onPackFinished(pack, -1, true);
    });
    for (qint64 id : std::as_const(pack->runIds))
        Q_EMIT statusChanged(id, ProcessStatus::Starting);
    pack->process->start();
    return ok;
}

void PackingLocalExecutor::onPackOutput(Pack *pack) {
    pack->stdoutBuffer += pack->process->readAllStandardOutput();
    int newline;
    while ((newline = int(pack->stdoutBuffer.indexOf('\n'))) >= 0) {
        const QByteArray line = pack->stdoutBuffer.left(newline);
        pack->stdoutBuffer.remove(0, newline + 1);
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        const int index = e.value(QStringLiteral("index")).toInt(-1);
        if (index < 0 || index >= pack->runIds.size()) continue;
        const qint64 runId = pack->runIds[index];
        const QString kind = e.value(QStringLiteral("event")).toString();
        if (kind == QLatin1String("trial_start")) {
            pack->current = runId;
            Q_EMIT statusChanged(runId, ProcessStatus::Running);
            // Cancelled while it was waiting, but the pack had already passed the cancel file check.
            if (pack->cancelled.contains(runId)) ::kill(pid_t(pack->process->processId()), SIGUSR2);
        } else if (kind == QLatin1String("trial_exit") && !pack->finished.contains(runId)) {
            pack->finished.insert(runId);
            if (pack->current == runId) pack->current = 0;
            const bool skipped = e.value(QStringLiteral("skipped")).toBool();
            const int code = skipped ? 1 : e.value(QStringLiteral("exit_code")).toInt(1);
            Q_EMIT statusChanged(runId, ProcessStatus::NotRunning);
            Q_EMIT processExited(runId, code, false, pack->cancelled.contains(runId) || skipped,
                                 skipped ? tr("Skipped: %1").arg(e.value(QStringLiteral("reason")).toString())
                                         : QString());
        }
    }
}

void PackingLocalExecutor::onPackFinished(Pack *pack, int exitCode, bool) {
    onPackOutput(pack);
    packs_.removeOne(pack);
    const QString tail =
        QString::fromUtf8(QByteArray(pack->stderrTail + pack->process->readAllStandardError())).trimmed();
    for (qint64 id : std::as_const(pack->runIds)) {
        if (pack->finished.contains(id)) continue;
        Q_EMIT statusChanged(id, ProcessStatus::NotRunning);
        Q_EMIT processExited(id, exitCode, true, pack->cancelled.contains(id), tail);
    }
    pack->process->deleteLater();
    delete pack;
}

bool PackingLocalExecutor::cancel(qint64 runId) {
    Pack *pack = packOf(runId);
    if (!pack) return LocalExecutor::cancel(runId);
    pack->cancelled.insert(runId);
    Q_EMIT statusChanged(runId, ProcessStatus::Stopping);
    if (pack->current == runId) {
        ::kill(pid_t(pack->process->processId()), SIGUSR2); // checkpoint this trial, go on with the next
    } else {
        QFile marker(QDir(pack->runDirs.value(runId)).filePath(QStringLiteral("cancel")));
        if (marker.open(QIODevice::WriteOnly)) marker.write("cancelled\n");
    }
    return true;
}

ProcessStatus PackingLocalExecutor::status(qint64 runId) const {
    if (Pack *pack = packOf(runId)) {
        if (pack->cancelled.contains(runId)) return ProcessStatus::Stopping;
        return pack->current == runId ? ProcessStatus::Running : ProcessStatus::Starting;
    }
    return LocalExecutor::status(runId);
}

qint64 PackingLocalExecutor::processId(qint64 runId) const {
    if (Pack *pack = packOf(runId)) return pack->process->processId();
    return LocalExecutor::processId(runId);
}

} // namespace diamond::app
