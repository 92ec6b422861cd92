// Container recipes for diamond-train: an Apptainer definition file and a Containerfile (podman/docker) on a
// CUDA + NCCL base, installing an engine bundle (engine_bundle.h: the binary, its libtorch/NCCL libraries and
// a launcher). Apptainer is not packaged in Debian 12, so the recipes are generated and checked here and built
// on the cluster (`apptainer build diamond-train.sif diamond-train.def`, `podman build -f Containerfile .`).
#pragma once

#include <QString>

namespace diamond::remote {

struct ContainerRecipeOptions {
    /// CUDA runtime with cuDNN; NCCL comes with libtorch's CUDA build in the bundle.
    QString baseImage = QStringLiteral("docker.io/nvidia/cuda:11.7.1-cudnn8-runtime-ubuntu22.04");
    /// Folder holding the engine bundle, relative to the build context (Containerfile) or the .def file.
    QString bundleDir = QStringLiteral("diamond-train-bundle");
    /// Where the bundle goes in the image; the engine is <installDir>/diamond-train.
    QString installDir = QStringLiteral("/opt/diamond");
    QString version; ///< label; Diamond's version when empty
};

/// Apptainer/Singularity definition file (Bootstrap: docker).
QString apptainerDefinition(const ContainerRecipeOptions &options = {});
/// Containerfile / Dockerfile.
QString containerfile(const ContainerRecipeOptions &options = {});
/// Engine path inside an image built from these recipes.
QString containerEnginePath(const ContainerRecipeOptions &options = {});

/// A GPU cluster's engine built from source inside a PyTorch CUDA image, against that image's libtorch (what
/// `diamondctl cluster deploy --container` uploads and builds with `apptainer build` in a job).
struct SourceImageOptions {
    /// PyTorch with CUDA, cuDNN and NCCL, and a compiler (a -devel image).
    QString baseImage = QStringLiteral("docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-devel");
    /// The source archive (CMakeLists.txt, cmake/, engine/, third_party/include/), next to the .def file.
    QString sourceArchive = QStringLiteral("diamond-engine-src.tar.gz");
    /// Where the engine goes in the image; the engine is <installDir>/diamond-train.
    QString installDir = QStringLiteral("/opt/diamond");
    QString version; ///< label; Diamond's version when empty
};

/// Apptainer definition that unpacks the sources, installs the build tools and the libraries the engine needs from
/// the image's distribution (HDF5, zlib), configures with DIAMOND_ENGINE_ONLY against the image's PyTorch
/// (torch.utils.cmake_prefix_path) and checks the result with --version (%post and %test).
QString apptainerSourceDefinition(const SourceImageOptions &options = {});
/// Engine path inside an image built by apptainerSourceDefinition().
QString sourceImageEnginePath(const SourceImageOptions &options = {});

} // namespace diamond::remote
