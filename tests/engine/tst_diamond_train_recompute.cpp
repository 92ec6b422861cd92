// diamond-train with activation checkpointing ("recompute"): the same weights as without it, bit for bit (a CNN with
// batch norm and dropout, on 1 and 2 ranks; the spirals MLP with fused Nesterov momentum), a bit-exact resume after
// SIGKILL, checkpoints that continue with another rank count and mode, the spec's marked nodes in "marked" mode, the
// started event's figures, and a refused mode.
#include "common/engine_process.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::test;

namespace {

QJsonObject node(const char *id, const char *type, const char *input, const QJsonObject &params = {}) {
    QJsonObject n{{QStringLiteral("id"), QLatin1String(id)},
                  {QStringLiteral("type"), QLatin1String(type)},
                  {QStringLiteral("inputs"), QJsonArray{QLatin1String(input)}}};
    if (!params.isEmpty()) n[QStringLiteral("params")] = params;
    return n;
}

} // namespace

class TestDiamondTrainRecompute : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    /// The shapes data through conv, batch norm, ReLU, pool, dropout and two Linear layers; `marked` nodes carry
    /// "recompute": true.
    QString cnnSpec(const QString &name, const QStringList &marked = {}) {
        QJsonArray nodes{
            node("conv1", "Conv2d", "image", {{QStringLiteral("out_channels"), 8}, {QStringLiteral("kernel_size"), 3}}),
            node("bn1", "BatchNorm2d", "conv1"),
            node("relu1", "ReLU", "bn1"),
            node("pool1", "MaxPool2d", "relu1", {{QStringLiteral("kernel_size"), 2}}),
            node("flatten", "Flatten", "pool1"),
            node("drop1", "Dropout", "flatten", {{QStringLiteral("p"), 0.3}}),
            node("fc1", "Linear", "drop1", {{QStringLiteral("out_features"), 32}}),
            node("relu2", "ReLU", "fc1"),
            node("drop2", "Dropout", "relu2", {{QStringLiteral("p"), 0.2}}),
            node("fc2", "Linear", "drop2", {{QStringLiteral("out_features"), 4}})};
        for (auto it = nodes.begin(); it != nodes.end(); ++it) {
            QJsonObject n = it->toObject();
            if (marked.contains(n.value(QStringLiteral("id")).toString())) {
                n[QStringLiteral("recompute")] = true;
                *it = n;
            }
        }
        const QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.spec/1")},
            {QStringLiteral("inputs"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("image")},
                                    {QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 1, 28, 28}}}}},
            {QStringLiteral("nodes"), nodes},
            {QStringLiteral("outputs"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("logits")},
                                                               {QStringLiteral("from"), QStringLiteral("fc2")}}}}};
        return writeJson(dir_.filePath(name + QStringLiteral(".spec.json")), doc);
    }
    QString config(const char *exampleName, const QString &name, int steps, const QJsonObject &extra) {
        return writeExampleConfig(exampleName, dir_.filePath(name + QStringLiteral(".json")), steps, extra);
    }
    static QJsonObject recomputeOf(const EngineRun &r) {
        return r.last(QStringLiteral("started")).value(QStringLiteral("recompute")).toObject();
    }
    static QJsonObject mode(const char *m) { return {{QStringLiteral("recompute"), QLatin1String(m)}}; }

