#include "checkpoint.h"

#include "checked_math.h"
#include "engine_error.h"
#include "zip_directory.h"

#include "diamond/config/run_config.h"

#include <ATen/CPUGeneratorImpl.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace diamond::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kCheckpointVersion = 1;
/// Most ranks a checkpoint may say wrote it (one RNG state each is read).
constexpr std::int64_t kMaxWorld = 1 << 16;
/// Largest TorchScript source record read for the method check.
constexpr std::uint64_t kMaxCodeBytes = 16 << 20;

std::string shapeOf(const torch::Tensor &t) {
    std::string s = "[";
    for (std::int64_t d = 0; d < t.dim(); ++d)
        s += (d ? "," : "") + std::to_string(t.size(d));
    return s + "]";
}

std::string checkpointDir(const std::string &runDir) { return (fs::path(runDir) / "checkpoints").string(); }

void fsyncPath(const std::string &path, bool directory) {
    const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

torch::Tensor scalar(double v) { return torch::tensor(v, torch::kFloat64); }
torch::Tensor scalar(std::int64_t v) { return torch::tensor(v, torch::kInt64); }

/// A regular file mapped read-only for the structure check.
class MappedBytes {
public:
    explicit MappedBytes(const std::string &path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) throw EngineError("checkpoint " + path + " cannot be opened: " + std::strerror(errno));
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            throw EngineError("checkpoint " + path + " is not a regular file");
        }
        size_ = static_cast<std::size_t>(st.st_size);
        if (size_ > 0) {
            void *addr = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
            if (addr == MAP_FAILED) {
                ::close(fd);
                throw EngineError("checkpoint " + path + " cannot be mapped: " + std::strerror(errno));
            }
            data_ = static_cast<const std::uint8_t *>(addr);
        }
        ::close(fd);
    }
    ~MappedBytes() {
        if (data_) ::munmap(const_cast<std::uint8_t *>(data_), size_);
    }
    MappedBytes(const MappedBytes &) = delete;
    MappedBytes &operator=(const MappedBytes &) = delete;
    const std::uint8_t *data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    const std::uint8_t *data_ = nullptr;
    std::size_t size_ = 0;
};

/// Whether `rest` (a record name after the archive's prefix) is one libtorch writes for a module archive.
bool expectedRecord(const std::string &rest) {
    static const std::set<std::string> kFixed = {
        "data.pkl",      "constants.pkl",          "version",           "byteorder",
        ".data/version", ".data/serialization_id", "code/__torch__.py", "code/__torch__.py.debug_pkl"};
    if (kFixed.count(rest)) return true;
    return rest.size() > 5 && rest.compare(0, 5, "data/") == 0 &&
           rest.find_first_not_of("0123456789", 5) == std::string::npos && rest.size() <= 5 + 18;
}

/// The bytes of member `m` (stored or deflated; at most kMaxCodeBytes), or throws.
std::string memberBytes(const std::uint8_t *p, const ZipMember &m, const std::string &what) {
    if (m.size > kMaxCodeBytes) throw EngineError(what + ": the record " + m.name + " is too large");
    if (m.method == 0) return std::string(reinterpret_cast<const char *>(p + m.dataOffset), m.size);
    std::string out(m.size, '\0');
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw EngineError(what + ": cannot start zlib");
    zs.next_in = const_cast<Bytef *>(p + m.dataOffset);
    zs.avail_in = static_cast<uInt>(std::min<std::uint64_t>(m.compressedSize, kMaxCodeBytes * 2));
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = inflate(&zs, Z_FINISH);
    const std::uint64_t produced = zs.total_out;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || produced != m.size) throw EngineError(what + ": the record " + m.name + " is corrupt");
    return out;
}

