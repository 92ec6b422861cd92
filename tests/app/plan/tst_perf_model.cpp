// The performance model (app/plan/perf_model.h) against a recorded calibration profile (data/epyc-2ranks-1thread.json:
// `diamond-train calibrate --nproc 2` on the development VM): the profile is parsed and checked, a layer of a probed
// shape costs exactly its probe, costs grow with the batch, ranks share compute and add the all-reduce, the memory is
// the spec analysis's estimate, and every template gets a finite prediction.
#include "common/test_paths.h"

#include "app/plan/perf_model.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace diamond;
using namespace diamond::app;

class TestPerfModel : public QObject {
    Q_OBJECT

    QJsonObject recorded_;
    DeviceProfile profile_;

    static QByteArray oneLinear(int in, int out) {
        return QJsonDocument(
                   QJsonObject{
                       {QStringLiteral("format"), QStringLiteral("diamond.spec/1")},
                       {QStringLiteral("name"), QStringLiteral("one")},
                       {QStringLiteral("inputs"),
                        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                                               {QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), in}}}}},
                       {QStringLiteral("nodes"),
                        QJsonArray{QJsonObject{
                            {QStringLiteral("id"), QStringLiteral("fc")},
                            {QStringLiteral("type"), QStringLiteral("Linear")},
                            {QStringLiteral("inputs"), QJsonArray{QStringLiteral("x")}},
                            {QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), out}}}}}},
                       {QStringLiteral("outputs"),
                        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("y")},
                                               {QStringLiteral("from"), QStringLiteral("fc")}}}}})
            .toJson();
    }
    static QByteArray read(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase() {
        recorded_ = QJsonDocument::fromJson(
                        read(test::sourcePath(QStringLiteral("tests/app/plan/data/epyc-2ranks-1thread.json"))))
                        .object();
        QString error;
        const auto p = DeviceProfile::fromJson(recorded_, &error);
        QVERIFY2(p, qPrintable(error));
        profile_ = *p;
    }

    void theRecordedProfileIsRead() {
        QCOMPARE(profile_.linear.size(), 4);
        QCOMPARE(profile_.conv2d.size(), 3);
        QCOMPARE(profile_.allReduce.size(), 7);
        QCOMPARE(profile_.elementwise.size(), 3);
        QVERIFY(profile_.elementwiseSecondsPerElement > 0);
        QVERIFY(profile_.adamNsPerParam > profile_.sgdNsPerParam);
        for (qsizetype i = 1; i < profile_.linear.size(); ++i)
            QVERIFY(profile_.linear[i].flops > profile_.linear[i - 1].flops);
    }

    void malformedProfilesAreRefused() {
        QString error;
        QJsonObject bad = recorded_;
        bad.insert(QStringLiteral("format"), QStringLiteral("something/1"));
        QVERIFY(!DeviceProfile::fromJson(bad, &error));
        QVERIFY(error.contains(QStringLiteral("format")));
        bad = recorded_;
        bad.insert(QStringLiteral("linear"), QJsonArray{QJsonObject{{QStringLiteral("seconds"), -1}}});
        QVERIFY(!DeviceProfile::fromJson(bad, &error));
        QVERIFY(error.contains(QStringLiteral("linear")));
        bad = recorded_;
        bad.remove(QStringLiteral("elementwise"));
        QVERIFY(!DeviceProfile::fromJson(bad, &error));
    }

    void aProbedShapeCostsItsProbe() {
        // The 128 x 784 -> 512 probe: the layer's prediction is that probe's time, plus Adam's cost per parameter.
        StepInputs in;
        in.batch = 128;
        in.threadsPerRank = profile_.threads;
        const StepPrediction p = predictStep(oneLinear(784, 512), in, profile_);
        QVERIFY2(p.ok, qPrintable(p.error));
        double probe = 0;
        for (const QJsonValue &v : recorded_.value(QStringLiteral("linear")).toArray())
            if (v[QStringLiteral("in")].toInt() == 784) probe = v[QStringLiteral("seconds")].toDouble();
        QVERIFY(probe > 0);
        QCOMPARE(p.nodes.size(), 1);
        QCOMPARE(p.nodes[0].basis, QStringLiteral("linear"));
        // The analysis counts the bias too (0.06 % more FLOPs than the probe's 2 * in * out per sample).
        QVERIFY2(std::abs(p.nodes[0].seconds / probe - 1) < 1e-3,
                 qPrintable(QString::number(p.nodes[0].seconds / probe)));
        const qint64 params = 784 * 512 + 512;
        QCOMPARE(p.parameters, params);
        QVERIFY(qFuzzyCompare(p.optimizerSeconds, double(params) * profile_.adamNsPerParam * 1e-9));
        QVERIFY(qFuzzyCompare(p.stepSeconds, p.nodes[0].seconds + p.optimizerSeconds + p.stepOverheadSeconds));
        QCOMPARE(p.confidence, QStringLiteral("medium"));
    }

    void theReferenceStepIsPredictedAsMeasured() {
        // The overhead is what the probes do not explain of the reference network's measured step, so that network
        // is predicted at exactly its measured time, with one rank and with two.
        QVERIFY(profile_.reference && profile_.referenceRanks);
        for (const auto &ref : {*profile_.reference, *profile_.referenceRanks}) {
            StepInputs in;
            in.batch = ref.batch;
            in.optimizer = ref.optimizer;
            in.ranks = ref.ranks;
            in.threadsPerRank = profile_.threads;
            const StepPrediction p = predictStep(ref.spec, in, profile_);
            QVERIFY2(p.ok, qPrintable(p.error));
            QVERIFY(p.stepOverheadSeconds >= 0);
            if (p.stepOverheadSeconds > 0)
                QVERIFY2(qFuzzyCompare(p.stepSeconds, ref.stepSeconds),
                         qPrintable(QStringLiteral("%1 vs %2").arg(p.stepSeconds).arg(ref.stepSeconds)));
            QCOMPARE(predictStep(ref.spec, in, profile_, false).stepSeconds + p.stepOverheadSeconds, p.stepSeconds);
        }
        QCOMPARE(profile_.referenceRanks->ranks, 2);
    }

    void costsGrowWithTheBatchAndRanksShareThem() {
        const QByteArray spec = read(test::sourcePath(QStringLiteral("resources/templates/mlp.json")));
        StepInputs in;
        in.threadsPerRank = 1;
        in.batch = 64;
        const StepPrediction small = predictStep(spec, in, profile_);
        in.batch = 256;
        const StepPrediction large = predictStep(spec, in, profile_);
        QVERIFY(small.ok && large.ok);
        QVERIFY(large.computeSeconds > small.computeSeconds);
        QVERIFY(large.peakMemoryBytes > small.peakMemoryBytes);
        in.ranks = 2;
        const StepPrediction two = predictStep(spec, in, profile_);
        QVERIFY2(two.ok, qPrintable(two.error));
        QVERIFY(two.computeSeconds < large.computeSeconds); // half the batch per rank
        QVERIFY(two.allReduceSeconds > 0);
        QCOMPARE(large.allReduceSeconds, 0.0);
        in.batch = 255;
        const StepPrediction odd = predictStep(spec, in, profile_);
        QVERIFY(!odd.ok);
        QVERIFY2(odd.error.contains(QStringLiteral("255")), qPrintable(odd.error));
    }

    void memoryIsTheSpecAnalysisEstimate() {
        const QByteArray spec = read(test::sourcePath(QStringLiteral("resources/templates/cnn28.json")));
        StepInputs in;
        in.batch = 32;
        in.optimizer = QStringLiteral("sgd");
        in.momentum = 0.9;
        const StepPrediction p = predictStep(spec, in, profile_);
        QVERIFY2(p.ok, qPrintable(p.error));
        const spec::ParseResult parsed = spec::parseSpec(std::string_view(spec.constData(), spec.size()));
        spec::MemoryOptions m;
        m.batch = 32;
        m.optimizer = spec::Optimizer::SGDMomentum;
        QCOMPARE(p.peakMemoryBytes, spec::estimateMemory(spec::analyze(parsed.spec), m).total());
    }

    /// The runtime's own memory: what the reference step's measured peak holds beyond its network and data, or the
    /// dry run's when that is more; the data adds itself.
    void memoryAddsTheDataAndTheRuntimesOwn() {
        constexpr qint64 kMiB = 1 << 20;
        QVERIFY(profile_.reference);
        StepInputs refIn;
        refIn.batch = profile_.reference->batch;
        refIn.optimizer = profile_.reference->optimizer;
        refIn.threadsPerRank = profile_.threads;
        const qint64 referenceNetwork = predictStep(profile_.reference->spec, refIn, profile_, false).peakMemoryBytes;
        QJsonObject doc = recorded_;
        QJsonObject reference = doc.value(QStringLiteral("reference_step")).toObject();
        reference.insert(QStringLiteral("peak_growth_bytes"), referenceNetwork + 3 * kMiB + 20 * kMiB);
        reference.insert(QStringLiteral("data_bytes"), 3 * kMiB);
        doc.insert(QStringLiteral("reference_step"), reference);
        QString error;
        const auto measured = DeviceProfile::fromJson(doc, &error);
        QVERIFY2(measured, qPrintable(error));

        const QByteArray spec = read(test::sourcePath(QStringLiteral("resources/templates/cnn28.json")));
        StepInputs in;
        in.batch = 64;
        in.dataBytes = 5 * kMiB;
        const qint64 network = predictStep(spec, in, profile_, false).peakMemoryBytes - in.dataBytes;
        StepPrediction p = predictStep(spec, in, *measured);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.memoryOverheadBytes, 20 * kMiB);
        QCOMPARE(p.memoryBasis, QStringLiteral("reference step"));
        QCOMPARE(p.peakMemoryBytes, network + 5 * kMiB + 20 * kMiB);
        // A dry run of this network that measured more: its figure counts.
        in.dryRunBatch = 64;
        in.dryRunPeakGrowthBytes = network + 5 * kMiB + 31 * kMiB;
        p = predictStep(spec, in, *measured);
        QCOMPARE(p.memoryOverheadBytes, 31 * kMiB);
        QCOMPARE(p.memoryBasis, QStringLiteral("dry run"));
        // ... at its own batch: with 2 ranks each holds half the activations, all the data and the same runtime.
        in.ranks = 2;
        const StepPrediction two = predictStep(spec, in, *measured);
        QCOMPARE(two.memoryOverheadBytes, 31 * kMiB);
        QVERIFY(two.peakMemoryBytes < p.peakMemoryBytes);
        QVERIFY(two.peakMemoryBytes > 5 * kMiB + 31 * kMiB);
        in.ranks = 1;
        // One that measured less does not lower the reference step's.
        in.dryRunPeakGrowthBytes = network + 5 * kMiB + 2 * kMiB;
        p = predictStep(spec, in, *measured);
        QCOMPARE(p.memoryOverheadBytes, 20 * kMiB);
        // Without any measurement the prediction says what it leaves out.
        in.dryRunPeakGrowthBytes = -1;
        p = predictStep(spec, in, profile_);
        QCOMPARE(p.memoryBasis, QStringLiteral("estimate only"));
        QVERIFY(p.notes.join(QLatin1Char(' ')).contains(QStringLiteral("memory")));
    }

    void everyTemplateGetsAPrediction() {
        const QDir dir(test::sourcePath(QStringLiteral("resources/templates")));
        int count = 0;
        for (const QString &name : dir.entryList({QStringLiteral("*.json")})) {
            StepInputs in;
            in.batch = 16;
            const StepPrediction p = predictStep(read(dir.filePath(name)), in, profile_);
            QVERIFY2(p.ok, qPrintable(name + QStringLiteral(": ") + p.error));
            QVERIFY2(std::isfinite(p.stepSeconds) && p.stepSeconds > 0, qPrintable(name));
            QVERIFY2(p.peakMemoryBytes > 0, qPrintable(name));
            ++count;
        }
        QVERIFY(count >= 7);
        QVERIFY(!predictStep("{\"format\": \"diamond.spec/1\"", {}, profile_).ok);
    }
};

QTEST_GUILESS_MAIN(TestPerfModel)
#include "tst_perf_model.moc"
