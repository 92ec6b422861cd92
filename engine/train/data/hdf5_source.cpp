// hdf5: two datasets of one HDF5 file, read with the HDF5 C API in a child process (readInChildProcess: libhdf5
// 1.10.8 crashes on some damaged files) in hyperslabs of up to 4096 rows straight into a preallocated shared tensor
// (HDF5 converts the element type on the way, e.g. float64 -> float32 inputs). Options: path, inputs ("/x"), targets
// ("/y"), task, input_dtype. File types: float32, float64, int64, int32, uint8. Before a tensor is allocated its
// declared size is checked against what the file stores for the dataset (uncompressed: at least as many bytes;
// filtered/compressed: at most 1032 times as many, deflate's limit), against data.max_bytes (charged), and its chunks
// against data.max_bytes too (HDF5 allocates whole chunks); datasets stored in external files or virtual datasets are
// refused (they would read other files); each chunk of a compressed dataset must inflate to exactly one chunk
// (checkChunks), and only gzip and shuffle are read.
#include "data/array_listing.h"
#include "data/data_internal.h"
#include "data/isolated_reader.h"

#ifndef DIAMOND_NO_HDF5 // defined in engine-only builds made without libhdf5 (the #else at the end of the file)
#include <hdf5.h>
#include <zlib.h>

#include <filesystem>
#include <limits>

#include <sys/stat.h>
#include <unistd.h>

