// Loading everything a run monitor shows about one run (its row, metric series, stored events) on any thread:
// loadRunHistory() opens its own connection to the workspace, so it can run under QtConcurrent while the GUI
// thread keeps its own.
#pragma once

#include "app/cluster/cluster_job_store.h"
#include "app/run/run_store.h"

#include <QHash>
#include <QJsonObject>
#include <QList>

namespace diamond::app {

struct RunHistory {
    std::optional<Run> run;
    /// Series by name and split, each ordered by step.
    QList<QPair<QPair<QString, MetricSplit>, QList<MetricPoint>>> series;
    QList<QJsonObject> events;     ///< stored events in file order (metric lines excluded)
    QList<RunMessage> messages;    ///< the executors' notes (staging, continuations, a refused cancel)
    std::optional<ClusterJob> job; ///< the newest batch job of a cluster run
    QString error;                 ///< translated; empty on success
};

/// Reads run `runId` of the workspace in `workspaceFolder` through a connection private to the call.
RunHistory loadRunHistory(const QString &workspaceFolder, qint64 runId);

} // namespace diamond::app
