#include "trainer.h"

#include "export/tensor_io.h"
#include "gradient_reducer.h"

#include "checkpoint.h"
#include "compute_device.h"
#include "data/batch_prefetcher.h"
#include "data/dataset.h"
#include "engine_error.h"
#include "model/network.h"
#include "objective.h"
#include "optimizer.h"
#include "pipeline.h"
#include "precision.h"
#include "process_memory.h"
#include "sha256.h"
#include "sharded_optimizer.h"
#include "torch_compat.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/recompute.h"
#include "diamond/version.h"

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>

#include <malloc.h>
#include <pthread.h>
#include <unistd.h>

namespace diamond::engine {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

/// SHA-256 over every parameter and buffer in spec order (Network::namedState()), as little-endian bytes.
std::string weightsSha256(const std::vector<std::pair<std::string, torch::Tensor>> &state) {
    Sha256 sha;
    for (const auto &[name, tensor] : state) {
        const torch::Tensor t = tensor.detach().cpu().contiguous();
        sha.update(t.data_ptr(), t.numel() * t.element_size()); // x86/ARM hosts are little-endian
    }
    return sha.hexDigest();
}

class Run {
public:
    Run(const spec::Spec &spec, const RunConfig &config, const TrainerOptions &options, EventWriter &events,
        Communicator &comm)
        : spec_(spec), config_(config), options_(options), events_(events), comm_(comm), dp_(&comm),
          leader_(comm.rank() == 0) {}
    ~Run() {
        if (linearWarmUp_.joinable()) linearWarmUp_.join();
        layers::setLinearWeightGradsInPlace(false); // drops redirections into this run's buffers
    }
    Run(const Run &) = delete;
    Run &operator=(const Run &) = delete;

    int execute() {
        const auto wallStart = Clock::now();
        try {
            setUp();
            if (options_.dryRun) return dryRun();
            restore();
        } catch (const StopRequested &stop) {
            return stoppedBeforeTraining(stop.signal);
        }
        emitStarted();
        const int code = loop();
        if (code != 0) return code;
        finish(wallStart);
        return 0;
    }

private:
    void setUp() {
        loss_ = config_.loss;
        threads_ = options_.threadsOverride > 0 ? options_.threadsOverride
                   : config_.threads > 0        ? config_.threads
                                                : physicalCoreCount();
        at::set_num_threads(threads_);
        flushDenormals_ = setFlushDenormals(config_.flushDenormals) && config_.flushDenormals;
        device_ = chooseDevice(options_.deviceOverride.empty() ? config_.device : options_.deviceOverride, 0,
                               deviceSupport());
        torchDevice_ = torch::Device(device_);
        checkPrecision(config_.precision, torchDevice_);
        scaler_ = LossScaler(config_.precision == "fp16");
        setAlgorithmChoices();
        torch::manual_seed(config_.seed);
        if (spec_.inputs.size() != 1 || spec_.outputs.size() != 1)
            throw EngineError("The engine trains networks with exactly one input and one output; this spec has " +
                                  std::to_string(spec_.inputs.size()) + " inputs and " +
                                  std::to_string(spec_.outputs.size()) + " outputs.",
                              {}, {}, "Combine inputs with Concat, or keep one output.");
        // Weights to start from are read and checked against the spec before the network is built, so that a
        // spec far larger than its weights is refused before its parameters are allocated.
        // The peak memory of the run counts from here: what the model, its data and training add to the process.
        peakReset_ = resetPeakResidentMemory();
        baselineResidentBytes_ = readResidentMemory().residentBytes;
        SafetensorsFile initWeights;
        if (!options_.initWeights.empty()) {
            initWeights = readSafetensors(options_.initWeights, config_.data.maxBytesOrDefault());
            checkWeightsFitSpec(spec::analyze(spec_), initWeights, options_.initWeights);
        }
        network_ = Network::build(spec_);
        if (!options_.initWeights.empty()) {
            loadNetworkWeights(*network_, initWeights, options_.initWeights);
            initWeights = SafetensorsFile();
        }
        if (config_.pipeline.stages > 1 && !options_.dryRun) {
            // One process per stage: each keeps its stage of the whole network, built as a single process builds it
            // (the same initial weights in every layout); the data-parallel group is this process alone.
            stage_ = std::make_unique<PipelineStage>(spec_, *network_, config_.pipeline, comm_, config_.precision,
                                                     torchDevice_);
            network_ = stage_->takeNetwork();
            single_ = singleProcessCommunicator();
            dp_ = single_.get();
        }
        if (config_.recompute == "auto")
            chooseRecomputedNodes();
        else
            network_->setRecompute(config_.recompute);
        if (device_ == "cpu") startLinearWarmUp();
        data_ = loadAndSplit(config_.data, config_.seed);
        malloc_trim(0); // what the data sources allocated and freed while loading goes back to the system
        checkDataAgainstSpec();
        if (loss_.name.empty()) loss_.name = defaultLoss(data_.train.task);
        metrics_ = config_.metrics.empty() ? defaultMetrics(data_.train.task) : config_.metrics;
        if (device_ != "cpu")
            network_->to(torchDevice_);
        else
            network_->useChannelsLast(); // oneDNN's channels-last convolutions and pooling are faster on CPU
        flat_ = std::make_unique<FlatParameters>(network_->parameters());
        // The gradient reducer of a multi-process run hooks every parameter's AccumulateGrad node.
        layers::setLinearWeightGradsInPlace(dp_->world() == 1);
        if (layers::linearWeightGradsInPlace() && device_ == "cpu") {
            // Their products overwrite these gradients at each step's first write: no zeroing needed.
            gradsOverwritten_ = network_->parametersOfNodeType("Linear");
            parameters_ = network_->parameters();
        }
        if (config_.sharding != "none" && dp_->world() > 1)
            optimizer_ = std::make_unique<ShardedOptimizer>(config_.optimizer, *flat_, *dp_);
        else
            optimizer_ = makeOptimizer(config_.optimizer, flat_->numel(), flat_->values().options());
        if (!gradsOverwritten_.empty() && !options_.dryRun && config_.gradClipNorm == 0) fuseMomentum();

        if (config_.batchSize % dp_->world() != 0)
            throw EngineError("batch_size " + std::to_string(config_.batchSize) + " is not divisible by the " +
                                  std::to_string(dp_->world()) + " ranks.",
                              "batch_size", {}, "Use a multiple of the number of ranks.");
        micro_ = config_.batchSize / dp_->world();
        if (data_.train.size() < config_.batchSize)
            throw EngineError("The training split has " + std::to_string(data_.train.size()) +
                                  " samples, fewer than one batch of " + std::to_string(micro_) + ".",
                              "batch_size", {}, "Lower batch_size or use more data.");
        sampler_ = std::make_unique<BatchSampler>(data_.train.size(), config_.batchSize, config_.seed, true, true,
                                                  dp_->rank(), dp_->world());
        if (stage_ && comm_.rank() > 0) // a stream of its own for each stage's dropout
            torch::manual_seed(config_.seed + 7919 * static_cast<std::uint64_t>(comm_.rank()));
        if (dp_->world() > 1) {
            // Identical starting point everywhere; then a rank-specific stream for dropout.
            torch::NoGradGuard noGrad;
            dp_->broadcast(flat_->values());
            for (auto &[name, buffer] : network_->namedBuffers())
                dp_->broadcast(buffer);
            if (dp_->rank() > 0) torch::manual_seed(config_.seed + 7919 * static_cast<std::uint64_t>(dp_->rank()));
            if (config_.sharding == "gradients") {
                // ZeRO stage 2: this rank keeps the gradients of the share whose optimizer state it holds.
                const FlatShard shard = FlatShard::of(flat_->numel(), dp_->rank(), dp_->world());
                flat_->shardGradients(network_->parameters(), shard.begin, shard.length);
                reducer_ = std::make_unique<GradientReducer>(*dp_, *flat_, network_->parameters());
            } else {
                reducer_ = std::make_unique<GradientReducer>(*dp_, flat_->grads(), network_->parameters());
            }
        }
        batchesPerEpoch_ = sampler_->batchesPerEpoch();
        // Batches of 64 KiB and more are gathered one ahead while the current one trains, when a core is
        // left over (the intra-op threads spin between operations and would starve the loader thread);
        // smaller ones cost less to gather than to hand between threads. Only this lambda touches sampler_.
        const std::int64_t rows = std::max<std::int64_t>(data_.train.inputs.size(0), 1);
        const std::int64_t batchBytes = micro_ * (data_.train.inputs.nbytes() / rows);
        prefetcher_ = std::make_unique<BatchPrefetcher>(
            [this](std::int64_t micro) {
                const torch::Tensor idx = sampler_->indices(micro / batchesPerEpoch_, micro % batchesPerEpoch_);
                BatchPrefetcher::Batch b{gatherRows(data_.train.inputs, idx), gatherRows(data_.train.targets, idx)};
                if (torchDevice_.is_cuda()) {
                    // Page-locked, so that microStep's copies to the GPU are asynchronous.
                    b.first = b.first.pin_memory();
                    b.second = b.second.pin_memory();
                }
                return b;
            },
            batchBytes >= (std::int64_t(64) << 10) &&
                threads_ < static_cast<int>(std::max(1U, std::thread::hardware_concurrency())));
        const std::int64_t stepsPerEpoch = std::max<std::int64_t>(1, batchesPerEpoch_ / config_.accumulationSteps);
        totalSteps_ = config_.steps > 0 ? config_.steps : config_.epochs * stepsPerEpoch;
        evalEvery_ = config_.evalEverySteps > 0 ? config_.evalEverySteps : stepsPerEpoch;
        if (!options_.runDir.empty() && leader_) fs::create_directories(options_.runDir);
    }