namespace diamond::engine::data {

namespace {

/// Owns an HDF5 identifier.
class Handle {
public:
    Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    ~Handle() {
        if (id_ >= 0) close_(id_);
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    hid_t get() const { return id_; }
    bool valid() const { return id_ >= 0; }

private:
    hid_t id_;
    herr_t (*close_)(hid_t);
};

/// Silences HDF5's error stack printing for its lifetime (errors become EngineErrors instead).
class QuietErrors {
public:
    QuietErrors() {
        H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
    QuietErrors(const QuietErrors &) = delete;
    QuietErrors &operator=(const QuietErrors &) = delete;

private:
    H5E_auto2_t func_ = nullptr;
    void *data_ = nullptr;
};

/// The element type of a dataset as the listing names it.
std::string dtypeName(hid_t type) {
    const std::size_t size = H5Tget_size(type);
    switch (H5Tget_class(type)) {
    case H5T_FLOAT: return "float" + std::to_string(8 * size);
    case H5T_INTEGER: return (H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(8 * size);
    case H5T_STRING: return "string";
    case H5T_COMPOUND: return "compound";
    default: return "other";
    }
}

struct ArrayCollector {
    std::vector<ArrayInfo> arrays;
    std::size_t max = 0;
    bool truncated = false;
};

/// H5Lvisit callback: datasets behind hard links only (a soft or external link is not opened).
herr_t collectArray(hid_t group, const char *name, const H5L_info_t *info, void *out) {
    auto *c = static_cast<ArrayCollector *>(out);
    if (!info || info->type != H5L_TYPE_HARD) return 0;
    const Handle object(H5Oopen(group, name, H5P_DEFAULT), H5Oclose);
    if (!object.valid() || H5Iget_type(object.get()) != H5I_DATASET) return 0;
    if (c->arrays.size() >= c->max) {
        c->truncated = true;
        return 1;
    }
    ArrayInfo a;
    a.name = std::string("/") + name;
    const Handle type(H5Dget_type(object.get()), H5Tclose);
    const Handle space(H5Dget_space(object.get()), H5Sclose);
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank > 0 && rank <= 32) {
        std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
        H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
        a.shape.assign(dims.begin(), dims.end());
    }
    a.dtype = type.valid() ? dtypeName(type.get()) : "other";
    static const char *const kReadable[] = {"float32", "float64", "int64", "int32", "uint8"};
    a.readable = rank >= 1 && std::find(std::begin(kReadable), std::end(kReadable), a.dtype) != std::end(kReadable);
    c->arrays.push_back(std::move(a));
    return 0;
}

std::string datasetList(hid_t file) {
    ArrayCollector c;
    c.max = 20;
    H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, collectArray, &c);
    std::string out;
    for (const ArrayInfo &a : c.arrays)
        out += (out.empty() ? "'" : ", '") + a.name + "'";
    return out.empty() ? "none" : out;
}

hid_t memoryType(torch::ScalarType t) {
    switch (t) {
    case torch::kFloat32: return H5T_NATIVE_FLOAT;
    case torch::kFloat64: return H5T_NATIVE_DOUBLE;
    case torch::kInt64: return H5T_NATIVE_INT64;
    case torch::kInt32: return H5T_NATIVE_INT32;
    default: return H5T_NATIVE_UINT8;
    }
}

/// What libhdf5 may allocate in the reading child beyond the tensors (metadata, chunk cache, one chunk's buffers).
constexpr std::uint64_t kParserMemory = std::uint64_t(1) << 30;

/// Checks that every stored chunk of a chunked dataset holds exactly `chunkBytes` bytes: as stored, or inflated
/// into a small window when compressed. libhdf5 1.10 does not check this and reads a shorter chunk past its end
/// (found by fuzz_hdf5: chunk dimensions changed in the header, with and without a filter pipeline).
/// Pipelines other than deflate (gzip) and shuffle are refused; `stored` bounds a chunk's raw size.
void checkChunks(hid_t ds, hid_t dcpl, std::uint64_t chunkBytes, std::uint64_t stored, const std::string &what,
                 const std::string &field) {
    const int filters = H5Pget_nfilters(dcpl);
    int deflateIndex = -1;
    for (int i = 0; i < filters; ++i) {
        unsigned flags = 0, config = 0;
        std::size_t values = 0;
        char name[64] = {};
        const H5Z_filter_t id =
            H5Pget_filter2(dcpl, static_cast<unsigned>(i), &flags, &values, nullptr, sizeof name, name, &config);
        if (id == H5Z_FILTER_DEFLATE && deflateIndex < 0) {
            deflateIndex = i;
        } else if (id != H5Z_FILTER_SHUFFLE) {
            throw EngineError(what + " is stored with the HDF5 filter " + std::to_string(id) +
                                  (name[0] ? " (" + std::string(name) + ")" : std::string()) +
                                  "; the engine reads uncompressed, gzip (deflate) and shuffle datasets.",
                              field, {}, "Rewrite the file with gzip compression, e.g. h5repack -f GZIP=4.");
        }
    }
    const Handle space(H5Dget_space(ds), H5Sclose); // libhdf5 1.10 takes no H5S_ALL for the chunk queries
    hsize_t count = 0;
    if (!space.valid() || H5Dget_num_chunks(ds, space.get(), &count) < 0)
        throw EngineError(what + ": cannot list the dataset's chunks (damaged chunk index).", field);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> offset(static_cast<std::size_t>(std::max(rank, 1)));
    std::vector<std::uint8_t> raw, window(std::size_t(1) << 16);
    for (hsize_t k = 0; k < count; ++k) {
        throwIfStopRequested();
        unsigned mask = 0;
        haddr_t address = 0;
        hsize_t size = 0;
        if (H5Dget_chunk_info(ds, space.get(), k, offset.data(), &mask, &address, &size) < 0 || size > stored)
            throw EngineError(what + ": chunk " + std::to_string(k) + " lies outside the dataset's storage.", field);
        const bool deflated = deflateIndex >= 0 && !(mask & (1u << deflateIndex));
        std::uint64_t produced = size;
        if (deflated) {
            raw.resize(static_cast<std::size_t>(size));
            std::uint32_t readMask = 0;
            if (H5Dread_chunk(ds, H5P_DEFAULT, offset.data(), &readMask, raw.data()) < 0)
                throw EngineError(what + ": cannot read chunk " + std::to_string(k) + ".", field);
            z_stream zs{};
            if (inflateInit(&zs) != Z_OK) throw EngineError(what + ": cannot start zlib.", field);
            zs.next_in = raw.data();
            zs.avail_in = static_cast<uInt>(raw.size());
            int rc = Z_OK;
            while (rc == Z_OK && zs.total_out <= chunkBytes) {
                zs.next_out = window.data();
                zs.avail_out = static_cast<uInt>(window.size());
                rc = inflate(&zs, Z_NO_FLUSH);
            }
            produced = rc == Z_STREAM_END || zs.total_out > chunkBytes ? zs.total_out
                                                                       : std::numeric_limits<std::uint64_t>::max();
            inflateEnd(&zs);
        }
        if (produced != chunkBytes)
            throw EngineError(what + ": chunk " + std::to_string(k) + " holds " +
                                  (produced == std::numeric_limits<std::uint64_t>::max()
                                       ? std::string("damaged compressed data")
                                       : std::to_string(produced) + " bytes") +
                                  " where a chunk of this dataset has " + std::to_string(chunkBytes) + ".",
                              field, {}, "The file is damaged; write it again.");
    }
}

/// Refuses a dataset whose declared size the file cannot back, that the engine should not read, or whose chunks
/// are larger than data.max_bytes. `shape` is the declared shape, `fileType` the dataset's element type.
void checkStorage(hid_t ds, hid_t fileType, const std::vector<std::int64_t> &shape, const std::string &what,
                  const std::string &field, ByteBudget &budget) {
    Handle dcpl(H5Dget_create_plist(ds), H5Pclose);
    if (!dcpl.valid()) throw EngineError(what + ": cannot read the dataset's storage properties.", field);
    const H5D_layout_t layout = H5Pget_layout(dcpl.get());
    if (layout == H5D_VIRTUAL || H5Pget_external_count(dcpl.get()) > 0)
        throw EngineError(what + " keeps its data in other files (external storage or a virtual dataset), which the "
                                 "engine does not read.",
                          field, {}, "Copy the data into the file (e.g. with h5repack).");
    std::uint64_t declared = 0;
    if (!checkedBytes(shape, H5Tget_size(fileType), declared))
        throw EngineError(what + " declares the shape " + shapeText(shape) + ", too large to be an array.", field);
    const std::uint64_t stored = H5Dget_storage_size(ds);
    const int filters = H5Pget_nfilters(dcpl.get());
    std::uint64_t backed = stored;
    if (filters > 0 && !checkedMul(stored, 1032, backed)) backed = std::numeric_limits<std::uint64_t>::max();
    if (declared > backed)
        throw EngineError(what + " declares " + shapeText(shape) + " (" + std::to_string(declared) +
                              " bytes) but the file stores " + std::to_string(stored) + " bytes for it" +
                              (filters > 0 ? " (compressed; at most 1032:1)." : "."),
                          field, {}, "The dataset was never (fully) written; write its data or use another dataset.");
    if (layout == H5D_CHUNKED) {
        std::vector<hsize_t> chunk(shape.size());
        const int chunkRank = H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data());
        std::uint64_t chunkBytes = H5Tget_size(fileType);
        for (int i = 0; i < chunkRank && i < static_cast<int>(chunk.size()); ++i)
            if (!checkedMul(chunkBytes, chunk[static_cast<std::size_t>(i)], chunkBytes))
                chunkBytes = std::numeric_limits<std::uint64_t>::max();
        if (chunkBytes > budget.remaining())
            throw EngineError(what + " is stored in chunks of " + std::to_string(chunkBytes) +
                                  " bytes, more than data.max_bytes allows (" + std::to_string(budget.cap()) +
                                  " bytes, " + std::to_string(budget.used()) + " in use).",
                              field, {}, "Rewrite the dataset with smaller chunks (e.g. with h5repack).");
        if (chunkRank != static_cast<int>(shape.size()))
            throw EngineError(what + " has " + std::to_string(shape.size()) + " dimensions but chunks of " +
                                  std::to_string(chunkRank) + ".",
                              field, {}, "The file is damaged; write it again.");
        checkChunks(ds, dcpl.get(), chunkBytes, stored, what, field);
    }
}

/// Reads dataset `name` into a new tensor of `want` (or of the file's own type when `want` is null) from
/// `allocate`, charging `budget` before it allocates. Runs in the reading child (readInChildProcess).
torch::Tensor readDataset(hid_t file, const std::string &path, const std::string &name, const std::string &key,
                          Options *inputOptions, ByteBudget &budget, const SharedTensorAllocator &allocate) {
    const std::string field = "data." + key;
    const std::string what = "'" + path + "' dataset '" + name + "' (" + field + ")";
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0)
        throw EngineError("'" + path + "' (data.path) has no dataset '" + name + "' (" + field + ").", field, {},
                          "Its datasets: " + datasetList(file) + ".");
    Handle ds(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!ds.valid()) throw EngineError(what + " is not a dataset.", field, {}, "Datasets: " + datasetList(file) + ".");
    Handle type(H5Dget_type(ds.get()), H5Tclose);
    const H5T_class_t cls = H5Tget_class(type.get());
    const std::size_t size = H5Tget_size(type.get());
    torch::ScalarType raw = torch::kFloat32;
    if (cls == H5T_FLOAT && size == 4)
        raw = torch::kFloat32;
    else if (cls == H5T_FLOAT && size == 8)
        raw = torch::kFloat64;
    else if (cls == H5T_INTEGER && size == 8 && H5Tget_sign(type.get()) == H5T_SGN_2)
        raw = torch::kInt64;
    else if (cls == H5T_INTEGER && size == 4 && H5Tget_sign(type.get()) == H5T_SGN_2)
        raw = torch::kInt32;
    else if (cls == H5T_INTEGER && size == 1 && H5Tget_sign(type.get()) == H5T_SGN_NONE)
        raw = torch::kUInt8;
    else
        throw EngineError(what + " has an unsupported element type (supported: float32, float64, int64, int32, uint8).",
                          field);
    const torch::ScalarType want = inputOptions ? inputScalarType(raw, *inputOptions, what) : raw;

