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
