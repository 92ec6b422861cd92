// The run configuration ("diamond.run/1", docs/run-config.md): what to train on and how. Every
// field has a documented default (the member initialisers below, which are the defaults the
// engine applies); parseRunConfig() validates a document, fills those defaults and names the
// field of any problem ("optimizer.lr"). nlohmann-json only: no Qt, no torch, so the engine, the
// application core and the UI share one definition of the format.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace diamond::config {

inline constexpr const char *kRunFormatV1 = "diamond.run/1";

/// Smallest value of data.max_bytes (1 MiB).
inline constexpr std::int64_t kMinDataMaxBytes = std::int64_t(1) << 20;
/// Largest default of data.max_bytes (64 GiB); a config may set more.
inline constexpr std::int64_t kMaxDefaultDataMaxBytes = std::int64_t(64) << 30;

/// The default of data.max_bytes on this machine: 3/4 of the physical memory, at most
/// kMaxDefaultDataMaxBytes and at least kMinDataMaxBytes.
std::int64_t defaultDataMaxBytes();

/// A run config that cannot be read or is invalid. Contract: field() names the offending field
/// by its JSON path ("optimizer.lr", "data.source", "format"; "config" for an unreadable file or
/// a document that is not an object); hint() is an optional suggestion, empty when there is none.
class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(const std::string &message, std::string field = {}, std::string hint = {})
        : std::runtime_error(message), field_(std::move(field)), hint_(std::move(hint)) {}

    const std::string &field() const { return field_; }
    const std::string &hint() const { return hint_; }

private:
    std::string field_, hint_;
};

/// `data` section of the run config. Source-specific keys stay in `options` (the whole
/// section), read by the engine's data source; its errors name the field as "data.<key>".
/// Sources reject keys they do not know. Integer arrays (npy, npz, hdf5) become int64 token ids
/// unless the source's `input_dtype` option says otherwise (docs/data-sources.md).
struct DataConfig {
    std::string source; ///< spirals, moons, blobs, checkerboard, sine, shapes, csv, npy, npz, hdf5, idx, image_folder
    nlohmann::json options;       ///< the whole "data" object
    double validationSplit = 0.2; ///< fraction of samples held out for validation, in [0, 0.9]
    bool standardize = true;      ///< standardise float inputs with train-split mean/std
    /// data.max_bytes: the most memory, in bytes, a data source may take for the dataset it loads (decompressed
    /// file contents, copies and the tensors it returns); every size a file declares is checked against it before
    /// anything is allocated. At least kMinDataMaxBytes; 0 = not set: defaultDataMaxBytes() applies.
    std::int64_t maxBytes = 0;
    std::string baseDir; ///< relative paths are resolved against this (the config file's folder)

    /// maxBytes, or defaultDataMaxBytes() when it is not set.
    std::int64_t maxBytesOrDefault() const { return maxBytes > 0 ? maxBytes : defaultDataMaxBytes(); }
};

struct OptimizerConfig {
    std::string name = "adam"; ///< sgd, adam, adamw, rmsprop
    double lr = 1e-3;          ///< learning rate (peak rate for one_cycle), > 0
    double momentum = 0.0;     ///< sgd, rmsprop: momentum factor in [0, 1)
    bool nesterov = false;     ///< sgd: Nesterov momentum (needs momentum > 0)
    double weightDecay = 0.0;  ///< L2 penalty (sgd, adam, rmsprop) or decoupled decay (adamw, default 0.01)
    double beta1 = 0.9;        ///< adam/adamw: first-moment decay ("betas"[0])
    double beta2 = 0.999;      ///< adam/adamw: second-moment decay ("betas"[1])
    double eps = 1e-8;         ///< adam/adamw/rmsprop: denominator epsilon
    double alpha = 0.99;       ///< rmsprop: smoothing constant
};

struct ScheduleConfig {
    std::string name = "constant"; ///< constant, step, cosine, warmup, one_cycle
    std::int64_t warmupSteps = 0;  ///< linear warm-up from 0 over this many steps (all schedules but one_cycle)
    std::int64_t stepSize = 0;     ///< step: multiply by gamma every stepSize steps (default: a third of the run)
    double gamma = 0.1;            ///< step: decay factor
    double minLr = 0.0;            ///< cosine: final learning rate
    double pctStart = 0.3;         ///< one_cycle: fraction of the run spent increasing the rate
    double divFactor = 25.0;       ///< one_cycle: initial rate = lr / divFactor
    double finalDivFactor = 1e4;   ///< one_cycle: final rate = initial / finalDivFactor
};

struct LossConfig {
    std::string name;            ///< cross_entropy, mse, l1, huber, bce_with_logits; default (empty) by task
    double labelSmoothing = 0.0; ///< cross_entropy: in [0, 1)
    double delta = 1.0;          ///< huber: threshold
};

struct CheckpointConfig {
    std::int64_t everySteps = 0; ///< checkpoint every N optimizer steps (0 = off)
    double everySeconds = 0.0;   ///< and/or every T seconds of training (0 = off)
    int keepLast = 3;            ///< keep the newest K checkpoints (>= 1)
};