    /// The run config's deterministic and cudnn_benchmark (process-wide settings, set for every run in the process)
    /// and this thread's current CUDA device.
    void setAlgorithmChoices() {
        if (torchDevice_.is_cuda()) compat::setCurrentCudaDevice(torchDevice_.index());
        if (config_.deterministic) ::setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", 0); // read by cuBLAS's first handle
        at::globalContext().setDeterministicAlgorithms(config_.deterministic, false);
        at::globalContext().setDeterministicCuDNN(config_.deterministic);
        at::globalContext().setBenchmarkCuDNN(config_.cudnnBenchmark && !config_.deterministic);
    }

    /// oneDNN's GEMM kernels generated on a spare thread while the data loads (see
    /// layers::warmUpLinearProducts), for the Linear weights at the configured batch size.
    void startLinearWarmUp() {
        std::vector<std::array<std::int64_t, 2>> shapes;
        const std::vector<torch::Tensor> params = network_->parameters();
        const std::vector<bool> linear = network_->parametersOfNodeType("Linear");
        for (std::size_t i = 0; i < params.size(); ++i)
            if (linear[i] && params[i].dim() == 2) shapes.push_back({params[i].size(0), params[i].size(1)});
        if (shapes.empty()) return;
        const std::int64_t rows = std::max<std::int64_t>(1, config_.batchSize / std::max(1, dp_->world()) /
                                                                (stage_ ? config_.pipeline.microBatches : 1));
        linearWarmUp_ = std::thread([shapes, rows] {
            try {
                layers::warmUpLinearProducts(shapes, rows);
            } catch (...) { // only a head start: the step reports any real failure
            }
        });
    }

    void checkDataAgainstSpec() {
        const auto &input = spec_.inputs.front();
        const auto sample = data_.train.inputs.sizes().slice(1);
        spec::Shape expected;
        for (auto d : input.shape)
            if (d != spec::kBatch) expected.push_back(d);
        const bool match = std::equal(sample.begin(), sample.end(), expected.begin(), expected.end());
        if (!match) {
            spec::Shape got(sample.begin(), sample.end());
            got.insert(got.begin(), spec::kBatch);
            throw EngineError("The data gives samples of shape " + spec::formatShape(got) +
                                  " but the network's input '" + input.name + "' expects " +
                                  spec::formatShape(input.shape) + ".",
                              "data", input.name, "Change the input shape in the designer, or pick matching data.");
        }
        const auto *out = network_->analysis().portType(spec_.outputs.front().from);
        if (out && data_.train.task == "classification" && out->shape.size() == 2 &&
            out->shape[1] != data_.train.numClasses && config_.loss.name != "bce_with_logits")
            throw EngineError("The network's output '" + spec_.outputs.front().name + "' has " +
                                  std::to_string(out->shape[1]) + " values per sample but the data has " +
                                  std::to_string(data_.train.numClasses) + " classes.",
                              "data", spec_.outputs.front().from.node,
                              "Set the last layer's out_features to " + std::to_string(data_.train.numClasses) + ".");
    }

