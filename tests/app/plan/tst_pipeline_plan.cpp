// Pipeline stages placed by the performance model (app/plan/pipeline_plan.h) on a recorded calibration profile
// (data/epyc-2ranks-1thread-v3.json, `diamond-train calibrate --nproc 2` with point-to-point send timings): the chosen
// cut is the best of all cuts under the model, the step follows the GPipe arithmetic from the stages' figures, each
// stage holds less than the whole network, transfers come from the profile's sends (or the loopback figures without
// them), and bad requests say why.
#include "common/spec_builders.h"
#include "common/test_paths.h"

#include "app/plan/pipeline_plan.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <algorithm>

using namespace diamond::app;

namespace {

QByteArray read(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The 12-layer chain of bench_pipeline.py: Linear layers of `widths` with ReLUs between.
QByteArray chain(const QList<int> &widths) {
    return QJsonDocument(diamond::test::linearChainSpec(widths, true)).toJson(QJsonDocument::Compact);
}

double slowestStage(const PipelinePrediction &p) {
    double worst = 0;
    for (const StagePrediction &s : p.stages)
        worst = std::max(worst, s.computeSeconds + s.transferSeconds);
    return worst;
}

} // namespace

class TestPipelinePlan : public QObject {
    Q_OBJECT

    DeviceProfile profile_;
    const QList<int> widths_{512, 1024, 256, 1024, 512, 2048, 256, 512, 1024, 256, 512, 3};

    StepInputs inputs(qint64 batch = 256) const {
        StepInputs in;
        in.batch = batch;
        in.optimizer = QStringLiteral("adam");
        in.threadsPerRank = 1;
        return in;
    }

private Q_SLOTS:
    void initTestCase() {
        QString error;
        const auto p = DeviceProfile::fromJson(
            QJsonDocument::fromJson(
                read(diamond::test::sourcePath(QStringLiteral("tests/app/plan/data/epyc-2ranks-1thread-v3.json"))))
                .object(),
            &error);
        QVERIFY2(p, qPrintable(error));
        profile_ = *p;
        QCOMPARE(profile_.send.size(), 6);
    }

    void transfersComeFromTheProfilesSends() {
        // Between the recorded sizes the line through them; the 512 KiB probe itself.
        QCOMPARE(transferSeconds(profile_, profile_.send[3].first), profile_.send[3].second);
        QVERIFY(transferSeconds(profile_, 300000) > transferSeconds(profile_, 131072));
        QVERIFY(transferSeconds(profile_, 300000) < transferSeconds(profile_, 524288));
        QCOMPARE(transferSeconds(profile_, 0), 0.0);
        // Without sends: 0.05 ms + 3.5 GB/s, however slow the profile's all-reduce.
        DeviceProfile noSends = profile_;
        noSends.send.clear();
        QCOMPARE(transferSeconds(noSends, 3.5e6), 5e-5 + 1e-3);
    }

    void theChosenCutIsTheBestOfAllCuts() {
        const QByteArray spec = chain(widths_);
        PipelineInputs pipe;
        pipe.stages = 2;
        pipe.microBatches = 4;
        const PipelinePrediction chosen = predictPipeline(spec, inputs(), pipe, profile_);
        QVERIFY2(chosen.ok, qPrintable(chosen.error));
        QVERIFY(chosen.cutChosen);
        QCOMPARE(chosen.cut.size(), 1);
        QCOMPARE(chosen.stages.size(), 2);
        QCOMPARE(chosen.stages[0].nodes.size() + chosen.stages[1].nodes.size(), qsizetype(2 * widths_.size() - 1));
        int tried = 0;
        for (int i = 0; i + 1 < 2 * widths_.size() - 1; ++i) {
            PipelineInputs given = pipe;
            given.cut = {i % 2 == 0 ? QStringLiteral("fc%1").arg(i / 2) : QStringLiteral("relu%1").arg(i / 2)};
            const PipelinePrediction other = predictPipeline(spec, inputs(), given, profile_);
            QVERIFY2(other.ok, qPrintable(other.error));
            QVERIFY(!other.cutChosen);
            QVERIFY2(slowestStage(other) >= slowestStage(chosen) * (1 - 1e-12), qPrintable(given.cut.first()));
            ++tried;
        }
        QCOMPARE(tried, 22);
        // The step: every stage once for the first micro-batch, the slowest for the other three, then the slowest
        // update.
        double sum = 0, slowestUpdate = 0;
        for (const StagePrediction &s : chosen.stages) {
            sum += s.computeSeconds + s.transferSeconds;
            slowestUpdate = std::max(slowestUpdate, s.optimizerSeconds);
            QVERIFY(s.transferSeconds > 0);
            QCOMPARE(s.stepSeconds, (s.computeSeconds + s.transferSeconds) * 4 + s.optimizerSeconds);
        }
        QVERIFY(qAbs(chosen.stepSeconds - (sum + 3 * slowestStage(chosen) + slowestUpdate)) < 1e-12);
        QVERIFY(chosen.bubbleFraction > 0 && chosen.bubbleFraction < 0.5);
        qInfo("cut after %s: stages %.2f / %.2f ms per micro-batch, step %.1f ms, waiting %.0f %%",
              qPrintable(chosen.cut.first()),
              (chosen.stages[0].computeSeconds + chosen.stages[0].transferSeconds) * 1e3,
              (chosen.stages[1].computeSeconds + chosen.stages[1].transferSeconds) * 1e3, chosen.stepSeconds * 1e3,
              chosen.bubbleFraction * 100);
    }

    void eachStageHoldsLessThanTheWholeNetwork() {
        const QByteArray spec = chain(widths_);
        PipelineInputs pipe;
        pipe.stages = 3;
        const PipelinePrediction p = predictPipeline(spec, inputs(), pipe, profile_);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.stages.size(), 3);
        const StepPrediction whole = predictStep(spec, inputs(), profile_);
        QVERIFY(whole.ok);
        qint64 parameters = 0;
        for (const StagePrediction &s : p.stages) {
            parameters += s.parameters;
            QVERIFY(s.peakMemoryBytes > 0);
            QVERIFY(s.peakMemoryBytes < whole.peakMemoryBytes);
        }
        QCOMPARE(parameters, whole.parameters);
        QCOMPARE(p.peakMemoryBytes,
                 std::max({p.stages[0].peakMemoryBytes, p.stages[1].peakMemoryBytes, p.stages[2].peakMemoryBytes}));
    }

    void badRequestsSayWhy() {
        const QByteArray spec = chain({8, 3});
        PipelineInputs pipe;
        pipe.stages = 2;
        pipe.microBatches = 3; // 256 is not a multiple
        PipelinePrediction p = predictPipeline(spec, inputs(), pipe, profile_);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.contains(QStringLiteral("divide")), qPrintable(p.error));
        pipe.microBatches = 4;
        pipe.stages = 5; // three nodes
        p = predictPipeline(spec, inputs(), pipe, profile_);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.contains(QStringLiteral("too few layers")), qPrintable(p.error));
        pipe.stages = 2;
        pipe.cut = {QStringLiteral("nope")};
        p = predictPipeline(spec, inputs(), pipe, profile_);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.contains(QStringLiteral("'nope'")), qPrintable(p.error));
        QVERIFY(!predictPipeline("{", inputs(), PipelineInputs{}, profile_).ok);
    }
};

QTEST_GUILESS_MAIN(TestPipelinePlan)
#include "tst_pipeline_plan.moc"
