// ClusterWorker: the half of ClusterExecutor that lives on the cluster link's thread and makes every blocking call
// (staging, submission, polling, cancel, checkpoint fetch). Internal to app/cluster: included only by
// cluster_executor.cpp; see cluster_executor.h for the contract.
#pragma once

#include "app/cluster/cluster_executor.h"

#include "app/cluster/cluster_job_record.h"

#include "app/data/dataset_stager.h"

#include "app/run/event_log.h"
#include "app/run/run_store.h"
#include "remote/command_runner.h"
#include "remote/scheduler.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>
#include <QRegularExpression>
#include <QSet>
#include <QTimer>

namespace diamond::app {

namespace cluster_detail {

constexpr qint64 kReadChunk = 1 << 20;
/// No engine writes that much; a cluster that does is not followed further (the local disk is not filled).
constexpr qint64 kMaxEventsBytes = qint64(4) << 30;
constexpr qint64 kMaxConfigBytes = 16 << 20; ///< a run.json read for its device

inline QByteArray fileSha256(const QString &path) {
    QFile f(path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!f.open(QIODevice::ReadOnly) || !hash.addData(&f)) return {};
    return hash.result().toHex();
}

} // namespace cluster_detail

using namespace cluster_detail;

/// Lives on the executor's worker thread; owns the CommandRunner and the scheduler. Reports back by queuing
/// functors onto the executor (a plain QObject: no signals of its own).
class ClusterWorker : public QObject {
public:
    struct Job {
        ExecutionRequest request;
        remote::JobRequest job;
        QString remoteDir;
        QString currentJobId;
        int attempt = 0;   ///< number of the newest attempt script in the run folder (all starts of the run)
        int submitted = 0; ///< attempts submitted since this start()
        qint64 offset = 0; ///< bytes of the remote events.jsonl copied into the local one
        bool cancelRequested = false;
        bool reportedRunning = false;
        remote::JobPhase phase = remote::JobPhase::Unknown;
        QString reason;
        QElapsedTimer sinceStatePoll;
        QString lastTransientError;
        QByteArray partialLine;      ///< fetched bytes after the last newline
        bool engineError = false;    ///< the current attempt wrote an `error` event
        bool eventsOverflow = false; ///< the cluster's events file passed kMaxEventsBytes
        QString dataPath;            ///< --data-path: the staged dataset on the cluster (empty: none)
        QStringList queuedLinks;     ///< later links of the planned chain, submitted and waiting, in order
    };

    ClusterWorker(ClusterExecutor *executor, ClusterLink *link, remote::ClusterProfile profile)
        : executor_(executor), link_(link), profile_(std::move(profile)) {}

    void setIntervals(int eventsMs, int schedulerMs, int maxContinuations, bool fetchCheckpoints) {
        fetchCheckpoints_ = fetchCheckpoints;
        eventsMs_ = eventsMs;
        schedulerMs_ = schedulerMs;
        maxContinuations_ = maxContinuations;
    }

    void startJob(const ExecutionRequest &request, const remote::JobRequest &job) {
        Job j;
        j.request = request;
        j.job = job;
        QString error;
        if (!connect(ClusterLink::Access::Interactive, &error) || !stage(j, &error) || !submit(j, &error)) {
            finish(request.runId, -1, true, j.cancelRequested || cancelledEarly_.remove(request.runId), error);
            return;
        }
        alive();
        const qint64 runId = request.runId;
        jobs_.insert(runId, j);
        if (cancelledEarly_.remove(runId)) cancelJob(runId);
        ensureTimer();
    }

    /// Follows a job submitted by another ClusterExecutor (another process, or before a restart), from the
    /// record submit() left in <run-dir>/cluster-job.json. The local events.jsonl's size is the offset.
    void adoptJob(const ExecutionRequest &request, const remote::JobRequest &job, const QString &remoteDir,
                  const QString &jobId, int attempt, const QString &dataPath, const QStringList &queuedLinks) {
        Job j;
        j.queuedLinks = queuedLinks;
        j.dataPath = dataPath;
        j.request = request;
        j.job = job;
        j.remoteDir = remoteDir;
        j.currentJobId = jobId;
        j.attempt = attempt;
        j.submitted = 1; // a later continuation resumes
        j.offset = QFileInfo(QDir(request.runDir).filePath(QStringLiteral("events.jsonl"))).size();
        j.phase = remote::JobPhase::Unknown;
        jobs_.insert(request.runId, j);
        // The process that submitted a chain may have ended before the front ends recorded its queued jobs.
        post([e = executor_, runId = request.runId, remoteDir, jobId, queuedLinks, attempt] {
            e->remoteDirs_.insert(runId, remoteDir);
            e->jobIds_[runId] << jobId;
            Q_EMIT e->jobSubmitted(runId, jobId, attempt > 1);
            for (const QString &link : queuedLinks) {
                e->jobIds_[runId] << link;
                Q_EMIT e->jobSubmitted(runId, link, true);
            }
        });
        ensureTimer();
    }

