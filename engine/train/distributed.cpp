#include "distributed.h"

#include "engine_error.h"

#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef DIAMOND_WITH_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace diamond::engine {

namespace {

int parseInt(const EnvLookup &lookup, const char *name, int fallback, int lo, int hi) {
    const char *v = lookup(name);
    if (!v || !*v) return fallback;
    char *end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (!end || *end || n < lo || n > hi)
        throw EngineError(std::string("The environment variable ") + name + "='" + v + "' is not a valid number.",
                          name);
    return static_cast<int>(n);
}

void checkRanks(const Rendezvous &r, const char *rankVar, const char *worldVar) {
    if (r.world < 1) throw EngineError(std::string(worldVar) + " must be at least 1.", worldVar);
    if (r.rank < 0 || r.rank >= r.world)
        throw EngineError(std::string(rankVar) + "=" + std::to_string(r.rank) + " is outside 0.." +
                              std::to_string(r.world - 1) + " (" + worldVar + "=" + std::to_string(r.world) + ").",
                          rankVar);
}

} // namespace

std::vector<std::string> expandSlurmNodeList(const std::string &list) {
    std::vector<std::string> hosts;
    std::size_t i = 0;
    auto fail = [&](const std::string &why) {
        throw EngineError("Cannot read the Slurm node list '" + list + "': " + why + ".", "SLURM_JOB_NODELIST");
    };
    while (i < list.size()) {
        std::string prefix;
        while (i < list.size() && list[i] != ',' && list[i] != '[')
            prefix += list[i++];
        if (i < list.size() && list[i] == '[') {
            const std::size_t close = list.find(']', i);
            if (close == std::string::npos) fail("missing ']'");
            const std::string ranges = list.substr(i + 1, close - i - 1);
            i = close + 1;
            std::string suffix;
            while (i < list.size() && list[i] != ',')
                suffix += list[i++];
            std::size_t start = 0;
            while (start <= ranges.size()) {
                std::size_t comma = ranges.find(',', start);
                if (comma == std::string::npos) comma = ranges.size();
                const std::string part = ranges.substr(start, comma - start);
                if (part.empty()) fail("empty range");
                const std::size_t dash = part.find('-');
                const std::string lo = part.substr(0, dash);
                const std::string hi = dash == std::string::npos ? lo : part.substr(dash + 1);
                if (lo.empty() || hi.empty() || lo.find_first_not_of("0123456789") != std::string::npos ||
                    hi.find_first_not_of("0123456789") != std::string::npos || lo.size() > 9 || hi.size() > 9)
                    fail("bad range '" + part + "'");
                const long a = std::stol(lo), b = std::stol(hi);
                if (b < a || b - a > 100000) fail("bad range '" + part + "'");
                for (long n = a; n <= b; ++n) {
                    std::string digits = std::to_string(n);
                    if (digits.size() < lo.size()) digits.insert(0, lo.size() - digits.size(), '0');
                    hosts.push_back(prefix + digits + suffix);
                }
                start = comma + 1;
            }
        } else if (!prefix.empty()) {
            hosts.push_back(prefix);
        }
        if (i < list.size() && list[i] == ',') ++i;
    }
    if (hosts.empty()) fail("no hosts");
    return hosts;
}

Rendezvous rendezvousFromEnvironment(const EnvLookup &lookup) {
    Rendezvous r;
    auto has = [&](const char *name) {
        const char *v = lookup(name);
        return v && *v;
    };
    if (has("RANK") || has("WORLD_SIZE")) {
        r.source = "torchrun";
        r.rank = parseInt(lookup, "RANK", 0, 0, 1 << 20);
        r.world = parseInt(lookup, "WORLD_SIZE", 1, 1, 1 << 20);
        r.localRank = parseInt(lookup, "LOCAL_RANK", r.rank, 0, 1 << 20);
        if (has("MASTER_ADDR")) r.masterAddr = lookup("MASTER_ADDR");
        r.masterPort = parseInt(lookup, "MASTER_PORT", 29500, 1, 65535);
        if (has("DIAMOND_LOCAL_STORE")) r.fileStore = lookup("DIAMOND_LOCAL_STORE");
        checkRanks(r, "RANK", "WORLD_SIZE");
        return r;
    }
    if (has("SLURM_PROCID") && has("SLURM_NTASKS")) {
        r.source = "slurm";
        r.rank = parseInt(lookup, "SLURM_PROCID", 0, 0, 1 << 20);
        r.world = parseInt(lookup, "SLURM_NTASKS", 1, 1, 1 << 20);
        r.localRank = parseInt(lookup, "SLURM_LOCALID", 0, 0, 1 << 20);
        if (has("MASTER_ADDR"))
            r.masterAddr = lookup("MASTER_ADDR");
        else if (has("SLURM_JOB_NODELIST"))
            r.masterAddr = expandSlurmNodeList(lookup("SLURM_JOB_NODELIST")).front();
        else if (has("SLURM_NODELIST"))
            r.masterAddr = expandSlurmNodeList(lookup("SLURM_NODELIST")).front();
        const int jobId = parseInt(lookup, "SLURM_JOB_ID", 0, 0, 2147483647);
        r.masterPort = parseInt(lookup, "MASTER_PORT", 29500 + jobId % 1000, 1, 65535);
        checkRanks(r, "SLURM_PROCID", "SLURM_NTASKS");
        return r;
    }
    return r;
}

