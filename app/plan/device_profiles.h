// Where calibration profiles live: <workspace>/device-profiles/<name>.json, "this-computer" for the computer the
// workspace is on and a cluster profile's name for a cluster (diamondctl cluster calibrate). Files are read with a
// size cap (1 MiB) and parsed by DeviceProfile::fromJson.
#pragma once

#include "app/plan/perf_model.h"
#include "app/plan/step_observations.h"
#include "remote/cluster_profile.h"
#include "remote/engine_command.h"

#include <QMap>

namespace diamond::app {

class Workspace;

/// The profiles a plan for one target uses (DeviceProfileStore::forTarget).
struct TargetProfiles {
    std::optional<DeviceProfile> base;       ///< the cluster's, else this computer's; none before the first calibration
    QString baseName;                        ///< its name ("this-computer" or the cluster's)
    QMap<QString, DeviceProfile> partitions; ///< partitions calibrated on their own ("<cluster>.<partition>")
    /// By profile name: the finished runs each profile's current calibration has observed (step_observations.h).
    QMap<QString, QList<StepObservation>> observations;
    /// The profile for `partition` and its name: the partition's own, else the base.
    const DeviceProfile &of(const QString &partition, QString *name) const;
};

class DeviceProfileStore {
public:
    static constexpr const char *kThisComputer = "this-computer";

    explicit DeviceProfileStore(Workspace &ws) : ws_(ws) {}

    QString pathOf(const QString &name) const;
    /// nullopt with *error when there is none or it is unreadable (the error says which).
    std::optional<DeviceProfile> load(const QString &name, QString *error) const;
    /// For a cluster: "<cluster>.<partition>" for every partition calibrated on its own, and "<cluster>" (else this
    /// computer's) as the base; for this computer (nullopt): this computer's. *error says why base is missing.
    TargetProfiles forTarget(const std::optional<remote::ClusterProfile> &cluster, QString *error) const;
    /// Writes the profile atomically; false with *error.
    bool save(const QString &name, const QJsonObject &profile, QString *error);
    /// Runs `enginePath calibrate --dir <profiles folder>` and saves its profile as this computer's. Blocking (about 5
    /// s, at most `timeoutMs`): for the command line and worker threads.
    std::optional<DeviceProfile> calibrateThisComputer(const QString &enginePath, QString *error,
                                                       int timeoutMs = 120000);
    /// The engine command that calibrates this computer (its working folder, the profiles folder, is created);
    /// nullopt with *error.
    std::optional<remote::EngineCommand> thisComputerCalibration(const QString &enginePath, QString *error);
    /// Parses `calibrate`'s standard output and saves it as this computer's profile; nullopt with *error.
    std::optional<DeviceProfile> saveThisComputer(const QByteArray &calibrateOutput, QString *error);

private:
    Workspace &ws_;
};

} // namespace diamond::app
