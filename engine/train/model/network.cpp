#include "model/network.h"

#include "diamond/spec/recompute.h"
#include "diamond/spec/registry.h"
#include "engine_error.h"
#include "model/recompute.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <set>

namespace diamond::engine {

const LayerFactoryMap &layerFactories() {
    static const LayerFactoryMap factories = [] {
        LayerFactoryMap m;
        layers::addLinearFactories(m);
        layers::addConvolutionFactories(m);
        layers::addPoolingFactories(m);
        layers::addNormalizationFactories(m);
        layers::addActivationFactories(m);
        layers::addReshapingFactories(m);
        layers::addEmbeddingFactories(m);
        layers::addRecurrentFactories(m);
        layers::addAttentionFactories(m);
        layers::addMergeFactories(m);
        return m;
    }();
    return factories;
}

namespace {

/// torch's message without the C++ backtrace that c10::Error appends in what().
std::string torchMessage(const std::exception &e) {
    if (const auto *c10Error = dynamic_cast<const c10::Error *>(&e)) return c10Error->what_without_backtrace();
    return e.what();
}

std::string shapeText(const torch::Tensor &t) {
    std::string s = "[";
    for (std::int64_t i = 0; i < t.dim(); ++i)
        s += (i ? "," : "") + std::to_string(t.size(i));
    return s + "]";
}

} // namespace

std::unique_ptr<Network> Network::build(const spec::Spec &spec) {
    auto net = std::make_unique<Network>();
    net->spec_ = spec;
    net->analysis_ = spec::analyze(net->spec_);
    const spec::Spec &s = net->spec_;
    const spec::Analysis &a = net->analysis_;
    for (const auto &d : a.diagnostics) {
        if (d.severity == spec::Severity::Error) throw EngineError(d.message, {}, d.node, d.hint);
    }

    // Value slots: graph inputs first, then nodes, both in spec order.
    const int inputCount = static_cast<int>(s.inputs.size());
    for (int i = 0; i < inputCount; ++i)
        net->slotOf_[s.inputs[static_cast<std::size_t>(i)].name] = i;
    for (std::size_t i = 0; i < s.nodes.size(); ++i)
        net->slotOf_[s.nodes[i].id] = inputCount + static_cast<int>(i);

    const auto &registry = spec::Registry::instance();
    const auto portOf = [&](const spec::PortRef &ref) -> std::pair<int, int> {
        const int slot = net->slotOf_.at(ref.node);
        if (slot < inputCount) return {slot, 0};
        const spec::LayerType *type = registry.find(s.nodes[static_cast<std::size_t>(slot - inputCount)].type);
        return {slot, type ? type->outputPortIndex(ref.port) : 0};
    };

    // Layers in spec node order: parameter initialisation draws from torch's RNG in this order.
    const auto &factories = layerFactories();
    net->layers_.resize(s.nodes.size());
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        const spec::Node &node = s.nodes[i];
        const spec::NodeInfo *info = a.node(node.id);
        if (!info || !info->ok) throw EngineError("Node '" + node.id + "' could not be analysed.", {}, node.id);
        auto factory = factories.find(node.type);
        if (factory == factories.end()) {
            throw EngineError("Node '" + node.id + "' has the layer type '" + node.type +
                                  "', which the training engine cannot build.",
                              {}, node.id, "Replace it with a supported layer or update the engine.");
        }
        std::vector<spec::TensorType> inputs;
        for (const auto &ref : node.inputs) {
            const spec::TensorType *t = a.portType(ref);
            if (!t) throw EngineError("Node '" + node.id + "': the type of input '" + ref.toString() + "' is unknown.");
            inputs.push_back(*t);
        }
        const LayerBuildContext ctx{node.id, node.type, info->params, inputs, info->outputs};
        try {
            net->layers_[i] = factory->second(ctx);
        } catch (const EngineError &) {
            throw;
        } catch (const std::exception &e) {
            throw EngineError(node.type + " '" + node.id + "' could not be built: " + torchMessage(e), {}, node.id);
        }
        if (!net->layers_[i]) throw EngineError(node.type + " '" + node.id + "' could not be built.", {}, node.id);
    }