private Q_SLOTS:
    void recomputedTrainingEqualsPlain_data() {
        QTest::addColumn<int>("processes");
        QTest::addColumn<QString>("sharding"); // of the recomputed run
        QTest::newRow("1 rank") << 1 << QStringLiteral("none");
        QTest::newRow("2 ranks") << 2 << QStringLiteral("none");
        // The recomputed parts' nested backward passes hand each gradient to the sharded reducer as it arrives.
        QTest::newRow("2 ranks, gradients sharded") << 2 << QStringLiteral("gradients");
    }
    void recomputedTrainingEqualsPlain() {
        QFETCH(int, processes);
        QFETCH(QString, sharding);
        const QString spec = cnnSpec(QStringLiteral("cnn"));
        const QString tag = QString::number(processes) + sharding;
        QJsonObject recomputeAll = mode("all");
        recomputeAll[QStringLiteral("sharding")] = sharding;
        const EngineRun plain =
            runEngine(withRanks(trainArgs(spec, config("shapes_cnn", QStringLiteral("plain") + tag, 40, mode("none")),
                                          dir_.filePath(QStringLiteral("plain") + tag)),
                                processes));
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.stderrText));
        const EngineRun recomputed =
            runEngine(withRanks(trainArgs(spec, config("shapes_cnn", QStringLiteral("all") + tag, 40, recomputeAll),
                                          dir_.filePath(QStringLiteral("all") + tag)),
                                processes));
        QVERIFY2(recomputed.exitCode == 0, qPrintable(recomputed.stderrText));
        QCOMPARE(recomputeOf(plain).value(QStringLiteral("parts")).toInt(), 0);
        QCOMPARE(recomputeOf(recomputed).value(QStringLiteral("mode")).toString(), QStringLiteral("all"));
        QCOMPARE(recomputeOf(recomputed).value(QStringLiteral("nodes")).toInt(), 10);
        QVERIFY(recomputeOf(recomputed).value(QStringLiteral("parts")).toInt() >= 2);
        QVERIFY(!plain.weightsSha().isEmpty());
        QCOMPARE(recomputed.weightsSha(), plain.weightsSha());
    }

    /// One process: Linear gradients are written in place and Nesterov momentum is fused into them.
    void fusedMomentumRunsEqualPlain() {
        const QJsonObject sgd{{QStringLiteral("name"), QStringLiteral("sgd")},
                              {QStringLiteral("lr"), 0.05},
                              {QStringLiteral("momentum"), 0.9},
                              {QStringLiteral("nesterov"), true}};
        const QString spec = example("spirals", "spec.json");
        const EngineRun plain = runEngine(
            trainArgs(spec, config("spirals", QStringLiteral("mlp-plain"), 60, {{QStringLiteral("optimizer"), sgd}}),
                      dir_.filePath(QStringLiteral("mlp-plain"))));
        QVERIFY2(plain.exitCode == 0, qPrintable(plain.stderrText));
        QJsonObject extra = mode("all");
        extra[QStringLiteral("optimizer")] = sgd;
        const EngineRun recomputed = runEngine(trainArgs(spec, config("spirals", QStringLiteral("mlp-all"), 60, extra),
                                                         dir_.filePath(QStringLiteral("mlp-all"))));
        QVERIFY2(recomputed.exitCode == 0, qPrintable(recomputed.stderrText));
        QCOMPARE(recomputeOf(recomputed).value(QStringLiteral("nodes")).toInt(), 5);
        QCOMPARE(recomputed.weightsSha(), plain.weightsSha());
    }

    void resumeAfterSigkillIsBitExact() {
        const QString spec = cnnSpec(QStringLiteral("resume"));
        const QString cfg = config("shapes_cnn", QStringLiteral("resume"), 60, mode("all"));
        const EngineRun full = runEngine(trainArgs(spec, cfg, dir_.filePath(QStringLiteral("resume-full"))));
        QVERIFY2(full.exitCode == 0, qPrintable(full.stderrText));

        const QString runDir = dir_.filePath(QStringLiteral("resume-killed"));
        QVERIFY2(runEngineUntilKilled(trainArgs(spec, cfg, runDir),
                                      [](const QJsonObject &e) {
                                          return e.value(QStringLiteral("event")).toString() ==
                                                     QLatin1String("checkpoint") &&
                                                 e.value(QStringLiteral("step")).toInt() >= 20;
                                      }),
                 "the engine ended before its step-20 checkpoint");
        const EngineRun resumed = runEngine(trainArgs(spec, cfg, runDir) << QStringLiteral("--resume"));
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.stderrText));
        QVERIFY(resumed.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt() >= 20);
        QCOMPARE(resumed.weightsSha(), full.weightsSha());
    }

    /// A recomputed 2-rank run's checkpoint continues on 1 rank without recompute exactly as a plain 2-rank run's
    /// checkpoint continues on 1 rank with it: recompute leaves no trace in the state.
    void checkpointsMoveBetweenRankCountsAndModes() {
        const QString spec = cnnSpec(QStringLiteral("move"));
        const QString plain = config("shapes_cnn", QStringLiteral("move-plain"), 40, mode("none"));
        const QString recomputed = config("shapes_cnn", QStringLiteral("move-all"), 40, mode("all"));
        auto twentyStepsThenOneRank = [&](const QString &name, const QString &first, const QString &second) -> QString {
            const QString runDir = dir_.filePath(name);
            const EngineRun a = runEngine(withRanks(trainArgs(spec, first, runDir), 2));
            if (a.exitCode != 0) return QStringLiteral("first run failed: ") + a.stderrText;
            QDir checkpoints(QDir(runDir).filePath(QStringLiteral("checkpoints")));
            for (const QString &file : checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files))
                if (file != QLatin1String("step-0000000020.pt")) checkpoints.remove(file);
            const EngineRun b = runEngine(trainArgs(spec, second, runDir) << QStringLiteral("--resume"));
            if (b.exitCode != 0) return QStringLiteral("resumed run failed: ") + b.stderrText;
            if (b.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt() != 20)
                return QStringLiteral("did not resume at step 20");
            return b.weightsSha();
        };
        const QString fromRecomputed = twentyStepsThenOneRank(QStringLiteral("move-a"), recomputed, plain);
        const QString fromPlain = twentyStepsThenOneRank(QStringLiteral("move-b"), plain, recomputed);
        QVERIFY2(fromPlain.size() == 64, qPrintable(fromPlain));
        QCOMPARE(fromRecomputed, fromPlain);
    }

    void markedNodesAreRecomputed() {
        const QString spec = cnnSpec(QStringLiteral("marked"), {QStringLiteral("bn1"), QStringLiteral("relu1"),
                                                                QStringLiteral("pool1"), QStringLiteral("fc1")});
        const EngineRun marked = runEngine(trainArgs(spec, config("shapes_cnn", QStringLiteral("marked"), 20, {}),
                                                     dir_.filePath(QStringLiteral("marked"))));
        QVERIFY2(marked.exitCode == 0, qPrintable(marked.stderrText));
        QCOMPARE(recomputeOf(marked).value(QStringLiteral("mode")).toString(), QStringLiteral("marked"));
        QCOMPARE(recomputeOf(marked).value(QStringLiteral("nodes")).toInt(), 4);
        QVERIFY(recomputeOf(marked).value(QStringLiteral("parts")).toInt() >= 2); // bn1..pool1, fc1
        const EngineRun none = runEngine(trainArgs(spec, config("shapes_cnn", QStringLiteral("none"), 20, mode("none")),
                                                   dir_.filePath(QStringLiteral("none"))));
        QVERIFY2(none.exitCode == 0, qPrintable(none.stderrText));
        QCOMPARE(recomputeOf(none).value(QStringLiteral("nodes")).toInt(), 0);
        QCOMPARE(marked.weightsSha(), none.weightsSha());
    }

    /// "recompute": "auto" with activation_budget_mb: a budget the plain network fits recomputes nothing; one below
    /// what recomputing everything keeps recomputes everything (with a warning); one in between recomputes some
    /// nodes, keeps the estimate within it, and trains the plain run's weights. Without a budget, auto is refused.
    void autoRecomputesWhatTheBudgetNeeds() {
        const QString spec = writeDeepSpiralsSpec(dir_.filePath(QStringLiteral("deep.spec.json")), 8, 256);
        auto run = [&](const QString &name, double budgetMb) {
            QJsonObject extra = mode("auto");
            extra[QStringLiteral("activation_budget_mb")] = budgetMb;
            return runEngine(trainArgs(spec, config("spirals", name, 10, extra), dir_.filePath(name)));
        };
        const EngineRun roomy = run(QStringLiteral("auto-roomy"), 1e6);
        QVERIFY2(roomy.exitCode == 0, qPrintable(roomy.stderrText));
        const QJsonObject r = recomputeOf(roomy);
        QCOMPARE(r.value(QStringLiteral("mode")).toString(), QStringLiteral("auto"));
        QCOMPARE(r.value(QStringLiteral("nodes")).toInt(), 0);
        QVERIFY(r.value(QStringLiteral("fits")).toBool());
        const double plainBytes = r.value(QStringLiteral("estimated_activation_bytes")).toDouble();
        const EngineRun tight = run(QStringLiteral("auto-tight"), 0.001);
        QVERIFY2(tight.exitCode == 0, qPrintable(tight.stderrText));
        const QJsonObject t = recomputeOf(tight);
        QCOMPARE(t.value(QStringLiteral("nodes")).toInt(), 17);
        QVERIFY(!t.value(QStringLiteral("fits")).toBool());
        QCOMPARE(tight.last(QStringLiteral("warning")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("activation_budget_mb"));
        const double leastBytes = t.value(QStringLiteral("estimated_activation_bytes")).toDouble();
        qInfo("activations at batch 32 (8 x 256 MLP): %.0f bytes plain, %.0f with every node recomputed", plainBytes,
              leastBytes);
        QVERIFY(leastBytes < plainBytes);
        const double budget = (plainBytes + leastBytes) / 2;
        const EngineRun middle = run(QStringLiteral("auto-middle"), budget / 1048576.0);
        QVERIFY2(middle.exitCode == 0, qPrintable(middle.stderrText));
        const QJsonObject m = recomputeOf(middle);
        QVERIFY(m.value(QStringLiteral("fits")).toBool());
        QVERIFY(m.value(QStringLiteral("estimated_activation_bytes")).toDouble() <= budget);
        QVERIFY2(m.value(QStringLiteral("nodes")).toInt() > 0 && m.value(QStringLiteral("nodes")).toInt() < 17,
                 qPrintable(QString::number(m.value(QStringLiteral("nodes")).toInt())));
        QCOMPARE(middle.weightsSha(), roomy.weightsSha());
        QCOMPARE(tight.weightsSha(), roomy.weightsSha());
        // No budget: refused, naming the field.
        const EngineRun none =
            runEngine(trainArgs(spec, config("shapes_cnn", QStringLiteral("auto-none"), 10, mode("auto")),
                                dir_.filePath(QStringLiteral("auto-none"))));
        QCOMPARE(none.exitCode, 1);
        QCOMPARE(none.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("activation_budget_mb"));
    }

    void anUnknownModeIsRefused() {
        const EngineRun r = runEngine(trainArgs(example("spirals", "spec.json"),
                                                config("spirals", QStringLiteral("bad"), 10, mode("everything")),
                                                dir_.filePath(QStringLiteral("bad"))));
        QCOMPARE(r.exitCode, 1);
        const QJsonObject error = r.last(QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("recompute"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("marked")),
                 qPrintable(error.value(QStringLiteral("message")).toString()));
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainRecompute)
#include "tst_diamond_train_recompute.moc"
