// diamondctl run plan: what the performance model predicts for a run (step time, memory) on this computer or a
// cluster's partitions, the options it considered (ranks, partitions), and the chain of jobs the long-job planner
// would submit (docs/planning.md). The run's steps come from the engine's dry run on this computer, whose own
// measured step time is printed next to the prediction.
#include "cli.h"

#include "terminal_prompter.h"

#include "app/cluster/cluster_link.h"
#include "app/cluster/cluster_store.h"
#include "app/plan/device_profiles.h"
#include "app/plan/pipeline_plan.h"
#include "app/plan/run_planner.h"
#include "app/run/executor.h"

#include "app/workspace/workspace.h"
#include "diamond/spec/pipeline.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

int parseCount(const CommandOptions &o, const char *option, int fallback, int minimum, bool *ok) {
    const QString text = o.values.value(QLatin1String(option));
    if (text.isEmpty()) return fallback;
    const int n = text.toInt(ok);
    if (!*ok || n < minimum || n > 1024) *ok = false;
    return n;
}

} // namespace

std::optional<app::RunPlan> planRun(app::Workspace &ws, const app::RunPlanRequest &request, bool quiet, Io &io,
                                    QString *error) {
    app::RunPlanner planner(ws);
    if (!quiet)
        planner.setCalibratingNotice([&io] {
            io.err << tr("Calibrating this computer (once, a few seconds)…\n");
            io.err.flush();
        });
    // A cluster's queue: its scheduler estimates each partition's wait (sign-in prompts on the terminal).
    TerminalPrompter prompter(io.err);
    app::ClusterLinks links;
    links.setPrompter(&prompter);
    const auto profile = request.target == QLatin1String("local") || !request.queueWait
                             ? std::nullopt
                             : app::ClusterStore(ws).profile(request.target);
    if (profile) planner.setQueueWaitEstimator(app::queueWaitsOver(links.link(*profile)));
    return planner.plan(request, error);
}