    void cancelJob(qint64 runId) {
        auto it = jobs_.find(runId);
        if (it == jobs_.end()) {
            cancelledEarly_.insert(runId); // still staging: cancel once submitted
            return;
        }
        it->cancelRequested = true;
        writeJobRecord(*it);
        QString error;
        // The queued links first: the cancelled engine checkpoints and exits 85, which would start the next one.
        if (connect(ClusterLink::Access::Interactive, &error)) cancelQueuedLinks(*it);
        if (!error.isEmpty() || !scheduler_->cancel(it->currentJobId, &error)) {
            it->cancelRequested = false;
            writeJobRecord(*it);
            post([e = executor_, runId, error] { e->onCancelFailed(runId, error); });
        }
    }

    /// Stops following the run's job without contacting the cluster (the executor has ended the run already).
    void abandonJob(qint64 runId) { jobs_.remove(runId); }

    void shutdown() {
        if (timer_) timer_->stop();
        scheduler_ = nullptr;
        runner_ = nullptr;
    }

private:
    template <typename F> void post(F &&f) {
        QMetaObject::invokeMethod(executor_, std::forward<F>(f), Qt::QueuedConnection);
    }

    void note(qint64 runId, const QString &text) {
        post([e = executor_, runId, text] { Q_EMIT e->message(runId, text); });
    }
    void status(qint64 runId, ProcessStatus s) {
        post([e = executor_, runId, s] { e->onStatus(runId, int(s)); });
    }
    void finish(qint64 runId, int exitCode, bool crashed, bool cancelled, const QString &message) {
        post([e = executor_, runId, exitCode, crashed, cancelled, message] {
            e->onFinished(runId, exitCode, crashed, cancelled, message);
        });
    }

    /// The link's runner and scheduler for the work that follows (connecting, and prompting per `access`).
    bool connect(ClusterLink::Access access, QString *error) {
        runner_ = link_->runner(error, access);
        scheduler_ = runner_ ? link_->scheduler(error, access) : nullptr;
        return scheduler_ != nullptr;
    }

    void ensureTimer() {
        if (!timer_) {
            timer_ = new QTimer(this);
            QObject::connect(timer_, &QTimer::timeout, this, [this] { pollAll(); });
        }
        if (!timer_->isActive()) timer_->start(eventsMs_);
    }

    QString tr(const char *text) const { return QCoreApplication::translate("diamond::app::ClusterExecutor", text); }

    /// Resolves a leading "~" of the scratch folder (job script directives need absolute paths).
    bool resolveScratch(QString *error) {
        if (!profile_.scratchDir.startsWith(QLatin1Char('~'))) return true;
        const remote::CommandResult r = runner_->run(QStringLiteral("printf %s \"$HOME\""));
        if (!r.ok() || r.stdoutData.isEmpty()) {
            *error = tr("Cannot find the home folder on %1: %2")
                         .arg(runner_->describe(), r.error + QString::fromUtf8(r.stderrData));
            return false;
        }
        profile_.scratchDir = QString::fromUtf8(r.stdoutData) + profile_.scratchDir.mid(1);
        return true;
    }

