// hdf5: two datasets of one HDF5 file, read with the HDF5 C API in hyperslabs of up to 4096 rows straight into a
// preallocated tensor (HDF5 converts the element type on the way, e.g. float64 -> float32 inputs).
// Options: path, inputs ("/x"), targets ("/y"), task, input_dtype. File types: float32, float64, int64, int32,
// uint8.
#include "data/data_internal.h"

#include <hdf5.h>

#include <filesystem>

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

herr_t collectDataset(hid_t group, const char *name, const H5L_info_t *, void *out) {
    auto *names = static_cast<std::vector<std::string> *>(out);
    const hid_t object = H5Oopen(group, name, H5P_DEFAULT);
    if (object >= 0) {
        if (H5Iget_type(object) == H5I_DATASET) names->push_back(std::string("/") + name);
        H5Oclose(object);
    }
    return names->size() >= 20 ? 1 : 0;
}

std::string datasetList(hid_t file) {
    std::vector<std::string> names;
    H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, collectDataset, &names);
    std::string out;
    for (const std::string &n : names)
        out += (out.empty() ? "'" : ", '") + n + "'";
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

/// Reads dataset `name` into a new tensor of `want` (or of the file's own type when `want` is null).
torch::Tensor readDataset(hid_t file, const std::string &path, const std::string &name, const std::string &key,
                          Options *inputOptions) {
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
    std::vector<std::int64_t> shape(dims.begin(), dims.end());
    torch::Tensor out = torch::empty(shape, torch::TensorOptions().dtype(want));

    const std::int64_t rowElements = dims[0] ? out.numel() / static_cast<std::int64_t>(dims[0]) : 0;
    const std::int64_t rowBytes =
        std::max<std::int64_t>(1, rowElements * static_cast<std::int64_t>(out.element_size()));
    const hsize_t chunk = static_cast<hsize_t>(std::clamp<std::int64_t>((64 << 20) / rowBytes, 1, 4096));
    auto *base = static_cast<std::uint8_t *>(out.data_ptr());
    for (hsize_t start = 0; start < dims[0] && rowElements > 0; start += chunk) {
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
        QuietErrors quiet;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec))
            throw EngineError("Cannot open '" + path + "' (data.path): no such file.", "data.path");
        if (H5Fis_hdf5(path.c_str()) <= 0)
            throw EngineError("'" + path + "' (data.path) is not an HDF5 file.", "data.path");
        Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
        if (!file.valid()) throw EngineError("Cannot open the HDF5 file '" + path + "' (data.path).", "data.path");
        torch::Tensor x = readDataset(file.get(), path, inputs, "inputs", &o);
        torch::Tensor y = readDataset(file.get(), path, targets, "targets", nullptr);
        Dataset d = finishArrays(x, y, o, "'" + path + "' dataset '" + inputs + "' (data.inputs)",
                                 "'" + path + "' dataset '" + targets + "' (data.targets)", "inputs", "targets");
        d.description = describe("hdf5 " + std::filesystem::path(path).filename().string(), d);
        return d;
    }
};

} // namespace

std::unique_ptr<DataSource> makeHdf5Source() { return std::make_unique<Hdf5Source>(); }

} // namespace diamond::engine::data
