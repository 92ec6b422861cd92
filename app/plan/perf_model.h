// The performance model (docs/planning.md): predicted step time, samples/s and peak memory of training a spec with
// a batch size, optimizer and number of ranks on a device described by a calibration profile (`diamond-train
// calibrate`, format diamond.device-profile/1). No torch: per-layer costs come from the spec analysis (FLOPs per
// sample, output elements) and the profile's measured rates of the engine's own layers:
//   - Linear and matrix-product layers: FLOPs / the Linear probes' rate at that size (log-log interpolation);
//   - convolutions: FLOPs / the Conv2d probes' rate at the layer's input channels per group (log interpolation);
//     profiles without channel-varied probes use the rate at that size;
//   - other layers: the elementwise probes' time at the layer's elements (the larger of what it reads and writes),
//     from the probe of the layer's kind (transcendental, pooling, normalization) when the profile has one;
//     a ReLU that the engine folds into its producer (a Linear layer it alone consumes) or into the max-pool after
//     it costs nothing;
//   - convolutions and pools scaled by what a small CNN trained for real took beyond its probes (the profile's
//     reference_step_conv: a convolution inside training runs slower than alone, e.g. its input is not in cache);
//   - the optimizer's cost per parameter; with several ranks, an all-reduce of the gradients (interpolated from the
//     profile's all-reduce timings) plus the small all-reduce every step makes, and compute shared by the ranks.
// Memory: the spec analysis's training-memory estimate (weights, gradients, optimizer state, activations), plus the
// loaded data and the runtime's own memory (thread stacks, allocator arenas, kernel caches), measured as the part of
// the reference step's peak memory growth that its network and data do not explain.
#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

/// A calibration profile, read from the engine's JSON. Rates are per second.
struct DeviceProfile {
    struct Point {
        double flops = 0;   ///< training FLOPs of one probe call (forward + backward)
        double seconds = 0; ///< measured time of that call
    };
    QString device = QStringLiteral("cpu");
    QString host, cpu, measuredAt;
    int threads = 1;
    bool quick = false;
    QString gpuName;              ///< a GPU profile: the device's name (e.g. "NVIDIA H100 80GB HBM3")
    qint64 deviceMemoryBytes = 0; ///< a GPU profile: the device's memory; 0 = unknown
    /// A GPU profile: what one process could allocate on it at calibration (its free memory and what the caching
    /// allocator held; the CUDA context excluded): the limit of a process's network memory; 0 = unknown.
    qint64 deviceMemoryUsableBytes = 0;
    QList<Point> linear, conv2d; ///< sorted by flops
    /// The Conv2d probes' training FLOP rate by input channels, sorted by channels (the largest-FLOP probe per count).
    QList<QPair<double, double>> convRateByChannels;
    double elementwiseSecondsPerElement = 0;  ///< forward + backward of an elementwise layer, per output element
    QList<QPair<double, double>> elementwise; ///< (elements, seconds) of an elementwise layer, sorted
    /// Layers dearer per element than a ReLU, by kind ("transcendental", "pooling", "normalization"): (elements,
    /// seconds), sorted; a kind the profile did not probe uses `elementwise`.
    QHash<QString, QList<QPair<double, double>>> elementwiseKinds;
    double layerOverheadSeconds = 0; ///< forward + backward of a tiny layer
    double sgdNsPerParam = 0, adamNsPerParam = 0;
    double memoryGBs = 0;
    double checkpointWriteMBs = 0;
    QList<QPair<double, double>> allReduce; ///< (bytes, seconds), sorted by bytes
    /// One-way point-to-point messages between two processes (`send`, calibrated with several ranks): (bytes, seconds),
    /// sorted by bytes; empty in older profiles and one-process calibrations.
    QList<QPair<double, double>> send;
    /// A small network trained for real at calibration (`reference_step`, and `reference_step_ranks` with all ranks):
    /// the part of its step time that no probe explains is added to every prediction as the per-step overhead.
    struct Reference {
        QByteArray spec;
        qint64 batch = 0;
        QString optimizer;
        int ranks = 1;
        double stepSeconds = 0;
        /// The same network at a larger batch and at `batch`, both at 1 thread (`larger_batch`): the per-step cost's
        /// growth with the samples. 0 when not measured.
        qint64 largerBatch = 0;
        double largerBatchStepSeconds = 0, largerBatchBaseStepSeconds = 0;
        qint64 peakGrowthBytes = -1; ///< the peak memory its training added to a fresh process; -1 = not measured
        qint64 dataBytes = 0;        ///< of which its data
    };
    std::optional<Reference> reference, referenceRanks;
    /// The same CNN trained on one rank at the profile's threads (`reference_step_conv`): what its convolutions and
    /// pools take in training beyond their probes scales those layers of every prediction (convolutionScale).
    std::optional<Reference> referenceConv;
    /// A small CNN trained with all ranks (`reference_step_ranks_conv`): what its step takes beyond its predicted
    /// layers and referenceRanks' per-step cost is the layers' slow-down beside the other ranks' communication.
    std::optional<Reference> referenceRanksConv;
    QJsonObject source; ///< the profile as read

    /// Parses a profile; nullopt with *error naming the missing or malformed field.
    static std::optional<DeviceProfile> fromJson(const QJsonObject &doc, QString *error);
};

