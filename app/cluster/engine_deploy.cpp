#include "app/cluster/engine_deploy.h"

#include "app/run/executor.h"
#include "remote/command_runner.h"
#include "remote/container_recipes.h"
#include "remote/engine_bundle.h"
#include "remote/job_script.h"

#include "diamond/version.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTemporaryDir>

#include <gnu/libc-version.h>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::EngineDeploy", text); }

QString outputOf(const remote::CommandResult &r) {
    const QByteArray text = (r.stderrData.trimmed().isEmpty() ? r.stdoutData : r.stderrData).trimmed();
    return r.error.isEmpty() ? QString::fromUtf8(text.right(800)) : r.error;
}

QByteArray fileSha256(const QString &path) {
    QFile f(path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!f.open(QIODevice::ReadOnly) || !hash.addData(&f)) return {};
    return hash.result().toHex();
}

/// "2.36" -> {2, 36}; {0, 0} when unreadable.
std::pair<int, int> glibcVersion(const QString &text) {
    static const QRegularExpression re(QStringLiteral("([0-9]+)\\.([0-9]+)"));
    const auto m = re.match(text);
    return m.hasMatch() ? std::pair{m.captured(1).toInt(), m.captured(2).toInt()} : std::pair{0, 0};
}

/// Same CPU architecture, and a glibc at least as new as this computer's (the bundle leaves glibc to the cluster).
bool checkBundleFits(remote::CommandRunner &runner, QString *error) {
    const remote::CommandResult r = runner.run(QStringLiteral("uname -m; getconf GNU_LIBC_VERSION"), {}, 30000);
    if (!r.ok()) return *error = tr("Cannot read the cluster's architecture: %1").arg(outputOf(r)), false;
    const QStringList lines = QString::fromUtf8(r.stdoutData).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QString arch = lines.value(0).trimmed();
    const QString here = QSysInfo::currentCpuArchitecture();
    const bool sameArch = arch == here || (arch == QLatin1String("aarch64") && here == QLatin1String("arm64"));
    if (!sameArch)
        return *error = tr("The cluster's CPUs are %1, this computer's %2: a bundle of this computer's engine cannot "
                           "run there. Deploy a container (--container) instead.")
                            .arg(arch, here),
               false;
    const auto theirs = glibcVersion(lines.value(1));
    const auto ours = glibcVersion(QString::fromLatin1(gnu_get_libc_version()));
    if (theirs.first > 0 && theirs < ours)
        return *error = tr("The cluster's C library is glibc %1.%2, older than this computer's %3.%4: a bundle of "
                           "this computer's engine would not start there. Deploy a container (--container) instead.")
                            .arg(theirs.first)
                            .arg(theirs.second)
                            .arg(ours.first)
                            .arg(ours.second),
               false;
    return true;
}

/// Uploads `local` to `remotePath` with progress and checks its SHA-256 there.
bool uploadChecked(remote::CommandRunner &runner, const QString &local, const QString &remotePath,
                   const DeployProgress &progress, QString *error) {
    const QString name = QFileInfo(local).fileName();
    int lastPercent = -1;
    const bool ok = runner.upload(local, remotePath, error, [&](qint64 done, qint64 total) {
        const int percent = total > 0 ? int(100 * done / total) : 100;
        if (percent / 10 != lastPercent / 10 && progress) progress(tr("Uploading %1: %2 %…").arg(name).arg(percent));
        lastPercent = percent;
        return true;
    });
    if (!ok) return *error = tr("Uploading %1 failed: %2").arg(name, *error), false;
    const remote::CommandResult r =
        runner.run(QStringLiteral("sha256sum %1").arg(remote::shellWord(remotePath)), {}, 600000);
    if (!r.ok() || r.stdoutData.left(64) != fileSha256(local))
        return *error = tr("%1 arrived damaged on the cluster (SHA-256 differs): %2").arg(name, outputOf(r)), false;
    return true;
}

/// `<engine> --version` there; the version line, or empty with *error.
QString checkVersion(remote::CommandRunner &runner, const QString &command, QString *error) {
    const remote::CommandResult r = runner.run(command, {}, 300000);
    if (!r.ok() || !r.stdoutData.contains("diamond-train"))
        return *error = tr("The deployed engine does not start on the cluster: %1").arg(outputOf(r)), QString();
    return QString::fromUtf8(r.stdoutData.trimmed().split('\n').first());
}

QString defaultLocalEngine() { return LocalExecutor::defaultEnginePath(); }

