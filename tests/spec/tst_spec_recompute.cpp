// Activation checkpointing in the spec library (diamond/spec/recompute.h): how a run of recomputed nodes is cut,
// and the memory estimate that counts what the cut keeps, on a chain and on the U-Net and transformer templates.
#include "common/spec_builders.h"
#include "common/test_paths.h"
#include "diamond/spec/analysis.h"
#include "diamond/spec/recompute.h"

#include <QtTest>

#include <limits>

using namespace diamond::spec;

namespace {

Spec loadTemplate(const char *file) { return diamond::test::loadTemplateSpec(file); }

/// A chain: step i reads step i - 1 only; the last step is the output.
std::vector<std::size_t> chainReaders(std::size_t n) {
    std::vector<std::size_t> readers(n);
    for (std::size_t i = 0; i < n; ++i)
        readers[i] = i + 1 < n ? i + 1 : n;
    return readers;
}

} // namespace

class TestSpecRecompute : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aChainIsCutIntoSeveralParts() {
        const std::vector<double> bytes(16, 100.0);
        const std::vector<std::size_t> cuts = cutRecomputedRun(bytes, chainReaders(16), 0, 16);
        QCOMPARE(cuts.front(), std::size_t(0));
        QCOMPARE(cuts.back(), std::size_t(16));
        for (std::size_t c = 0; c + 1 < cuts.size(); ++c)
            QVERIFY(cuts[c] < cuts[c + 1]);
        // One part keeps only the output but brings all 16 back; 16 parts keep all 16: the best is in between.
        QVERIFY(cuts.size() - 1 >= 3);
        QVERIFY(cuts.size() - 1 <= 8);
    }

    void heavyStepsGetSmallerParts() {
        // Four heavy steps, then twelve light ones: the heavy ones are not all in one part.
        std::vector<double> bytes(16, 10.0);
        for (int i = 0; i < 4; ++i)
            bytes[static_cast<std::size_t>(i)] = 1000.0;
        const std::vector<std::size_t> cuts = cutRecomputedRun(bytes, chainReaders(16), 0, 16);
        QVERIFY(cuts.size() >= 3);
        QVERIFY(cuts[1] <= 2);
    }

    void degenerateRunsAreOnePart() {
        const std::vector<double> bytes(4, 1.0);
        const auto readers = chainReaders(4);
        QCOMPARE(cutRecomputedRun(bytes, readers, 2, 3), (std::vector<std::size_t>{2, 3}));
        QCOMPARE(cutRecomputedRun(bytes, readers, 3, 3), (std::vector<std::size_t>{3, 3}));
        // An end past the steps is held to them.
        QCOMPARE(cutRecomputedRun(bytes, readers, 3, 99), (std::vector<std::size_t>{3, 4}));
        const std::vector<double> huge(8, std::numeric_limits<double>::max() / 4);
        const auto cuts = cutRecomputedRun(huge, chainReaders(8), 0, 8);
        QCOMPARE(cuts.back(), std::size_t(8));
    }

    void modesChooseNodes() {
        Spec s = loadTemplate("unet.json");
        s.nodes[3].recompute = true;
        QCOMPARE(recomputedNodeIds(s, "none").size(), std::size_t(0));
        QCOMPARE(recomputedNodeIds(s, "marked"), (std::vector<std::string>{s.nodes[3].id}));
        QCOMPARE(recomputedNodeIds(s, "all").size(), s.nodes.size());
    }

    /// chooseRecomputed: a budget between "all recomputed" and "nothing recomputed" is met with fewer FLOPs recomputed
    /// than "all"; a larger budget never recomputes more; the ends give none and all.
    void aBudgetIsMetWithTheCheapestNodes_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("unet") << QStringLiteral("unet.json");
        QTest::newRow("resnet18") << QStringLiteral("resnet18.json");
    }
    void aBudgetIsMetWithTheCheapestNodes() {
        QFETCH(QString, file);
        const Spec s = loadTemplate(file.toLatin1().constData());
        const Analysis a = analyze(s);
        QVERIFY(a.ok());
        MemoryOptions o;
        o.batch = 64;
        const std::int64_t plain = estimateMemory(a, o).activations;
        o.recomputed = recomputedNodeIds(s, "all");
        const std::int64_t least = estimateMemory(a, o).activations;
        QVERIFY(least < plain);
        auto recomputedFlops = [&](const RecomputeChoice &c) {
            std::int64_t f = 0;
            for (const std::string &id : c.nodes)
                f += a.node(id)->flops;
            return f;
        };
        const std::int64_t allFlops = recomputedFlops({o.recomputed, 0, true});
        // The ends.
        const RecomputeChoice roomy = chooseRecomputed(a, o, plain);
        QVERIFY(roomy.fits && roomy.nodes.empty());
        QCOMPARE(roomy.activationBytes, plain);
        const RecomputeChoice tight = chooseRecomputed(a, o, least - 1);
        QVERIFY(!tight.fits);
        QCOMPARE(tight.nodes.size(), o.recomputed.size());
        // Budgets in between: within budget, the estimate the choice reports, and fewer FLOPs as the budget grows.
        std::int64_t previousFlops = std::numeric_limits<std::int64_t>::max();
        for (const double share : {0.0, 0.25, 0.5, 0.75}) {
            const std::int64_t budget = least + std::int64_t(share * double(plain - least));
            const RecomputeChoice c = chooseRecomputed(a, o, budget);
            QVERIFY(c.fits);
            QVERIFY2(c.activationBytes <= budget, qPrintable(QString::number(share)));
            MemoryOptions check = o;
            check.recomputed = c.nodes;
            QCOMPARE(estimateMemory(a, check).activations, c.activationBytes);
            const std::int64_t flops = recomputedFlops(c);
            qInfo("budget %.2f of the way: %zu of %zu nodes, %.1f%% of their FLOPs, %.1f of %.1f MiB", share,
                  c.nodes.size(), o.recomputed.size(),
                  100.0 * double(flops) / double(std::max<std::int64_t>(1, allFlops)),
                  double(c.activationBytes) / 1048576.0, double(plain) / 1048576.0);
            QVERIFY(flops <= previousFlops);
            if (share > 0) QVERIFY2(flops < allFlops, qPrintable(QString::number(share)));
            previousFlops = flops;
        }
    }

    void theEstimateCountsWhatRecomputeKeeps_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("atMost"); ///< recomputed activations / plain activations
        QTest::newRow("unet") << QStringLiteral("unet.json") << 0.5;
        QTest::newRow("cnn28") << QStringLiteral("cnn28.json") << 1.0; // its first convolution dominates
        // The encoder layers recompute inside and keep their outputs: the estimate only counts outputs anyway.
        QTest::newRow("transformer") << QStringLiteral("transformer_classifier.json") << 1.0;
    }
    void theEstimateCountsWhatRecomputeKeeps() {
        QFETCH(QString, file);
        QFETCH(double, atMost);
        const Spec s = loadTemplate(file.toLatin1().constData());
        const Analysis a = analyze(s);
        MemoryOptions plain;
        plain.batch = 16;
        MemoryOptions recomputed = plain;
        recomputed.recomputed = recomputedNodeIds(s, "all");
        const MemoryEstimate p = estimateMemory(a, plain);
        const MemoryEstimate r = estimateMemory(a, recomputed);
        qInfo("activations %lld -> %lld bytes", static_cast<long long>(p.activations),
              static_cast<long long>(r.activations));
        QVERIFY(r.activations > 0);
        QVERIFY(r.activations <= p.activations);
        QVERIFY(double(r.activations) <= atMost * double(p.activations));
        QCOMPARE(r.weights, p.weights);
        QCOMPARE(r.optimizerState, p.optimizerState);
        // Nothing marked: the plain estimate.
        MemoryOptions marked = plain;
        marked.recomputed = recomputedNodeIds(s, "marked");
        QCOMPARE(estimateMemory(a, marked).activations, p.activations);
    }
};

QTEST_GUILESS_MAIN(TestSpecRecompute)
#include "tst_spec_recompute.moc"
