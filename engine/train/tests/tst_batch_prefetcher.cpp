// BatchPrefetcher: batches come back in order whatever the timing, the next one is gathered on
// the background thread (with one OpenMP thread), jumps fall back to gathering on the caller's
// thread, a gather's exception reaches take(), and destruction waits for a gather in flight
// (one not started yet is dropped).
#include "data/batch_prefetcher.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

using namespace diamond::engine;

namespace {

BatchPrefetcher::Batch batchOf(std::int64_t n) {
    return {torch::full({4, 3}, static_cast<float>(n)), torch::full({4}, n, torch::kInt64)};
}

} // namespace

class TestBatchPrefetcher : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void batchesArriveInOrderFromTheWorker() {
        at::set_num_threads(2);
        std::mutex mutex;
        std::set<std::thread::id> gatherThreads;
        std::atomic<int> calls{0}, maxThreadsSeen{0};
        const auto caller = std::this_thread::get_id();
        int onCaller = 0;
        {
            BatchPrefetcher prefetcher([&](std::int64_t n) {
                ++calls;
                maxThreadsSeen = std::max(maxThreadsSeen.load(), at::get_num_threads());
                {
                    const std::lock_guard<std::mutex> lock(mutex);
                    gatherThreads.insert(std::this_thread::get_id());
                    if (std::this_thread::get_id() == caller) ++onCaller;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(n % 3)); // uneven timing
                return batchOf(n);
            });
            for (std::int64_t n = 0; n < 20; ++n) {
                const auto [x, y] = prefetcher.take(n);
                QCOMPARE(x[0][0].item<float>(), static_cast<float>(n));
                QCOMPARE(y[3].item<std::int64_t>(), n);
            }
        }
        QCOMPARE(onCaller, 1);                             // only the first batch: the others were prefetched
        QVERIFY(calls.load() == 20 || calls.load() == 21); // 0..19, and 20 if its prefetch started
        QCOMPARE(gatherThreads.size(), std::size_t(2));
        QCOMPARE(maxThreadsSeen.load(), 2); // the caller's batch 0 sees the intra-op threads...
        at::set_num_threads(1);
    }

    void workerUsesOneOpenMpThread() {
        at::set_num_threads(2);
        const auto caller = std::this_thread::get_id();
        std::atomic<int> workerThreads{-1};
        {
            BatchPrefetcher prefetcher([&](std::int64_t n) {
                if (std::this_thread::get_id() != caller) workerThreads = at::get_num_threads();
                return batchOf(n);
            });
            prefetcher.take(0);
            prefetcher.take(1); // gathered on the worker
        }
        QCOMPARE(workerThreads.load(), 1); // ...the worker uses one
        at::set_num_threads(1);
    }

    void jumpsAreGatheredOnTheCaller() {
        std::atomic<int> calls{0};
        BatchPrefetcher prefetcher([&](std::int64_t n) {
            ++calls;
            return batchOf(n);
        });
        QCOMPARE(prefetcher.take(5).first[0][0].item<float>(), 5.0F);
        QCOMPARE(prefetcher.take(9).first[0][0].item<float>(), 9.0F); // 6 was prefetched, 9 is gathered now
        QCOMPARE(prefetcher.take(10).first[0][0].item<float>(), 10.0F);
        QVERIFY(calls.load() >= 4);
    }

    void withoutBackgroundEverythingRunsOnTheCaller() {
        const auto caller = std::this_thread::get_id();
        std::atomic<int> elsewhere{0}, calls{0};
        {
            BatchPrefetcher prefetcher(
                [&](std::int64_t n) {
                    ++calls;
                    if (std::this_thread::get_id() != caller) ++elsewhere;
                    return batchOf(n);
                },
                false);
            for (std::int64_t n = 0; n < 5; ++n)
                QCOMPARE(prefetcher.take(n).second[0].item<std::int64_t>(), n);
        }
        QCOMPARE(calls.load(), 5); // nothing gathered ahead
        QCOMPARE(elsewhere.load(), 0);
    }

    void gatherErrorsReachTake() {
        BatchPrefetcher prefetcher([](std::int64_t n) {
            if (n == 3) throw std::runtime_error("batch 3 is broken");
            return batchOf(n);
        });
        prefetcher.take(2); // starts gathering 3 on the worker
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, prefetcher.take(3));
        QCOMPARE(prefetcher.take(4).first[0][0].item<float>(), 4.0F); // and it goes on
    }

    void destructionWaitsForAGatherInFlight() {
        std::atomic<bool> started{false}, finished{false};
        {
            BatchPrefetcher prefetcher([&](std::int64_t n) {
                if (n == 1) {
                    started = true;
                    std::this_thread::sleep_for(std::chrono::milliseconds(50));
                    finished = true;
                }
                return batchOf(n);
            });
            prefetcher.take(0); // batch 1 is requested from the worker
            QTRY_VERIFY_WITH_TIMEOUT(started.load(), 5000);
        }
        QVERIFY(finished.load());
    }
};

QTEST_GUILESS_MAIN(TestBatchPrefetcher)
#include "tst_batch_prefetcher.moc"
