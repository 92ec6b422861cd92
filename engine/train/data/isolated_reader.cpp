#include "data/isolated_reader.h"

#include "checked_math.h"
#include "engine_error.h"
#include "stop_request.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define DIAMOND_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DIAMOND_ASAN 1
#endif
#endif

namespace diamond::engine::data {

namespace {

using nlohmann::json;

/// Largest reply the child may send (shapes and an error message).
constexpr std::size_t kMaxReplyBytes = 1 << 20;

std::uint64_t pageSize() { return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)); }

void writeAll(int fd, const std::string &text) {
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
}

/// Limits the child's address space to its present size plus `limit` (not under ASan).
void limitAddressSpace(std::uint64_t limit) {
#ifndef DIAMOND_ASAN
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    if (!(statm >> pages)) return;
    const std::uint64_t now = pages * pageSize();
    rlimit r{};
    r.rlim_cur = r.rlim_max = static_cast<rlim_t>(now + limit);
    ::setrlimit(RLIMIT_AS, &r);
#else
    (void)limit;
#endif
}

/// The child: runs `read`, answers through `replyFd`, never returns.
[[noreturn]] void runChild(int memoryFd, int replyFd, std::uint64_t memoryLimit,
                           const std::function<void(const SharedTensorAllocator &)> &read) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const rlimit noCore{0, 0}; // a crash of the parser is reported by the parent, not dumped or traced here
    ::setrlimit(RLIMIT_CORE, &noCore);
    for (const int crash : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
        std::signal(crash, SIG_DFL);
    limitAddressSpace(memoryLimit);
    json reply = {{"ok", true}, {"tensors", json::array()}};
    try {
        std::uint64_t used = 0;
        const SharedTensorAllocator allocate = [&](const std::vector<std::int64_t> &shape, torch::ScalarType type) {
            std::uint64_t bytes = torch::elementSize(type);
            for (const std::int64_t d : shape)
                bytes *= static_cast<std::uint64_t>(d); // the reader checked the product before asking
            const std::uint64_t offset = used;
            used += (bytes + pageSize() - 1) / pageSize() * pageSize();
            reply["tensors"].push_back({{"type", static_cast<int>(type)}, {"shape", shape}, {"offset", offset}});
            if (bytes == 0) return torch::empty(shape, torch::TensorOptions().dtype(type));
            if (::ftruncate(memoryFd, static_cast<off_t>(used)) != 0)
                throw EngineError(std::string("no memory for the data (") + std::strerror(errno) + ").", "data.path");
            void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, memoryFd, static_cast<off_t>(offset));
            if (p == MAP_FAILED)
                throw EngineError(std::string("no memory for the data (") + std::strerror(errno) + ").", "data.path");
            return torch::from_blob(p, shape, torch::TensorOptions().dtype(type));
        };
        read(allocate);
    } catch (const EngineError &e) {
        reply = {{"ok", false}, {"message", e.what()}, {"field", e.field()}, {"hint", e.hint()}};
    } catch (const std::exception &e) {
        reply = {{"ok", false}, {"message", e.what()}, {"field", "data.path"}};
    } catch (const StopRequested &) {
        reply = {{"ok", false}, {"message", "stopped"}, {"field", "data.path"}};
    }
    writeAll(replyFd, reply.dump());
    ::_exit(0);
}

/// Kills and reaps the child.
void endChild(pid_t pid) {
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

} // namespace

std::vector<torch::Tensor> readInChildProcess(const std::string &what, std::uint64_t memoryLimit,
                                              const std::function<void(const SharedTensorAllocator &)> &read) {
    Fd memory, replyRead, replyWrite;
    memory.fd = ::memfd_create("diamond-reader", MFD_CLOEXEC);
    int pipeFds[2] = {-1, -1};
    if (memory.fd < 0 || ::pipe2(pipeFds, O_CLOEXEC) != 0)
        throw EngineError("Cannot read " + what + ": " + std::strerror(errno) + ".", "data.path");
    replyRead.fd = pipeFds[0];
    replyWrite.fd = pipeFds[1];
    const pid_t pid = ::fork();
    if (pid < 0) throw EngineError("Cannot read " + what + ": " + std::strerror(errno) + ".", "data.path");
    if (pid == 0) {
        ::close(replyRead.fd);
        runChild(memory.fd, replyWrite.fd, memoryLimit, read);
    }
    ::close(replyWrite.fd);
    replyWrite.fd = -1;

    std::string text;
    char buffer[65536];
    for (;;) {
        if (gStopSignal.load(std::memory_order_relaxed) != 0) {
            endChild(pid);
            throwIfStopRequested();
        }
        pollfd p{replyRead.fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, 50);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        const ssize_t n = ::read(replyRead.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > kMaxReplyBytes) {
            endChild(pid);
            throw EngineError("Cannot read " + what + ": its reader answered with more than 1 MiB.", "data.path");
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status))
        throw EngineError("Reading " + what + " crashed its parser (signal " + std::to_string(WTERMSIG(status)) +
                              " in a separate process): the file is damaged or was made to crash readers.",
                          "data.path", {}, "Check the file (e.g. with h5dump), or write it again.");
    const json reply = json::parse(text, nullptr, false);
    if (!reply.is_object() || !reply.contains("ok"))
        throw EngineError("Reading " + what + " ended without a result (exit status " +
                              std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                              "; out of memory, or the file is damaged).",
                          "data.path");
    if (!reply.value("ok", false))
        throw EngineError(reply.value("message", std::string("reading failed")),
                          reply.value("field", std::string("data.path")), {}, reply.value("hint", std::string()));

    struct stat st {};
    if (::fstat(memory.fd, &st) != 0) throw EngineError("Cannot read " + what + ": lost its data.", "data.path");
    std::shared_ptr<void> mapping;
    if (st.st_size > 0) {
        void *base =
            ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, memory.fd, 0);
        if (base == MAP_FAILED) throw EngineError("Cannot read " + what + ": cannot map its data.", "data.path");
        const std::size_t size = static_cast<std::size_t>(st.st_size);
        mapping = std::shared_ptr<void>(base, [size](void *p) { ::munmap(p, size); });
    }
    std::vector<torch::Tensor> tensors;
    for (const json &t : reply.at("tensors")) {
        // The child parsed hostile bytes: its description is checked like any other input.
        const auto shape = t.at("shape").get<std::vector<std::int64_t>>();
        const int typeCode = t.at("type").get<int>();
        const std::uint64_t offset = t.at("offset").get<std::uint64_t>();
        bool known = false;
        for (const torch::ScalarType k :
             {torch::kFloat32, torch::kFloat64, torch::kInt64, torch::kInt32, torch::kUInt8})
            known = known || typeCode == static_cast<int>(k);
        const auto type = static_cast<torch::ScalarType>(typeCode);
        std::uint64_t bytes = 0;
        if (!known || !checkedBytes(shape, torch::elementSize(type), bytes))
            throw EngineError("Cannot read " + what + ": its reader described data it did not write.", "data.path");
        if (bytes == 0) {
            tensors.push_back(torch::empty(shape, torch::TensorOptions().dtype(type)));
            continue;
        }
        if (!mapping || !withinSize(offset, bytes, static_cast<std::uint64_t>(st.st_size)))
            throw EngineError("Cannot read " + what + ": its reader described data it did not write.", "data.path");
        auto *p = static_cast<std::uint8_t *>(mapping.get()) + offset;
        tensors.push_back(torch::from_blob(
            p, shape, [mapping](void *) mutable { mapping.reset(); }, torch::TensorOptions().dtype(type)));
    }
    return tensors;
}

} // namespace diamond::engine::data
