#include "app/plan/job_chain.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("JobChainPlanner", text); }

double wholeMinutesUp(double seconds) { return std::max(60.0, std::ceil(seconds / 60.0) * 60.0); }

} // namespace

QJsonObject JobChainPlan::toJson() const {
    QJsonObject o{{QStringLiteral("jobs"), jobs},
                  {QStringLiteral("time_limit_s"), timeLimitSeconds},
                  {QStringLiteral("checkpoint_every_steps"), checkpointEverySteps},
                  {QStringLiteral("checkpoint_interval_s"), checkpointIntervalSeconds},
                  {QStringLiteral("young_daly_s"), youngDalySeconds},
                  {QStringLiteral("checkpoint_overhead"), checkpointOverhead},
                  {QStringLiteral("signal_seconds"), signalSeconds},
                  {QStringLiteral("steps_per_job"), stepsPerJob},
                  {QStringLiteral("compute_s"), computeSeconds},
                  {QStringLiteral("predicted_s"), predictedSeconds},
                  {QStringLiteral("startup_s"), startupSeconds},
                  {QStringLiteral("checkpoint_s"), checkpointSeconds}};
    if (!ok) o.insert(QStringLiteral("error"), error);
    return o;
}

JobChainPlan planJobChain(const JobChainInputs &in) {
    JobChainPlan p;
    if (in.totalSteps <= 0 || !(in.stepSeconds > 0) || !std::isfinite(in.stepSeconds)) {
        p.error = tr("Nothing to plan: the run needs a positive number of steps and a step time.");
        return p;
    }
    const double step = in.stepSeconds;
    const double ckpt = std::max(0.0, in.checkpointSeconds);
    p.computeSeconds = double(in.totalSteps) * step;
    // The signal must leave time to finish the step in flight and write a checkpoint.
    p.signalSeconds = wholeMinutesUp(step + ckpt + std::max(0.0, in.signalMarginSeconds));
    p.youngDalySeconds = std::sqrt(2.0 * ckpt * std::max(0.0, in.mtbfSeconds));
    const double overheadFloor = in.maxCheckpointOverhead > 0 ? ckpt / in.maxCheckpointOverhead : 0;
    double interval = std::max({p.youngDalySeconds, overheadFloor, step});

    const double limit = in.maxTimeLimitSeconds;
    auto oneJob = [&](double interval) {
        const double withCheckpoints = p.computeSeconds * (1.0 + ckpt / interval);
        return wholeMinutesUp(in.predictionSlack * withCheckpoints + in.startupSeconds + p.signalSeconds);
    };
    if (limit <= 0) {
        interval = std::min(interval, std::max(p.computeSeconds, step));
        p.jobs = 1;
        p.timeLimitSeconds = oneJob(interval);
        p.stepsPerJob = in.totalSteps;
    } else {
        const double usable = std::floor(limit / 60.0) * 60.0 - in.startupSeconds - p.signalSeconds;
        if (usable < step + ckpt) {
            p.error = tr("A job of the partition's %1 s leaves no time to compute: start-up takes %2 s and the "
                         "checkpoint signal needs %3 s.")
                          .arg(limit)
                          .arg(in.startupSeconds)
                          .arg(p.signalSeconds);
            return p;
        }
        interval = std::min(interval, usable);
        // Within a job, checkpoints take C of every interval + C.
        const double computePerJob = usable * interval / (interval + ckpt);
        p.stepsPerJob = std::max<qint64>(1, qint64(std::floor(computePerJob / step)));
        const double single = oneJob(interval);
        if (single <= std::floor(limit / 60.0) * 60.0) {
            p.jobs = 1;
            p.timeLimitSeconds = single;
            p.stepsPerJob = in.totalSteps;
        } else {
            p.jobs = int(std::min<qint64>(100000, (in.totalSteps + p.stepsPerJob - 1) / p.stepsPerJob));
            p.timeLimitSeconds = std::floor(limit / 60.0) * 60.0;
        }
    }
    p.checkpointEverySteps =
        std::clamp<qint64>(qint64(std::llround(interval / step)), 1, std::max<qint64>(1, p.stepsPerJob));
    p.checkpointIntervalSeconds = double(p.checkpointEverySteps) * step;
    p.checkpointOverhead = ckpt / p.checkpointIntervalSeconds;
    // Periodic checkpoints, one on each job's signal, and each job's start-up.
    const qint64 periodic = in.totalSteps / p.checkpointEverySteps;
    p.predictedSeconds = p.computeSeconds + ckpt * double(periodic + p.jobs) + in.startupSeconds * p.jobs;
    p.startupSeconds = in.startupSeconds;
    p.checkpointSeconds = ckpt;
    p.ok = true;
    return p;
}

} // namespace diamond::app
