// diamond-train with "sharding": "optimizer" (ZeRO stage 1) and "gradients" (stage 2) on 2 local ranks: the same
// weights as plain data parallelism bit for bit, half the optimizer state (and with stage 2 about half the gradients)
// per rank, a bit-exact resume from its own checkpoint, and checkpoints that hold the whole state, so that runs
// continue with another number of ranks, sharded or not.
#include "common/engine_process.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::test;

class TestDiamondTrainSharding : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    /// An example's run config for `steps` steps with a checkpoint every 20, `extra` fields set, written as `name`.
    QString config(const char *exampleName, const QString &name, int steps, const QJsonObject &extra) {
        return writeExampleConfig(exampleName, dir_.filePath(name + QStringLiteral(".json")), steps, extra);
    }
    static void shardingLevels() {
        QTest::addColumn<QString>("sharding");
        QTest::newRow("optimizer") << QStringLiteral("optimizer");
        QTest::newRow("gradients") << QStringLiteral("gradients");
    }
    /// The spirals MLP with `layers` hidden Linear+ReLU layers of `width`, written as `name`.
    QString deepSpiralsSpec(const QString &name, int layers, int width) {
        return writeDeepSpiralsSpec(dir_.filePath(name + QStringLiteral(".spec.json")), layers, width);
    }
    /// The finished event's memory.ranks: every rank's figures.
    static QJsonArray ranksOf(const EngineRun &r) {
        return r.last(QStringLiteral("finished"))
            .value(QStringLiteral("memory"))
            .toObject()
            .value(QStringLiteral("ranks"))
            .toArray();
    }
    static qint64 memoryField(const EngineRun &r, const char *key) {
        return qint64(r.last(QStringLiteral("finished"))
                          .value(QStringLiteral("memory"))
                          .toObject()
                          .value(QLatin1String(key))
                          .toDouble(-1));
    }
    /// Keeps only the checkpoint of step 20 in `runDir`: what a run killed between steps 20 and 40 leaves.
    static void killedAfterStep20(const QString &runDir) {
        QDir checkpoints(QDir(runDir).filePath(QStringLiteral("checkpoints")));
        for (const QString &file : checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files))
            if (file != QLatin1String("step-0000000020.pt")) QVERIFY(checkpoints.remove(file));
        QCOMPARE(checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files).size(), 1);
    }

