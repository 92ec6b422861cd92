// Runs whose target is a cluster profile: the executor RunManager needs for them.
#pragma once

#include "app/cluster/cluster_executor.h"
#include "app/workspace/workspace.h"

#include <QJsonObject>
#include <QString>

namespace diamond::app {

/// A ClusterExecutor for the workspace's cluster profile `profileName`, reaching it through `links` (this session's
/// shared connections; nullptr: a connection of its own made with makeClusterRunner()) and taking the job resources
/// from execution["job"] (remote::jobRequestFromJson(); e.g. {"partition":"gpu",
/// "nodes":1,"tasks_per_node":2,"time_limit_minutes":60,"signal_seconds":120}) and execution["threads"].
/// nullptr with *error (naming the profile or the field) when the profile is missing or a field is invalid.
ClusterExecutor *makeClusterExecutor(Workspace &workspace, const QString &profileName, const QJsonObject &execution,
                                     ClusterLinks *links, QString *error);

} // namespace diamond::app
