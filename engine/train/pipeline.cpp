#include "pipeline.h"

#include "checkpoint.h"
#include "engine_error.h"
#include "precision.h"

#include <chrono>
#include <set>

namespace diamond::engine {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// What crosses between stages travels as float32 (whatever autocast computed it in) or as its integer type.
torch::Dtype wireType(const spec::TensorType &type) {
    return spec::isFloating(type.dtype) ? torch::kFloat : torchType(type.dtype);
}

std::vector<std::int64_t> shapeFor(const spec::TensorType &type, std::int64_t rows) {
    std::vector<std::int64_t> shape;
    for (std::int64_t d : type.shape)
        shape.push_back(d == spec::kBatch ? rows : d);
    return shape;
}

} // namespace

PipelineStage::PipelineStage(const spec::Spec &spec, const Network &whole, const config::PipelineConfig &config,
                             Communicator &comm, const std::string &precision, const torch::Device &device)
    : comm_(comm), precision_(precision), device_(device), microBatches_(config.microBatches) {
    if (comm.world() != config.stages)
        throw EngineError("The pipeline has " + std::to_string(config.stages) + " stages but the run has " +
                              std::to_string(comm.world()) + " process(es); a pipeline runs one process per stage.",
                          "pipeline.stages", {}, "Start as many processes (nproc) as there are stages.");
    const spec::Analysis &analysis = whole.analysis();
    cut_ = config.cut.empty() ? spec::flopBalancedCut(spec, analysis, config.stages) : config.cut;
    if (static_cast<int>(cut_.size()) != config.stages - 1)
        throw EngineError("The network has " + std::to_string(spec::runOrder(analysis).size()) +
                              " nodes, too few for " + std::to_string(config.stages) + " stages.",
                          "pipeline.stages", {}, "Use fewer stages.");
    split_ = spec::splitIntoStages(spec, analysis, cut_);
    if (!split_.ok()) throw EngineError("The pipeline cut cannot be used: " + split_.error + ".", "pipeline.cut");

    wholeParameters_ = whole.parameterCount();
    for (const auto &[name, tensor] : whole.namedState())
        wholeState_.emplace_back(name, torch::empty(tensor.sizes(), tensor.options().device(torch::kMeta)));
    for (const auto &[name, tensor] : whole.namedParameters()) {
        wholeOffset_[name] = wholeNumel_;
        wholeNumel_ += tensor.numel();
    }
    // Every rank knows every stage's entries: rank 0 places what the others send when it gathers a checkpoint.
    for (const spec::Stage &stage : split_.stages) {
        std::vector<std::string> names;
        std::vector<std::pair<std::string, std::int64_t>> params;
        for (const spec::Node &node : stage.spec.nodes) {
            const std::shared_ptr<Layer> layer = whole.layer(node.id);
            if (!layer) continue;
            for (const auto &p : layer->named_parameters()) {
                names.push_back(node.id + "." + p.key());
                params.emplace_back(node.id + "." + p.key(), p.value().numel());
            }
            for (const auto &b : layer->named_buffers())
                names.push_back(node.id + "." + b.key());
        }
        stateNames_.push_back(std::move(names));
        parameterNames_.push_back(std::move(params));
    }
    const torch::Tensor rng = cpuRngState(); // building the stage draws initial weights it then overwrites
    try {
        network_ = Network::build(split_.stages.at(static_cast<std::size_t>(stage())).spec);
    } catch (const EngineError &e) {
        throw EngineError(std::string("Stage ") + std::to_string(stage() + 1) + " cannot be built: " + e.what(),
                          "pipeline.cut", e.node());
    }
    setCpuRngState(rng);
    loadStageState(*network_, whole.namedState());
}

void PipelineStage::loadStageState(Network &network,
                                   const std::vector<std::pair<std::string, torch::Tensor>> &state) const {
    std::map<std::string, const torch::Tensor *> byName;
    for (const auto &[name, tensor] : state)
        byName[name] = &tensor;
    torch::NoGradGuard noGrad;
    for (auto &[name, tensor] : network.namedState()) {
        const auto it = byName.find(name);
        if (it == byName.end() || !it->second->sizes().equals(tensor.sizes()))
            throw EngineError("The whole network's state has no entry '" + name + "' of shape " +
                              c10::str(tensor.sizes()) + " for pipeline stage " + std::to_string(stage() + 1) + ".");
        tensor.copy_(*it->second);
    }
}