/// Why `code` (a checkpoint's code/__torch__.py) is not the class libtorch's OutputArchive writes, or empty. That
/// class holds only the names of the parameters and buffers and their Tensor annotations; libtorch's TorchScript
/// parser reads it while loading, runs the methods it defines and crashes on some damaged source (found by
/// fuzz_checkpoint), so anything else is refused before libtorch sees it.
std::string moduleCodeProblem(const std::string &code) {
    const auto name = [](const std::string &s, std::size_t &i) { // a quoted record name at i
        if (i >= s.size() || s[i] != '"') return false;
        const std::size_t end = s.find('"', i + 1);
        if (end == std::string::npos || end == i + 1 || end - i > 257) return false;
        for (std::size_t k = i + 1; k < end; ++k) {
            const char c = s[k];
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '/' && c != '-')
                return false;
        }
        i = end + 1;
        return true;
    };
    const auto list = [&](const std::string &line, const std::string &head) { // head "name", "name", ]
        if (line.compare(0, head.size(), head) != 0) return false;
        std::size_t i = head.size();
        while (i < line.size() && line[i] == '"') {
            if (!name(line, i) || line.compare(i, 2, ", ") != 0) return false;
            i += 2;
        }
        return i + 1 == line.size() && line[i] == ']';
    };
    std::istringstream in(code);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (number == 1) {
            if (line != "class Module(Module):") return "holds TorchScript code a checkpoint never has (line 1)";
            continue;
        }
        if (line.empty() || line == "  __annotations__ = []" || list(line, "  __parameters__ = [") ||
            list(line, "  __buffers__ = ["))
            continue;
        const std::string annotation = "  __annotations__[";
        std::size_t i = annotation.size();
        if (line.compare(0, i, annotation) == 0 && name(line, i) &&
            line.compare(i, std::string::npos, "] = Tensor") == 0)
            continue;
        const std::size_t start = line.find_first_not_of(" \t");
        if (start != std::string::npos && (line.compare(start, 4, "def ") == 0 || line.compare(start, 1, "@") == 0))
            return "defines TorchScript methods, which a checkpoint never has (loading would run them)";
        return "holds TorchScript code a checkpoint never has (line " + std::to_string(number) + ")";
    }
    return number == 0 ? "holds no TorchScript class" : std::string();
}

/// Why the pickle record `p` must not reach libtorch's Unpickler, or empty: walks its opcodes (protocol 2, as
/// libtorch writes them) and refuses a length argument that runs past the record, since libtorch 1.13 reserves such
/// a length before reading (found by fuzz_checkpoint: a 928-byte data.pkl asked for 1.9 GB), memo ids beyond the
/// next one (libtorch grows its memo table to the id: 13 GB for one LONG_BINPUT), and opcodes that no pickle has.
std::string pickleProblem(const std::string &p) {
    const std::size_t n = p.size();
    std::size_t i = 0;      // invariant: i <= n
    std::uint64_t memo = 0; // memo entries stored so far
    const auto le = [&](std::size_t at, int bytes) {
        std::uint64_t v = 0;
        for (int b = bytes - 1; b >= 0; --b)
            v = v << 8 | static_cast<unsigned char>(p[at + static_cast<std::size_t>(b)]);
        return v;
    };
    while (i < n) {
        const std::size_t at = i;
        const char op = p[i++];
        if (op == '.') return {}; // STOP
        const auto in = [op](const char *set) { return op != '\0' && std::strchr(set, op) != nullptr; };
        std::uint64_t fixed = 0;
        int lengthBytes = 0, lines = 0;
        if (in("(012NQRabd}el]ost)u\x81\x85\x86\x87\x88\x89\x8f\x90\x91\x92\x93\x94")) {
        } else if (in("Khq\x80")) {
            fixed = 1;
        } else if (in("M")) {
            fixed = 2;
        } else if (in("Jjr")) {
            fixed = 4;
        } else if (in("G\x95")) {
            fixed = 8;
        } else if (in("UC\x8c\x8a")) {
            lengthBytes = 1;
        } else if (in("TXB\x8b")) {
            lengthBytes = 4;
        } else if (in("\x8d\x8e\x96")) {
            lengthBytes = 8;
        } else if (in("c")) {
            lines = 2;
        } else if (in("FILPSVgp")) {
            lines = 1;
        } else {
            return "unknown pickle opcode " + std::to_string(static_cast<unsigned char>(op)) + " at byte " +
                   std::to_string(at);
        }
        if (fixed + static_cast<std::uint64_t>(lengthBytes) > n - i)
            return "truncated pickle opcode at byte " + std::to_string(at);
        if (op == 'q' || op == 'r') { // BINPUT, LONG_BINPUT: libtorch grows its memo table up to the id
            const std::uint64_t id = le(i, op == 'q' ? 1 : 4);
            if (id > memo)
                return "the pickle opcode at byte " + std::to_string(at) + " stores memo entry " + std::to_string(id) +
                       " after " + std::to_string(memo) + " entries";
            memo = std::max(memo, id + 1);
        } else if (op == '\x94') { // MEMOIZE
            ++memo;
        }
        i += static_cast<std::size_t>(fixed);
        if (lengthBytes > 0) {
            const std::uint64_t length = le(i, lengthBytes);
            i += static_cast<std::size_t>(lengthBytes);
            if (length > n - i)
                return "the pickle opcode at byte " + std::to_string(at) + " declares " + std::to_string(length) +
                       " bytes, " + std::to_string(n - i) + " follow";
            i += static_cast<std::size_t>(length);
        }
        for (int k = 0; k < lines; ++k) {
            const std::size_t newline = p.find('\n', i);
            if (newline == std::string::npos) return "truncated pickle opcode at byte " + std::to_string(at);
            i = newline + 1;
        }
    }
    return "the pickle has no STOP opcode";
}