Rendezvous rendezvousFromEnvironment() {
    return rendezvousFromEnvironment([](const char *name) { return std::getenv(name); });
}

namespace {

class DonePending final : public PendingCollective {
public:
    void wait() override {}
};

class SingleProcess final : public Communicator {
public:
    std::unique_ptr<PendingCollective> allReduceSumAsync(torch::Tensor &) override {
        return std::make_unique<DonePending>();
    }
    std::unique_ptr<PendingCollective> reduceSumAsync(torch::Tensor &, int) override {
        return std::make_unique<DonePending>();
    }
    torch::Device device() const override { return torch::kCPU; }
    int rank() const override { return 0; }
    int world() const override { return 1; }
    void broadcast(torch::Tensor &) override {}
    void broadcastFrom(torch::Tensor &, int) override {}
    void allReduceSum(torch::Tensor &) override {}
    std::vector<torch::Tensor> allGather(const torch::Tensor &tensor) override { return {tensor}; }
    void send(const torch::Tensor &, int) override {
        throw EngineError("a single process has no other rank to send to");
    }
    std::unique_ptr<PendingCollective> sendAsync(const torch::Tensor &, int) override {
        throw EngineError("a single process has no other rank to send to");
    }
    void recv(torch::Tensor &, int) override {
        throw EngineError("a single process has no other rank to receive from");
    }
    void barrier() override {}
};

/// `Group` is the concrete process group (ProcessGroupGloo / ProcessGroupNCCL): in libtorch 1.13
/// they derive from c10d::ProcessGroup, in 2.x from c10d::Backend; both offer these collectives.
template <typename Group> class ProcessGroupCommunicator final : public Communicator {
public:
    ProcessGroupCommunicator(c10::intrusive_ptr<Group> group, int rank, int world, torch::Device device)
        : group_(std::move(group)), rank_(rank), world_(world), device_(device) {}
    torch::Device device() const override { return device_; }
    int rank() const override { return rank_; }
    int world() const override { return world_; }
    void broadcast(torch::Tensor &tensor) override {
        requireOnDevice(tensor, "a broadcast");
        guarded("a broadcast", [&] {
            std::vector<at::Tensor> tensors{tensor};
            finish(group_->broadcast(tensors));
        });
    }
    void broadcastFrom(torch::Tensor &tensor, int root) override {
        requireOnDevice(tensor, "a broadcast");
        guarded("a broadcast", [&] {
            std::vector<at::Tensor> tensors{tensor};
            c10d::BroadcastOptions options;
            options.rootRank = root;
            finish(group_->broadcast(tensors, options));
        });
    }
    void allReduceSum(torch::Tensor &tensor) override {
        requireOnDevice(tensor, "an all-reduce");
        guarded("an all-reduce", [&] {
            std::vector<at::Tensor> tensors{tensor};
            finish(group_->allreduce(tensors));
        });
    }
    std::unique_ptr<PendingCollective> allReduceSumAsync(torch::Tensor &tensor) override {
        requireOnDevice(tensor, "an all-reduce");
        c10::intrusive_ptr<c10d::Work> work;
        guarded("an all-reduce", [&] {
            std::vector<at::Tensor> tensors{tensor};
            work = group_->allreduce(tensors);
        });
        return std::make_unique<Pending>(this, std::move(work), "an all-reduce");
    }
    std::unique_ptr<PendingCollective> reduceSumAsync(torch::Tensor &tensor, int root) override {
        requireOnDevice(tensor, "a reduce");
        c10::intrusive_ptr<c10d::Work> work;
        guarded("a reduce", [&] {
            std::vector<at::Tensor> tensors{tensor};
            c10d::ReduceOptions options;
            options.rootRank = root;
            work = group_->reduce(tensors, options);
        });
        return std::make_unique<Pending>(this, std::move(work), "a reduce");
    }
    std::vector<torch::Tensor> allGather(const torch::Tensor &tensor) override {
        requireOnDevice(tensor, "an all-gather");
        std::vector<std::vector<at::Tensor>> outputs(1);
        for (int r = 0; r < world_; ++r)
            outputs[0].push_back(torch::empty_like(tensor));
        guarded("an all-gather", [&] {
            std::vector<at::Tensor> inputs{tensor};
            finish(group_->allgather(outputs, inputs));
        });
        return outputs[0];
    }
    void send(const torch::Tensor &tensor, int to) override {
        requireOnDevice(tensor, "a send");
        guarded("a send", [&] {
            std::vector<at::Tensor> tensors{tensor};
            finish(group_->send(tensors, to, 0));
        });
    }
    std::unique_ptr<PendingCollective> sendAsync(const torch::Tensor &tensor, int to) override {
        requireOnDevice(tensor, "a send");
        c10::intrusive_ptr<c10d::Work> work;
        guarded("a send", [&] {
            std::vector<at::Tensor> tensors{tensor};
            work = group_->send(tensors, to, 0);
        });
        return std::make_unique<Pending>(this, std::move(work), "a send");
    }
    void recv(torch::Tensor &tensor, int from) override {
        requireOnDevice(tensor, "a receive");
        guarded("a receive", [&] {
            std::vector<at::Tensor> tensors{tensor};
            finish(group_->recv(tensors, from, 0));
        });
    }
    void barrier() override {
        guarded("a barrier", [&] { finish(group_->barrier()); });
    }

private:
    class Pending final : public PendingCollective {
    public:
        Pending(ProcessGroupCommunicator *owner, c10::intrusive_ptr<c10d::Work> work, const char *what)
            : owner_(owner), work_(std::move(work)), what_(what) {}
        void wait() override {
            owner_->guarded(what_, [&] { finish(work_); });
        }

    private:
        ProcessGroupCommunicator *owner_;
        c10::intrusive_ptr<c10d::Work> work_;
        const char *what_;
    };

    void requireOnDevice(const torch::Tensor &tensor, const char *what) const {
        if (tensor.device() != device_)
            throw EngineError(std::string("Rank ") + std::to_string(rank_) + " was handed a tensor on " +
                                  tensor.device().str() + " for " + what + ", but its process group runs on " +
                                  device_.str() + ".",
                              "device");
    }

    /// Waits for `work`; throws when it failed or was aborted (2.x's Work::wait returns false for an aborted one).
    static void finish(const c10::intrusive_ptr<c10d::Work> &work) {
        if (!work->wait()) throw std::runtime_error("the collective was aborted");
    }

    /// A failed collective almost always means another rank died or hung: say so.
    template <typename F> void guarded(const char *what, F &&f) {
        try {
            f();
        } catch (const std::exception &e) {
            std::string detail = e.what();
            if (const auto nl = detail.find('\n'); nl != std::string::npos) detail.resize(nl);
            throw EngineError("Rank " + std::to_string(rank_) + " of " + std::to_string(world_) +
                                  " lost contact with the others during " + what + ": " + detail,
                              "rendezvous", {}, "Another rank exited or stopped responding; check its log.");
        }
    }

    c10::intrusive_ptr<Group> group_;
    int rank_, world_;
    torch::Device device_;
};

/// Every rank announces itself; rank 0 waits for all and names the ones missing at the timeout.
void waitForAllRanks(c10d::Store &store, const Rendezvous &r, std::chrono::milliseconds timeout) {
    store.set("diamond/arrived/" + std::to_string(r.rank), std::vector<uint8_t>{1});
    if (r.rank == 0) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (true) {
            std::vector<int> missing;
            for (int k = 0; k < r.world; ++k)
                if (!store.check({"diamond/arrived/" + std::to_string(k)})) missing.push_back(k);
            if (missing.empty()) break;
            if (std::chrono::steady_clock::now() > deadline) {
                std::string list;
                for (int k : missing)
                    list += (list.empty() ? "" : ", ") + std::to_string(k);
                store.set("diamond/failed", std::vector<uint8_t>{1});
                throw EngineError("Rank(s) " + list + " of " + std::to_string(r.world) + " did not arrive within " +
                                      std::to_string(timeout.count() / 1000) + " s at " + r.masterAddr + ":" +
                                      std::to_string(r.masterPort) + ".",
                                  "rendezvous", {}, "Check that every rank was started and can reach the master.");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        store.set("diamond/ready", std::vector<uint8_t>{1});
    } else {
        try {
            store.wait({"diamond/ready"}, timeout);
        } catch (const std::exception &) {
            throw EngineError("Rank " + std::to_string(r.rank) + " waited " + std::to_string(timeout.count() / 1000) +
                                  " s for all ranks to arrive at " + r.masterAddr + ":" + std::to_string(r.masterPort) +
                                  "; rank 0 reports the missing ones.",
                              "rendezvous");
        }
    }
}

} // namespace

FlatShard FlatShard::of(std::int64_t numel, int rank, int world) {
    FlatShard s;
    const std::int64_t ranks = std::max(1, world);
    s.stride = (numel + ranks - 1) / ranks;
    s.begin = std::min(numel, s.stride * rank);
    s.length = std::min(numel, s.begin + s.stride) - s.begin;
    return s;
}

namespace {

/// The TCP store of a torchrun/Slurm rendezvous: rank 0 serves it (libtorch 1.13 listens on every interface; the
/// other ranks may be on other hosts), the others connect to masterAddr:masterPort.
c10::intrusive_ptr<c10d::Store> tcpStore(const Rendezvous &r, std::chrono::milliseconds timeout) {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(r.masterPort);
    options.isServer = r.rank == 0;
    options.numWorkers.reset(); // no worker count: waitForAllRanks counts (reset(): 2.x deprecates c10::nullopt)
    options.waitWorkers = false;
    options.timeout = timeout;
    try {
        return c10::make_intrusive<c10d::TCPStore>(r.masterAddr, options);
    } catch (const std::exception &e) {
        throw EngineError("Rank " + std::to_string(r.rank) + " cannot reach the rendezvous at " + r.masterAddr + ":" +
                              std::to_string(r.masterPort) + ": " + e.what(),
                          "rendezvous");
    }
}

} // namespace

std::vector<std::vector<std::int64_t>> allGatherFigures(Communicator &comm, const std::vector<std::int64_t> &figures) {
    const torch::Tensor own = torch::tensor(figures, torch::kInt64).to(comm.device());
    std::vector<std::vector<std::int64_t>> out;
    for (const torch::Tensor &rank : comm.allGather(own)) {
        const torch::Tensor cpu = rank.cpu().contiguous();
        out.emplace_back(cpu.data_ptr<std::int64_t>(), cpu.data_ptr<std::int64_t>() + cpu.numel());
    }
    return out;
}

std::unique_ptr<Communicator> singleProcessCommunicator() { return std::make_unique<SingleProcess>(); }

std::unique_ptr<Communicator> connect(const Rendezvous &r, std::chrono::milliseconds timeout,
                                      const std::string &device) {
    if (r.world == 1) return std::make_unique<SingleProcess>();
    c10::intrusive_ptr<c10d::Store> store;
    if (!r.fileStore.empty()) {
        try {
            store = c10::make_intrusive<c10d::FileStore>(r.fileStore, r.world);
            store->setTimeout(timeout);
        } catch (const std::exception &e) {
            throw EngineError("Rank " + std::to_string(r.rank) + " cannot open the local rendezvous file " +
                                  r.fileStore + ": " + e.what(),
                              "rendezvous");
        }
    } else {
        store = tcpStore(r, timeout);
    }
    waitForAllRanks(*store, r, timeout);
    auto prefixed = c10::make_intrusive<c10d::PrefixStore>("diamond/pg", store);
    if (device.rfind("cuda", 0) == 0) {
#ifdef DIAMOND_WITH_NCCL
        auto nccl = c10d::ProcessGroupNCCL::Options::create();
        nccl->timeout = timeout;
        auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(prefixed, r.rank, r.world, nccl);
        return std::make_unique<ProcessGroupCommunicator<c10d::ProcessGroupNCCL>>(group, r.rank, r.world,
                                                                                  torch::Device(device));
#else
        throw EngineError("This engine was built against a libtorch without CUDA/NCCL; multi-rank CUDA training is "
                          "not available.",
                          "device");
#endif
    }
    auto gloo = c10d::ProcessGroupGloo::Options::create();
    gloo->timeout = timeout;
    const bool loopback = r.masterAddr == "127.0.0.1" || r.masterAddr == "localhost";
    gloo->devices.push_back(loopback ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                     : c10d::ProcessGroupGloo::createDefaultDevice());
    auto group = c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, r.rank, r.world, gloo);
    return std::make_unique<ProcessGroupCommunicator<c10d::ProcessGroupGloo>>(group, r.rank, r.world, torch::kCPU);
}

