// diamond-train's device and precision choices as a process: bf16 autocast on the CPU (trains, resumes bit-exactly,
// leaves precision-independent checkpoints), deterministic mode, and the errors for what this build cannot do
// (fp16 on the CPU, CUDA in a build without it), which name the field, the device and what the build supports.
#include "common/engine_process.h"

#include <QDir>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::test;

class TestDiamondTrainPrecision : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    /// The shapes_cnn example for `steps` steps, with `extra` fields set, written under `name`.
    QString cnnConfig(const QString &name, int steps, const QJsonObject &extra) {
        return writeExampleConfig("shapes_cnn", dir_.filePath(name + QStringLiteral(".json")), steps, extra);
    }

    static QString sha(const EngineRun &r) {
        return r.last(QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString();
    }
    static double valAccuracy(const EngineRun &r) {
        return r.last(QStringLiteral("finished"))
            .value(QStringLiteral("metrics"))
            .toObject()
            .value(QStringLiteral("val_accuracy"))
            .toDouble();
    }

private Q_SLOTS:
    void bf16TrainsAndResumesBitExactly() {
        const QString spec = example("shapes_cnn", "spec.json");
        const QString fp32 = cnnConfig(QStringLiteral("fp32"), 60, {});
        const QString bf16 =
            cnnConfig(QStringLiteral("bf16"), 60, {{QStringLiteral("precision"), QStringLiteral("bf16")}});
        const EngineRun full32 = runEngine(trainArgs(spec, fp32, dir_.filePath(QStringLiteral("fp32"))));
        QVERIFY2(full32.exitCode == 0, qPrintable(full32.stderrText));
        const EngineRun full16 = runEngine(trainArgs(spec, bf16, dir_.filePath(QStringLiteral("bf16"))));
        QVERIFY2(full16.exitCode == 0, qPrintable(full16.stderrText));
        QCOMPARE(full16.last(QStringLiteral("started")).value(QStringLiteral("precision")).toString(),
                 QStringLiteral("bf16"));
        // Autocast really ran: other rounding, other weights; and the network still learned (4 classes: chance 0.25).
        QVERIFY(sha(full16) != sha(full32));
        qInfo("val accuracy after 60 steps: fp32 %.3f, bf16 %.3f", valAccuracy(full32), valAccuracy(full16));
        QVERIFY2(valAccuracy(full16) >= 0.45, qPrintable(QString::number(valAccuracy(full16))));

        // Killed after step 20 (only its checkpoint kept), then resumed: the same weights as the run never stopped.
        const QString runDir = dir_.filePath(QStringLiteral("bf16-resumed"));
        QCOMPARE(runEngine(trainArgs(spec, bf16, runDir)).exitCode, 0);
        QDir checkpoints(QDir(runDir).filePath(QStringLiteral("checkpoints")));
        const QStringList written = checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files, QDir::Name);
        QCOMPARE(written.size(), 3); // steps 20, 40, 60
        QVERIFY(checkpoints.remove(written[1]) && checkpoints.remove(written[2]));
        const EngineRun resumed = runEngine(trainArgs(spec, bf16, runDir) << QStringLiteral("--resume"));
        QCOMPARE(resumed.exitCode, 0);
        QCOMPARE(resumed.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 20);
        QCOMPARE(sha(resumed), sha(full16));

        // The checkpoint holds float32 weights and state: a bf16 checkpoint continues in fp32.
        QVERIFY(
            checkpoints.remove(checkpoints.entryList({QStringLiteral("step-*.pt")}, QDir::Files, QDir::Name).last()));
        const EngineRun asFp32 = runEngine(trainArgs(spec, fp32, runDir) << QStringLiteral("--resume"));
        QVERIFY2(asFp32.exitCode == 0, qPrintable(asFp32.stderrText));
        QCOMPARE(asFp32.last(QStringLiteral("started")).value(QStringLiteral("start_step")).toInt(), 40);
        QVERIFY(sha(asFp32) != sha(full16));
    }

    void deterministicModeKeepsTheCpuResult() {
        const QString spec = example("shapes_cnn", "spec.json");
        const EngineRun plain = runEngine(
            trainArgs(spec, cnnConfig(QStringLiteral("plain"), 30, {}), dir_.filePath(QStringLiteral("plain"))));
        const EngineRun deterministic =
            runEngine(trainArgs(spec, cnnConfig(QStringLiteral("det"), 30, {{QStringLiteral("deterministic"), true}}),
                                dir_.filePath(QStringLiteral("det"))));
        QVERIFY2(deterministic.exitCode == 0, qPrintable(deterministic.stderrText));
        QVERIFY(deterministic.last(QStringLiteral("started")).value(QStringLiteral("deterministic")).toBool());
        QCOMPARE(sha(deterministic), sha(plain));
    }

    void fp16OnTheCpuIsRefused() {
        const QString runDir = dir_.filePath(QStringLiteral("fp16"));
        const EngineRun r = runEngine(trainArgs(
            example("shapes_cnn", "spec.json"),
            cnnConfig(QStringLiteral("fp16"), 10, {{QStringLiteral("precision"), QStringLiteral("fp16")}}), runDir));
        QCOMPARE(r.exitCode, 1);
        const QJsonObject error = r.last(QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("precision"));
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("fp16")) && message.contains(QStringLiteral("cpu")),
                 qPrintable(message));
        QVERIFY(error.value(QStringLiteral("hint")).toString().contains(QStringLiteral("bf16")));
        QVERIFY(!QDir(runDir + QStringLiteral("/checkpoints")).exists());
    }

    void cudaWithoutCudaNamesTheDeviceAndWhatThisBuildSupports_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("device");
        QTest::newRow("cuda") << QStringList{QStringLiteral("--device"), QStringLiteral("cuda")}
                              << QStringLiteral("cuda");
        QTest::newRow("cuda:1") << QStringList{QStringLiteral("--device"), QStringLiteral("cuda:1")}
                                << QStringLiteral("cuda:1");
        QTest::newRow("two ranks") << QStringList{QStringLiteral("--device"), QStringLiteral("cuda"),
                                                  QStringLiteral("--nproc"), QStringLiteral("2")}
                                   << QStringLiteral("cuda");
    }
    void cudaWithoutCudaNamesTheDeviceAndWhatThisBuildSupports() {
        QFETCH(QStringList, extra);
        QFETCH(QString, device);
        const QString runDir = dir_.filePath(QStringLiteral("cuda-") + QString::fromLatin1(QTest::currentDataTag()));
        QStringList args = trainArgs(example("spirals", "spec.json"), example("spirals", "run.json"), runDir);
        args.removeLast(); // "--threads 1": each rank of --nproc gets its share
        args.removeLast();
        const EngineRun r = runEngine(args << extra);
        QCOMPARE(r.exitCode, 1);
        const QJsonObject error = r.last(QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("field")).toString(), QStringLiteral("device"));
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(message.contains(QStringLiteral("'%1'").arg(device)), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("cpu only (libtorch 1.")) &&
                     message.contains(QStringLiteral("without CUDA")),
                 qPrintable(message));
        QVERIFY(r.ofKind(QStringLiteral("started")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDiamondTrainPrecision)
#include "tst_diamond_train_precision.moc"
