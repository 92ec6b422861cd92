// Puts a working diamond-train on a cluster: `diamondctl cluster deploy` and the Clusters page's "Deploy engine"
// button. Blocking: runs on the cluster's link (ClusterClient::deployEngine) or in diamondctl.
//
// - Bundle (CPU clusters): this computer's diamond-train with its libraries (remote/engine_bundle.h) is packed,
//   uploaded into <scratch_dir>/engine/ (SHA-256 checked on both sides), unpacked as
//   <scratch_dir>/engine/diamond-train-<version>/ (replacing an older copy only once the new one is complete) and
//   run there with --version. The cluster must have this computer's CPU architecture and a glibc at least as new.
// - Container (GPU clusters): the engine's sources (CMakeLists.txt, cmake/, engine/, and the header-only libraries
//   it includes as third_party/include/) and an Apptainer definition (remote::apptainerSourceDefinition: a PyTorch
//   CUDA image, built against its libtorch) are uploaded into <scratch_dir>/engine/; `apptainer build` runs as a
//   Slurm job step (srun; directly on a cluster without a scheduler) and the image is checked with
//   `apptainer exec IMAGE diamond-train --version`.
// The profile is not changed here: withDeployment() gives the profile that uses the result, the caller saves it.
#pragma once

#include "remote/cluster_profile.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>

namespace diamond::remote {
class CommandRunner;
}

namespace diamond::app {

struct EngineDeployOptions {
    bool container = false; ///< an Apptainer image built on the cluster (GPU clusters); else a bundle
    QString localEngine;    ///< bundle: the diamond-train to bundle; empty = LocalExecutor::defaultEnginePath()
    QString sourceDir;      ///< container: Diamond's source tree; empty = the tree this program was built from
    QString partition;      ///< container: the build job's partition; empty = the cluster's default
    QString baseImage;      ///< container: the PyTorch CUDA image; empty = remote::SourceImageOptions' default
    int buildMinutes = 60;  ///< container: the build job's time limit
};

struct EngineDeployment {
    QString enginePath;       ///< diamond-train on the cluster (inside the image for a container)
    QString image;            ///< container: the .sif on the cluster
    QString version;          ///< what `diamond-train --version` printed there
    qint64 uploadedBytes = 0; ///< bytes sent to the cluster
    double seconds = 0;       ///< the whole deployment
};

/// One line per step ("Packing the engine…", "Uploading 41 %…"), in the user's language.
using DeployProgress = std::function<void(const QString &step)>;

/// <scratch_dir>/engine: where deployments go.
QString engineDeployDir(const remote::ClusterProfile &profile);

/// The command that builds `image` from `definition` (both absolute paths on the cluster) for `profile`: an srun job
/// step with `partition` and `minutes` on Slurm, the build itself without a scheduler. Empty with *error for PBS or
/// a bad partition name.
QString imageBuildCommand(const remote::ClusterProfile &profile, const QString &definition, const QString &image,
                          const QString &partition, int minutes, QString *error);

/// Creates the source archive of a container deployment from `sourceDir` at `archive` (tar.gz). False with *error.
bool writeEngineSourceArchive(const QString &sourceDir, const QString &archive, QString *error);

/// Deploys; nullopt with *error naming the step that failed. Nothing already deployed is removed on failure.
std::optional<EngineDeployment> deployEngine(remote::CommandRunner &runner, const remote::ClusterProfile &profile,
                                             const EngineDeployOptions &options, const DeployProgress &progress,
                                             QString *error);

/// The deployment as `cluster deploy --json` and POST /api/v1/clusters/{name}/deploy print it: cluster, kind
/// ("bundle" or "container"), engine_path, image, version, uploaded_bytes, seconds.
QJsonObject deploymentJson(const QString &cluster, const EngineDeployOptions &options,
                           const EngineDeployment &deployment);

/// `profile` using `deployment`: engine_path, and for a container runtime apptainer with the image (the runtime's
/// command and options are kept).
remote::ClusterProfile withDeployment(remote::ClusterProfile profile, const EngineDeployOptions &options,
                                      const EngineDeployment &deployment);

} // namespace diamond::app