    // Only nodes that feed a spec output run in forward(); all of them are built above.
    std::vector<bool> needed(s.nodes.size(), false);
    std::vector<int> stack;
    for (const auto &o : s.outputs)
        stack.push_back(net->slotOf_.at(o.from.node));
    while (!stack.empty()) {
        const int slot = stack.back();
        stack.pop_back();
        if (slot < inputCount || needed[static_cast<std::size_t>(slot - inputCount)]) continue;
        needed[static_cast<std::size_t>(slot - inputCount)] = true;
        for (const auto &ref : s.nodes[static_cast<std::size_t>(slot - inputCount)].inputs)
            stack.push_back(net->slotOf_.at(ref.node));
    }

    // The analysis lists graph inputs first, then the nodes in topological order.
    for (const auto &info : a.nodes) {
        const int slot = net->slotOf_.at(info.id);
        if (slot < inputCount || !needed[static_cast<std::size_t>(slot - inputCount)]) continue;
        Step step;
        step.node = slot - inputCount;
        for (const auto &ref : s.nodes[static_cast<std::size_t>(step.node)].inputs)
            step.inputs.push_back(portOf(ref));
        net->steps_.push_back(std::move(step));
    }
    for (const auto &o : s.outputs)
        net->outputs_.push_back(portOf(o.from));
    net->fuseReluIntoMaxPool();
    net->fuseReluIntoProducers();
    net->setRecompute("marked");
    return net;
}

void Network::setRecompute(const std::string &which) {
    if (which != "marked" && which != "all" && which != "none")
        throw EngineError("recompute must be \"marked\", \"all\" or \"none\", not \"" + which + "\".", "recompute");
    std::vector<bool> recomputed(spec_.nodes.size());
    for (std::size_t i = 0; i < spec_.nodes.size(); ++i)
        recomputed[i] = spec::recomputes(which, spec_.nodes[i]);
    buildUnits(recomputed);
}

void Network::setRecomputeNodes(const std::vector<std::string> &ids) {
    const std::set<std::string> chosen(ids.begin(), ids.end());
    std::vector<bool> recomputed(spec_.nodes.size());
    for (std::size_t i = 0; i < spec_.nodes.size(); ++i)
        recomputed[i] = chosen.count(spec_.nodes[i].id) > 0;
    buildUnits(recomputed);
}

int Network::recomputedParts() const { return recomputedParts_; }
int Network::recomputedNodes() const { return recomputedNodes_; }