    bool stage(Job &j, QString *error) {
        if (!resolveScratch(error)) return false;
        const QString key = QStringLiteral("%1-%2").arg(
            QString::fromLatin1(QCryptographicHash::hash(QFileInfo(j.request.runDir).absoluteFilePath().toUtf8(),
                                                         QCryptographicHash::Sha256)
                                    .toHex()
                                    .left(10)),
            QString::number(j.request.runId));
        j.remoteDir = profile_.remoteRunDir(key);
        post([e = executor_, runId = j.request.runId, dir = j.remoteDir] { e->remoteDirs_.insert(runId, dir); });
        const QString dir = remote::shellWord(j.remoteDir);
        // Hashes of the staged files, and the numbers of earlier attempt scripts (a resumed run continues them).
        remote::CommandResult r =
            runner_->run(QStringLiteral("mkdir -p %1 && cd %1 && { sha256sum spec.json run.json 2>/dev/null; "
                                        "ls -1 | sed -n 's/^attempt-\\([0-9]*\\)[.]sh$/attempt \\1/p'; "
                                        "[ -f events.jsonl ] && echo \"events $(wc -c < events.jsonl)\"; true; }")
                             .arg(dir));
        if (!r.ok()) {
            *error = tr("Cannot create the run folder %1 on %2: %3")
                         .arg(j.remoteDir, runner_->describe(), r.error + QString::fromUtf8(r.stderrData).trimmed());
            return false;
        }
        QHash<QString, QByteArray> remoteHashes;
        qint64 remoteEventBytes = 0;
        for (const QByteArray &line : r.stdoutData.split('\n')) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (parts.size() == 2 && parts[0] == "attempt")
                j.attempt = std::max(j.attempt, parts[1].toInt());
            else if (parts.size() == 2 && parts[0] == "events")
                remoteEventBytes = parts[1].toLongLong();
            else if (parts.size() == 2)
                remoteHashes.insert(QString::fromUtf8(parts[1]), parts[0]);
        }
        QStringList skipped;
        for (const auto &[name, local] : {std::pair{QStringLiteral("spec.json"), j.request.specPath},
                                          std::pair{QStringLiteral("run.json"), j.request.configPath}}) {
            const QByteArray hash = fileSha256(local);
            if (hash.isEmpty()) {
                *error = tr("Cannot read %1").arg(local);
                return false;
            }
            const QString target = j.remoteDir + QLatin1Char('/') + name;
            if (remoteHashes.value(name) == hash) {
                skipped << name;
                continue;
            }
            runner_->run(QStringLiteral("rm -f %1").arg(remote::shellWord(target))); // upload() resumes partial files
            if (!runner_->upload(local, target, error)) return false;
            const remote::CommandResult check =
                runner_->run(QStringLiteral("sha256sum %1").arg(remote::shellWord(target)));
            if (!check.stdoutData.startsWith(hash)) {
                *error = tr("%1 arrived damaged on %2 (SHA-256 differs).").arg(target, runner_->describe());
                return false;
            }
        }
        if (!skipped.isEmpty())
            note(j.request.runId,
                 tr("Unchanged on the cluster, not sent again: %1").arg(skipped.join(QStringLiteral(", "))));
        if (j.request.dataset && !stageDataset(j, error)) return false;
        // The local events.jsonl is a prefix of the remote one: continue after what is here already.
        j.offset = QFileInfo(QDir(j.request.runDir).filePath(QStringLiteral("events.jsonl"))).size();
        if (remoteEventBytes == 0 && j.offset > 0 && j.request.resume) {
            // The run trained elsewhere until now (another cluster, this computer): continue from here.
            if (!seedFromHere(j, error)) return false;
            remoteEventBytes = j.offset;
        }
        if (remoteEventBytes < j.offset) {
            *error = tr("The cluster's copy of this run (%1) has fewer events than this computer (%2 of %3 bytes); "
                        "was its folder removed or the scratch folder changed?")
                         .arg(j.remoteDir)
                         .arg(remoteEventBytes)
                         .arg(j.offset);
            return false;
        }
        return true;
    }

    /// Uploads `local` to `remote` (replacing it) and checks its SHA-256 there.
    bool uploadVerified(const QString &local, const QString &remote, QString *error) {
        const QByteArray hash = fileSha256(local);
        if (hash.isEmpty()) return *error = tr("Cannot read %1").arg(local), false;
        runner_->run(QStringLiteral("rm -f %1").arg(remote::shellWord(remote))); // upload() resumes partial files
        if (!runner_->upload(local, remote, error)) return false;
        const remote::CommandResult check = runner_->run(QStringLiteral("sha256sum %1").arg(remote::shellWord(remote)));
        if (!check.stdoutData.startsWith(hash))
            return *error = tr("%1 arrived damaged on %2 (SHA-256 differs).").arg(remote, runner_->describe()), false;
        return true;
    }

