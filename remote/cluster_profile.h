// A compute cluster Diamond can send runs to: how to reach it (SSH), which batch scheduler it runs, its
// partitions, and how the engine is deployed there (modules, container image, or a bare engine bundle).
//
// JSON form (stored in the workspace's cluster_profiles table, columns name/host/port/username/scheduler plus
// config_json for the rest; see toJson()):
//   {"name":"hpc","host":"login.hpc.example","port":22,"user":"alice","scheduler":"slurm","account":"proj1",
//    "partitions":[{"name":"gpu","gpu_type":"a100","gpus_per_node":4,"cpus_per_node":64,"memory_mb":512000,
//                   "max_walltime_minutes":2880,"nodes":12,"default":true}],
//    "modules":["cuda/12.1"],"container":{"runtime":"apptainer","image":"/scratch/diamond.sif","options":[],
//                                         "command":"/opt/apptainer/bin/apptainer"},"gpu_directive":"gres",
//    "scratch_dir":"/scratch/alice/diamond","engine_path":"/scratch/alice/diamond/engine/diamond-train",
//    "identity_file":"~/.ssh/id_ed25519","known_hosts_file":"","environment":{"OMP_PROC_BIND":"close"}}
// Unknown keys are refused (a typo would otherwise be silently ignored); every error names the field.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace diamond::remote {

enum class SchedulerKind { Slurm, Pbs, None };
enum class ContainerRuntime { None, Apptainer, Singularity, Podman, Docker };

/// "slurm", "pbs", "none".
QString schedulerKindName(SchedulerKind kind);
std::optional<SchedulerKind> schedulerKindFromName(const QString &name);
/// "none", "apptainer", "singularity", "podman", "docker".
QString containerRuntimeName(ContainerRuntime runtime);
std::optional<ContainerRuntime> containerRuntimeFromName(const QString &name);

struct PartitionInfo {
    QString name;
    QString gpuType; ///< e.g. "a100"; empty when the partition has no GPUs or the type is unknown
    int gpusPerNode = 0;
    int cpusPerNode = 0;
    qint64 memoryMb = 0;        ///< per node; 0 = unknown
    int maxWalltimeMinutes = 0; ///< 0 = unlimited or unknown
    int nodes = 0;              ///< 0 = unknown
    bool isDefault = false;

    bool operator==(const PartitionInfo &o) const;
    QJsonObject toJson() const;
};

struct ContainerSettings {
    ContainerRuntime runtime = ContainerRuntime::None;
    QString image;       ///< apptainer/singularity: a .sif path or URI; podman/docker: an image reference
    QStringList options; ///< extra arguments for `apptainer exec` / `podman run`
    QString command;     ///< the runtime's program (an absolute path, or a name on PATH); empty = the runtime's name
    bool operator==(const ContainerSettings &o) const {
        return runtime == o.runtime && image == o.image && options == o.options && command == o.command;
    }
    /// command, or the runtime's name ("apptainer", "podman", ...) when it is empty.
    QString program() const;
};

struct ClusterProfile {
    QString name;
    QString host;
    int port = 22;
    QString user;
    SchedulerKind scheduler = SchedulerKind::Slurm;
    QString account;
    QList<PartitionInfo> partitions;
    QStringList modules;
    ContainerSettings container;
    QString scratchDir; ///< where run folders are created on the cluster (shared between nodes)
    QString enginePath; ///< diamond-train on the cluster (inside the image when a container is used)
    QString identityFile;
    QString knownHostsFile;
    QMap<QString, QString> environment; ///< exported in job scripts before the engine starts
    /// How Slurm jobs ask for GPUs: "gpus-per-node" (--gpus-per-node=[type:]N, Slurm 19.05+) or "gres"
    /// (--gres=gpu[:type]:N, what older sites and some GPU partitions require).
    QString gpuDirective = QStringLiteral("gpus-per-node");

    bool operator==(const ClusterProfile &o) const;

    /// Empty when the profile is usable, else the first problem, naming the field.
    QString validate() const;
    /// The whole profile (all fields, see the file comment).
    QJsonObject toJson() const;
    /// The fields not stored in their own table columns (everything but name, host, port, user, scheduler).
    QJsonObject configJson() const;
    /// Parses and validates; nullopt with *error naming the field on failure.
    static std::optional<ClusterProfile> fromJson(const QJsonObject &json, QString *error);
    /// The partition named `name`, or the default one when `name` is empty; nullptr when none.
    const PartitionInfo *partition(const QString &name = {}) const;
    /// Remote folder of a run: <scratch_dir>/runs/<key>.
    QString remoteRunDir(const QString &runKey) const;
};

} // namespace diamond::remote