    /// The expected entries of a checkpoint: the model's tensors and the optimizer's (values undefined for a sharded
    /// optimizer; checkpoint() gathers them).
    CheckpointState checkpointTemplate() {
        CheckpointState s;
        s.model = network_->namedState();
        s.optimizer = canonical(optimizer_->stateTemplate());
        if (stage_) { // the whole network's entries: each stage takes its own out of them
            s.model.clear();
            for (const auto &[name, meta] : stage_->wholeStateShapes())
                s.model.emplace_back(name, torch::empty(meta.sizes(), meta.options().device(torch::kCPU)));
            for (auto &[key, tensor] : s.optimizer)
                if (tensor.defined() && tensor.dim() == 1 && tensor.numel() == flat_->numel())
                    tensor = torch::empty({stage_->wholeNumel()}, tensor.options());
        }
        return s;
    }
    /// Per-parameter optimizer state in the layout-independent order.
    std::map<std::string, torch::Tensor> canonical(std::map<std::string, torch::Tensor> state) const {
        for (auto &[key, tensor] : state)
            if (tensor.defined() && tensor.dim() == 1 && tensor.numel() == flat_->numel())
                tensor = flat_->toCanonical(tensor);
        return state;
    }

    void restore() {
        if (!options_.resume) return;
        for (const auto &[step, path] : listCheckpoints(options_.runDir)) {
            CheckpointState s = checkpointTemplate();
            try {
                readCheckpoint(path, s);
            } catch (const std::exception &e) {
                if (leader_)
                    events_.emit({{"event", "warning"},
                                  {"message", std::string("skipping unusable checkpoint: ") + e.what()},
                                  {"path", path}});
                continue;
            }
            if (stage_) {
                stage_->loadStageState(*network_, s.model);
                s.optimizer = stage_->stageOptimizerState(s.optimizer);
            }
            for (auto &[key, tensor] : s.optimizer) {
                if (tensor.dim() == 1 && tensor.numel() == flat_->numel()) tensor = flat_->fromCanonical(tensor);
            }
            optimizer_->loadState(s.optimizer);
            const std::size_t rank = static_cast<std::size_t>(comm_.rank());
            if (s.world == comm_.world() && rank < s.rankRngStates.size())
                setCpuRngState(s.rankRngStates[rank]);
            else if (s.world == comm_.world())
                setCpuRngState(s.rngState);
            else if (leader_)
                events_.emit(
                    {{"event", "warning"},
                     {"message", "checkpoint was written by " + std::to_string(s.world) + " rank(s), resuming with " +
                                     std::to_string(comm_.world()) + ": data order is kept, dropout streams restart"}});
            step_ = s.step;
            // fp16: the loss scale goes on where it was (the same checkpoint resumed in fp32 or bf16 ignores it).
            if (scaler_.enabled() && s.lossScale > 0 && !scaler_.restore(s.lossScale, s.lossScaleGoodSteps) && leader_)
                events_.emit({{"event", "warning"},
                              {"message", "the checkpoint's loss scale is out of range; starting at the default"},
                              {"path", path}});
            bestMetric_ = s.bestMetric;
            hasBest_ = s.hasBest;
            evalsWithoutImprovement_ = s.evalsWithoutImprovement;
            resumedFrom_ = path;
            return;
        }
        if (leader_)
            events_.emit(
                {{"event", "warning"}, {"message", "no usable checkpoint found; starting from the beginning"}});
    }

    /// A stop signal arrived while the run was being set up (usually while the data loaded): nothing was trained
    /// and nothing is written; the run ends as stopped on request (resume continues from the newest readable
    /// checkpoint, if any).
    int stoppedBeforeTraining(int signal) {
        if (leader_)
            events_.emit({{"event", "requeue"},
                          {"step", step_},
                          {"signal", signal},
                          {"checkpoint", nullptr},
                          {"message", "stopped on request before training started (while loading the data); "
                                      "nothing was checkpointed; resume to continue"}});
        return 85;
    }

    void emitStarted() {
        if (!leader_) return;
        events_.emit({{"event", "started"},
                      {"protocol", kEventsProtocol},
                      {"engine_version", DIAMOND_VERSION},
                      {"libtorch_version", TORCH_VERSION},
                      {"device", device_},
                      {"precision", config_.precision},
                      {"sharding", dp_->world() > 1 ? config_.sharding : std::string("none")},
                      {"recompute", recomputeEvent()},
                      {"deterministic", config_.deterministic},
                      {"threads", threads_},
                      {"flush_denormals", flushDenormals_},
                      {"world_size", comm_.world()},
                      {"pipeline", pipelineEvent()},
                      {"parameters", stage_ ? stage_->wholeParameterCount() : network_->parameterCount()},
                      {"data", data_.train.description},
                      {"train_samples", data_.train.size()},
                      {"validation_samples", data_.validation.size()},
                      {"batch_size", config_.batchSize},
                      {"steps", totalSteps_},
                      {"steps_per_epoch", std::max<std::int64_t>(1, batchesPerEpoch_ / config_.accumulationSteps)},
                      {"loss", loss_.name},
                      {"metrics", metrics_},
                      {"start_step", step_},
                      {"resumed_from", resumedFrom_.empty() ? json() : json(resumedFrom_)},
                      {"init_weights", options_.initWeights.empty() ? json() : json(options_.initWeights)}});
        if (config_.recompute == "auto" && !recomputeChoice_.fits)
            events_.emit({{"event", "warning"},
                          {"message", "even with every layer recomputed the activations are estimated at " +
                                          std::to_string(recomputeChoice_.activationBytes >> 20) +
                                          " MiB per process, more than activation_budget_mb: every layer recomputes"},
                          {"field", "activation_budget_mb"}});
    }