/// Checks the zip structure of a checkpoint before libtorch reads it: a regular file; every record inside it,
/// stored ones exactly as large as declared, deflated ones within deflate's ratio; all records together at most
/// `maxBytes`; only the records a module archive has, under one prefix; pickles whose opcodes stay inside them
/// (pickleProblem); and code that is the class a checkpoint has and nothing else (moduleCodeProblem). Throws
/// EngineError naming the file and the record.
void checkArchive(const std::string &path, std::int64_t maxBytes) {
    const MappedBytes file(path);
    const std::string what = "checkpoint " + path;
    std::vector<ZipMember> members = readZipDirectory(file.data(), file.size(), what, "checkpoint", "checkpoint");
    if (members.empty()) throw EngineError(what + " holds no records");
    const std::string first = members.front().name;
    const std::string prefix = first.substr(0, first.find('/') + 1);
    if (prefix.empty()) throw EngineError(what + ": the record " + first + " is outside the archive's folder");
    std::uint64_t total = 0;
    for (ZipMember &m : members) {
        if (m.name.compare(0, prefix.size(), prefix) != 0 || !expectedRecord(m.name.substr(prefix.size())))
            throw EngineError(what + " holds the unexpected record " + m.name);
        if ((m.flags & 1) || (m.method != 0 && m.method != 8))
            throw EngineError(what + ": the record " + m.name + " is encrypted or uses an unknown compression");
        locateZipMember(file.data(), file.size(), m, what + " (" + m.name + ")", "checkpoint");
        if (!checkedAdd(total, m.size, total) || total > static_cast<std::uint64_t>(maxBytes))
            throw EngineError(what + ": its records declare more than " + std::to_string(maxBytes) +
                              " bytes (the memory cap)");
        if (m.name.size() >= 3 && m.name.compare(m.name.size() - 3, 3, "pkl") == 0) {
            const std::string problem = pickleProblem(memberBytes(file.data(), m, what));
            if (!problem.empty()) throw EngineError(what + ": the record " + m.name + " is corrupt: " + problem);
        }
        if (m.name == prefix + "code/__torch__.py") {
            const std::string problem = moduleCodeProblem(memberBytes(file.data(), m, what));
            if (!problem.empty()) throw EngineError(what + " " + problem);
        }
    }
}

/// Files known to be usable checkpoints in this process: path -> (size, modification time, expectation).
struct UsableStamp {
    std::uintmax_t size = 0;
    std::int64_t mtime = 0;
    std::size_t expectation = 0;
};
std::mutex gUsableMutex;
std::map<std::string, UsableStamp> gUsable;

/// A fingerprint of what `expected` asks of a checkpoint (names, shapes, dtypes).
std::size_t expectationOf(const CheckpointState &expected) {
    std::string text;
    for (const auto &[name, t] : expected.model)
        text += name + ":" + std::string(c10::toString(t.scalar_type())) + shapeOf(t) + ";";
    for (const auto &[name, t] : expected.optimizer)
        text += "optim/" + name + ":" + std::string(c10::toString(t.scalar_type())) + shapeOf(t) + ";";
    return std::hash<std::string>()(text);
}

bool stampOf(const std::string &path, const CheckpointState &expected, UsableStamp &out) {
    std::error_code ec;
    out.size = fs::file_size(path, ec);
    if (ec) return false;
    const auto time = fs::last_write_time(path, ec);
    if (ec) return false;
    out.mtime = static_cast<std::int64_t>(time.time_since_epoch().count());
    out.expectation = expectationOf(expected);
    return true;
}

void rememberUsable(const std::string &path, const CheckpointState &expected) {
    UsableStamp stamp;
    if (!stampOf(path, expected, stamp)) return;
    const std::lock_guard<std::mutex> lock(gUsableMutex);
    gUsable[path] = stamp;
}

