#include "app/plan/pipeline_plan.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/pipeline.h"
#include "diamond/spec/spec.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>

#include <algorithm>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("PipelinePlanner", text); }

QStringList toStringList(const std::vector<std::string> &ids) {
    QStringList out;
    for (const std::string &id : ids)
        out << QString::fromStdString(id);
    return out;
}

} // namespace

double transferSeconds(const DeviceProfile &profile, double bytes) {
    if (bytes <= 0) return 0;
    const auto &points = profile.send;
    // Without timings (a profile calibrated with one process, or an older one): Gloo's send and receive between two
    // processes on one computer, measured on loopback at 0.05 ms for 16 KiB, 0.08 ms for 128 KiB, 0.25 ms for 512 KiB
    // and 1.2 ms for 4 MiB one way. (The all-reduce timings are no guide: 1.1 ms at 1 KiB on the same computer.)
    if (points.isEmpty()) return 5e-5 + bytes / 3.5e9;
    return along(points, bytes, points.first().second);
}

QJsonObject PipelinePrediction::toJson() const {
    QJsonArray perStage;
    for (const StagePrediction &s : stages)
        perStage.append(QJsonObject{{QStringLiteral("nodes"), QJsonArray::fromStringList(s.nodes)},
                                    {QStringLiteral("compute_s_per_micro_batch"), s.computeSeconds},
                                    {QStringLiteral("transfer_s_per_micro_batch"), s.transferSeconds},
                                    {QStringLiteral("optimizer_s"), s.optimizerSeconds},
                                    {QStringLiteral("busy_s_per_step"), s.stepSeconds},
                                    {QStringLiteral("parameters"), s.parameters},
                                    {QStringLiteral("predicted_peak_memory_bytes"), s.peakMemoryBytes},
                                    {QStringLiteral("activation_bytes"), s.activationBytes}});
    QJsonObject o{{QStringLiteral("cut"), QJsonArray::fromStringList(cut)},
                  {QStringLiteral("cut_chosen"), cutChosen},
                  {QStringLiteral("stages"), perStage},
                  {QStringLiteral("predicted_step_s"), stepSeconds},
                  {QStringLiteral("samples_per_s"), samplesPerSecond},
                  {QStringLiteral("bubble_fraction"), bubbleFraction},
                  {QStringLiteral("predicted_peak_memory_bytes"), peakMemoryBytes}};
    if (!ok) o.insert(QStringLiteral("error"), error);
    return o;
}

