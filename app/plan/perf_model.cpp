#include "app/plan/perf_model.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/recompute.h"
#include "diamond/spec/spec.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace diamond::app {

double along(const QList<QPair<double, double>> &points, double x, double floor, bool *extrapolated) {
    bool ignored = false;
    if (!extrapolated) extrapolated = &ignored;
    if (points.isEmpty()) return floor;
    if (points.size() == 1 || x >= points.last().first) {
        if (x > points.last().first * 1.0001) *extrapolated = true;
        return std::max(floor, points.last().second * x / points.last().first);
    }
    qsizetype i = 1;
    while (i < points.size() - 1 && x > points[i].first)
        ++i;
    const auto &[x0, y0] = points[i - 1];
    const auto &[x1, y1] = points[i];
    if (x < x0) *extrapolated = true;
    const double slope = (y1 - y0) / (x1 - x0);
    return std::max(floor, y0 + (x - x0) * slope);
}

namespace {

QString tr(const char *text) { return QCoreApplication::translate("PerformanceModel", text); }

/// Sorts by size and makes the times non-decreasing in size (a smaller probe never costs more than a larger one: a
/// slow outlier at a small size, such as Gloo's first calls, is replaced by the next size's time).
void monotone(QList<QPair<double, double>> *points) {
    std::sort(points->begin(), points->end());
    for (qsizetype i = points->size() - 2; i >= 0; --i)
        (*points)[i].second = std::min((*points)[i].second, (*points)[i + 1].second);
}

QList<QPair<double, double>> curve(const QList<DeviceProfile::Point> &points) {
    QList<QPair<double, double>> out;
    for (const DeviceProfile::Point &p : points)
        out.append({p.flops, p.seconds});
    monotone(&out);
    return out;
}

bool isGemmLayer(const std::string &type) {
    return type == "Linear" || type == "MultiheadAttention" || type == "LSTM" || type == "GRU";
}
/// The elementwise probe kind that times a layer (DeviceProfile::elementwiseKinds); empty: the ReLU probe.
QString elementwiseKind(const std::string &type) {
    static const std::map<std::string, const char *> kinds = {
        {"Tanh", "transcendental"},       {"Sigmoid", "transcendental"},    {"GELU", "transcendental"},
        {"SiLU", "transcendental"},       {"ELU", "transcendental"},        {"Mish", "transcendental"},
        {"Softplus", "transcendental"},   {"Softmax", "transcendental"},    {"LogSoftmax", "transcendental"},
        {"MaxPool1d", "pooling"},         {"MaxPool2d", "pooling"},         {"AvgPool1d", "pooling"},
        {"AvgPool2d", "pooling"},         {"AdaptiveAvgPool2d", "pooling"}, {"BatchNorm1d", "normalization"},
        {"BatchNorm2d", "normalization"}, {"LayerNorm", "normalization"},   {"GroupNorm", "normalization"}};
    const auto it = kinds.find(type);
    return it == kinds.end() ? QString() : QLatin1String(it->second);
}

/// The convolution rate (FLOP/s) at `channels` input channels per group: linear in log(channels) between the two
/// probed counts around it, the nearest probe's rate outside them.
double convRateAt(const QList<QPair<double, double>> &byChannels, double channels) {
    if (channels <= byChannels.first().first) return byChannels.first().second;
    if (channels >= byChannels.last().first) return byChannels.last().second;
    qsizetype i = 1;
    while (channels > byChannels[i].first)
        ++i;
    const auto &[c0, r0] = byChannels[i - 1];
    const auto &[c1, r1] = byChannels[i];
    return r0 + (r1 - r0) * std::log(channels / c0) / std::log(c1 / c0);
}

bool isFreeLayer(const std::string &type) {
    return type == "Input" || type == "Flatten" || type == "Reshape" || type == "Identity";
}

} // namespace

