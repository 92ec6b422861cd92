// Private helpers of the data module (engine/train/data only): option parsing with "data.<key>" errors, the
// memory budget of a load (data.max_bytes), path resolution, seeded generators, memory-mapped and gzip-aware
// files, the shared finishing step of array sources (npy, npz, hdf5) and the factories of the sources.
#pragma once

#include "checked_math.h"
#include "data/dataset.h"
#include "engine_error.h"
#include "stop_request.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace diamond::engine::data {

/// The memory a data source may still take while it loads (data.max_bytes, DataConfig::maxBytesOrDefault()).
/// Contract: a source charges every buffer and tensor whose size comes from a file or an option (decompressed
/// contents, copies, converted tensors, the tensors it returns, memory-mapped arrays included) BEFORE
/// allocating it; charge() throws EngineError(field) naming `what`, the bytes asked for, those already charged
/// and the cap when the total would pass the cap. release() returns bytes of a buffer that was freed.
class ByteBudget {
public:
    explicit ByteBudget(std::int64_t cap) : cap_(static_cast<std::uint64_t>(cap > 0 ? cap : 0)) {}

    void charge(std::uint64_t bytes, const std::string &what, const std::string &field);
    void release(std::uint64_t bytes) { used_ -= std::min(bytes, used_); }
    std::uint64_t cap() const { return cap_; }
    std::uint64_t used() const { return used_; }
    std::uint64_t remaining() const { return cap_ - used_; }

private:
    std::uint64_t cap_, used_ = 0;
};

/// Reads the source's keys from DataConfig::options. Every getter throws EngineError with field
/// "data.<key>" when the value has the wrong type or range. `checkUnknown()` throws for keys that no getter
/// asked for (typos), apart from the common keys source, validation_split, standardize and max_bytes.
/// budget() is the load's ByteBudget (one per Options, i.e. per load).
class Options {
public:
    Options(const DataConfig &config, std::string sourceName);

    bool has(const std::string &key);
    std::int64_t integer(const std::string &key, std::int64_t fallback, std::int64_t min, std::int64_t max);
    double number(const std::string &key, double fallback, double min, double max);
    bool boolean(const std::string &key, bool fallback);
    /// A string; when `allowed` is not empty the value must be one of them.
    std::string string(const std::string &key, const std::string &fallback,
                       std::initializer_list<const char *> allowed = {});
    /// A required, non-empty string.
    std::string requiredString(const std::string &key);
    /// A required path option, resolved against DataConfig::baseDir.
    std::string path(const std::string &key);
    /// The raw JSON value (or nullptr); marks the key as known.
    const nlohmann::json *raw(const std::string &key);
    /// Throws for unknown keys (listing the known ones).
    void checkUnknown() const;

    /// "data.<key>"
    static std::string field(const std::string &key) { return "data." + key; }
    const std::string &sourceName() const { return source_; }
    ByteBudget &budget() { return budget_; }

private:
    const DataConfig &config_;
    std::string source_;
    std::vector<std::string> known_;
    ByteBudget budget_;
};

/// `path` made absolute against `baseDir` when relative (and baseDir is not empty).
std::string resolvePath(const std::string &baseDir, const std::string &path);

/// A CPU generator whose state depends only on (seed, stream), using all 64 bits of both (torch's mt19937
/// takes only 32 bits of a seed, so the pair is hashed down first).
at::Generator seededGenerator(std::uint64_t seed, std::uint64_t stream);

/// A [rows, ...] contiguous float32 tensor of standard normal values, deterministic in `gen`'s
/// state (from which it draws one number) and independent of `workers`: blocks of whole rows of
/// about 64K values, each drawn from its own generator, filled on up to `workers` threads (0: the
/// cores this process may run on). `perRow(row, values)`, when given, runs on each row right after
/// its block is drawn (while it is in cache), on the same thread.
torch::Tensor standardNormalRows(at::IntArrayRef shape, at::Generator &gen, int workers = 0,
                                 const std::function<void(std::int64_t row, float *values)> &perRow = {});

/// Stream ids of seededGenerator, so the data, the split and the sampler never share random numbers.
enum Stream : std::uint64_t { kStreamSynthetic = 1, kStreamSplit = 2, kStreamSampler = 3 };

/// Opens `path` for reading and checks that it is a regular file (without blocking on a FIFO); returns the file
/// descriptor (O_CLOEXEC) and its size. Throws EngineError(field) naming the file when it cannot be opened or
/// is not a regular file (a folder, a device such as /dev/zero, a FIFO, a socket).
int openRegularFile(const std::string &path, const std::string &field, std::uint64_t &size);

/// A read-only file mapped copy-on-write (PROT_READ|PROT_WRITE, MAP_PRIVATE: tensors over it may be written
/// without touching the file). Throws EngineError(field) naming the file when it cannot be opened, is not a
/// regular file (see openRegularFile) or cannot be mapped.
class MappedFile {
public:
    MappedFile(const std::string &path, const std::string &field);
    ~MappedFile();
    MappedFile(const MappedFile &) = delete;
    MappedFile &operator=(const MappedFile &) = delete;

