// The fuzz iterations and seeds of fuzz_inputs.h. Each iteration writes the input into a scratch folder of
// this process (files are rewritten, never accumulated) and calls the same entry points diamond-train uses.
#include "fuzz/fuzz_inputs.h"

#include "checkpoint.h"
#include "data/dataset.h"
#include "engine_error.h"
#include "export/safetensors.h"
#include "export/tensor_io.h"
#include "model/network.h"

#include "common/data_file_builders.h"

#include <hdf5.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace diamond::engine::fuzz {

namespace {

namespace fs = std::filesystem;
namespace files = ::diamond::test::files;

/// The scratch folder of this process (created on first use, removed at exit). Never destroyed, so that the exit
/// handler can still read it.
const std::string &scratch() {
    static const std::string *const dir = [] {
        const char *tmp = std::getenv("TMPDIR");
        auto *path = new std::string(std::string(tmp && *tmp ? tmp : "/tmp") + "/diamond-fuzz-XXXXXX");
        if (!::mkdtemp(path->data())) std::abort();
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(scratch(), ec);
        });
        return path;
    }();
    return *dir;
}

std::string writeFile(const std::string &relative, std::string_view bytes) {
    const fs::path path = fs::path(scratch()) / relative;
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) std::abort(); // the scratch folder must be writable
    return path.string();
}

std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

[[noreturn]] void broken(const char *what) {
    std::fprintf(stderr, "fuzz: the dataset breaks its contract: %s\n", what);
    std::abort();
}

/// The Dataset contract (data/dataset.h), checked on what a source returned.
void checkContract(const Dataset &d) {
    if (!d.inputs.defined() || !d.targets.defined()) broken("undefined tensors");
    if (d.inputs.dim() < 2 || d.inputs.size(0) < 1) broken("inputs are not [S, ...] with S >= 1");
    if (!d.inputs.is_contiguous() || !d.targets.is_contiguous()) broken("not contiguous");
    if (d.inputs.scalar_type() != torch::kFloat32 && d.inputs.scalar_type() != torch::kInt64)
        broken("inputs neither float32 nor int64");
    if (d.targets.dim() < 1 || d.targets.size(0) != d.inputs.size(0)) broken("targets and inputs differ in S");
    if (d.inputs.is_floating_point() && !d.inputs.isfinite().all().item<bool>()) broken("non-finite inputs");
    if (d.task == "classification") {
        if (d.targets.dim() != 1 || d.targets.scalar_type() != torch::kInt64) broken("class targets not [S] int64");
        if (d.numClasses < 1 || d.numClasses > (std::int64_t(1) << 24)) broken("class count out of range");
        if (d.targets.min().item<std::int64_t>() < 0 || d.targets.max().item<std::int64_t>() >= d.numClasses)
            broken("a class index outside 0..numClasses-1");
        if (!d.classNames.empty() && static_cast<std::int64_t>(d.classNames.size()) != d.numClasses)
            broken("class names and class count differ");
    } else if (d.task == "regression") {
        if (d.targets.dim() != 2 || d.targets.scalar_type() != torch::kFloat32) broken("regression targets");
        if (!d.targets.isfinite().all().item<bool>()) broken("non-finite regression targets");
    } else {
        broken("unknown task");
    }
}

void loadData(nlohmann::json options) {
    DataConfig config;
    config.source = options["source"].get<std::string>();
    config.options = std::move(options);
    config.maxBytes = kMaxBytes;
    checkContract(makeDataSource(config.source)->load(config, 1));
}

// ---- the fixed small network of the checkpoint and safetensors targets -------------------------------------

const char *const kSpec = R"({"format": "diamond.spec/1", "name": "fuzz",
  "inputs": [{"name": "x", "dtype": "float32", "shape": ["N", 2]}],
  "nodes": [{"id": "fc", "type": "Linear", "inputs": ["x"], "params": {"out_features": 3}}],
  "outputs": [{"name": "y", "from": "fc"}]})";