private Q_SLOTS:
    void shardedTrainingEqualsDataParallel_data() {
        QTest::addColumn<QString>("exampleName");
        QTest::addColumn<QJsonObject>("optimizer");
        QTest::addColumn<QString>("sharding");
        const QJsonObject adam{{QStringLiteral("name"), QStringLiteral("adam")},
                               {QStringLiteral("lr"), 0.001},
                               {QStringLiteral("weight_decay"), 0.0001}};
        const QJsonObject nesterov{{QStringLiteral("name"), QStringLiteral("sgd")},
                                   {QStringLiteral("lr"), 0.05},
                                   {QStringLiteral("momentum"), 0.9},
                                   {QStringLiteral("nesterov"), true}};
        for (const QString sharding : {QStringLiteral("optimizer"), QStringLiteral("gradients")}) {
            QTest::addRow("cnn adam %s", qPrintable(sharding)) << QStringLiteral("shapes_cnn") << adam << sharding;
            QTest::addRow("mlp sgd momentum %s", qPrintable(sharding))
                << QStringLiteral("spirals") << nesterov << sharding;
        }
    }
    void shardedTrainingEqualsDataParallel() {
        QFETCH(QString, exampleName);
        QFETCH(QJsonObject, optimizer);
        QFETCH(QString, sharding);
        const QByteArray name = exampleName.toLatin1();
        const QString spec = example(name.constData(), "spec.json");
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString plainConfig =
            config(name.constData(), tag + QStringLiteral("-plain"), 40, {{QStringLiteral("optimizer"), optimizer}});
        const QString shardedConfig =
            config(name.constData(), tag + QStringLiteral("-sharded"), 40,
                   {{QStringLiteral("optimizer"), optimizer}, {QStringLiteral("sharding"), sharding}});
        const EngineRun plain =
            runEngine(withRanks(trainArgs(spec, plainConfig, dir_.filePath(tag + QStringLiteral("-p"))), 2));
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.stderrText));
        const EngineRun sharded =
            runEngine(withRanks(trainArgs(spec, shardedConfig, dir_.filePath(tag + QStringLiteral("-s"))), 2));
        QVERIFY2(sharded.exitCode == 0, qPrintable(sharded.stderrText));
        QCOMPARE(sharded.last(QStringLiteral("started")).value(QStringLiteral("sharding")).toString(), sharding);
        QCOMPARE(plain.last(QStringLiteral("started")).value(QStringLiteral("sharding")).toString(),
                 QStringLiteral("none"));
        QVERIFY(!plain.weightsSha().isEmpty());
        QCOMPARE(sharded.weightsSha(), plain.weightsSha());
        // Rank 0 holds half the per-weight state (plus its 8-byte step count), and all the gradients.
        const qint64 plainState = memoryField(plain, "optimizer_state_bytes");
        const qint64 shardedState = memoryField(sharded, "optimizer_state_bytes");
        qInfo("optimizer state on rank 0: %lld bytes plain, %lld sharded", plainState, shardedState);
        QVERIFY(plainState > 100);
        QVERIFY2(std::abs(double(shardedState - 8) - double(plainState - 8) / 2) <= 4,
                 qPrintable(QStringLiteral("%1 vs %2").arg(shardedState).arg(plainState)));
        if (sharding == QLatin1String("optimizer"))
            QCOMPARE(memoryField(sharded, "gradient_bytes"), memoryField(plain, "gradient_bytes"));
        else // half of them, and the buckets being reduced (these networks' gradients fit in one)
            QVERIFY(memoryField(sharded, "gradient_bytes") <= memoryField(plain, "gradient_bytes") * 3 / 2 + 8);
        // Every rank's figures: both ranks hold their half (the second share may be shorter by one element).
        const QJsonArray ranks = ranksOf(sharded);
        QCOMPARE(ranks.size(), 2);
        for (const QJsonValue &rank : ranks) {
            const qint64 bytes = rank[QStringLiteral("optimizer_state_bytes")].toInteger();
            QVERIFY2(std::abs(double(bytes) - double(shardedState)) <= 16, qPrintable(QString::number(bytes)));
            QVERIFY(rank[QStringLiteral("peak_growth_bytes")].toInteger() > 0);
        }
    }

    void shardedRunsResumeBitExactly_data() { shardingLevels(); }
    void shardedRunsResumeBitExactly() {
        QFETCH(QString, sharding);
        const QString spec = example("shapes_cnn", "spec.json");
        const QString sharded =
            config("shapes_cnn", QStringLiteral("resume-") + sharding, 60, {{QStringLiteral("sharding"), sharding}});
        const EngineRun full =
            runEngine(withRanks(trainArgs(spec, sharded, dir_.filePath(QStringLiteral("full-") + sharding)), 2));
        QVERIFY2(full.exitCode == 0, qPrintable(full.stderrText));
        const QString runDir = dir_.filePath(QStringLiteral("killed-") + sharding);
        QCOMPARE(runEngine(withRanks(trainArgs(spec, sharded, runDir), 2)).exitCode, 0);
        killedAfterStep20(runDir);
        const EngineRun resumed =
            runEngine(withRanks(trainArgs(spec, sharded, runDir) << QStringLiteral("--resume"), 2));
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.stderrText));
        QCOMPARE(resumed.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 20);
        QCOMPARE(resumed.weightsSha(), full.weightsSha());
    }

    /// A sharded run's checkpoint is the whole state: resumed with one rank it continues exactly as the plain
    /// 2-rank run's checkpoint does; and a 1-rank checkpoint continues sharded over 2 ranks as it does unsharded.
    void checkpointsMoveBetweenRankCountsAndSharding_data() { shardingLevels(); }
    void checkpointsMoveBetweenRankCountsAndSharding() {
        QFETCH(QString, sharding);
        const QString spec = example("shapes_cnn", "spec.json");
        const QString plain = config("shapes_cnn", QStringLiteral("move-plain-") + sharding, 40, {});
        const QString sharded = config("shapes_cnn", QStringLiteral("move-sharded-") + sharding, 40,
                                       {{QStringLiteral("sharding"), sharding}});
        auto twentyStepsThenResume = [&](const QString &name, const QString &first, int firstRanks,
                                         const QString &second, int secondRanks) -> QString {
            const QString runDir = dir_.filePath(name + QLatin1Char('-') + sharding);
            const EngineRun a = runEngine(withRanks(trainArgs(spec, first, runDir), firstRanks));
            if (a.exitCode != 0) return QStringLiteral("first run failed: ") + a.stderrText;
            killedAfterStep20(runDir);
            const EngineRun b =
                runEngine(withRanks(trainArgs(spec, second, runDir) << QStringLiteral("--resume"), secondRanks));
            if (b.exitCode != 0) return QStringLiteral("resumed run failed: ") + b.stderrText;
            if (b.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt() != 20)
                return QStringLiteral("did not resume at step 20");
            return b.weightsSha();
        };
        const QString fromPlain = twentyStepsThenResume(QStringLiteral("p2-1"), plain, 2, plain, 1);
        const QString fromSharded = twentyStepsThenResume(QStringLiteral("s2-1"), sharded, 2, plain, 1);
        QVERIFY2(fromPlain.size() == 64, qPrintable(fromPlain));
        QCOMPARE(fromSharded, fromPlain);
        const QString oneThenPlain = twentyStepsThenResume(QStringLiteral("1-p2"), plain, 1, plain, 2);
        const QString oneThenSharded = twentyStepsThenResume(QStringLiteral("1-s2"), plain, 1, sharded, 2);
        QVERIFY2(oneThenPlain.size() == 64, qPrintable(oneThenPlain));
        QCOMPARE(oneThenSharded, oneThenPlain);
    }

    /// ZeRO stage 2's memory: with Adam on 2 ranks, each rank's optimizer state and gradients together take at most
    /// 0.55 of data parallelism's (the target), with the buckets in flight counted; the weights are the same.
    void gradientShardsHalveOptimizerAndGradientMemory() {
        const QString spec = deepSpiralsSpec(QStringLiteral("deep"), 16, 512); // 4.2 M parameters
        auto run = [&](const QString &sharding) {
            const QString c =
                config("spirals", QStringLiteral("deep-") + sharding, 6, {{QStringLiteral("sharding"), sharding}});
            return runEngine(withRanks(trainArgs(spec, c, dir_.filePath(QStringLiteral("deep-") + sharding)), 2));
        };
        const EngineRun plain = run(QStringLiteral("none"));
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.stderrText));
        const EngineRun sharded = run(QStringLiteral("gradients"));
        QVERIFY2(sharded.exitCode == 0, qPrintable(sharded.stderrText));
        QCOMPARE(sharded.weightsSha(), plain.weightsSha());
        const double plainBytes =
            double(memoryField(plain, "optimizer_state_bytes") + memoryField(plain, "gradient_bytes"));
        const double shardedBytes =
            double(memoryField(sharded, "optimizer_state_bytes") + memoryField(sharded, "gradient_bytes"));
        qInfo("optimizer state + gradients on rank 0: %.1f MiB plain, %.1f MiB sharded (%.3f)", plainBytes / 1048576,
              shardedBytes / 1048576, shardedBytes / plainBytes);
        QVERIFY(plainBytes > 40e6);
        QVERIFY2(shardedBytes <= 0.55 * plainBytes, qPrintable(QString::number(shardedBytes / plainBytes)));
        // Rank 1 too.
        const QJsonArray ranks = ranksOf(sharded);
        QCOMPARE(ranks.size(), 2);
        const double rank1 = double(ranks[1][QStringLiteral("optimizer_state_bytes")].toInteger() +
                                    ranks[1][QStringLiteral("gradient_bytes")].toInteger());
        QVERIFY2(rank1 > 0.4 * plainBytes && rank1 <= 0.55 * plainBytes,
                 qPrintable(QString::number(rank1 / plainBytes)));
    }

    /// Sharded gradients are reduced after every micro-batch and clipped by the norm of all shares: the sums are
    /// formed in another order than data parallelism's, so the runs agree closely, not bit for bit.
    void shardedGradientsAccumulateAndClip() {
        const QString spec = example("spirals", "spec.json");
        const QJsonObject common{{QStringLiteral("accumulation_steps"), 2}, {QStringLiteral("grad_clip_norm"), 0.5}};
        auto run = [&](const QString &sharding) {
            QJsonObject extra = common;
            extra[QStringLiteral("sharding")] = sharding;
            const QString c = config("spirals", QStringLiteral("acc-") + sharding, 40, extra);
            return runEngine(withRanks(trainArgs(spec, c, dir_.filePath(QStringLiteral("acc-") + sharding)), 2));
        };
        const EngineRun plain = run(QStringLiteral("none"));
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.stderrText));
        const EngineRun sharded = run(QStringLiteral("gradients"));
        QVERIFY2(sharded.exitCode == 0, qPrintable(sharded.stderrText));
        const double a = finalValLoss(plain), b = finalValLoss(sharded);
        qInfo("val_loss after 40 steps: %.9g plain, %.9g sharded", a, b);
        QVERIFY(a > 0);
        QVERIFY2(std::abs(a - b) <= 1e-5 * a,
                 qPrintable(QStringLiteral("%1 vs %2").arg(a, 0, 'g', 12).arg(b, 0, 'g', 12)));
        // Every step's training loss too.
        const QList<QJsonObject> pm = plain.ofKind(QStringLiteral("metric")),
                                 sm = sharded.ofKind(QStringLiteral("metric"));
        QCOMPARE(sm.size(), pm.size());
        for (int i = 0; i < pm.size(); ++i) {
            const double x = pm[i].value(QStringLiteral("value")).toDouble(),
                         y = sm[i].value(QStringLiteral("value")).toDouble();
            QVERIFY2(std::abs(x - y) <= 1e-5 * std::max(1.0, std::abs(x)), qPrintable(QString::number(i)));
        }
    }

    void anUnknownShardingIsRefused() {
        const QString runDir = dir_.filePath(QStringLiteral("bad"));
        const EngineRun r = runEngine(trainArgs(
            example("spirals", "spec.json"),
            config("spirals", QStringLiteral("bad"), 10, {{QStringLiteral("sharding"), QStringLiteral("zero3")}}),
            runDir));
        QCOMPARE(r.exitCode, 1);
        const QJsonObject error = r.last(QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("sharding"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("optimizer")),
                 qPrintable(error.value(QStringLiteral("message")).toString()));
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainSharding)
#include "tst_diamond_train_sharding.moc"