std::vector<torch::Tensor> PipelineStage::receive(const std::vector<spec::CrossingValue> &values, std::int64_t rows,
                                                  bool gradients, int from, double &waiting) {
    std::vector<torch::Tensor> out;
    const auto start = Clock::now();
    for (const spec::CrossingValue &v : values) {
        if (gradients && !spec::isFloating(v.type.dtype)) {
            out.emplace_back();
            continue;
        }
        torch::Tensor t = torch::empty(shapeFor(v.type, rows), torch::TensorOptions(wireType(v.type)).device(device_));
        comm_.recv(t, from);
        out.push_back(std::move(t));
    }
    waiting += secondsSince(start);
    return out;
}

void PipelineStage::send(const std::vector<torch::Tensor> &tensors, int to) {
    for (const torch::Tensor &t : tensors) {
        if (!t.defined()) continue;
        std::unique_ptr<PendingCollective> pending = comm_.sendAsync(t, to);
        sends_.emplace_back(t, std::move(pending)); // the tensor stays alive until the send is done
    }
}

void PipelineStage::waitForSends() {
    for (auto &[tensor, pending] : sends_)
        pending->wait();
    sends_.clear();
}

std::vector<torch::Tensor> PipelineStage::stageInputs(const torch::Tensor &x, std::int64_t rows, bool training,
                                                      double &waiting) {
    if (isFirst()) return {x};
    const auto &values = split_.stages[static_cast<std::size_t>(stage())].receives;
    std::vector<torch::Tensor> inputs = receive(values, rows, false, stage() - 1, waiting);
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (training && spec::isFloating(values[i].type.dtype)) inputs[i].requires_grad_(true);
    return inputs;
}

StageTimes PipelineStage::trainBatch(Network &network, const torch::Tensor &x, std::int64_t rows,
                                     const LossStep &loss) {
    StageTimes times;
    const std::int64_t micro = rows / microBatches_;
    const spec::Stage &here = split_.stages[static_cast<std::size_t>(stage())];
    std::vector<Received> kept(static_cast<std::size_t>(microBatches_));
    for (int m = 0; m < microBatches_; ++m) {
        Received &r = kept[static_cast<std::size_t>(m)];
        r.inputs = stageInputs(isFirst() ? x.narrow(0, m * micro, micro) : x, micro, true, times.waiting);
        const auto start = Clock::now();
        {
            AutocastScope autocast(precision_, device_);
            r.outputs = network.forward(r.inputs);
            if (isLast()) r.loss = loss(r.outputs.front(), m * micro, micro);
        }
        if (!isLast()) {
            std::vector<torch::Tensor> wire;
            for (std::size_t i = 0; i < r.outputs.size(); ++i)
                wire.push_back(r.outputs[i].detach().to(wireType(here.sends[i].type)).contiguous());
            send(wire, stage() + 1);
        }
        if (!isLast()) {
            // Only what a later stage differentiates keeps its graph: an integer pass-through has none.
            for (torch::Tensor &o : r.outputs)
                if (!o.requires_grad()) o = torch::Tensor();
        }
        times.forward += secondsSince(start);
    }
    // Backward in the forward order: the gradients accumulate as a single process's accumulation_steps add them.
    for (int m = 0; m < microBatches_; ++m) {
        Received &r = kept[static_cast<std::size_t>(m)];
        if (isLast()) {
            const auto start = Clock::now();
            r.loss.backward();
            times.backward += secondsSince(start);
        } else {
            std::vector<torch::Tensor> grads = receive(here.sends, micro, true, stage() + 1, times.waiting);
            std::vector<torch::Tensor> roots, rootGrads;
            for (std::size_t i = 0; i < r.outputs.size(); ++i) {
                if (!r.outputs[i].defined() || !grads[i].defined()) continue;
                roots.push_back(r.outputs[i]);
                rootGrads.push_back(grads[i].to(r.outputs[i].scalar_type()));
            }
            const auto start = Clock::now();
            if (!roots.empty()) torch::autograd::backward(roots, rootGrads);
            times.backward += secondsSince(start);
        }
        if (!isFirst()) {
            std::vector<torch::Tensor> grads;
            for (std::size_t i = 0; i < r.inputs.size(); ++i) {
                if (!spec::isFloating(here.receives[i].type.dtype)) {
                    grads.emplace_back();
                    continue;
                }
                const torch::Tensor g = r.inputs[i].grad();
                grads.push_back(g.defined() ? g.to(torch::kFloat).contiguous() : torch::zeros_like(r.inputs[i]));
            }
            send(grads, stage() - 1);
        }
        r = Received(); // this micro-batch's activations go now
    }
    const auto start = Clock::now();
    waitForSends();
    times.waiting += secondsSince(start);
    return times;
}

