// Calibrating a cluster (`diamondctl cluster calibrate`, docs/planning.md): `diamond-train calibrate --nproc 2` runs
// as one short Slurm job step on a node of the partition (remote::renderSlurmStepCommand: srun, at most 10 minutes)
// in <scratch>/calibration, with the profile's modules, environment and container. Its profile is kept in the
// workspace (DeviceProfileStore) with the cluster and partition added: as "<cluster>.<partition>" when a partition is
// named (and as "<cluster>" too while the cluster has none), else as "<cluster>". The planner predicts a partition
// with its own profile, else with the cluster's, else with this computer's.
#pragma once

#include "remote/cluster_profile.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace diamond::remote {
class CommandRunner;
}

namespace diamond::app {

class Workspace;

/// The login-node command that calibrates one node of `partition` (empty: the default partition); empty with *error
/// (a cluster without Slurm, a partition name that is not one).
QString clusterCalibrationCommand(const remote::ClusterProfile &cluster, const QString &partition, QString *error);

/// Runs that command through `runner` (blocking: on the cluster link's worker thread) and returns the printed
/// profile with "cluster" and "partition" added; nullopt with *error (the engine's or the scheduler's message).
std::optional<QJsonObject> runClusterCalibration(remote::CommandRunner &runner, const remote::ClusterProfile &cluster,
                                                 const QString &partition, QString *error);

/// Saves a cluster's profile under the names described above; the names written, or empty with *error.
QStringList saveClusterCalibration(Workspace &ws, const QString &cluster, const QString &partition,
                                   const QJsonObject &profile, QString *error);

} // namespace diamond::app