Network &network() {
    static const std::unique_ptr<Network> net = [] {
        const spec::ParseResult parsed = spec::parseSpec(kSpec);
        if (!parsed.ok()) std::abort();
        return Network::build(parsed.spec);
    }();
    return *net;
}

/// A checkpoint state shaped like the network's (fresh tensors; values from `seed`).
CheckpointState checkpointState(double seed) {
    CheckpointState s;
    for (const auto &[name, tensor] : network().namedState())
        s.model.emplace_back(name, torch::full(tensor.sizes(), seed, tensor.options()));
    s.optimizer["exp_avg"] = torch::full({9}, seed / 2, torch::kFloat32);
    s.optimizer["step"] = torch::full({1}, 7, torch::kInt64);
    return s;
}

// ---- iterations -------------------------------------------------------------------------------------------

void runData(Target target, std::string_view bytes) {
    switch (target) {
    case Target::Csv: loadData({{"source", "csv"}, {"path", writeFile("data.csv", bytes)}, {"target", 0}}); return;
    case Target::Npy: {
        const std::string path = writeFile("data.npy", bytes);
        loadData({{"source", "npy"}, {"inputs", path}, {"targets", path}});
        return;
    }
    case Target::Npz: loadData({{"source", "npz"}, {"path", writeFile("data.npz", bytes)}}); return;
    case Target::Hdf5: loadData({{"source", "hdf5"}, {"path", writeFile("data.h5", bytes)}}); return;
    case Target::Idx: {
        if (bytes.size() < 4) throw EngineError("fuzz: no length prefix");
        const std::uint32_t length = static_cast<std::uint8_t>(bytes[0]) | static_cast<std::uint8_t>(bytes[1]) << 8 |
                                     static_cast<std::uint8_t>(bytes[2]) << 16 |
                                     static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[3])) << 24;
        const std::string_view rest = bytes.substr(4);
        const std::size_t split = std::min<std::size_t>(length, rest.size());
        loadData({{"source", "idx"},
                  {"images", writeFile("images.idx", rest.substr(0, split))},
                  {"labels", writeFile("labels.idx", rest.substr(split))}});
        return;
    }
    case Target::ImageFolder: {
        if (bytes.empty()) throw EngineError("fuzz: no option byte");
        const auto options = static_cast<std::uint8_t>(bytes[0]);
        writeFile("images/only/img.png", bytes.substr(1));
        nlohmann::json o = {{"source", "image_folder"}, {"path", (fs::path(scratch()) / "images").string()}};
        if (options & 1) o["grayscale"] = true;
        if (options & 2) o["size"] = {12, 12};
        loadData(o);
        return;
    }
    default: std::abort();
    }
}

void runCheckpoint(std::string_view bytes) {
    const std::string path = writeFile("checkpoint.pt", bytes);
    CheckpointState expected = checkpointState(0);
    const std::string problem = checkpointProblem(path, expected, kMaxBytes);
    CheckpointState state = checkpointState(0);
    readCheckpoint(path, state, kMaxBytes); // throws exactly when problem is not empty
    if (!problem.empty()) {
        std::fprintf(stderr, "fuzz: checkpointProblem() said '%s' but readCheckpoint() accepted it\n", problem.c_str());
        std::abort();
    }
}

void runSafetensors(std::string_view bytes) {
    const std::string path = writeFile("weights.safetensors", bytes);
    const SafetensorsFile file = readSafetensors(path, kMaxBytes);
    for (const SafetensorsTensor &entry : file.tensors) {
        if (safetensorsDtypeSize(entry.dtype) == 0) std::abort(); // the parser let an unknown dtype through
        try {
            (void)fromSafetensors(entry);
        } catch (const EngineError &) { // a dtype the engine does not use (U16, U32, U64)
        }
    }
    // Round trip: what was read serialises and parses to the same tensors.
    const SafetensorsFile again = parseSafetensors(serializeSafetensors(file), "round trip");
    if (again.tensors.size() != file.tensors.size()) std::abort();
    for (std::size_t i = 0; i < file.tensors.size(); ++i)
        if (again.tensors[i].shape != file.tensors[i].shape || again.tensors[i].data != file.tensors[i].data)
            std::abort();
    checkWeightsFitSpec(network().analysis(), file, path);
    loadNetworkWeights(network(), file, path);
}

} // namespace