    /// Momentum fusion (see Optimizer::fusableMomentum): Linear products write their gradients
    /// straight into the optimizer's momentum buffer, so the step reads two arrays instead of
    /// three and writes two instead of three. With one micro-batch per step the product's caller
    /// then also finishes that parameter's update right away, while the buffer is in cache (the
    /// layer no longer needs the weight: its input gradient is computed first). Not with gradient
    /// clipping, which needs the gradients.
    void fuseMomentum() {
        const torch::Tensor momentum = optimizer_->fusableMomentum();
        if (!momentum.defined()) return;
        std::unordered_map<const void *, torch::Tensor> targets;
        fusedTargets_.assign(parameters_.size(), torch::Tensor());
        for (std::size_t i = 0; i < parameters_.size(); ++i) {
            if (!gradsOverwritten_[i]) continue;
            fusedTargets_[i] = flat_->viewOf(momentum, i);
            targets[parameters_[i].data_ptr()] = fusedTargets_[i];
            partOfBuffer_[fusedTargets_[i].data_ptr()] = i;
        }
        layers::redirectLinearGradients(std::move(targets));
        if (config_.accumulationSteps != 1 || stage_) return; // several micro-batches add into each gradient
        layers::setLinearGradientFinisher([this](const torch::Tensor &buffer) {
            if (!lossFinite_) return; // the step ends in an error: leave the weights as they were
            const auto it = partOfBuffer_.find(buffer.data_ptr());
            if (it == partOfBuffer_.end()) return;
            optimizer_->finishPart(*flat_, stepLr_, it->second);
            finishedThisStep_[it->second] = true;
        });
    }

    /// After a step's backward passes: where each parameter's update stands (partsThisStep_),
    /// and zeroed gradients for the overwrite-first parameters nothing wrote.
    void settleOverwrittenGradients(std::uint64_t gradientStep) {
        partsThisStep_.assign(parameters_.size(), Optimizer::Part::Gradient);
        for (std::size_t i = 0; i < gradsOverwritten_.size(); ++i) {
            if (!gradsOverwritten_[i]) continue;
            if (!fusedTargets_.empty() && fusedTargets_[i].defined() &&
                layers::linearGradientWritten(fusedTargets_[i], gradientStep)) {
                partsThisStep_[i] = finishedThisStep_[i] ? Optimizer::Part::Updated : Optimizer::Part::MomentumUpdated;
                continue;
            }
            torch::Tensor grad = parameters_[i].grad(); // not reached by backward: still an older value
            if (!layers::linearGradientWritten(grad, gradientStep)) {
                torch::NoGradGuard noGrad;
                grad.zero_();
            }
        }
    }

    /// started's "pipeline": null without stages; else the stages, micro-batches, the cut and each stage's nodes.
    json pipelineEvent() const {
        if (!stage_) return nullptr;
        json nodes = json::array();
        for (const spec::Stage &stage : stage_->stageSpecs())
            nodes.push_back(stage.nodes);
        return {{"stages", stage_->stages()},
                {"micro_batches", stage_->microBatches()},
                {"cut", stage_->cut()},
                {"cut_chosen", config_.pipeline.cut.empty() ? "flops" : "config"},
                {"stage_nodes", nodes}};
    }

    /// started's "recompute": the mode, nodes and parts; with "auto" also the budget and the estimate it chose for.
    json recomputeEvent() const {
        json r = {{"mode", config_.recompute},
                  {"nodes", network_->recomputedNodes()},
                  {"parts", network_->recomputedParts()}};
        if (config_.recompute == "auto") {
            r["budget_bytes"] = static_cast<std::int64_t>(config_.activationBudgetMb * 1048576.0);
            r["estimated_activation_bytes"] = recomputeChoice_.activationBytes;
            r["fits"] = recomputeChoice_.fits;
        }
        return r;
    }

    /// "recompute": "auto": the nodes whose recomputation keeps the estimated activations of this process's batch
    /// within activation_budget_mb for the fewest FLOPs (spec::chooseRecomputed, as the planner predicts them).
    void chooseRecomputedNodes() {
        spec::MemoryOptions mem;
        mem.batch = std::max<std::int64_t>(1, config_.batchSize / dp_->world());
        const auto budget = static_cast<std::int64_t>(config_.activationBudgetMb * 1048576.0);
        recomputeChoice_ = spec::chooseRecomputed(network_->analysis(), mem, budget);
        network_->setRecomputeNodes(recomputeChoice_.nodes);
    }

    /// Whether each rank holds gradients the others do not (sharded gradients, or pipeline stages): then what is
    /// decided from the gradients (their norm, their health) combines every rank's.
    bool gradientsSplit() const { return stage_ || (reducer_ && reducer_->sharded()); }

    /// With split gradients each rank checks its own: every rank's verdict combined (a collective); else none (the
    /// reduced gradients are the same everywhere).
    std::function<bool(bool)> splitGradientsFinite() {
        if (!gradientsSplit()) return {};
        return [this](bool finite) {
            torch::Tensor bad = torch::tensor({finite ? 0.0 : 1.0}, torch::kFloat64).to(comm_.device());
            comm_.allReduceSum(bad);
            return bad.cpu().item<double>() == 0;
        };
    }

    /// Loss and metric sums of one micro-batch; returns the loss value.
    double microStep(std::int64_t micro, MetricAccumulator &acc) {
        const auto loadStart = Clock::now();
        auto [x, y] = prefetcher_->take(micro);
        loaderSeconds_ += std::chrono::duration<double>(Clock::now() - loadStart).count();
        if (device_ != "cpu") {
            x = x.to(torchDevice_, true);
            y = y.to(torchDevice_, true);
        }
        if (stage_) return pipelineMicroStep(x, y, acc);
        torch::Tensor out, loss;
        {
            AutocastScope autocast(config_.precision, torchDevice_);
            out = network_->forward({x}).front();
            loss = computeLoss(loss_, out, y);
        }
        if (loss.scalar_type() != torch::kFloat) loss = loss.to(torch::kFloat);
        const double value = loss.item<double>();
        lossFinite_ = std::isfinite(value);
        if (config_.accumulationSteps > 1) loss = loss / static_cast<double>(config_.accumulationSteps);
        scaler_.scaled(loss).backward();
        acc.add(out.detach().to(torch::kFloat), y, value * static_cast<double>(x.size(0)));
        return value;
    }

    /// One batch through the pipeline's stages (PipelineStage::trainBatch). The last stage computes each
    /// micro-batch's loss, divided so that the step's gradient is that of the batch's mean loss, and returns the
    /// batch's mean loss; the other stages return 0.
    double pipelineMicroStep(const torch::Tensor &x, const torch::Tensor &y, MetricAccumulator &acc) {
        const std::int64_t rows = y.size(0);
        const double parts = static_cast<double>(stage_->microBatches()) * config_.accumulationSteps;
        double lossSum = 0;
        stageTimes_ +=
            stage_->trainBatch(*network_, x, rows, [&](const torch::Tensor &out, std::int64_t begin, std::int64_t n) {
                const torch::Tensor target = y.narrow(0, begin, n);
                torch::Tensor loss = computeLoss(loss_, out, target);
                if (loss.scalar_type() != torch::kFloat) loss = loss.to(torch::kFloat);
                const double value = loss.item<double>();
                lossSum += value * static_cast<double>(n);
                acc.add(out.detach().to(torch::kFloat), target, value * static_cast<double>(n));
                return scaler_.scaled(loss / parts);
            });
        const double mean = lossSum / static_cast<double>(rows);
        lossFinite_ = std::isfinite(mean);
        return mean;
    }