std::optional<DeviceProfile> DeviceProfile::fromJson(const QJsonObject &doc, QString *error) {
    if (doc.value(QStringLiteral("format")).toString() != QLatin1String("diamond.device-profile/1"))
        return *error = tr("Not a device profile: \"format\" must be diamond.device-profile/1."), std::nullopt;
    DeviceProfile p;
    p.source = doc;
    p.device = doc.value(QStringLiteral("device")).toString(QStringLiteral("cpu"));
    p.host = doc.value(QStringLiteral("host")).toString();
    p.cpu = doc.value(QStringLiteral("cpu")).toString();
    p.measuredAt = doc.value(QStringLiteral("measured_at")).toString();
    p.threads = std::max(1, doc.value(QStringLiteral("threads")).toInt(1));
    p.quick = doc.value(QStringLiteral("quick")).toBool();
    p.gpuName = doc.value(QStringLiteral("gpu_name")).toString().left(128);
    if (const double bytes = doc.value(QStringLiteral("device_memory_bytes")).toDouble();
        bytes > 0 && bytes < 1e15 && p.device == QLatin1String("cuda"))
        p.deviceMemoryBytes = qint64(bytes);
    if (const double usable = doc.value(QStringLiteral("device_memory_usable_bytes")).toDouble();
        usable > 0 && usable < 1e15 && p.device == QLatin1String("cuda"))
        p.deviceMemoryUsableBytes = qint64(usable);
    auto points = [&](const char *key, auto flopsOf, QList<Point> *out) {
        for (const QJsonValue &v : doc.value(QLatin1String(key)).toArray()) {
            const QJsonObject o = v.toObject();
            const double s = o.value(QStringLiteral("seconds")).toDouble();
            const double f = flopsOf(o);
            if (s > 0 && f > 0 && std::isfinite(s) && std::isfinite(f)) out->append({f, s});
        }
        std::sort(out->begin(), out->end(), [](const Point &a, const Point &b) { return a.flops < b.flops; });
        return !out->isEmpty();
    };
    auto num = [](const QJsonObject &o, const char *k) { return o.value(QLatin1String(k)).toDouble(); };
    if (!points(
            "linear", [&](const QJsonObject &o) { return 6.0 * num(o, "batch") * num(o, "in") * num(o, "out"); },
            &p.linear))
        return *error = tr("The device profile has no \"linear\" timings."), std::nullopt;
    points(
        "conv2d",
        [&](const QJsonObject &o) {
            return 6.0 * num(o, "batch") * num(o, "in_channels") * num(o, "out_channels") * 9.0 * num(o, "size") *
                   num(o, "size");
        },
        &p.conv2d);
    std::map<double, std::pair<double, double>> byChannels; // in channels -> (flops, rate) of its largest probe
    for (const QJsonValue &v : doc.value(QStringLiteral("conv2d")).toArray()) {
        const QJsonObject o = v.toObject();
        const double channels = num(o, "in_channels"), s = num(o, "seconds");
        const double flops =
            6.0 * num(o, "batch") * channels * num(o, "out_channels") * 9.0 * num(o, "size") * num(o, "size");
        if (!(channels >= 1) || !(s > 0) || !(flops > 0) || !std::isfinite(flops / s)) continue;
        auto &best = byChannels[channels];
        if (flops > best.first) best = {flops, flops / s};
    }
    if (byChannels.size() >= 2)
        for (const auto &[channels, rate] : byChannels)
            p.convRateByChannels.append({channels, rate.second});
    const QJsonObject e = doc.value(QStringLiteral("elementwise")).toObject();
    const double elements = num(e, "elements");
    if (!(elements > 0) || !(num(e, "seconds") > 0))
        return *error = tr("The device profile has no \"elementwise\" timing."), std::nullopt;
    p.elementwiseSecondsPerElement = num(e, "seconds") / elements;
    for (const QJsonValue &v : e.value(QStringLiteral("points")).toArray()) {
        const QJsonObject o = v.toObject();
        if (num(o, "elements") > 0 && num(o, "seconds") > 0)
            p.elementwise.append({num(o, "elements"), num(o, "seconds")});
    }
    if (p.elementwise.isEmpty()) p.elementwise.append({elements, num(e, "seconds")});
    monotone(&p.elementwise);
    const QJsonObject kinds = doc.value(QStringLiteral("elementwise_kinds")).toObject();
    for (auto it = kinds.begin(); it != kinds.end(); ++it) {
        QList<QPair<double, double>> points;
        for (const QJsonValue &v : it.value().toObject().value(QStringLiteral("points")).toArray()) {
            const QJsonObject o = v.toObject();
            if (num(o, "elements") > 0 && num(o, "seconds") > 0 && std::isfinite(num(o, "seconds")))
                points.append({num(o, "elements"), num(o, "seconds")});
        }
        monotone(&points);
        if (!points.isEmpty()) p.elementwiseKinds.insert(it.key(), points);
    }
    p.layerOverheadSeconds = std::max(0.0, num(e, "layer_overhead_s"));
    const QJsonObject opt = doc.value(QStringLiteral("optimizer")).toObject();
    p.sgdNsPerParam = std::max(0.0, num(opt, "sgd_momentum_ns_per_param"));
    p.adamNsPerParam = std::max(0.0, num(opt, "adam_ns_per_param"));
    p.memoryGBs = std::max(0.0, doc.value(QStringLiteral("memory_gb_s")).toDouble());
    p.checkpointWriteMBs = std::max(0.0, doc.value(QStringLiteral("checkpoint_write_mb_s")).toDouble());
    for (const QJsonValue &v : doc.value(QStringLiteral("allreduce")).toArray()) {
        const QJsonObject o = v.toObject();
        if (num(o, "bytes") > 0 && num(o, "seconds") > 0) p.allReduce.append({num(o, "bytes"), num(o, "seconds")});
    }
    monotone(&p.allReduce);
    for (const QJsonValue &v : doc.value(QStringLiteral("send")).toArray()) {
        const QJsonObject o = v.toObject();
        if (num(o, "bytes") > 0 && num(o, "seconds") > 0) p.send.append({num(o, "bytes"), num(o, "seconds")});
    }
    monotone(&p.send);
    auto reference = [&](const char *key) -> std::optional<Reference> {
        const QJsonObject r = doc.value(QLatin1String(key)).toObject();
        if (!r.value(QStringLiteral("spec")).isObject() || !(num(r, "step_s") > 0) || !(num(r, "batch") > 0))
            return std::nullopt;
        Reference ref{QJsonDocument(r.value(QStringLiteral("spec")).toObject()).toJson(QJsonDocument::Compact),
                      qint64(num(r, "batch")), r.value(QStringLiteral("optimizer")).toString(QStringLiteral("adam")),
                      std::max(1, r.value(QStringLiteral("ranks")).toInt(1)), num(r, "step_s")};
        const QJsonObject larger = r.value(QStringLiteral("larger_batch")).toObject();
        if (num(larger, "batch") > double(ref.batch) && num(larger, "step_s") > 0) {
            ref.largerBatch = qint64(num(larger, "batch"));
            ref.largerBatchStepSeconds = num(larger, "step_s");
            ref.largerBatchBaseStepSeconds =
                num(larger, "base_step_s") > 0 ? num(larger, "base_step_s") : ref.stepSeconds;
        }
        if (num(r, "peak_growth_bytes") > 0) {
            ref.peakGrowthBytes = qint64(num(r, "peak_growth_bytes"));
            ref.dataBytes = qint64(std::max(0.0, num(r, "data_bytes")));
        }
        return ref;
    };
    p.reference = reference("reference_step");
    p.referenceRanks = reference("reference_step_ranks");
    p.referenceRanksConv = reference("reference_step_ranks_conv");
    p.referenceConv = reference("reference_step_conv");
    if (p.referenceConv && p.referenceConv->ranks != 1) p.referenceConv.reset();
    return p;
}