const std::vector<Target> &allTargets() {
    static const std::vector<Target> all = {Target::Csv, Target::Npy,         Target::Npz,        Target::Hdf5,
                                            Target::Idx, Target::ImageFolder, Target::Checkpoint, Target::Safetensors};
    return all;
}

const char *targetName(Target target) {
    switch (target) {
    case Target::Csv: return "csv";
    case Target::Npy: return "npy";
    case Target::Npz: return "npz";
    case Target::Hdf5: return "hdf5";
    case Target::Idx: return "idx";
    case Target::ImageFolder: return "image_folder";
    case Target::Checkpoint: return "checkpoint";
    case Target::Safetensors: return "safetensors";
    }
    return "?";
}

void initialize() {
    static std::once_flag once;
    std::call_once(once, [] {
        at::set_num_threads(1);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        (void)scratch();
        (void)network();
    });
}

bool runOne(Target target, std::string_view bytes) {
    initialize();
    try {
        if (target == Target::Checkpoint) {
            runCheckpoint(bytes);
        } else if (target == Target::Safetensors) {
            runSafetensors(bytes);
        } else {
            runData(target, bytes);
        }
        return true;
    } catch (const EngineError &) {
        return false;
    }
}

// ---- seeds ------------------------------------------------------------------------------------------------