    /// Continues a run that trained elsewhere: this computer's events.jsonl (cut to its last complete line, so that
    /// it stays a prefix of what the engine appends here) and newest checkpoint go into the empty run folder.
    bool seedFromHere(Job &j, QString *error) {
        const QString events = QDir(j.request.runDir).filePath(QStringLiteral("events.jsonl"));
        QFile f(events);
        if (!f.open(QIODevice::ReadWrite)) return *error = tr("Cannot open %1: %2").arg(events, f.errorString()), false;
        qint64 end = f.size();
        const qint64 chunk = 65536;
        qint64 keep = 0;
        while (end > 0 && keep == 0) {
            const qint64 from = std::max<qint64>(0, end - chunk);
            f.seek(from);
            const QByteArray data = f.read(end - from);
            const qsizetype nl = data.lastIndexOf('\n');
            if (nl >= 0) keep = from + nl + 1;
            end = from;
        }
        if (keep < f.size() && !f.resize(keep))
            return *error = tr("Cannot cut %1 to its last complete line: %2").arg(events, f.errorString()), false;
        f.close();
        if (!uploadVerified(events, j.remoteDir + QStringLiteral("/events.jsonl"), error)) return false;
        j.offset = keep;
        const QDir localCheckpoints(QDir(j.request.runDir).filePath(QStringLiteral("checkpoints")));
        const QStringList checkpoints = localCheckpoints.entryList({QStringLiteral("*.pt")}, QDir::Files, QDir::Name);
        QString sent = tr("none (the engine starts from the beginning)");
        if (!checkpoints.isEmpty()) {
            const QString remoteDir = j.remoteDir + QStringLiteral("/checkpoints");
            const remote::CommandResult r =
                runner_->run(QStringLiteral("mkdir -p %1").arg(remote::shellWord(remoteDir)));
            if (!r.ok())
                return *error = tr("Cannot create %1 on %2: %3")
                                    .arg(remoteDir, runner_->describe(), QString::fromUtf8(r.stderrData).trimmed()),
                       false;
            if (!uploadVerified(localCheckpoints.filePath(checkpoints.last()),
                                remoteDir + QLatin1Char('/') + checkpoints.last(), error))
                return false;
            sent = checkpoints.last();
        }
        note(j.request.runId, tr("The run continues on %1 from this computer's copy: %2 KiB of events and checkpoint "
                                 "%3 sent, verified by SHA-256.")
                                  .arg(runner_->describe())
                                  .arg(double(keep) / 1024.0, 0, 'f', 1)
                                  .arg(sent));
        return true;
    }

    /// Puts the run's registered dataset into the cluster's dataset cache (app/data/dataset_stager.h), with
    /// progress notes; the engine gets its path with --data-path.
    bool stageDataset(Job &j, QString *error) {
        const DatasetVersion &version = *j.request.dataset;
        const qint64 runId = j.request.runId;
        ChunkStore store(j.request.datasetChunks);
        DatasetStager stager(*runner_, profile_.scratchDir + QStringLiteral("/datasets"));
        note(runId, tr("Staging dataset %1 (%2 files, %3 MiB) to %4")
                        .arg(version.ref())
                        .arg(version.fileCount)
                        .arg(double(version.sizeBytes) / 1048576.0, 0, 'f', 1)
                        .arg(runner_->describe()));
        QElapsedTimer lastNote, lastProgress;
        lastNote.start();
        lastProgress.start();
        QString lastPhase;
        const auto staged = stager.stage(
            version, store,
            [&](qint64 sent, qint64 toSend, const QString &phase) {
                if (phase != lastPhase || lastProgress.elapsed() >= 200) {
                    alive();
                    lastPhase = phase;
                    lastProgress.restart();
                    post([e = executor_, runId, sent, toSend, phase] {
                        Q_EMIT e->datasetStaging(runId, sent, toSend, phase);
                    });
                }
                if (phase == QLatin1String("sending") && lastNote.elapsed() >= 1000) {
                    lastNote.restart();
                    note(runId, tr("Staging dataset %1: %2 of %3 MiB sent")
                                    .arg(version.ref())
                                    .arg(double(sent) / 1048576.0, 0, 'f', 1)
                                    .arg(double(toSend) / 1048576.0, 0, 'f', 1));
                }
                return !j.cancelRequested;
            },
            error);
        post([e = executor_, runId, ok = staged.has_value()] {
            Q_EMIT e->datasetStaging(runId, 0, 0, ok ? QStringLiteral("done") : QStringLiteral("failed"));
        });
        if (!staged) {
            *error = tr("Cannot stage the dataset %1: %2").arg(version.ref(), *error);
            return false;
        }
        note(runId, staged->alreadyStaged
                        ? tr("Dataset %1 is already on the cluster (verified copy); nothing sent.").arg(version.ref())
                        : tr("Dataset %1 staged: %2 of %3 MiB sent in %4 s, every file verified by SHA-256.")
                              .arg(version.ref())
                              .arg(double(staged->payloadBytes) / 1048576.0, 0, 'f', 1)
                              .arg(double(staged->bytesTotal) / 1048576.0, 0, 'f', 1)
                              .arg(staged->seconds, 0, 'f', 1));
        j.dataPath = DatasetStore::dataPathIn(staged->remoteDir, version, j.request.datasetRelative);
        return true;
    }

