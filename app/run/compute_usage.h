// What runs cost in compute, for class-server quotas (app/rest/user_store.h) and `diamondctl user list`.
//
// Contract: a run's running time is the sum of its intervals in the running state (run_transitions: from each
// entry into running to the next transition, or to `now` while it still runs); queued, preempted and resumed time
// (waiting for a node) costs nothing. Running time counts as
// - GPU hours on a cuda device: hours × world_size (one GPU per process);
// - CPU hours otherwise: hours × world_size × threads.
// world_size, device and threads come from the run's newest `started` event (what the engine used); before the
// engine reported, from the run's execution settings (nproc, threads; 0 threads counts as 1) and config (device).
#pragma once

#include "app/run/run_store.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QString>

namespace diamond::app {

struct ComputeUsage {
    double cpuHours = 0;
    double gpuHours = 0;
    double runningHours = 0; ///< wall-clock hours in the running state, whatever the width
    ComputeUsage &operator+=(const ComputeUsage &o) {
        cpuHours += o.cpuHours;
        gpuHours += o.gpuHours;
        runningHours += o.runningHours;
        return *this;
    }
};

/// {cpu_hours, gpu_hours, running_hours}, rounded to 1/1000 hour.
QJsonObject computeUsageJson(const ComputeUsage &usage);

/// What `run` has used up to `now` (UTC).
ComputeUsage runComputeUsage(RunStore &store, const Run &run, const QDateTime &now);
/// The sum over the runs of `owner` (the class-server user; empty: the workspace's owner).
ComputeUsage ownerComputeUsage(RunStore &store, const QString &owner, const QDateTime &now);
/// Usage of every owner of `runs` (drafts cost nothing), in one pass.
QHash<QString, ComputeUsage> computeUsageByOwner(RunStore &store, const QList<Run> &runs, const QDateTime &now);
/// True when `config` (a run.json) asks for a GPU.
bool runConfigUsesGpu(const QJsonObject &config);

} // namespace diamond::app