    int loop() {
        if (linearWarmUp_.joinable()) linearWarmUp_.join();
        network_->train(true);
        MetricAccumulator trainAcc(metrics_, data_.train.numClasses);
        const auto loopStart = Clock::now();
        auto lastLog = loopStart, lastCheckpoint = loopStart;
        std::int64_t samplesSinceLog = 0;
        stepsTimed_ = 0;
        while (step_ < totalSteps_) {
            const double lr = scheduledLearningRate(config_.schedule, config_.optimizer.lr, step_, totalSteps_);
            std::uint64_t gradientStep = 0;
            if (gradsOverwritten_.empty()) {
                flat_->zeroGrad();
            } else {
                gradientStep = layers::beginLinearGradientStep(optimizer_->fusableMomentumBeta());
                stepLr_ = lr;
                finishedThisStep_.assign(parameters_.size(), false);
                flat_->zeroGrad(gradsOverwritten_);
            }
            bool finite = true;
            for (int a = 0; a < config_.accumulationSteps; ++a) {
                const bool last = a + 1 == config_.accumulationSteps;
                // Sharded gradients are reduced after every micro-batch: no rank holds them all.
                if (reducer_ && (last || reducer_->sharded())) reducer_->arm();
                finite = std::isfinite(microStep(step_ * config_.accumulationSteps + a, trainAcc)) && finite;
                if (reducer_ && reducer_->sharded() && !last) reducer_->finish(false);
            }
            if (gradientStep) settleOverwrittenGradients(gradientStep);
            if (reducer_) {
                // Buckets were launched during backward; collect them before anything else.
                const auto reduceStart = Clock::now();
                reducer_->finish();
                allReduceSeconds_ += std::chrono::duration<double>(Clock::now() - reduceStart).count();
            }
            bool stopRequested = gStopSignal.load() != 0;
            if (comm_.world() > 1) {
                // One small all-reduce carries every rank's stop request and loss health.
                torch::Tensor control =
                    torch::tensor({stopRequested ? 1.0 : 0.0, finite ? 0.0 : 1.0}, torch::kFloat64).to(comm_.device());
                comm_.allReduceSum(control);
                control = control.cpu();
                stopRequested = control[0].item<double>() > 0;
                finite = control[1].item<double>() == 0;
            }
            if (!finite) {
                const auto last = listCheckpoints(options_.runDir);
                throw EngineError(
                    "The loss became NaN or infinite at step " + std::to_string(step_ + 1) + "." +
                        (last.empty() ? std::string() : " The last good checkpoint is " + last.front().second + "."),
                    "optimizer.lr", {}, "Lower the learning rate, standardise the inputs, or set grad_clip_norm.");
            }
            samplesSinceLog += config_.batchSize * config_.accumulationSteps;
            if (config_.gradClipNorm > 0) {
                torch::NoGradGuard noGrad;
                double norm = flat_->grads().norm().item<double>();
                if (gradientsSplit()) {
                    torch::Tensor squares = torch::tensor({norm * norm}, torch::kFloat64).to(comm_.device());
                    comm_.allReduceSum(squares);
                    norm = std::sqrt(squares.cpu().item<double>());
                }
                if (norm > config_.gradClipNorm) flat_->grads().mul_(config_.gradClipNorm / (norm + 1e-6));
            }
            // fp16: a step whose gradients overflowed is skipped (the scale halves); the same on every rank, since
            // the gradients were reduced before.
            if (!scaler_.unscaleAndUpdate(flat_->grads(), splitGradientsFinite()))
                flat_->zeroGrad();
            else if (fusedTargets_.empty())
                optimizer_->step(*flat_, lr);
            else
                optimizer_->stepFused(*flat_, lr, partsThisStep_);
            ++step_;
            ++stepsTimed_;
            lastLr_ = lr;

            const auto now = Clock::now();
            if (step_ % config_.logEverySteps == 0 || step_ == totalSteps_) {
                const double interval = std::chrono::duration<double>(now - lastLog).count();
                if (comm_.world() > 1) {
                    torch::Tensor sums = trainAcc.sums().to(comm_.device());
                    comm_.allReduceSum(sums);
                    trainAcc.setSums(sums.cpu());
                }
                emitMetrics("train", trainAcc.values(), samplesSinceLog / std::max(interval, 1e-9), now);
                if (leader_)
                    events_.emit({{"event", "metric"},
                                  {"step", step_},
                                  {"epoch", epochOf(step_)},
                                  {"split", "train"},
                                  {"name", "lr"},
                                  {"value", lr},
                                  {"elapsed_s", elapsed(now)}});
                trainAcc.reset();
                samplesSinceLog = 0;
                lastLog = now;
            }
            if (step_ % evalEvery_ == 0 || step_ == totalSteps_) {
                if (evaluate(false)) {
                    if (leader_)
                        events_.emit({{"event", "early_stop"},
                                      {"step", step_},
                                      {"metric", config_.earlyStopping.metric},
                                      {"best", bestMetric_}});
                    break;
                }
            }
            const bool dueBySteps = config_.checkpoint.everySteps > 0 && step_ % config_.checkpoint.everySteps == 0;
            const bool dueByTime =
                config_.checkpoint.everySeconds > 0 &&
                std::chrono::duration<double>(now - lastCheckpoint).count() >= config_.checkpoint.everySeconds;
            if ((dueBySteps || dueByTime) && step_ < totalSteps_) {
                checkpoint();
                lastCheckpoint = Clock::now();
            }
            if (stopRequested) {
                const std::string path = checkpoint();
                if (leader_)
                    events_.emit({{"event", "requeue"},
                                  {"step", step_},
                                  {"signal", gStopSignal.load()},
                                  {"checkpoint", path},
                                  {"message", "checkpointed on request; resume to continue"}});
                return 85;
            }
        }
        loopSeconds_ = std::chrono::duration<double>(Clock::now() - loopStart).count();
        if (stepsTimed_ == 0) loaderSeconds_ = 0;
        return 0;
    }