    const std::uint8_t *data() const { return static_cast<const std::uint8_t *>(addr_); }
    std::uint8_t *mutableData() { return static_cast<std::uint8_t *>(addr_); }
    std::size_t size() const { return size_; }
    const std::string &path() const { return path_; }

private:
    std::string path_;
    void *addr_ = nullptr;
    std::size_t size_ = 0;
};

/// A regular file read from the start, gunzipped on the fly when it is a gzip stream (zlib's gz* functions pass
/// other files through). Throws EngineError(field) like openRegularFile() and on read errors; read() polls the
/// stop request (throwIfStopRequested) before each chunk.
class SequentialFile {
public:
    SequentialFile(const std::string &path, const std::string &field);
    ~SequentialFile();
    SequentialFile(const SequentialFile &) = delete;
    SequentialFile &operator=(const SequentialFile &) = delete;

    /// Reads up to `n` bytes into `out`; returns how many were read (fewer only at the end of the data).
    std::size_t read(void *out, std::size_t n);
    const std::string &path() const { return path_; }
    /// The likely size of the (decompressed) contents: the file's size, or for a gzip stream the size its
    /// trailer records (modulo 2^32; only a hint, the stream may be longer or shorter).
    std::uint64_t sizeHint() const { return sizeHint_; }

private:
    std::string path_, field_;
    void *gz_ = nullptr; ///< gzFile
    std::uint64_t sizeHint_ = 0;
};

/// std::allocator that leaves new elements default-initialised (no zeroing of buffers about to be overwritten).
template <typename T> struct UninitialisedAllocator : std::allocator<T> {
    template <typename U> struct rebind { using other = UninitialisedAllocator<U>; };
    UninitialisedAllocator() = default;
    template <typename U> UninitialisedAllocator(const UninitialisedAllocator<U> &) noexcept {}
    template <typename U> void construct(U *p) noexcept { ::new (static_cast<void *>(p)) U; }
    template <typename U, typename... Args> void construct(U *p, Args &&...args) {
        ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
};

/// Bytes read from a file.
using ByteBuffer = std::vector<std::uint8_t, UninitialisedAllocator<std::uint8_t>>;

/// Reads a whole file (gunzipping it when it is a gzip stream) into memory, charging `budget` for the bytes as
/// they arrive: stops with the budget's EngineError, naming the file, as soon as the decompressed size passes
/// the cap. The caller releases the bytes from the budget when it frees them.
ByteBuffer readFileMaybeGz(const std::string &path, const std::string &field, ByteBudget &budget);

/// "[2]", "[1, 28, 28]"
std::string shapeText(torch::IntArrayRef shape);
/// The one-line description: "<label>: 3000 x [2], 3 classes" or "<label>: 1000 x [1] -> [1], regression".
std::string describe(const std::string &label, const Dataset &dataset);

/// The shared last step of the array sources (npy, npz, hdf5): turns raw arrays of any supported dtype into a
/// Dataset honouring the contract, charging options.budget() for every conversion before it is made. Options
/// read: task ("auto"|"classification"|"regression") and input_dtype ("auto"|"float32"|"int64"). Auto rules:
/// float/uint8/bool inputs -> float32, int32/int64 inputs -> int64 (token ids); integer/bool targets -> classification,
/// float targets -> regression. `inputsWhat` and `targetsWhat` name the arrays in messages (e.g. "data.npy 'x'"),
/// `inputsKey`/`targetsKey` are the option keys used as error fields.
Dataset finishArrays(torch::Tensor inputs, torch::Tensor targets, Options &options, const std::string &inputsWhat,
                     const std::string &targetsWhat, const std::string &inputsKey, const std::string &targetsKey);

/// The input dtype finishArrays() will produce for raw inputs of `raw` type (reads option input_dtype).
torch::ScalarType inputScalarType(torch::ScalarType raw, Options &options, const std::string &inputsWhat);

/// The largest class index a dataset may hold: 2^24 - 1, so at most 16,777,216 classes (more than any
/// classification head the engine can train, and small enough that class counts never overflow).
inline constexpr std::int64_t kMaxClassIndex = (std::int64_t(1) << 24) - 1;

/// Sets numClasses from int64 class indices (checks 0 <= index <= kMaxClassIndex); throws naming `what`/`field`
/// and the offending value.
void setClassCount(Dataset &dataset, const std::string &what, const std::string &field);

// Factories of the sources (one translation unit each); data_sources.cpp maps names to them.
std::unique_ptr<DataSource> makeSyntheticSource(const std::string &name); ///< nullptr when not synthetic
std::vector<std::string> syntheticSourceNames();
std::unique_ptr<DataSource> makeCsvSource();
std::unique_ptr<DataSource> makeNpySource();
std::unique_ptr<DataSource> makeNpzSource();
std::unique_ptr<DataSource> makeHdf5Source();
std::unique_ptr<DataSource> makeIdxSource();
std::unique_ptr<DataSource> makeImageFolderSource();

} // namespace diamond::engine::data
