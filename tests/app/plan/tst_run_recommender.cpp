// RunRecommender (app/plan/run_recommender.h), the run set-up page's recommendation: with no profile of this
// computer it starts `diamond-train calibrate` in the background and answers "calibrating" at once; when that ends
// it plans from the saved profile; a cluster partition's time limit turns a long run into a chain; an engine that
// cannot calibrate is reported once and not restarted on every edit; an unknown cluster is named.
#include "common/engine_process.h"
#include "common/test_paths.h"

#include "app/cluster/cluster_store.h"
#include "app/plan/perf_model.h"
#include "app/plan/pipeline_plan.h"
#include "app/plan/run_planner.h"
#include "app/plan/run_recommender.h"
#include "app/workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestRunRecommender : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static QJsonObject readJson(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
    }
    static app::RunPlanRequest spirals(const QString &target = QStringLiteral("local")) {
        app::RunPlanRequest r;
        r.spec = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        r.config = readJson(test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        r.target = target;
        return r;
    }
    /// The spirals run on the 16 x 1024 MLP (16.8 M parameters) with Adam, planned for 2 processes on "hpc".
    static app::RunPlanRequest wideMlpOnTwoRanks() {
        app::RunPlanRequest request = spirals(QStringLiteral("hpc"));
        request.spec = test::deepSpiralsSpec(16, 1024);
        request.fixedRanks = 2;
        request.config.insert(QStringLiteral("optimizer"),
                              QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}});
        return request;
    }
    /// What the page's dry run reports, reduced to what the recommendation reads.
    /// The recorded calibration of the development VM (data/epyc-2ranks-1thread.json).
    static std::optional<app::DeviceProfile> recordedProfile(QString *error) {
        QFile recorded(test::sourcePath(QStringLiteral("tests/app/plan/data/epyc-2ranks-1thread.json")));
        if (!recorded.open(QIODevice::ReadOnly)) return *error = recorded.errorString(), std::nullopt;
        return app::DeviceProfile::fromJson(QJsonDocument::fromJson(recorded.readAll()).object(), error);
    }
    /// `spec` with every hidden Linear layer `width` wide (the spirals MLP at 4000: 16 M parameters).
    static QJsonObject widened(QJsonObject spec, int width) {
        QJsonArray nodes = spec.value(QStringLiteral("nodes")).toArray();
        for (int i = 0; i + 1 < nodes.size(); ++i) {
            QJsonObject node = nodes[i].toObject();
            if (node.value(QStringLiteral("type")).toString() != QLatin1String("Linear")) continue;
            QJsonObject params = node.value(QStringLiteral("params")).toObject();
            params.insert(QStringLiteral("out_features"), width);
            node.insert(QStringLiteral("params"), params);
            nodes[i] = node;
        }
        spec.insert(QStringLiteral("nodes"), nodes);
        return spec;
    }
    /// Cluster "hpc" with one partition of 60 minutes.
    static remote::ClusterProfile hpc(const QString &partitionName, int cpus, int gpus, qint64 memoryMb) {
        remote::ClusterProfile cluster;
        cluster.name = QStringLiteral("hpc");
        remote::PartitionInfo partition;
        partition.name = partitionName;
        partition.cpusPerNode = cpus;
        partition.gpusPerNode = gpus;
        partition.memoryMb = memoryMb;
        partition.maxWalltimeMinutes = 60;
        cluster.partitions = {partition};
        return cluster;
    }
    static QJsonObject dryRun(qint64 steps) {
        return {{QStringLiteral("steps"), steps}, {QStringLiteral("seconds_per_step"), 0.001}};
    }