struct EarlyStoppingConfig {
    bool enabled = false;            ///< off unless the "early_stopping" section is present
    std::string metric = "val_loss"; ///< "val_<metric>" or "val_loss"
    std::string mode = "min";        ///< min or max
    int patience = 5;                ///< evaluations without improvement before stopping
    double minDelta = 0.0;           ///< smallest change that counts as improvement
};

/// `pipeline` section: the network cut into stages, one process each, with each batch split into micro-batches that
/// flow through the stages (GPipe: every micro-batch forward, then every one backward; docs/distributed.md).
struct PipelineConfig {
    int stages = 1;       ///< 1 = no pipeline; S > 1 needs exactly S processes (nproc), one per stage
    int microBatches = 4; ///< micro-batches per batch (and per accumulation step); must divide batch_size
    /// The node ids after which stages 1..S-1 end, in run order (stages - 1 of them); empty ("auto" in JSON): the
    /// engine balances the stages' forward FLOPs (spec::flopBalancedCut). The planner writes the cost model's cut here.
    std::vector<std::string> cut;
};

struct RunConfig {
    DataConfig data;
    std::int64_t batchSize = 32; ///< samples per micro-batch (global, across ranks)
    std::int64_t epochs = 10;    ///< used when steps == 0
    std::int64_t steps = 0;      ///< total optimizer steps; overrides epochs when > 0
    OptimizerConfig optimizer;
    ScheduleConfig schedule;
    LossConfig loss;
    std::vector<std::string> metrics; ///< accuracy, top5, mae, rmse, r2; default (empty) by task
    std::uint64_t seed = 0;
    int threads = 0;                ///< intra-op threads; 0 = all physical cores
    std::string device = "cpu";     ///< cpu or cuda (each rank takes the GPU of its local rank)
    std::string precision = "fp32"; ///< fp32; bf16 (autocast, CPU or CUDA); fp16 (autocast + loss scaling, CUDA only)
    /// none; optimizer: with several ranks each keeps and updates only its 1/N share of the optimizer state (ZeRO
    /// stage 1) and the updated weights are gathered from all; gradients: the gradients are sharded too, each rank
    /// keeping only those of its share (ZeRO stage 2); checkpoints hold the whole state either way.
    std::string sharding = "none";
    /// Which nodes recompute their activations in backward (activation checkpointing): marked (the spec's nodes with
    /// "recompute": true), all, none, or auto (the fewest FLOPs that keep the estimated activations per process
    /// within activationBudgetMb: spec::chooseRecomputed).
    std::string recompute = "marked";
    double activationBudgetMb = 0; ///< with recompute auto: the activation memory per process to stay within, MiB
    PipelineConfig pipeline;
    bool deterministic = false;  ///< deterministic algorithms only (CUDA: slower; CPU kernels already are)
    bool cudnnBenchmark = false; ///< let cuDNN time its convolution algorithms per shape and keep the fastest
    bool flushDenormals = true;  ///< CPU float arithmetic treats subnormal numbers as zero (FTZ/DAZ)
    CheckpointConfig checkpoint;
    EarlyStoppingConfig earlyStopping;
    double gradClipNorm = 0.0;       ///< clip the global gradient norm to this (0 = off)
    int accumulationSteps = 1;       ///< micro-batches per optimizer step (effective batch = batch_size x this)
    std::int64_t logEverySteps = 10; ///< emit train metrics every N steps
    std::int64_t evalEverySteps = 0; ///< validate every N steps (0 = at the end of every epoch)
};

/// A path option of the data section ("data.path", "data.inputs", ...) as the data sources open
/// it: made absolute against `baseDir` (DataConfig::baseDir) when it is relative and baseDir is
/// not empty, then lexically normalised ("a/./b/../c" -> "a/c"). No file system access.
std::string resolveDataPath(const std::string &baseDir, const std::string &path);

/// Validates `doc` and fills defaults. `baseDir` is stored as data.baseDir, against which the
/// engine's data sources resolve relative paths (no file is touched here). Throws ConfigError
/// whose field() names the offending field; unknown keys are errors except inside "data",
/// whose source-specific keys are checked by the source.
RunConfig parseRunConfig(const nlohmann::json &doc, const std::string &baseDir);
/// Reads and parses the file at `path`; data.baseDir becomes the file's absolute folder. Throws
/// ConfigError (field "config") when the file cannot be read or is not JSON.
RunConfig loadRunConfig(const std::string &path);

/// The config as JSON with every default filled in (for the run folder and the `started` event).
/// Contract: for any config `c` returned by parseRunConfig(), toJson(c) parses again and
/// toJson(parseRunConfig(toJson(c), dir)) == toJson(c). An empty loss.name (by task) is left out.
/// toJson(RunConfig{}) lists the documented defaults (its "data" then holds only
/// "validation_split" and "standardize": a default config names no source, and data.max_bytes appears only
/// when set, since its default depends on the machine).
nlohmann::json toJson(const RunConfig &config);

} // namespace diamond::config
