#include "gradient_reducer.h"

#include "engine_error.h"

#include <algorithm>
#include <deque>

namespace diamond::engine {

struct GradientReducer::State {
    struct Bucket {
        std::int64_t begin = 0, length = 0; ///< the flat range
        int size = 0;                       ///< parameters in the bucket
        int ready = 0;                      ///< parameters whose gradient arrived in this backward
        bool launched = false;
        torch::Tensor slice;   ///< data parallel: the flat gradients' range, reduced in place
        torch::Tensor staging; ///< sharded: the range's gradients from arrival until this rank's part is added
        bool adopts = false;   ///< sharded: one contiguous parameter, whose gradient becomes the staging buffer
        std::vector<std::unique_ptr<PendingCollective>> pending;
    };
    Communicator *comm = nullptr;
    std::vector<Bucket> buckets;
    std::vector<int> bucketOf;                                        ///< parameter index -> bucket
    std::vector<std::shared_ptr<torch::autograd::Node>> accumulators; ///< kept alive for the hooks
    bool armed = false;

    // Sharded only.
    FlatParameters *flat = nullptr;
    std::vector<torch::Tensor> parameters;
    FlatShard shard;
    int maxInFlight = 2;
    std::deque<int> inFlight; ///< launched buckets not yet collected, oldest first
    std::int64_t stagingBytes = 0, peakStagingBytes = 0;

    void stage(Bucket &b, const torch::Tensor &full) {
        b.staging = full;
        stagingBytes += std::int64_t(full.nbytes());
        peakStagingBytes = std::max(peakStagingBytes, stagingBytes);
    }
    void ensureStaging(Bucket &b) {
        if (!b.staging.defined()) stage(b, torch::zeros({b.length}, flat->values().options()));
    }

    void launch(int index) {
        Bucket &b = buckets[index];
        if (b.launched) return;
        b.launched = true;
        if (!flat) {
            b.pending.push_back(comm->allReduceSumAsync(b.slice));
            return;
        }
        ensureStaging(b);
        for (int r = 0; r < comm->world(); ++r) {
            const auto [first, last] =
                FlatShard::of(flat->numel(), r, comm->world()).overlap(b.begin, b.begin + b.length);
            if (first >= last) continue;
            torch::Tensor part = b.staging.narrow(0, first - b.begin, last - first);
            b.pending.push_back(comm->reduceSumAsync(part, r));
        }
        inFlight.push_back(index);
        while (static_cast<int>(inFlight.size()) > maxInFlight)
            collectOldest();
    }

    /// Sharded: waits for the oldest bucket in flight, adds this rank's part to the share, frees the staging buffer.
    void collectOldest() {
        Bucket &b = buckets[inFlight.front()];
        inFlight.pop_front();
        for (auto &p : b.pending)
            p->wait();
        b.pending.clear();
        const auto [first, last] = shard.overlap(b.begin, b.begin + b.length);
        if (first < last) {
            torch::NoGradGuard noGrad;
            flat->grads()
                .narrow(0, first - flat->gradsBegin(), last - first)
                .add_(b.staging.narrow(0, first - b.begin, last - first));
        }
        stagingBytes -= std::int64_t(b.staging.nbytes());
        b.staging = torch::Tensor();
    }

    void onGradient(int parameter) {
        if (!armed) return;
        const int index = bucketOf[parameter];
        Bucket &b = buckets[index];
        if (flat) take(b, parameter);
        if (++b.ready == b.size) launch(index);
    }

