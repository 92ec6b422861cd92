// `diamondctl run plan` with the real binaries: the first plan calibrates this computer and keeps the profile in
// the workspace, the JSON names what issue #18 asks for, a cluster partition's time limit turns a long run into a
// chain of jobs, options that do not fit in a node's memory say so, and bad input is refused with a message.
#include "common/spec_builders.h"
#include "common/test_paths.h"

#include "app/cluster/cluster_store.h"
#include "app/workspace/workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestDiamondctlPlan : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString spec_, config_;

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };
    Result ctl(const QStringList &args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DIAMOND_TRAIN"), test::binary(QStringLiteral("diamond-train")));
        p.setProcessEnvironment(env);
        p.start(test::binary(QStringLiteral("diamondctl")),
                QStringList{QStringLiteral("--workspace"), dir_.filePath(QStringLiteral("ws"))} + args);
        Result r;
        if (!p.waitForFinished(180000)) return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
    QString writeConfig(const QString &name, int epochs) {
        QFile in(test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        if (!in.open(QIODevice::ReadOnly)) return {};
        QJsonObject c = QJsonDocument::fromJson(in.readAll()).object();
        c.insert(QStringLiteral("epochs"), epochs);
        const QString path = dir_.filePath(name);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly)) return {};
        out.write(QJsonDocument(c).toJson());
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const Result init = ctl({QStringLiteral("init"), QStringLiteral("--no-examples")});
        QVERIFY2(init.code == 0, init.err.constData());
        spec_ = test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"));
        config_ = writeConfig(QStringLiteral("run.json"), 20);
    }

    void theFirstPlanCalibratesThisComputer() {
        const QString profile = dir_.filePath(QStringLiteral("ws/device-profiles/this-computer.json"));
        QVERIFY(!QFile::exists(profile));
        Result r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                        QStringLiteral("--config"), config_, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFile::exists(profile));
        const QJsonObject plan = r.json();
        for (const char *key : {"predicted_step_s", "predicted_peak_memory_bytes", "ranks", "jobs", "time_limit_s",
                                "checkpoint_every_steps", "signal_seconds", "options", "steps"})
            QVERIFY2(plan.contains(QLatin1String(key)), key);
        QCOMPARE(plan.value(QStringLiteral("steps")).toInteger(),
                 qint64(20 * 2400 / 32)); // 3000 samples, 20 % held out
        QVERIFY(plan.value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        QVERIFY(plan.value(QStringLiteral("measured_step_s_here")).toDouble() > 0);
        QCOMPARE(plan.value(QStringLiteral("jobs")).toInt(), 1);
        QCOMPARE(plan.value(QStringLiteral("target")).toString(), QStringLiteral("local"));
        QVERIFY(!plan.value(QStringLiteral("options")).toArray().isEmpty());
        // Memory: the network, the data and the runtime's own memory (measured by calibration or the dry run).
        const QJsonObject prediction = plan.value(QStringLiteral("prediction")).toObject();
        QVERIFY(prediction.value(QStringLiteral("memory_overhead_bytes")).toInteger() > (1 << 20));
        QVERIFY2(prediction.value(QStringLiteral("memory_basis")).toString() != QLatin1String("estimate only"),
                 qPrintable(prediction.value(QStringLiteral("memory_basis")).toString()));
        QVERIFY(plan.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger() >
                prediction.value(QStringLiteral("memory_overhead_bytes")).toInteger());

        // The second plan reuses the profile (same file, same time stamp), and the text form reads as a plan.
        const QDateTime written = QFileInfo(profile).lastModified();
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--nproc"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(QFileInfo(profile).lastModified(), written);
        QVERIFY2(r.out.contains("Plan on this computer with 1 process") && r.out.contains("ms per step"),
                 r.out.constData());
        QVERIFY(!r.err.contains("Calibrating"));
    }

    /// A config that splits the optimizer state is planned with it: less memory per process than the same run
    /// without, and the text says so.
    void aShardedConfigIsPlannedSharded() {
        QFile in(config_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject c = QJsonDocument::fromJson(in.readAll()).object();
        c.insert(QStringLiteral("sharding"), QStringLiteral("optimizer"));
        const QString sharded = dir_.filePath(QStringLiteral("sharded.json"));
        QFile out(sharded);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(c).toJson());
        out.close();
        auto plan = [&](const QString &config, bool json) {
            QStringList args{QStringLiteral("run"),      QStringLiteral("plan"),
                             QStringLiteral("--spec"),   spec_,
                             QStringLiteral("--config"), config,
                             QStringLiteral("--nproc"),  QStringLiteral("2")};
            if (json) args << QStringLiteral("--json");
            return ctl(args);
        };
        const Result plain = plan(config_, true), split = plan(sharded, true);
        QVERIFY2(plain.code == 0 && split.code == 0, QByteArray(plain.err + split.err).constData());
        const QJsonObject a = plain.json().value(QStringLiteral("prediction")).toObject();
        const QJsonObject b = split.json().value(QStringLiteral("prediction")).toObject();
        QVERIFY(!a.value(QStringLiteral("sharded_optimizer")).toBool());
        QVERIFY(b.value(QStringLiteral("sharded_optimizer")).toBool());
        QCOMPARE(split.json().value(QStringLiteral("ranks")).toInt(), 2);
        QVERIFY2(b.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger() <
                     a.value(QStringLiteral("predicted_peak_memory_bytes")).toInteger(),
                 split.out.constData());
        const Result text = plan(sharded, false);
        QVERIFY2(text.out.contains("optimizer state is split over the processes"), text.out.constData());
        // The gradients too.
        c.insert(QStringLiteral("sharding"), QStringLiteral("gradients"));
        const QString stage2 = dir_.filePath(QStringLiteral("sharded-gradients.json"));
        QFile out2(stage2);
        QVERIFY(out2.open(QIODevice::WriteOnly));
        out2.write(QJsonDocument(c).toJson());
        out2.close();
        const Result both = plan(stage2, true);
        QVERIFY2(both.code == 0, both.err.constData());
        QVERIFY(both.json()
                    .value(QStringLiteral("prediction"))
                    .toObject()
                    .value(QStringLiteral("sharded_gradients"))
                    .toBool());
        const Result bothText = plan(stage2, false);
        QVERIFY2(bothText.out.contains("optimizer state and the gradients are split over the processes"),
                 bothText.out.constData());
    }

    void aRecomputedConfigIsPlannedRecomputed() {
        QFile in(config_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject c = QJsonDocument::fromJson(in.readAll()).object();
        c.insert(QStringLiteral("recompute"), QStringLiteral("all"));
        c.insert(QStringLiteral("batch_size"), 512);
        const QString recomputed = dir_.filePath(QStringLiteral("recomputed.json"));
        QFile out(recomputed);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(c).toJson());
        out.close();
        c.insert(QStringLiteral("recompute"), QStringLiteral("none"));
        const QString kept = dir_.filePath(QStringLiteral("kept.json"));
        QFile keptOut(kept);
        QVERIFY(keptOut.open(QIODevice::WriteOnly));
        keptOut.write(QJsonDocument(c).toJson());
        keptOut.close();
        auto plan = [&](const QString &config, bool json) {
            QStringList args{QStringLiteral("run"),      QStringLiteral("plan"),
                             QStringLiteral("--spec"),   spec_,
                             QStringLiteral("--config"), config};
            if (json) args << QStringLiteral("--json");
            return ctl(args);
        };
        const Result plain = plan(kept, true), less = plan(recomputed, true);
        QVERIFY2(plain.code == 0 && less.code == 0, QByteArray(plain.err + less.err).constData());
        const QJsonObject a = plain.json().value(QStringLiteral("prediction")).toObject();
        const QJsonObject b = less.json().value(QStringLiteral("prediction")).toObject();
        QCOMPARE(a.value(QStringLiteral("recomputed_nodes")).toInt(), 0);
        QVERIFY(b.value(QStringLiteral("recomputed_nodes")).toInt() > 0);
        QCOMPARE(b.value(QStringLiteral("recompute")).toString(), QStringLiteral("all"));
        QVERIFY(b.value(QStringLiteral("recompute_s")).toDouble() > 0);
        // A five-layer MLP keeps about as much either way (the U-Net's saving is in tst_run_recommender); the
        // recomputation costs time.
        QVERIFY2(b.value(QStringLiteral("network_memory_bytes")).toInteger() <=
                     a.value(QStringLiteral("network_memory_bytes")).toInteger(),
                 less.out.constData());
        QVERIFY(b.value(QStringLiteral("compute_s")).toDouble() > a.value(QStringLiteral("compute_s")).toDouble());
        // The user's own choice is not a plan's: the plan does not repeat it.
        QVERIFY(!less.json().contains(QStringLiteral("recompute")));
        const Result text = plan(recomputed, false);
        QVERIFY2(text.out.contains("recompute their activations in backward"), text.out.constData());
    }

    /// `run stages`: the cut whose slowest stage is fastest under the model (checked against every other cut's
    /// prediction), each stage's figures, the config written with it, and bad input refused.
    void pipelineStagesArePlacedByTheModel() {
        const QList<int> widths{256, 64, 512, 128, 1024, 64, 256, 3};
        const QJsonObject chain = test::linearChainSpec(widths, false);
        const QString specPath = dir_.filePath(QStringLiteral("chain.spec.json"));
        QFile specFile(specPath);
        QVERIFY(specFile.open(QIODevice::WriteOnly));
        specFile.write(QJsonDocument(chain).toJson());
        specFile.close();
        const auto stages = [&](const QStringList &extra) {
            return ctl(QStringList{QStringLiteral("run"), QStringLiteral("stages"), QStringLiteral("--spec"), specPath,
                                   QStringLiteral("--config"), config_, QStringLiteral("--stages"), QStringLiteral("2"),
                                   QStringLiteral("--micro-batches"), QStringLiteral("4")} +
                       extra);
        };
        const QString written = dir_.filePath(QStringLiteral("staged.json"));
        const Result chosen = stages({QStringLiteral("--json"), QStringLiteral("--output"), written});
        QVERIFY2(chosen.code == 0, chosen.err.constData());
        const QJsonObject doc = chosen.json();
        QVERIFY(doc.value(QStringLiteral("cut_chosen")).toBool());
        QCOMPARE(doc.value(QStringLiteral("cut")).toArray().size(), 1);
        const QJsonArray parts = doc.value(QStringLiteral("stages")).toArray();
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts[0][QStringLiteral("nodes")].toArray().size() +
                     parts[1][QStringLiteral("nodes")].toArray().size(),
                 qsizetype(widths.size()));
        QVERIFY(doc.value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        QVERIFY(doc.value(QStringLiteral("bubble_fraction")).toDouble() >= 0 &&
                doc.value(QStringLiteral("bubble_fraction")).toDouble() < 1);
        const auto slowest = [](const QJsonObject &d) {
            double worst = 0;
            for (const QJsonValue &st : d.value(QStringLiteral("stages")).toArray())
                worst = std::max(worst, st[QStringLiteral("compute_s_per_micro_batch")].toDouble() +
                                            st[QStringLiteral("transfer_s_per_micro_batch")].toDouble());
            return worst;
        };
        // No other cut's slowest stage is faster (the same model, each cut given).
        for (int i = 0; i + 1 < widths.size(); ++i) {
            const Result other =
                stages({QStringLiteral("--json"), QStringLiteral("--cut"), QStringLiteral("fc%1").arg(i)});
            QVERIFY2(other.code == 0, other.err.constData());
            QVERIFY(!other.json().value(QStringLiteral("cut_chosen")).toBool());
            QVERIFY2(slowest(other.json()) >= slowest(doc) * (1 - 1e-9),
                     qPrintable(QStringLiteral("cut after fc%1 is faster than the chosen one").arg(i)));
        }
        // The config written carries the cut, and the engine takes it.
        QFile staged(written);
        QVERIFY(staged.open(QIODevice::ReadOnly));
        const QJsonObject pipeline =
            QJsonDocument::fromJson(staged.readAll()).object().value(QStringLiteral("pipeline")).toObject();
        QCOMPARE(pipeline.value(QStringLiteral("stages")).toInt(), 2);
        QCOMPARE(pipeline.value(QStringLiteral("cut")).toArray(), doc.value(QStringLiteral("cut")).toArray());
        const Result text = stages({});
        QVERIFY2(text.code == 0 && text.out.contains("chosen by the performance model"), text.out.constData());
        // Bad input: a count that does not match, one stage, a node the network does not have.
        QCOMPARE(stages({QStringLiteral("--cut"), QStringLiteral("fc1,fc2")}).code, 2);
        QCOMPARE(ctl({QStringLiteral("run"), QStringLiteral("stages"), QStringLiteral("--spec"), specPath,
                      QStringLiteral("--config"), config_, QStringLiteral("--stages"), QStringLiteral("1")})
                     .code,
                 2);
        const Result unknown = stages({QStringLiteral("--cut"), QStringLiteral("fc99")});
        QCOMPARE(unknown.code, 1);
        QVERIFY2(unknown.err.contains("fc99"), unknown.err.constData());
    }

    void aPartitionLimitMakesAChain() {
        app::Workspace ws;
        QVERIFY(ws.open(dir_.filePath(QStringLiteral("ws"))));
        remote::ClusterProfile cluster;
        cluster.name = QStringLiteral("tiny");
        cluster.host = QStringLiteral("127.0.0.1");
        cluster.user = QStringLiteral("nobody");
        cluster.scratchDir = QStringLiteral("/tmp/diamond-scratch");
        cluster.enginePath = QStringLiteral("diamond-train");
        remote::PartitionInfo quick;
        quick.name = QStringLiteral("quick");
        quick.maxWalltimeMinutes = 3;
        quick.memoryMb = 64000;
        quick.cpusPerNode = 2;
        quick.isDefault = true;
        cluster.partitions = {quick};
        app::ClusterStore clusters(ws);
        QVERIFY2(clusters.add(cluster), qPrintable(clusters.errorString()));

        // 40,000 epochs of spirals: 3,000,000 steps, far longer than one 3-minute job leaves to compute (60 s).
        const QString longConfig = writeConfig(QStringLiteral("long.json"), 40000);
        const Result r =
            ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), longConfig, QStringLiteral("--target"), QStringLiteral("tiny"),
                 QStringLiteral("--nproc"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject plan = r.json();
        QCOMPARE(plan.value(QStringLiteral("partition")).toString(), QStringLiteral("quick"));
        QCOMPARE(plan.value(QStringLiteral("time_limit_s")).toDouble(), 180.0);
        const double step = plan.value(QStringLiteral("predicted_step_s")).toDouble();
        const qint64 steps = plan.value(QStringLiteral("steps")).toInteger();
        const int jobs = plan.value(QStringLiteral("jobs")).toInt();
        // Each job computes at most 180 - 60 start-up - 60 signal seconds.
        QCOMPARE(steps, qint64(40000) * 75);
        QVERIFY2(jobs >= 2 && jobs >= int(double(steps) * step / 60.0), qPrintable(QString::number(jobs)));
        QVERIFY(plan.value(QStringLiteral("signal_seconds")).toDouble() >= 60);
        QVERIFY(plan.value(QStringLiteral("checkpoint_every_steps")).toInteger() >= 1);
        QCOMPARE(plan.value(QStringLiteral("chain")).toObject().value(QStringLiteral("jobs")).toInt(), jobs);
        // Nobody answers for "tiny": its queue wait is unknown, and the plan says why rather than failing.
        QVERIFY2(!plan.value(QStringLiteral("queue_wait_problems")).toArray().isEmpty(), r.out.constData());
        QVERIFY(!plan.contains(QStringLiteral("queue_wait_s")));
    }

    /// A GPU run (device cuda, fp16): its dry run measures on this computer's CPU, the plan puts it on the partition
    /// with GPUs, one process per GPU; on this computer (a CPU engine) it is refused with the reason.
    void aGpuRunIsPlannedOnGpus() {
        app::Workspace ws;
        QVERIFY(ws.open(dir_.filePath(QStringLiteral("ws"))));
        remote::ClusterProfile cluster;
        cluster.name = QStringLiteral("gpus");
        cluster.host = QStringLiteral("127.0.0.1");
        cluster.user = QStringLiteral("nobody");
        cluster.scratchDir = QStringLiteral("/tmp/diamond-scratch");
        cluster.enginePath = QStringLiteral("diamond-train");
        remote::PartitionInfo cpu, gpu;
        cpu.name = QStringLiteral("cpu");
        cpu.cpusPerNode = 32;
        cpu.maxWalltimeMinutes = 60;
        cpu.isDefault = true;
        gpu.name = QStringLiteral("a100");
        gpu.cpusPerNode = 32;
        gpu.gpusPerNode = 4;
        gpu.gpuType = QStringLiteral("a100");
        gpu.maxWalltimeMinutes = 60;
        cluster.partitions = {cpu, gpu};
        app::ClusterStore clusters(ws);
        QVERIFY2(clusters.add(cluster), qPrintable(clusters.errorString()));
        const QString config = writeConfig(QStringLiteral("gpu.json"), 2);
        QFile f(config);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject c = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        c.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        c.insert(QStringLiteral("precision"), QStringLiteral("fp16"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(c).toJson());
        f.close();
        Result r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                        QStringLiteral("--config"), config, QStringLiteral("--target"), QStringLiteral("gpus"),
                        QStringLiteral("--no-queue-wait"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject plan = r.json();
        QCOMPARE(plan.value(QStringLiteral("partition")).toString(), QStringLiteral("a100"));
        QCOMPARE(plan.value(QStringLiteral("device")).toString(), QStringLiteral("cuda"));
        QVERIFY(plan.value(QStringLiteral("ranks")).toInt() <= 4);
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config, QStringLiteral("--json")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("CPU only"), r.err.constData());
    }

    /// --measure-width trains each width briefly; the measured step times replace the predictions and decide.
    void measuredWidthsReplaceThePredictions() {
        Result r =
            ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--measure-width"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject plan = r.json();
        QMap<QPair<int, int>, double> measured;
        for (const QJsonValue &w : plan.value(QStringLiteral("measured_widths")).toArray())
            measured.insert({w[QStringLiteral("ranks")].toInt(), w[QStringLiteral("threads_per_rank")].toInt()},
                            w[QStringLiteral("measured_step_s")].toDouble());
        QVERIFY(!measured.isEmpty());
        double fastest = 0;
        for (const QJsonValue &v : plan.value(QStringLiteral("options")).toArray()) {
            const QJsonObject o = v.toObject();
            const QPair<int, int> key{o.value(QStringLiteral("ranks")).toInt(),
                                      o.value(QStringLiteral("threads_per_rank")).toInt()};
            QVERIFY2(measured.contains(key), QJsonDocument(o).toJson().constData());
            QCOMPARE(o.value(QStringLiteral("step_basis")).toString(), QStringLiteral("measured"));
            QCOMPARE(o.value(QStringLiteral("predicted_step_s")).toDouble(), measured.value(key));
            if (!o.contains(QStringLiteral("reason")) &&
                (fastest == 0 || o.value(QStringLiteral("predicted_step_s")).toDouble() < fastest))
                fastest = o.value(QStringLiteral("predicted_step_s")).toDouble();
        }
        QCOMPARE(plan.value(QStringLiteral("predicted_step_s")).toDouble(), fastest); // the fastest eligible width
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--measure-width")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("measured: 1 process(es)"), r.out.constData());
        // On a cluster the widths would need jobs: refused with the reason.
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--target"), QStringLiteral("tiny"),
                 QStringLiteral("--measure-width")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("this computer"), r.err.constData());
    }

    void badInputIsRefused() {
        Result r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_});
        QCOMPARE(r.code, 2);
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--target"), QStringLiteral("nowhere")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nowhere"), r.err.constData());
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--nproc"), QStringLiteral("zero")});
        QCOMPARE(r.code, 2);
        // A damaged profile is named, not trusted.
        QFile profile(dir_.filePath(QStringLiteral("ws/device-profiles/this-computer.json")));
        QVERIFY(profile.open(QIODevice::WriteOnly));
        profile.write("{\"format\": \"diamond.device-profile/1\"}");
        profile.close();
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--json")});
        // It is calibrated again rather than used.
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(r.json().value(QStringLiteral("predicted_step_s")).toDouble() > 0);
        // So is one larger than a profile can be (1 MiB), without being read whole.
        QVERIFY(profile.open(QIODevice::WriteOnly));
        profile.write(QByteArray("{\"format\": \"diamond.device-profile/1\", \"pad\": \"") + QByteArray(2 << 20, 'x') +
                      "\"}");
        profile.close();
        r = ctl({QStringLiteral("run"), QStringLiteral("plan"), QStringLiteral("--spec"), spec_,
                 QStringLiteral("--config"), config_, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(QFileInfo(profile.fileName()).size() < (1 << 20));
    }
};

QTEST_GUILESS_MAIN(TestDiamondctlPlan)
#include "tst_diamondctl_plan.moc"
