#include "app/run/server_executor.h"

#include "app/run/run_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ServerExecutor", text); }

const QString kRecordFile = QStringLiteral("server-run.json");

QJsonObject readObject(const QString &path, QString *error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(path, f.errorString());
        return {};
    }
    if (f.size() > kMaxServerReplyBytes) {
        *error = tr("%1 is larger than 8 MiB.").arg(path);
        return {};
    }
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    if (!doc.isObject()) *error = tr("%1 is not a JSON object.").arg(path);
    return doc.object();
}

bool isTerminal(const QString &state) {
    return state == QLatin1String("finished") || state == QLatin1String("failed") ||
           state == QLatin1String("cancelled") || state == QLatin1String("preempted");
}

} // namespace

ServerExecutor::ServerExecutor(ClassServer server, QObject *parent)
    : Executor(parent), server_(std::move(server)), client_(new ClassServerClient(server_.url, server_.token, this)) {}

void ServerExecutor::setRunLabels(qint64 runId, const QString &project, const QString &name,
                                  const QString &remoteTarget) {
    labels_.insert(runId, {project, name, remoteTarget});
}

bool ServerExecutor::saveRecord(qint64 runId) {
    const Job &job = jobs_.value(runId);
    QSaveFile f(QDir(job.runDir).filePath(kRecordFile));
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("server"), server_.url.toString()},
                                      {QStringLiteral("user"), server_.user},
                                      {QStringLiteral("remote_run"), job.remoteId},
                                      {QStringLiteral("offset"), job.offset}})
                .toJson());
    return f.commit();
}

bool ServerExecutor::start(const ExecutionRequest &request) {
    error_.clear();
    if (request.resume) {
        error_ = tr("Runs on a class server are resumed on the server (diamondctl or the REST API).");
        return false;
    }
    QString error;
    const QJsonObject spec = readObject(request.specPath, &error);
    const QJsonObject config = error.isEmpty() ? readObject(request.configPath, &error) : QJsonObject();
    if (!error.isEmpty()) {
        error_ = error;
        return false;
    }
    const Labels labels = labels_.value(request.runId);
    QJsonObject body{
        {QStringLiteral("spec"), spec},
        {QStringLiteral("config"), config},
        {QStringLiteral("target"), labels.remoteTarget.isEmpty() ? QStringLiteral("local") : labels.remoteTarget}};
    if (!labels.project.isEmpty()) body.insert(QStringLiteral("project"), labels.project);
    if (!labels.name.isEmpty()) body.insert(QStringLiteral("name"), labels.name);
    if (request.threads > 0)
        body.insert(QStringLiteral("execution"), QJsonObject{{QStringLiteral("threads"), request.threads}});
    Job job;
    job.runDir = request.runDir;
    job.status = ProcessStatus::Starting;
    jobs_.insert(request.runId, job);
    const qint64 runId = request.runId;
    client_->send("POST", QStringLiteral("/api/v1/runs"), body, [this, runId](const ClassServerClient::Answer &a) {
        if (!jobs_.contains(runId)) return;
        if (!a.ok() || a.json.value(QStringLiteral("id")).toInteger() <= 0) {
            jobs_.remove(runId);
            Q_EMIT statusChanged(runId, ProcessStatus::NotRunning);
            Q_EMIT processExited(runId, 1, true, false,
                                 a.ok() ? tr("The class server did not return the new run.") : a.error);
            return;
        }
        Job &j = jobs_[runId];
        j.remoteId = a.json.value(QStringLiteral("id")).toInteger();
        j.status = ProcessStatus::Running;
        saveRecord(runId);
        Q_EMIT statusChanged(runId, ProcessStatus::Running);
        if (j.cancelRequested) cancel(runId);
        poll(runId);
    });
    Q_EMIT statusChanged(runId, ProcessStatus::Starting);
    return true;
}

bool ServerExecutor::adopt(const ExecutionRequest &request) {
    error_.clear();
    QString error;
    const QJsonObject record = readObject(QDir(request.runDir).filePath(kRecordFile), &error);
    if (!error.isEmpty()) return error_ = error, false;
    if (QUrl(record.value(QStringLiteral("server")).toString()) != server_.url ||
        record.value(QStringLiteral("user")).toString() != server_.user)
        return error_ = tr("Run %1 was started on %2 as %3; sign in there to follow it.")
                            .arg(request.runId)
                            .arg(record.value(QStringLiteral("server")).toString(),
                                 record.value(QStringLiteral("user")).toString()),
               false;
    Job job;
    job.runDir = request.runDir;
    job.remoteId = record.value(QStringLiteral("remote_run")).toInteger();
    // The local events.jsonl is a prefix of the server's: continue from its size.
    job.offset = QFileInfo(QDir(request.runDir).filePath(QStringLiteral("events.jsonl"))).size();
    job.status = ProcessStatus::Running;
    if (job.remoteId <= 0) return error_ = tr("%1 names no run.").arg(kRecordFile), false;
    jobs_.insert(request.runId, job);
    poll(request.runId);
    return true;
}

