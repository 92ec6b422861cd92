// diamond-train predict (a package's weights reproduce its test outputs), --init-weights (fine-tuning starts from
// given weights) and pack (several runs in one process) as real processes on the spirals example.
#include "common/engine_process.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::test;

class TestDiamondTrainPredict : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString config_, exportDir_;

    QString path(const QString &name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void initTestCase() {
        QJsonObject c = readJson(example("spirals", "run.json"));
        c[QStringLiteral("steps")] = 200;
        config_ = writeJson(path(QStringLiteral("run.json")), c);
        const EngineRun train =
            runEngine(trainArgs(example("spirals", "spec.json"), config_, path(QStringLiteral("base"))));
        QCOMPARE(train.exitCode, 0);
        exportDir_ = path(QStringLiteral("export"));
        const EngineRun exported =
            runEngine({QStringLiteral("export"), QStringLiteral("--spec"), example("spirals", "spec.json"),
                       QStringLiteral("--run-dir"), path(QStringLiteral("base")), QStringLiteral("--out"), exportDir_});
        QCOMPARE(exported.exitCode, 0);
    }

    void predictReproducesTheExportedOutputs() {
        const QString out = path(QStringLiteral("pred/out.safetensors"));
        const EngineRun r =
            runEngine({QStringLiteral("predict"), QStringLiteral("--spec"),
                       QDir(exportDir_).filePath(QStringLiteral("spec.json")), QStringLiteral("--weights"),
                       QDir(exportDir_).filePath(QStringLiteral("model.safetensors")), QStringLiteral("--inputs"),
                       QDir(exportDir_).filePath(QStringLiteral("test_inputs.safetensors")), QStringLiteral("--output"),
                       out, QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.stderrText));
        QCOMPARE(r.last(QStringLiteral("predicted")).value(QStringLiteral("samples")).toInt(), 4);
        QCOMPARE(r.last(QStringLiteral("predicted")).value(QStringLiteral("outputs")).toArray().first().toString(),
                 QStringLiteral("logits"));
        QFile a(out), b(QDir(exportDir_).filePath(QStringLiteral("test_outputs.safetensors")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        // Same tensors, same bytes (the metadata differs): compare the data sections' tails.
        const QByteArray mine = a.readAll(), theirs = b.readAll();
        const qsizetype logitsBytes = 4 * 3 * 4; // 4 samples x 3 classes x float32
        QCOMPARE(mine.right(logitsBytes), theirs.right(logitsBytes));
    }

    void predictRefusesForeignWeightsNamingTheTensor() {
        const EngineRun r = runEngine(
            {QStringLiteral("predict"), QStringLiteral("--spec"), example("spirals", "spec.json"),
             QStringLiteral("--weights"), QDir(exportDir_).filePath(QStringLiteral("test_inputs.safetensors")),
             QStringLiteral("--inputs"), QDir(exportDir_).filePath(QStringLiteral("test_inputs.safetensors")),
             QStringLiteral("--output"), path(QStringLiteral("bad.safetensors"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.last(QStringLiteral("error"))
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("fc1.weight")));
        QCOMPARE(
            runEngine({QStringLiteral("predict"), QStringLiteral("--spec"), example("spirals", "spec.json")}).exitCode,
            2);
    }

    void initWeightsStartsFromTheGivenWeights() {
        const QString weights = QDir(exportDir_).filePath(QStringLiteral("model.safetensors"));
        QStringList args = trainArgs(example("spirals", "spec.json"), config_, path(QStringLiteral("finetune")));
        args << QStringLiteral("--init-weights") << weights;
        const EngineRun tuned = runEngine(args);
        QVERIFY2(tuned.exitCode == 0, qPrintable(tuned.stderrText));
        QCOMPARE(tuned.last(QStringLiteral("started")).value(QStringLiteral("init_weights")).toString(), weights);
        const EngineRun fresh =
            runEngine(trainArgs(example("spirals", "spec.json"), config_, path(QStringLiteral("fresh"))));
        auto firstLoss = [](const EngineRun &r) {
            for (const QJsonObject &e : r.ofKind(QStringLiteral("metric")))
                if (e.value(QStringLiteral("name")).toString() == QLatin1String("loss") &&
                    e.value(QStringLiteral("split")).toString() == QLatin1String("train"))
                    return e.value(QStringLiteral("value")).toDouble();
            return -1.0;
        };
        qInfo("first train loss: fresh %.4f, from trained weights %.4f", firstLoss(fresh), firstLoss(tuned));
        QVERIFY(firstLoss(tuned) > 0);
        QVERIFY(firstLoss(tuned) < 0.7 * firstLoss(fresh));

        QStringList wrong = trainArgs(example("shapes_mlp", "spec.json"), example("shapes_mlp", "run.json"),
                                      path(QStringLiteral("wrong")));
        wrong << QStringLiteral("--init-weights") << weights;
        const EngineRun refused = runEngine(wrong);
        QCOMPARE(refused.exitCode, 1);
        QCOMPARE(refused.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("--weights"));
    }

    void packTrainsEachTrialLikeASeparateRun() {
        QJsonArray trials;
        for (const char *name : {"p0", "p1"})
            trials.append(QJsonObject{{QStringLiteral("spec"), example("spirals", "spec.json")},
                                      {QStringLiteral("config"), config_},
                                      {QStringLiteral("run_dir"), path(QLatin1String(name))}});
        trials.append(QJsonObject{{QStringLiteral("spec"), example("spirals", "spec.json")},
                                  {QStringLiteral("config"), path(QStringLiteral("missing.json"))},
                                  {QStringLiteral("run_dir"), path(QStringLiteral("p2"))}});
        const QString pack =
            writeJson(path(QStringLiteral("pack.json")), {{QStringLiteral("format"), QStringLiteral("diamond.pack/1")},
                                                          {QStringLiteral("trials"), trials}});
        const EngineRun r = runEngine({QStringLiteral("pack"), QStringLiteral("--trials"), pack,
                                       QStringLiteral("--threads"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 0);
        const auto exits = r.ofKind(QStringLiteral("trial_exit"));
        QCOMPARE(exits.size(), 3);
        QCOMPARE(exits[0].value(QStringLiteral("exit_code")).toInt(), 0);
        QCOMPARE(exits[2].value(QStringLiteral("exit_code")).toInt(), 1); // its own error, the pack went on
        const auto eventsOf = [&](const char *name) {
            QFile f(QDir(path(QLatin1String(name))).filePath(QStringLiteral("events.jsonl")));
            f.open(QIODevice::ReadOnly);
            return parseEventLines(f.readAll());
        };
        auto weightsOf = [&](const QList<QJsonObject> &events) {
            for (const QJsonObject &e : events)
                if (e.value(QStringLiteral("event")).toString() == QLatin1String("finished"))
                    return e.value(QStringLiteral("weights_sha256")).toString();
            return QString();
        };
        QFile baseEvents(QDir(path(QStringLiteral("base"))).filePath(QStringLiteral("events.jsonl")));
        QVERIFY(baseEvents.open(QIODevice::ReadOnly));
        const QString expected = weightsOf(parseEventLines(baseEvents.readAll()));
        QCOMPARE(expected.size(), 64);
        QCOMPARE(weightsOf(eventsOf("p0")), expected); // same config as the separate "base" run
        QCOMPARE(weightsOf(eventsOf("p1")), expected);
        bool namedField = false;
        for (const QJsonObject &e : eventsOf("p2"))
            namedField = namedField || e.value(QStringLiteral("event")).toString() == QLatin1String("error");
        QVERIFY(namedField);

        const QString bad =
            writeJson(path(QStringLiteral("bad-pack.json")), {{QStringLiteral("format"), QStringLiteral("x")}});
        const EngineRun refused = runEngine({QStringLiteral("pack"), QStringLiteral("--trials"), bad});
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.last(QStringLiteral("error")).value(QStringLiteral("field")).toString(),
                 QStringLiteral("format"));
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainPredict)
#include "tst_diamond_train_predict.moc"