    std::int64_t epochOf(std::int64_t step) const {
        return (step * config_.accumulationSteps - 1) / std::max<std::int64_t>(1, batchesPerEpoch_);
    }
    double elapsed(Clock::time_point now) const { return std::chrono::duration<double>(now - runStart_).count(); }

    void emitMetrics(const char *split, const std::map<std::string, double> &values, double samplesPerS,
                     Clock::time_point now) {
        if (!leader_) return;
        for (const auto &[name, value] : values) {
            json e = {{"event", "metric"}, {"step", step_},  {"epoch", epochOf(step_)},  {"split", split},
                      {"name", name},      {"value", value}, {"elapsed_s", elapsed(now)}};
            if (samplesPerS > 0) e["samples_per_s"] = samplesPerS;
            events_.emit(std::move(e));
        }
    }

    /// Validation pass on rank 0; every rank gets its early-stopping decision. Returns true when
    /// early stopping triggers.
    bool evaluate(bool withConfusion) {
        // Pipeline stages all take part: the validation data flows through them.
        bool stop = (leader_ || stage_) && evaluateHere(withConfusion);
        if (comm_.world() > 1) {
            torch::Tensor flag = torch::tensor({stop ? 1.0 : 0.0}, torch::kFloat64).to(comm_.device());
            comm_.broadcast(flag);
            stop = flag.cpu().item<double>() > 0;
        }
        return stop;
    }

    /// Samples per forward pass of an evaluation.
    std::int64_t evaluationChunk() const { return std::max<std::int64_t>(config_.batchSize, 1024); }

    bool evaluateHere(bool withConfusion) {
        if (data_.validation.size() == 0) return false;
        MetricAccumulator acc(metrics_, data_.validation.numClasses, withConfusion);
        {
            torch::NoGradGuard noGrad;
            network_->train(false);
            const std::int64_t n = data_.validation.size();
            const std::int64_t chunk = evaluationChunk();
            for (std::int64_t start = 0; start < n; start += chunk) {
                const std::int64_t len = std::min(chunk, n - start);
                torch::Tensor x = data_.validation.inputs.narrow(0, start, len);
                torch::Tensor y = data_.validation.targets.narrow(0, start, len);
                if (device_ != "cpu") {
                    x = x.to(torchDevice_);
                    y = y.to(torchDevice_);
                }
                torch::Tensor out, loss;
                if (stage_) {
                    out = stage_->forward(*network_, x, len);
                    if (!stage_->isLast()) continue;
                }
                {
                    AutocastScope autocast(config_.precision, torchDevice_);
                    if (!out.defined()) out = network_->forward({x}).front();
                    loss = computeLoss(loss_, out, y);
                }
                acc.add(out.to(torch::kFloat), y, loss.item<double>() * static_cast<double>(len));
            }
            network_->train(true);
        }
        torch::Tensor confusion = acc.confusion();
        if (stage_) { // the last stage's sums (the others' are zero) reach rank 0, which reports them
            torch::Tensor sums = acc.sums().to(comm_.device());
            comm_.allReduceSum(sums);
            acc.setSums(sums.cpu());
            if (confusion.defined()) {
                confusion = confusion.to(comm_.device());
                comm_.allReduceSum(confusion);
            }
            if (!leader_) return false;
        }
        lastValidation_ = acc.values();
        // The final evaluation (for the confusion matrix) repeats the last step's: report each step once.
        if (step_ != lastValidationStep_) emitMetrics("val", lastValidation_, 0, Clock::now());
        lastValidationStep_ = step_;
        if (withConfusion && confusion.defined()) {
            const torch::Tensor c = confusion.cpu().contiguous();
            const auto counts = c.accessor<std::int64_t, 2>();
            json rows = json::array();
            for (std::int64_t i = 0; i < c.size(0); ++i) {
                json row = json::array();
                for (std::int64_t j = 0; j < c.size(1); ++j)
                    row.push_back(counts[i][j]);
                rows.push_back(row);
            }
            json e = {{"event", "eval"}, {"step", step_}, {"split", "val"}, {"confusion_matrix", rows}};
            if (!data_.train.classNames.empty()) e["class_names"] = data_.train.classNames;
            events_.emit(std::move(e));
        }
        if (!config_.earlyStopping.enabled) return false;
        std::string key = config_.earlyStopping.metric;
        if (key.rfind("val_", 0) == 0) key = key.substr(4);
        const auto it = lastValidation_.find(key);
        if (it == lastValidation_.end()) return false;
        const bool better = !hasBest_ || (config_.earlyStopping.mode == "min"
                                              ? it->second < bestMetric_ - config_.earlyStopping.minDelta
                                              : it->second > bestMetric_ + config_.earlyStopping.minDelta);
        if (better) {
            bestMetric_ = it->second;
            hasBest_ = true;
            evalsWithoutImprovement_ = 0;
            return false;
        }
        return ++evalsWithoutImprovement_ >= config_.earlyStopping.patience;
    }

    /// Called by every rank; rank 0 writes after a barrier. Returns the path (empty elsewhere). `weightsSha`: rank 0's
    /// weights_sha256 of what it wrote.
    std::string checkpoint(std::string *weightsSha = nullptr) {
        CheckpointState s;
        s.model = network_->namedState();
        s.optimizer = canonical(optimizer_->state());          // a sharded optimizer gathers it from every rank here
        if (stage_) stage_->gatherState(s.model, s.optimizer); // rank 0: the whole network's
        s.step = step_;
        s.rngState = cpuRngState();
        s.world = comm_.world();
        s.rankRngStates = comm_.allGather(s.rngState.to(comm_.device()));
        for (torch::Tensor &state : s.rankRngStates)
            state = state.cpu();
        comm_.barrier();
        if (!leader_) return {};
        if (weightsSha) *weightsSha = weightsSha256(s.model);
        s.bestMetric = bestMetric_;
        s.hasBest = hasBest_;
        s.evalsWithoutImprovement = evalsWithoutImprovement_;
        if (scaler_.enabled()) {
            s.lossScale = scaler_.scale();
            s.lossScaleGoodSteps = scaler_.goodSteps();
        }
        const CheckpointState shapes = checkpointShapes(s);
        // Moved in: the whole optimizer state a sharded run gathered is freed before the file is read back.
        const std::string path = writeCheckpoint(options_.runDir, std::move(s));
        const PruneResult pruned = pruneCheckpoints(options_.runDir, config_.checkpoint.keepLast, shapes);
        for (std::size_t i = 0; i < pruned.quarantined.size(); ++i)
            events_.emit({{"event", "warning"},
                          {"message", "moved an unreadable checkpoint out of the way (it is not counted among the "
                                      "kept ones): " +
                                          pruned.problems[i]},
                          {"path", pruned.quarantined[i]}});
        events_.emit({{"event", "checkpoint"}, {"step", step_}, {"path", path}});
        return path;
    }

