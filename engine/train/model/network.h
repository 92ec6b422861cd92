// A trainable network built from a spec: one libtorch module per node, executed in topological
// order. Parameter and buffer names are "<node id>.<torch name>" (e.g. "layer1.0.conv1.weight").
#pragma once

#include "diamond/spec/analysis.h"

#include <torch/torch.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace diamond::engine {

/// What a layer factory gets: the node, its resolved parameters (defaults filled in, see
/// diamond::spec::resolveParams) and the inferred input/output types from the spec analysis.
struct LayerBuildContext {
    const std::string &nodeId;
    const std::string &type;
    const nlohmann::json &params;
    const std::vector<spec::TensorType> &inputs;
    const std::vector<spec::TensorType> &outputs;
};

/// One node's module. forward() takes the node's inputs in order and returns one tensor per
/// output port. Default initialisation matches PyTorch's for the same layer.
class Layer : public torch::nn::Module {
public:
    virtual std::vector<torch::Tensor> forward(const std::vector<torch::Tensor> &inputs) = 0;
    /// Whether forwardWithRelu() applies the ReLU inside the layer's own computation (the
    /// network then folds a ReLU that is the only consumer of this layer's output into it).
    virtual bool fusesRelu() const { return false; }
    /// forward() followed by a ReLU on the first output.
    virtual std::vector<torch::Tensor> forwardWithRelu(const std::vector<torch::Tensor> &inputs) {
        std::vector<torch::Tensor> out = forward(inputs);
        out.front() = torch::relu(out.front());
        return out;
    }
    /// For the layer types whose registry entry recomputesInside: recompute the layer's own sub-blocks in backward,
    /// keeping only their inputs (finer than recomputing the whole layer as one part).
    virtual void setRecomputeInside(bool /*on*/) {}
};

using LayerFactory = std::function<std::shared_ptr<Layer>(const LayerBuildContext &)>;
using LayerFactoryMap = std::map<std::string, LayerFactory>;

/// Every spec layer type's factory (one source file per layer family under model/).
const LayerFactoryMap &layerFactories();

namespace layers {
void addLinearFactories(LayerFactoryMap &m);
/// When on, Linear layers on CPU (oneDNN builds) add their weight and bias gradients straight
/// into the parameters' defined .grad() tensors and hand autograd no gradient for them, so no
/// AccumulateGrad node (nor its hooks) runs for those parameters. For a single process training
/// over a FlatParameters buffer only; off by default.
void setLinearWeightGradsInPlace(bool on);
/// Whether in-place gradients are on (always false without oneDNN).
bool linearWeightGradsInPlace();
/// Whether this build can compute Linear gradients in place (built with oneDNN).
bool linearWeightGradsInPlaceAvailable();
/// Starts an overwrite-first step for in-place gradients (returns its id; turning in-place mode
/// on or off ends overwrite-first mode): the first in-place product into a .grad() during the
/// step overwrites it (so the caller need not zero it), later ones add. A gradient that no
/// product wrote during the step (linearGradientWritten false) still holds an older value and
/// must be zeroed by the caller. The first product into a redirection buffer (below) computes
/// `redirectedFirstWriteBeta * buffer + gradient` instead.
std::uint64_t beginLinearGradientStep(float redirectedFirstWriteBeta = 0.0F);
/// Whether an in-place product wrote `target` (a .grad() or a redirection buffer) during `step`.
bool linearGradientWritten(const torch::Tensor &target, std::uint64_t step);
/// Momentum fusion on top of in-place gradients: the products for a parameter whose data
/// pointer is a key of `targets` write into that buffer (contiguous, the parameter's shape)
/// instead of its .grad(), which they leave untouched. With an optimizer's momentum buffer and
/// its decay as the first-write beta, the product performs `buffer = momentum * buffer +
/// gradient` itself. Replaces the previous redirections; setLinearWeightGradsInPlace() clears them.
void redirectLinearGradients(std::unordered_map<const void *, torch::Tensor> targets);
/// Called right after each product into a redirection buffer (with that buffer), e.g. to finish
/// the optimizer's update of that parameter while the buffer is in cache; empty: none.
/// setLinearWeightGradsInPlace() clears it.
void setLinearGradientFinisher(std::function<void(const torch::Tensor &buffer)> finisher);
/// Runs the oneDNN products of Linear layers with these weight shapes ([out, in]) on batches of
/// `rows` rows once, on zeroed scratch buffers, with one OpenMP thread: oneDNN generates each
/// GEMM kernel on its first use (about 25 ms for a 784-512-256-10 MLP, most of a first step), and
/// its kernels are shared by all threads. Meant for a background thread during set-up. Touches
/// no parameter; skips layers that would need more than 64 MB of scratch; a no-op without oneDNN.
void warmUpLinearProducts(const std::vector<std::array<std::int64_t, 2>> &weightShapes, std::int64_t rows);
void addConvolutionFactories(LayerFactoryMap &m);
void addPoolingFactories(LayerFactoryMap &m);
void addNormalizationFactories(LayerFactoryMap &m);
void addActivationFactories(LayerFactoryMap &m);
void addReshapingFactories(LayerFactoryMap &m);
void addEmbeddingFactories(LayerFactoryMap &m);
void addRecurrentFactories(LayerFactoryMap &m);
void addAttentionFactories(LayerFactoryMap &m);
void addMergeFactories(LayerFactoryMap &m);
} // namespace layers

/// The torch dtype of a spec dtype.
torch::Dtype torchType(spec::DType dtype);

