// The sweep file, format "diamond.sweep/1" (docs/sweeps.md): base spec and run config, search space,
// algorithm and settings, objective, limits and seed. Parsing validates every field and names it in the error.
#pragma once

#include "app/sweep/algorithm.h"
#include "app/sweep/search_space.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace diamond::app::sweep {

inline constexpr const char *kSweepFormat = "diamond.sweep/1";

struct SweepObjective {
    QString metric = QStringLiteral("loss");
    bool validation = true; ///< split "val" (else "train")
    bool maximize = false;
    /// Loss for the algorithm (lower is better) from a metric value.
    double loss(double value) const { return maximize ? -value : value; }
    /// "val accuracy (max)".
    QString describe() const;
};

struct SweepDefinition {
    QString name;
    QString project = QStringLiteral("Default");
    QJsonObject spec;   ///< the base spec (read from the file's "spec" path, or embedded)
    QJsonObject config; ///< the base run config
    SearchSpace space;
    AlgorithmSettings algorithm;
    SweepObjective objective;
    bool budgetInSteps = false; ///< limits.budget_unit: "epochs" (default) or "steps"
    int maxConcurrent = 1;
    double totalBudget = 0; ///< 0 = unlimited
    int threadsPerTrial = 1;
    /// limits.packing: new trials launched together train one after another in one engine process
    /// (`diamond-train pack`, docs/trial-packing.md); limits.max_concurrent then counts engine processes.
    bool packing = true;
    int trialsPerPack = 16; ///< limits.trials_per_pack: most trials in one pack
    std::uint64_t seed = 0;
    /// "target": where trials run, "local" (this computer, the default) or the name of a cluster profile of the
    /// workspace (each trial is its own batch job; checked against the workspace by SweepController).
    QString target = QStringLiteral("local");
    /// "job": the job resources of every trial on a cluster target (remote::jobRequestFromJson() fields,
    /// passed as execution["job"] to makeClusterExecutor()).
    QJsonObject job;

    /// "targets": several cluster profiles (a multi-cluster sweep, docs/sweeps.md "Several clusters"): each trial
    /// goes to the target with the earliest predicted finish, at most inFlightLimit() there at once; `target` is then
    /// the first of them. Empty for a sweep with one target.
    QStringList targets;
    /// "target_jobs": job resources of one target in place of "job" (partition names differ between clusters).
    QJsonObject targetJobs;
    /// limits.max_in_flight_per_target: trials queued or running on one target at once (0: max_concurrent).
    int maxPerTarget = 0;
    /// limits.unreachable_after_s: a target that has not answered the polls of a trial for this long is taken out of
    /// the placement and its trials continue on the other targets (multi-cluster sweeps).
    double unreachableAfterSeconds = 60;

    bool isLocal() const { return target == QLatin1String("local"); }
    bool isMultiTarget() const { return targets.size() > 1; }
    /// `targets`, or just `target`.
    QStringList allTargets() const;
    int inFlightLimit() const;
    /// The execution settings of a trial's run on `target` (default: `target`): {"threads", "job"} (cluster
    /// targets; empty for local ones).
    QJsonObject execution(const QString &target) const;
    QJsonObject execution() const { return execution(target); }

    /// Parses a sweep document; relative "spec"/"config" paths are read relative to `baseDir`. The embedded
    /// form ("spec"/"config" as objects) is what toJson() writes and the database stores.
    static std::optional<SweepDefinition> fromJson(const QJsonObject &doc, const QString &baseDir, QString *error);
    /// Reads and parses a sweep file.
    static std::optional<SweepDefinition> fromFile(const QString &path, QString *error);
    /// The document with spec and config embedded.
    QJsonObject toJson() const;

    /// The trial's spec and run config: the sample applied, the budget (epochs or steps) set, threads set.
    bool trialDocuments(const QJsonObject &sample, double budget, QJsonObject *spec, QJsonObject *config,
                        QString *error) const;
    /// The run config with its budget replaced by `budget`.
    QJsonObject withBudget(QJsonObject config, double budget) const;
};

} // namespace diamond::app::sweep