    void finish(Clock::time_point wallStart) {
        evaluate(true);
        std::string weightsSha;
        const std::string path = checkpoint(&weightsSha);
        json memory = memoryFigures();
        if (comm_.world() > 1) // every rank's peak, optimizer state and gradients (a sharded run's ranks differ)
            for (const auto &rank : allGatherFigures(comm_, {memory.value("peak_growth_bytes", std::int64_t{0}),
                                                             memory.value("optimizer_state_bytes", std::int64_t{0}),
                                                             memory.value("gradient_bytes", std::int64_t{0})}))
                memory["ranks"].push_back({{"peak_growth_bytes", rank.at(0)},
                                           {"optimizer_state_bytes", rank.at(1)},
                                           {"gradient_bytes", rank.at(2)}});
        const json pipeline = stageTimesEvent();
        if (!leader_) return;
        json finalMetrics = json::object();
        for (const auto &[k, v] : lastValidation_)
            finalMetrics["val_" + k] = v;
        const double seconds = std::chrono::duration<double>(Clock::now() - wallStart).count();
        events_.emit({{"event", "finished"},
                      {"step", step_},
                      {"metrics", finalMetrics},
                      {"weights_sha256", weightsSha},
                      {"checkpoint", path},
                      {"steps_per_s", loopSeconds_ > 0 ? stepsTimed_ / loopSeconds_ : 0.0},
                      {"loader_fraction", loopSeconds_ > 0 ? loaderSeconds_ / loopSeconds_ : 0.0},
                      {"world_size", comm_.world()},
                      {"allreduce_s_per_step", stepsTimed_ > 0 ? allReduceSeconds_ / stepsTimed_ : 0.0},
                      {"memory", memory},
                      {"pipeline", pipeline},
                      {"loss_scale", scaler_.enabled() ? json(scaler_.scale()) : json()},
                      {"skipped_steps", scaler_.skippedSteps()},
                      {"wall_s", seconds}});
    }

    /// finished's "pipeline" (a collective): per stage, its seconds per step running forward, backward and waiting,
    /// and its parameters; null without stages.
    json stageTimesEvent() {
        if (!stage_) return nullptr;
        const double steps = static_cast<double>(std::max<std::int64_t>(1, stepsTimed_));
        const auto micros = [&](double seconds) { return static_cast<std::int64_t>(seconds / steps * 1e6); };
        json stages = json::array();
        const auto figures = allGatherFigures(comm_, {micros(stageTimes_.forward), micros(stageTimes_.backward),
                                                      micros(stageTimes_.waiting), network_->parameterCount()});
        for (const auto &f : figures)
            stages.push_back({{"forward_s_per_step", static_cast<double>(f.at(0)) * 1e-6},
                              {"backward_s_per_step", static_cast<double>(f.at(1)) * 1e-6},
                              {"waiting_s_per_step", static_cast<double>(f.at(2)) * 1e-6},
                              {"parameters", f.at(3)}});
        return {{"stages", stages}, {"micro_batches", stage_->microBatches()}, {"cut", stage_->cut()}};
    }

    /// Rank 0's resident memory: before the model was built, at its peak since then (over loading and training), and
    /// the bytes of the loaded data. peak_growth_bytes - data_bytes is what the performance model predicts.
    json memoryFigures() const {
        const ResidentMemory now = readResidentMemory();
        const std::int64_t growth =
            peakReset_ && now.peakBytes > 0 ? std::max<std::int64_t>(0, now.peakBytes - baselineResidentBytes_) : 0;
        json m = {{"baseline_rss_bytes", baselineResidentBytes_},
                  {"peak_rss_bytes", now.peakBytes},
                  {"peak_growth_bytes", growth},
                  {"peak_counted_from_baseline", peakReset_},
                  {"data_bytes", dataBytes()}};
        if (optimizer_) m["optimizer_state_bytes"] = optimizer_->localStateBytes();
        // Sharded gradients: the share, and the most the reducer's staging buffers held at once.
        if (flat_)
            m["gradient_bytes"] = static_cast<std::int64_t>(flat_->grads().nbytes()) +
                                  (reducer_ && reducer_->sharded() ? reducer_->peakStagingBytes() : 0);
        if (torchDevice_.is_cuda()) {
            const compat::GpuMemory g = compat::gpuMemory(torchDevice_.index());
            m["gpu"] = {{"allocated_bytes", g.allocated},
                        {"reserved_bytes", g.reserved},
                        {"peak_allocated_bytes", g.peakAllocated},
                        {"peak_reserved_bytes", g.peakReserved}};
        }
        return m;
    }

    std::int64_t dataBytes() const {
        std::int64_t bytes = 0;
        for (const Dataset *d : {&data_.train, &data_.validation})
            for (const torch::Tensor *t : {&d->inputs, &d->targets})
                if (t->defined()) bytes += static_cast<std::int64_t>(t->nbytes());
        return bytes;
    }