QString defaultSourceDir() {
#ifdef DIAMOND_SOURCE_DIR
    return QStringLiteral(DIAMOND_SOURCE_DIR);
#else
    return {};
#endif
}

std::optional<EngineDeployment> deployBundle(remote::CommandRunner &runner, const remote::ClusterProfile &profile,
                                             const EngineDeployOptions &o, const DeployProgress &progress,
                                             QString *error) {
    const QString engine = o.localEngine.isEmpty() ? defaultLocalEngine() : o.localEngine;
    if (!QFileInfo(engine).isExecutable())
        return *error = tr("%1 is not an engine this computer can bundle.").arg(engine), std::nullopt;
    if (progress) progress(tr("Checking the cluster's architecture…"));
    if (!checkBundleFits(runner, error)) return std::nullopt;
    QTemporaryDir tmp;
    if (!tmp.isValid()) return *error = tr("Cannot create a temporary folder: %1").arg(tmp.errorString()), std::nullopt;
    const QString name = QStringLiteral("diamond-train-%1").arg(QStringLiteral(DIAMOND_VERSION));
    if (progress) progress(tr("Packing the engine and its libraries…"));
    remote::EngineBundle bundle;
    const QString tarball = tmp.filePath(name + QStringLiteral(".tar.gz"));
    if (!remote::createEngineBundle(engine, tmp.filePath(name), &bundle, error) ||
        !remote::packBundle(tmp.filePath(name), tarball, error))
        return std::nullopt;
    const QString dir = engineDeployDir(profile);
    const QString remoteTarball = dir + QLatin1Char('/') + name + QStringLiteral(".tar.gz");
    remote::CommandResult r = runner.run(
        QStringLiteral("mkdir -p %1 && rm -f %2").arg(remote::shellWord(dir), remote::shellWord(remoteTarball)), {},
        30000);
    if (!r.ok()) return *error = tr("Cannot create %1 on the cluster: %2").arg(dir, outputOf(r)), std::nullopt;
    if (!uploadChecked(runner, tarball, remoteTarball, progress, error)) return std::nullopt;
    if (progress) progress(tr("Unpacking on the cluster…"));
    // Unpacked beside the old copy, which is replaced only once the new one is complete.
    const QString unpack = remote::shellWord(name + QStringLiteral(".unpack"));
    const QString target = remote::shellWord(name);
    r = runner.run(
        QStringLiteral("cd %1 && rm -rf %2 && mkdir %2 && tar -xzf %3 -C %2 && rm -rf %4 && mv %2/%4 %4 && "
                       "rmdir %2 && rm -f %3")
            .arg(remote::shellWord(dir), unpack, remote::shellWord(name + QStringLiteral(".tar.gz")), target),
        {}, 600000);
    if (!r.ok()) return *error = tr("Unpacking the engine on the cluster failed: %1").arg(outputOf(r)), std::nullopt;
    EngineDeployment d;
    d.enginePath = dir + QLatin1Char('/') + name + QStringLiteral("/diamond-train");
    d.uploadedBytes = QFileInfo(tarball).size();
    if (progress) progress(tr("Starting the engine there…"));
    d.version = checkVersion(runner, remote::shellWord(d.enginePath) + QStringLiteral(" --version"), error);
    if (d.version.isEmpty()) return std::nullopt;
    return d;
}