int runPlan(const CommandOptions &o, app::Workspace &ws, Io &io) {
    const QString specPath = o.values.value(QStringLiteral("--spec"));
    const QString configPath = o.values.value(QStringLiteral("--config"));
    if (specPath.isEmpty() || configPath.isEmpty() || !o.positional.isEmpty())
        return io.err << tr("diamondctl: run plan needs --spec FILE and --config FILE\n"), kUsage;
    bool ok = true;
    const int fixedRanks = parseCount(o, "--nproc", 0, 1, &ok);
    const int threads = ok ? parseCount(o, "--threads", 0, 1, &ok) : 0;
    if (!ok) return io.err << tr("diamondctl: --nproc and --threads expect a whole number from 1 to 1024\n"), kUsage;
    app::RunPlanRequest request;
    if (!readJsonObject(specPath, &request.spec, io) || !readJsonObject(configPath, &request.config, io))
        return kFailed;
    request.target = o.values.value(QStringLiteral("--target"), QStringLiteral("local"));
    request.partition = o.values.value(QStringLiteral("--partition"));
    request.fixedRanks = fixedRanks;
    request.threads = threads;
    request.measureWidth = o.flags.contains(QStringLiteral("--measure-width"));
    request.queueWait = !o.flags.contains(QStringLiteral("--no-queue-wait"));
    if (request.measureWidth && !o.json)
        io.err << tr("Measuring the step time with 1, 2, 4 … processes (a few seconds each)…\n"), io.err.flush();
    QString error;
    const auto plan = planRun(ws, request, o.json, io, &error);
    if (!plan) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    const QJsonObject &doc = plan->document;
    const app::StepPrediction &bestPrediction = plan->prediction;
    const app::JobChainPlan &bestChain = plan->chain;
    const double measured = plan->measuredStepSecondsHere;
    if (o.json) {
        printJson(io, doc);
        return kOk;
    }
    const QString where =
        plan->onCluster ? tr("%1, partition %2").arg(request.target, doc.value(QStringLiteral("partition")).toString())
                        : tr("this computer");
    io.out << tr("Plan on %1 with %2 process(es), %3 steps:\n")
                  .arg(where)
                  .arg(doc.value(QStringLiteral("ranks")).toInt())
                  .arg(doc.value(QStringLiteral("steps")).toInteger());
    io.out << tr("  predicted %1 ms per step (%2 samples/s), peak memory %3 MiB per process (confidence: %4)\n")
                  .arg(bestPrediction.stepSeconds * 1e3, 0, 'f', 2)
                  .arg(bestPrediction.samplesPerSecond, 0, 'f', 0)
                  .arg(double(bestPrediction.peakMemoryBytes) / 1048576.0, 0, 'f', 1)
                  .arg(bestPrediction.confidence);
    if (bestPrediction.shardedGradients)
        io.out << tr("  the optimizer state and the gradients are split over the processes (\"sharding\": "
                     "\"gradients\"): each holds 1/%1 of them\n")
                      .arg(doc.value(QStringLiteral("ranks")).toInt());
    else if (bestPrediction.shardedOptimizer)
        io.out << tr("  the optimizer state is split over the processes (\"sharding\": \"optimizer\"): each holds "
                     "1/%1 of it\n")
                      .arg(doc.value(QStringLiteral("ranks")).toInt());
    if (const QJsonObject stages = doc.value(QStringLiteral("pipeline")).toObject(); !stages.isEmpty()) {
        QStringList cut;
        for (const QJsonValue &id : stages.value(QStringLiteral("cut")).toArray())
            cut << id.toString();
        io.out << tr("  the network is cut into %1 pipeline stages, one per process, after %2 (\"pipeline\"; %3 "
                     "micro-batches): each process holds only its stage\n")
                      .arg(stages.value(QStringLiteral("stages")).toInt())
                      .arg(cut.join(QStringLiteral(", ")))
                      .arg(stages.value(QStringLiteral("micro_batches")).toInt());
    }
    if (bestPrediction.recomputedNodes > 0)
        io.out << QCoreApplication::translate("diamondctl",
                                              "  %n layer(s) recompute their activations in backward (\"recompute\": "
                                              "\"%1\"): %2 ms more per step, for less memory\n",
                                              nullptr, bestPrediction.recomputedNodes)
                      .arg(bestPrediction.recompute)
                      .arg(bestPrediction.recomputeSeconds * 1e3, 0, 'f', 2);
    if (measured > 0) io.out << tr("  measured here in a dry run: %1 ms per step\n").arg(measured * 1e3, 0, 'f', 2);
    for (const QJsonValue &w : doc.value(QStringLiteral("measured_widths")).toArray())
        io.out << tr("  measured: %1 process(es) of %2 thread(s): %3 ms per step\n")
                      .arg(w[QStringLiteral("ranks")].toInt())
                      .arg(w[QStringLiteral("threads_per_rank")].toInt())
                      .arg(w[QStringLiteral("measured_step_s")].toDouble() * 1e3, 0, 'f', 2);
    io.out << tr("  %1 job(s) of %2 min; a checkpoint every %3 steps (%4 % overhead); stop signal %5 s before the "
                 "limit; about %6 s in all\n")
                  .arg(bestChain.jobs)
                  .arg(bestChain.timeLimitSeconds / 60.0, 0, 'f', 0)
                  .arg(bestChain.checkpointEverySteps)
                  .arg(100.0 * bestChain.checkpointOverhead, 0, 'f', 1)
                  .arg(bestChain.signalSeconds, 0, 'f', 0)
                  .arg(bestChain.predictedSeconds, 0, 'f', 0);
    if (doc.contains(QStringLiteral("queue_wait_s")))
        io.out << tr("  queue wait (the scheduler's estimate): about %1 s; finished in about %2 s\n")
                      .arg(doc.value(QStringLiteral("queue_wait_s")).toDouble(), 0, 'f', 0)
                      .arg(doc.value(QStringLiteral("predicted_finish_s")).toDouble(), 0, 'f', 0);
    for (const QJsonValue &problem : doc.value(QStringLiteral("queue_wait_problems")).toArray())
        io.out << tr("  queue wait unknown: %1\n").arg(problem.toString());
    for (const QString &note : bestPrediction.notes)
        io.out << tr("  note: %1\n").arg(note);
    return kOk;
}