bool knownUsable(const std::string &path, const CheckpointState &expected) {
    UsableStamp stamp;
    if (!stampOf(path, expected, stamp)) return false;
    const std::lock_guard<std::mutex> lock(gUsableMutex);
    const auto it = gUsable.find(path);
    return it != gUsable.end() && it->second.size == stamp.size && it->second.mtime == stamp.mtime &&
           it->second.expectation == stamp.expectation;
}

} // namespace

torch::Tensor cpuRngState() {
    auto gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get_state();
}

void setCpuRngState(const torch::Tensor &state) {
    auto gen = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(state);
}

CheckpointState checkpointShapes(const CheckpointState &state) {
    CheckpointState shapes;
    auto shapeOnly = [](const torch::Tensor &t) {
        return t.defined() ? torch::empty(t.sizes(), t.options().device(torch::kMeta)) : t;
    };
    for (const auto &[key, tensor] : state.model)
        shapes.model.emplace_back(key, shapeOnly(tensor));
    for (const auto &[key, tensor] : state.optimizer)
        shapes.optimizer[key] = shapeOnly(tensor);
    return shapes;
}

std::string writeCheckpoint(const std::string &runDir, CheckpointState state) {
    const std::string dir = checkpointDir(runDir);
    std::error_code ec;
    fs::create_directories(dir, ec);
    char name[64];
    std::snprintf(name, sizeof name, "step-%010lld.pt", static_cast<long long>(state.step));
    const std::string finalPath = (fs::path(dir) / name).string();
    const std::string tmpPath = finalPath + ".tmp";

    const CheckpointState expected = checkpointShapes(state);
    {
        torch::serialize::OutputArchive archive;
        archive.write("meta/version", scalar(kCheckpointVersion));
        archive.write("meta/step", scalar(state.step));
        for (const auto &[key, tensor] : state.model)
            archive.write("model/" + key, tensor.detach().cpu(), true);
        for (const auto &[key, tensor] : state.optimizer)
            archive.write("optim/" + key, tensor.detach().cpu(), true);
        archive.write("rng/cpu", state.rngState, true);
        archive.write("meta/world", scalar(state.world));
        for (std::size_t r = 0; r < state.rankRngStates.size(); ++r)
            archive.write("rng/rank" + std::to_string(r), state.rankRngStates[r], true);
        archive.write("train/best_metric", scalar(state.bestMetric));
        archive.write("train/has_best", scalar(std::int64_t(state.hasBest ? 1 : 0)));
        archive.write("train/evals_without_improvement", scalar(state.evalsWithoutImprovement));
        if (state.lossScale > 0) {
            archive.write("train/loss_scale", scalar(state.lossScale));
            archive.write("train/loss_scale_good_steps", scalar(state.lossScaleGoodSteps));
        }
        archive.write("meta/complete", scalar(std::int64_t(1)));
        try {
            archive.save_to(tmpPath);
        } catch (const std::exception &e) {
            fs::remove(tmpPath, ec);
            throw EngineError("Could not write the checkpoint " + finalPath + ": " + e.what(), "checkpoint");
        }
    }
    // The archive's references to the tensors ended with it; this copy's end here, so that what only it held (a
    // sharded run's gathered optimizer state, when moved in) is freed before the file is read back.
    state = CheckpointState();
    fsyncPath(tmpPath, false);
    // Read it back before it replaces anything: a checkpoint in place is one that loads.
    const std::string problem = checkpointProblem(tmpPath, expected);
    if (!problem.empty()) {
        fs::remove(tmpPath, ec);
        throw EngineError("The checkpoint " + finalPath + " does not read back after writing: " + problem, "checkpoint",
                          {}, "Check the disk (space, errors) of the run folder.");
    }
    fs::rename(tmpPath, finalPath, ec);
    if (ec)
        throw EngineError("Could not move the checkpoint into place (" + finalPath + "): " + ec.message(),
                          "checkpoint");
    fsyncPath(dir, true);
    rememberUsable(finalPath, expected);
    return finalPath;
}

std::vector<std::pair<std::int64_t, std::string>> listCheckpoints(const std::string &runDir) {
    std::vector<std::pair<std::int64_t, std::string>> out;
    std::error_code ec;
    static const std::regex pattern(R"(step-(\d{1,18})\.pt)");
    for (const auto &entry : fs::directory_iterator(checkpointDir(runDir), ec)) {
        std::smatch m;
        const std::string file = entry.path().filename().string();
        if (std::regex_match(file, m, pattern)) out.emplace_back(std::stoll(m[1].str()), entry.path().string());
    }
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    return out;
}