namespace {

std::string h5File(bool chunked) {
    const std::string path = (fs::path(scratch()) / "seed.h5").string();
    const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const float x[8] = {0.5f, 1, 2, 3, 4, 5, 6, 7.5f};
    const std::int64_t y[4] = {0, 1, 0, 2};
    const hsize_t xdims[2] = {4, 2}, ydims[1] = {4}, chunk[2] = {2, 2};
    const hid_t xs = H5Screate_simple(2, xdims, nullptr), ys = H5Screate_simple(1, ydims, nullptr);
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (chunked) {
        H5Pset_chunk(dcpl, 2, chunk);
        H5Pset_deflate(dcpl, 6);
    }
    const hid_t xd = H5Dcreate2(f, "/x", H5T_IEEE_F32LE, xs, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    const hid_t yd = H5Dcreate2(f, "/y", H5T_STD_I64LE, ys, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(xd, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
    H5Dwrite(yd, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, y);
    for (const hid_t id : {xd, yd})
        H5Dclose(id);
    H5Pclose(dcpl);
    H5Sclose(xs);
    H5Sclose(ys);
    H5Fclose(f);
    return readFile(path);
}

void appendTo(void *context, void *data, int size) {
    static_cast<std::string *>(context)->append(static_cast<const char *>(data), static_cast<std::size_t>(size));
}

std::string idxPair(const std::string &images, const std::string &labels) {
    std::string out;
    files::putLe(out, images.size(), 4);
    return out + images + labels;
}

std::string bigEndianFloats(const std::vector<float> &values) {
    std::string out;
    for (const float v : values) {
        std::uint32_t u = 0;
        std::memcpy(&u, &v, 4);
        files::putBe32(out, u);
    }
    return out;
}

} // namespace

std::vector<std::pair<std::string, std::string>> seedInputs(Target target) {
    initialize();
    const std::string i64 = files::rawBytes(std::vector<std::int64_t>{0, 1, 2, 1});
    const std::string f32 = files::rawBytes(std::vector<float>{0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4});
    switch (target) {
    case Target::Csv:
        return {{"classes.csv", "label,a,b\ncat,1.5,2\ndog,3,4e-1\ncat,-1,0\n"},
                {"numbers.csv", "y,x\n0,1\n1,2\n2,3\n10,4\n"},
                {"regression.csv", "\xEF\xBB\xBFy,x\r\n0.25,\"1\"\r\n1.5, 2\r\n"},
                {"quoted.csv", "\"the label\",x\n\"a, b\",1\n\"say \"\"hi\"\"\",2\n\n"}};
    case Target::Npy:
        return {{"i8.npy", files::npy("<i8", {4}, i64)},
                {"f4.npy", files::npy("<f4", {4, 2}, f32)},
                {"u1.npy", files::npy("|u1", {6}, std::string("\0\1\2\3\4\5", 6), 2)},
                {"b1.npy", files::npy("|b1", {4}, std::string("\1\0\1\0", 4), 3)}};
    case Target::Npz: {
        const std::string x = files::npy("<f4", {4, 2}, f32), y = files::npy("<i8", {4}, i64);
        files::ZipMember zx{"x.npy", x, false, true}, zy{"y.npy", y, true, true};
        return {{"stored.npz", files::zip({{"x.npy", x}, {"y.npy", y}})},
                {"deflated.npz", files::zip({{"x.npy", x, true}, {"y.npy", y, true}})},
                {"zip64.npz", files::zip({zx, zy})}};
    }
    case Target::Hdf5: return {{"contiguous.h5", h5File(false)}, {"chunked.h5", h5File(true)}};
    case Target::Idx: {
        const std::string images = files::idx(0x08, {4, 3, 3}, std::string(36, '\x40'));
        const std::string labels = files::idx(0x08, {4}, std::string("\0\1\2\1", 4));
        return {{"plain.idx", idxPair(images, labels)},
                {"gzip.idx", idxPair(files::gzip(images), files::gzip(labels))},
                {"float.idx", idxPair(files::idx(0x0D, {2, 4}, bigEndianFloats({1, 2, 3, 4, 5, 6, 7, 8})),
                                      files::idx(0x0C, {2}, std::string("\0\0\0\1\0\0\0\0", 8)))}};
    }
    case Target::ImageFolder: {
        std::vector<std::uint8_t> pixels(8 * 6 * 3);
        for (std::size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<std::uint8_t>(i * 7);
        std::string bmp, jpg, tga;
        stbi_write_bmp_to_func(appendTo, &bmp, 8, 6, 3, pixels.data());
        stbi_write_jpg_to_func(appendTo, &jpg, 8, 6, 3, pixels.data(), 80);
        stbi_write_tga_to_func(appendTo, &tga, 8, 6, 3, pixels.data());
        return {{"gray.png", std::string(1, '\0') + files::solidPng(4, 4, 0, '\x80')},
                {"rgb-resized.png", std::string(1, '\2') + files::solidPng(5, 3, 2, '\x20')},
                {"pgm-gray.pgm", std::string(1, '\1') + std::string("P5\n3 2\n255\n\1\2\3\4\5\6", 17)},
                {"bmp.bmp", std::string(1, '\0') + bmp},
                {"jpg.jpg", std::string(1, '\2') + jpg},
                {"tga.tga", std::string(1, '\0') + tga}};
    }
    case Target::Checkpoint: {
        const std::string runDir = (fs::path(scratch()) / "seed-run").string();
        CheckpointState s = checkpointState(0.25);
        s.step = 3;
        s.rngState = cpuRngState();
        s.rankRngStates = {s.rngState};
        const std::string path = writeCheckpoint(runDir, s);
        std::string bytes = readFile(path);
        std::error_code ec;
        fs::remove_all(runDir, ec);
        return {{"step3.pt", bytes}};
    }
    case Target::Safetensors: {
        SafetensorsFile file;
        for (const auto &[name, tensor] : network().namedState())
            file.tensors.push_back(toSafetensors(name, torch::ones_like(tensor)));
        SafetensorsFile withMeta = file;
        withMeta.metadata = {{"format", "pt"}, {"spec_sha256", "00"}};
        return {{"weights.safetensors", serializeSafetensors(file)},
                {"metadata.safetensors", serializeSafetensors(withMeta)}};
    }
    }
    return {};
}

} // namespace diamond::engine::fuzz
