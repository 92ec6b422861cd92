// MetricAccumulator: accuracy equals torch's argmax count (ties, NaN rows, any layout), top-5,
// regression sums and the confusion matrix, accumulated over several batches.
#include "objective.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace diamond::engine;

class TestMetricAccumulator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void accuracyEqualsArgmaxCount() {
        torch::manual_seed(5);
        MetricAccumulator acc({"accuracy"}, 7);
        double expected = 0;
        std::int64_t samples = 0;
        for (int batch = 0; batch < 4; ++batch) {
            // Small integers: many rows hold their maximum twice (argmax takes the first).
            torch::Tensor output = torch::randint(0, 3, {50, 7}).to(torch::kFloat32);
            if (batch == 1) output[3][5] = std::numeric_limits<float>::quiet_NaN(); // argmax: the NaN
            if (batch == 2) output = output.t().contiguous().t();                   // not contiguous
            const torch::Tensor target = torch::randint(0, 7, {50});
            expected += output.argmax(1).eq(target).sum().item<double>();
            samples += 50;
            acc.add(output, target, 0.0);
        }
        QCOMPARE(acc.samples(), samples);
        QCOMPARE(acc.values().at("accuracy"), expected / static_cast<double>(samples));
    }

    void nanRowPredictsTheNan() {
        MetricAccumulator acc({"accuracy"}, 3);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const torch::Tensor output = torch::tensor({5.0F, nan, 9.0F, 1.0F, 2.0F, 2.0F}).view({2, 3});
        acc.add(output, torch::tensor({1, 1}, torch::kInt64), 0.0); // row 0 -> 1 (the NaN); row 1 -> 1 (first max)
        QCOMPARE(acc.values().at("accuracy"), 1.0);
    }

    void topFiveAndConfusion() {
        MetricAccumulator acc({"accuracy", "top5"}, 6, true);
        const torch::Tensor output = torch::tensor({6.0F, 5.0F, 4.0F, 3.0F, 2.0F, 1.0F, 1.0F, 2.0F, 3.0F, 4.0F, 5.0F,
                                                    6.0F, 0.0F, 9.0F, 0.0F, 0.0F, 0.0F, 0.0F})
                                         .view({3, 6});
        acc.add(output, torch::tensor({5, 0, 1}, torch::kInt64), 3.0);
        const auto v = acc.values();
        QCOMPARE(v.at("accuracy"), 1.0 / 3.0); // predictions 0, 5, 1
        QCOMPARE(v.at("top5"), 1.0 / 3.0);     // the targets of rows 0 and 1 hold their smallest value
        QCOMPARE(v.at("loss"), 1.0);
        QCOMPARE(acc.confusion()[5][0].item<std::int64_t>(), std::int64_t(1));
        QCOMPARE(acc.confusion()[0][5].item<std::int64_t>(), std::int64_t(1));
        QCOMPARE(acc.confusion()[1][1].item<std::int64_t>(), std::int64_t(1));
        QCOMPARE(acc.confusion().sum().item<std::int64_t>(), std::int64_t(3));
    }

    void regressionMetrics() {
        MetricAccumulator acc({"mae", "rmse", "r2"}, 0);
        const torch::Tensor target = torch::tensor({1.0F, 2.0F, 3.0F, 4.0F}).view({4, 1});
        acc.add(target + torch::tensor({0.5F, -0.5F, 0.5F, -0.5F}).view({4, 1}), target, 0.0);
        const auto v = acc.values();
        QVERIFY(std::abs(v.at("mae") - 0.5) < 1e-9);
        QVERIFY(std::abs(v.at("rmse") - 0.5) < 1e-9);
        QVERIFY(std::abs(v.at("r2") - (1.0 - 1.0 / 5.0)) < 1e-9); // SSE 1, total sum of squares 5
    }
};

QTEST_GUILESS_MAIN(TestMetricAccumulator)
#include "tst_metric_accumulator.moc"
