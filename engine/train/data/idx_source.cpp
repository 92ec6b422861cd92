// idx: MNIST-style IDX files (images + labels), each optionally gzip-compressed (read through zlib's gz* API,
// which passes plain files through). Images [N, H, W] become [N, 1, H, W] float32: uint8 scaled to [0, 1], other
// element types converted as they are; [N, D] files give [N, D]. Labels [N] become int64 class indices.
// Files are streamed: the header is read first, the declared array size is checked (checked arithmetic) and
// charged to data.max_bytes, and only then is the tensor allocated and filled from the (decompressed) stream;
// a stream that ends early is "truncated", bytes after the declared data are never read.
#include "data/data_internal.h"

#include <c10/util/irange.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace diamond::engine::data {

namespace {

/// Reads an IDX file: magic 0 0 <type> <rank>, <rank> big-endian uint32 dimensions, big-endian data.
torch::Tensor readIdx(const std::string &path, const std::string &field, ByteBudget &budget) {
    const std::string what = "'" + path + "' (" + field + ")";
    auto bad = [&](const std::string &m) { return EngineError(what + ": not a readable IDX file: " + m, field); };
    SequentialFile file(path, field);
    std::uint8_t magic[4] = {};
    if (file.read(magic, 4) < 4 || magic[0] != 0 || magic[1] != 0) throw bad("bad magic number.");
    torch::ScalarType type;
    switch (magic[2]) {
    case 0x08: type = torch::kUInt8; break;
    case 0x09: type = torch::kInt8; break;
    case 0x0B: type = torch::kInt16; break;
    case 0x0C: type = torch::kInt32; break;
    case 0x0D: type = torch::kFloat32; break;
    case 0x0E: type = torch::kFloat64; break;
    default: throw bad("unknown element type " + std::to_string(magic[2]) + ".");
    }
    const int rank = magic[3];
    if (rank < 1) throw bad("no dimensions.");
    std::vector<std::uint8_t> header(4 * static_cast<std::size_t>(rank));
    if (file.read(header.data(), header.size()) < header.size()) throw bad("truncated header.");
    std::vector<std::int64_t> shape;
    for (const auto i : c10::irange(rank)) {
        const std::uint8_t *p = header.data() + 4 * i;
        shape.push_back((std::int64_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3]);
    }
    const std::size_t element = torch::elementSize(type);
    std::uint64_t bytes = 0;
    if (!checkedBytes(shape, element, bytes)) throw bad("the shape " + shapeText(shape) + " is too large.");
    budget.charge(bytes, what + " (shape " + shapeText(shape) + ")", field);
    torch::Tensor t = torch::empty(shape, torch::TensorOptions().dtype(type));
    auto *out = static_cast<std::uint8_t *>(t.data_ptr());
    const std::size_t got = file.read(out, bytes);
    if (got < bytes)
        throw bad("truncated: shape " + shapeText(shape) + " needs " + std::to_string(bytes) +
                  " bytes of data, the file has " + std::to_string(got) + ".");
    if (element > 1) {
        for (std::size_t i = 0; i < bytes; i += element)
            std::reverse(out + i, out + i + element);
    }
    return t;
}

class IdxSource : public DataSource {
public:
    Dataset load(const DataConfig &config, std::uint64_t) override {
        Options o(config, "idx");
        const std::string images = o.path("images");
        const std::string labels = o.path("labels");
        o.checkUnknown();
        const std::string imagesWhat = "'" + images + "' (data.images)";
        const std::string labelsWhat = "'" + labels + "' (data.labels)";
        torch::Tensor x = readIdx(images, "data.images", o.budget());
        torch::Tensor y = readIdx(labels, "data.labels", o.budget());
        if (x.dim() < 2 || x.dim() > 3 || x.numel() == 0)
            throw EngineError(imagesWhat + " has shape " + shapeText(x.sizes()) + "; expected [N, H, W] or [N, D].",
                              "data.images");
        if (y.dim() != 1 || y.is_floating_point())
            throw EngineError(labelsWhat + " has shape " + shapeText(y.sizes()) +
                                  " and must hold one integer label per image ([N]).",
                              "data.labels");
        if (y.size(0) != x.size(0))
            throw EngineError(labelsWhat + " has " + std::to_string(y.size(0)) + " labels for " +
                                  std::to_string(x.size(0)) + " images in " + imagesWhat + ".",
                              "data.labels");
        o.budget().charge(static_cast<std::uint64_t>(x.numel()) * 4, imagesWhat + " as float32", "data.images");
        o.budget().charge(static_cast<std::uint64_t>(y.numel()) * 8, labelsWhat + " as int64", "data.labels");
        Dataset d;
        d.inputs = x.scalar_type() == torch::kUInt8 ? x.to(torch::kFloat32).div_(255.0f) : x.to(torch::kFloat32);
        if (d.inputs.dim() == 3) d.inputs = d.inputs.unsqueeze(1);
        d.inputs = d.inputs.contiguous();
        if (!d.inputs.isfinite().all().item<bool>()) // float images may hold NaN, or overflow float32 from float64
            throw EngineError(imagesWhat + " holds NaN or infinite values (as float32).", "data.images");
        d.targets = y.to(torch::kInt64).contiguous();
        setClassCount(d, labelsWhat, "data.labels");
        d.description = describe("idx " + std::filesystem::path(images).filename().string(), d);
        return d;
    }
};

} // namespace

std::unique_ptr<DataSource> makeIdxSource() { return std::make_unique<IdxSource>(); }

} // namespace diamond::engine::data