    /// Sharded: moves the parameter's gradient into its bucket and releases it.
    void take(Bucket &b, int parameter) {
        torch::Tensor &grad = parameters[parameter].mutable_grad();
        if (!grad.defined()) return;
        torch::NoGradGuard noGrad;
        if (b.adopts && grad.is_contiguous() && !b.staging.defined())
            stage(b, grad.view({-1}));
        else {
            ensureStaging(b);
            flat->viewIn(b.staging, b.begin, std::size_t(parameter)).copy_(grad);
        }
        grad = torch::Tensor();
    }
};

namespace {
class ReadyHook final : public torch::autograd::FunctionPostHook {
public:
    ReadyHook(std::weak_ptr<GradientReducer::State> state, int parameter)
        : state_(std::move(state)), parameter_(parameter) {}
    torch::autograd::variable_list operator()(const torch::autograd::variable_list &outputs,
                                              const torch::autograd::variable_list &) override {
        if (auto s = state_.lock()) s->onGradient(parameter_);
        return outputs;
    }

private:
    std::weak_ptr<GradientReducer::State> state_;
    int parameter_;
};
} // namespace

void GradientReducer::hookParameters(const std::vector<torch::Tensor> &parameters, std::int64_t bucketBytes) {
    state_->bucketOf.assign(parameters.size(), 0);
    // Buckets from the last parameter backwards, each a contiguous range of the flat buffers.
    std::vector<std::int64_t> offsets(parameters.size() + 1, 0);
    for (std::size_t i = 0; i < parameters.size(); ++i)
        offsets[i + 1] = offsets[i] + parameters[i].numel();
    int end = static_cast<int>(parameters.size());
    while (end > 0) {
        int begin = end - 1;
        std::int64_t bytes = std::int64_t(parameters[begin].nbytes());
        while (begin > 0 && bytes + std::int64_t(parameters[begin - 1].nbytes()) <= bucketBytes) {
            --begin;
            bytes += std::int64_t(parameters[begin].nbytes());
        }
        State::Bucket b;
        b.begin = offsets[begin];
        b.length = offsets[end] - offsets[begin];
        b.size = end - begin;
        b.adopts = b.size == 1 && parameters[begin].is_contiguous();
        for (int i = begin; i < end; ++i)
            state_->bucketOf[i] = static_cast<int>(state_->buckets.size());
        state_->buckets.push_back(std::move(b));
        end = begin;
    }
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        auto accumulator = torch::autograd::impl::grad_accumulator(parameters[i]);
        if (!accumulator) continue;
        accumulator->add_post_hook(std::make_unique<ReadyHook>(state_, static_cast<int>(i)));
        state_->accumulators.push_back(std::move(accumulator));
    }
}

GradientReducer::GradientReducer(Communicator &comm, torch::Tensor flatGrads,
                                 const std::vector<torch::Tensor> &parameters, std::int64_t bucketBytes)
    : state_(std::make_shared<State>()) {
    state_->comm = &comm;
    hookParameters(parameters, bucketBytes);
    for (auto &b : state_->buckets)
        b.slice = flatGrads.narrow(0, b.begin, b.length);
}

GradientReducer::GradientReducer(Communicator &comm, FlatParameters &flat, const std::vector<torch::Tensor> &parameters,
                                 std::int64_t bucketBytes, int maxInFlight)
    : state_(std::make_shared<State>()) {
    state_->comm = &comm;
    state_->flat = &flat;
    state_->parameters = parameters;
    state_->shard = FlatShard::of(flat.numel(), comm.rank(), comm.world());
    state_->maxInFlight = std::max(1, maxInFlight);
    if (flat.gradsBegin() != state_->shard.begin || flat.grads().numel() != state_->shard.length)
        throw EngineError("The gradients held are not this rank's share.");
    const std::int64_t allBytes = flat.numel() * std::int64_t(flat.values().element_size());
    hookParameters(parameters, std::min(bucketBytes, std::max<std::int64_t>(allBytes / 32, 256 << 10)));
}

GradientReducer::~GradientReducer() = default;

int GradientReducer::bucketCount() const { return static_cast<int>(state_->buckets.size()); }

bool GradientReducer::sharded() const { return state_->flat != nullptr; }

std::int64_t GradientReducer::peakStagingBytes() const { return state_->peakStagingBytes; }

void GradientReducer::arm() {
    state_->armed = true;
    for (auto &b : state_->buckets) {
        b.ready = 0;
        b.launched = false;
        b.pending.clear();
    }
}

void GradientReducer::finish(bool average) {
    State &s = *state_;
    for (std::size_t i = 0; i < s.buckets.size(); ++i)
        s.launch(static_cast<int>(i));
    if (s.flat) {
        while (!s.inFlight.empty())
            s.collectOldest();
    } else {
        for (auto &b : s.buckets) {
            for (auto &p : b.pending)
                p->wait();
            b.pending.clear();
        }
    }
    s.armed = false;
    if (!average) return;
    const double world = static_cast<double>(s.comm->world());
    torch::NoGradGuard noGrad;
    if (s.flat)
        s.flat->grads().div_(world);
    else
        for (auto &b : s.buckets)
            b.slice.div_(world);
}

} // namespace diamond::engine
