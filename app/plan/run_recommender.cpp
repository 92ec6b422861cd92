#include "app/plan/run_recommender.h"

#include "app/cluster/cluster_store.h"
#include "app/plan/device_profiles.h"
#include "app/run/executor.h"
#include "app/workspace/workspace.h"

#include <QProcess>

namespace diamond::app {

RunRecommender::RunRecommender(QObject *parent) : QObject(parent) {}

RunRecommender::~RunRecommender() {
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
    r.plan = recommendRun(request, profiles, cluster, dryRun, &r.error);
    return r;
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
