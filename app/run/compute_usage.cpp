#include "app/run/compute_usage.h"

#include <algorithm>
#include <cmath>

namespace diamond::app {

namespace {

double thousandths(double hours) { return std::round(hours * 1000.0) / 1000.0; }

} // namespace

QJsonObject computeUsageJson(const ComputeUsage &u) {
    return {{QStringLiteral("cpu_hours"), thousandths(u.cpuHours)},
            {QStringLiteral("gpu_hours"), thousandths(u.gpuHours)},
            {QStringLiteral("running_hours"), thousandths(u.runningHours)}};
}

bool runConfigUsesGpu(const QJsonObject &config) {
    return config.value(QStringLiteral("device")).toString().startsWith(QLatin1String("cuda"));
}

ComputeUsage runComputeUsage(RunStore &store, const Run &run, const QDateTime &now) {
    double seconds = 0;
    QDateTime since;
    for (const RunTransition &t : store.transitions(run.id)) {
        const QDateTime at = QDateTime::fromString(t.at, Qt::ISODateWithMs);
        if (since.isValid() && at.isValid()) seconds += std::max<qint64>(0, since.msecsTo(at)) / 1000.0;
        since = t.to == RunState::Running && at.isValid() ? at : QDateTime();
    }
    if (since.isValid()) seconds += std::max<qint64>(0, since.msecsTo(now)) / 1000.0;

    bool gpu = runConfigUsesGpu(run.config);
    int processes = std::max(1, run.execution.value(QStringLiteral("nproc")).toInt(1));
    int threads = std::max(1, run.execution.value(QStringLiteral("threads")).toInt(1));
    const QList<QJsonObject> started = store.events(run.id, QStringLiteral("started"));
    if (!started.isEmpty()) {
        const QJsonObject &e = started.last();
        gpu = e.value(QStringLiteral("device")).toString().startsWith(QLatin1String("cuda"));
        processes = std::max(1, e.value(QStringLiteral("world_size")).toInt(processes));
        threads = std::max(1, e.value(QStringLiteral("threads")).toInt(threads));
    }
    ComputeUsage u;
    u.runningHours = seconds / 3600.0;
    if (gpu)
        u.gpuHours = u.runningHours * processes;
    else
        u.cpuHours = u.runningHours * processes * threads;
    return u;
}

QHash<QString, ComputeUsage> computeUsageByOwner(RunStore &store, const QList<Run> &runs, const QDateTime &now) {
    QHash<QString, ComputeUsage> byOwner;
    for (const Run &run : runs)
        if (run.state != RunState::Draft) byOwner[run.owner] += runComputeUsage(store, run, now);
    return byOwner;
}

ComputeUsage ownerComputeUsage(RunStore &store, const QString &owner, const QDateTime &now) {
    ComputeUsage total;
    for (const Run &run : store.runs())
        if (run.owner == owner && run.state != RunState::Draft) total += runComputeUsage(store, run, now);
    return total;
}

} // namespace diamond::app
