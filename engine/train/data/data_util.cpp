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

const char *const kCommonKeys[] = {"source", "validation_split", "standardize"};

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

Options::Options(const DataConfig &config, std::string sourceName) : config_(config), source_(std::move(sourceName)) {
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

MappedFile::MappedFile(const std::string &path, const std::string &field) : path_(path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw EngineError("Cannot open '" + path + "' (" + field + "): " + std::strerror(errno) + ".", field);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw EngineError("'" + path + "' (" + field + ") is not a regular file.", field);
    }
    size_ = static_cast<std::size_t>(st.st_size);
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

std::vector<std::uint8_t> readFileMaybeGz(const std::string &path, const std::string &field) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw EngineError("Cannot open '" + path + "' (" + field + "): " + std::strerror(errno) + ".", field);
    gzbuffer(f, 1 << 17);
    std::vector<std::uint8_t> out;
    std::size_t used = 0;
    for (;;) {
        if (out.size() - used < (1u << 20)) out.resize(std::max<std::size_t>(out.size() * 2, used + (1u << 20)));
        const int n = gzread(f, out.data() + used, static_cast<unsigned>(out.size() - used));
        if (n < 0) {
            int code = 0;
            const std::string message = gzerror(f, &code);
            gzclose(f);
            throw EngineError("Cannot read '" + path + "' (" + field + "): " + message + ".", field);
        }
        if (n == 0) break;
        used += static_cast<std::size_t>(n);
    }
    gzclose(f);
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

    Dataset d;
    if (inputs.dim() == 1) inputs = inputs.unsqueeze(1);
    d.inputs = inputs.scalar_type() == inType ? inputs.contiguous() : inputs.to(inType).contiguous();

    const bool integral = isIntegerType(targets.scalar_type());
    d.task = task == "auto" ? (integral ? "classification" : "regression") : task;
    const std::int64_t s = targets.size(0);
    if (d.task == "classification") {
        if (targets.dim() == 2 && targets.size(1) == 1) targets = targets.reshape({s});
        if (targets.dim() != 1)
            throw EngineError(targetsWhat + " has shape " + shapeText(targets.sizes()) +
                                  ", but classification targets are one class index per sample ([S]).",
                              Options::field(targetsKey), {},
                              "Set \"task\": \"regression\" for several outputs per sample.");
        if (!integral) {
            const torch::Tensor t = targets.to(torch::kFloat64);
            if (!t.isfinite().all().item<bool>() || !t.eq(t.round()).all().item<bool>())
                throw EngineError(targetsWhat + " holds non-integer values, so they cannot be class indices.",
                                  Options::field(targetsKey), {},
                                  "Set \"task\": \"regression\" or store class indices.");
        }
        d.targets =
            targets.scalar_type() == torch::kInt64 ? targets.contiguous() : targets.to(torch::kInt64).contiguous();
        setClassCount(d, targetsWhat, Options::field(targetsKey));
    } else {
        d.targets = targets.reshape({s, -1}).to(torch::kFloat32).contiguous();
        if (!d.targets.isfinite().all().item<bool>())
            throw EngineError(targetsWhat + " holds NaN or infinite values.", Options::field(targetsKey));
    }
    if (d.inputs.is_floating_point() && !d.inputs.isfinite().all().item<bool>())
        throw EngineError(inputsWhat + " holds NaN or infinite values.", Options::field(inputsKey));
    return d;
}

} // namespace diamond::engine::data
