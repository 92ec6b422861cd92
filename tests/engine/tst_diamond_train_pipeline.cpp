// diamond-train with "pipeline" (one process per stage, GPipe micro-batches): the same weights, bit for bit, as one
// process accumulating the same micro-batches, and within 1e-5 of one process on whole batches; a bit-exact resume
// after SIGKILL; checkpoints in the whole network's form, so that a pipeline run continues on one process and the
// other way round; the started and finished events' figures; bad layouts refused by field.
#include "common/engine_process.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::test;

namespace {

QJsonObject pipeline(int stages, int microBatches, const QJsonArray &cut = {}) {
    QJsonObject p{{QStringLiteral("stages"), stages}, {QStringLiteral("micro_batches"), microBatches}};
    if (!cut.isEmpty()) p[QStringLiteral("cut")] = cut;
    return p;
}

/// Spirals through two Linear + ReLU blocks whose first output also skips to an Add three nodes later: cut after h1
/// and after fc2, the middle stage passes h1 through.
QJsonObject skipSpec() {
    QJsonObject spec = readJson(example("spirals", "spec.json"));
    spec.remove(QStringLiteral("layout"));
    const auto node = [](const char *id, const char *type, QJsonArray inputs, QJsonObject params = {}) {
        QJsonObject n{{QStringLiteral("id"), QLatin1String(id)},
                      {QStringLiteral("type"), QLatin1String(type)},
                      {QStringLiteral("inputs"), inputs}};
        if (!params.isEmpty()) n[QStringLiteral("params")] = params;
        return n;
    };
    const QJsonObject width{{QStringLiteral("out_features"), 48}};
    spec[QStringLiteral("nodes")] = QJsonArray{
        node("fc1", "Linear", {QStringLiteral("x")}, width),
        node("h1", "ReLU", {QStringLiteral("fc1")}),
        node("fc2", "Linear", {QStringLiteral("h1")}, width),
        node("h2", "ReLU", {QStringLiteral("fc2")}),
        node("sum", "Add", {QStringLiteral("h1"), QStringLiteral("h2")}),
        node("out", "Linear", {QStringLiteral("sum")}, {{QStringLiteral("out_features"), 3}}),
    };
    spec[QStringLiteral("outputs")] = QJsonArray{QJsonObject{{QStringLiteral("from"), QStringLiteral("out")},
                                                             {QStringLiteral("name"), QStringLiteral("logits")}}};
    return spec;
}

} // namespace

class TestDiamondTrainPipeline : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString config(const char *exampleName, const QString &name, int steps, const QJsonObject &extra) {
        return writeExampleConfig(exampleName, dir_.filePath(name + QStringLiteral(".json")), steps, extra);
    }
    /// The spec for a data row: an example's, the deep spirals MLP or the skip network.
    QString specFor(const QString &kind) {
        if (kind == QLatin1String("deep"))
            return writeDeepSpiralsSpec(dir_.filePath(QStringLiteral("deep.spec.json")), 6, 64);
        if (kind == QLatin1String("skip"))
            return writeJson(dir_.filePath(QStringLiteral("skip.spec.json")), skipSpec());
        return example(kind.toLatin1().constData(), "spec.json");
    }
    static const char *exampleOf(const QString &kind) {
        return kind == QLatin1String("shapes_cnn") ? "shapes_cnn" : "spirals";
    }

