// Pipeline stages placed by the performance model (docs/planning.md): each node's predicted forward + backward time at
// the micro-batch size (predictStep), each cut's transfer time (the values that cross it, forward and their gradients
// back, timed with the profile's point-to-point sends), the cut that makes the slowest stage fastest
// (spec::balancedCut), and the GPipe step time that follows: every stage runs each micro-batch once forward and once
// backward, so a step takes the sum of the stages' times for one micro-batch plus (micro-batches - 1) times the slowest
// stage's, then the slowest stage's optimizer update.
#pragma once

#include "app/plan/perf_model.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace diamond::app {

struct PipelineInputs {
    int stages = 2;       ///< processes, one per stage
    int microBatches = 4; ///< must divide StepInputs::batch
    /// The node after which each stage but the last ends; empty: chosen here.
    QStringList cut;
};

struct StagePrediction {
    QStringList nodes;          ///< in run order
    double computeSeconds = 0;  ///< forward + backward of one micro-batch
    double transferSeconds = 0; ///< receiving its inputs and sending its outputs, with their gradients, per micro-batch
    double optimizerSeconds = 0; ///< its parameters' update, once per step
    double stepSeconds = 0;      ///< (computeSeconds + transferSeconds) x micro-batches + optimizerSeconds
    qint64 parameters = 0;
    qint64 peakMemoryBytes = 0; ///< its network at the whole batch (GPipe keeps every micro-batch's activations), the
                                ///< data and the runtime's memory
    qint64 activationBytes = 0;
};

struct PipelinePrediction {
    bool ok = false;
    QString error;
    QStringList cut;
    bool cutChosen = false; ///< the cut was chosen here (not given)
    QList<StagePrediction> stages;
    double stepSeconds = 0;
    double samplesPerSecond = 0;
    /// The share of a step a stage waits on average: 1 - (sum of the stages' busy time) / (stages x step).
    double bubbleFraction = 0;
    qint64 peakMemoryBytes = 0; ///< the largest stage's
    QJsonObject toJson() const;
};

/// Predicts a pipeline of `pipe.stages` stages for `specText` with `in` (its batch is the whole batch; ranks and
/// sharding are ignored: one process per stage) on `profile`, choosing the cut when pipe.cut is empty.
PipelinePrediction predictPipeline(const QByteArray &specText, const StepInputs &in, const PipelineInputs &pipe,
                                   const DeviceProfile &profile);

/// The seconds to send `bytes` to another process on `profile`: its point-to-point timings (`send`, calibrated with
/// several ranks), or 0.05 ms + 3.5 GB/s (Gloo on loopback, measured) without them.
double transferSeconds(const DeviceProfile &profile, double bytes);

} // namespace diamond::app