    /// Renders and submits attempt number `attempt` of the run; the job id, or nothing with *error.
    std::optional<QString> submitAttempt(const Job &j, int attempt, const QString &after, bool resume,
                                         const QString &previousExitFile, QString *error) {
        remote::JobRequest job = j.job;
        const QString dir = j.remoteDir;
        job.jobName = QStringLiteral("diamond-run-%1").arg(j.request.runId);
        job.workDir = dir;
        job.outputPath = dir + (profile_.scheduler == remote::SchedulerKind::Slurm ? QStringLiteral("/slurm-%j.out")
                                                                                   : QStringLiteral("/scheduler.out"));
        job.exitFile = attemptExitFile(j, attempt);
        job.previousExitFile = previousExitFile;
        job.engine.runDir = dir;
        job.engine.specPath = dir + QStringLiteral("/spec.json");
        job.engine.configPath = dir + QStringLiteral("/run.json");
        job.engine.resume = resume;
        job.engine.dataPath = j.dataPath;
        if (!after.isEmpty()) job.afterAny = {after};
        const QString script = scheduler_->renderScript(job, error);
        if (script.isEmpty()) return std::nullopt;
        const QString scriptPath = dir + QStringLiteral("/attempt-%1.sh").arg(attempt);
        const remote::CommandResult w =
            runner_->run(QStringLiteral("cat > %1").arg(remote::shellWord(scriptPath)), script.toUtf8());
        if (!w.ok()) {
            *error = tr("Cannot write %1: %2").arg(scriptPath, w.error + QString::fromUtf8(w.stderrData).trimmed());
            return std::nullopt;
        }
        return scheduler_->submit(scriptPath, error);
    }

    static QString attemptExitFile(const Job &j, int attempt) {
        return j.remoteDir + QStringLiteral("/attempt-%1.exit").arg(attempt);
    }

    /// Submits the next attempt (the first of this start, or a continuation after exit 85). The first one of a
    /// start with job.chainJobs > 1 also queues the rest of the chain behind it (afterany, each guarded by the
    /// previous link's exit file), so that the run goes on with no Diamond process following it.
    bool submit(Job &j, QString *error) {
        const bool continuation = j.submitted > 0;
        if (continuation) settlePhase(j, tr("checkpointed; a continuation follows"));
        ++j.attempt;
        j.engineError = false;
        const auto id = submitAttempt(j, j.attempt, continuation ? j.currentJobId : QString(),
                                      j.request.resume || continuation, {}, error);
        if (!id) return false;
        j.currentJobId = *id;
        j.reportedRunning = false;
        j.phase = remote::JobPhase::Pending;
        j.sinceStatePoll.invalidate();
        ++j.submitted;
        post([e = executor_, runId = j.request.runId, jobId = *id, continuation] {
            e->jobIds_[runId] << jobId;
            Q_EMIT e->jobSubmitted(runId, jobId, continuation);
        });
        if (!continuation) {
            for (int link = 2; link <= j.job.chainJobs; ++link) {
                const int attempt = j.attempt + link - 1;
                QString linkError;
                const auto linkId =
                    submitAttempt(j, attempt, j.queuedLinks.isEmpty() ? j.currentJobId : j.queuedLinks.last(), true,
                                  attemptExitFile(j, attempt - 1), &linkError);
                if (!linkId) {
                    note(j.request.runId, tr("Link %1 of the chain was not submitted (%2): continuations are "
                                             "submitted while Diamond follows the run.")
                                              .arg(link)
                                              .arg(linkError));
                    break;
                }
                j.queuedLinks << *linkId;
                post([e = executor_, runId = j.request.runId, jobId = *linkId] {
                    e->jobIds_[runId] << jobId;
                    Q_EMIT e->jobSubmitted(runId, jobId, true);
                });
            }
        }
        writeJobRecord(j);
        return true;
    }

