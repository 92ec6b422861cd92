// Shared helpers of the data module: options, paths, generators, mapped files, array finishing.
#include "data/data_internal.h"

#include <ATen/CPUGeneratorImpl.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace diamond::engine::data {

namespace {

const char *const kCommonKeys[] = {"source", "validation_split", "standardize", "max_bytes", "dataset"};

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

std::string joined(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

bool isIntegerType(torch::ScalarType t) {
    return t == torch::kInt64 || t == torch::kInt32 || t == torch::kUInt8 || t == torch::kInt8 || t == torch::kInt16 ||
           t == torch::kBool;
}

} // namespace

// ---- Options ----------------------------------------------------------------------------------------------

void ByteBudget::charge(std::uint64_t bytes, const std::string &what, const std::string &field) {
    if (bytes <= remaining()) {
        used_ += bytes;
        return;
    }
    throw EngineError(what + " needs " + std::to_string(bytes) + " bytes in memory" +
                          (used_ ? " on top of the " + std::to_string(used_) + " this data source already holds" : "") +
                          ", more than data.max_bytes allows (" + std::to_string(cap_) + " bytes).",
                      field, {}, "Use a smaller dataset, or raise data.max_bytes if this machine has the memory.");
}

Options::Options(const DataConfig &config, std::string sourceName)
    : config_(config), source_(std::move(sourceName)), budget_(config.maxBytesOrDefault()) {
    if (!config_.options.is_null() && !config_.options.is_object())
        throw EngineError("'data' must be a JSON object.", "data");
}

const nlohmann::json *Options::raw(const std::string &key) {
    if (std::find(known_.begin(), known_.end(), key) == known_.end()) known_.push_back(key);
    if (!config_.options.is_object()) return nullptr;
    const auto it = config_.options.find(key);
    if (it == config_.options.end() || it->is_null()) return nullptr;
    return &*it;
}

bool Options::has(const std::string &key) { return raw(key) != nullptr; }

std::int64_t Options::integer(const std::string &key, std::int64_t fallback, std::int64_t min, std::int64_t max) {
    const nlohmann::json *v = raw(key);
    if (!v) return fallback;
    std::int64_t value = 0;
    if (v->is_number_integer()) {
        if (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(max))
            value = max + 1;
        else
            value = v->get<std::int64_t>();
    } else if (v->is_number_float() && std::isfinite(v->get<double>()) &&
               std::floor(v->get<double>()) == v->get<double>() && std::fabs(v->get<double>()) < 9e15) {
        value = static_cast<std::int64_t>(v->get<double>());
    } else {
        throw EngineError("'" + field(key) + "' must be an integer (got " + v->dump() + ").", field(key));
    }
    if (value < min || value > max)
        throw EngineError("'" + field(key) + "' must be between " + std::to_string(min) + " and " +
                              std::to_string(max) + " (got " + std::to_string(value) + ").",
                          field(key));
    return value;
}

double Options::number(const std::string &key, double fallback, double min, double max) {
    const nlohmann::json *v = raw(key);
    if (!v) return fallback;
    if (!v->is_number())
        throw EngineError("'" + field(key) + "' must be a number (got " + v->dump() + ").", field(key));
    const double value = v->get<double>();
    if (!(value >= min && value <= max)) {
        std::ostringstream s;
        s << "'" << field(key) << "' must be between " << min << " and " << max << " (got " << value << ").";
        throw EngineError(s.str(), field(key));
    }
    return value;
}

bool Options::boolean(const std::string &key, bool fallback) {
    const nlohmann::json *v = raw(key);
    if (!v) return fallback;
    if (!v->is_boolean())
        throw EngineError("'" + field(key) + "' must be true or false (got " + v->dump() + ").", field(key));
    return v->get<bool>();
}

std::string Options::string(const std::string &key, const std::string &fallback,
                            std::initializer_list<const char *> allowed) {
    const nlohmann::json *v = raw(key);
    if (!v) return fallback;
    if (!v->is_string())
        throw EngineError("'" + field(key) + "' must be a string (got " + v->dump() + ").", field(key));
    std::string value = v->get<std::string>();
    if (allowed.size() == 0) return value;
    std::vector<std::string> names;
    for (const char *a : allowed) {
        if (value == a) return value;
        names.emplace_back(std::string("\"") + a + "\"");
    }
    throw EngineError("'" + field(key) + "' must be one of " + joined(names) + " (got \"" + value + "\").", field(key));
}

std::string Options::requiredString(const std::string &key) {
    const nlohmann::json *v = raw(key);
    if (!v)
        throw EngineError("The data source '" + source_ + "' needs '" + field(key) + "'.", field(key), {},
                          "Add \"" + key + "\" to the \"data\" section.");
    if (!v->is_string() || v->get<std::string>().empty())
        throw EngineError("'" + field(key) + "' must be a non-empty string (got " + v->dump() + ").", field(key));
    return v->get<std::string>();
}

std::string Options::path(const std::string &key) { return resolvePath(config_.baseDir, requiredString(key)); }

void Options::checkUnknown() const {
    if (!config_.options.is_object()) return;
    for (auto it = config_.options.begin(); it != config_.options.end(); ++it) {
        const std::string &key = it.key();
        if (std::find(std::begin(kCommonKeys), std::end(kCommonKeys), key) != std::end(kCommonKeys)) continue;
        if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
        std::vector<std::string> names(known_.begin(), known_.end());
        std::sort(names.begin(), names.end());
        throw EngineError("'" + field(key) + "' is not an option of the data source '" + source_ + "'.", field(key), {},
                          names.empty() ? std::string("This source takes no options.")
                                        : "Its options are: " + joined(names) + ".");
    }
}

// ---- paths, generators ------------------------------------------------------------------------------------

std::string resolvePath(const std::string &baseDir, const std::string &path) {
    return ::diamond::config::resolveDataPath(baseDir, path);
}

at::Generator seededGenerator(std::uint64_t seed, std::uint64_t stream) {
    const std::uint64_t h = splitmix64(splitmix64(seed) ^ splitmix64(stream * 0xD1B54A32D192ED03ULL + 1));
    return at::detail::createCPUGenerator((h ^ (h >> 32)) & 0xFFFFFFFFULL);
}

namespace {

/// The number of CPUs this process may run on (its affinity mask), at least 1.
int usableCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
    return static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

} // namespace

torch::Tensor standardNormalRows(at::IntArrayRef shape, at::Generator &gen, int workers,
                                 const std::function<void(std::int64_t, float *)> &perRow) {
    torch::Tensor x = torch::empty(shape, torch::kFloat32);
    const std::int64_t rows = shape.empty() ? 1 : shape[0];
    if (x.numel() == 0) return x;
    const std::int64_t rowSize = x.numel() / rows;
    constexpr std::int64_t kBlockValues = std::int64_t{1} << 16;
    const std::int64_t rowsPerBlock = std::max<std::int64_t>(1, kBlockValues / rowSize);
    const std::int64_t blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
    std::uint64_t base = 0;
    {
        auto *impl = gen.get<at::CPUGeneratorImpl>();
        const std::lock_guard<std::mutex> lock(gen.mutex());
        base = impl->random64();
    }
    float *const values = x.data_ptr<float>();
    std::atomic<std::int64_t> next{0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    const auto work = [&] {
        try {
            for (std::int64_t b = next++; b < blocks; b = next++) {
                throwIfStopRequested();
                const std::int64_t first = b * rowsPerBlock, count = std::min(rowsPerBlock, rows - first);
                torch::Tensor block = x.narrow(0, first, count);
                block.normal_(0.0, 1.0, seededGenerator(base, static_cast<std::uint64_t>(b)));
                if (perRow)
                    for (std::int64_t r = first; r < first + count; ++r)
                        perRow(r, values + r * rowSize);
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(failureMutex);
            if (!failure) failure = std::current_exception();
        }
    };
    const int threads = static_cast<int>(std::min<std::int64_t>(blocks, workers > 0 ? workers : usableCores()));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread &t : pool)
        t.join();
    if (failure) std::rethrow_exception(failure);
    return x;
}

// ---- files ------------------------------------------------------------------------------------------------

namespace {

std::string fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a plain file";
}

} // namespace

int openRegularFile(const std::string &path, const std::string &field, std::uint64_t &size) {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever; it changes nothing for files.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw EngineError("Cannot open '" + path + "' (" + field + "): " + std::strerror(errno) + ".", field);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const std::string kind = fileKind(st.st_mode);
        ::close(fd);
        throw EngineError("'" + path + "' (" + field + ") is not a regular file (it is " + kind + ").", field, {},
                          "Point " + field + " at a data file.");
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    size = static_cast<std::uint64_t>(st.st_size);
    return fd;
}

MappedFile::MappedFile(const std::string &path, const std::string &field) : path_(path) {
    std::uint64_t size = 0;
    const int fd = openRegularFile(path, field, size);
    size_ = static_cast<std::size_t>(size);
    if (size_ > 0) {
        addr_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (addr_ == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            addr_ = nullptr;
            throw EngineError("Cannot map '" + path + "' (" + field + ") into memory: " + std::strerror(err) + ".",
                              field);
        }
    }
    ::close(fd);
}

MappedFile::~MappedFile() {
    if (addr_) ::munmap(addr_, size_);
}

SequentialFile::SequentialFile(const std::string &path, const std::string &field) : path_(path), field_(field) {
    std::uint64_t size = 0;
    const int fd = openRegularFile(path, field, size);
    sizeHint_ = size;
    std::uint8_t head[2] = {}, trailer[4] = {};
    if (size >= 18 && ::pread(fd, head, 2, 0) == 2 && head[0] == 0x1f && head[1] == 0x8b &&
        ::pread(fd, trailer, 4, static_cast<off_t>(size - 4)) == 4)
        sizeHint_ = trailer[0] | (trailer[1] << 8) | (trailer[2] << 16) | (std::uint64_t(trailer[3]) << 24);
    gzFile f = gzdopen(fd, "rb"); // takes the descriptor: gzclose() closes it
    if (!f) {
        ::close(fd);
        throw EngineError("Cannot read '" + path + "' (" + field + "): out of memory.", field);
    }
    gzbuffer(f, 1 << 17);
    gz_ = f;
}

SequentialFile::~SequentialFile() { gzclose(static_cast<gzFile>(gz_)); }

std::size_t SequentialFile::read(void *out, std::size_t n) {
    auto *f = static_cast<gzFile>(gz_);
    std::size_t done = 0;
    while (done < n) {
        throwIfStopRequested();
        const auto chunk = static_cast<unsigned>(std::min<std::size_t>(n - done, std::size_t(1) << 22));
        const int got = gzread(f, static_cast<std::uint8_t *>(out) + done, chunk);
        if (got < 0) {
            int code = 0;
            const std::string message = gzerror(f, &code);
            throw EngineError("Cannot read '" + path_ + "' (" + field_ + "): " + message + ".", field_);
        }
        if (got == 0) break;
        done += static_cast<std::size_t>(got);
    }
    return done;
}

ByteBuffer readFileMaybeGz(const std::string &path, const std::string &field, ByteBudget &budget) {
    SequentialFile file(path, field);
    const std::string what = "'" + path + "' (" + field + ")";
    constexpr std::size_t kStep = std::size_t(1) << 20;
    const auto remaining = [&] {
        return static_cast<std::size_t>(std::min<std::uint64_t>(budget.remaining(), 1ULL << 62));
    };
    ByteBuffer out;
    // One allocation for the expected size (one step more, to see the end or passing the cap); doubling after.
    out.resize(std::min(static_cast<std::size_t>(std::min<std::uint64_t>(file.sizeHint(), 1ULL << 62)), remaining()) +
               kStep);
    std::size_t used = 0;
    for (;;) {
        if (out.size() - used < kStep)
            out.resize(std::min(std::max(out.size() * 2, used + kStep), used + remaining() + kStep));
        const std::size_t n = file.read(out.data() + used, out.size() - used);
        if (n == 0) break;
        budget.charge(n, what, field);
        used += n;
    }
    out.resize(used);
    return out;
}

// ---- descriptions -----------------------------------------------------------------------------------------

std::string shapeText(torch::IntArrayRef shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

std::string describe(const std::string &label, const Dataset &d) {
    std::string s = label + ": " + std::to_string(d.size()) + " x " + shapeText(d.inputs.sizes().slice(1));
    if (d.inputs.scalar_type() == torch::kInt64) s += " tokens";
    if (d.task == "classification") return s + ", " + std::to_string(d.numClasses) + " classes";
    return s + " -> " + shapeText(d.targets.sizes().slice(1)) + ", regression";
}

// ---- array finishing --------------------------------------------------------------------------------------

torch::ScalarType inputScalarType(torch::ScalarType raw, Options &options, const std::string &inputsWhat) {
    const std::string want = options.string("input_dtype", "auto", {"auto", "float32", "int64"});
    if (want == "float32") return torch::kFloat32;
    if (want == "int64") {
        if (!isIntegerType(raw))
            throw EngineError(inputsWhat + " holds floating-point values, so it cannot be read as int64 token ids.",
                              Options::field("input_dtype"), {}, "Remove data.input_dtype or set it to \"float32\".");
        return torch::kInt64;
    }
    return (raw == torch::kInt64 || raw == torch::kInt32 || raw == torch::kInt16 || raw == torch::kInt8)
               ? torch::kInt64
               : torch::kFloat32;
}

void setClassCount(Dataset &d, const std::string &what, const std::string &field) {
    if (d.targets.numel() == 0) {
        d.numClasses = 0;
        return;
    }
    const std::int64_t lo = d.targets.min().item<std::int64_t>();
    const std::int64_t hi = d.targets.max().item<std::int64_t>();
    if (lo < 0)
        throw EngineError(
            what + " holds the negative class index " + std::to_string(lo) + "; class indices must be 0..k-1.", field);
    if (hi > kMaxClassIndex)
        throw EngineError(
            what + " holds the class index " + std::to_string(hi) + "; class indices must be at most " +
                std::to_string(kMaxClassIndex) + " (at most " + std::to_string(kMaxClassIndex + 1) + " classes).",
            field, {}, "Store class indices 0..k-1, or set \"task\": \"regression\" for numeric targets.");
    d.numClasses = hi + 1;
}

Dataset finishArrays(torch::Tensor inputs, torch::Tensor targets, Options &options, const std::string &inputsWhat,
                     const std::string &targetsWhat, const std::string &inputsKey, const std::string &targetsKey) {
    const std::string task = options.string("task", "auto", {"auto", "classification", "regression"});
    const torch::ScalarType inType = inputScalarType(inputs.scalar_type(), options, inputsWhat);
    if (inputs.dim() == 0 || inputs.size(0) == 0)
        throw EngineError(inputsWhat + " has no samples (shape " + shapeText(inputs.sizes()) + ").",
                          Options::field(inputsKey));
    if (targets.dim() == 0 || targets.size(0) != inputs.size(0))
        throw EngineError(targetsWhat + " has shape " + shapeText(targets.sizes()) + " but " + inputsWhat + " has " +
                              std::to_string(inputs.size(0)) + " samples; both need the same first dimension.",
                          Options::field(targetsKey));

    if (inputs.numel() == 0)
        throw EngineError(inputsWhat + " has shape " + shapeText(inputs.sizes()) + ": its samples hold no values.",
                          Options::field(inputsKey));
    if (targets.numel() == 0)
        throw EngineError(targetsWhat + " has shape " + shapeText(targets.sizes()) + ": its samples hold no values.",
                          Options::field(targetsKey));

    ByteBudget &budget = options.budget();
    const auto bytesOf = [](const torch::Tensor &t, torch::ScalarType type) {
        return static_cast<std::uint64_t>(t.numel()) * torch::elementSize(type);
    };
    Dataset d;
    if (inputs.dim() == 1) inputs = inputs.unsqueeze(1);
    if (inputs.scalar_type() != inType) budget.charge(bytesOf(inputs, inType), inputsWhat, Options::field(inputsKey));
    d.inputs = inputs.scalar_type() == inType ? inputs.contiguous() : inputs.to(inType).contiguous();

    const bool integral = isIntegerType(targets.scalar_type());
    d.task = task == "auto" ? (integral ? "classification" : "regression") : task;
    const std::int64_t s = targets.size(0);
    const std::string targetsField = Options::field(targetsKey);
    if (d.task == "classification") {
        if (targets.dim() == 2 && targets.size(1) == 1) targets = targets.reshape({s});
        if (targets.dim() != 1)
            throw EngineError(targetsWhat + " has shape " + shapeText(targets.sizes()) +
                                  ", but classification targets are one class index per sample ([S]).",
                              targetsField, {}, "Set \"task\": \"regression\" for several outputs per sample.");
        if (!integral) {
            // Whole numbers within the class-index range only: a float beyond int64 has no int64 value.
            const std::uint64_t temporary = bytesOf(targets, torch::kFloat64);
            budget.charge(temporary, targetsWhat, targetsField);
            const torch::Tensor t = targets.to(torch::kFloat64);
            if (!t.isfinite().all().item<bool>() || !t.eq(t.round()).all().item<bool>())
                throw EngineError(targetsWhat + " holds non-integer values, so they cannot be class indices.",
                                  targetsField, {}, "Set \"task\": \"regression\" or store class indices.");
            const double lo = t.min().item<double>(), hi = t.max().item<double>();
            if (lo < 0 || hi > static_cast<double>(kMaxClassIndex)) {
                std::ostringstream value;
                value << (lo < 0 ? lo : hi);
                throw EngineError(targetsWhat + " holds the class index " + value.str() +
                                      "; class indices must be 0.." + std::to_string(kMaxClassIndex) + ".",
                                  targetsField, {}, "Store class indices 0..k-1, or set \"task\": \"regression\".");
            }
            budget.release(temporary);
        }
        if (targets.scalar_type() != torch::kInt64)
            budget.charge(bytesOf(targets, torch::kInt64), targetsWhat, targetsField);
        d.targets =
            targets.scalar_type() == torch::kInt64 ? targets.contiguous() : targets.to(torch::kInt64).contiguous();
        setClassCount(d, targetsWhat, targetsField);
    } else {
        if (targets.scalar_type() != torch::kFloat32)
            budget.charge(bytesOf(targets, torch::kFloat32), targetsWhat, targetsField);
        d.targets = targets.reshape({s, -1}).to(torch::kFloat32).contiguous();
        if (!d.targets.isfinite().all().item<bool>())
            throw EngineError(targetsWhat + " holds NaN or infinite values.", targetsField);
    }
    if (d.inputs.is_floating_point() && !d.inputs.isfinite().all().item<bool>())
        throw EngineError(inputsWhat + " holds NaN or infinite values.", Options::field(inputsKey));
    return d;
}

} // namespace diamond::engine::data