std::optional<EngineDeployment> deployContainer(remote::CommandRunner &runner, const remote::ClusterProfile &profile,
                                                const EngineDeployOptions &o, const DeployProgress &progress,
                                                QString *error) {
    const QString sourceDir = o.sourceDir.isEmpty() ? defaultSourceDir() : o.sourceDir;
    if (sourceDir.isEmpty() || !QFileInfo::exists(sourceDir + QStringLiteral("/engine/train/trainer.cpp")))
        return *error = tr("A container is built from Diamond's sources; %1 does not hold them (give the source "
                           "folder).")
                            .arg(sourceDir.isEmpty() ? tr("this installation") : sourceDir),
               std::nullopt;
    remote::SourceImageOptions recipe;
    if (!o.baseImage.isEmpty()) recipe.baseImage = o.baseImage;
    const QString dir = engineDeployDir(profile);
    const QString stem = QStringLiteral("diamond-train-%1").arg(QStringLiteral(DIAMOND_VERSION));
    const QString definition = dir + QLatin1Char('/') + stem + QStringLiteral(".def");
    const QString image = dir + QLatin1Char('/') + stem + QStringLiteral(".sif");
    QString buildError;
    const QString build = imageBuildCommand(profile, definition, image + QStringLiteral(".new"), o.partition,
                                            o.buildMinutes, &buildError);
    if (build.isEmpty()) return *error = buildError, std::nullopt;

    QTemporaryDir tmp;
    if (!tmp.isValid()) return *error = tr("Cannot create a temporary folder: %1").arg(tmp.errorString()), std::nullopt;
    if (progress) progress(tr("Packing the engine's sources…"));
    const QString archive = tmp.filePath(recipe.sourceArchive);
    if (!writeEngineSourceArchive(sourceDir, archive, error)) return std::nullopt;
    remote::CommandResult r = runner.run(QStringLiteral("mkdir -p %1").arg(remote::shellWord(dir)), {}, 30000);
    if (!r.ok()) return *error = tr("Cannot create %1 on the cluster: %2").arg(dir, outputOf(r)), std::nullopt;
    if (!uploadChecked(runner, archive, dir + QLatin1Char('/') + recipe.sourceArchive, progress, error))
        return std::nullopt;
    r = runner.run(QStringLiteral("cat > %1").arg(remote::shellWord(definition)),
                   remote::apptainerSourceDefinition(recipe).toUtf8(), 30000);
    if (!r.ok()) return *error = tr("Cannot write %1 on the cluster: %2").arg(definition, outputOf(r)), std::nullopt;
    if (progress)
        progress(tr("Building the image on the cluster (a job of up to %1 min; about 10 min once it runs)…")
                     .arg(o.buildMinutes));
    r = runner.run(build, {}, (o.buildMinutes + 30) * 60 * 1000);
    if (!r.ok())
        return *error = tr("Building the image failed (exit %1): %2").arg(r.exitCode).arg(outputOf(r)), std::nullopt;
    r = runner.run(
        QStringLiteral("mv -f %1 %2").arg(remote::shellWord(image + QStringLiteral(".new")), remote::shellWord(image)),
        {}, 60000);
    if (!r.ok()) return *error = tr("The build left no image: %1").arg(outputOf(r)), std::nullopt;
    EngineDeployment d;
    d.image = image;
    d.enginePath = remote::sourceImageEnginePath(recipe);
    d.uploadedBytes = QFileInfo(archive).size();
    if (progress) progress(tr("Starting the engine in the image…"));
    remote::ContainerSettings apptainer = profile.container;
    apptainer.runtime = remote::ContainerRuntime::Apptainer;
    d.version = checkVersion(runner,
                             remote::shellWords({apptainer.program(), QStringLiteral("exec"), image, d.enginePath,
                                                 QStringLiteral("--version")}),
                             error);
    if (d.version.isEmpty()) return std::nullopt;
    return d;
}

} // namespace

QString engineDeployDir(const remote::ClusterProfile &profile) {
    return profile.scratchDir + QStringLiteral("/engine");
}

