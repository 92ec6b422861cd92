// BatchSampler: epoch permutations from (seed, epoch), rank slices, dropLast, cost per batch;
// gatherRows equals index_select.
#include "data/dataset.h"
#include "engine_error.h"

#include <QElapsedTimer>
#include <QtTest>

#include <set>

using namespace diamond::engine;

namespace {

std::vector<std::int64_t> toVector(const torch::Tensor &t) {
    const torch::Tensor c = t.contiguous();
    return std::vector<std::int64_t>(c.data_ptr<std::int64_t>(), c.data_ptr<std::int64_t>() + c.numel());
}

} // namespace

class TestBatchSampler : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void gatherRowsEqualsIndexSelect() {
        torch::manual_seed(2);
        const torch::Tensor index = torch::tensor({5, 0, 5, 9, 3}, torch::kInt64);
        for (const torch::Tensor &rows :
             {torch::randn({10, 7}), torch::randint(0, 100, {10}, torch::kInt64), torch::randn({10, 2, 3, 4}),
              torch::randn({7, 10}).t()}) { // the last is not contiguous: index_select's path
            const torch::Tensor got = gatherRows(rows, index);
            QVERIFY(torch::equal(got, rows.index_select(0, index)));
            QCOMPARE(got.sizes()[0], std::int64_t(5));
        }
        QVERIFY_THROWS_EXCEPTION(EngineError, gatherRows(torch::randn({4, 2}), torch::tensor({1, 4}, torch::kInt64)));
        QCOMPARE(gatherRows(torch::randn({4, 2}), torch::zeros({0}, torch::kInt64)).sizes().vec(),
                 (std::vector<std::int64_t>{0, 2}));
    }

    void batchesPerEpoch() {
        QCOMPARE(BatchSampler(1000, 128, 1).batchesPerEpoch(), std::int64_t(7));
        QCOMPARE(BatchSampler(1000, 128, 1, true, false).batchesPerEpoch(), std::int64_t(8));
        QCOMPARE(BatchSampler(1024, 128, 1, true, false).batchesPerEpoch(), std::int64_t(8));
        QCOMPARE(BatchSampler(100, 128, 1).batchesPerEpoch(), std::int64_t(0));
        QCOMPARE(BatchSampler(100, 128, 1, true, false).batchesPerEpoch(), std::int64_t(1));
        QCOMPARE(BatchSampler(0, 8, 1, true, false).batchesPerEpoch(), std::int64_t(0));
    }

    void epochIsAPermutation() {
        BatchSampler s(1000, 100, 7);
        std::vector<std::int64_t> all;
        for (std::int64_t b = 0; b < s.batchesPerEpoch(); ++b) {
            const torch::Tensor idx = s.indices(0, b);
            QCOMPARE(idx.scalar_type(), torch::kInt64);
            QCOMPARE(idx.numel(), std::int64_t(100));
            const auto v = toVector(idx);
            all.insert(all.end(), v.begin(), v.end());
        }
        std::sort(all.begin(), all.end());
        for (std::int64_t i = 0; i < 1000; ++i)
            QCOMPARE(all[i], i);
    }

    void dropLastKeepsShortBatch() {
        BatchSampler keep(1000, 128, 3, true, false);
        QCOMPARE(keep.indices(0, 7).numel(), std::int64_t(1000 - 7 * 128));
        std::set<std::int64_t> seen;
        for (std::int64_t b = 0; b < keep.batchesPerEpoch(); ++b)
            for (const auto i : toVector(keep.indices(2, b)))
                seen.insert(i);
        QCOMPARE(seen.size(), std::size_t(1000));
        BatchSampler drop(1000, 128, 3, true, true);
        QVERIFY_THROWS_EXCEPTION(EngineError, drop.indices(0, 7));
    }

    void deterministicInSeedAndEpoch() {
        BatchSampler a(500, 50, 42), b(500, 50, 42), c(500, 50, 43);
        // b visits epochs in another order: the permutation depends only on (seed, epoch)
        const torch::Tensor b3 = b.indices(3, 2).clone();
        const torch::Tensor b0 = b.indices(0, 4).clone();
        QVERIFY(torch::equal(a.indices(0, 4), b0));
        QVERIFY(torch::equal(a.indices(3, 2), b3));
        QVERIFY(!torch::equal(a.indices(0, 0), c.indices(0, 0)));
        QVERIFY(!torch::equal(a.indices(0, 0), a.indices(1, 0)));
        QVERIFY(!torch::equal(a.indices(1, 0), a.indices(2, 0)));
    }

    void noShuffleIsInOrder() {
        BatchSampler s(10, 4, 9, false, false);
        QCOMPARE(toVector(s.indices(5, 0)), (std::vector<std::int64_t>{0, 1, 2, 3}));
        QCOMPARE(toVector(s.indices(5, 2)), (std::vector<std::int64_t>{8, 9}));
    }

    void ranksTogetherSeeTheGlobalBatch_data() {
        QTest::addColumn<int>("world");
        QTest::addColumn<bool>("dropLast");
        QTest::newRow("2 ranks") << 2 << true;
        QTest::newRow("4 ranks") << 4 << true;
        QTest::newRow("4 ranks, short last batch") << 4 << false;
        QTest::newRow("8 ranks, short last batch") << 8 << false;
    }

    void ranksTogetherSeeTheGlobalBatch() {
        QFETCH(int, world);
        QFETCH(bool, dropLast);
        const std::int64_t size = 1003, batch = 64;
        BatchSampler single(size, batch, 11, true, dropLast);
        std::vector<BatchSampler> ranks;
        for (int r = 0; r < world; ++r)
            ranks.emplace_back(size, batch, 11, true, dropLast, r, world);
        for (const auto &rank : ranks)
            QCOMPARE(rank.batchesPerEpoch(), single.batchesPerEpoch());
        for (std::int64_t epoch = 0; epoch < 3; ++epoch) {
            for (std::int64_t b = 0; b < single.batchesPerEpoch(); ++b) {
                std::vector<torch::Tensor> parts;
                for (int r = 0; r < world; ++r) {
                    parts.push_back(ranks[r].indices(epoch, b));
                    if (b + 1 < single.batchesPerEpoch() || dropLast) QCOMPARE(parts.back().numel(), batch / world);
                }
                QVERIFY(torch::equal(torch::cat(parts), single.indices(epoch, b)));
            }
        }
    }

    void rejectsBadArguments() {
        QVERIFY_THROWS_EXCEPTION(EngineError, BatchSampler(100, 0, 1));
        QVERIFY_THROWS_EXCEPTION(EngineError, BatchSampler(100, 10, 1, true, true, 0, 3)); // 10 % 3 != 0
        QVERIFY_THROWS_EXCEPTION(EngineError, BatchSampler(100, 12, 1, true, true, 3, 3));
        try {
            BatchSampler(100, 10, 1, true, true, 0, 4);
            QFAIL("no exception");
        } catch (const EngineError &e) {
            QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("batch_size"));
        }
    }

    /// The cost of one training batch: sampler indices + index_select of 128 rows of a [60000, 784] tensor.
    void costPerBatch() {
        const std::int64_t size = 60000, features = 784, batch = 128;
        const torch::Tensor inputs = torch::rand({size, features});
        const torch::Tensor targets = torch::randint(10, {size}, torch::kInt64);
        BatchSampler s(size, batch, 1);
        const std::int64_t n = s.batchesPerEpoch();
        // warm-up (first epoch's permutation and allocator)
        for (std::int64_t b = 0; b < 20; ++b)
            (void)inputs.index_select(0, s.indices(0, b));
        QElapsedTimer timer;
        timer.start();
        double checksum = 0;
        std::int64_t batches = 0;
        for (std::int64_t epoch = 1; epoch <= 2; ++epoch) {
            for (std::int64_t b = 0; b < n; ++b, ++batches) {
                const torch::Tensor idx = s.indices(epoch, b);
                const torch::Tensor x = inputs.index_select(0, idx);
                const torch::Tensor y = targets.index_select(0, idx);
                checksum += static_cast<double>(x.size(0) + y.size(0));
            }
        }
        const double us = static_cast<double>(timer.nsecsElapsed()) / 1000.0 / static_cast<double>(batches);
        QCOMPARE(checksum, static_cast<double>(batches * 2 * batch));
        qInfo("loader cost: %.1f us per batch of %lld x %lld (indices + index_select, epoch permutation included)", us,
              static_cast<long long>(batch), static_cast<long long>(features));
        QVERIFY2(us < 2000.0, "index_select batches are far slower than expected");
    }
};

QTEST_APPLESS_MAIN(TestBatchSampler)
#include "tst_batch_sampler.moc"
