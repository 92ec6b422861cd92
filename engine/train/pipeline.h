// Pipeline parallelism (docs/distributed.md): one process per stage of the network (spec::splitIntoStages), each
// batch cut into micro-batches that flow through the stages in the GPipe order: every micro-batch forward (each stage
// receives what the stage before sends, runs its nodes and sends on), then every one backward in the same order (each
// stage receives the gradients of what it sent, runs backward and sends the gradients of what it received). The last
// stage computes the loss. Each stage keeps and updates only its own parameters; checkpoints are gathered on rank 0
// into the whole network's canonical form, so a pipeline run resumes with any other layout and the other way round.
#pragma once

#include "distributed.h"
#include "model/network.h"

#include "diamond/config/run_config.h"
#include "diamond/spec/pipeline.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace diamond::engine {

/// Seconds this stage spent per step, summed over its micro-batches.
struct StageTimes {
    double forward = 0;  ///< running its nodes forward (the last stage: with the loss)
    double backward = 0; ///< running backward
    double waiting = 0;  ///< waiting to receive activations and gradients (the pipeline's bubble and the transfers)
    StageTimes &operator+=(const StageTimes &o) {
        forward += o.forward;
        backward += o.backward;
        waiting += o.waiting;
        return *this;
    }
};

class PipelineStage {
public:
    /// Cuts `spec` as `config` says (its cut, or spec::flopBalancedCut for "auto") into comm.world() stages (which
    /// must be config.stages), and builds this rank's stage with `whole`'s parameters and buffers (`whole`: the whole
    /// network, built and initialised as a single process builds it, so every layout starts from the same weights).
    /// The CPU RNG state is left as `whole`'s build left it. Throws EngineError (field "pipeline.cut" or
    /// "pipeline.stages") on a cut that cannot be used.
    PipelineStage(const spec::Spec &spec, const Network &whole, const config::PipelineConfig &config,
                  Communicator &comm, const std::string &precision, const torch::Device &device);

    /// This rank's stage network (built by the constructor; the caller owns it from here).
    std::unique_ptr<Network> takeNetwork() { return std::move(network_); }
    int stage() const { return comm_.rank(); }
    int stages() const { return comm_.world(); }
    bool isFirst() const { return stage() == 0; }
    bool isLast() const { return stage() + 1 == stages(); }
    int microBatches() const { return microBatches_; }
    /// The node after which each stage but the last ends, and the nodes of each stage.
    const std::vector<std::string> &cut() const { return cut_; }
    const std::vector<spec::Stage> &stageSpecs() const { return split_.stages; }
    std::int64_t wholeParameterCount() const { return wholeParameters_; }
    /// Elements of the whole network's parameters (the length of its canonical per-parameter optimizer tensors).
    std::int64_t wholeNumel() const { return wholeNumel_; }

    /// The last stage's loss for one micro-batch: `out` the network's output for samples [begin, begin + rows) of the
    /// batch. Returns the tensor to run backward from (divided and scaled as the caller's training wants).
    using LossStep = std::function<torch::Tensor(const torch::Tensor &out, std::int64_t begin, std::int64_t rows)>;
    /// One batch of `rows` samples (`x`: the first stage's inputs; other stages ignore it) in microBatches() parts
    /// through every stage, forward then backward; the parameters' gradients accumulate. Collective over the stages.
    StageTimes trainBatch(Network &network, const torch::Tensor &x, std::int64_t rows, const LossStep &loss);
    /// Forward only (evaluation, no gradients) of `rows` samples in one part: the last stage's output; undefined on
    /// the others. Collective.
    torch::Tensor forward(Network &network, const torch::Tensor &x, std::int64_t rows);

    /// The whole network's state (names, shapes and dtypes) in Network::namedState() order, as meta tensors.
    const std::vector<std::pair<std::string, torch::Tensor>> &wholeStateShapes() const { return wholeState_; }
    /// Rank 0 gets the whole network's state: every stage's `model` entries (its Network::namedState()) placed in the
    /// whole order, and each canonical per-parameter optimizer tensor in `optimizer` (this stage's parameters,
    /// canonical order) placed at the whole network's canonical offsets; other entries (the step count) are rank 0's.
    /// Other ranks get their inputs back unchanged. Collective.
    void gatherState(std::vector<std::pair<std::string, torch::Tensor>> &model,
                     std::map<std::string, torch::Tensor> &optimizer);
    /// From the whole network's canonical optimizer state (a checkpoint's), this stage's part (canonical order of its
    /// parameters); entries of another size are kept as they are.
    std::map<std::string, torch::Tensor> stageOptimizerState(const std::map<std::string, torch::Tensor> &whole) const;
    /// Copies this stage's entries of the whole network's `state` (namedState() names) into `network`'s.
    void loadStageState(Network &network, const std::vector<std::pair<std::string, torch::Tensor>> &state) const;

private:
    struct Received {
        std::vector<torch::Tensor> inputs; ///< what the stage ran on (float ones require grad)
        std::vector<torch::Tensor> outputs;
        torch::Tensor loss; ///< last stage
    };
    std::vector<torch::Tensor> receive(const std::vector<spec::CrossingValue> &values, std::int64_t rows,
                                       bool gradients, int from, double &waiting);
    void send(const std::vector<torch::Tensor> &tensors, int to);
    void waitForSends();
    std::vector<torch::Tensor> stageInputs(const torch::Tensor &x, std::int64_t rows, bool training, double &waiting);

    Communicator &comm_;
    std::string precision_;
    torch::Device device_;
    int microBatches_ = 1;
    spec::StageSplit split_;
    std::vector<std::string> cut_;
    std::unique_ptr<Network> network_;
    std::int64_t wholeParameters_ = 0;
    std::vector<std::pair<std::string, torch::Tensor>> wholeState_;
    /// Per rank: the names of its stage's namedState() entries, and of its parameters with their element counts.
    std::vector<std::vector<std::string>> stateNames_;
    std::vector<std::vector<std::pair<std::string, std::int64_t>>> parameterNames_;
    std::map<std::string, std::int64_t> wholeOffset_; ///< parameter name -> its canonical offset in the whole network
    std::int64_t wholeNumel_ = 0;
    std::vector<std::pair<torch::Tensor, std::unique_ptr<PendingCollective>>> sends_; ///< in flight, with their data
};

} // namespace diamond::engine
