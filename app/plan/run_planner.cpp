#include "app/plan/run_planner.h"

#include "app/cluster/cluster_link.h"
#include "app/cluster/cluster_store.h"
#include "app/data/dataset_store.h"
#include "app/plan/device_profiles.h"
#include "app/plan/pipeline_plan.h"
#include "app/plan/width_probe.h"
#include "app/run/engine_plan.h"
#include "app/run/executor.h"
#include "app/workspace/workspace.h"
#include "remote/scheduler.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <cmath>
#include <limits>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("RunPlanner", text); }

/// The engine's --dry-run plan (steps, measured seconds per step); nullopt with *error. *dataPath: where the run's
/// registered dataset is on this computer (empty without one).
std::optional<QJsonObject> dryRun(Workspace &ws, const QJsonObject &spec, const QJsonObject &config, int threads,
                                  QString *dataPath, QString *error) {
    const auto path = localDataPath(ws, config, error);
    if (!path) return std::nullopt;
    *dataPath = *path;
    EnginePlanJob job;
    std::optional<QJsonObject> plan;
    QEventLoop loop;
    QObject::connect(&job, &EnginePlanJob::planReady, &loop, [&](const QJsonObject &p) {
        plan = p;
        loop.quit();
    });
    QObject::connect(&job, &EnginePlanJob::failed, &loop, [&](const QString &message, const QJsonObject &) {
        *error = message;
        loop.quit();
    });
    job.start(spec, config, threads, *dataPath);
    loop.exec();
    return plan;
}

qint64 physicalMemoryBytes() {
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    const QList<QByteArray> parts = f.readLine().simplified().split(' '); // MemTotal: N kB
    return parts.size() >= 2 ? parts[1].toLongLong() * 1024 : 0;
}

} // namespace

std::optional<QString> localDataPath(Workspace &ws, const QJsonObject &config, QString *error) {
    const QJsonObject data = config.value(QStringLiteral("data")).toObject();
    const QString dataset = data.value(QStringLiteral("dataset")).toString();
    if (dataset.isEmpty()) return QString();
    DatasetStore datasets(ws);
    const auto v = datasets.resolve(dataset);
    if (!v) return *error = datasets.errorString(), std::nullopt;
    const QString copy = datasets.localCopy(*v);
    if (copy.isEmpty()) return *error = datasets.errorString(), std::nullopt;
    return DatasetStore::dataPathIn(copy, *v, data.value(QStringLiteral("path")).toString());
}

std::optional<RunPlan> RunPlanner::plan(const RunPlanRequest &request, QString *error) {
    Workspace &ws = ws_;
    const QJsonObject &spec = request.spec;
    const QJsonObject &config = request.config;
    const QString &target = request.target;
    const int threads = request.threads;
    std::optional<remote::ClusterProfile> cluster;
    if (target != QLatin1String("local")) {
        ClusterStore clusters(ws);
        cluster = clusters.profile(target);
        if (!cluster) return *error = clusters.errorString(), std::nullopt;
    }
    // The device profiles: the partition's or the cluster's when calibrated there, else this computer's
    // (calibrated now if need be).
    DeviceProfileStore profiles(ws);
    TargetProfiles chosen = profiles.forTarget(cluster, error);
    if (!chosen.base) {
        if (calibrating_) calibrating_();
        chosen.base = profiles.calibrateThisComputer(LocalExecutor::defaultEnginePath(), error);
        if (!chosen.base) return std::nullopt;
        chosen.baseName = QLatin1String(DeviceProfileStore::kThisComputer);
    }

    QString dataPath;
    const auto plan = dryRun(ws, spec, config, threads > 0 ? threads : chosen.base->threads, &dataPath, error);
    if (!plan) return std::nullopt;
    RunPlanRequest effective = request;
    if (request.measureWidth && cluster)
        return *error = tr("Measuring the number of processes trains on this computer: it is offered for runs on this "
                           "computer only, not on %1.")
                            .arg(target),
               std::nullopt;
    if (request.measureWidth) {
        WidthProbeRequest probe;
        probe.enginePath = LocalExecutor::defaultEnginePath();
        probe.spec = spec;
        probe.config = config;
        probe.dataPath = dataPath;
        probe.cores = QThread::idealThreadCount();
        probe.threadsPerRank = threads;
        probe.secondsPerStep = plan->value(QStringLiteral("seconds_per_step")).toDouble();
        const auto probes = probeWidths(probe, error);
        if (!probes) return std::nullopt;
        for (const WidthProbe &w : *probes)
            effective.measuredStepSeconds.insert({w.ranks, w.threadsPerRank}, w.stepSeconds);
    }
    auto first = recommendRun(effective, chosen, cluster, *plan, error);
    if (!first || !cluster || !queueWait_) return first;
    // Each partition's best option as a job, its queue wait from the scheduler, and the ranking again.
    const QMap<QString, remote::JobRequest> questions = queueWaitQuestions(*first, *cluster);
    QStringList problems;
    for (auto it = questions.cbegin(); it != questions.cend(); ++it) {
        QString why;
        if (const auto wait = queueWait_(it.value(), &why))
            effective.queueWaitSeconds.insert(it.key(), double(*wait));
        else
            problems << (it.key().isEmpty() ? why : it.key() + QStringLiteral(": ") + why);
    }
    auto ranked = recommendRun(effective, chosen, cluster, *plan, error);
    if (ranked && !problems.isEmpty())
        ranked->document.insert(QStringLiteral("queue_wait_problems"), QJsonArray::fromStringList(problems));
    return ranked;
}