void ServerExecutor::schedulePoll(qint64 runId) {
    QTimer::singleShot(pollMs_, this, [this, runId] { poll(runId); });
}

void ServerExecutor::poll(qint64 runId) {
    auto it = jobs_.find(runId);
    if (it == jobs_.end() || it->polling || it->remoteId <= 0) return;
    it->polling = true;
    const QString path = QStringLiteral("/api/v1/runs/%1/events?offset=%2").arg(it->remoteId).arg(it->offset);
    client_->send("GET", path, {}, [this, runId](const ClassServerClient::Answer &a) {
        auto job = jobs_.find(runId);
        if (job == jobs_.end()) return;
        job->polling = false;
        if (!a.ok()) {
            // Not reachable for a moment (a laptop on Wi-Fi): keep trying; a refusal ends the run.
            if (a.status == 401 || a.status == 403 || a.status == 404)
                return finish(runId, QStringLiteral("failed"), a.error);
            return schedulePoll(runId);
        }
        if (!a.body.isEmpty()) {
            QFile events(QDir(job->runDir).filePath(QStringLiteral("events.jsonl")));
            if (!events.open(QIODevice::Append) || events.write(a.body) != a.body.size())
                return finish(runId, QStringLiteral("failed"),
                              tr("Cannot write %1: %2").arg(events.fileName(), events.errorString()));
        }
        bool ok = false;
        const qint64 next = a.nextOffset.toLongLong(&ok);
        const bool advanced = ok && next > job->offset;
        if (advanced) {
            job->offset = next;
            saveRecord(runId);
        }
        const QString state = QString::fromLatin1(a.runState);
        if (isTerminal(state) && !advanced) return finish(runId, state, {});
        schedulePoll(runId);
    });
}

void ServerExecutor::finish(qint64 runId, const QString &state, const QString &message) {
    const Job job = jobs_.take(runId);
    Q_EMIT statusChanged(runId, ProcessStatus::NotRunning);
    const bool cancelled = state == QLatin1String("cancelled");
    const int exitCode = state == QLatin1String("finished")    ? 0
                         : state == QLatin1String("preempted") ? kPreemptedExitCode
                                                               : 1;
    Q_EMIT processExited(runId, exitCode, false, cancelled || job.cancelRequested,
                         message.isEmpty() && exitCode == 1 ? tr("The run failed on the class server.") : message);
}

qint64 ServerExecutor::remoteRunId(const QString &runDir) {
    QString error;
    return readObject(QDir(runDir).filePath(kRecordFile), &error).value(QStringLiteral("remote_run")).toInteger();
}

void ServerExecutor::publish(const QString &runDir, const QJsonObject &options,
                             std::function<void(const QJsonObject &, const QString &)> done) {
    const qint64 remote = remoteRunId(runDir);
    if (remote <= 0) {
        done({}, tr("This run has no run on the class server (%1 is missing).").arg(kRecordFile));
        return;
    }
    client_->send("POST", QStringLiteral("/api/v1/runs/%1/publish").arg(remote), options,
                  [done](const ClassServerClient::Answer &a) {
                      if (a.status == 403)
                          done({}, tr("The class server does not let you publish yet; ask your instructor "
                                      "(diamondctl user update NAME --publish)."));
                      else
                          done(a.json, a.error);
                  });
}

bool ServerExecutor::cancel(qint64 runId) {
    auto it = jobs_.find(runId);
    if (it == jobs_.end()) return error_ = tr("Run %1 is not running on the class server.").arg(runId), false;
    it->cancelRequested = true;
    if (it->remoteId <= 0) return true; // sent once the server has created it
    client_->send("POST", QStringLiteral("/api/v1/runs/%1/cancel").arg(it->remoteId), {},
                  [](const ClassServerClient::Answer &) {});
    it->status = ProcessStatus::Stopping;
    Q_EMIT statusChanged(runId, ProcessStatus::Stopping);
    return true;
}

ProcessStatus ServerExecutor::status(qint64 runId) const {
    return jobs_.contains(runId) ? jobs_.value(runId).status : ProcessStatus::NotRunning;
}

} // namespace diamond::app
