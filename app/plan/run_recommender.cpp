#include "app/plan/run_recommender.h"

#include "app/cluster/cluster_link.h"
#include "app/cluster/cluster_store.h"
#include "app/plan/device_profiles.h"
#include "app/run/executor.h"
#include "app/workspace/workspace.h"
#include "remote/scheduler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QThread>
#include <QtConcurrent>

namespace diamond::app {

RunRecommender::RunRecommender(QObject *parent) : QObject(parent) {}

RunRecommender::~RunRecommender() {
    if (widthProbes_) widthProbes_->waitForFinished(); // a few seconds per width at most
    if (calibration_) {
        calibration_->disconnect(this);
        calibration_->kill();
        calibration_->waitForFinished(2000);
    }
}

void RunRecommender::setWorkspace(Workspace *ws) {
    if (ws == ws_) return;
    if (calibration_) {
        calibration_->disconnect(this);
        calibration_->kill();
        calibration_->deleteLater();
        calibration_ = nullptr;
    }
    ws_ = ws;
    calibrationError_.clear();
    measuredKey_.clear();
    measuredStepSeconds_.clear();
}

RunRecommender::Recommendation RunRecommender::recommend(const RunPlanRequest &request, const QJsonObject &dryRun) {
    Recommendation r;
    if (!ws_) return r.error = tr("No workspace is open."), r;
    std::optional<remote::ClusterProfile> cluster;
    if (request.target != QLatin1String("local")) {
        ClusterStore clusters(*ws_);
        cluster = clusters.profile(request.target);
        if (!cluster) return r.error = clusters.errorString(), r;
    }
    QString error;
    const TargetProfiles profiles = DeviceProfileStore(*ws_).forTarget(cluster, &error);
    if (!profiles.base) {
        if (!calibrationError_.isEmpty()) return r.error = calibrationError_, r;
        startCalibration();
        r.calibrating = calibration_ != nullptr;
        r.error =
            r.calibrating ? tr("Measuring this computer's speed for the first time (about 10 s)…") : calibrationError_;
        return r;
    }
    RunPlanRequest effective = request;
    if (!measuredStepSeconds_.isEmpty() && widthKey(request) == measuredKey_)
        effective.measuredStepSeconds = measuredStepSeconds_;
    r.plan = recommendRun(effective, profiles, cluster, dryRun, &r.error);
    if (!r.plan || !cluster || !links_ || !request.queueWait) return r;
    const QStringList problems = applyQueueWaits(*r.plan, *cluster, &effective);
    if (!effective.queueWaitSeconds.isEmpty()) r.plan = recommendRun(effective, profiles, cluster, dryRun, &r.error);
    if (r.plan && !problems.isEmpty())
        r.plan->document.insert(QStringLiteral("queue_wait_problems"), QJsonArray::fromStringList(problems));
    r.askingQueueWaits = !askingQueueWaits_.isEmpty();
    return r;
}

void RunRecommender::setClusterLinks(ClusterLinks *links) {
    links_ = links;
    queueWaits_.clear();
    askingQueueWaits_.clear(); // answers still coming for the old links are dropped with them
}

QStringList RunRecommender::applyQueueWaits(const RunPlan &plan, const remote::ClusterProfile &cluster,
                                            RunPlanRequest *request) {
    QStringList problems;
    const QMap<QString, remote::JobRequest> questions = queueWaitQuestions(plan, cluster);
    for (auto it = questions.cbegin(); it != questions.cend(); ++it) {
        const remote::JobRequest &job = it.value();
        const QString key = QStringLiteral("%1|%2|%3|%4|%5")
                                .arg(cluster.name, job.partition)
                                .arg(job.tasksPerNode)
                                .arg(job.timeLimitMinutes)
                                .arg(job.account);
        const auto known = queueWaits_.constFind(key);
        if (known != queueWaits_.cend() && known->age.elapsed() < 120000) {
            if (known->seconds)
                request->queueWaitSeconds.insert(it.key(), double(*known->seconds));
            else
                problems << (it.key().isEmpty() ? known->problem : it.key() + QStringLiteral(": ") + known->problem);
            continue;
        }
        if (askingQueueWaits_.contains(key)) continue;
        askingQueueWaits_.insert(key);
        ClusterLink *link = links_->link(cluster);
        QPointer<RunRecommender> self(this);
        link->post([link, job, key, self, links = links_] {
            QString why;
            std::optional<qint64> wait;
            if (remote::Scheduler *scheduler = link->scheduler(&why, ClusterLink::Access::Background))
                wait = scheduler->estimatedWaitSeconds(job, &why);
            // The registry outlives every link thread: a safe context; the recommender may be gone by then.
            QMetaObject::invokeMethod(
                links,
                [self, key, wait, why] {
                    if (self) self->queueWaitAnswered(key, wait, why);
                },
                Qt::QueuedConnection);
        });
    }
    return problems;
}

void RunRecommender::queueWaitAnswered(const QString &key, std::optional<qint64> seconds, const QString &problem) {
    askingQueueWaits_.remove(key);
    QueueWait &w = queueWaits_[key];
    w.seconds = seconds;
    w.problem = problem;
    w.age.start();
    Q_EMIT queueWaitsUpdated();
}

QByteArray RunRecommender::widthKey(const RunPlanRequest &request) {
    return QJsonDocument(QJsonObject{{QStringLiteral("spec"), request.spec},
                                     {QStringLiteral("config"), request.config},
                                     {QStringLiteral("target"), request.target},
                                     {QStringLiteral("threads"), request.threads}})
        .toJson(QJsonDocument::Compact);
}

bool RunRecommender::measureWidths(const RunPlanRequest &request, const QJsonObject &dryRun, QString *error) {
    if (!ws_) return *error = tr("No workspace is open."), false;
    if (widthProbes_) return *error = tr("The processes are being measured already."), false;
    if (request.target != QLatin1String("local"))
        return *error = tr("Measuring the number of processes trains on this computer: it is offered for runs on "
                           "this computer only."),
               false;
    const auto dataPath = localDataPath(*ws_, request.config, error);
    if (!dataPath) return false;
    WidthProbeRequest probe;
    probe.enginePath = enginePath_.isEmpty() ? LocalExecutor::defaultEnginePath() : enginePath_;
    probe.spec = request.spec;
    probe.config = request.config;
    probe.dataPath = *dataPath;
    probe.cores = QThread::idealThreadCount();
    probe.threadsPerRank = request.threads;
    probe.secondsPerStep = dryRun.value(QStringLiteral("seconds_per_step")).toDouble();
    probingKey_ = widthKey(request);
    widthProbes_ = new QFutureWatcher<ProbeOutcome>(this);
    connect(widthProbes_, &QFutureWatcher<ProbeOutcome>::finished, this, &RunRecommender::onWidthsMeasured);
    widthProbes_->setFuture(QtConcurrent::run([probe] {
        ProbeOutcome outcome;
        outcome.probes = probeWidths(probe, &outcome.error);
        return outcome;
    }));
    return true;
}

void RunRecommender::onWidthsMeasured() {
    const ProbeOutcome outcome = widthProbes_->result();
    widthProbes_->deleteLater();
    widthProbes_ = nullptr;
    if (outcome.probes) {
        measuredKey_ = probingKey_;
        measuredStepSeconds_.clear();
        for (const WidthProbe &w : *outcome.probes)
            measuredStepSeconds_.insert({w.ranks, w.threadsPerRank}, w.stepSeconds);
    }
    Q_EMIT widthsMeasured(outcome.probes.has_value(), outcome.error);
}

void RunRecommender::startCalibration() {
    if (calibration_ || !ws_) return;
    const auto command = DeviceProfileStore(*ws_).thisComputerCalibration(
        enginePath_.isEmpty() ? LocalExecutor::defaultEnginePath() : enginePath_, &calibrationError_);
    if (!command) return;
    calibration_ = new QProcess(this);
    connect(calibration_, &QProcess::finished, this, &RunRecommender::onCalibrationFinished);
    connect(calibration_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) onCalibrationFinished();
    });
    calibration_->start(command->enginePath, command->arguments());
}

void RunRecommender::onCalibrationFinished() {
    QProcess *process = calibration_;
    if (!process) return;
    calibration_ = nullptr;
    process->deleteLater();
    QString error;
    if (process->error() == QProcess::FailedToStart)
        error = tr("Cannot start %1: %2").arg(process->program(), process->errorString());
    else if (process->exitStatus() != QProcess::NormalExit || process->exitCode() != 0)
        error =
            tr("Calibration failed: %1").arg(QString::fromUtf8(process->readAllStandardError().trimmed().right(400)));
    else if (ws_)
        DeviceProfileStore(*ws_).saveThisComputer(process->readAllStandardOutput(), &error);
    calibrationError_ = error;
    Q_EMIT calibrated(error.isEmpty(), error);
}

} // namespace diamond::app