private Q_SLOTS:
    void stagesTrainLikeOneProcess_data() {
        QTest::addColumn<QString>("network");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<QJsonArray>("cut");
        QTest::newRow("deep mlp, 2 stages, auto cut") << QStringLiteral("deep") << 2 << 4 << QJsonArray();
        QTest::newRow("deep mlp, 3 stages")
            << QStringLiteral("deep") << 3 << 2 << QJsonArray{QStringLiteral("relu1"), QStringLiteral("fc4")};
        QTest::newRow("cnn, 2 stages") << QStringLiteral("shapes_cnn") << 2 << 4 << QJsonArray{QStringLiteral("pool1")};
        QTest::newRow("skip, 3 stages") << QStringLiteral("skip") << 3 << 4
                                        << QJsonArray{QStringLiteral("h1"), QStringLiteral("fc2")};
    }
    void stagesTrainLikeOneProcess() {
        QFETCH(QString, network);
        QFETCH(int, stages);
        QFETCH(int, microBatches);
        QFETCH(QJsonArray, cut);
        const QString spec = specFor(network);
        const char *example = exampleOf(network);
        const int batch =
            readJson(diamond::test::example(example, "run.json")).value(QStringLiteral("batch_size")).toInt();
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
        const EngineRun staged =
            runEngine(withRanks(trainArgs(spec,
                                          config(example, tag + QStringLiteral("-pipe"), 40,
                                                 {{QStringLiteral("pipeline"), pipeline(stages, microBatches, cut)}}),
                                          dir_.filePath(tag + QStringLiteral("-pipe"))),
                                stages));
        QVERIFY2(staged.exitCode == 0, qPrintable(staged.stderrText));
        // One process adding up the same micro-batches: batch / micro-batches per pass, accumulated.
        const EngineRun accumulated =
            runEngine(trainArgs(spec,
                                config(example, tag + QStringLiteral("-acc"), 40,
                                       {{QStringLiteral("batch_size"), batch / microBatches},
                                        {QStringLiteral("accumulation_steps"), microBatches}}),
                                dir_.filePath(tag + QStringLiteral("-acc"))));
        QVERIFY2(accumulated.exitCode == 0, qPrintable(accumulated.stderrText));
        QVERIFY(!accumulated.weightsSha().isEmpty());
        QCOMPARE(staged.weightsSha(), accumulated.weightsSha());
        // One process on whole batches: the same sums in another order.
        const EngineRun whole = runEngine(trainArgs(spec, config(example, tag + QStringLiteral("-whole"), 40, {}),
                                                    dir_.filePath(tag + QStringLiteral("-whole"))));
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.stderrText));
        qInfo("val_loss: pipeline %.9f, accumulated %.9f, whole batches %.9f", finalValLoss(staged),
              finalValLoss(accumulated), finalValLoss(whole));
        QVERIFY(std::abs(finalValLoss(staged) - finalValLoss(whole)) <= 1e-5);

        const QJsonObject started = staged.last(QStringLiteral("started")).value(QStringLiteral("pipeline")).toObject();
        QCOMPARE(started.value(QStringLiteral("stages")).toInt(), stages);
        QCOMPARE(started.value(QStringLiteral("micro_batches")).toInt(), microBatches);
        QCOMPARE(started.value(QStringLiteral("cut")).toArray().size(), stages - 1);
        if (!cut.isEmpty()) QCOMPARE(started.value(QStringLiteral("cut")).toArray(), cut);
        QCOMPARE(started.value(QStringLiteral("cut_chosen")).toString(),
                 cut.isEmpty() ? QStringLiteral("flops") : QStringLiteral("config"));
        const QJsonArray stageNodes = started.value(QStringLiteral("stage_nodes")).toArray();
        QCOMPARE(stageNodes.size(), stages);
        QCOMPARE(staged.last(QStringLiteral("started")).value(QStringLiteral("parameters")).toInteger(),
                 whole.last(QStringLiteral("started")).value(QStringLiteral("parameters")).toInteger());
        const QJsonArray times = staged.last(QStringLiteral("finished"))
                                     .value(QStringLiteral("pipeline"))
                                     .toObject()
                                     .value(QStringLiteral("stages"))
                                     .toArray();
        QCOMPARE(times.size(), stages);
        qint64 parameters = 0;
        for (const QJsonValue &t : times) {
            QVERIFY(t[QStringLiteral("forward_s_per_step")].toDouble() > 0);
            QVERIFY(t[QStringLiteral("backward_s_per_step")].toDouble() > 0);
            QVERIFY(t[QStringLiteral("waiting_s_per_step")].toDouble() >= 0);
            parameters += t[QStringLiteral("parameters")].toInteger();
        }
        QCOMPARE(parameters, whole.last(QStringLiteral("started")).value(QStringLiteral("parameters")).toInteger());
    }

    void resumeAfterSigkillIsBitExact() {
        const QString spec = specFor(QStringLiteral("skip"));
        const QJsonObject extra{{QStringLiteral("pipeline"), pipeline(3, 4)}};
        const EngineRun straight =
            runEngine(withRanks(trainArgs(spec, config("spirals", QStringLiteral("straight"), 40, extra),
                                          dir_.filePath(QStringLiteral("straight"))),
                                3));
        QVERIFY2(straight.exitCode == 0, qPrintable(straight.stderrText));
        const QString runDir = dir_.filePath(QStringLiteral("killed"));
        const QStringList args =
            withRanks(trainArgs(spec, config("spirals", QStringLiteral("killed"), 40, extra), runDir), 3);
        QVERIFY(runEngineUntilKilled(args, [](const QJsonObject &e) {
            return e.value(QStringLiteral("event")).toString() == QLatin1String("checkpoint") &&
                   e.value(QStringLiteral("step")).toInt() == 20;
        }));
        const EngineRun resumed = runEngine(QStringList(args) << QStringLiteral("--resume"));
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.stderrText));
        QCOMPARE(resumed.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 20);
        QCOMPARE(resumed.weightsSha(), straight.weightsSha());
    }

    /// A pipeline's checkpoint holds the whole network: one process continues it, and a pipeline continues one
    /// process's, each ending where the run that never changed ends.
    void checkpointsMoveBetweenPipelineAndOneProcess() {
        const QString spec = specFor(QStringLiteral("deep"));
        const QJsonObject staged{{QStringLiteral("pipeline"), pipeline(2, 4)}};
        const QJsonObject accumulated{{QStringLiteral("batch_size"), 8}, {QStringLiteral("accumulation_steps"), 4}};
        const EngineRun reference = runEngine(trainArgs(spec, config("spirals", QStringLiteral("ref"), 40, accumulated),
                                                        dir_.filePath(QStringLiteral("ref"))));
        QVERIFY2(reference.exitCode == 0, qPrintable(reference.stderrText));
        for (const bool fromPipeline : {true, false}) {
            const QString name = fromPipeline ? QStringLiteral("p2one") : QStringLiteral("one2p");
            const QString runDir = dir_.filePath(name);
            const QString first =
                config("spirals", name + QStringLiteral("-1"), 20, fromPipeline ? staged : accumulated);
            const EngineRun part1 = runEngine(withRanks(trainArgs(spec, first, runDir), fromPipeline ? 2 : 1));
            QVERIFY2(part1.exitCode == 0, qPrintable(part1.stderrText));
            const QString second =
                config("spirals", name + QStringLiteral("-2"), 40, fromPipeline ? accumulated : staged);
            const EngineRun part2 = runEngine(withRanks(trainArgs(spec, second, runDir), fromPipeline ? 1 : 2)
                                              << QStringLiteral("--resume"));
            QVERIFY2(part2.exitCode == 0, qPrintable(part2.stderrText));
            QCOMPARE(part2.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 20);
            QCOMPARE(part2.weightsSha(), reference.weightsSha());
        }
    }

    void badLayoutsAreRefusedByField() {
        const QString spec = specFor(QStringLiteral("deep"));
        // Two stages on one process.
        EngineRun r = runEngine(trainArgs(
            spec, config("spirals", QStringLiteral("one"), 10, {{QStringLiteral("pipeline"), pipeline(2, 4)}}),
            dir_.filePath(QStringLiteral("one"))));
        QVERIFY(r.exitCode != 0);
        QCOMPARE(r.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("pipeline.stages"));
        // A cut after a node the network does not have.
        r = runEngine(
            withRanks(trainArgs(spec,
                                config("spirals", QStringLiteral("cut"), 10,
                                       {{QStringLiteral("pipeline"), pipeline(2, 4, {QStringLiteral("fc99")})}}),
                                dir_.filePath(QStringLiteral("cut"))),
                      2));
        QVERIFY(r.exitCode != 0);
        const QJsonObject error = r.last(QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("pipeline.cut"));
        QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("fc99")),
                 qPrintable(error.value(QStringLiteral("message")).toString()));
        // Micro-batches that do not divide the batch, and sharding with stages: the config names the field.
        r = runEngine(withRanks(
            trainArgs(spec,
                      config("spirals", QStringLiteral("micro"), 10, {{QStringLiteral("pipeline"), pipeline(2, 5)}}),
                      dir_.filePath(QStringLiteral("micro"))),
            2));
        QVERIFY(r.exitCode != 0);
        QCOMPARE(r.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("pipeline.micro_batches"));
        // The dry run of a pipeline config (the run set-up's plan) runs on one process.
        const EngineRun plan =
            runEngine({QStringLiteral("--spec"), spec, QStringLiteral("--config"),
                       config("spirals", QStringLiteral("plan"), 10, {{QStringLiteral("pipeline"), pipeline(2, 4)}}),
                       QStringLiteral("--run-dir"), dir_.filePath(QStringLiteral("plan")), QStringLiteral("--dry-run"),
                       QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(plan.exitCode == 0, qPrintable(plan.stderrText));
        QVERIFY(plan.last(QStringLiteral("plan")).value(QStringLiteral("seconds_per_step")).toDouble() > 0);
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainPipeline)
#include "tst_diamond_train_pipeline.moc"
