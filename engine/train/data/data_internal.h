// Private helpers of the data module (engine/train/data only): option parsing with "data.<key>" errors,
// path resolution, seeded generators, memory-mapped files, the shared finishing step of array sources
// (npy, npz, hdf5) and the factories of the individual sources.
#pragma once

#include "data/dataset.h"
#include "engine_error.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace diamond::engine::data {

/// Reads the source's keys from DataConfig::options. Every getter throws EngineError with field
/// "data.<key>" when the value has the wrong type or range. `checkUnknown()` throws for keys that no getter
/// asked for (typos), apart from the common keys source, validation_split and standardize.
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

private:
    const DataConfig &config_;
    std::string source_;
    std::vector<std::string> known_;
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

/// A read-only file mapped copy-on-write (PROT_READ|PROT_WRITE, MAP_PRIVATE: tensors over it may be written
/// without touching the file). Throws EngineError(field) naming the file when it cannot be opened or mapped.
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

/// Reads a whole file (transparently gunzipping .gz or any gzip stream) into memory.
std::vector<std::uint8_t> readFileMaybeGz(const std::string &path, const std::string &field);

/// "[2]", "[1, 28, 28]"
std::string shapeText(torch::IntArrayRef shape);
/// The one-line description: "<label>: 3000 x [2], 3 classes" or "<label>: 1000 x [1] -> [1], regression".
std::string describe(const std::string &label, const Dataset &dataset);

/// The shared last step of the array sources (npy, npz, hdf5): turns raw arrays of any supported dtype into a
/// Dataset honouring the contract. Options read: task ("auto"|"classification"|"regression") and input_dtype
/// ("auto"|"float32"|"int64"). Auto rules: float/uint8/bool inputs -> float32, int32/int64 inputs -> int64
/// (token ids); integer/bool targets -> classification, float targets -> regression. `inputsWhat` and
/// `targetsWhat` name the arrays in messages (e.g. "data.npy 'x'"), `inputsKey`/`targetsKey` are the option
/// keys used as error fields.
Dataset finishArrays(torch::Tensor inputs, torch::Tensor targets, Options &options, const std::string &inputsWhat,
                     const std::string &targetsWhat, const std::string &inputsKey, const std::string &targetsKey);

/// The input dtype finishArrays() will produce for raw inputs of `raw` type (reads option input_dtype).
torch::ScalarType inputScalarType(torch::ScalarType raw, Options &options, const std::string &inputsWhat);

/// Sets numClasses from int64 class indices (checks they are >= 0); throws naming `what`/`field`.
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