void Network::buildUnits(const std::vector<bool> &recomputed) {
    units_.clear();
    recomputedParts_ = recomputedNodes_ = 0;
    const auto &registry = spec::Registry::instance();
    std::vector<bool> inside(layers_.size(), false);
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        const spec::LayerType *type = registry.find(spec_.nodes[i].type);
        inside[i] = type && type->recomputesInside;
        layers_[i]->setRecomputeInside(inside[i] && recomputed[i]);
    }
    // What each step's output weighs per sample: the measure parts are balanced by.
    std::vector<double> weight(steps_.size(), 0.0);
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        const spec::NodeInfo *info = analysis_.node(spec_.nodes[static_cast<std::size_t>(steps_[i].node)].id);
        if (steps_[i].passThrough || !info) continue;
        for (const auto &t : info->outputs)
            weight[i] += static_cast<double>(spec::elementsPerSample(t.shape)) * spec::dtypeBytes(t.dtype);
    }
    // The last step reading each step's output (steps_.size() for a spec output).
    const std::size_t inputCount = spec_.inputs.size();
    std::vector<std::size_t> stepOfSlot(inputCount + spec_.nodes.size(), steps_.size());
    for (std::size_t i = 0; i < steps_.size(); ++i)
        stepOfSlot[inputCount + static_cast<std::size_t>(steps_[i].node)] = i;
    std::vector<std::size_t> lastReader(steps_.size(), 0);
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        for (const auto &ref : steps_[i].inputs) {
            const std::size_t producer = stepOfSlot[static_cast<std::size_t>(ref.first)];
            if (producer < steps_.size()) lastReader[producer] = std::max(lastReader[producer], i);
        }
    }
    for (const auto &ref : outputs_) {
        const std::size_t producer = stepOfSlot[static_cast<std::size_t>(ref.first)];
        if (producer < steps_.size()) lastReader[producer] = steps_.size();
    }
    const auto inPart = [&](std::size_t i) {
        const auto node = static_cast<std::size_t>(steps_[i].node);
        return recomputed[node] && !inside[node];
    };
    for (std::size_t i = 0; i < steps_.size();) {
        if (!inPart(i)) {
            Unit unit;
            unit.first = i;
            unit.end = i + 1;
            for (const auto &in : steps_[i].inputs)
                unit.consumed.push_back(in.first);
            if (recomputed[static_cast<std::size_t>(steps_[i].node)]) {
                ++recomputedParts_;
                ++recomputedNodes_;
            }
            units_.push_back(std::move(unit));
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < steps_.size() && inPart(end))
            ++end;
        const std::vector<std::size_t> cuts = spec::cutRecomputedRun(weight, lastReader, i, end);
        recomputedNodes_ += static_cast<int>(end - i);
        for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
            Unit unit;
            unit.first = cuts[c];
            unit.end = cuts[c + 1];
            unit.recomputed = true;
            units_.push_back(std::move(unit));
            ++recomputedParts_;
        }
        i = end;
    }

    // Each part's inputs (values made before it) and outputs (values read after it).
    std::vector<int> unitOfSlot(stepOfSlot.size(), -1);
    for (std::size_t u = 0; u < units_.size(); ++u) {
        for (std::size_t i = units_[u].first; i < units_[u].end; ++i)
            unitOfSlot[inputCount + static_cast<std::size_t>(steps_[i].node)] = static_cast<int>(u);
    }
    const auto addOnce = [](auto &list, const auto &value) {
        if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
    };
    for (std::size_t u = 0; u < units_.size(); ++u) {
        if (!units_[u].recomputed) continue;
        for (std::size_t i = units_[u].first; i < units_[u].end; ++i) {
            for (const auto &ref : steps_[i].inputs) {
                if (unitOfSlot[static_cast<std::size_t>(ref.first)] == static_cast<int>(u)) continue;
                addOnce(units_[u].inputs, ref);
                addOnce(units_[u].consumed, ref.first);
            }
        }
    }
    for (std::size_t u = 0; u < units_.size(); ++u) {
        for (std::size_t i = units_[u].first; i < units_[u].end; ++i) {
            for (const auto &ref : steps_[i].inputs) {
                const int from = unitOfSlot[static_cast<std::size_t>(ref.first)];
                if (from >= 0 && from != static_cast<int>(u) && units_[static_cast<std::size_t>(from)].recomputed)
                    addOnce(units_[static_cast<std::size_t>(from)].outputs, ref);
            }
        }
    }
    for (const auto &ref : outputs_) {
        const int from = unitOfSlot[static_cast<std::size_t>(ref.first)];
        if (from >= 0 && units_[static_cast<std::size_t>(from)].recomputed)
            addOnce(units_[static_cast<std::size_t>(from)].outputs, ref);
    }
}

bool Network::runsReluInside(const std::string &id) const {
    for (const auto &step : steps_)
        if (spec_.nodes[static_cast<std::size_t>(step.node)].id == id) return step.reluInside;
    return false;
}