    Handle space(H5Dget_space(ds.get()), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 1) throw EngineError(what + " is a scalar; expected an array of samples.", field);
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    std::vector<std::int64_t> shape;
    for (const hsize_t d : dims) {
        if (d > static_cast<hsize_t>(std::numeric_limits<std::int64_t>::max()))
            throw EngineError(what + " declares a dimension of " + std::to_string(d) + ".", field);
        shape.push_back(static_cast<std::int64_t>(d));
    }
    checkStorage(ds.get(), type.get(), shape, what, field, budget);
    const std::size_t outElement = torch::elementSize(want);
    std::uint64_t outBytes = 0;
    if (!checkedBytes(shape, outElement, outBytes))
        throw EngineError(what + " declares the shape " + shapeText(shape) + ", too large to be an array.", field);
    budget.charge(outBytes, what + " (shape " + shapeText(shape) + ")", field);
    torch::Tensor out = allocate(shape, want);

    const std::int64_t rowElements = dims[0] ? out.numel() / static_cast<std::int64_t>(dims[0]) : 0;
    const std::int64_t rowBytes =
        std::max<std::int64_t>(1, rowElements * static_cast<std::int64_t>(out.element_size()));
    const hsize_t chunk = static_cast<hsize_t>(std::clamp<std::int64_t>((64 << 20) / rowBytes, 1, 4096));
    auto *base = static_cast<std::uint8_t *>(out.data_ptr());
    for (hsize_t start = 0; start < dims[0] && rowElements > 0; start += chunk) {
        throwIfStopRequested();
        std::vector<hsize_t> offset(dims.size(), 0), count(dims);
        offset[0] = start;
        count[0] = std::min(chunk, dims[0] - start);
        Handle memory(H5Screate_simple(rank, count.data(), nullptr), H5Sclose);
        if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, offset.data(), nullptr, count.data(), nullptr) < 0 ||
            H5Dread(ds.get(), memoryType(want), memory.get(), space.get(), H5P_DEFAULT,
                    base + static_cast<std::int64_t>(start) * rowBytes) < 0)
            throw EngineError(what + ": reading rows " + std::to_string(start) + ".." +
                                  std::to_string(start + count[0]) + " failed.",
                              "data.path");
    }
    return out;
}