torch::Tensor PipelineStage::forward(Network &network, const torch::Tensor &x, std::int64_t rows) {
    double waiting = 0;
    const std::vector<torch::Tensor> inputs = stageInputs(x, rows, false, waiting);
    std::vector<torch::Tensor> outputs;
    {
        AutocastScope autocast(precision_, device_);
        outputs = network.forward(inputs);
    }
    if (isLast()) return outputs.front();
    const spec::Stage &here = split_.stages[static_cast<std::size_t>(stage())];
    std::vector<torch::Tensor> wire;
    for (std::size_t i = 0; i < outputs.size(); ++i)
        wire.push_back(outputs[i].to(wireType(here.sends[i].type)).contiguous());
    send(wire, stage() + 1);
    waitForSends();
    return {};
}

void PipelineStage::gatherState(std::vector<std::pair<std::string, torch::Tensor>> &model,
                                std::map<std::string, torch::Tensor> &optimizer) {
    const auto ownNumel = [&](int rank) {
        std::int64_t n = 0;
        for (const auto &[name, numel] : parameterNames_[static_cast<std::size_t>(rank)])
            n += numel;
        return n;
    };
    std::vector<std::string> perParameter; // the optimizer entries laid out like the stage's parameters
    for (const auto &[key, tensor] : optimizer)
        if (tensor.defined() && tensor.dim() == 1 && tensor.numel() == ownNumel(stage())) perParameter.push_back(key);
    if (stage() != 0) {
        for (auto &[name, tensor] : model)
            comm_.send(tensor.detach().contiguous(), 0);
        for (const std::string &key : perParameter)
            comm_.send(optimizer.at(key).contiguous(), 0);
        return;
    }
    std::map<std::string, torch::Tensor> byName;
    for (auto &[name, tensor] : model)
        byName[name] = tensor.detach();
    std::map<std::string, torch::Tensor> wholeOptimizer;
    for (const std::string &key : perParameter)
        wholeOptimizer[key] = torch::zeros({wholeNumel_}, optimizer.at(key).options());
    const auto place = [&](int rank, const std::string &key, const torch::Tensor &stagePart) {
        std::int64_t offset = 0;
        for (const auto &[name, numel] : parameterNames_[static_cast<std::size_t>(rank)]) {
            wholeOptimizer[key].narrow(0, wholeOffset_.at(name), numel).copy_(stagePart.narrow(0, offset, numel));
            offset += numel;
        }
    };
    for (const std::string &key : perParameter)
        place(0, key, optimizer.at(key));
    std::map<std::string, torch::Tensor> shapes;
    for (const auto &[name, meta] : wholeState_)
        shapes[name] = meta;
    for (int r = 1; r < stages(); ++r) {
        for (const std::string &name : stateNames_[static_cast<std::size_t>(r)]) {
            const torch::Tensor &meta = shapes.at(name);
            torch::Tensor t = torch::empty(meta.sizes(), meta.options().device(comm_.device()));
            comm_.recv(t, r);
            byName[name] = t;
        }
        for (const std::string &key : perParameter) {
            torch::Tensor t = torch::empty({ownNumel(r)}, optimizer.at(key).options().device(comm_.device()));
            comm_.recv(t, r);
            place(r, key, t);
        }
    }
    model.clear();
    for (const auto &[name, meta] : wholeState_)
        model.emplace_back(name, byName.at(name));
    for (auto &[key, tensor] : wholeOptimizer)
        optimizer[key] = std::move(tensor);
}

std::map<std::string, torch::Tensor>
PipelineStage::stageOptimizerState(const std::map<std::string, torch::Tensor> &whole) const {
    std::map<std::string, torch::Tensor> out;
    for (const auto &[key, tensor] : whole) {
        if (!tensor.defined() || tensor.dim() != 1 || tensor.numel() != wholeNumel_) {
            out[key] = tensor;
            continue;
        }
        std::vector<torch::Tensor> parts;
        for (const auto &[name, numel] : parameterNames_[static_cast<std::size_t>(stage())])
            parts.push_back(tensor.narrow(0, wholeOffset_.at(name), numel));
        out[key] = parts.empty() ? torch::empty({0}, tensor.options()) : torch::cat(parts);
    }
    return out;
}

} // namespace diamond::engine