QString imageBuildCommand(const remote::ClusterProfile &profile, const QString &definition, const QString &image,
                          const QString &partition, int minutes, QString *error) {
    static const QRegularExpression word(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"));
    if (!partition.isEmpty() && !word.match(partition).hasMatch())
        return *error = tr("\"%1\" is not a partition name (letters, digits, '.', '_' and '-').").arg(partition),
               QString();
    if (minutes < 1 || minutes > 24 * 60)
        return *error = tr("The build's time limit must be 1 to 1440 minutes."), QString();
    if (profile.scheduler == remote::SchedulerKind::Pbs)
        return *error = tr("Building an image on \"%1\" needs Slurm (one srun job step) or no scheduler; it uses PBS.")
                            .arg(profile.name),
               QString();
    remote::ContainerSettings apptainer = profile.container;
    apptainer.runtime = remote::ContainerRuntime::Apptainer;
    // --fakeroot: a definition that installs packages needs root inside the build, which users do not have.
    const QString build =
        remote::shellWords({apptainer.program(), QStringLiteral("build"), QStringLiteral("--fakeroot"),
                            QStringLiteral("--force"), image, definition});
    QString s = QStringLiteral("set -u\ncd %1 || exit 1\n").arg(remote::shellWord(QFileInfo(definition).path()));
    if (!profile.modules.isEmpty())
        s += QStringLiteral("module load %1 || exit 1\n").arg(remote::shellWords(profile.modules));
    if (profile.scheduler == remote::SchedulerKind::None) return s + build + QLatin1Char('\n');
    QStringList srun{QStringLiteral("srun"), QStringLiteral("--job-name=diamond-build-engine"),
                     QStringLiteral("--nodes=1"), QStringLiteral("--ntasks=1"),
                     QStringLiteral("--time=%1").arg(minutes)};
    if (!partition.isEmpty()) srun << QStringLiteral("--partition=%1").arg(partition);
    if (!profile.account.isEmpty()) srun << QStringLiteral("--account=%1").arg(remote::shellWord(profile.account));
    return s + srun.join(QLatin1Char(' ')) + QLatin1Char(' ') + build + QLatin1Char('\n');
}

bool writeEngineSourceArchive(const QString &sourceDir, const QString &archive, QString *error) {
    QTemporaryDir stage;
    if (!stage.isValid()) return *error = tr("Cannot create a temporary folder: %1").arg(stage.errorString()), false;
    // The header-only libraries the engine includes travel with it: an image's distribution may lack them or ship
    // older versions (Ubuntu 22.04's nlohmann-json is 3.10; the engine wants 3.11).
    const QString thirdParty = stage.filePath(QStringLiteral("third_party/include"));
    QDir().mkpath(thirdParty);
    QStringList copy{QStringLiteral("cp"), QStringLiteral("-R")};
    for (const char *header :
         {"/usr/include/nlohmann", "/usr/include/stb", "/usr/include/stb_image.h", "/usr/include/stb_image_write.h"})
        if (QFileInfo::exists(QString::fromLatin1(header))) copy << QString::fromLatin1(header);
    copy << thirdParty;
    QProcess cp;
    cp.start(copy.takeFirst(), copy);
    if (!cp.waitForFinished(120000) || cp.exitCode() != 0)
        return *error = tr("Copying the engine's header libraries failed: %1")
                            .arg(QString::fromLocal8Bit(cp.readAllStandardError()).trimmed()),
               false;
    QProcess tar;
    tar.start(QStringLiteral("tar"),
              {QStringLiteral("-czf"), QFileInfo(archive).absoluteFilePath(), QStringLiteral("--exclude=tests"),
               QStringLiteral("--exclude=fuzz"), QStringLiteral("-C"), sourceDir, QStringLiteral("CMakeLists.txt"),
               QStringLiteral("cmake"), QStringLiteral("engine"), QStringLiteral("-C"), stage.path(),
               QStringLiteral("third_party")});
    if (!tar.waitForFinished(600000) || tar.exitCode() != 0)
        return *error = tr("Packing the engine's sources failed: %1")
                            .arg(QString::fromLocal8Bit(tar.readAllStandardError()).trimmed()),
               false;
    return true;
}

std::optional<EngineDeployment> deployEngine(remote::CommandRunner &runner, const remote::ClusterProfile &profile,
                                             const EngineDeployOptions &options, const DeployProgress &progress,
                                             QString *error) {
    if (profile.scratchDir.isEmpty())
        return *error = tr("Cluster \"%1\" has no scratch folder to deploy into.").arg(profile.name), std::nullopt;
    QElapsedTimer clock;
    clock.start();
    auto d = options.container ? deployContainer(runner, profile, options, progress, error)
                               : deployBundle(runner, profile, options, progress, error);
    if (d) d->seconds = clock.elapsed() / 1000.0;
    return d;
}

QJsonObject deploymentJson(const QString &cluster, const EngineDeployOptions &options,
                           const EngineDeployment &deployment) {
    return {{QStringLiteral("cluster"), cluster},
            {QStringLiteral("kind"), options.container ? QStringLiteral("container") : QStringLiteral("bundle")},
            {QStringLiteral("engine_path"), deployment.enginePath},
            {QStringLiteral("image"), deployment.image},
            {QStringLiteral("version"), deployment.version},
            {QStringLiteral("uploaded_bytes"), deployment.uploadedBytes},
            {QStringLiteral("seconds"), deployment.seconds}};
}

remote::ClusterProfile withDeployment(remote::ClusterProfile profile, const EngineDeployOptions &options,
                                      const EngineDeployment &deployment) {
    profile.enginePath = deployment.enginePath;
    if (options.container) {
        profile.container.runtime = remote::ContainerRuntime::Apptainer;
        profile.container.image = deployment.image;
    } else {
        profile.container.runtime = remote::ContainerRuntime::None;
        profile.container.image.clear();
    }
    return profile;
}

} // namespace diamond::app