QueueWaitEstimator queueWaitsOver(ClusterLink *link) {
    return [link](const remote::JobRequest &job, QString *why) {
        std::optional<qint64> wait;
        runAndWait(*link, [&] {
            if (remote::Scheduler *scheduler = link->scheduler(why)) wait = scheduler->estimatedWaitSeconds(job, why);
        });
        return wait;
    };
}

QMap<QString, remote::JobRequest> queueWaitQuestions(const RunPlan &first, const remote::ClusterProfile &cluster) {
    QMap<QString, QJsonObject> bestOfPartition;
    for (const QJsonValue &v : first.document.value(QStringLiteral("options")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.contains(QStringLiteral("reason")) || !o.value(QStringLiteral("fits_memory")).toBool(true)) continue;
        const QString partition = o.value(QStringLiteral("partition")).toString();
        const auto known = bestOfPartition.constFind(partition);
        if (known == bestOfPartition.cend() || o.value(QStringLiteral("predicted_finish_s")).toDouble() <
                                                   known->value(QStringLiteral("predicted_finish_s")).toDouble())
            bestOfPartition.insert(partition, o);
    }
    QMap<QString, remote::JobRequest> questions;
    for (auto it = bestOfPartition.cbegin(); it != bestOfPartition.cend(); ++it) {
        remote::JobRequest job;
        job.applyProfile(cluster);
        job.partition = it.key();
        job.tasksPerNode = std::max(1, it->value(QStringLiteral("ranks")).toInt(1));
        job.timeLimitMinutes = int(std::ceil(it->value(QStringLiteral("time_limit_s")).toDouble() / 60.0));
        questions.insert(it.key(), job);
    }
    return questions;
}

int pipelineMicroBatches(qint64 batch, int stages) {
    for (int m = 4 * stages; m > 1; --m)
        if (batch % m == 0) return m;
    return 1;
}