PruneResult pruneCheckpoints(const std::string &runDir, int keep, const CheckpointState &expected) {
    PruneResult result;
    std::error_code ec;
    const auto all = listCheckpoints(runDir);
    const std::size_t wanted = static_cast<std::size_t>(std::max(keep, 1));
    std::vector<std::string> unusable, problems;
    std::size_t i = 0;
    for (; i < all.size() && result.kept.size() < wanted; ++i) {
        const std::string &path = all[i].second;
        std::string problem = knownUsable(path, expected) ? std::string() : checkpointProblem(path, expected);
        if (problem.empty()) {
            rememberUsable(path, expected);
            result.kept.push_back(path);
        } else {
            unusable.push_back(path);
            problems.push_back(problem);
        }
    }
    // Unusable files newer than the oldest kept checkpoint: out of the way, not deleted.
    const fs::path quarantine = fs::path(checkpointDir(runDir)) / "unreadable";
    for (std::size_t k = 0; k < unusable.size(); ++k) {
        fs::create_directories(quarantine, ec);
        const fs::path target = quarantine / fs::path(unusable[k]).filename();
        fs::rename(unusable[k], target, ec);
        if (!ec) {
            result.quarantined.push_back(target.string());
            result.problems.push_back(problems[k]);
        }
    }
    // Everything older than the oldest kept checkpoint goes, as before (only once `keep` were found).
    if (result.kept.size() == wanted) {
        for (; i < all.size(); ++i) {
            if (fs::remove(all[i].second, ec)) result.deleted.push_back(all[i].second);
        }
    }
    return result;
}