    /// Front ends show a run's oldest job that has not ended (ClusterJobStore::current()): when the current job ends
    /// without the scheduler saying so (it forgot the job), say so before the next one becomes current.
    void settlePhase(const Job &j, const QString &reason) {
        if (remote::isTerminal(j.phase)) return;
        post([e = executor_, runId = j.request.runId, jobId = j.currentJobId, reason] {
            Q_EMIT e->jobPhaseChanged(runId, jobId, remote::jobPhaseName(remote::JobPhase::Completed), reason);
        });
    }

    /// The current link ended so that the next one resumes (remote::chainLinkContinues()), and that one is already
    /// queued: follow it.
    void advanceToQueuedLink(Job &j) {
        settlePhase(j, tr("ended; the chain goes on"));
        const QString previous = j.currentJobId;
        j.currentJobId = j.queuedLinks.takeFirst();
        ++j.attempt;
        j.engineError = false;
        j.reportedRunning = false;
        j.phase = remote::JobPhase::Pending;
        j.sinceStatePoll.invalidate();
        writeJobRecord(j);
        note(j.request.runId, tr("Job %1 ended: the chain goes on with job %2.").arg(previous, j.currentJobId));
    }

    /// Cancels the links that are still queued (the run ended or is cancelled); they would not run the engine.
    void cancelQueuedLinks(Job &j) {
        for (const QString &id : std::as_const(j.queuedLinks)) {
            QString error;
            if (!scheduler_->cancel(id, &error))
                note(j.request.runId, tr("Queued job %1 of the chain was not cancelled: %2").arg(id, error));
            post([e = executor_, runId = j.request.runId, id, reason = tr("not needed: the run has ended")] {
                Q_EMIT e->jobPhaseChanged(runId, id, remote::jobPhaseName(remote::JobPhase::Cancelled), reason);
            });
        }
        j.queuedLinks.clear();
    }

    /// The job record (ClusterJobRecord) of the run as it stands.
    void writeJobRecord(const Job &j) {
        ClusterJobRecord record;
        record.profile = profile_.name;
        record.jobId = j.currentJobId;
        record.remoteDir = j.remoteDir;
        record.attempt = j.attempt;
        record.cancelRequested = j.cancelRequested;
        record.dataPath = j.dataPath;
        record.queuedLinks = j.queuedLinks;
        record.write(j.request.runDir);
    }

    /// True when the job record says another process asked to cancel the current job.
    static bool cancelRequestedElsewhere(const Job &j) {
        const auto record = ClusterJobRecord::read(j.request.runDir);
        return record && record->jobId == j.currentJobId && record->cancelRequested;
    }

    /// A poll of the run failed: the executor keeps the error for its unreachable() report.
    void noteUnanswered(qint64, Job &, const QString &error) {
        post([e = executor_, error] { e->lastProblem_ = error; });
    }
    /// The cluster answered (the executor's watchdog measures silence from here).
    void alive() {
        post([e = executor_] { e->onAlive(); });
    }

    /// Copies new bytes of the remote events.jsonl; false on a (transient) read error.
    bool fetchEvents(Job &j) {
        const QString remotePath = j.remoteDir + QStringLiteral("/events.jsonl");
        const QString localPath = QDir(j.request.runDir).filePath(QStringLiteral("events.jsonl"));
        for (;;) {
            QString error;
            const QByteArray data = runner_->readFrom(remotePath, j.offset, kReadChunk, &error);
            if (!error.isEmpty()) {
                if (error != j.lastTransientError) note(j.request.runId, error);
                j.lastTransientError = error;
                return false;
            }
            j.lastTransientError.clear();
            if (data.isEmpty()) return true;
            if (j.offset + data.size() > kMaxEventsBytes) {
                j.eventsOverflow = true;
                return true;
            }
            QFile local(localPath);
            if (!local.open(QIODevice::Append) || local.write(data) != data.size()) {
                note(j.request.runId, tr("Cannot append to %1: %2").arg(localPath, local.errorString()));
                return false;
            }
            j.offset += data.size();
            noteEngineErrors(j, data);
            if (data.size() < kReadChunk) return true;
        }
    }

    /// Sets engineError when a complete line among the fetched bytes is an `error` event.
    static void noteEngineErrors(Job &j, const QByteArray &data) {
        j.partialLine += data;
        const qsizetype end = j.partialLine.lastIndexOf('\n');
        if (end < 0) return;
        for (const QByteArray &line : j.partialLine.left(end).split('\n')) {
            if (!line.contains("\"error\"")) continue; // cheap filter before parsing
            if (QJsonDocument::fromJson(line).object().value(QStringLiteral("event")).toString() ==
                QLatin1String("error"))
                j.engineError = true;
        }
        j.partialLine.remove(0, end + 1);
    }