std::optional<RunPlan> recommendRun(const RunPlanRequest &request, const TargetProfiles &profiles,
                                    const std::optional<remote::ClusterProfile> &cluster, const QJsonObject &dryRunPlan,
                                    QString *error) {
    const QJsonObject &spec = request.spec;
    const QJsonObject &config = request.config;
    const QString &target = request.target;
    const int fixedRanks = request.fixedRanks;
    const int threads = request.threads;
    if (!profiles.base) return *error = QStringLiteral("no device profile"), std::nullopt;
    const QJsonObject *plan = &dryRunPlan;
    const qint64 steps = plan->value(QStringLiteral("steps")).toInteger();
    StepInputs in = StepInputs::fromRunConfig(config);
    const bool shardingAsked = in.shardOptimizer;
    const bool shardGradientsAsked = in.shardGradients;
    // The user's "recompute", when the config sets one, is kept; otherwise the planner may recompute every node.
    const bool recomputeAsked = config.contains(QStringLiteral("recompute"));
    const QString recomputeAsConfigured = in.recompute;
    // A config that sets its own "pipeline" is planned as data parallelism would be; the planner proposes stages only
    // where nothing else fits.
    const bool pipelineAsked = config.contains(QStringLiteral("pipeline"));
    in.dataBytes = std::max<qint64>(0, plan->value(QStringLiteral("data_bytes")).toInteger());
    const QJsonObject dryMemory = plan->value(QStringLiteral("measured_memory")).toObject();
    if (dryMemory.value(QStringLiteral("peak_counted_from_baseline")).toBool() &&
        dryMemory.value(QStringLiteral("peak_growth_bytes")).toInteger() > 0) {
        in.dryRunPeakGrowthBytes = dryMemory.value(QStringLiteral("peak_growth_bytes")).toInteger();
        in.dryRunBatch = in.batch;
    }
    const QByteArray specText = QJsonDocument(spec).toJson(QJsonDocument::Compact);

    // Options: every partition (or this computer) with 1, 2, 4 … ranks while the batch divides and, with scaling
    // efficiency T1 / (N * TN) at or above 0.7 (T1: one process with the threads each of the N has; predicted, or
    // measured by the width probes), unless --nproc fixes the count.
    // A cuda run: one process per GPU, so a partition's width is its GPUs per node, and a partition without GPUs
    // (or this computer, whose engine is a CPU build) is shown with the reason. -1: GPUs unknown (not probed).
    const bool gpuRun = config.value(QStringLiteral("device")).toString().startsWith(QLatin1String("cuda"));
    struct Place {
        QString partition;
        int maxMinutes = 0;
        qint64 memoryBytes = 0;
        int cores = 0;
        int gpus = 0;
    };
    QList<Place> places;
    if (!cluster) {
        places.append({QString(), 0, physicalMemoryBytes(), QThread::idealThreadCount(), 0});
    } else {
        const QString &only = request.partition;
        for (const remote::PartitionInfo &p : cluster->partitions)
            if (only.isEmpty() || p.name == only)
                places.append({p.name, p.maxWalltimeMinutes, p.memoryMb * 1024 * 1024, p.cpusPerNode, p.gpusPerNode});
        if (places.isEmpty()) places.append({only, 0, 0, profiles.base->threads, -1});
    }
    QJsonArray options;
    QJsonObject best;
    double bestFinish = 0;
    StepPrediction bestPrediction;
    JobChainPlan bestChain;
    QString bestProfileName;
    const DeviceProfile *bestProfile = &*profiles.base;
    for (const Place &place : places) {
        QString profileName;
        const DeviceProfile *profile = &profiles.of(place.partition, &profileName);
        QList<int> counts{1}; // 1 first: the baseline of the scaling efficiency
        if (fixedRanks > 1) counts.append(fixedRanks);
        const int widest = gpuRun && place.gpus > 0 ? place.gpus : place.cores;
        for (int ranks = 2; fixedRanks == 0 && ranks <= widest; ranks *= 2)
            counts.append(ranks);
        QList<QPair<int, int>> widths; // (ranks, threads per rank)
        for (const int ranks : counts) {
            widths.append({ranks, threads > 0 ? threads : std::max(1, profile->threads / ranks)});
            // On this computer a measured width with fewer threads is an option too: one process of 1 thread is
            // often faster than of 2 for a small network.
            if (threads == 0 && !cluster)
                for (auto m = request.measuredStepSeconds.cbegin(); m != request.measuredStepSeconds.cend(); ++m)
                    if (m.key().first == ranks && !widths.contains(m.key())) widths.append(m.key());
        }
        for (const QPair<int, int> &width : widths) {
            const int ranks = width.first, threadsPerRank = width.second;
            // The step with `ranks` processes, and with one process of as many threads (T1 of the efficiency):
            // measured by the width probes where they ran, else predicted (with what finished runs taught).
            auto stepOf = [&](int r, bool *measuredHere) {
                in.ranks = r;
                in.threadsPerRank = threadsPerRank;
                StepPrediction p = predictStep(specText, in, *profile);
                if (!p.ok) return p;
                applyLearnedCorrection(&p, learnedCorrection(p, r, in.batch, profiles.observations.value(profileName)));
                const auto m = request.measuredStepSeconds.constFind({r, threadsPerRank});
                *measuredHere = !cluster && m != request.measuredStepSeconds.cend() && m.value() > 0;
                if (*measuredHere) {
                    p.stepSeconds = m.value();
                    p.samplesPerSecond = double(in.batch) / p.stepSeconds;
                }
                return p;
            };
            bool measuredStep = false, measuredSingle = false; // measuredSingle: only for stepOf's signature
            std::optional<PipelinePrediction> staged;          // the pipeline this option proposes
            int stagedMicroBatches = 0;
            in.shardOptimizer = shardingAsked;
            in.shardGradients = shardGradientsAsked;
            in.recompute = recomputeAsConfigured;
            StepPrediction p = stepOf(ranks, &measuredStep);
            if (!p.ok) break;
            // The node's memory holds every process; a GPU run's network also lives on its GPU (one per process),
            // whose usable memory a GPU calibration of the partition measured.
            const qint64 gpuUsable = gpuRun ? profile->deviceMemoryUsableBytes : 0;
            auto fitsGpu = [&](const StepPrediction &q) { return gpuUsable <= 0 || q.networkMemoryBytes <= gpuUsable; };
            auto fitsIn = [&](const StepPrediction &q) {
                return (place.memoryBytes <= 0 || q.peakMemoryBytes * ranks <= place.memoryBytes) && fitsGpu(q);
            };
            // The most the activations of `q`'s run may take and still fit: the node's share per process (and the
            // GPU) less everything else `q` holds.
            auto activationRoom = [&](const StepPrediction &q) {
                qint64 room = std::numeric_limits<qint64>::max();
                if (place.memoryBytes > 0) room = place.memoryBytes / ranks - (q.peakMemoryBytes - q.activationBytes);
                if (gpuUsable > 0) room = std::min(room, gpuUsable - (q.networkMemoryBytes - q.activationBytes));
                return std::max<qint64>(0, room);
            };
            // A network that does not fit: the fastest of what fits among splitting the optimizer state over several
            // ranks (ZeRO stage 1), splitting the gradients too (stage 2: no more traffic than data parallelism, but
            // buckets in flight, which a network of a few huge layers may not gain from), recomputing every node's
            // activations in backward, and those combined; none of what the config chose.
            if (!fitsIn(p)) {
                struct Choice {
                    int shard; ///< 0: as configured; 1: the optimizer state; 2: and the gradients
                    bool recompute;
                };
                for (const Choice choice :
                     {Choice{2, false}, Choice{1, false}, Choice{0, true}, Choice{2, true}, Choice{1, true}}) {
                    if ((choice.shard > 0 && (ranks == 1 || shardingAsked)) || (choice.recompute && recomputeAsked))
                        continue;
                    in.shardOptimizer = shardingAsked || choice.shard > 0;
                    in.shardGradients = shardGradientsAsked || choice.shard == 2;
                    in.recompute = choice.recompute ? QStringLiteral("all") : recomputeAsConfigured;
                    bool measuredChoice = false;
                    StepPrediction q = stepOf(ranks, &measuredChoice);
                    if (q.ok && fitsIn(q) && choice.recompute) {
                        // Every node recomputed fits: recompute only what the room left for activations needs
                        // ("auto", the engine's own choice for that budget), which costs less.
                        in.recompute = QStringLiteral("auto");
                        in.activationBudgetBytes = activationRoom(q) / 1048576 * 1048576; // whole MiB, as configured
                        bool measuredAuto = false;
                        const StepPrediction a = stepOf(ranks, &measuredAuto);
                        if (a.ok && fitsIn(a) && a.stepSeconds <= q.stepSeconds) {
                            q = a;
                            measuredChoice = measuredAuto;
                        }
                    }
                    if (q.ok && fitsIn(q) && (!fitsIn(p) || q.stepSeconds < p.stepSeconds)) {
                        p = q;
                        measuredStep = measuredChoice;
                    }
                }
                in.shardOptimizer = p.shardedOptimizer;
                in.shardGradients = p.shardedGradients;
                in.recompute = p.recompute;
                in.activationBudgetBytes = p.activationBudgetBytes;
                // Still too large: pipeline stages, one per process, each holding only its stage's weights, gradients
                // and optimizer state (the cost model's cut; app/plan/pipeline_plan.h).
                if (!fitsIn(p) && ranks >= 2 && !gpuRun && !pipelineAsked && !shardingAsked) {
                    StepInputs alone = in;
                    alone.shardOptimizer = alone.shardGradients = false;
                    alone.recompute = recomputeAsConfigured;
                    alone.threadsPerRank = threadsPerRank;
                    PipelineInputs pipe;
                    pipe.stages = ranks;
                    pipe.microBatches = pipelineMicroBatches(in.batch, ranks);
                    const PipelinePrediction pp = predictPipeline(specText, alone, pipe, *profile);
                    if (pp.ok) {
                        StepPrediction q = p;
                        q.stepSeconds = pp.stepSeconds;
                        q.samplesPerSecond = pp.samplesPerSecond;
                        q.peakMemoryBytes = q.networkMemoryBytes = pp.peakMemoryBytes;
                        q.shardedOptimizer = q.shardedGradients = false;
                        q.recompute = recomputeAsConfigured;
                        q.recomputedNodes = 0;
                        q.recomputeSeconds = 0;
                        q.activationBudgetBytes = 0;
                        q.nodes.clear();
                        q.notes << tr("%1 pipeline stages of %2 micro-batches: the step and memory are the pipeline "
                                      "model's (docs/planning.md)")
                                       .arg(ranks)
                                       .arg(pipe.microBatches);
                        if (fitsIn(q)) {
                            p = q;
                            staged = pp;
                            stagedMicroBatches = pipe.microBatches;
                            measuredStep = false;
                        }
                    }
                }
            }
            const StepPrediction singlePrediction = ranks == 1 ? p : stepOf(1, &measuredSingle);
            const double single = singlePrediction.stepSeconds;
            Q_UNUSED(measuredSingle)
            // When one process does not fit, more are needed whatever their efficiency.
            const bool oneFits = singlePrediction.ok && fitsIn(singlePrediction);
            const double efficiency = single / (double(ranks) * p.stepSeconds);
            const bool fits = fitsIn(p);
            JobChainInputs chainIn;
            chainIn.totalSteps = steps;
            chainIn.stepSeconds = p.stepSeconds;
            chainIn.maxTimeLimitSeconds = place.maxMinutes * 60.0;
            chainIn.checkpointSeconds = profile->checkpointWriteMBs > 0
                                            ? 0.2 + double(p.checkpointBytes) / (profile->checkpointWriteMBs * 1e6)
                                            : 1.0;
            if (!cluster) chainIn.startupSeconds = 1;
            // On this computer the dry run wrote and read back one checkpoint of this very network: its time.
            const double measuredCheckpoint = plan->value(QStringLiteral("checkpoint_seconds")).toDouble(-1);
            if (!cluster && measuredCheckpoint > 0) chainIn.checkpointSeconds = measuredCheckpoint;
            const JobChainPlan chain = planJobChain(chainIn);
            // The queue wait the scheduler estimated for this partition, when it was asked.
            const double queueWait = request.queueWaitSeconds.value(place.partition, -1);
            const double finish = chain.predictedSeconds + std::max(0.0, queueWait);
            QJsonObject option{
                {QStringLiteral("target"), target},
                {QStringLiteral("partition"), place.partition},
                {QStringLiteral("ranks"), ranks},
                {QStringLiteral("threads_per_rank"), threadsPerRank},
                {QStringLiteral("predicted_step_s"), p.stepSeconds},
                {QStringLiteral("step_basis"), measuredStep ? QStringLiteral("measured") : QStringLiteral("predicted")},
                {QStringLiteral("scaling_efficiency"), efficiency},
                {QStringLiteral("predicted_peak_memory_bytes"), p.peakMemoryBytes},
                {QStringLiteral("fits_memory"), fits},
                {QStringLiteral("predicted_network_memory_bytes"), p.networkMemoryBytes},
                {QStringLiteral("predicted_finish_s"), chain.ok ? finish : -1.0},
                {QStringLiteral("time_limit_s"), chain.timeLimitSeconds},
                {QStringLiteral("profile"), profileName}};
            if (queueWait >= 0) option.insert(QStringLiteral("queue_wait_s"), queueWait);
            if (p.shardedOptimizer) option.insert(QStringLiteral("sharding"), p.sharding());
            if (staged)
                option.insert(QStringLiteral("pipeline"),
                              QJsonObject{{QStringLiteral("stages"), ranks},
                                          {QStringLiteral("micro_batches"), stagedMicroBatches},
                                          {QStringLiteral("cut"), QJsonArray::fromStringList(staged->cut)}});
            if (!recomputeAsked && p.recompute == QLatin1String("all"))
                option.insert(QStringLiteral("recompute"), QStringLiteral("all"));
            if (!recomputeAsked && p.recompute == QLatin1String("auto")) {
                option.insert(QStringLiteral("recompute"), QStringLiteral("auto"));
                option.insert(QStringLiteral("activation_budget_mb"), double(p.activationBudgetBytes / 1048576));
            }
            if (gpuRun) {
                option.insert(QStringLiteral("device"), QStringLiteral("cuda"));
                option.insert(QStringLiteral("gpus_per_node"), ranks);
                if (profile->device != QLatin1String("cuda"))
                    option.insert(
                        QStringLiteral("note"),
                        tr("step time predicted from a CPU profile: no GPU of this partition was calibrated"));
            }
            if (gpuRun && !cluster)
                option.insert(QStringLiteral("reason"),
                              tr("this computer's engine runs on the CPU only; a GPU run needs a GPU cluster"));
            else if (gpuRun && place.gpus == 0)
                option.insert(QStringLiteral("reason"), tr("partition %1 has no GPUs").arg(place.partition));
            else if (gpuRun && place.gpus > 0 && ranks > place.gpus)
                option.insert(QStringLiteral("reason"),
                              tr("%1 processes need %1 GPUs, a node has %2").arg(ranks).arg(place.gpus));
            else if (!fitsGpu(p))
                option.insert(QStringLiteral("reason"),
                              (profile->gpuName.isEmpty()
                                   ? tr("needs %1 MiB of GPU memory per process, the GPU has %2 MiB usable")
                                   : tr("needs %1 MiB of GPU memory per process, the GPU (%3) has %2 MiB usable"))
                                  .arg(double(p.networkMemoryBytes) / 1048576.0, 0, 'f', 0)
                                  .arg(double(gpuUsable) / 1048576.0, 0, 'f', 0)
                                  .arg(profile->gpuName));
            else if (!fits)
                option.insert(QStringLiteral("reason"),
                              tr("needs %1 MiB, the node has %2 MiB")
                                  .arg(double(p.peakMemoryBytes * ranks) / 1048576.0, 0, 'f', 0)
                                  .arg(double(place.memoryBytes) / 1048576.0, 0, 'f', 0));
            else if (!chain.ok)
                option.insert(QStringLiteral("reason"), chain.error);
            else if (ranks > 1 && efficiency < 0.7 && fixedRanks == 0 && oneFits)
                option.insert(QStringLiteral("reason"),
                              tr("scaling efficiency %1 is below 0.7").arg(efficiency, 0, 'f', 2));
            if (fixedRanks > 0 && ranks != fixedRanks) continue; // the baseline only
            options.append(option);
            const bool eligible = fits && chain.ok && !option.contains(QStringLiteral("reason"));
            if (eligible && (best.isEmpty() || finish < bestFinish)) {
                best = option;
                bestFinish = finish;
                bestPrediction = p;
                bestChain = chain;
                bestProfileName = profileName;
                bestProfile = profile;
            }
        }
    }
    if (best.isEmpty())
        return *error = tr("No option fits: %1")
                            .arg(QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact))),
               std::nullopt;
    const double measured = plan->value(QStringLiteral("seconds_per_step")).toDouble();
    QJsonObject doc{{QStringLiteral("target"), target},
                    {QStringLiteral("partition"), best.value(QStringLiteral("partition"))},
                    {QStringLiteral("ranks"), best.value(QStringLiteral("ranks"))},
                    {QStringLiteral("threads_per_rank"), best.value(QStringLiteral("threads_per_rank"))},
                    {QStringLiteral("steps"), steps},
                    {QStringLiteral("predicted_step_s"), bestPrediction.stepSeconds},
                    {QStringLiteral("predicted_peak_memory_bytes"), bestPrediction.peakMemoryBytes},
                    {QStringLiteral("measured_step_s_here"), measured},
                    {QStringLiteral("jobs"), bestChain.jobs},
                    {QStringLiteral("time_limit_s"), bestChain.timeLimitSeconds},
                    {QStringLiteral("checkpoint_every_steps"), bestChain.checkpointEverySteps},
                    {QStringLiteral("signal_seconds"), bestChain.signalSeconds},
                    {QStringLiteral("predicted_total_s"), bestChain.predictedSeconds},
                    {QStringLiteral("predicted_finish_s"), bestFinish},
                    {QStringLiteral("confidence"), bestPrediction.confidence},
                    {QStringLiteral("prediction"), bestPrediction.toJson()},
                    {QStringLiteral("chain"), bestChain.toJson()},
                    {QStringLiteral("profile"), QJsonObject{{QStringLiteral("name"), bestProfileName},
                                                            {QStringLiteral("host"), bestProfile->host},
                                                            {QStringLiteral("measured_at"), bestProfile->measuredAt},
                                                            {QStringLiteral("threads"), bestProfile->threads}}},
                    {QStringLiteral("options"), options}};
    if (best.contains(QStringLiteral("queue_wait_s")))
        doc.insert(QStringLiteral("queue_wait_s"), best.value(QStringLiteral("queue_wait_s")));
    for (const char *key :
         {"device", "gpus_per_node", "note", "sharding", "recompute", "activation_budget_mb", "pipeline"})
        if (best.contains(QLatin1String(key))) doc.insert(QLatin1String(key), best.value(QLatin1String(key)));
    if (!request.measuredStepSeconds.isEmpty()) {
        QJsonArray widths;
        for (auto it = request.measuredStepSeconds.cbegin(); it != request.measuredStepSeconds.cend(); ++it)
            widths.append(QJsonObject{{QStringLiteral("ranks"), it.key().first},
                                      {QStringLiteral("threads_per_rank"), it.key().second},
                                      {QStringLiteral("measured_step_s"), it.value()}});
        doc.insert(QStringLiteral("measured_widths"), widths);
    }
    RunPlan result;
    result.document = doc;
    result.prediction = bestPrediction;
    result.chain = bestChain;
    result.measuredStepSecondsHere = measured;
    result.onCluster = cluster.has_value();
    return result;
}

