// setFlushDenormals: subnormal floats become zero on the calling thread and on every intra-op
// worker thread, and normal arithmetic returns when it is turned off again.
#include "trainer.h"

#include <torch/torch.h>

#include <QtTest>

#include <atomic>

using namespace diamond::engine;

namespace {

/// How many of `threads` chunks (one per intra-op worker) saw a subnormal product survive.
int threadsKeepingSubnormals(int threads) {
    std::atomic<int> keeping{0};
    at::parallel_for(0, threads, 1, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            volatile float tiny = 1e-39F; // subnormal: below FLT_MIN (1.18e-38)
            volatile float product = tiny * 1.5F;
            if (product != 0.0F) ++keeping;
        }
    });
    return keeping.load();
}

} // namespace

class TestFlushDenormals : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void subnormalsFlushOnEveryWorker() {
        at::set_num_threads(2);
        QCOMPARE(threadsKeepingSubnormals(2), 2);
        if (!setFlushDenormals(true)) QSKIP("this CPU has no flush-to-zero mode");
        QCOMPARE(threadsKeepingSubnormals(2), 0);
        QVERIFY(setFlushDenormals(false));
        QCOMPARE(threadsKeepingSubnormals(2), 2);
    }

    void tensorsFollowTheMode() {
        at::set_num_threads(1);
        const torch::Tensor tiny = torch::full({4}, 1e-39F);
        if (!setFlushDenormals(true)) QSKIP("this CPU has no flush-to-zero mode");
        QCOMPARE((tiny * 2).sum().item<float>(), 0.0F);
        QVERIFY(setFlushDenormals(false));
        QVERIFY((tiny * 2).sum().item<float>() > 0.0F);
    }
};

QTEST_GUILESS_MAIN(TestFlushDenormals)
#include "tst_flush_denormals.moc"
