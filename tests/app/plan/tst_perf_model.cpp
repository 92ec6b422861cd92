// The performance model (app/plan/perf_model.h) against recorded calibration profiles (data/epyc-2ranks-1thread.json
// and, from the calibration of 2026-12-07, -v2.json: `diamond-train calibrate --nproc 2` on the development VM): the
// profile is parsed and checked, a layer of a probed shape costs exactly its probe, costs grow with the batch, ranks
// share compute and add the all-reduce, the memory is the spec analysis's estimate, and every template gets a finite
// prediction.
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
    QJsonObject current_; ///< a profile of today's calibration (data/epyc-2ranks-1thread-v2.json): probes of
                          ///< convolutions by input channels, elementwise kinds, the reference at two batches
    DeviceProfile profile2_;

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
    /// A chain of nodes (JSON objects without "inputs": each takes the previous one, the first the input `x`).
    static QByteArray chain(const QJsonArray &inputShape, const QList<QJsonObject> &nodes) {
        QJsonArray list;
        QString previous = QStringLiteral("x");
        for (QJsonObject n : nodes) {
            n.insert(QStringLiteral("inputs"), QJsonArray{previous});
            previous = n.value(QStringLiteral("id")).toString();
            list.append(n);
        }
        return QJsonDocument(
                   QJsonObject{
                       {QStringLiteral("format"), QStringLiteral("diamond.spec/1")},
                       {QStringLiteral("name"), QStringLiteral("chain")},
                       {QStringLiteral("inputs"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                                                                         {QStringLiteral("shape"), inputShape}}}},
                       {QStringLiteral("nodes"), list},
                       {QStringLiteral("outputs"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("y")},
                                                                          {QStringLiteral("from"), previous}}}}})
            .toJson();
    }
    static QJsonObject node(const char *id, const char *type, const QJsonObject &params = {}) {
        return {{QStringLiteral("id"), QLatin1String(id)},
                {QStringLiteral("type"), QLatin1String(type)},
                {QStringLiteral("params"), params}};
    }
    static QJsonObject conv(const char *id, int out, int kernel, int padding) {
        return node(id, "Conv2d",
                    {{QStringLiteral("out_channels"), out},
                     {QStringLiteral("kernel_size"), kernel},
                     {QStringLiteral("padding"), padding}});
    }
    static const NodeCost &cost(const StepPrediction &p, const char *id) {
        for (const NodeCost &n : p.nodes)
            if (n.id == QLatin1String(id)) return n;
        qFatal("no node %s", id);
    }
    static double probeSeconds(const QJsonObject &profile, const char *key, const char *field, int value) {
        for (const QJsonValue &v : profile.value(QLatin1String(key)).toArray())
            if (v[QLatin1String(field)].toInt() == value) return v[QStringLiteral("seconds")].toDouble();
        return 0;
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
        current_ = QJsonDocument::fromJson(
                       read(test::sourcePath(QStringLiteral("tests/app/plan/data/epyc-2ranks-1thread-v2.json"))))
                       .object();
        const auto p2 = DeviceProfile::fromJson(current_, &error);
        QVERIFY2(p2, qPrintable(error));
        profile2_ = *p2;
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

    /// A profile is a file from a cluster: malformed new fields are skipped, never trusted into a prediction.
    void hostileProfileFieldsAreSkipped() {
        QJsonObject doc = current_;
        doc.insert(QStringLiteral("conv2d"), QJsonArray{QJsonObject{{QStringLiteral("batch"), 8},
                                                                    {QStringLiteral("in_channels"), 0},
                                                                    {QStringLiteral("out_channels"), 8},
                                                                    {QStringLiteral("size"), 8},
                                                                    {QStringLiteral("seconds"), 0.001}},
                                                        QJsonObject{{QStringLiteral("batch"), 8},
                                                                    {QStringLiteral("in_channels"), -4},
                                                                    {QStringLiteral("out_channels"), 8},
                                                                    {QStringLiteral("size"), 8},
                                                                    {QStringLiteral("seconds"), 1e308}},
                                                        QJsonObject{{QStringLiteral("batch"), 1e300},
                                                                    {QStringLiteral("in_channels"), 1e300},
                                                                    {QStringLiteral("out_channels"), 1e300},
                                                                    {QStringLiteral("size"), 8},
                                                                    {QStringLiteral("seconds"), 1}}});
        doc.insert(
            QStringLiteral("elementwise_kinds"),
            QJsonObject{
                {QStringLiteral("transcendental"), QStringLiteral("fast")},
                {QStringLiteral("pooling"),
                 QJsonObject{
                     {QStringLiteral("points"),
                      QJsonArray{QJsonObject{{QStringLiteral("elements"), -1}, {QStringLiteral("seconds"), 1}},
                                 QJsonObject{{QStringLiteral("elements"), 4096}, {QStringLiteral("seconds"), -1}}}}}}});
        QJsonObject reference = doc.value(QStringLiteral("reference_step")).toObject();
        reference.insert(QStringLiteral("larger_batch"),
                         QJsonObject{{QStringLiteral("batch"), 8}, {QStringLiteral("step_s"), -5}});
        doc.insert(QStringLiteral("reference_step"), reference);
        doc.insert(QStringLiteral("reference_step_ranks_conv"), QStringLiteral("none"));
        doc.insert(QStringLiteral("reference_step_conv"), QJsonObject{{QStringLiteral("spec"), 5}});
        doc.insert(QStringLiteral("gpu_name"), QString(1000, QLatin1Char('x')));
        doc.insert(QStringLiteral("device_memory_bytes"), 1e20);
        doc.insert(QStringLiteral("device_memory_usable_bytes"), 4096.0); // a CPU profile: ignored
        QString error;
        const auto hostile = DeviceProfile::fromJson(doc, &error);
        QVERIFY2(hostile, qPrintable(error));
        QVERIFY(hostile->convRateByChannels.isEmpty()); // no valid channel-varied probes: the FLOP curve
        QVERIFY(hostile->elementwiseKinds.isEmpty());
        QCOMPARE(hostile->reference->largerBatch, 0);
        QVERIFY(!hostile->referenceRanksConv);
        QVERIFY(!hostile->referenceConv);
        QCOMPARE(hostile->gpuName.size(), 128);
        QCOMPARE(hostile->deviceMemoryBytes, 0);
        QCOMPARE(hostile->deviceMemoryUsableBytes, 0);
        doc.insert(QStringLiteral("device"), QStringLiteral("cuda"));
        doc.insert(QStringLiteral("device_memory_usable_bytes"), QStringLiteral("lots"));
        const auto gpu = DeviceProfile::fromJson(doc, &error);
        QVERIFY2(gpu, qPrintable(error));
        QCOMPARE(gpu->deviceMemoryBytes, 0); // 1e20 bytes: not a GPU
        QCOMPARE(gpu->deviceMemoryUsableBytes, 0);
        StepInputs in;
        in.batch = 32;
        in.ranks = 2;
        in.threadsPerRank = 1;
        const StepPrediction p =
            predictStep(read(test::sourcePath(QStringLiteral("resources/templates/lenet5.json"))), in, *hostile);
        QVERIFY2(p.ok, qPrintable(p.error));
        QVERIFY(std::isfinite(p.stepSeconds) && p.stepSeconds > 0);
        QCOMPARE(p.rankContention, 0.0);
    }

    void aProbedShapeCostsItsProbe() {
        // The 128 x 784 -> 512 probe (which computes its input's gradient, as a layer inside a network does): the
        // layer's prediction behind another layer is that probe's time, plus Adam's cost per parameter.
        StepInputs in;
        in.batch = 128;
        in.threadsPerRank = profile_.threads;
        const QList<QJsonObject> layers{node("fc0", "Linear", {{QStringLiteral("out_features"), 784}}),
                                        node("fc", "Linear", {{QStringLiteral("out_features"), 512}})};
        const StepPrediction p = predictStep(chain({QStringLiteral("N"), 784}, layers), in, profile_);
        QVERIFY2(p.ok, qPrintable(p.error));
        const double probe = probeSeconds(recorded_, "linear", "in", 784);
        QVERIFY(probe > 0);
        QCOMPARE(p.nodes.size(), 2);
        QCOMPARE(cost(p, "fc").basis, QStringLiteral("linear"));
        // The analysis counts the bias too (0.06 % more FLOPs than the probe's 2 * in * out per sample).
        QVERIFY2(std::abs(cost(p, "fc").seconds / probe - 1) < 1e-3,
                 qPrintable(QString::number(cost(p, "fc").seconds / probe)));
        const qint64 params = 784 * 784 + 784 + 784 * 512 + 512;
        QCOMPARE(p.parameters, params);
        QVERIFY(qFuzzyCompare(p.optimizerSeconds, double(params) * profile_.adamNsPerParam * 1e-9));
        QVERIFY(qFuzzyCompare(p.stepSeconds,
                              p.nodes[0].seconds + p.nodes[1].seconds + p.optimizerSeconds + p.stepOverheadSeconds));
        QCOMPARE(p.confidence, QStringLiteral("medium"));

        // Fed by the data, which needs no gradient, the same layer does 2/3 of the work: it costs the Linear rate
        // at 2/3 of the probe's FLOPs, less than the probe.
        const StepPrediction first = predictStep(oneLinear(784, 512), in, profile_);
        QVERIFY2(first.ok, qPrintable(first.error));
        QVERIFY2(first.nodes[0].seconds < 0.9 * probe,
                 qPrintable(QStringLiteral("%1 vs %2").arg(first.nodes[0].seconds).arg(probe)));
        // ... also behind parameter-free layers (a Flatten of the image).
        const StepPrediction flattened = predictStep(
            chain({QStringLiteral("N"), 1, 28, 28},
                  {node("flatten", "Flatten"), node("fc", "Linear", {{QStringLiteral("out_features"), 512}})}),
            in, profile_);
        QVERIFY2(flattened.ok, qPrintable(flattened.error));
        QVERIFY(qFuzzyCompare(cost(flattened, "fc").seconds, first.nodes[0].seconds));
    }

    /// Convolutions run at the Conv2d probes' rate for their input channels: on the CPU one input channel runs many
    /// times slower per FLOP than 32, whatever the layer's size.
    void convolutionsCostByTheirInputChannels() {
        QCOMPARE(profile2_.convRateByChannels.size(), 4);
        StepInputs in;
        in.batch = 32;
        in.threadsPerRank = profile2_.threads;
        // The probe with 8 input channels (32 x 8 -> 16 at 28 x 28), behind a layer so that its input needs a
        // gradient as in the probe.
        const StepPrediction p = predictStep(
            chain({QStringLiteral("N"), 8, 28, 28}, {conv("c0", 8, 1, 0), conv("c", 16, 3, 1)}), in, profile2_);
        QVERIFY2(p.ok, qPrintable(p.error));
        const double probe = probeSeconds(current_, "conv2d", "in_channels", 8);
        QVERIFY(probe > 0);
        QCOMPARE(cost(p, "c").basis, QStringLiteral("conv2d"));
        // (the analysis counts the bias: 1/72 more FLOPs)
        QVERIFY2(std::abs(cost(p, "c").seconds / probe - 1) < 0.02,
                 qPrintable(QString::number(cost(p, "c").seconds / probe)));
        // Rates per FLOP: 1 channel < 8 < 16 < 32, 16 between its neighbours.
        auto rateAt = [&](int channels) {
            const StepPrediction q = predictStep(
                chain({QStringLiteral("N"), channels, 28, 28}, {conv("c0", channels, 1, 0), conv("c", 16, 3, 1)}), in,
                profile2_);
            return double(channels) * 16.0 * 9.0 * 28 * 28 * 6.0 * 32 / cost(q, "c").seconds;
        };
        const double r1 = rateAt(1), r8 = rateAt(8), r16 = rateAt(16), r32 = rateAt(32);
        QVERIFY2(r1 < r8 && r8 < r16 && r16 < r32,
                 qPrintable(QStringLiteral("%1 %2 %3 %4").arg(r1).arg(r8).arg(r16).arg(r32)));
        QVERIFY2(r32 > 3 * r1, qPrintable(QStringLiteral("%1 %2").arg(r1).arg(r32)));
    }

    /// Tanh, pooling and normalisation layers cost their own probe's time, not a ReLU's; a profile without those
    /// probes falls back to the ReLU probe.
    void dearerLayersCostTheirKindsProbe() {
        StepInputs in;
        in.batch = 256; // 256 x 1024 = the probes' 256 Ki elements
        in.threadsPerRank = profile2_.threads;
        const QByteArray spec = chain({QStringLiteral("N"), 1024},
                                      {node("fc", "Linear", {{QStringLiteral("out_features"), 1024}}),
                                       node("tanh", "Tanh"), node("sigmoid", "Sigmoid"), node("gelu", "GELU")});
        const StepPrediction p = predictStep(spec, in, profile2_);
        QVERIFY2(p.ok, qPrintable(p.error));
        double tanhProbe = 0;
        for (const QJsonValue &v :
             current_[QStringLiteral("elementwise_kinds")][QStringLiteral("transcendental")][QStringLiteral("points")]
                 .toArray())
            if (v[QStringLiteral("elements")].toInt() == 1 << 18) tanhProbe = v[QStringLiteral("seconds")].toDouble();
        QVERIFY(tanhProbe > 0);
        for (const char *id : {"tanh", "sigmoid", "gelu"}) {
            QCOMPARE(cost(p, id).basis, QStringLiteral("transcendental"));
            QVERIFY(qFuzzyCompare(cost(p, id).seconds, tanhProbe));
        }
        const StepPrediction old = predictStep(spec, in, profile_);
        QCOMPARE(cost(old, "tanh").basis, QStringLiteral("elementwise"));
        QVERIFY(cost(p, "tanh").seconds > 2 * cost(old, "tanh").seconds);
        // A tiny Tanh (2 Ki elements) is extrapolated below the smallest Tanh probe (16 Ki), down to half the smallest
        // ReLU probe at least: not held at half the smallest Tanh probe.
        in.batch = 2;
        const StepPrediction tiny = predictStep(spec, in, profile2_);
        const double smallestTanh = profile2_.elementwiseKinds.value(QStringLiteral("transcendental")).first().second;
        QVERIFY2(cost(tiny, "tanh").seconds < 0.5 * smallestTanh,
                 qPrintable(QStringLiteral("%1 vs %2").arg(cost(tiny, "tanh").seconds).arg(smallestTanh)));
        QVERIFY(cost(tiny, "tanh").seconds >= 0.5 * profile2_.elementwise.first().second);
        // Pooling and normalisation have their probes too.
        in.batch = 16;
        const StepPrediction image = predictStep(
            chain({QStringLiteral("N"), 16, 32, 32}, {conv("c", 16, 1, 0), node("bn", "BatchNorm2d"),
                                                      node("pool", "AvgPool2d", {{QStringLiteral("kernel_size"), 2}})}),
            in, profile2_);
        QVERIFY2(image.ok, qPrintable(image.error));
        QCOMPARE(cost(image, "bn").basis, QStringLiteral("normalization"));
        QCOMPARE(cost(image, "pool").basis, QStringLiteral("pooling"));
    }

    /// The per-step cost outside the layers grows with the samples: the reference network is predicted at its
    /// measured time at both batches it was measured at.
    void theStepOverheadGrowsWithTheBatch() {
        QVERIFY(profile2_.reference);
        const auto &ref = *profile2_.reference;
        QCOMPARE(ref.largerBatch, 128);
        QVERIFY(ref.largerBatchStepSeconds > 0);
        StepInputs in;
        in.optimizer = ref.optimizer;
        in.threadsPerRank = profile2_.threads;
        in.batch = ref.batch;
        const StepPrediction small = predictStep(ref.spec, in, profile2_);
        in.batch = ref.largerBatch;
        const StepPrediction large = predictStep(ref.spec, in, profile2_);
        QVERIFY(small.ok && large.ok);
        QVERIFY2(qFuzzyCompare(small.stepSeconds, ref.stepSeconds), qPrintable(QString::number(small.stepSeconds)));
        QVERIFY2(std::abs(large.stepSeconds / ref.largerBatchStepSeconds - 1) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(large.stepSeconds).arg(ref.largerBatchStepSeconds)));
        QVERIFY(large.stepOverheadSeconds > small.stepOverheadSeconds);
        // The recorded profile without the larger batch keeps one overhead for every batch.
        in.batch = 128;
        const StepPrediction a = predictStep(profile_.reference->spec, in, profile_);
        in.batch = 32;
        const StepPrediction b = predictStep(profile_.reference->spec, in, profile_);
        QCOMPARE(a.stepOverheadSeconds, b.stepOverheadSeconds);
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

    /// With several ranks the layers run slower than the probes (which ran alone): the CNN trained with all ranks
    /// at calibration sets by how much, and is then predicted at exactly its measured step.
    void ranksSlowTheLayersAsTheConvReferenceMeasured() {
        QVERIFY(profile2_.referenceRanksConv);
        const auto &conv = *profile2_.referenceRanksConv;
        QCOMPARE(conv.ranks, 2);
        StepInputs in;
        in.batch = conv.batch;
        in.optimizer = conv.optimizer;
        in.ranks = conv.ranks;
        in.threadsPerRank = profile2_.threads;
        // The CNN's step as if it had run 50 % slower in its layers than the probes: without any slow-down, its
        // prediction is the layers, optimizer, all-reduce and per-step cost.
        auto withConvStep = [&](double seconds) {
            QJsonObject doc = current_;
            QJsonObject ref = doc.value(QStringLiteral("reference_step_ranks_conv")).toObject();
            ref.insert(QStringLiteral("step_s"), seconds);
            doc.insert(QStringLiteral("reference_step_ranks_conv"), ref);
            QString error;
            return *DeviceProfile::fromJson(doc, &error);
        };
        const StepPrediction none = predictStep(conv.spec, in, withConvStep(1e-9));
        QVERIFY2(none.ok, qPrintable(none.error));
        QCOMPARE(none.rankContention, 0.0); // a faster step than predicted is no slow-down
        const double measured = none.stepSeconds + 0.5 * none.computeSeconds;
        const DeviceProfile slower = withConvStep(measured);
        const StepPrediction p = predictStep(conv.spec, in, slower);
        QVERIFY2(std::abs(p.rankContention - 0.5) < 1e-9, qPrintable(QString::number(p.rankContention)));
        QVERIFY2(std::abs(p.stepSeconds / measured - 1) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(p.stepSeconds).arg(measured)));
        QVERIFY(qFuzzyCompare(p.computeSeconds, none.computeSeconds * 1.5));
        QVERIFY(p.toJson().contains(QStringLiteral("rank_contention")));
        // Other networks with several ranks get the same factor; one rank gets none, nor does a profile without the
        // CNN's step.
        const QByteArray cnn = read(test::sourcePath(QStringLiteral("resources/templates/cnn28.json")));
        QVERIFY(std::abs(predictStep(cnn, in, slower).rankContention - 0.5) < 1e-9);
        in.ranks = 1;
        QCOMPARE(predictStep(cnn, in, slower).rankContention, 0.0);
        in.ranks = 2;
        QCOMPARE(predictStep(cnn, in, profile_).rankContention, 0.0);
    }

    /// Convolutions and pools run slower in training than alone: the CNN trained on one rank at calibration sets by
    /// how much, and is then predicted at exactly its measured step; other layers and networks without them keep
    /// their probes' cost.
    void convolutionsRunAsTheConvReferenceMeasured() {
        QVERIFY(profile2_.referenceRanksConv);
        QVERIFY(!profile2_.referenceConv);
        const QByteArray cnnSpec = profile2_.referenceRanksConv->spec;
        auto withConvStep = [&](double seconds, int ranks = 1) {
            QJsonObject doc = current_;
            QJsonObject ref = doc.value(QStringLiteral("reference_step_ranks_conv")).toObject();
            ref.insert(QStringLiteral("ranks"), ranks);
            ref.insert(QStringLiteral("batch"), 64);
            ref.insert(QStringLiteral("step_s"), seconds);
            doc.insert(QStringLiteral("reference_step_conv"), ref);
            QString error;
            const auto p = DeviceProfile::fromJson(doc, &error);
            return p ? *p : DeviceProfile();
        };
        StepInputs in;
        in.batch = 64;
        in.optimizer = QStringLiteral("adam");
        in.threadsPerRank = profile2_.threads;
        const StepPrediction probed = predictStep(cnnSpec, in, profile2_);
        QVERIFY2(probed.ok, qPrintable(probed.error));
        QCOMPARE(probed.convolutionScale, 1.0);
        double convolutionLike = 0;
        for (const NodeCost &c : probed.nodes)
            if (c.basis == QLatin1String("conv2d") || c.basis == QLatin1String("pooling")) convolutionLike += c.seconds;
        QVERIFY(convolutionLike > 0 && convolutionLike < probed.computeSeconds);
        // Measured with its convolutions and pools 40 % slower than probed.
        const double measured = probed.stepSeconds + 0.4 * convolutionLike;
        const DeviceProfile slower = withConvStep(measured);
        QVERIFY(slower.referenceConv);
        const StepPrediction p = predictStep(cnnSpec, in, slower);
        QVERIFY2(std::abs(p.convolutionScale - 1.4) < 1e-9, qPrintable(QString::number(p.convolutionScale)));
        QVERIFY2(std::abs(p.stepSeconds / measured - 1) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(p.stepSeconds).arg(measured)));
        QCOMPARE(cost(p, "fc").seconds, cost(probed, "fc").seconds);
        QVERIFY(qFuzzyCompare(cost(p, "conv2").seconds, 1.4 * cost(probed, "conv2").seconds));
        QVERIFY(p.toJson().contains(QStringLiteral("convolution_scale")));
        // The template CNN gets the factor; the MLP template has no convolution and keeps its prediction.
        const QByteArray cnn = read(test::sourcePath(QStringLiteral("resources/templates/cnn28.json")));
        QVERIFY(std::abs(predictStep(cnn, in, slower).convolutionScale - 1.4) < 1e-9);
        const QByteArray mlp = read(test::sourcePath(QStringLiteral("resources/templates/mlp.json")));
        QCOMPARE(predictStep(mlp, in, slower).stepSeconds, predictStep(mlp, in, profile2_).stepSeconds);
        // A far faster or slower measurement is held to 0.5 .. 3; a reference trained with several ranks is ignored.
        QCOMPARE(predictStep(cnnSpec, in, withConvStep(1e-9)).convolutionScale, 0.5);
        QCOMPARE(predictStep(cnnSpec, in, withConvStep(10.0)).convolutionScale, 3.0);
        QVERIFY(!withConvStep(measured, 2).referenceConv);
    }

    /// "sharding": "optimizer" with 2 ranks: half the optimizer state per rank in memory, the weights' all-gather
    /// (half the gradients' all-reduce) in the step; the checkpoint still holds the whole state; one rank: no change.
    void aShardedOptimizerHalvesItsStateAndGathersTheWeights() {
        const QByteArray spec = read(test::sourcePath(QStringLiteral("resources/templates/mlp.json")));
        StepInputs in = StepInputs::fromRunConfig(
            QJsonObject{{QStringLiteral("batch_size"), 64},
                        {QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}}}});
        QVERIFY(!in.shardOptimizer);
        QCOMPARE(in.batch, 64);
        in.ranks = 2;
        in.threadsPerRank = 1;
        const StepPrediction whole = predictStep(spec, in, profile2_);
        in = StepInputs::fromRunConfig(
            QJsonObject{{QStringLiteral("batch_size"), 64}, {QStringLiteral("sharding"), QStringLiteral("optimizer")}});
        QVERIFY(in.shardOptimizer);
        in.ranks = 2;
        in.threadsPerRank = 1;
        const StepPrediction split = predictStep(spec, in, profile2_);
        QVERIFY2(whole.ok && split.ok, qPrintable(whole.error + split.error));
        QVERIFY(split.shardedOptimizer && !whole.shardedOptimizer);
        QCOMPARE(whole.peakMemoryBytes - split.peakMemoryBytes, whole.parameters * 4); // Adam: 8 -> 4 bytes a weight
        QCOMPARE(split.checkpointBytes, whole.checkpointBytes);
        QVERIFY(split.allReduceSeconds > whole.allReduceSeconds);
        QVERIFY(split.allReduceSeconds < 1.5 * whole.allReduceSeconds + 1e-12);
        QCOMPARE(split.computeSeconds, whole.computeSeconds);
        QVERIFY(split.toJson().value(QStringLiteral("sharded_optimizer")).toBool());
        QVERIFY(!split.toJson().value(QStringLiteral("sharded_gradients")).toBool());
        // "gradients" (stage 2): the gradients halved too, plus two buckets of at least 256 KiB in flight (this small
        // network's gradients are under 8 MiB: all of them), and no more traffic than data parallelism.
        in = StepInputs::fromRunConfig(
            QJsonObject{{QStringLiteral("batch_size"), 64}, {QStringLiteral("sharding"), QStringLiteral("gradients")}});
        QVERIFY(in.shardOptimizer && in.shardGradients);
        in.ranks = 2;
        in.threadsPerRank = 1;
        const StepPrediction stage2 = predictStep(spec, in, profile2_);
        QVERIFY(stage2.ok && stage2.shardedGradients);
        QCOMPARE(stage2.sharding(), QStringLiteral("gradients"));
        const qint64 gradients = whole.parameters * 4;
        QCOMPARE(stage2.peakMemoryBytes - split.peakMemoryBytes,
                 (gradients + 1) / 2 + std::min<qint64>(gradients, 2 * (256 << 10)) - gradients);
        QCOMPARE(stage2.allReduceSeconds, whole.allReduceSeconds);
        in.ranks = 1;
        in.shardOptimizer = true;
        const StepPrediction one = predictStep(spec, in, profile2_);
        in.shardOptimizer = false;
        QCOMPARE(one.peakMemoryBytes, predictStep(spec, in, profile2_).peakMemoryBytes);
        QVERIFY(!one.shardedOptimizer);
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