bool observeFinishedRun(Workspace &ws, const ObservedRun &run, QString *error) {
    std::optional<remote::ClusterProfile> cluster;
    QString partition;
    int ranks = std::max(1, run.execution.value(QStringLiteral("nproc")).toInt(1));
    if (run.target != QLatin1String("local")) {
        cluster = ClusterStore(ws).profile(run.target);
        if (!cluster) return *error = tr("The cluster \"%1\" is gone.").arg(run.target), false;
        const QJsonObject job = run.execution.value(QStringLiteral("job")).toObject();
        partition = job.value(QStringLiteral("partition")).toString();
        ranks = std::max(1, job.value(QStringLiteral("nodes")).toInt(1)) *
                std::max(1, job.value(QStringLiteral("tasks_per_node")).toInt(1));
    }
    const TargetProfiles profiles = DeviceProfileStore(ws).forTarget(cluster, error);
    if (!profiles.base) return false; // nothing calibrated: nothing to compare with
    QString profileName;
    const DeviceProfile &profile = profiles.of(partition, &profileName);
    StepInputs in = StepInputs::fromRunConfig(run.config);
    in.ranks = ranks;
    in.threadsPerRank = run.execution.value(QStringLiteral("threads")).toInt(0);
    const StepPrediction p = predictStep(QJsonDocument(run.spec).toJson(QJsonDocument::Compact), in, profile);
    if (!p.ok) return *error = p.error, false;
    StepObservation o;
    o.runId = run.runId;
    o.profileMeasuredAt = profile.measuredAt;
    o.ranks = ranks;
    o.batch = in.batch;
    o.predictedSeconds = p.stepSeconds;
    o.measuredSeconds = run.measuredStepSeconds;
    o.shares = predictionShares(p);
    o.at = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    if (!StepObservation::fromJson(o.toJson())) return *error = tr("The measured step time is not valid."), false;
    return StepObservationStore(ws).append(profileName, o, error);
}