namespace {

std::vector<pid_t> gChildren;

extern "C" void forwardSignal(int signal) {
    for (pid_t pid : gChildren)
        ::kill(pid, signal);
}

int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    int port = 29500;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0) {
        socklen_t len = sizeof addr;
        if (::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0) port = ntohs(addr.sin_port);
    }
    if (fd >= 0) ::close(fd);
    return port;
}

} // namespace

int launchLocalRanks(const std::string &executable, const std::vector<std::string> &args, int nproc) {
    const std::string port = std::to_string(freeLoopbackPort());
    // The rendezvous goes through a file in a folder only this user can open (mkdtemp: mode 0700).
    const char *tmp = std::getenv("TMPDIR");
    std::string folder = std::string(tmp && *tmp ? tmp : "/tmp") + "/diamond-rendezvous-XXXXXX";
    if (!::mkdtemp(folder.data()))
        throw EngineError("Cannot create a private folder for the local rendezvous in " +
                              std::string(tmp && *tmp ? tmp : "/tmp") + ": " + std::strerror(errno) + ".",
                          "--nproc", {}, "Set TMPDIR to a writable folder.");
    const std::string storeFile = folder + "/store";
    struct RemoveFolder {
        std::string path;
        ~RemoveFolder() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    } removeFolder{folder};
    gChildren.clear();
    // Stop signals wait (blocked) until the launcher forwards them and each rank has its handlers: the ranks
    // inherit the mask through exec and installStopSignalHandlers() unblocks it; a signal sent meanwhile is
    // delivered then instead of killing a process that is still starting.
    sigset_t stopSignals, previousMask;
    sigemptyset(&stopSignals);
    for (int s : {SIGTERM, SIGINT, SIGUSR1})
        sigaddset(&stopSignals, s);
    sigprocmask(SIG_BLOCK, &stopSignals, &previousMask);
    for (int rank = 0; rank < nproc; ++rank) {
        const pid_t pid = ::fork();
        if (pid < 0) {
            sigprocmask(SIG_SETMASK, &previousMask, nullptr);
            throw EngineError("Cannot start rank " + std::to_string(rank) + ": fork failed.", "--nproc");
        }
        if (pid == 0) {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a launcher killed outright takes its ranks with it
            if (::getppid() == 1) std::_Exit(1);
            ::setenv("RANK", std::to_string(rank).c_str(), 1);
            ::setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
            ::setenv("WORLD_SIZE", std::to_string(nproc).c_str(), 1);
            ::setenv("MASTER_ADDR", "127.0.0.1", 1);
            ::setenv("MASTER_PORT", port.c_str(), 1);
            ::setenv("DIAMOND_LOCAL_STORE", storeFile.c_str(), 1);
            std::vector<char *> argv;
            argv.push_back(const_cast<char *>(executable.c_str()));
            for (const auto &a : args)
                argv.push_back(const_cast<char *>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(executable.c_str(), argv.data());
            std::_Exit(127);
        }
        gChildren.push_back(pid);
    }
    struct sigaction action {};
    action.sa_handler = forwardSignal;
    sigemptyset(&action.sa_mask);
    for (int s : {SIGTERM, SIGINT, SIGUSR1})
        sigaction(s, &action, nullptr);
    sigprocmask(SIG_SETMASK, &previousMask, nullptr);

    int result = 0;
    bool requeue = false, stopping = false;
    std::size_t running = gChildren.size();
    while (running > 0) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        --running;
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (code == 85)
            requeue = true;
        else if (code != 0 && result == 0)
            result = code;
        if (code != 0 && code != 85 && !stopping) {
            // One rank failed: the job fails as a whole. Give the others a moment to report, then stop them.
            stopping = true;
            std::thread([] {
                std::this_thread::sleep_for(std::chrono::seconds(5));
                for (pid_t p : gChildren)
                    ::kill(p, SIGKILL);
            }).detach();
            for (pid_t p : gChildren)
                if (p != pid) ::kill(p, SIGTERM);
        }
    }
    if (result != 0) return result;
    return requeue ? 85 : 0;
}

} // namespace diamond::engine
