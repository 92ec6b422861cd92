// The JSON views of projects, runs, metric points and cluster jobs: one per entity, shared by diamondctl's --json
// output and the REST API (docs/rest-api.md), so both describe a run the same way.
#pragma once

#include "app/cluster/cluster_job_store.h"
#include "app/run/run_store.h"

#include <QJsonObject>

namespace diamond::app {

/// "train" or "val".
QString metricSplitName(MetricSplit split);
QJsonObject projectJson(const Project &project);
QJsonObject metricPointJson(const MetricPoint &point);
QJsonObject runTransitionJson(const RunTransition &transition);
/// {cluster, job_id, phase, reason, continuation, submitted_at, updated_at}
QJsonObject clusterJobJson(const ClusterJob &job);
/// A run: id, project_id, project, name, state, target, config, execution, times, exit_code, exit_message,
/// final_metrics, weights_sha256, architecture_version_id; for cluster runs "job" (the newest, clusterJobJson()).
QJsonObject runJson(Workspace &workspace, const Run &run);
/// runJson() plus transitions, messages, every job, metric_points (the count) and run_dir.
QJsonObject runDetailJson(Workspace &workspace, const Run &run);

} // namespace diamond::app