    int dryRun() {
        if (linearWarmUp_.joinable()) linearWarmUp_.join();
        spec::MemoryOptions mem;
        mem.batch = config_.batchSize;
        const std::string &o = config_.optimizer.name;
        mem.optimizer = o == "sgd"
                            ? (config_.optimizer.momentum > 0 ? spec::Optimizer::SGDMomentum : spec::Optimizer::SGD)
                        : o == "rmsprop" ? spec::Optimizer::RMSprop
                        : o == "adamw"   ? spec::Optimizer::AdamW
                                         : spec::Optimizer::Adam;
        const auto memory = spec::estimateMemory(network_->analysis(), mem);
        // Time a few real steps on a throw-away copy of the RNG state; nothing is written.
        const torch::Tensor rng = cpuRngState();
        MetricAccumulator acc(metrics_, data_.train.numClasses);
        network_->train(true);
        const int warmup = 2, timed = 5;
        Clock::time_point t0;
        for (int i = 0; i < warmup + timed; ++i) {
            if (i == warmup) t0 = Clock::now();
            flat_->zeroGrad();
            if (reducer_ && reducer_->sharded()) reducer_->arm();
            microStep(i % batchesPerEpoch_, acc);
            if (reducer_ && reducer_->sharded()) reducer_->finish(false);
        }
        const double perStep =
            std::chrono::duration<double>(Clock::now() - t0).count() / timed * config_.accumulationSteps;
        setCpuRngState(rng);
        // One validation chunk as evaluation runs it: at max(batch, 1024) samples its activations are often the run's
        // peak memory, which measured_memory must include.
        if (data_.validation.size() > 0) {
            torch::NoGradGuard noGrad;
            network_->train(false);
            torch::Tensor x =
                data_.validation.inputs.narrow(0, 0, std::min(evaluationChunk(), data_.validation.size()));
            if (device_ != "cpu") x = x.to(torchDevice_);
            AutocastScope autocast(config_.precision, torchDevice_);
            (void)network_->forward({x});
            network_->train(true);
        }
        const double checkpointSeconds = dryRunCheckpoint(spec::saturatingSum({memory.weights, memory.optimizerState}));
        events_.emit({{"event", "plan"},
                      {"parameters", network_->parameterCount()},
                      {"memory_bytes", memory.total()},
                      {"memory",
                       {{"weights", memory.weights},
                        {"gradients", memory.gradients},
                        {"optimizer_state", memory.optimizerState},
                        {"activations", memory.activations}}},
                      {"data_bytes", dataBytes()},
                      {"measured_memory", memoryFigures()},
                      {"checkpoint_seconds", checkpointSeconds},
                      {"data", data_.train.description},
                      {"train_samples", data_.train.size()},
                      {"validation_samples", data_.validation.size()},
                      {"steps", totalSteps_},
                      {"threads", threads_},
                      {"device", device_},
                      {"seconds_per_step", perStep},
                      {"estimated_seconds", perStep * static_cast<double>(totalSteps_)}});
        return 0;
    }

    /// A checkpoint written and read back as training does, into a folder of the run directory removed at once, so
    /// that the dry run's memory figures include what checkpointing holds and the planner gets its measured cost.
    /// Seconds, or -1 when skipped (checkpoints estimated above 4 GiB, or no run directory).
    double dryRunCheckpoint(std::int64_t estimatedBytes) {
        if (options_.runDir.empty() || estimatedBytes > (std::int64_t(4) << 30)) return -1;
        const fs::path dir = fs::path(options_.runDir) / (".dry-run-checkpoint-" + std::to_string(::getpid()));
        CheckpointState s = checkpointTemplate();
        s.rngState = cpuRngState();
        s.world = comm_.world();
        const auto start = Clock::now();
        std::error_code ec;
        try {
            writeCheckpoint(dir.string(), s);
        } catch (...) {
            fs::remove_all(dir, ec);
            throw;
        }
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        fs::remove_all(dir, ec);
        return seconds;
    }

    const spec::Spec &spec_;
    const RunConfig &config_;
    const TrainerOptions &options_;
    EventWriter &events_;
    Communicator &comm_;
    Communicator *dp_;                     ///< the data-parallel group: comm_, or single_ for pipeline stages
    std::unique_ptr<Communicator> single_; ///< pipeline stages: a group of this process alone
    std::unique_ptr<PipelineStage> stage_; ///< pipeline stages only
    StageTimes stageTimes_;                ///< this stage's, summed over the timed steps
    const bool leader_;
    const Clock::time_point runStart_ = Clock::now();

    LossConfig loss_;
    std::vector<std::string> metrics_;
    int threads_ = 1;
    std::string device_ = "cpu"; ///< the concrete device: "cpu" or "cuda:N" (chooseDevice)
    torch::Device torchDevice_ = torch::kCPU;
    LossScaler scaler_{false};
    bool flushDenormals_ = false;
    bool peakReset_ = false;                 ///< the peak resident memory counts from baselineResidentBytes_
    std::int64_t baselineResidentBytes_ = 0; ///< before the model and the data (memoryFigures)
    std::unique_ptr<Network> network_;
    SplitData data_;
    std::unique_ptr<FlatParameters> flat_;
    std::vector<bool> gradsOverwritten_; ///< per parameter: written by overwrite-first products (see linear.cpp)
    std::vector<torch::Tensor> parameters_;
    std::vector<torch::Tensor> fusedTargets_; ///< per parameter: its momentum buffer part when fused, or undefined
    std::unordered_map<const void *, std::size_t> partOfBuffer_; ///< fused momentum part -> parameter index
    std::thread linearWarmUp_;                                   ///< startLinearWarmUp(); joined before the first step
    std::vector<Optimizer::Part> partsThisStep_; ///< per parameter: how far this step's products took it
    std::vector<bool> finishedThisStep_;         ///< per parameter: update finished right after its product
    double stepLr_ = 0;                          ///< the learning rate of the step in progress
    bool lossFinite_ = true;                     ///< the last micro-batch's loss
    std::unique_ptr<Optimizer> optimizer_;
    std::unique_ptr<BatchSampler> sampler_;
    std::unique_ptr<GradientReducer> reducer_; ///< several ranks only
    spec::RecomputeChoice recomputeChoice_;    ///< "recompute": "auto" only
    std::int64_t micro_ = 0, batchesPerEpoch_ = 1, totalSteps_ = 0, evalEvery_ = 1, step_ = 0, stepsTimed_ = 0;
    double loopSeconds_ = 0, loaderSeconds_ = 0, allReduceSeconds_ = 0, lastLr_ = 0, bestMetric_ = 0;
    bool hasBest_ = false;
    std::int64_t evalsWithoutImprovement_ = 0;
    std::map<std::string, double> lastValidation_;
    std::int64_t lastValidationStep_ = -1;
    std::string resumedFrom_;
    std::unique_ptr<BatchPrefetcher> prefetcher_; ///< last: its thread stops before the data it reads goes
};

} // namespace

int runTraining(const spec::Spec &spec, const RunConfig &config, const TrainerOptions &options, EventWriter &events,
                Communicator &comm) {
    Run run(spec, config, options, events, comm);
    return run.execute();
}

} // namespace diamond::engine