std::vector<Network::Step *> Network::exclusiveProducers() {
    const int inputCount = static_cast<int>(spec_.inputs.size());
    std::vector<int> consumers(inputCount + spec_.nodes.size(), 0);
    for (const auto &step : steps_) {
        for (const auto &in : step.inputs)
            ++consumers[static_cast<std::size_t>(in.first)];
    }
    for (const auto &o : outputs_)
        ++consumers[static_cast<std::size_t>(o.first)];
    std::vector<Step *> stepOfNode(spec_.nodes.size(), nullptr);
    for (auto &step : steps_)
        stepOfNode[static_cast<std::size_t>(step.node)] = &step;
    std::vector<Step *> producers(steps_.size(), nullptr);
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        if (steps_[i].inputs.size() != 1) continue;
        const int slot = steps_[i].inputs.front().first;
        if (slot < inputCount || consumers[static_cast<std::size_t>(slot)] != 1) continue;
        producers[i] = stepOfNode[static_cast<std::size_t>(slot - inputCount)];
    }
    return producers;
}

void Network::fuseReluIntoProducers() {
    const std::vector<Step *> producers = exclusiveProducers();
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        Step &step = steps_[i];
        Step *producer = producers[i];
        if (spec_.nodes[static_cast<std::size_t>(step.node)].type != "ReLU" || step.passThrough || !producer ||
            step.inputs.front().second != 0)
            continue;
        if (producer->passThrough || producer->reluAfter || producer->reluInside ||
            !layers_[static_cast<std::size_t>(producer->node)]->fusesRelu())
            continue;
        producer->reluInside = true;
        step.passThrough = true;
    }
}

void Network::fuseReluIntoMaxPool() {
    const std::vector<Step *> producers = exclusiveProducers();
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        const std::string &type = spec_.nodes[static_cast<std::size_t>(steps_[i].node)].type;
        Step *relu = producers[i];
        if ((type != "MaxPool1d" && type != "MaxPool2d") || !relu ||
            spec_.nodes[static_cast<std::size_t>(relu->node)].type != "ReLU" || relu->inputs.size() != 1)
            continue;
        relu->passThrough = true;
        steps_[i].reluAfter = true;
    }
}

void Network::useChannelsLast() {
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        if (spec_.nodes[i].type != "Conv2d") continue;
        for (auto &p : layers_[i]->named_parameters()) {
            if (p.key() != "weight" || p.value().dim() != 4) continue;
            // Not contiguous(ChannelsLast): that keeps the NCHW strides of a weight with one input
            // channel (it counts as both), and the convolution then produces NCHW, and the
            // max-pool after it runs its NCHW kernel (10x slower than the channels-last one).
            torch::Tensor channelsLast =
                torch::empty(p.value().sizes(), p.value().options().memory_format(torch::MemoryFormat::ChannelsLast));
            p.value().set_data(channelsLast.copy_(p.value()));
        }
    }
}