namespace {

/// A checkpoint's tensors, read and checked against the expected entries, not yet applied.
struct LoadedCheckpoint {
    std::int64_t step = 0, world = 1, evalsWithoutImprovement = 0;
    std::vector<torch::Tensor> model;
    std::map<std::string, torch::Tensor> optimizer;
    torch::Tensor rng;
    std::vector<torch::Tensor> rankRng;
    double bestMetric = 0;
    bool hasBest = false;
    double lossScale = 0;
    std::int64_t lossScaleGoodSteps = 0;
};

/// The one number stored under `key` (an integral or floating scalar tensor).
torch::Tensor readScalar(torch::serialize::InputArchive &archive, const std::string &key, const std::string &path) {
    torch::Tensor t;
    archive.read(key, t);
    if (t.numel() != 1 || t.is_complex() || t.scalar_type() == torch::kBool)
        throw EngineError("checkpoint " + path + ": '" + key + "' is not a single number (shape " +
                          std::to_string(t.numel()) + " elements).");
    return t;
}

/// A generator state: a 1-D uint8 tensor (libtorch checks its length when it is set).
torch::Tensor checkRngState(const torch::Tensor &t, const std::string &key, const std::string &path) {
    if (t.dim() != 1 || t.scalar_type() != torch::kUInt8)
        throw EngineError("checkpoint " + path + ": '" + key + "' is not a generator state.");
    return t;
}

std::string shapeText(c10::IntArrayRef shape) {
    std::ostringstream s;
    s << shape;
    return s.str();
}

LoadedCheckpoint loadChecked(const std::string &path, const CheckpointState &expected, std::int64_t maxBytes) {
    checkArchive(path, maxBytes > 0 ? maxBytes : ::diamond::config::defaultDataMaxBytes());
    torch::serialize::InputArchive archive;
    try {
        archive.load_from(path);
    } catch (const c10::Error &e) {
        throw EngineError("checkpoint " + path + " cannot be read: " + e.what_without_backtrace());
    } catch (const std::exception &e) { // e.g. the TorchScript parser on a damaged type annotation
        throw EngineError("checkpoint " + path + " cannot be read: " + e.what());
    }
    // A fresh tensor for every read: reading into a defined tensor would re-point (set_) that tensor.
    if (torch::Tensor complete; !archive.try_read("meta/complete", complete))
        throw EngineError("checkpoint " + path + " is incomplete");
    const std::int64_t version = readScalar(archive, "meta/version", path).item<std::int64_t>();
    if (version != kCheckpointVersion)
        throw EngineError("checkpoint " + path + " has an unsupported version " + std::to_string(version));
    LoadedCheckpoint c;
    c.step = readScalar(archive, "meta/step", path).item<std::int64_t>();
    if (c.step < 0) throw EngineError("checkpoint " + path + " has the negative step " + std::to_string(c.step));
    c.model.resize(expected.model.size());
    for (std::size_t i = 0; i < expected.model.size(); ++i) {
        const auto &[name, want] = expected.model[i];
        if (!archive.try_read("model/" + name, c.model[i]))
            throw EngineError("checkpoint " + path + " has no tensor '" + name + "' (different network?)");
        if (c.model[i].sizes() != want.sizes() || c.model[i].scalar_type() != want.scalar_type())
            throw EngineError("checkpoint " + path + ": '" + name + "' is " +
                              std::string(c10::toString(c.model[i].scalar_type())) + " " +
                              shapeText(c.model[i].sizes()) + ", the network's is " +
                              std::string(c10::toString(want.scalar_type())) + " " + shapeText(want.sizes()) +
                              " (different network?)");
    }
    for (const auto &[key, want] : expected.optimizer) {
        torch::Tensor v;
        if (!archive.try_read("optim/" + key, v))
            throw EngineError("checkpoint " + path + " has no optimizer state '" + key + "'");
        if (v.sizes() != want.sizes() || v.scalar_type() != want.scalar_type())
            throw EngineError("checkpoint " + path + ": optimizer state '" + key + "' is " +
                              std::string(c10::toString(v.scalar_type())) + " " + shapeText(v.sizes()) + ", expected " +
                              std::string(c10::toString(want.scalar_type())) + " " + shapeText(want.sizes()));
        c.optimizer[key] = v;
    }
    torch::Tensor rng, world;
    archive.read("rng/cpu", rng);
    c.rng = checkRngState(rng, "rng/cpu", path);
    if (archive.try_read("meta/world", world)) {
        if (world.numel() != 1 || world.is_floating_point())
            throw EngineError("checkpoint " + path + ": 'meta/world' is not a whole number");
        c.world = world.item<std::int64_t>();
    }
    if (c.world < 1 || c.world > kMaxWorld)
        throw EngineError("checkpoint " + path + " says " + std::to_string(c.world) + " ranks wrote it");
    for (std::int64_t r = 0; r < c.world; ++r) {
        torch::Tensor rank;
        if (archive.try_read("rng/rank" + std::to_string(r), rank))
            c.rankRng.push_back(checkRngState(rank, "rng/rank" + std::to_string(r), path));
    }
    c.bestMetric = readScalar(archive, "train/best_metric", path).item<double>();
    c.hasBest = readScalar(archive, "train/has_best", path).item<std::int64_t>() != 0;
    c.evalsWithoutImprovement = readScalar(archive, "train/evals_without_improvement", path).item<std::int64_t>();
    if (torch::Tensor scale; archive.try_read("train/loss_scale", scale)) { // fp16 runs only
        if (scale.numel() != 1 || !scale.is_floating_point() || !std::isfinite(scale.item<double>()) ||
            scale.item<double>() <= 0)
            throw EngineError("checkpoint " + path + ": 'train/loss_scale' is not a positive number");
        c.lossScale = scale.item<double>();
        c.lossScaleGoodSteps = readScalar(archive, "train/loss_scale_good_steps", path).item<std::int64_t>();
    }
    return c;
}

} // namespace

std::string checkpointProblem(const std::string &path, const CheckpointState &expected, std::int64_t maxBytes) {
    try {
        (void)loadChecked(path, expected, maxBytes);
        return {};
    } catch (const c10::Error &e) {
        return e.what_without_backtrace();
    } catch (const std::exception &e) {
        return e.what();
    } catch (...) {
        return "unknown error";
    }
}

void readCheckpoint(const std::string &path, CheckpointState &state, std::int64_t maxBytes) {
    LoadedCheckpoint c;
    try {
        c = loadChecked(path, state, maxBytes);
    } catch (const EngineError &) {
        throw;
    } catch (const c10::Error &e) { // a record that libtorch could not turn into the tensor asked for
        throw EngineError("checkpoint " + path + " cannot be read: " + e.what_without_backtrace());
    }
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < state.model.size(); ++i)
        state.model[i].second.copy_(c.model[i]);
    for (auto &[key, tensor] : state.optimizer)
        tensor = c.optimizer[key];
    state.step = c.step;
    state.rngState = c.rng;
    state.rankRngStates = c.rankRng;
    state.world = c.world;
    state.bestMetric = c.bestMetric;
    state.hasBest = c.hasBest;
    state.evalsWithoutImprovement = c.evalsWithoutImprovement;
    state.lossScale = c.lossScale;
    state.lossScaleGoodSteps = c.lossScaleGoodSteps;
}

} // namespace diamond::engine