class Hdf5Source : public DataSource {
public:
    Dataset load(const DataConfig &config, std::uint64_t) override {
        Options o(config, "hdf5");
        const std::string path = o.path("path");
        const std::string inputs = o.string("inputs", "/x");
        const std::string targets = o.string("targets", "/y");
        o.raw("task");
        o.raw("input_dtype");
        o.checkUnknown();
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0)
            throw EngineError("Cannot open '" + path + "' (data.path): no such file.", "data.path");
        std::uint64_t size = 0;
        ::close(openRegularFile(path, "data.path", size)); // names what else it is (folder, device, FIFO)
        // libhdf5 runs in a child process: some damaged files crash it (readInChildProcess).
        ByteBudget &budget = o.budget();
        const std::vector<torch::Tensor> read = readInChildProcess(
            "'" + path + "' (data.path)", budget.remaining() + kParserMemory,
            [&](const SharedTensorAllocator &allocate) {
                QuietErrors quiet;
                if (H5Fis_hdf5(path.c_str()) <= 0)
                    throw EngineError("'" + path + "' (data.path) is not an HDF5 file.", "data.path");
                Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
                if (!file.valid())
                    throw EngineError("Cannot open the HDF5 file '" + path + "' (data.path).", "data.path");
                readDataset(file.get(), path, inputs, "inputs", &o, budget, allocate);
                readDataset(file.get(), path, targets, "targets", nullptr, budget, allocate);
            });
        if (read.size() != 2) throw EngineError("Cannot read '" + path + "' (data.path).", "data.path");
        const torch::Tensor &x = read[0], &y = read[1];
        for (const torch::Tensor &t : read)
            budget.charge(static_cast<std::uint64_t>(t.nbytes()), "'" + path + "' (data.path)", "data.path");
        Dataset d = finishArrays(x, y, o, "'" + path + "' dataset '" + inputs + "' (data.inputs)",
                                 "'" + path + "' dataset '" + targets + "' (data.targets)", "inputs", "targets");
        d.description = describe("hdf5 " + std::filesystem::path(path).filename().string(), d);
        return d;
    }
};

} // namespace