private Q_SLOTS:
    void calibratesInTheBackgroundThenRecommends() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("first"))));
        app::RunRecommender recommender;
        recommender.setEnginePath(test::binary(QStringLiteral("diamond-train")));
        recommender.setWorkspace(&ws);
        QSignalSpy calibrated(&recommender, &app::RunRecommender::calibrated);
        const auto first = recommender.recommend(spirals(), dryRun(1500));
        QVERIFY(first.calibrating);
        QVERIFY(!first.plan);
        QVERIFY(recommender.isCalibrating()); // returned while the engine measures
        QVERIFY(first.error.contains(QStringLiteral("Measuring")));
        // A second edit meanwhile does not start a second calibration.
        QVERIFY(recommender.recommend(spirals(), dryRun(1500)).calibrating);
        QVERIFY(calibrated.wait(120000));
        QCOMPARE(calibrated.size(), 1);
        QVERIFY2(calibrated.at(0).at(0).toBool(), qPrintable(calibrated.at(0).at(1).toString()));
        QVERIFY(QFile::exists(QDir(ws.path()).filePath(QStringLiteral("device-profiles/this-computer.json"))));
        const auto second = recommender.recommend(spirals(), dryRun(1500));
        QVERIFY2(second.plan, qPrintable(second.error));
        const QJsonObject &doc = second.plan->document;
        QCOMPARE(doc.value(QStringLiteral("target")).toString(), QStringLiteral("local"));
        QCOMPARE(doc.value(QStringLiteral("steps")).toInteger(), 1500);
        QCOMPARE(doc.value(QStringLiteral("jobs")).toInt(), 1);
        QVERIFY(doc.value(QStringLiteral("ranks")).toInt() >= 1);
        QVERIFY(doc.value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        QCOMPARE(doc.value(QStringLiteral("measured_step_s_here")).toDouble(), 0.001);
        QCOMPARE(calibrated.size(), 1);
    }

    void aClusterPartitionsLimitMakesAChain() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("cluster"))));
        // A recorded profile of this computer: no calibration needed.
        const QString profiles = QDir(ws.path()).filePath(QStringLiteral("device-profiles"));
        QVERIFY(QDir().mkpath(profiles));
        QVERIFY(QFile::copy(test::sourcePath(QStringLiteral("tests/app/plan/data/epyc-2ranks-1thread.json")),
                            profiles + QStringLiteral("/this-computer.json")));
        remote::ClusterProfile cluster;
        cluster.name = QStringLiteral("hpc");
        cluster.host = QStringLiteral("local");
        cluster.scratchDir = dir_.filePath(QStringLiteral("scratch"));
        cluster.enginePath = QStringLiteral("diamond-train");
        remote::PartitionInfo partition;
        partition.name = QStringLiteral("short");
        partition.cpusPerNode = 2;
        partition.maxWalltimeMinutes = 30;
        cluster.partitions = {partition};
        app::ClusterStore clusters(ws);
        QVERIFY2(clusters.add(cluster), qPrintable(clusters.errorString()));

        app::RunRecommender recommender;
        recommender.setEnginePath(QStringLiteral("/nonexistent/diamond-train")); // never needed here
        recommender.setWorkspace(&ws);
        const auto small = recommender.recommend(spirals(QStringLiteral("hpc")), dryRun(1000));
        QVERIFY2(small.plan, qPrintable(small.error));
        const double step = small.plan->document.value(QStringLiteral("predicted_step_s")).toDouble();
        QVERIFY(step > 0);
        QCOMPARE(small.plan->document.value(QStringLiteral("jobs")).toInt(), 1);
        // About 2 hours of steps against a 30-minute partition.
        const qint64 steps = qint64(7200 / step);
        const auto chain = recommender.recommend(spirals(QStringLiteral("hpc")), dryRun(steps));
        QVERIFY2(chain.plan, qPrintable(chain.error));
        const QJsonObject &doc = chain.plan->document;
        QCOMPARE(doc.value(QStringLiteral("partition")).toString(), QStringLiteral("short"));
        QCOMPARE(doc.value(QStringLiteral("time_limit_s")).toDouble(), 1800.0);
        QVERIFY2(doc.value(QStringLiteral("jobs")).toInt() >= 4,
                 qPrintable(QString::number(doc.value(QStringLiteral("jobs")).toInt())));
        const QJsonObject chainJson = doc.value(QStringLiteral("chain")).toObject();
        QVERIFY(chainJson.value(QStringLiteral("startup_s")).toDouble() > 0); // what the Gantt chart draws
        QVERIFY(chainJson.value(QStringLiteral("checkpoint_s")).toDouble() > 0);
        QVERIFY(!recommender.isCalibrating());

        const auto unknown = recommender.recommend(spirals(QStringLiteral("nowhere")), dryRun(1000));
        QVERIFY(!unknown.plan);
        QVERIFY2(unknown.error.contains(QStringLiteral("nowhere")), qPrintable(unknown.error));
    }

    /// The scheduler's queue waits (RunPlanRequest::queueWaitSeconds) are part of each option's predicted finish:
    /// of two partitions that compute equally fast, the one with the shorter wait is recommended.
    void queueWaitsDecideBetweenPartitions() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        remote::ClusterProfile cluster;
        cluster.name = QStringLiteral("hpc");
        for (const char *name : {"busy", "free"}) {
            remote::PartitionInfo partition;
            partition.name = QLatin1String(name);
            partition.cpusPerNode = 2;
            partition.maxWalltimeMinutes = 60;
            cluster.partitions.append(partition);
        }
        app::RunPlanRequest request = spirals(QStringLiteral("hpc"));
        request.fixedRanks = 1;
        const auto plan = [&](double busyWait, double freeWait) {
            request.queueWaitSeconds = {{QStringLiteral("busy"), busyWait}, {QStringLiteral("free"), freeWait}};
            return app::recommendRun(request, profiles, cluster, dryRun(20000), &error);
        };
        auto p = plan(3600, 0);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->document.value(QStringLiteral("partition")).toString(), QStringLiteral("free"));
        QCOMPARE(p->document.value(QStringLiteral("queue_wait_s")).toDouble(), 0.0);
        p = plan(0, 3600);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->document.value(QStringLiteral("partition")).toString(), QStringLiteral("busy"));
        for (const QJsonValue &v : p->document.value(QStringLiteral("options")).toArray()) {
            const QJsonObject o = v.toObject();
            const double wait = o.value(QStringLiteral("partition")).toString() == QLatin1String("free") ? 3600 : 0;
            QCOMPARE(o.value(QStringLiteral("queue_wait_s")).toDouble(), wait);
        }
        QCOMPARE(p->document.value(QStringLiteral("predicted_finish_s")).toDouble(),
                 p->document.value(QStringLiteral("predicted_total_s")).toDouble());
    }

    // A cuda run goes to a partition with GPUs, one process per GPU at most; CPU partitions and this computer are
    // shown with the reason; without a GPU calibration the prediction says it came from a CPU profile.
    void aGpuRunIsPlacedOnGpus() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        remote::ClusterProfile cluster;
        cluster.name = QStringLiteral("hpc");
        for (const auto &[name, gpus] : {std::pair{"cpu", 0}, std::pair{"gpu", 2}}) {
            remote::PartitionInfo partition;
            partition.name = QLatin1String(name);
            partition.cpusPerNode = 8;
            partition.gpusPerNode = gpus;
            partition.maxWalltimeMinutes = 60;
            cluster.partitions.append(partition);
        }
        app::RunPlanRequest request = spirals(QStringLiteral("hpc"));
        request.config.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        const auto p = app::recommendRun(request, profiles, cluster, dryRun(20000), &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->document.value(QStringLiteral("partition")).toString(), QStringLiteral("gpu"));
        QCOMPARE(p->document.value(QStringLiteral("device")).toString(), QStringLiteral("cuda"));
        QVERIFY(p->document.value(QStringLiteral("ranks")).toInt() <= 2);
        QVERIFY(p->document.value(QStringLiteral("note")).toString().contains(QStringLiteral("CPU profile")));
        int cpuOptions = 0, gpuOptions = 0;
        for (const QJsonValue &v : p->document.value(QStringLiteral("options")).toArray()) {
            const QJsonObject o = v.toObject();
            if (o.value(QStringLiteral("partition")).toString() == QLatin1String("cpu")) {
                ++cpuOptions;
                QCOMPARE(o.value(QStringLiteral("reason")).toString(), QStringLiteral("partition cpu has no GPUs"));
            } else {
                ++gpuOptions;
                QVERIFY(o.value(QStringLiteral("ranks")).toInt() <= 2); // widths up to the GPUs, not the 8 cores
                QCOMPARE(o.value(QStringLiteral("gpus_per_node")).toInt(), o.value(QStringLiteral("ranks")).toInt());
            }
        }
        QVERIFY(cpuOptions >= 1 && gpuOptions >= 1);
        // This computer (a CPU engine) cannot run it: no option, and the reason says why.
        app::RunPlanRequest local = spirals();
        local.config.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        QVERIFY(!app::recommendRun(local, profiles, std::nullopt, dryRun(20000), &error));
        QVERIFY2(error.contains(QStringLiteral("CPU only")), qPrintable(error));
    }

    /// Two processes of a wide MLP trained with Adam do not fit on a node with their whole optimizer state each, but
    /// do with it split over them: that option is offered with "sharding", which the plan and its config carry.
    void anOptimizerStateThatDoesNotFitIsSplit() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        app::RunPlanRequest request = spirals(QStringLiteral("hpc"));
        const QJsonObject wide = widened(request.spec, 4000); // 16 M parameters, 64 MB of weights
        request.spec = wide;
        request.fixedRanks = 2;
        request.config.insert(QStringLiteral("optimizer"),
                              QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}});
        const QByteArray specText = QJsonDocument(wide).toJson(QJsonDocument::Compact);
        app::StepInputs in = app::StepInputs::fromRunConfig(request.config);
        in.ranks = 2;
        in.threadsPerRank = 1;
        const app::StepPrediction whole = app::predictStep(specText, in, *profiles.base);
        in.shardOptimizer = true;
        const app::StepPrediction split = app::predictStep(specText, in, *profiles.base);
        QVERIFY2(whole.ok && split.ok, qPrintable(whole.error + split.error));
        QVERIFY2(whole.parameters > 15000000, qPrintable(QString::number(whole.parameters)));
        // Adam's 2 floats per weight, halved.
        QCOMPARE(whole.peakMemoryBytes - split.peakMemoryBytes, whole.parameters * 4);
        const qint64 node = (whole.peakMemoryBytes + split.peakMemoryBytes); // between 2 x split and 2 x whole
        remote::ClusterProfile cluster = hpc(QStringLiteral("small"), 2, 0, node / (1024 * 1024));
        const auto p = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->document.value(QStringLiteral("ranks")).toInt(), 2);
        QCOMPARE(p->document.value(QStringLiteral("sharding")).toString(), QStringLiteral("optimizer"));
        QCOMPARE(p->document.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger(), split.peakMemoryBytes);
        QVERIFY(p->prediction.shardedOptimizer);
        QCOMPARE(app::configForPlan(p->document, request.config).value(QStringLiteral("sharding")).toString(),
                 QStringLiteral("optimizer"));
        // The user's own choice stays.
        QJsonObject own = request.config;
        own.insert(QStringLiteral("sharding"), QStringLiteral("none"));
        QCOMPARE(app::configForPlan(p->document, own).value(QStringLiteral("sharding")).toString(),
                 QStringLiteral("none"));
        // With room for the whole state, nothing is split.
        cluster.partitions[0].memoryMb = 4 * node / (1024 * 1024);
        const auto roomy = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(roomy, qPrintable(error));
        QVERIFY(!roomy->document.contains(QStringLiteral("sharding")));
        QCOMPARE(roomy->document.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger(),
                 whole.peakMemoryBytes);
    }

    /// A deep MLP (many layers of 4 MiB) whose optimizer state split over 2 processes still does not fit, but does
    /// with the gradients split too (ZeRO stage 2): that option is offered with "sharding": "gradients", predicted
    /// with half the gradients plus two buckets in flight. A few huge layers (the widened MLP above) gain less: there
    /// stage 1 is chosen.
    void gradientsAreSplitTooWhenThatFits() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        app::RunPlanRequest request = wideMlpOnTwoRanks(); // 16.8 M parameters
        const QByteArray specText = QJsonDocument(request.spec).toJson(QJsonDocument::Compact);
        app::StepInputs in = app::StepInputs::fromRunConfig(request.config);
        in.ranks = 2;
        in.threadsPerRank = 1;
        in.shardOptimizer = true;
        const app::StepPrediction stage1 = app::predictStep(specText, in, *profiles.base);
        in.shardGradients = true;
        const app::StepPrediction stage2 = app::predictStep(specText, in, *profiles.base);
        QVERIFY2(stage1.ok && stage2.ok, qPrintable(stage1.error + stage2.error));
        QVERIFY(stage2.shardedGradients && stage2.shardedOptimizer && !stage1.shardedGradients);
        QCOMPARE(stage2.sharding(), QStringLiteral("gradients"));
        QCOMPARE(stage2.toJson().value(QStringLiteral("sharded_gradients")).toBool(), true);
        // Half the gradients less, two buckets of a layer's size more; no more traffic than data parallelism (stage 1
        // adds the weights' gather).
        QCOMPARE(stage1.peakMemoryBytes - stage2.peakMemoryBytes,
                 stage1.parameters * 2 - 2 * 4 * (1024 * 1024 + 1024)); // a layer's weight and bias: one bucket
        QVERIFY(stage2.allReduceSeconds < stage1.allReduceSeconds);
        const qint64 node = stage1.peakMemoryBytes + stage2.peakMemoryBytes; // between 2 x stage 2 and 2 x stage 1
        remote::ClusterProfile cluster = hpc(QStringLiteral("small"), 2, 0, node / (1024 * 1024));
        const auto p = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->document.value(QStringLiteral("sharding")).toString(), QStringLiteral("gradients"));
        QCOMPARE(p->document.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger(), stage2.peakMemoryBytes);
        QCOMPARE(app::configForPlan(p->document, request.config).value(QStringLiteral("sharding")).toString(),
                 QStringLiteral("gradients"));
        // A config that asks for stage 1 is predicted with stage 1 only.
        request.config.insert(QStringLiteral("sharding"), QStringLiteral("optimizer"));
        const auto asked = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY(!asked || asked->document.value(QStringLiteral("sharding")).toString() != QLatin1String("gradients"));
    }

    /// A network whose weights do not fit twice in the node, even with ZeRO stage 2 (which keeps every weight on every
    /// process): the plan cuts it into pipeline stages, one per process, where the cost model says; configForPlan
    /// carries the stages; a config with a sharding of its own is not given stages.
    void aNetworkTooLargeForZeroIsCutIntoStages() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        app::RunPlanRequest request = wideMlpOnTwoRanks();
        const QByteArray specText = QJsonDocument(request.spec).toJson(QJsonDocument::Compact);
        app::StepInputs in = app::StepInputs::fromRunConfig(request.config);
        in.ranks = 2;
        in.threadsPerRank = 1;
        in.shardOptimizer = in.shardGradients = true;
        const app::StepPrediction zero2 = app::predictStep(specText, in, *profiles.base);
        in.ranks = 1;
        in.shardOptimizer = in.shardGradients = false;
        app::PipelineInputs pipe;
        pipe.stages = 2;
        pipe.microBatches = app::pipelineMicroBatches(in.batch, 2);
        QCOMPARE(pipe.microBatches, 8); // batch 32: 4 per stage
        const app::PipelinePrediction staged = app::predictPipeline(specText, in, pipe, *profiles.base);
        QVERIFY2(zero2.ok && staged.ok, qPrintable(zero2.error + staged.error));
        qInfo("per process: ZeRO-2 %.0f MiB, 2 stages %.0f MiB", zero2.peakMemoryBytes / 1048576.0,
              staged.peakMemoryBytes / 1048576.0);
        QVERIFY(staged.peakMemoryBytes < zero2.peakMemoryBytes);
        const qint64 node = staged.peakMemoryBytes + zero2.peakMemoryBytes; // between 2 x stages and 2 x ZeRO-2
        remote::ClusterProfile cluster = hpc(QStringLiteral("small"), 2, 0, node / (1024 * 1024));
        const auto p = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(p, qPrintable(error));
        const QJsonObject stages = p->document.value(QStringLiteral("pipeline")).toObject();
        QCOMPARE(stages.value(QStringLiteral("stages")).toInt(), 2);
        QCOMPARE(stages.value(QStringLiteral("micro_batches")).toInt(), pipe.microBatches);
        QCOMPARE(stages.value(QStringLiteral("cut")).toArray(), QJsonArray::fromStringList(staged.cut));
        QVERIFY(!p->document.contains(QStringLiteral("sharding")));
        QCOMPARE(p->document.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger(), staged.peakMemoryBytes);
        QCOMPARE(p->document.value(QStringLiteral("predicted_step_s")).toDouble(), staged.stepSeconds);
        const QJsonObject config = app::configForPlan(p->document, request.config);
        QCOMPARE(config.value(QStringLiteral("pipeline")).toObject(), stages);
        // The user's own sharding: no stages proposed, and nothing else fits.
        request.config.insert(QStringLiteral("sharding"), QStringLiteral("gradients"));
        const auto asked = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY(!asked || !asked->document.contains(QStringLiteral("pipeline")));
        // A roomy node: no stages.
        request.config.remove(QStringLiteral("sharding"));
        const auto roomy =
            app::recommendRun(request, profiles, hpc(QStringLiteral("big"), 2, 0, 1 << 20), dryRun(1000), &error);
        QVERIFY2(roomy, qPrintable(error));
        QVERIFY(!roomy->document.contains(QStringLiteral("pipeline")));
    }

    /// A network whose activations do not fit the node: every node is recomputed in backward when that fits (a
    /// third more compute for those nodes); the user's own "recompute" stays, and a roomy node recomputes nothing.
    void activationsThatDoNotFitAreRecomputed() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        app::RunPlanRequest request = spirals(QStringLiteral("hpc"));
        request.spec = readJson(test::sourcePath(QStringLiteral("resources/templates/unet.json")));
        request.config.insert(QStringLiteral("batch_size"), 256);
        request.fixedRanks = 1;
        const QByteArray specText = QJsonDocument(request.spec).toJson(QJsonDocument::Compact);
        app::StepInputs in = app::StepInputs::fromRunConfig(request.config);
        in.threadsPerRank = 1;
        const app::StepPrediction plain = app::predictStep(specText, in, *profiles.base);
        in.recompute = QStringLiteral("all");
        const app::StepPrediction recomputed = app::predictStep(specText, in, *profiles.base);
        QVERIFY2(plain.ok && recomputed.ok, qPrintable(plain.error + recomputed.error));
        qInfo("U-Net at batch 256: %.0f MiB plain, %.0f MiB recomputed; compute %.1f ms + %.1f ms",
              plain.peakMemoryBytes / 1048576.0, recomputed.peakMemoryBytes / 1048576.0, plain.computeSeconds * 1e3,
              recomputed.recomputeSeconds * 1e3);
        QCOMPARE(plain.recomputedNodes, 0);
        QCOMPARE(recomputed.recomputedNodes, 52);
        QVERIFY(recomputed.recomputeSeconds > 0);
        // A third more for every node: the step grows by the recomputation and nothing else.
        QVERIFY(qAbs(recomputed.computeSeconds - plain.computeSeconds - recomputed.recomputeSeconds) <
                1e-9 * plain.computeSeconds);
        QVERIFY(recomputed.recomputeSeconds < 0.34 * plain.computeSeconds);
        QVERIFY2(2 * recomputed.peakMemoryBytes < plain.peakMemoryBytes + recomputed.peakMemoryBytes,
                 qPrintable(QStringLiteral("%1 vs %2").arg(recomputed.peakMemoryBytes).arg(plain.peakMemoryBytes)));
        const qint64 between = (plain.peakMemoryBytes + recomputed.peakMemoryBytes) / 2;
        remote::ClusterProfile cluster = hpc(QStringLiteral("small"), 2, 0, between / (1024 * 1024));
        const auto p = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(p, qPrintable(error));
        // Every node recomputed fits, and so does recomputing only what the room left for activations needs
        // ("auto" with that budget), which costs less: that is offered.
        QCOMPARE(p->document.value(QStringLiteral("recompute")).toString(), QStringLiteral("auto"));
        const double budgetMb = p->document.value(QStringLiteral("activation_budget_mb")).toDouble();
        QVERIFY2(budgetMb > 0, qPrintable(QString::number(budgetMb)));
        QVERIFY(p->document.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger() <= between);
        QVERIFY(p->document.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger() >
                recomputed.peakMemoryBytes);
        QVERIFY(p->prediction.recomputedNodes > 0 && p->prediction.recomputedNodes < 52);
        QVERIFY(p->prediction.recomputeSeconds < recomputed.recomputeSeconds);
        QVERIFY(p->prediction.stepSeconds < recomputed.stepSeconds);
        qInfo("auto at %.0f MiB of activations: %d of 52 nodes, %.1f ms recomputed instead of %.1f", budgetMb,
              p->prediction.recomputedNodes, p->prediction.recomputeSeconds * 1e3, recomputed.recomputeSeconds * 1e3);
        const QJsonObject planned = app::configForPlan(p->document, request.config);
        QCOMPARE(planned.value(QStringLiteral("recompute")).toString(), QStringLiteral("auto"));
        QCOMPARE(planned.value(QStringLiteral("activation_budget_mb")).toDouble(), budgetMb);
        // The same prediction from the config the plan makes.
        app::StepInputs fromPlan = app::StepInputs::fromRunConfig(planned);
        fromPlan.threadsPerRank = 1;
        QCOMPARE(app::predictStep(specText, fromPlan, *profiles.base).recomputedNodes, p->prediction.recomputedNodes);
        // The user's choice stays: with "none" nothing fits, and the reason says so.
        app::RunPlanRequest own = request;
        own.config.insert(QStringLiteral("recompute"), QStringLiteral("none"));
        const auto refused = app::recommendRun(own, profiles, cluster, dryRun(1000), &error);
        QVERIFY(!refused);
        QVERIFY2(error.contains(QStringLiteral("memory")), qPrintable(error));
        // Room for everything: nothing recomputed.
        cluster.partitions[0].memoryMb = 4 * plain.peakMemoryBytes / (1024 * 1024);
        const auto roomy = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(roomy, qPrintable(error));
        QVERIFY(!roomy->document.contains(QStringLiteral("recompute")));
    }

    /// A GPU calibration of a partition records its GPU's usable memory: a network whose training memory exceeds it
    /// is shown with the reason, and with several GPUs its optimizer state is split over them when that fits.
    void aGpuRunMustFitItsGpu() {
        QString error;
        app::TargetProfiles profiles;
        profiles.base = recordedProfile(&error);
        QVERIFY2(profiles.base, qPrintable(error));
        profiles.baseName = QStringLiteral("hpc");
        app::RunPlanRequest request = spirals(QStringLiteral("hpc"));
        const QJsonObject wide = widened(request.spec, 4000); // Adam training needs ~256 MB plus activations
        request.spec = wide;
        request.config.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        request.config.insert(QStringLiteral("optimizer"),
                              QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}});
        app::StepInputs in = app::StepInputs::fromRunConfig(request.config);
        in.threadsPerRank = 1;
        const app::StepPrediction one = app::predictStep(QJsonDocument(wide).toJson(), in, *profiles.base);
        in.ranks = 2;
        in.shardOptimizer = true;
        const app::StepPrediction split = app::predictStep(QJsonDocument(wide).toJson(), in, *profiles.base);
        QVERIFY(one.networkMemoryBytes > split.networkMemoryBytes);
        // A GPU between the split and the whole network's memory.
        QJsonObject gpuDoc = profiles.base->source;
        gpuDoc.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        gpuDoc.insert(QStringLiteral("gpu_name"), QStringLiteral("Test GPU"));
        gpuDoc.insert(QStringLiteral("device_memory_bytes"), double(one.networkMemoryBytes) * 2);
        gpuDoc.insert(QStringLiteral("device_memory_usable_bytes"),
                      double(one.networkMemoryBytes + split.networkMemoryBytes) / 2);
        const auto gpuProfile = app::DeviceProfile::fromJson(gpuDoc, &error);
        QVERIFY2(gpuProfile, qPrintable(error));
        QCOMPARE(gpuProfile->gpuName, QStringLiteral("Test GPU"));
        profiles.partitions.insert(QStringLiteral("gpu"), *gpuProfile);
        remote::ClusterProfile cluster = hpc(QStringLiteral("gpu"), 8, 2, 0);
        const auto p = app::recommendRun(request, profiles, cluster, dryRun(1000), &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->document.value(QStringLiteral("ranks")).toInt(), 2);
        // Split (stage 2 fits too here: 32 MB more than stage 1, within the GPU's room, and it moves less).
        QCOMPARE(p->document.value(QStringLiteral("sharding")).toString(), QStringLiteral("gradients"));
        bool refusedOne = false;
        for (const QJsonValue &v : p->document.value(QStringLiteral("options")).toArray())
            if (v[QStringLiteral("ranks")].toInt() == 1) {
                const QString reason = v[QStringLiteral("reason")].toString();
                QVERIFY2(reason.contains(QStringLiteral("GPU memory")) && reason.contains(QStringLiteral("Test GPU")),
                         qPrintable(reason));
                refusedOne = true;
            }
        QVERIFY(refusedOne);
        // One GPU per node: nothing fits, and the answer says why.
        cluster.partitions[0].gpusPerNode = 1;
        QVERIFY(!app::recommendRun(request, profiles, cluster, dryRun(1000), &error));
        QVERIFY2(error.contains(QStringLiteral("GPU memory")), qPrintable(error));
    }

    void anEngineThatCannotCalibrateIsReportedOnce() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("broken"))));
        app::RunRecommender recommender;
        recommender.setEnginePath(dir_.filePath(QStringLiteral("no-such-engine")));
        recommender.setWorkspace(&ws);
        QSignalSpy calibrated(&recommender, &app::RunRecommender::calibrated);
        recommender.recommend(spirals(), dryRun(100));
        QTRY_COMPARE_WITH_TIMEOUT(calibrated.size(), 1, 30000);
        QVERIFY(!calibrated.at(0).at(0).toBool());
        QVERIFY2(calibrated.at(0).at(1).toString().contains(QStringLiteral("no-such-engine")),
                 qPrintable(calibrated.at(0).at(1).toString()));
        const auto again = recommender.recommend(spirals(), dryRun(100));
        QVERIFY(!again.calibrating);
        QVERIFY(!again.plan);
        QVERIFY(again.error.contains(QStringLiteral("no-such-engine")));
        QVERIFY(!recommender.isCalibrating());
        QTest::qWait(200);
        QCOMPARE(calibrated.size(), 1);
        QVERIFY(!QFile::exists(QDir(ws.path()).filePath(QStringLiteral("device-profiles/this-computer.json"))));
    }
};

QTEST_GUILESS_MAIN(TestRunRecommender)
#include "tst_run_recommender.moc"
