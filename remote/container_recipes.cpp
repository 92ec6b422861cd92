#include "remote/container_recipes.h"

#include "diamond/version.h"

#include <QRegularExpression>

namespace diamond::remote {

namespace {
QString versionOf(const ContainerRecipeOptions &o) {
    return o.version.isEmpty() ? QStringLiteral(DIAMOND_VERSION) : o.version;
}
} // namespace

QString containerEnginePath(const ContainerRecipeOptions &o) { return o.installDir + QStringLiteral("/diamond-train"); }

QString apptainerDefinition(const ContainerRecipeOptions &o) {
    const QString base = QString(o.baseImage).remove(QRegularExpression(QStringLiteral("^docker://")));
    return QStringLiteral("# Diamond %1: diamond-train on CUDA + NCCL. Build on the cluster:\n"
                          "#   apptainer build diamond-train.sif diamond-train.def\n"
                          "# Run (the job scripts do this): apptainer exec --nv diamond-train.sif %4 --help\n"
                          "Bootstrap: docker\n"
                          "From: %2\n\n"
                          "%files\n"
                          "    %3 %5\n\n"
                          "%post\n"
                          "    chmod -R a+rX %5\n"
                          "    %4 --version\n\n"
                          "%environment\n"
                          "    export PATH=%5:$PATH\n"
                          "    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}\n\n"
                          "%runscript\n"
                          "    exec %4 \"$@\"\n\n"
                          "%labels\n"
                          "    org.opencontainers.image.title diamond-train\n"
                          "    org.opencontainers.image.version %1\n\n"
                          "%help\n"
                          "    The Diamond training engine. Signals: SIGTERM/SIGUSR1 checkpoint and exit 85.\n")
        .arg(versionOf(o), base, o.bundleDir, containerEnginePath(o), o.installDir);
}

QString sourceImageEnginePath(const SourceImageOptions &o) { return o.installDir + QStringLiteral("/diamond-train"); }

QString apptainerSourceDefinition(const SourceImageOptions &o) {
    const QString base = QString(o.baseImage).remove(QRegularExpression(QStringLiteral("^docker://")));
    const QString version = o.version.isEmpty() ? QStringLiteral(DIAMOND_VERSION) : o.version;
    return QStringLiteral(
               "# Diamond %1: diamond-train built from source against the PyTorch (CUDA + NCCL) of %2.\n"
               "# Built on the cluster by `diamondctl cluster deploy --container`:\n"
               "#   apptainer build diamond-train-%1.sif diamond-train-%1.def\n"
               "Bootstrap: docker\n"
               "From: %2\n\n"
               "%files\n"
               "    %3 /opt/diamond-src.tar.gz\n\n"
               "%post\n"
               "    set -e\n"
               "    export DEBIAN_FRONTEND=noninteractive\n"
               "    apt-get update\n"
               "    apt-get install -y --no-install-recommends cmake ninja-build g++ make pkg-config libhdf5-dev "
               "zlib1g-dev\n"
               "    mkdir -p /opt/diamond-src\n"
               "    tar -xzf /opt/diamond-src.tar.gz -C /opt/diamond-src\n"
               "    TORCH_PREFIX=\"$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')\"\n"
               "    cmake -S /opt/diamond-src -B /opt/diamond-build -G Ninja -DCMAKE_BUILD_TYPE=Release "
               "-DDIAMOND_ENGINE_ONLY=ON -DDIAMOND_THIRD_PARTY_INCLUDE=/opt/diamond-src/third_party/include "
               "-DCMAKE_PREFIX_PATH=\"$TORCH_PREFIX\"\n"
               "    cmake --build /opt/diamond-build --target diamond-train -j\"$(nproc)\"\n"
               "    mkdir -p %4\n"
               "    cp /opt/diamond-build/bin/diamond-train %5\n"
               "    chmod -R a+rX %4\n"
               "    rm -rf /opt/diamond-build /opt/diamond-src /opt/diamond-src.tar.gz /var/lib/apt/lists/*\n"
               "    %5 --version\n\n"
               "%environment\n"
               "    export PATH=%4:$PATH\n"
               "    export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}\n\n"
               "%runscript\n"
               "    exec %5 \"$@\"\n\n"
               "%test\n"
               "    %5 --version\n\n"
               "%labels\n"
               "    org.opencontainers.image.title diamond-train\n"
               "    org.opencontainers.image.version %1\n")
        .arg(version, base, o.sourceArchive, o.installDir, sourceImageEnginePath(o));
}

QString containerfile(const ContainerRecipeOptions &o) {
    return QStringLiteral("# Diamond %1: diamond-train on CUDA + NCCL. Build: podman build -t diamond-train:%1 -f "
                          "Containerfile .\n"
                          "FROM %2\n"
                          "LABEL org.opencontainers.image.title=\"diamond-train\" "
                          "org.opencontainers.image.version=\"%1\"\n"
                          "COPY %3/ %5/\n"
                          "RUN chmod -R a+rX %5 && %4 --version\n"
                          "ENV PATH=%5:$PATH\n"
                          "# The engine is PID 1: podman/docker deliver SIGTERM/SIGUSR1 to it (it checkpoints, exits "
                          "85).\n"
                          "ENTRYPOINT [\"%4\"]\n")
        .arg(versionOf(o), o.baseImage, o.bundleDir, containerEnginePath(o), o.installDir);
}

} // namespace diamond::remote
