// Measured data-parallel width (issue #18, docs/planning.md "Choosing the number of processes"): when the user asks
// (`diamondctl run plan --measure-width`, POST /api/v1/plans with "measure_width"), the run is trained for a few
// seconds at each width this computer offers, N = 1, 2, 4 … ranks of cores / N threads, and with one rank of cores / N
// threads (the T1 of the scaling efficiency E(N) = T1 / (N * TN) at the same threads per process); the measured step
// times replace the model's predictions. On this computer only: a cluster's widths would need jobs.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

struct WidthProbeRequest {
    QString enginePath;
    QJsonObject spec, config;
    QString dataPath;               ///< --data-path for a registered dataset (DatasetStore::localCopy), else empty
    int cores = 1;                  ///< widths 1, 2, 4 … up to this many cores in all
    int threadsPerRank = 0;         ///< 0: each of N ranks gets cores / N threads; else this many (N * it <= cores)
    double secondsPerStep = 0;      ///< the dry run's (1 rank): sizes each probe to about `probeSeconds`
    double probeSeconds = 3;        ///< training time per width
    int timeoutMs = 10 * 60 * 1000; ///< per probe
};

struct WidthProbe {
    int ranks = 1;
    int threadsPerRank = 1;
    qint64 steps = 0;
    double stepSeconds = 0; ///< 1 / the engine's finished.steps_per_s
};

/// Runs the probes one after another and blocks until they end (the planner's worker thread or CLI): (N, t) and
/// (1, t) for each width N, t its threads per rank. Widths that do not divide the batch are skipped. nullopt with
/// *error naming the width when a probe fails.
std::optional<QList<WidthProbe>> probeWidths(const WidthProbeRequest &request, QString *error);

} // namespace diamond::app