PipelinePrediction predictPipeline(const QByteArray &specText, const StepInputs &in, const PipelineInputs &pipe,
                                   const DeviceProfile &profile) {
    PipelinePrediction out;
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specText.constData(), specText.size()));
    if (!parsed.ok()) return out.error = tr("The spec is not valid."), out;
    const spec::Analysis analysis = spec::analyze(parsed.spec);
    if (!analysis.ok()) return out.error = tr("The spec is not valid."), out;
    if (pipe.stages < 2 || pipe.microBatches < 1 || in.batch % pipe.microBatches != 0)
        return out.error =
                   tr("A pipeline needs at least 2 stages and micro-batches that divide the batch (%1).").arg(in.batch),
               out;
    const qint64 micro = in.batch / pipe.microBatches;
    // Every node at the micro-batch size, timed as one of `stages` processes working side by side.
    StepInputs perNode = in;
    perNode.ranks = pipe.stages;
    perNode.batch = micro * pipe.stages;
    perNode.shardOptimizer = perNode.shardGradients = false;
    const StepPrediction whole = predictStep(specText, perNode, profile);
    if (!whole.ok) return out.error = whole.error, out;
    // The per-pass cost beyond the layers, from the profile's single-process reference step (its several-rank one
    // includes the gradients' all-reduce, which stages do not run).
    StepInputs onePass = perNode;
    onePass.ranks = 1;
    onePass.batch = micro;
    const StepPrediction single = predictStep(specText, onePass, profile);
    const double passOverhead = single.ok ? single.stepOverheadSeconds : whole.stepOverheadSeconds;
    QHash<QString, double> nodeSeconds;
    for (const NodeCost &c : whole.nodes)
        nodeSeconds.insert(c.id, c.seconds * (1.0 + whole.rankContention));
    const std::vector<std::string> order = spec::runOrder(analysis);
    const std::vector<std::int64_t> crossing = spec::crossingBytesPerSample(parsed.spec, analysis);
    std::vector<double> cost, boundary;
    for (std::size_t p = 0; p < order.size(); ++p) {
        cost.push_back(nodeSeconds.value(QString::fromStdString(order[p])));
        // Forward the values, backward their gradients.
        boundary.push_back(2.0 * transferSeconds(profile, double(crossing[p]) * double(micro)));
    }
    std::vector<std::string> cut;
    for (const QString &id : pipe.cut)
        cut.push_back(id.toStdString());
    if (cut.empty()) {
        cut = spec::balancedCut(analysis, pipe.stages, cost, boundary);
        out.cutChosen = true;
        if (cut.empty()) return out.error = tr("The network has too few layers for %1 stages.").arg(pipe.stages), out;
    }
    const spec::StageSplit split = spec::splitIntoStages(parsed.spec, analysis, cut);
    if (!split.ok()) return out.error = QString::fromStdString(split.error), out;
    out.cut = toStringList(cut);

    std::map<std::string, std::size_t> position;
    for (std::size_t p = 0; p < order.size(); ++p)
        position[order[p]] = p;
    double busiest = 0, sum = 0, slowestUpdate = 0;
    for (std::size_t s = 0; s < split.stages.size(); ++s) {
        const spec::Stage &stage = split.stages[s];
        StagePrediction sp;
        sp.nodes = toStringList(stage.nodes);
        for (const std::string &id : stage.nodes)
            sp.computeSeconds += nodeSeconds.value(QString::fromStdString(id));
        // What a pass costs beyond its layers (the profile's reference step: the forward and backward calls, the loss).
        sp.computeSeconds += passOverhead;
        if (s > 0) sp.transferSeconds += boundary[position.at(split.stages[s - 1].nodes.back())];
        if (s + 1 < split.stages.size()) sp.transferSeconds += boundary[position.at(stage.nodes.back())];
        // Its own network: the optimizer's share and the memory at the whole batch.
        StepInputs alone = in;
        alone.ranks = 1;
        alone.shardOptimizer = alone.shardGradients = false;
        alone.threadsPerRank = in.threadsPerRank > 0 ? in.threadsPerRank : std::max(1, profile.threads / pipe.stages);
        alone.dryRunPeakGrowthBytes = -1;
        const QByteArray stageText = QByteArray::fromStdString(spec::toJson(stage.spec).dump());
        const StepPrediction own = predictStep(stageText, alone, profile);
        if (!own.ok) return out.error = tr("Stage %1: %2").arg(s + 1).arg(own.error), out;
        sp.optimizerSeconds = own.optimizerSeconds;
        sp.parameters = stage.parameters;
        sp.peakMemoryBytes = own.peakMemoryBytes;
        sp.activationBytes = own.activationBytes;
        const double perMicro = sp.computeSeconds + sp.transferSeconds;
        sp.stepSeconds = perMicro * pipe.microBatches + sp.optimizerSeconds;
        busiest = std::max(busiest, perMicro);
        sum += perMicro;
        slowestUpdate = std::max(slowestUpdate, sp.optimizerSeconds);
        out.peakMemoryBytes = std::max(out.peakMemoryBytes, sp.peakMemoryBytes);
        out.stages.append(sp);
    }
    out.stepSeconds = sum + double(pipe.microBatches - 1) * busiest + slowestUpdate;
    out.samplesPerSecond = out.stepSeconds > 0 ? double(in.batch) / out.stepSeconds : 0;
    double busy = 0;
    for (const StagePrediction &s : out.stages)
        busy += s.stepSeconds;
    out.bubbleFraction = out.stepSeconds > 0 ? std::max(0.0, 1.0 - busy / (double(pipe.stages) * out.stepSeconds)) : 0;
    out.ok = true;
    return out;
}

} // namespace diamond::app
