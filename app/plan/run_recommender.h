// RunRecommender: the run set-up page's recommendation (docs/planning.md) without blocking the GUI thread. The page
// runs the engine's dry run itself (EnginePlanJob); recommend() adds the performance model's options and the job
// chain from the workspace's device profiles (recommendRun, milliseconds). When this computer has no profile yet, it
// starts `diamond-train calibrate` as an asynchronous process (about 5–10 s) and says so; calibrated() follows, and
// the caller asks again. measureWidths() runs the width probes (width_probe.h) on a worker thread; later
// recommendations for the same spec, config and threads use the measured step times.
#pragma once

#include "app/plan/run_planner.h"
#include "app/plan/width_probe.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QSet>

namespace diamond::app {

class ClusterLinks;
class Workspace;

class RunRecommender : public QObject {
    Q_OBJECT
public:
    explicit RunRecommender(QObject *parent = nullptr);
    ~RunRecommender() override;

    /// The workspace whose device profiles and clusters are used; nullptr when none is open. A calibration in
    /// flight for the previous workspace is abandoned.
    void setWorkspace(Workspace *ws);
    /// Engine binary for calibration (default LocalExecutor::defaultEnginePath()).
    void setEnginePath(const QString &path) { enginePath_ = path; }
    /// Asks clusters for queue waits through `links` (not owned; the run service's; nullptr: none asked). For a
    /// cluster target, recommend() asks the scheduler for each partition's best option (run_planner.h
    /// queueWaitQuestions) in the background, without sign-in prompts, and ranks with the answers once they are in
    /// (each kept 2 minutes); queueWaitsUpdated() says when to ask recommend() again.
    void setClusterLinks(ClusterLinks *links);

    struct Recommendation {
        std::optional<RunPlan> plan;
        QString error;                 ///< why there is no plan (translated)
        bool calibrating = false;      ///< this computer is being calibrated: ask again after calibrated()
        bool askingQueueWaits = false; ///< some queue waits are being asked: ask again after queueWaitsUpdated()
    };
    /// `dryRun` is the engine's plan event for request.spec + request.config (its steps).
    Recommendation recommend(const RunPlanRequest &request, const QJsonObject &dryRun);
    bool isCalibrating() const { return calibration_ != nullptr; }

    /// Starts the width probes for `request` (this computer only; `dryRun` sizes them); widthsMeasured() follows.
    /// False with *error when they cannot start, or while others run.
    bool measureWidths(const RunPlanRequest &request, const QJsonObject &dryRun, QString *error);
    bool isMeasuringWidths() const { return widthProbes_ != nullptr; }

Q_SIGNALS:
    /// This computer's calibration ended; `message` says why when it failed (then recommend() reports it).
    void calibrated(bool ok, const QString &message);
    /// The width probes ended; `message` says why when they failed.
    void widthsMeasured(bool ok, const QString &message);
    /// A scheduler answered a queue-wait question (or failed to).
    void queueWaitsUpdated();

private:
    struct ProbeOutcome {
        std::optional<QList<WidthProbe>> probes;
        QString error;
    };
    static QByteArray widthKey(const RunPlanRequest &request);
    void onWidthsMeasured();

    /// The queue waits known for `plan`'s questions into `request`, asking for the others; the problems met.
    QStringList applyQueueWaits(const RunPlan &plan, const remote::ClusterProfile &cluster, RunPlanRequest *request);
    void queueWaitAnswered(const QString &key, std::optional<qint64> seconds, const QString &problem);
    struct QueueWait {
        std::optional<qint64> seconds;
        QString problem;
        QElapsedTimer age;
    };

    void startCalibration();
    void onCalibrationFinished();

    Workspace *ws_ = nullptr;
    QString enginePath_;
    QPointer<QProcess> calibration_;
    QString calibrationError_; ///< the last failure, so that a broken engine is not restarted on every edit
    QPointer<QFutureWatcher<ProbeOutcome>> widthProbes_;
    QByteArray probingKey_, measuredKey_;               ///< widthKey() of the request probed / measured
    QMap<QPair<int, int>, double> measuredStepSeconds_; ///< of measuredKey_
    ClusterLinks *links_ = nullptr;
    QMap<QString, QueueWait> queueWaits_; ///< by question (cluster, partition, processes, minutes, account)
    QSet<QString> askingQueueWaits_;
};

} // namespace diamond::app
