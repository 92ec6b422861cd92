// diamondctl run plan: what the performance model predicts for a run (step time, memory) on this computer or a
// cluster's partitions, the options it considered (ranks, partitions), and the chain of jobs the long-job planner
// would submit (docs/planning.md). The run's steps come from the engine's dry run on this computer, whose own
// measured step time is printed next to the prediction.
#include "cli.h"

#include "app/cluster/cluster_store.h"
#include "app/data/dataset_store.h"
#include "app/plan/device_profiles.h"
#include "app/plan/job_chain.h"
#include "app/run/engine_plan.h"
#include "app/run/executor.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include <cmath>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

/// The engine's --dry-run plan (steps, measured seconds per step); nullopt with *error.
std::optional<QJsonObject> dryRun(app::Workspace &ws, const QJsonObject &spec, const QJsonObject &config, int threads,
                                  QString *error) {
    QString dataPath;
    const QString dataset = config.value(QStringLiteral("data")).toObject().value(QStringLiteral("dataset")).toString();
    if (!dataset.isEmpty()) {
        app::DatasetStore datasets(ws);
        const auto v = datasets.resolve(dataset);
        if (!v) return *error = datasets.errorString(), std::nullopt;
        const QString copy = datasets.localCopy(*v);
        if (copy.isEmpty()) return *error = datasets.errorString(), std::nullopt;
        dataPath = app::DatasetStore::dataPathIn(
            copy, *v, config.value(QStringLiteral("data")).toObject().value(QStringLiteral("path")).toString());
    }
    app::EnginePlanJob job;
    std::optional<QJsonObject> plan;
    QEventLoop loop;
    QObject::connect(&job, &app::EnginePlanJob::planReady, &loop, [&](const QJsonObject &p) {
        plan = p;
        loop.quit();
    });
    QObject::connect(&job, &app::EnginePlanJob::failed, &loop, [&](const QString &message, const QJsonObject &) {
        *error = message;
        loop.quit();
    });
    job.start(spec, config, threads, dataPath);
    loop.exec();
    return plan;
}

qint64 physicalMemoryBytes() {
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    const QList<QByteArray> parts = f.readLine().simplified().split(' '); // MemTotal: N kB
    return parts.size() >= 2 ? parts[1].toLongLong() * 1024 : 0;
}

int parseCount(const CommandOptions &o, const char *option, int fallback, int minimum, bool *ok) {
    const QString text = o.values.value(QLatin1String(option));
    if (text.isEmpty()) return fallback;
    const int n = text.toInt(ok);
    if (!*ok || n < minimum || n > 1024) *ok = false;
    return n;
}

} // namespace