std::vector<torch::Tensor> Network::forward(const std::vector<torch::Tensor> &inputs) {
    const std::size_t inputCount = spec_.inputs.size();
    if (inputs.size() != inputCount) {
        throw EngineError("The network takes " + std::to_string(inputCount) + " input tensor(s) but got " +
                          std::to_string(inputs.size()) + ".");
    }
    for (std::size_t i = 0; i < inputCount; ++i) {
        const spec::InputDecl &decl = spec_.inputs[i];
        const torch::Tensor &t = inputs[i];
        bool ok = t.defined() && t.dim() == static_cast<std::int64_t>(decl.shape.size());
        for (std::size_t d = 0; ok && d < decl.shape.size(); ++d)
            ok = decl.shape[d] == spec::kBatch || decl.shape[d] == t.size(static_cast<std::int64_t>(d));
        if (!ok) {
            throw EngineError("Input '" + decl.name + "' expects the shape " + spec::formatShape(decl.shape) +
                                  " but got " + (t.defined() ? shapeText(t) : std::string("no tensor")) + ".",
                              {}, decl.name, "Check that the data matches the spec's input declaration.");
        }
    }

    // Uses left per slot, so intermediate values are released as soon as nothing needs them.
    const std::size_t slotCount = inputCount + spec_.nodes.size();
    std::vector<int> usesLeft(slotCount, 0);
    for (const auto &unit : units_) {
        for (const int slot : unit.consumed)
            ++usesLeft[static_cast<std::size_t>(slot)];
    }
    for (const auto &o : outputs_)
        ++usesLeft[static_cast<std::size_t>(o.first)];

    std::vector<std::vector<torch::Tensor>> values(slotCount);
    for (std::size_t i = 0; i < inputCount; ++i)
        values[i] = {inputs[i]};
    std::vector<torch::Tensor> args;
    for (const auto &unit : units_) {
        if (!unit.recomputed) {
            runStep(steps_[unit.first], values, usesLeft, args);
            continue;
        }
        std::vector<torch::Tensor> partInputs;
        for (const auto &[slot, port] : unit.inputs)
            partInputs.push_back(values[static_cast<std::size_t>(slot)].at(static_cast<std::size_t>(port)));
        for (const int slot : unit.consumed) {
            if (--usesLeft[static_cast<std::size_t>(slot)] == 0) values[static_cast<std::size_t>(slot)].clear();
        }
        std::vector<torch::Tensor> buffers;
        for (std::size_t i = unit.first; i < unit.end; ++i) {
            for (const auto &b : layers_[static_cast<std::size_t>(steps_[i].node)]->buffers())
                buffers.push_back(b);
        }
        const std::size_t index = static_cast<std::size_t>(&unit - units_.data());
        const std::vector<torch::Tensor> partOutputs =
            runRecomputed([this, index](const std::vector<torch::Tensor> &in) { return runPart(units_.at(index), in); },
                          partInputs, std::move(buffers));
        for (std::size_t k = 0; k < unit.outputs.size(); ++k) {
            auto &value = values[static_cast<std::size_t>(unit.outputs[k].first)];
            const auto port = static_cast<std::size_t>(unit.outputs[k].second);
            if (value.size() <= port) value.resize(port + 1);
            value[port] = partOutputs.at(k);
        }
    }
    args.clear();

    std::vector<torch::Tensor> out;
    out.reserve(outputs_.size());
    for (const auto &[slot, port] : outputs_)
        out.push_back(values[static_cast<std::size_t>(slot)].at(static_cast<std::size_t>(port)));
    return out;
}

void Network::runStep(const Step &step, std::vector<std::vector<torch::Tensor>> &values, std::vector<int> &usesLeft,
                      std::vector<torch::Tensor> &args) {
    const spec::Node &node = spec_.nodes[static_cast<std::size_t>(step.node)];
    const std::size_t inputCount = spec_.inputs.size();
    args.clear();
    for (const auto &[slot, port] : step.inputs)
        args.push_back(values[static_cast<std::size_t>(slot)].at(static_cast<std::size_t>(port)));
    for (const auto &in : step.inputs) {
        if (--usesLeft[static_cast<std::size_t>(in.first)] == 0) values[static_cast<std::size_t>(in.first)].clear();
    }
    try {
        auto &out = values[inputCount + static_cast<std::size_t>(step.node)];
        if (step.passThrough) {
            out = {args.front()};
            return;
        }
        Layer &layer = *layers_[static_cast<std::size_t>(step.node)];
        out = step.reluInside ? layer.forwardWithRelu(args) : layer.forward(args);
        if (step.reluAfter) out.front() = torch::relu(out.front());
    } catch (const EngineError &) {
        throw;
    } catch (const std::exception &e) {
        throw EngineError(node.type + " '" + node.id + "' failed: " + torchMessage(e), {}, node.id);
    }
}