    /// The exit code the attempt script wrote, when the scheduler no longer knows the job.
    std::optional<int> exitFileCode(const Job &j) {
        const remote::CommandResult r =
            runner_->run(QStringLiteral("cat %1").arg(remote::shellWord(attemptExitFile(j, j.attempt))));
        bool ok = false;
        const int code = QString::fromUtf8(r.stdoutData).trimmed().toInt(&ok);
        return r.ok() && ok ? std::optional<int>(code) : std::nullopt;
    }

    void pollAll() {
        QString error;
        if (!connect(ClusterLink::Access::Background, &error)) {
            for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
                if (error != it->lastTransientError) {
                    note(it.key(), error);
                    it->lastTransientError = error;
                }
                noteUnanswered(it.key(), *it, error);
            }
            return;
        }
        alive();
        const QList<qint64> ids = jobs_.keys();
        for (qint64 runId : ids)
            pollOne(runId);
        if (jobs_.isEmpty()) timer_->stop();
    }

    void pollOne(qint64 runId) {
        Job &j = jobs_[runId];
        fetchEvents(j);
        if (j.eventsOverflow) {
            QString ignored;
            scheduler_->cancel(j.currentJobId, &ignored);
            return endRun(runId, -1, true, false,
                          tr("The run's events file on the cluster passed %1 GiB; the job was cancelled.")
                              .arg(kMaxEventsBytes >> 30));
        }
        if (j.sinceStatePoll.isValid() && j.sinceStatePoll.elapsed() < schedulerMs_) return;
        j.sinceStatePoll.start();
        QString error;
        const auto s = scheduler_->status(j.currentJobId, &error);
        if (!s) {
            if (error != j.lastTransientError) note(runId, error);
            j.lastTransientError = error;
            noteUnanswered(runId, j, error);
            return;
        }
        alive();
        if (s->phase != j.phase || s->reason != j.reason) {
            j.phase = s->phase;
            j.reason = s->reason;
            post([e = executor_, runId, jobId = j.currentJobId, phase = remote::jobPhaseName(s->phase),
                  reason = s->reason] { Q_EMIT e->jobPhaseChanged(runId, jobId, phase, reason); });
        }
        if (s->phase == remote::JobPhase::Running && !j.reportedRunning) {
            j.reportedRunning = true;
            status(runId, ProcessStatus::Running);
        }
        std::optional<int> code = s->exitCode;
        if (s->phase == remote::JobPhase::Unknown) {
            code = exitFileCode(j); // forgotten by the scheduler: the script's own record
            if (!code) return;      // not written yet (or lost); ask again later
        } else if (!remote::isTerminal(s->phase)) {
            return;
        }
        // The attempt ended: everything the engine wrote is on the shared file system now.
        if (!fetchEvents(j)) return; // try again next round; the job stays ended
        const std::optional<int> written = exitFileCode(j);
        if (written) code = written;
        // srun reports the highest code of its tasks, and 128 + signal for a rank it stopped because another
        // rank failed: when the engine wrote an error event, its own exit code (1) is the run's.
        if (code && *code > 128 && j.engineError && !j.cancelRequested) code = 1;
        // A rank other than 0 that failed first reports only in the job's output, and srun may have stopped rank 0
        // before it wrote anything: that rank's error is the run's.
        QString rankError;
        if (code && *code > 128 && !j.engineError && !j.cancelRequested) {
            rankError = rankErrorInOutput(j);
            if (!rankError.isEmpty()) code = 1;
        }
        if (!j.cancelRequested && cancelRequestedElsewhere(j)) j.cancelRequested = true;
        const bool killed = s->phase == remote::JobPhase::TimedOut || s->phase == remote::JobPhase::NodeFailed ||
                            (s->phase == remote::JobPhase::Cancelled && !j.cancelRequested);
        if (j.cancelRequested) {
            endRun(runId, code.value_or(-1), !code, true, {});
        } else if (!j.queuedLinks.isEmpty() && remote::chainLinkContinues(written)) {
            advanceToQueuedLink(j); // the next link's own guard decides the same way
        } else if (code == kPreemptedExitCode && j.submitted <= maxContinuations_) {
            note(runId, tr("Job %1 checkpointed and exited 85: submitting the continuation.").arg(j.currentJobId));
            if (!submit(j, &error)) endRun(runId, -1, true, false, error);
        } else if (killed || !code) {
            endRun(runId, -1, true, false,
                   tr("Job %1 ended %2%3 on %4.")
                       .arg(j.currentJobId, s->state.isEmpty() ? remote::jobPhaseName(s->phase) : s->state,
                            s->reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(s->reason),
                            runner_->describe()));
        } else {
            endRun(runId, *code, false, false, rankError);
        }
    }

    /// The first error event in the tail of the current attempt's job output, as "rank N: message"; empty if none.
    QString rankErrorInOutput(const Job &j) {
        const QString output = j.remoteDir + (profile_.scheduler == remote::SchedulerKind::Slurm
                                                  ? QStringLiteral("/slurm-%1.out").arg(j.currentJobId)
                                                  : QStringLiteral("/scheduler.out"));
        const remote::CommandResult r =
            runner_->run(QStringLiteral("tail -c 65536 %1 2>/dev/null").arg(remote::shellWord(output)));
        const QJsonObject e = firstErrorEventIn(r.stdoutData.right(65536));
        if (e.isEmpty()) return {};
        return tr("rank %1: %2")
            .arg(e.value(QStringLiteral("rank")).toInt())
            .arg(e.value(QStringLiteral("message")).toString().left(2000));
    }

    /// Copies the newest checkpoint of the run folder into <run-dir>/checkpoints/ (resuming a partial copy,
    /// verified by SHA-256), so that the run can be exported or resumed here.
    void fetchNewestCheckpoint(const Job &j) {
        const QString dir = remote::shellWord(j.remoteDir + QStringLiteral("/checkpoints"));
        const remote::CommandResult r = runner_->run(
            QStringLiteral("cd %1 2>/dev/null && f=$(ls -1 | grep '[.]pt$' | sort | tail -n 1) && [ -n \"$f\" ] && "
                           "sha256sum \"$f\"")
                .arg(dir));
        const QList<QByteArray> parts = r.stdoutData.simplified().split(' ');
        if (!r.ok() || parts.size() != 2) return; // no checkpoint written
        const QString name = QString::fromUtf8(parts[1]);
        // The name comes from the cluster: only a plain checkpoint file name may become a local path.
        static const QRegularExpression plainName(QStringLiteral("^[A-Za-z0-9_.-]{1,128}[.]pt$"));
        if (!plainName.match(name).hasMatch() || name.startsWith(QLatin1Char('.')) ||
            !QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(QString::fromLatin1(parts[0])).hasMatch()) {
            note(j.request.runId, tr("The cluster named an unexpected checkpoint file; nothing was fetched."));
            return;
        }
        const QString localDir = QDir(j.request.runDir).filePath(QStringLiteral("checkpoints"));
        const QString local = QDir(localDir).filePath(name);
        const QString part = local + QStringLiteral(".part"); // never a half checkpoint under the final name
        QDir().mkpath(localDir);
        for (int attempt = 0; attempt < 2; ++attempt) {
            QString error;
            if (!runner_->download(j.remoteDir + QStringLiteral("/checkpoints/") + name, part, &error)) {
                note(j.request.runId, tr("Cannot fetch the checkpoint %1: %2").arg(name, error));
                return;
            }
            if (fileSha256(part) == parts[0]) {
                QFile::remove(local);
                if (QFile::rename(part, local)) return;
            }
            QFile::remove(part); // a stale partial copy: fetch it whole once more
        }
        note(j.request.runId, tr("The fetched checkpoint %1 does not match the cluster's copy.").arg(name));
    }

    void endRun(qint64 runId, int code, bool crashed, bool cancelled, const QString &message) {
        cancelQueuedLinks(jobs_[runId]);
        if (fetchCheckpoints_) fetchNewestCheckpoint(jobs_[runId]);
        jobs_.remove(runId);
        finish(runId, code, crashed, cancelled, message);
    }

    ClusterExecutor *executor_;
    ClusterLink *link_;
    remote::ClusterProfile profile_;
    remote::CommandRunner *runner_ = nullptr; ///< the link's, valid for the work at hand (connect())
    remote::Scheduler *scheduler_ = nullptr;
    QHash<qint64, Job> jobs_;
    QSet<qint64> cancelledEarly_;
    QTimer *timer_ = nullptr;
    int eventsMs_ = 200;
    int schedulerMs_ = 1000;
    int maxContinuations_ = 20;
    bool fetchCheckpoints_ = true;
};

} // namespace diamond::app