class Network {
public:
    /// Analyses the spec and builds every node. Throws EngineError naming the node on an invalid
    /// spec or an unsupported layer. Parameters are initialised from torch's global RNG, in
    /// spec node order.
    static std::unique_ptr<Network> build(const spec::Spec &spec);

    /// inputs: one tensor per graph input in spec order (batch first); returns one tensor per
    /// spec output in order.
    std::vector<torch::Tensor> forward(const std::vector<torch::Tensor> &inputs);

    /// Trainable parameters in spec node order (each node's in torch registration order).
    std::vector<torch::Tensor> parameters() const;
    std::vector<std::pair<std::string, torch::Tensor>> namedParameters() const;
    std::vector<std::pair<std::string, torch::Tensor>> namedBuffers() const;
    /// Parameters and buffers: for each node in spec order, its parameters then its buffers.
    /// This is the order of weights_sha256 and of exported weights.
    std::vector<std::pair<std::string, torch::Tensor>> namedState() const;
    std::int64_t parameterCount() const;
    /// One flag per parameters() entry: whether it belongs to a node of spec type `type`.
    std::vector<bool> parametersOfNodeType(const std::string &type) const;

    void train(bool on = true);
    void to(const torch::Device &device);
    /// Gives every Conv2d weight the channels-last layout, so that convolutions (oneDNN), ReLU and
    /// pooling after them run channels-last. Same results up to float rounding; call before the
    /// parameters are moved into a FlatParameters buffer (which keeps the layout).
    void useChannelsLast();

    const spec::Spec &spec() const { return spec_; }
    const spec::Analysis &analysis() const { return analysis_; }
    /// The module of node `id`, or nullptr.
    std::shared_ptr<Layer> layer(const std::string &id) const;
    /// Whether node `id` applies the ReLU that consumes its output itself (fuseReluIntoProducers).
    bool runsReluInside(const std::string &id) const;

    /// Which nodes recompute their activations in backward (model/recompute.h): "marked" (the spec's nodes with
    /// "recompute": true; what build() sets), "all" or "none"; throws EngineError otherwise. Consecutive such nodes
    /// (in run order) form runs; a run is cut into parts (spec::cutRecomputedRun), each recomputed as a whole. A layer
    /// whose type recomputesInside (spec registry) is not put in a part: it recomputes its own sub-blocks. Call before
    /// training starts.
    void setRecompute(const std::string &which);
    /// Recomputes exactly the nodes with these ids (spec::chooseRecomputed's choice); unknown ids are ignored.
    void setRecomputeNodes(const std::vector<std::string> &ids);
    /// The recomputed parts and layers (0 when nothing is recomputed), and the nodes in them.
    int recomputedParts() const;
    int recomputedNodes() const;

private:
    struct Step {
        int node;                                ///< index into spec_.nodes
        std::vector<std::pair<int, int>> inputs; ///< (value slot, port) per input
        /// A ReLU whose only consumer is a max pool: passes its input through, and that pool applies
        /// the ReLU to its (smaller) output instead. max and ReLU commute, so outputs are identical.
        /// Also a ReLU folded into its producer (reluInside).
        bool passThrough = false;
        bool reluAfter = false;  ///< the max pool of such a pair
        bool reluInside = false; ///< runs Layer::forwardWithRelu(): the ReLU after it passes through
    };
    /// What forward() runs in order: one step, or a part of consecutive steps recomputed in backward.
    struct Unit {
        std::size_t first = 0, end = 0;           ///< steps_[first, end)
        bool recomputed = false;                  ///< a part (see setRecompute)
        std::vector<std::pair<int, int>> inputs;  ///< part: (slot, port) read from before it, in first-use order
        std::vector<std::pair<int, int>> outputs; ///< part: (slot, port) read after it
        std::vector<int> consumed; ///< slots read from before it, once per read of a step, once for a part
    };
    /// Runs `step` on `values`, releasing each input slot whose uses drop to 0.
    void runStep(const Step &step, std::vector<std::vector<torch::Tensor>> &values, std::vector<int> &usesLeft,
                 std::vector<torch::Tensor> &args);
    /// Runs the part `unit` from its inputs (in unit.inputs order); returns its outputs (in unit.outputs order).
    std::vector<torch::Tensor> runPart(const Unit &unit, const std::vector<torch::Tensor> &inputs);
    /// One unit per step, or parts for the steps whose node `recomputed` says; sets each layer's recompute-inside.
    void buildUnits(const std::vector<bool> &recomputed);

    /// Per step (same index): the step producing its single input when nothing else (no other
    /// step, no spec output) consumes that value; nullptr otherwise.
    std::vector<Step *> exclusiveProducers();
    void fuseReluIntoMaxPool();
    /// Folds a ReLU into its producer when the producer fusesRelu() and the ReLU is the only
    /// consumer of its output (e.g. Linear: bias and ReLU in one pass after the product).
    void fuseReluIntoProducers();

    spec::Spec spec_;
    spec::Analysis analysis_;
    std::vector<std::shared_ptr<Layer>> layers_; ///< by spec node index
    std::vector<Step> steps_;                    ///< topological order
    std::vector<Unit> units_;                    ///< steps_ grouped for forward()
    int recomputedParts_ = 0, recomputedNodes_ = 0;
    std::map<std::string, int> slotOf_;        ///< input name / node id -> value slot
    std::vector<std::pair<int, int>> outputs_; ///< (slot, port) per spec output
};

} // namespace diamond::engine
