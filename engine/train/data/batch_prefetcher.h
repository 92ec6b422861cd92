// One micro-batch gathered ahead on a background thread while the current one trains, as a
// PyTorch DataLoader with one worker does. Batches are a pure function of their number, so
// results do not depend on timing.
#pragma once

#include <torch/torch.h>

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace diamond::engine {

class BatchPrefetcher {
public:
    using Batch = std::pair<torch::Tensor, torch::Tensor>;
    /// `gather(n)` builds micro-batch n; it runs on the background thread (with one OpenMP
    /// thread of its own), or on the caller's thread when take() asks for a batch that was not
    /// prefetched. Without `background` there is no thread and take() gathers on the spot: for
    /// small batches, where handing a batch between threads costs more than gathering it.
    explicit BatchPrefetcher(std::function<Batch(std::int64_t)> gather, bool background = true);
    /// Waits for a gather in flight; a prefetch not started yet is dropped.
    ~BatchPrefetcher();
    BatchPrefetcher(const BatchPrefetcher &) = delete;
    BatchPrefetcher &operator=(const BatchPrefetcher &) = delete;

    /// Micro-batch `n` (waiting for it if it is being gathered; an exception from gather is
    /// rethrown here), then starts gathering n + 1.
    Batch take(std::int64_t n);

private:
    void run();

    std::function<Batch(std::int64_t)> gather_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::int64_t pending_ = -1; ///< the batch the worker is asked for (-1: none)
    bool busy_ = false;         ///< the worker is gathering `pending_`
    bool ready_ = false;        ///< `result_` (or `error_`) holds batch `pending_`
    bool stop_ = false;
    Batch result_;
    std::exception_ptr error_;
    std::thread worker_;
};

} // namespace diamond::engine
