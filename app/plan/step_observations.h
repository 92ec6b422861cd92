// What the performance model learns from finished runs (docs/planning.md, "Learning from finished runs"). Every run
// that finishes leaves one observation: its measured step time (the engine's `finished.steps_per_s`) next to the
// model's prediction for it without learning, and how that prediction was made up (the share of Conv, Linear,
// elementwise, optimizer, all-reduce and per-step overhead time). Observations are kept per device profile, in
// <workspace>/device-profiles/<profile>.observations.jsonl (the newest kMaxObservations), and only those made with
// the profile's current calibration count.
//
// learnedCorrection(): the observations most like a new prediction (same single- or multi-rank kind, nearest in
// make-up, within kMaxDistance) give a factor, the weighted geometric mean of their measured / predicted ratios; it
// is applied only with at least kMinRuns of them. The confidence becomes "high" when kMinRuns or more agree within
// 25 % and "medium" otherwise.
#pragma once

#include "app/plan/perf_model.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace diamond::app {

class Workspace;

inline constexpr int kMaxObservations = 500;

struct StepObservation {
    qint64 runId = 0;
    QString profileMeasuredAt; ///< the calibration it was predicted with (DeviceProfile::measuredAt)
    int ranks = 1;
    qint64 batch = 0;
    double predictedSeconds = 0; ///< the model without learning
    double measuredSeconds = 0;
    QMap<QString, double> shares; ///< predictionShares() of that prediction
    QString at;                   ///< when it was recorded (UTC, ISO 8601)

    QJsonObject toJson() const;
    /// nullopt when a field is missing, not finite or not positive.
    static std::optional<StepObservation> fromJson(const QJsonObject &json);
};

/// How a prediction's time is made up: shares (summing to 1) under "conv2d", "linear", "elementwise", "optimizer",
/// "allreduce" and "overhead".
QMap<QString, double> predictionShares(const StepPrediction &prediction);

struct LearnedCorrection {
    double factor = 1; ///< multiply the predicted step time by this
    int runs = 0;      ///< observations it comes from (0: none applied)
    double spread = 0; ///< largest / smallest ratio among them
};

inline constexpr int kMinRuns = 2;
inline constexpr double kMaxDistance = 0.35; ///< L1 distance of the shares, plus 0.1 per doubling of the batch

LearnedCorrection learnedCorrection(const StepPrediction &prediction, int ranks, qint64 batch,
                                    const QList<StepObservation> &observations);
/// Scales the step time and samples/s, sets the confidence and adds a note saying from how many runs.
void applyLearnedCorrection(StepPrediction *prediction, const LearnedCorrection &correction);

class StepObservationStore {
public:
    explicit StepObservationStore(Workspace &ws) : ws_(ws) {}
    QString pathOf(const QString &profileName) const;
    /// Appends one line (dropping the oldest beyond kMaxObservations); false with *error.
    bool append(const QString &profileName, const StepObservation &observation, QString *error);
    /// The observations made with the calibration `measuredAt` (at most kMaxObservations, 4 MiB read at most).
    QList<StepObservation> load(const QString &profileName, const QString &measuredAt) const;

private:
    Workspace &ws_;
};

} // namespace diamond::app