struct StepInputs {
    qint64 batch = 32;                          ///< global batch (split over the ranks)
    QString optimizer = QStringLiteral("adam"); ///< sgd, adam, adamw, rmsprop
    double momentum = 0;                        ///< sgd: momentum > 0 uses the momentum cost
    int ranks = 1;
    int threadsPerRank = 0; ///< 0 = the profile's threads divided by the ranks (at least 1)
    qint64 dataBytes = 0;   ///< the loaded data (the engine's dry-run `data_bytes`): every rank holds all of it
    /// The engine's dry run of this network on this computer (`measured_memory.peak_growth_bytes` at `dryRunBatch`,
    /// one rank, data included), when known: what it holds beyond the network's estimate and the data is the
    /// runtime's memory for this network (kernel workspaces and caches differ between networks) when that is more
    /// than the reference step's.
    qint64 dryRunPeakGrowthBytes = -1;
    qint64 dryRunBatch = 0;
    /// The run config's "sharding": "optimizer" (ZeRO stage 1): with several ranks each holds 1/ranks of the
    /// optimizer state, and every step also gathers the updated weights from all ranks.
    bool shardOptimizer = false;
    /// "sharding": "gradients" (ZeRO stage 2, with shardOptimizer): each rank also keeps only its share of the
    /// gradients, plus the buckets being reduced; the reduce to the owners and the weights' gather together move what
    /// one all-reduce does.
    bool shardGradients = false;
    /// The run config's "recompute" (activation checkpointing): "marked" (the spec's marked nodes), "all", "none" or
    /// "auto" (the nodes spec::chooseRecomputed picks for activationBudgetBytes at this batch per rank, as the engine
    /// does). Recomputed nodes keep less for backward (spec::estimateMemory) and run their forward pass once more.
    QString recompute = QStringLiteral("marked");
    qint64 activationBudgetBytes = 0; ///< the run config's activation_budget_mb, in bytes (recompute "auto")
    /// The "recompute" the dry run (dryRunPeakGrowthBytes) ran with.
    QString dryRunRecompute = QStringLiteral("marked");

    /// batch_size, optimizer name and momentum, sharding and recompute of a diamond.run/1 config (absent: the
    /// defaults).
    static StepInputs fromRunConfig(const QJsonObject &config);
};

struct NodeCost {
    QString id, type;
    double seconds = 0; ///< forward + backward per step on one rank
    QString
        basis; ///< "linear", "conv2d", "elementwise", an elementwise kind (DeviceProfile::elementwiseKinds) or "free"
};

struct StepPrediction {
    bool ok = false;
    QString error;
    double stepSeconds = 0;
    double samplesPerSecond = 0;
    /// allReduceSeconds: the gradients' all-reduce, the step's control all-reduce and, with a sharded optimizer, the
    /// weights' all-gather (half an all-reduce of as many bytes: a ring all-reduce is a reduce-scatter and an
    /// all-gather).
    double computeSeconds = 0, optimizerSeconds = 0, allReduceSeconds = 0;
    bool shardedOptimizer = false; ///< the optimizer state is split over the ranks (memory and all-gather included)
    bool shardedGradients = false; ///< so are the gradients (ZeRO stage 2; implies shardedOptimizer)
    /// The run config's "sharding" for this prediction: "none", "optimizer" or "gradients".
    QString sharding() const;
    QString recompute = QStringLiteral("marked"); ///< the StepInputs' recompute
    qint64 activationBudgetBytes = 0;             ///< the StepInputs' activationBudgetBytes (recompute "auto")
    int recomputedNodes = 0;                      ///< nodes recomputed in backward
    double recomputeSeconds = 0;    ///< their second forward pass (a third of their cost; included in computeSeconds)
    double stepOverheadSeconds = 0; ///< from the profile's reference step
    /// With several ranks: how much longer the layers take beside the other ranks' communication than the probes
    /// (which ran alone) measured, as a fraction (0.4 = 40 % longer; included in computeSeconds).
    double rankContention = 0;
    /// How much longer convolutions and pools take in training than their probes measured, from the profile's CNN
    /// reference (1 = as probed; applied to the layers with basis "conv2d" and "pooling").
    double convolutionScale = 1;
    qint64 peakMemoryBytes = 0;     ///< per rank: weights, gradients, optimizer state, activations, the data and the
                                    ///< runtime's own memory (memoryOverheadBytes)
    qint64 memoryOverheadBytes = 0; ///< the runtime's own memory: what the dry run's (or else the profile's reference
                                    ///< step's) measured peak holds beyond its network's estimate and its data
    QString memoryBasis;            ///< "dry run", "reference step" or "estimate only"
    qint64 checkpointBytes = 0;     ///< what a checkpoint holds: weights and optimizer state
    /// The network's training memory per rank (weights, gradients, optimizer state or its share, activations): what
    /// a GPU run keeps on its GPU.
    qint64 networkMemoryBytes = 0;
    qint64 activationBytes = 0; ///< the activations part of networkMemoryBytes (what recompute changes)
    qint64 parameters = 0;
    double learnedFactor = 1; ///< the correction learned from finished runs (step_observations.h); 1 = none
    int learnedRuns = 0;      ///< how many runs it comes from
    QString confidence;       ///< "medium" within the probed sizes, "low" when extrapolating or with a quick profile;
                              ///< "high"/"medium" after learning from finished runs (step_observations.h)
    QStringList notes;        ///< why the confidence is low
    QList<NodeCost> nodes;
    QJsonObject toJson() const;
};

/// Seconds at `x` on the piecewise-linear curve through `points` (sorted by x): between two points the line through
/// them (exact for "overhead + work / rate"); below the first, the line through the first two, never below `floor`;
/// above the last, the last point's rate. *extrapolated (when given) becomes true outside the points.
double along(const QList<QPair<double, double>> &points, double x, double floor, bool *extrapolated = nullptr);

/// Predicts one training step of `specText` (diamond.spec/1 JSON) on `profile`. `withOverhead` false leaves out the
/// per-step overhead taken from the reference step (used to derive it).
StepPrediction predictStep(const QByteArray &specText, const StepInputs &in, const DeviceProfile &profile,
                           bool withOverhead = true);

} // namespace diamond::app