std::unique_ptr<DataSource> makeHdf5Source() { return std::make_unique<Hdf5Source>(); }

std::vector<ArrayInfo> listHdf5Arrays(const std::string &path, std::size_t maxArrays, bool *truncated) {
    std::uint64_t size = 0;
    ::close(openRegularFile(path, "path", size)); // names what else it is (folder, device, FIFO)
    QuietErrors quiet;
    if (H5Fis_hdf5(path.c_str()) <= 0) throw EngineError("'" + path + "' is not an HDF5 file.", "path");
    const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.valid()) throw EngineError("Cannot open the HDF5 file '" + path + "'.", "path");
    ArrayCollector c;
    c.max = maxArrays;
    if (H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, collectArray, &c) < 0)
        throw EngineError("Cannot list the datasets of '" + path + "' (damaged group index).", "path", {},
                          "The file is damaged; write it again.");
    if (truncated) *truncated = c.truncated;
    return c.arrays;
}

} // namespace diamond::engine::data

#else // DIAMOND_NO_HDF5: an engine-only build made where libhdf5's development files were missing

namespace diamond::engine::data {

namespace {

const char *const kNoHdf5 =
    "This diamond-train was built without HDF5 support (an engine-only build), so it cannot read HDF5 files.";
const char *const kNoHdf5Hint = "Convert the data to .npy/.npz, or use a diamond-train built with HDF5.";

class Hdf5Source : public DataSource {
public:
    Dataset load(const DataConfig &, std::uint64_t) override {
        throw EngineError(kNoHdf5, "data.source", {}, kNoHdf5Hint);
    }
};

} // namespace

std::unique_ptr<DataSource> makeHdf5Source() { return std::make_unique<Hdf5Source>(); }

std::vector<ArrayInfo> listHdf5Arrays(const std::string &, std::size_t, bool *) {
    throw EngineError(kNoHdf5, "path", {}, kNoHdf5Hint);
}

} // namespace diamond::engine::data

#endif // DIAMOND_NO_HDF5