int runPlan(const CommandOptions &o, app::Workspace &ws, Io &io) {
    const QString specPath = o.values.value(QStringLiteral("--spec"));
    const QString configPath = o.values.value(QStringLiteral("--config"));
    if (specPath.isEmpty() || configPath.isEmpty() || !o.positional.isEmpty())
        return io.err << tr("diamondctl: run plan needs --spec FILE and --config FILE\n"), kUsage;
    bool ok = true;
    const int fixedRanks = parseCount(o, "--nproc", 0, 1, &ok);
    const int threads = ok ? parseCount(o, "--threads", 0, 1, &ok) : 0;
    if (!ok) return io.err << tr("diamondctl: --nproc and --threads expect a whole number from 1 to 1024\n"), kUsage;
    QJsonObject spec, config;
    if (!readJsonObject(specPath, &spec, io) || !readJsonObject(configPath, &config, io)) return kFailed;
    const QString target = o.values.value(QStringLiteral("--target"), QStringLiteral("local"));
    std::optional<remote::ClusterProfile> cluster;
    if (target != QLatin1String("local")) {
        app::ClusterStore clusters(ws);
        cluster = clusters.profile(target);
        if (!cluster) return io.err << tr("diamondctl: %1\n").arg(clusters.errorString()), kFailed;
    }

    // The device profile: the cluster's when calibrated there, else this computer's (calibrated now if need be).
    app::DeviceProfileStore profiles(ws);
    QString error;
    std::optional<app::DeviceProfile> profile;
    QString profileName = QLatin1String(app::DeviceProfileStore::kThisComputer);
    if (cluster) {
        profile = profiles.load(target, &error);
        if (profile) profileName = target;
    }
    if (!profile) profile = profiles.load(profileName, &error);
    if (!profile) {
        if (!o.json) io.err << tr("Calibrating this computer (once, a few seconds)…\n"), io.err.flush();
        profile = profiles.calibrateThisComputer(app::LocalExecutor::defaultEnginePath(), &error);
        if (!profile) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    }

    const auto plan = dryRun(ws, spec, config, threads > 0 ? threads : profile->threads, &error);
    if (!plan) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    const qint64 steps = plan->value(QStringLiteral("steps")).toInteger();
    const QJsonObject optimizerConfig = config.value(QStringLiteral("optimizer")).toObject();
    app::StepInputs in;
    in.batch = config.value(QStringLiteral("batch_size")).toInteger(32);
    in.optimizer = optimizerConfig.value(QStringLiteral("name")).toString(QStringLiteral("adam"));
    in.momentum = optimizerConfig.value(QStringLiteral("momentum")).toDouble();
    in.threadsPerRank = threads;
    const QByteArray specText = QJsonDocument(spec).toJson(QJsonDocument::Compact);

    // Options: every partition (or this computer) with 1, 2, 4 … ranks while the batch divides and, with predicted
    // scaling efficiency T1 / (N * TN) at or above 0.7, unless --nproc fixes the count.
    struct Place {
        QString partition;
        int maxMinutes = 0;
        qint64 memoryBytes = 0;
        int cores = 0;
    };
    QList<Place> places;
    if (!cluster) {
        places.append({QString(), 0, physicalMemoryBytes(), QThread::idealThreadCount()});
    } else {
        const QString only = o.values.value(QStringLiteral("--partition"));
        for (const remote::PartitionInfo &p : cluster->partitions)
            if (only.isEmpty() || p.name == only)
                places.append({p.name, p.maxWalltimeMinutes, p.memoryMb * 1024 * 1024, p.cpusPerNode});
        if (places.isEmpty()) places.append({only, 0, 0, profile->threads});
    }
    QJsonArray options;
    QJsonObject best;
    double bestFinish = 0;
    app::StepPrediction bestPrediction;
    app::JobChainPlan bestChain;
    for (const Place &place : places) {
        QList<int> counts{1}; // 1 first: the baseline of the scaling efficiency
        if (fixedRanks > 1) counts.append(fixedRanks);
        for (int ranks = 2; fixedRanks == 0 && ranks <= place.cores; ranks *= 2)
            counts.append(ranks);
        double single = 0;
        for (const int ranks : counts) {
            in.ranks = ranks;
            const app::StepPrediction p = app::predictStep(specText, in, *profile);
            if (!p.ok) break;
            if (ranks == 1) single = p.stepSeconds;
            const double efficiency = single / (double(ranks) * p.stepSeconds);
            const bool fits = place.memoryBytes <= 0 || p.peakMemoryBytes * ranks <= place.memoryBytes;
            app::JobChainInputs chainIn;
            chainIn.totalSteps = steps;
            chainIn.stepSeconds = p.stepSeconds;
            chainIn.maxTimeLimitSeconds = place.maxMinutes * 60.0;
            chainIn.checkpointSeconds = profile->checkpointWriteMBs > 0
                                            ? 0.2 + double(p.checkpointBytes) / (profile->checkpointWriteMBs * 1e6)
                                            : 1.0;
            if (!cluster) chainIn.startupSeconds = 1;
            const app::JobChainPlan chain = app::planJobChain(chainIn);
            QJsonObject option{{QStringLiteral("target"), target},
                               {QStringLiteral("partition"), place.partition},
                               {QStringLiteral("ranks"), ranks},
                               {QStringLiteral("predicted_step_s"), p.stepSeconds},
                               {QStringLiteral("scaling_efficiency"), efficiency},
                               {QStringLiteral("predicted_peak_memory_bytes"), p.peakMemoryBytes},
                               {QStringLiteral("fits_memory"), fits},
                               {QStringLiteral("predicted_finish_s"), chain.ok ? chain.predictedSeconds : -1.0}};
            if (!fits)
                option.insert(QStringLiteral("reason"),
                              tr("needs %1 MiB, the node has %2 MiB")
                                  .arg(double(p.peakMemoryBytes * ranks) / 1048576.0, 0, 'f', 0)
                                  .arg(double(place.memoryBytes) / 1048576.0, 0, 'f', 0));
            else if (!chain.ok)
                option.insert(QStringLiteral("reason"), chain.error);
            else if (ranks > 1 && efficiency < 0.7 && fixedRanks == 0)
                option.insert(QStringLiteral("reason"),
                              tr("scaling efficiency %1 is below 0.7").arg(efficiency, 0, 'f', 2));
            if (fixedRanks > 0 && ranks != fixedRanks) continue; // the baseline only
            options.append(option);
            const bool eligible = fits && chain.ok && !option.contains(QStringLiteral("reason"));
            if (eligible && (best.isEmpty() || chain.predictedSeconds < bestFinish)) {
                best = option;
                bestFinish = chain.predictedSeconds;
                bestPrediction = p;
                bestChain = chain;
            }
        }
    }
    if (best.isEmpty())
        return io.err << tr("diamondctl: no option fits: %1\n")
                             .arg(QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact))),
               kFailed;
    const double measured = plan->value(QStringLiteral("seconds_per_step")).toDouble();
    QJsonObject doc{{QStringLiteral("target"), target},
                    {QStringLiteral("partition"), best.value(QStringLiteral("partition"))},
                    {QStringLiteral("ranks"), best.value(QStringLiteral("ranks"))},
                    {QStringLiteral("steps"), steps},
                    {QStringLiteral("predicted_step_s"), bestPrediction.stepSeconds},
                    {QStringLiteral("predicted_peak_memory_bytes"), bestPrediction.peakMemoryBytes},
                    {QStringLiteral("measured_step_s_here"), measured},
                    {QStringLiteral("jobs"), bestChain.jobs},
                    {QStringLiteral("time_limit_s"), bestChain.timeLimitSeconds},
                    {QStringLiteral("checkpoint_every_steps"), bestChain.checkpointEverySteps},
                    {QStringLiteral("signal_seconds"), bestChain.signalSeconds},
                    {QStringLiteral("predicted_total_s"), bestChain.predictedSeconds},
                    {QStringLiteral("confidence"), bestPrediction.confidence},
                    {QStringLiteral("prediction"), bestPrediction.toJson()},
                    {QStringLiteral("chain"), bestChain.toJson()},
                    {QStringLiteral("profile"), QJsonObject{{QStringLiteral("name"), profileName},
                                                            {QStringLiteral("host"), profile->host},
                                                            {QStringLiteral("measured_at"), profile->measuredAt},
                                                            {QStringLiteral("threads"), profile->threads}}},
                    {QStringLiteral("options"), options}};
    if (o.json) {
        printJson(io, doc);
        return kOk;
    }
    const QString where = cluster
                              ? tr("%1, partition %2").arg(target, best.value(QStringLiteral("partition")).toString())
                              : tr("this computer");
    io.out << tr("Plan on %1 with %2 process(es), %3 steps:\n")
                  .arg(where)
                  .arg(best.value(QStringLiteral("ranks")).toInt())
                  .arg(steps);
    io.out << tr("  predicted %1 ms per step (%2 samples/s), peak memory %3 MiB per process (confidence: %4)\n")
                  .arg(bestPrediction.stepSeconds * 1e3, 0, 'f', 2)
                  .arg(bestPrediction.samplesPerSecond, 0, 'f', 0)
                  .arg(double(bestPrediction.peakMemoryBytes) / 1048576.0, 0, 'f', 1)
                  .arg(bestPrediction.confidence);
    if (measured > 0) io.out << tr("  measured here in a dry run: %1 ms per step\n").arg(measured * 1e3, 0, 'f', 2);
    io.out << tr("  %1 job(s) of %2 min; a checkpoint every %3 steps (%4 % overhead); stop signal %5 s before the "
                 "limit; about %6 s in all\n")
                  .arg(bestChain.jobs)
                  .arg(bestChain.timeLimitSeconds / 60.0, 0, 'f', 0)
                  .arg(bestChain.checkpointEverySteps)
                  .arg(100.0 * bestChain.checkpointOverhead, 0, 'f', 1)
                  .arg(bestChain.signalSeconds, 0, 'f', 0)
                  .arg(bestChain.predictedSeconds, 0, 'f', 0);
    for (const QString &note : bestPrediction.notes)
        io.out << tr("  note: %1\n").arg(note);
    return kOk;
}

} // namespace diamond::cli
