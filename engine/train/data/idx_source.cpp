// idx: MNIST-style IDX files (images + labels), each optionally gzip-compressed (read through zlib's gz* API,
// which passes plain files through). Images [N, H, W] become [N, 1, H, W] float32: uint8 scaled to [0, 1], other
// element types converted as they are; [N, D] files give [N, D]. Labels [N] become int64 class indices.
#include "data/data_internal.h"

#include <c10/util/irange.h>

#include <cstring>
#include <filesystem>

namespace diamond::engine::data {

namespace {

/// Decodes an IDX file: magic 0 0 <type> <rank>, <rank> big-endian uint32 dimensions, big-endian data.
torch::Tensor parseIdx(const std::vector<std::uint8_t> &bytes, const std::string &what, const std::string &field) {
    auto bad = [&](const std::string &m) { return EngineError(what + ": not a readable IDX file: " + m, field); };
    if (bytes.size() < 4 || bytes[0] != 0 || bytes[1] != 0) throw bad("bad magic number.");
    torch::ScalarType type;
    switch (bytes[2]) {
    case 0x08: type = torch::kUInt8; break;
    case 0x09: type = torch::kInt8; break;
    case 0x0B: type = torch::kInt16; break;
    case 0x0C: type = torch::kInt32; break;
    case 0x0D: type = torch::kFloat32; break;
    case 0x0E: type = torch::kFloat64; break;
    default: throw bad("unknown element type " + std::to_string(bytes[2]) + ".");
    }
    const int rank = bytes[3];
    if (rank < 1) throw bad("no dimensions.");
    if (bytes.size() < 4 + 4 * static_cast<std::size_t>(rank)) throw bad("truncated header.");
    std::vector<std::int64_t> shape;
    std::size_t count = 1;
    for (const auto i : c10::irange(rank)) {
        const std::uint8_t *p = bytes.data() + 4 + 4 * i;
        const std::int64_t dim = (std::int64_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
        shape.push_back(dim);
        if (dim != 0 && count > (std::size_t(1) << 60) / static_cast<std::size_t>(dim))
            throw bad("the shape is too large.");
        count *= static_cast<std::size_t>(dim);
    }
    const std::size_t offset = 4 + 4 * static_cast<std::size_t>(rank);
    const std::size_t element = torch::elementSize(type);
    if (bytes.size() - offset < count * element)
        throw bad("truncated: shape " + shapeText(shape) + " needs " + std::to_string(count * element) +
                  " bytes of data, the file has " + std::to_string(bytes.size() - offset) + ".");
    torch::Tensor t = torch::empty(shape, torch::TensorOptions().dtype(type));
    auto *out = static_cast<std::uint8_t *>(t.data_ptr());
    const std::uint8_t *in = bytes.data() + offset;
    if (element == 1) {
        std::memcpy(out, in, count);
    } else {
        for (std::size_t i = 0; i < count; ++i)
            for (std::size_t b = 0; b < element; ++b)
                out[i * element + b] = in[i * element + element - 1 - b];
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
        torch::Tensor x = parseIdx(readFileMaybeGz(images, "data.images"), imagesWhat, "data.images");
        torch::Tensor y = parseIdx(readFileMaybeGz(labels, "data.labels"), labelsWhat, "data.labels");
        if (x.dim() < 2 || x.dim() > 3 || x.size(0) == 0)
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
        Dataset d;
        d.inputs = x.scalar_type() == torch::kUInt8 ? x.to(torch::kFloat32).div_(255.0f) : x.to(torch::kFloat32);
        if (d.inputs.dim() == 3) d.inputs = d.inputs.unsqueeze(1);
        d.inputs = d.inputs.contiguous();
        d.targets = y.to(torch::kInt64).contiguous();
        setClassCount(d, labelsWhat, "data.labels");
        d.description = describe("idx " + std::filesystem::path(images).filename().string(), d);
        return d;
    }
};

} // namespace

std::unique_ptr<DataSource> makeIdxSource() { return std::make_unique<IdxSource>(); }

} // namespace diamond::engine::data
