#include "app/plan/run_recommender.h"

#include "app/cluster/cluster_store.h"
#include "app/plan/device_profiles.h"
#include "app/run/executor.h"
#include "app/workspace/workspace.h"

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
    if (!measuredStepSeconds_.isEmpty() && widthKey(request) == measuredKey_) {
        RunPlanRequest measured = request;
        measured.measuredStepSeconds = measuredStepSeconds_;
        r.plan = recommendRun(measured, profiles, cluster, dryRun, &r.error);
    } else {
        r.plan = recommendRun(request, profiles, cluster, dryRun, &r.error);
    }
    return r;
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
