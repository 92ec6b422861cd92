#include "app/plan/device_profiles.h"

#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSaveFile>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("DeviceProfileStore", text); }

constexpr qint64 kMaxProfileBytes = 1 << 20;

/// A file name inside device-profiles/: "this-computer", "<cluster>" or "<cluster>.<partition>"; no '/', no "..".
bool isProfileName(const QString &name) {
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"));
    return valid.match(name).hasMatch() && !name.contains(QLatin1String(".."));
}

} // namespace

QString DeviceProfileStore::pathOf(const QString &name) const {
    return QDir(ws_.path()).filePath(QStringLiteral("device-profiles/%1.json").arg(name));
}

std::optional<DeviceProfile> DeviceProfileStore::load(const QString &name, QString *error) const {
    if (!isProfileName(name)) return *error = tr("Not a profile name: \"%1\".").arg(name), std::nullopt;
    QFile f(pathOf(name));
    if (!f.exists()) return *error = tr("No device profile \"%1\" yet.").arg(name), std::nullopt;
    if (f.size() > kMaxProfileBytes)
        return *error = tr("%1 is larger than a device profile can be (1 MiB).").arg(f.fileName()), std::nullopt;
    if (!f.open(QIODevice::ReadOnly))
        return *error = tr("Cannot read %1: %2").arg(f.fileName(), f.errorString()), std::nullopt;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.read(kMaxProfileBytes), &parseError);
    if (!doc.isObject())
        return *error = tr("%1 is not a JSON object: %2").arg(f.fileName(), parseError.errorString()), std::nullopt;
    QString why;
    auto profile = DeviceProfile::fromJson(doc.object(), &why);
    if (!profile) return *error = tr("%1: %2").arg(f.fileName(), why), std::nullopt;
    return profile;
}

const DeviceProfile &TargetProfiles::of(const QString &partition, QString *name) const {
    const auto it = partitions.constFind(partition);
    if (it != partitions.constEnd()) {
        *name = baseName + QLatin1Char('.') + partition;
        return *it;
    }
    *name = baseName;
    return *base;
}

TargetProfiles DeviceProfileStore::forTarget(const std::optional<remote::ClusterProfile> &cluster,
                                             QString *error) const {
    TargetProfiles t;
    QString ignored;
    if (cluster) {
        t.base = load(cluster->name, &ignored);
        if (t.base) t.baseName = cluster->name;
        for (const remote::PartitionInfo &p : cluster->partitions)
            if (QFile::exists(pathOf(cluster->name + QLatin1Char('.') + p.name)))
                if (auto own = load(cluster->name + QLatin1Char('.') + p.name, &ignored))
                    t.partitions.insert(p.name, *own);
    }
    if (!t.base) {
        t.base = load(QLatin1String(kThisComputer), error);
        t.baseName = QLatin1String(kThisComputer);
    }
    if (!t.base) {
        t.partitions.clear(); // every profile is read through the base's name
        return t;
    }
    const StepObservationStore observations(ws_);
    t.observations.insert(t.baseName, observations.load(t.baseName, t.base->measuredAt));
    for (auto it = t.partitions.cbegin(); it != t.partitions.cend(); ++it) {
        const QString name = t.baseName + QLatin1Char('.') + it.key();
        t.observations.insert(name, observations.load(name, it->measuredAt));
    }
    return t;
}

bool DeviceProfileStore::save(const QString &name, const QJsonObject &profile, QString *error) {
    if (!isProfileName(name)) return *error = tr("Not a profile name: \"%1\".").arg(name), false;
    const QString path = pathOf(name);
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) return *error = tr("Cannot create %1.").arg(path), false;
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(profile).toJson()) < 0 || !f.commit())
        return *error = tr("Cannot write %1: %2").arg(path, f.errorString()), false;
    return true;
}

std::optional<remote::EngineCommand> DeviceProfileStore::thisComputerCalibration(const QString &enginePath,
                                                                                 QString *error) {
    const QString dir = QFileInfo(pathOf(QLatin1String(kThisComputer))).absolutePath();
    if (!QDir().mkpath(dir)) return *error = tr("Cannot create %1.").arg(dir), std::nullopt;
    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::Calibrate;
    command.enginePath = enginePath;
    command.runDir = dir;
    return command;
}

std::optional<DeviceProfile> DeviceProfileStore::saveThisComputer(const QByteArray &calibrateOutput, QString *error) {
    const QJsonDocument doc = QJsonDocument::fromJson(calibrateOutput.left(kMaxProfileBytes));
    QString why;
    auto profile = DeviceProfile::fromJson(doc.object(), &why);
    if (!profile) return *error = tr("Calibration printed no profile: %1").arg(why), std::nullopt;
    if (!save(QLatin1String(kThisComputer), doc.object(), error)) return std::nullopt;
    return profile;
}

std::optional<DeviceProfile> DeviceProfileStore::calibrateThisComputer(const QString &enginePath, QString *error,
                                                                       int timeoutMs) {
    const auto command = thisComputerCalibration(enginePath, error);
    if (!command) return std::nullopt;
    QProcess engine;
    engine.start(enginePath, command->arguments());
    if (!engine.waitForStarted(30000))
        return *error = tr("Cannot start %1: %2").arg(enginePath, engine.errorString()), std::nullopt;
    if (!engine.waitForFinished(timeoutMs)) {
        engine.kill();
        engine.waitForFinished(5000);
        return *error = tr("Calibration took longer than %1 s and was stopped.").arg(timeoutMs / 1000), std::nullopt;
    }
    if (engine.exitStatus() != QProcess::NormalExit || engine.exitCode() != 0)
        return *error = tr("Calibration failed: %1")
                            .arg(QString::fromUtf8(engine.readAllStandardError().trimmed().right(400))),
               std::nullopt;
    return saveThisComputer(engine.readAllStandardOutput(), error);
}

} // namespace diamond::app