int runStages(const CommandOptions &o, app::Workspace &ws, Io &io) {
    const QString specPath = o.values.value(QStringLiteral("--spec"));
    const QString configPath = o.values.value(QStringLiteral("--config"));
    if (specPath.isEmpty() || configPath.isEmpty() || !o.positional.isEmpty())
        return io.err << tr("diamondctl: run stages needs --spec FILE and --config FILE\n"), kUsage;
    QJsonObject spec, config;
    if (!readJsonObject(specPath, &spec, io) || !readJsonObject(configPath, &config, io)) return kFailed;
    const QJsonObject section = config.value(QStringLiteral("pipeline")).toObject();
    app::PipelineInputs pipe;
    bool ok = true;
    pipe.stages = parseCount(o, "--stages", std::max(2, section.value(QStringLiteral("stages")).toInt(2)), 2, &ok);
    ok = ok && pipe.stages <= spec::kMaxPipelineStages;
    if (ok)
        pipe.microBatches =
            parseCount(o, "--micro-batches", section.value(QStringLiteral("micro_batches")).toInt(4), 1, &ok);
    const int threads = ok ? parseCount(o, "--threads", 0, 1, &ok) : 0;
    if (!ok)
        return io.err << tr("diamondctl: --stages expects a whole number from 2 to 64, --micro-batches and --threads "
                            "one up to 1024\n"),
               kUsage;
    if (o.values.contains(QStringLiteral("--cut")))
        pipe.cut = o.values.value(QStringLiteral("--cut")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    else
        for (const QJsonValue &id : section.value(QStringLiteral("cut")).toArray())
            pipe.cut << id.toString();
    if (!pipe.cut.isEmpty() && pipe.cut.size() != pipe.stages - 1)
        return io.err << tr("diamondctl: --cut names %1 node(s); %2 stages need %3\n")
                             .arg(pipe.cut.size())
                             .arg(pipe.stages)
                             .arg(pipe.stages - 1),
               kUsage;
    // This computer's calibration (made now, once, when there is none).
    app::DeviceProfileStore profiles(ws);
    QString error;
    std::optional<app::DeviceProfile> profile =
        profiles.load(QLatin1String(app::DeviceProfileStore::kThisComputer), &error);
    if (!profile) {
        if (!o.json) io.err << tr("Calibrating this computer (once, a few seconds)…\n"), io.err.flush();
        profile = profiles.calibrateThisComputer(app::LocalExecutor::defaultEnginePath(), &error);
        if (!profile) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    }
    app::StepInputs in = app::StepInputs::fromRunConfig(config);
    in.threadsPerRank = threads;
    const app::PipelinePrediction prediction =
        app::predictPipeline(QJsonDocument(spec).toJson(QJsonDocument::Compact), in, pipe, *profile);
    if (!prediction.ok) return io.err << tr("diamondctl: %1\n").arg(prediction.error), kFailed;
    const QString output = o.values.value(QStringLiteral("--output"));
    if (!output.isEmpty()) {
        // The run config with this pipeline, cut included: `run start --nproc <stages>` trains it.
        config[QStringLiteral("pipeline")] =
            QJsonObject{{QStringLiteral("stages"), pipe.stages},
                        {QStringLiteral("micro_batches"), pipe.microBatches},
                        {QStringLiteral("cut"), QJsonArray::fromStringList(prediction.cut)}};
        QSaveFile file(output);
        if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(config).toJson()) < 0 || !file.commit())
            return io.err << tr("diamondctl: cannot write %1: %2\n").arg(output, file.errorString()), kFailed;
    }
    if (o.json) {
        QJsonObject doc = prediction.toJson();
        doc.insert(QStringLiteral("stage_count"), pipe.stages);
        doc.insert(QStringLiteral("micro_batches"), pipe.microBatches);
        doc.insert(QStringLiteral("batch"), in.batch);
        if (!output.isEmpty()) doc.insert(QStringLiteral("output"), output);
        printJson(io, doc);
        return kOk;
    }
    io.out << tr("%1 stages, %2 micro-batches of %3 samples; cut after %4 (%5)\n")
                  .arg(pipe.stages)
                  .arg(pipe.microBatches)
                  .arg(in.batch / pipe.microBatches)
                  .arg(prediction.cut.join(QStringLiteral(", ")),
                       prediction.cutChosen ? tr("chosen by the performance model") : tr("as given"));
    for (int s = 0; s < prediction.stages.size(); ++s) {
        const app::StagePrediction &stage = prediction.stages[s];
        io.out << tr("  stage %1: %2 … %3 (%4 layers, %5 parameters): %6 ms per micro-batch (%7 ms of it transfers), "
                     "peak memory %8 MiB\n")
                      .arg(s + 1)
                      .arg(stage.nodes.value(0), stage.nodes.value(stage.nodes.size() - 1))
                      .arg(stage.nodes.size())
                      .arg(stage.parameters)
                      .arg((stage.computeSeconds + stage.transferSeconds) * 1e3, 0, 'f', 2)
                      .arg(stage.transferSeconds * 1e3, 0, 'f', 2)
                      .arg(double(stage.peakMemoryBytes) / 1048576.0, 0, 'f', 1);
    }
    io.out << tr("  predicted %1 ms per step (%2 samples/s); the stages wait %3 % of it\n")
                  .arg(prediction.stepSeconds * 1e3, 0, 'f', 2)
                  .arg(prediction.samplesPerSecond, 0, 'f', 0)
                  .arg(100.0 * prediction.bubbleFraction, 0, 'f', 0);
    if (!output.isEmpty())
        io.out << tr("Run config written to %1: train it with run start --nproc %2\n").arg(output).arg(pipe.stages);
    return kOk;
}

} // namespace diamond::cli
