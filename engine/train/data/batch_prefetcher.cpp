#include "data/batch_prefetcher.h"

#include <omp.h>

namespace diamond::engine {

BatchPrefetcher::BatchPrefetcher(std::function<Batch(std::int64_t)> gather, bool background)
    : gather_(std::move(gather)) {
    if (background) worker_ = std::thread([this] { run(); });
}

BatchPrefetcher::~BatchPrefetcher() {
    if (!worker_.joinable()) return;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    worker_.join();
}

BatchPrefetcher::Batch BatchPrefetcher::take(std::int64_t n) {
    if (!worker_.joinable()) return gather_(n);
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !busy_; }); // never two gathers at once
    Batch batch;
    if (pending_ == n && ready_) {
        if (error_) {
            const std::exception_ptr error = std::exchange(error_, nullptr);
            pending_ = -1;
            ready_ = false;
            std::rethrow_exception(error);
        }
        batch = std::move(result_);
    } else {
        lock.unlock();
        batch = gather_(n); // not prefetched: the first batch, or a jump (resume, evaluation order)
        lock.lock();
    }
    pending_ = n + 1;
    ready_ = false;
    busy_ = true;
    lock.unlock();
    changed_.notify_all();
    return batch;
}

void BatchPrefetcher::run() {
    // One OpenMP thread for this thread's parallel regions (the intra-op threads are training);
    // after ATen's once-per-thread initialisation, which would set it back to the global count.
    at::internal::lazy_init_num_threads();
    omp_set_num_threads(1);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return stop_ || (busy_ && !ready_); });
        if (stop_) return;
        const std::int64_t n = pending_;
        lock.unlock();
        Batch batch;
        std::exception_ptr error;
        try {
            batch = gather_(n);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        result_ = std::move(batch);
        error_ = error;
        ready_ = true;
        busy_ = false;
        changed_.notify_all();
    }
}

} // namespace diamond::engine