QJsonObject jobForPlan(const QJsonObject &plan, const QJsonObject &overrides) {
    QJsonObject job{{QStringLiteral("tasks_per_node"), plan.value(QStringLiteral("ranks")).toInt(1)},
                    {QStringLiteral("time_limit_minutes"),
                     int(std::ceil(plan.value(QStringLiteral("time_limit_s")).toDouble() / 60.0))},
                    {QStringLiteral("chain_jobs"), plan.value(QStringLiteral("jobs")).toInt(1)}};
    const QString partition = plan.value(QStringLiteral("partition")).toString();
    if (!partition.isEmpty()) job.insert(QStringLiteral("partition"), partition);
    const int signal = int(std::ceil(plan.value(QStringLiteral("signal_seconds")).toDouble()));
    if (signal > 0) job.insert(QStringLiteral("signal_seconds"), signal);
    if (job.value(QStringLiteral("time_limit_minutes")).toInt() <= 0) job.remove(QStringLiteral("time_limit_minutes"));
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        job.insert(it.key(), it.value());
    return job;
}

QJsonObject configForPlan(const QJsonObject &plan, QJsonObject config) {
    const QString sharding = plan.value(QStringLiteral("sharding")).toString();
    if ((sharding == QLatin1String("optimizer") || sharding == QLatin1String("gradients")) &&
        !config.contains(QStringLiteral("sharding")))
        config.insert(QStringLiteral("sharding"), sharding);
    const QString recompute = plan.value(QStringLiteral("recompute")).toString();
    if ((recompute == QLatin1String("all") || recompute == QLatin1String("auto")) &&
        !config.contains(QStringLiteral("recompute"))) {
        config.insert(QStringLiteral("recompute"), recompute);
        if (recompute == QLatin1String("auto"))
            config.insert(QStringLiteral("activation_budget_mb"), plan.value(QStringLiteral("activation_budget_mb")));
    }
    if (plan.value(QStringLiteral("pipeline")).isObject() && !config.contains(QStringLiteral("pipeline")))
        config.insert(QStringLiteral("pipeline"), plan.value(QStringLiteral("pipeline")));
    QJsonObject checkpoint = config.value(QStringLiteral("checkpoint")).toObject();
    const qint64 every = plan.value(QStringLiteral("checkpoint_every_steps")).toInteger();
    if (every > 0 && !checkpoint.contains(QStringLiteral("every_steps")) &&
        !checkpoint.contains(QStringLiteral("every_seconds"))) {
        checkpoint.insert(QStringLiteral("every_steps"), every);
        config.insert(QStringLiteral("checkpoint"), checkpoint);
    }
    return config;
}

} // namespace diamond::app