StepInputs StepInputs::fromRunConfig(const QJsonObject &config) {
    const QJsonObject optimizer = config.value(QStringLiteral("optimizer")).toObject();
    StepInputs in;
    in.batch = config.value(QStringLiteral("batch_size")).toInteger(32);
    in.optimizer = optimizer.value(QStringLiteral("name")).toString(QStringLiteral("adam"));
    in.momentum = optimizer.value(QStringLiteral("momentum")).toDouble();
    const QString sharding = config.value(QStringLiteral("sharding")).toString();
    in.shardGradients = sharding == QLatin1String("gradients");
    in.shardOptimizer = in.shardGradients || sharding == QLatin1String("optimizer");
    in.recompute = config.value(QStringLiteral("recompute")).toString(QStringLiteral("marked"));
    in.activationBudgetBytes = qint64(config.value(QStringLiteral("activation_budget_mb")).toDouble() * 1048576.0);
    in.dryRunRecompute = in.recompute;
    return in;
}

QString StepPrediction::sharding() const {
    return shardedGradients   ? QStringLiteral("gradients")
           : shardedOptimizer ? QStringLiteral("optimizer")
                              : QStringLiteral("none");
}

QJsonObject StepPrediction::toJson() const {
    QJsonArray perNode;
    for (const NodeCost &n : nodes)
        perNode.append(QJsonObject{{QStringLiteral("id"), n.id},
                                   {QStringLiteral("type"), n.type},
                                   {QStringLiteral("seconds"), n.seconds},
                                   {QStringLiteral("basis"), n.basis}});
    QJsonObject o{{QStringLiteral("predicted_step_s"), stepSeconds},
                  {QStringLiteral("samples_per_s"), samplesPerSecond},
                  {QStringLiteral("compute_s"), computeSeconds},
                  {QStringLiteral("optimizer_s"), optimizerSeconds},
                  {QStringLiteral("allreduce_s"), allReduceSeconds},
                  {QStringLiteral("step_overhead_s"), stepOverheadSeconds},
                  {QStringLiteral("rank_contention"), rankContention},
                  {QStringLiteral("convolution_scale"), convolutionScale},
                  {QStringLiteral("sharded_optimizer"), shardedOptimizer},
                  {QStringLiteral("sharded_gradients"), shardedGradients},
                  {QStringLiteral("recompute"), recompute},
                  {QStringLiteral("recomputed_nodes"), recomputedNodes},
                  {QStringLiteral("recompute_s"), recomputeSeconds},
                  {QStringLiteral("predicted_peak_memory_bytes"), peakMemoryBytes},
                  {QStringLiteral("network_memory_bytes"), networkMemoryBytes},
                  {QStringLiteral("activation_bytes"), activationBytes},
                  {QStringLiteral("memory_overhead_bytes"), memoryOverheadBytes},
                  {QStringLiteral("memory_basis"), memoryBasis},
                  {QStringLiteral("parameters"), parameters},
                  {QStringLiteral("confidence"), confidence},
                  {QStringLiteral("learned_factor"), learnedFactor},
                  {QStringLiteral("learned_from_runs"), learnedRuns},
                  {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
                  {QStringLiteral("nodes"), perNode}};
    if (!ok) o.insert(QStringLiteral("error"), error);
    return o;
}

namespace {
/// The reference network of the profile predicted without its own overheads (time and memory).
StepPrediction predictReference(const DeviceProfile::Reference &ref, const DeviceProfile &profile, qint64 batch = 0,
                                int threads = 0) {
    StepInputs r;
    r.batch = batch > 0 ? batch : ref.batch;
    r.optimizer = ref.optimizer;
    r.ranks = ref.ranks;
    r.threadsPerRank = threads > 0 ? threads : profile.threads;
    return predictStep(ref.spec, r, profile, false);
}
/// The per-step cost outside the layers at `perRankBatch` samples per rank: what the profile's reference step (with
/// as many ranks where measured) took beyond its predicted layers, plus its growth with the samples (the single-rank
/// reference measured at two batches).
double stepOverheadAt(const DeviceProfile &profile, int ranks, double perRankBatch) {
    const auto &ref = ranks > 1 && profile.referenceRanks ? profile.referenceRanks : profile.reference;
    if (!ref) return 0;
    const StepPrediction bare = predictReference(*ref, profile);
    if (!bare.ok) return 0;
    double overhead = std::max(0.0, ref->stepSeconds - bare.stepSeconds);
    const auto &one = profile.reference;
    if (one && one->ranks == 1 && one->largerBatch > one->batch) {
        const StepPrediction bareOne = predictReference(*one, profile, 0, 1);
        const StepPrediction bareLarger = predictReference(*one, profile, one->largerBatch, 1);
        if (bareOne.ok && bareLarger.ok) {
            const double perSample = std::max(0.0, ((one->largerBatchStepSeconds - bareLarger.stepSeconds) -
                                                    (one->largerBatchBaseStepSeconds - bareOne.stepSeconds)) /
                                                       double(one->largerBatch - one->batch));
            overhead = std::max(0.0, overhead + perSample * (perRankBatch - double(ref->batch / ref->ranks)));
        }
    }
    return overhead;
}

bool isConvolutionLike(const NodeCost &c) {
    return c.basis == QLatin1String("conv2d") || c.basis == QLatin1String("pooling");
}

/// What the profile's CNN reference took in training beyond its predicted step, as a factor on its convolutions'
/// and pools' predicted time (0.5 to 3; 1 without the reference).
double convolutionScaleOf(const DeviceProfile &profile) {
    if (!profile.referenceConv) return 1;
    DeviceProfile probesOnly = profile;
    probesOnly.referenceConv.reset();
    StepInputs r;
    r.batch = profile.referenceConv->batch;
    r.optimizer = profile.referenceConv->optimizer;
    r.threadsPerRank = profile.threads;
    const StepPrediction bare = predictStep(profile.referenceConv->spec, r, probesOnly, true);
    if (!bare.ok) return 1;
    double scaled = 0;
    for (const NodeCost &c : bare.nodes)
        if (isConvolutionLike(c)) scaled += c.seconds;
    if (!(scaled > 0)) return 1;
    return std::clamp((profile.referenceConv->stepSeconds - (bare.stepSeconds - scaled)) / scaled, 0.5, 3.0);
}

/// How much longer the layers take beside the other ranks than the probes (which ran alone) measured: what the CNN
/// trained with all ranks took beyond its predicted step (layers, optimizer, all-reduce, per-step cost), as a
/// fraction of its predicted layers' time (0 to 3).
double rankContentionOf(const DeviceProfile &profile) {
    const auto &conv = profile.referenceRanksConv;
    if (!conv || conv->ranks < 2 || !profile.referenceRanks) return 0;
    const StepPrediction bare = predictReference(*conv, profile);
    if (!bare.ok || !(bare.computeSeconds > 0)) return 0;
    const double perStep = stepOverheadAt(profile, conv->ranks, double(conv->batch / conv->ranks));
    return std::clamp((conv->stepSeconds - perStep - bare.stepSeconds) / bare.computeSeconds, 0.0, 3.0);
}

} // namespace

StepPrediction predictStep(const QByteArray &specText, const StepInputs &in, const DeviceProfile &profile,
                           bool withOverhead) {
    StepPrediction out;
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specText.constData(), specText.size()));
    if (!parsed.ok()) return out.error = tr("The spec is not valid."), out;
    const spec::Analysis analysis = spec::analyze(parsed.spec);
    if (!analysis.ok()) return out.error = tr("The spec is not valid."), out;
    const int ranks = std::max(1, in.ranks);
    if (in.batch < ranks || in.batch % ranks != 0)
        return out.error =
                   tr("The batch (%1) must be a multiple of the number of ranks (%2).").arg(in.batch).arg(ranks),
               out;
    const double batch = double(in.batch / ranks);
    const int threads = in.threadsPerRank > 0 ? in.threadsPerRank : std::max(1, profile.threads / ranks);
    // Compute measured with the profile's threads; fewer threads are assumed to scale linearly.
    const double threadScale = double(profile.threads) / double(threads);
    if (threads != profile.threads)
        out.notes << tr("The profile was measured with %1 threads, this run uses %2 per rank: scaled linearly.")
                         .arg(profile.threads)
                         .arg(threads);
    if (profile.quick) out.notes << tr("The profile is a quick calibration (fewer shapes and repeats).");
    const QList<QPair<double, double>> linear = curve(profile.linear);
    const QList<QPair<double, double>> conv = curve(profile.conv2d.isEmpty() ? profile.linear : profile.conv2d);
    bool extrapolated = false;
    // The engine's ReLU folding (engine/train/model/network.cpp): a ReLU alone consuming a Linear layer's output runs
    // inside it, and a ReLU whose only consumer is a max-pool is applied by the pool to its smaller output.
    const spec::Spec &graph = parsed.spec;
    std::map<std::string, int> consumers;
    for (const spec::Node &node : graph.nodes)
        for (const spec::PortRef &ref : node.inputs)
            ++consumers[ref.node];
    for (const spec::OutputDecl &o : graph.outputs)
        ++consumers[o.from.node];
    auto onlyConsumerType = [&](const std::string &id) -> std::string {
        if (consumers[id] != 1) return {};
        for (const spec::Node &node : graph.nodes)
            for (const spec::PortRef &ref : node.inputs)
                if (ref.node == id) return node.type;
        return {};
    };
    auto folded = [&](const spec::Node &relu) {
        if (relu.type != "ReLU" || relu.inputs.size() != 1) return false;
        const int producer = graph.nodeIndex(relu.inputs.front().node);
        if (producer >= 0 && graph.nodes[std::size_t(producer)].type == "Linear" &&
            consumers[relu.inputs.front().node] == 1)
            return true;
        const std::string next = onlyConsumerType(relu.id);
        return next == "MaxPool1d" || next == "MaxPool2d";
    };
    // Tensors that need no gradient: the graph's inputs, and what parameter-free layers make of them only.
    std::set<std::string> constant;
    auto allConstant = [&](const std::vector<spec::PortRef> &inputs) {
        return !inputs.empty() && std::all_of(inputs.begin(), inputs.end(),
                                              [&](const spec::PortRef &ref) { return constant.count(ref.node) > 0; });
    };
    for (const spec::NodeInfo &n : analysis.nodes) {
        if (n.type == "Input") {
            constant.insert(n.id);
            continue;
        }
        NodeCost c;
        c.id = QString::fromStdString(n.id);
        c.type = QString::fromStdString(n.type);
        // Forward, the weights' gradient and the input's gradient; a layer fed only by the graph's inputs (data,
        // which needs no gradient) skips the last: 2/3 of the FLOPs (measured: 784-128 Linear at batch 32 took
        // 0.22 ms in the network against 0.28 ms predicted with the input's gradient).
        const int index = graph.nodeIndex(n.id);
        const bool fedByData = index >= 0 && allConstant(graph.nodes[std::size_t(index)].inputs);
        if (fedByData && n.paramCount == 0) constant.insert(n.id);
        const double trainFlops = (fedByData ? 2.0 : 3.0) * double(n.flops) * batch;
        double elements = 0, inputElements = 0;
        for (const spec::TensorType &t : n.outputs)
            elements += double(std::max<std::int64_t>(0, spec::elementsPerSample(t.shape))) * batch;
        if (index >= 0)
            for (const spec::PortRef &ref : graph.nodes[std::size_t(index)].inputs)
                if (const spec::TensorType *t = analysis.portType(ref))
                    inputElements += double(std::max<std::int64_t>(0, spec::elementsPerSample(t->shape))) * batch;
        if (isFreeLayer(n.type) || (index >= 0 && folded(graph.nodes[std::size_t(index)]))) {
            c.basis = QStringLiteral("free");
        } else if (n.type.rfind("Conv", 0) == 0 && trainFlops > 0) {
            c.basis = QStringLiteral("conv2d");
            double channels = 0;
            if (index >= 0 && !graph.nodes[std::size_t(index)].inputs.empty())
                if (const spec::TensorType *t = analysis.portType(graph.nodes[std::size_t(index)].inputs.front());
                    t && t->shape.size() >= 3 && t->shape[1] > 0)
                    channels = double(t->shape[1]) /
                               double(std::max<std::int64_t>(
                                   1, n.params.is_object() ? n.params.value("groups", std::int64_t{1}) : 1));
            if (!profile.convRateByChannels.isEmpty() && channels >= 1)
                c.seconds = std::max(profile.layerOverheadSeconds,
                                     trainFlops / convRateAt(profile.convRateByChannels, channels));
            else
                c.seconds = along(conv, trainFlops, profile.layerOverheadSeconds, &extrapolated);
        } else if (isGemmLayer(n.type) && trainFlops > 0) {
            c.basis = QStringLiteral("linear");
            c.seconds = along(linear, trainFlops, profile.layerOverheadSeconds, &extrapolated);
        } else {
            c.basis = QStringLiteral("elementwise");
            const QString kind = elementwiseKind(n.type);
            const auto &points =
                profile.elementwiseKinds.contains(kind) ? profile.elementwiseKinds[kind] : profile.elementwise;
            if (points.constData() != profile.elementwise.constData()) c.basis = kind;
            // Below the probed sizes a layer costs at least half the smallest ReLU probe (its dispatch), whatever
            // its kind: a 2 Ki-element Tanh costs about what a ReLU does.
            c.seconds = along(points, std::max(elements, inputElements), 0.5 * profile.elementwise.first().second,
                              &extrapolated);
        }
        c.seconds *= threadScale;
        out.nodes.append(c);
    }
    if (std::any_of(out.nodes.begin(), out.nodes.end(), isConvolutionLike))
        out.convolutionScale = convolutionScaleOf(profile);
    // Recomputed nodes run forward once more in backward: about a third of their forward + backward cost.
    // What the engine recomputes for a mode at a batch per rank ("auto": its choice for the budget).
    auto recomputedFor = [&](const QString &mode, qint64 batchPerRank) {
        if (mode != QLatin1String("auto")) return spec::recomputedNodeIds(graph, mode.toStdString());
        spec::MemoryOptions m;
        m.batch = std::max<qint64>(1, batchPerRank);
        return spec::chooseRecomputed(analysis, m, in.activationBudgetBytes).nodes;
    };
    const std::vector<std::string> recomputed = recomputedFor(in.recompute, in.batch / ranks);
    const std::set<std::string> recomputedSet(recomputed.begin(), recomputed.end());
    out.recompute = in.recompute;
    out.activationBudgetBytes = in.recompute == QLatin1String("auto") ? in.activationBudgetBytes : 0;
    out.recomputedNodes = int(recomputed.size());
    for (NodeCost &c : out.nodes) {
        if (isConvolutionLike(c)) c.seconds *= out.convolutionScale;
        if (recomputedSet.count(c.id.toStdString()) > 0) {
            c.seconds *= 4.0 / 3.0;
            out.recomputeSeconds += c.seconds / 4.0;
        }
        out.computeSeconds += c.seconds;
    }
    if (extrapolated) out.notes << tr("Some layers are larger or smaller than every probed shape: extrapolated.");
    out.parameters = analysis.totalParams;
    const QString opt = in.optimizer.toLower();
    const double nsPerParam = opt == QLatin1String("sgd") && in.momentum <= 0 ? profile.sgdNsPerParam * 0.5
                              : opt == QLatin1String("sgd")                   ? profile.sgdNsPerParam
                                                                              : profile.adamNsPerParam;
    out.optimizerSeconds = double(analysis.totalParams) * nsPerParam * 1e-9 * threadScale;
    if (ranks > 1) {
        const double bytes = double(analysis.totalParams) * 4.0;
        if (profile.allReduce.isEmpty()) {
            out.notes << tr("The profile has no all-reduce timings (calibrate with --nproc 2): assumed 1 GB/s.");
            out.allReduceSeconds = 5e-4 + bytes / 1e9;
        } else {
            // The gradients, and the small control all-reduce of every step (stop requests, loss health).
            out.allReduceSeconds = along(profile.allReduce, bytes, profile.allReduce.first().second, &extrapolated) +
                                   profile.allReduce.first().second;
        }
        if (in.shardOptimizer) {
            out.shardedOptimizer = true;
            out.shardedGradients = in.shardGradients;
        }
        if (in.shardOptimizer && !in.shardGradients) {
            const double allReduce =
                profile.allReduce.isEmpty()
                    ? 5e-4 + bytes / 1e9
                    : along(profile.allReduce, bytes, profile.allReduce.first().second, &extrapolated);
            out.allReduceSeconds += 0.5 * allReduce;
        }
    }
    if (withOverhead) {
        const auto &ref = ranks > 1 && profile.referenceRanks ? profile.referenceRanks : profile.reference;
        out.stepOverheadSeconds = stepOverheadAt(profile, ranks, batch);
        if (ranks > 1) {
            out.rankContention = rankContentionOf(profile);
            out.computeSeconds *= 1.0 + out.rankContention;
        }
        if (ranks > 1 && ref && ref->ranks == 1)
            out.notes << tr("The profile has no reference step with several ranks (calibrate with --nproc 2).");
        // Its memory the same way, from whichever reference step was measured in a fresh process.
        const auto &memoryRef = ref && ref->peakGrowthBytes >= 0                               ? ref
                                : profile.reference && profile.reference->peakGrowthBytes >= 0 ? profile.reference
                                                                                               : profile.referenceRanks;
        if (memoryRef && memoryRef->peakGrowthBytes >= 0) {
            const StepPrediction bare = predictReference(*memoryRef, profile);
            if (bare.ok) {
                out.memoryOverheadBytes =
                    std::max<qint64>(0, memoryRef->peakGrowthBytes - memoryRef->dataBytes - bare.peakMemoryBytes);
                out.memoryBasis = QStringLiteral("reference step");
            }
        }
    }
    out.stepSeconds = out.computeSeconds + out.optimizerSeconds + out.allReduceSeconds + out.stepOverheadSeconds;
    out.samplesPerSecond = out.stepSeconds > 0 ? double(in.batch) / out.stepSeconds : 0;

    spec::MemoryOptions memory;
    memory.batch = in.batch / ranks;
    spec::Optimizer optimizer = spec::Optimizer::Adam;
    if (!spec::parseOptimizer(opt.toStdString(), optimizer)) optimizer = spec::Optimizer::Adam;
    if (optimizer == spec::Optimizer::SGD && in.momentum > 0) optimizer = spec::Optimizer::SGDMomentum;
    memory.optimizer = optimizer;
    memory.recomputed = recomputed;
    spec::MemoryEstimate estimate = spec::estimateMemory(analysis, memory);
    out.checkpointBytes = spec::saturatingSum({estimate.weights, estimate.optimizerState}); // whole, sharded or not
    if (out.shardedOptimizer) estimate.optimizerState = (estimate.optimizerState + ranks - 1) / ranks;
    if (out.shardedGradients) {
        // The share, the bucket being filled and the one being reduced (gradient_reducer.h: a 32nd of the gradients,
        // 256 KiB to 4 MiB; a layer's parameters larger than that are buckets of their own).
        std::int64_t largest = 0;
        for (const spec::NodeMemory &n : estimate.nodes)
            largest = std::max(largest, n.gradients);
        const std::int64_t bucket =
            std::max(std::clamp<std::int64_t>(estimate.gradients / 32, 256 << 10, 4 << 20), largest);
        estimate.gradients = (estimate.gradients + ranks - 1) / ranks + std::min(estimate.gradients, 2 * bucket);
    }
    if (in.dryRunPeakGrowthBytes > 0 && in.dryRunBatch > 0) {
        spec::MemoryOptions dry = memory;
        dry.batch = in.dryRunBatch;
        dry.recomputed = recomputedFor(in.dryRunRecompute, in.dryRunBatch);
        const qint64 explained =
            spec::saturatingSum({spec::estimateMemory(analysis, dry).total(), std::max<qint64>(0, in.dataBytes)});
        // The dry run skips what the training loop adds (the batch prefetcher, checkpoints, events): the larger of
        // the two measurements counts.
        const qint64 dryRunOverhead = std::max<qint64>(0, in.dryRunPeakGrowthBytes - explained);
        if (dryRunOverhead > out.memoryOverheadBytes) {
            out.memoryOverheadBytes = dryRunOverhead;
            out.memoryBasis = QStringLiteral("dry run");
        }
    }
    if (out.memoryBasis.isEmpty()) out.memoryBasis = QStringLiteral("estimate only");
    out.networkMemoryBytes = estimate.total();
    out.activationBytes = estimate.activations;
    out.peakMemoryBytes =
        spec::saturatingSum({estimate.total(), std::max<qint64>(0, in.dataBytes), out.memoryOverheadBytes});
    out.confidence = out.notes.isEmpty() ? QStringLiteral("medium") : QStringLiteral("low"); // of the step time
    if (withOverhead && out.memoryBasis == QLatin1String("estimate only"))
        out.notes << tr("Neither the profile nor a dry run measured the runtime's own memory (calibrate again): the "
                        "predicted memory leaves it out.");
    out.ok = true;
    return out;
}

} // namespace diamond::app