std::vector<torch::Tensor> Network::runPart(const Unit &unit, const std::vector<torch::Tensor> &inputs) {
    const std::size_t slotCount = spec_.inputs.size() + spec_.nodes.size();
    std::vector<std::vector<torch::Tensor>> values(slotCount);
    std::vector<int> usesLeft(slotCount, 0);
    for (std::size_t k = 0; k < unit.inputs.size(); ++k) {
        auto &value = values[static_cast<std::size_t>(unit.inputs[k].first)];
        const auto port = static_cast<std::size_t>(unit.inputs[k].second);
        if (value.size() <= port) value.resize(port + 1);
        value[port] = inputs.at(k);
    }
    for (std::size_t i = unit.first; i < unit.end; ++i) {
        for (const auto &in : steps_[i].inputs)
            ++usesLeft[static_cast<std::size_t>(in.first)];
    }
    for (const auto &o : unit.outputs)
        ++usesLeft[static_cast<std::size_t>(o.first)];
    std::vector<torch::Tensor> args;
    for (std::size_t i = unit.first; i < unit.end; ++i)
        runStep(steps_[i], values, usesLeft, args);
    std::vector<torch::Tensor> out;
    out.reserve(unit.outputs.size());
    for (const auto &[slot, port] : unit.outputs)
        out.push_back(values[static_cast<std::size_t>(slot)].at(static_cast<std::size_t>(port)));
    return out;
}

std::vector<torch::Tensor> Network::parameters() const {
    std::vector<torch::Tensor> out;
    for (const auto &layer : layers_) {
        for (auto &p : layer->parameters())
            out.push_back(p);
    }
    return out;
}

std::vector<std::pair<std::string, torch::Tensor>> Network::namedParameters() const {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        for (auto &p : layers_[i]->named_parameters())
            out.emplace_back(spec_.nodes[i].id + "." + p.key(), p.value());
    }
    return out;
}

std::vector<std::pair<std::string, torch::Tensor>> Network::namedBuffers() const {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        for (auto &b : layers_[i]->named_buffers())
            out.emplace_back(spec_.nodes[i].id + "." + b.key(), b.value());
    }
    return out;
}

std::vector<std::pair<std::string, torch::Tensor>> Network::namedState() const {
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        for (auto &p : layers_[i]->named_parameters())
            out.emplace_back(spec_.nodes[i].id + "." + p.key(), p.value());
        for (auto &b : layers_[i]->named_buffers())
            out.emplace_back(spec_.nodes[i].id + "." + b.key(), b.value());
    }
    return out;
}

std::vector<bool> Network::parametersOfNodeType(const std::string &type) const {
    std::vector<bool> out;
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        const std::size_t count = layers_[i]->parameters().size();
        out.insert(out.end(), count, spec_.nodes[i].type == type);
    }
    return out;
}

std::int64_t Network::parameterCount() const {
    std::int64_t n = 0;
    for (const auto &p : parameters())
        n += p.numel();
    return n;
}

void Network::train(bool on) {
    for (auto &layer : layers_)
        layer->train(on);
}

void Network::to(const torch::Device &device) {
    for (auto &layer : layers_)
        layer->to(device);
}

std::shared_ptr<Layer> Network::layer(const std::string &id) const {
    const int i = spec_.nodeIndex(id);
    return i < 0 ? nullptr : layers_[static_cast<std::size_t>(i)];
}

torch::Dtype torchType(spec::DType dtype) {
    switch (dtype) {
    case spec::DType::Float32: return torch::kFloat32;
    case spec::DType::Float64: return torch::kFloat64;
    case spec::DType::Float16: return torch::kFloat16;
    case spec::DType::BFloat16: return torch::kBFloat16;
    case spec::DType::Int64: return torch::kInt64;
    case spec::DType::Int32: return torch::kInt32;
    case spec::DType::Bool: return torch::kBool;
    }
    return torch::kFloat32;
}

} // namespace diamond::engine
