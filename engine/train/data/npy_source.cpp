// npy and npz: NumPy arrays. The NPY header (format 1.0, 2.0, 3.0) is parsed here; C order only; dtypes <f4 <f8
// <i8 <i4 |u1 |b1. .npy files are memory-mapped and wrapped with from_blob (the tensor owns the mapping and
// unmaps it when the last view goes); .npz members are read from the mapped zip: STORED members in place,
// DEFLATED members inflated with zlib. Dtypes are converted only where the Dataset contract needs it.
// Hostile files: every offset and size read from a file is combined with checked arithmetic (checked_math.h)
// and bounded by the file before it is used; a STORED member must declare as many bytes as it occupies; a
// DEFLATED member may declare at most what its compressed bytes can produce (deflate expands at most 1032:1);
// arrays and inflate buffers are charged to data.max_bytes before they are allocated.
#include "data/array_listing.h"
#include "data/data_internal.h"
#include "zip_directory.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <limits>

namespace diamond::engine::data {

namespace {

struct NpyHeader {
    torch::ScalarType dtype = torch::kFloat32;
    std::vector<std::int64_t> shape;
    std::size_t dataOffset = 0; ///< from the start of the .npy bytes
};

[[noreturn]] void npyError(const std::string &what, const std::string &field, const std::string &message,
                           const std::string &hint = {}) {
    throw EngineError(what + ": " + message, field, {}, hint);
}

/// Minimal reader of the Python literal dict in an NPY header.
class HeaderParser {
public:
    HeaderParser(const std::string &text, const std::string &what, const std::string &field)
        : s_(text), what_(what), field_(field) {}

    NpyHeader parse() {
        NpyHeader h;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        expect('{');
        while (true) {
            skip();
            if (peek() == '}') break;
            const std::string key = quoted();
            expect(':');
            skip();
            if (key == "descr") {
                if (peek() != '\'' && peek() != '"')
                    fail("structured dtypes are not supported (only plain numeric arrays).");
                h.dtype = dtype(quoted());
                haveDescr = true;
            } else if (key == "fortran_order") {
                if (word() != "False")
                    fail("the array is stored in Fortran order; only C order is supported.",
                         "Save it with np.save(path, np.ascontiguousarray(a)).");
                haveOrder = true;
            } else if (key == "shape") {
                h.shape = tuple();
                haveShape = true;
            } else {
                fail("unexpected header key '" + key + "'.");
            }
            skip();
            if (peek() == ',') ++pos_;
        }
        if (!haveDescr || !haveOrder || !haveShape) fail("the header lacks descr, fortran_order or shape.");
        return h;
    }

private:
    [[noreturn]] void fail(const std::string &message, const std::string &hint = {}) {
        npyError(what_, field_, "not a readable .npy array: " + message, hint);
    }
    void skip() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }
    char peek() {
        skip();
        return pos_ < s_.size() ? s_[pos_] : '\0';
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "' in the header.");
        ++pos_;
    }
    std::string quoted() {
        const char q = peek();
        if (q != '\'' && q != '"') fail("expected a quoted string in the header.");
        const std::size_t end = s_.find(q, pos_ + 1);
        if (end == std::string::npos) fail("unterminated string in the header.");
        std::string out = s_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return out;
    }
    std::string word() {
        skip();
        const std::size_t start = pos_;
        while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
        return s_.substr(start, pos_ - start);
    }
    std::vector<std::int64_t> tuple() {
        expect('(');
        std::vector<std::int64_t> dims;
        while (peek() != ')') {
            const std::string w = word();
            if (w.empty() || !std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
                w.size() > 15)
                fail("bad shape in the header.");
            dims.push_back(std::stoll(w));
            if (peek() == ',') ++pos_;
        }
        ++pos_;
        return dims;
    }
    torch::ScalarType dtype(const std::string &d) {
        if (d == "<f4") return torch::kFloat32;
        if (d == "<f8") return torch::kFloat64;
        if (d == "<i8") return torch::kInt64;
        if (d == "<i4") return torch::kInt32;
        if (d == "|u1") return torch::kUInt8;
        if (d == "|b1") return torch::kBool;
        if (!d.empty() && d[0] == '>')
            fail("the dtype '" + d + "' is big-endian.", "Convert it with a.astype(a.dtype.newbyteorder('<')).");
        fail("the dtype '" + d + "' is not supported (supported: <f4 <f8 <i8 <i4 |u1 |b1).",
             "Convert it with e.g. a.astype(np.float32).");
    }

    const std::string &s_;
    const std::string &what_;
    const std::string &field_;
    std::size_t pos_ = 0;
};

std::uint64_t le(const std::uint8_t *p, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

/// Longest .npy header read (numpy writes well under 1 KB; numpy itself refuses more than 10000 bytes).
constexpr std::uint64_t kMaxHeaderBytes = 1 << 20;

/// The array in the .npy bytes [base, base + len). The tensor aliases the bytes (keeping `owner` alive) when
/// they are aligned for the dtype, else it is a copy. `budget` is charged for the array's bytes unless it aliases
/// bytes that were charged already (`charged`, e.g. an inflated buffer).
/// The header of the .npy bytes [base, base + len) (only the header needs to be there).
NpyHeader readNpyHeader(const std::uint8_t *base, std::size_t len, const std::string &what, const std::string &field) {
    static const char kMagic[] = "\x93NUMPY";
    if (len < 10 || std::memcmp(base, kMagic, 6) != 0) npyError(what, field, "not a .npy file (no \\x93NUMPY magic).");
    const int major = base[6];
    if (major < 1 || major > 3) npyError(what, field, "unsupported .npy format version " + std::to_string(major) + ".");
    const std::size_t prefix = major == 1 ? 10 : 12;
    if (len < prefix) npyError(what, field, "truncated header.");
    const std::uint64_t headerLen = le(base + 8, major == 1 ? 2 : 4);
    if (!withinSize(prefix, headerLen, len))
        npyError(what, field,
                 "truncated header: it declares " + std::to_string(headerLen) + " bytes, " +
                     std::to_string(len - prefix) + " follow.");
    if (headerLen > kMaxHeaderBytes)
        npyError(what, field,
                 "the header declares " + std::to_string(headerLen) + " bytes, more than the " +
                     std::to_string(kMaxHeaderBytes) + " a .npy header may have.");
    const std::string text(reinterpret_cast<const char *>(base + prefix), headerLen);
    NpyHeader h = HeaderParser(text, what, field).parse();
    h.dataOffset = prefix + headerLen;
    if (h.shape.empty()) npyError(what, field, "holds a scalar; expected an array of samples.");
    return h;
}

torch::Tensor npyTensor(const std::uint8_t *base, std::size_t len, std::shared_ptr<void> owner, bool charged,
                        ByteBudget &budget, const std::string &what, const std::string &field) {
    const NpyHeader h = readNpyHeader(base, len, what, field);

    const std::size_t element = torch::elementSize(h.dtype);
    std::uint64_t bytes = 0;
    if (!checkedBytes(h.shape, element, bytes))
        npyError(what, field, "the shape " + shapeText(h.shape) + " is too large to be an array.");
    if (!withinSize(h.dataOffset, bytes, len))
        npyError(what, field,
                 "truncated: shape " + shapeText(h.shape) + " needs " + std::to_string(bytes) +
                     " bytes of data, the file has " + std::to_string(len - h.dataOffset) + ".");
    const std::uint8_t *data = base + h.dataOffset;
    const bool alias = reinterpret_cast<std::uintptr_t>(data) % element == 0 && bytes > 0;
    if (!alias || !charged) budget.charge(bytes, what + " (shape " + shapeText(h.shape) + ")", field);
    if (alias) {
        return torch::from_blob(
            const_cast<std::uint8_t *>(data), h.shape, [owner](void *) mutable { owner.reset(); },
            torch::TensorOptions().dtype(h.dtype));
    }
    torch::Tensor t = torch::empty(h.shape, torch::TensorOptions().dtype(h.dtype));
    if (bytes) std::memcpy(t.data_ptr(), data, bytes);
    return t;
}

torch::Tensor loadNpy(const std::string &path, const std::string &field, ByteBudget &budget) {
    auto file = std::make_shared<MappedFile>(path, field);
    return npyTensor(file->data(), file->size(), file, false, budget, "'" + path + "' (" + field + ")", field);
}

class NpySource : public DataSource {
public:
    Dataset load(const DataConfig &config, std::uint64_t) override {
        Options o(config, "npy");
        const std::string inputs = o.path("inputs");
        const std::string targets = o.path("targets");
        o.raw("task");
        o.raw("input_dtype");
        o.checkUnknown();
        torch::Tensor x = loadNpy(inputs, "data.inputs", o.budget());
        torch::Tensor y = loadNpy(targets, "data.targets", o.budget());
        Dataset d = finishArrays(x, y, o, "'" + inputs + "' (data.inputs)", "'" + targets + "' (data.targets)",
                                 "inputs", "targets");
        d.description = describe("npy " + std::filesystem::path(inputs).filename().string(), d);
        return d;
    }
};

// ---- npz --------------------------------------------------------------------------------------------------

/// Inflates `compressed` raw-deflate bytes into exactly `size` bytes of `out`; false when the stream is corrupt
/// or produces another amount. Polls the stop request between chunks.
bool inflateExactly(const std::uint8_t *compressed, std::uint64_t compressedSize, std::uint8_t *out,
                    std::uint64_t size) {
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return false;
    constexpr std::uint64_t kChunk = std::uint64_t(1) << 24;
    std::uint64_t inLeft = compressedSize, outLeft = size;
    zs.next_in = const_cast<Bytef *>(compressed);
    zs.next_out = out;
    int rc = Z_OK;
    try {
        for (;;) {
            throwIfStopRequested();
            if (zs.avail_in == 0 && inLeft > 0) {
                zs.avail_in = static_cast<uInt>(std::min(inLeft, kChunk));
                inLeft -= zs.avail_in;
            }
            if (zs.avail_out == 0 && outLeft > 0) {
                zs.avail_out = static_cast<uInt>(std::min(outLeft, kChunk));
                outLeft -= zs.avail_out;
            }
            rc = inflate(&zs, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) break;
            const bool canFeed = (zs.avail_in == 0 && inLeft > 0) || (zs.avail_out == 0 && outLeft > 0);
            if (rc != Z_OK && !(rc == Z_BUF_ERROR && canFeed)) break;
        }
    } catch (...) {
        inflateEnd(&zs);
        throw;
    }
    const std::uint64_t produced = zs.total_out;
    inflateEnd(&zs);
    return rc == Z_STREAM_END && produced == size;
}

torch::Tensor loadNpzMember(const std::shared_ptr<MappedFile> &file, const std::vector<ZipMember> &members,
                            const std::string &array, const std::string &key, ByteBudget &budget) {
    const std::string field = "data." + key;
    const ZipMember *m = nullptr;
    for (const ZipMember &z : members)
        if (z.name == array + ".npy" || z.name == array) m = &z;
    if (!m) {
        std::string names;
        for (const ZipMember &z : members) {
            const std::string n = z.name.size() > 4 && z.name.compare(z.name.size() - 4, 4, ".npy") == 0
                                      ? z.name.substr(0, z.name.size() - 4)
                                      : z.name;
            names += (names.empty() ? "'" : ", '") + n + "'";
        }
        throw EngineError("'" + file->path() + "' (data.path) has no array '" + array + "' (" + field + ").", field, {},
                          "Its arrays: " + (names.empty() ? std::string("none") : names) + ".");
    }
    const std::string what = "'" + file->path() + "' array '" + array + "' (" + field + ")";
    const std::uint8_t *p = file->data();
    const std::size_t n = file->size();
    if (m->flags & 1) throw EngineError(what + ": encrypted zip members are not supported.", field);
    if (m->method != 0 && m->method != 8)
        throw EngineError(what + ": zip compression method " + std::to_string(m->method) +
                              " is not supported (only stored and deflated).",
                          field, {}, "Save with np.savez or np.savez_compressed.");
    ZipMember located = *m;
    locateZipMember(p, n, located, what, "data.path");
    m = &located;
    const std::uint64_t start = m->dataOffset;
    if (m->method == 0) return npyTensor(p + start, m->size, file, false, budget, what, field);
    budget.charge(m->size, what + " (deflated member)", "data.path");
    auto buffer = std::make_shared<std::vector<std::uint8_t>>(m->size);
    if (!inflateExactly(p + start, m->compressedSize, buffer->data(), m->size))
        throw EngineError(what + ": the compressed member is corrupt.", "data.path");
    if (static_cast<std::uint32_t>(crc32_z(0, buffer->data(), buffer->size())) != m->crc)
        throw EngineError(what + ": CRC mismatch, the file is corrupt.", "data.path");
    return npyTensor(buffer->data(), buffer->size(), buffer, true, budget, what, field);
}

class NpzSource : public DataSource {
public:
    Dataset load(const DataConfig &config, std::uint64_t) override {
        Options o(config, "npz");
        const std::string path = o.path("path");
        const std::string inputs = o.string("inputs", "x");
        const std::string targets = o.string("targets", "y");
        o.raw("task");
        o.raw("input_dtype");
        o.checkUnknown();
        auto file = std::make_shared<MappedFile>(path, "data.path");
        const std::vector<ZipMember> members =
            readZipDirectory(file->data(), file->size(), "'" + path + "' (data.path)", ".npz", "data.path");
        torch::Tensor x = loadNpzMember(file, members, inputs, "inputs", o.budget());
        torch::Tensor y = loadNpzMember(file, members, targets, "targets", o.budget());
        file.reset(); // the tensors keep the mapping alive as long as they alias it
        Dataset d = finishArrays(x, y, o, "'" + path + "' array '" + inputs + "' (data.inputs)",
                                 "'" + path + "' array '" + targets + "' (data.targets)", "inputs", "targets");
        d.description = describe("npz " + std::filesystem::path(path).filename().string(), d);
        return d;
    }
};

} // namespace

namespace {

std::string dtypeName(torch::ScalarType t) {
    switch (t) {
    case torch::kFloat32: return "float32";
    case torch::kFloat64: return "float64";
    case torch::kInt64: return "int64";
    case torch::kInt32: return "int32";
    case torch::kUInt8: return "uint8";
    case torch::kBool: return "bool";
    default: return "other";
    }
}

} // namespace

std::vector<ArrayInfo> listNpzArrays(const std::string &path, std::size_t maxArrays, bool *truncated) {
    auto file = std::make_shared<MappedFile>(path, "path");
    std::vector<ZipMember> members = readZipDirectory(file->data(), file->size(), "'" + path + "'", ".npz", "path");
    std::sort(members.begin(), members.end(), [](const ZipMember &a, const ZipMember &b) { return a.name < b.name; });
    std::vector<ArrayInfo> arrays;
    if (truncated) *truncated = members.size() > maxArrays;
    std::vector<std::uint8_t> head(std::size_t(1) << 16);
    for (ZipMember &m : members) {
        if (arrays.size() >= maxArrays) break;
        ArrayInfo a;
        a.name = m.name.size() > 4 && m.name.compare(m.name.size() - 4, 4, ".npy") == 0
                     ? m.name.substr(0, m.name.size() - 4)
                     : m.name;
        a.dtype = "other";
        try {
            const std::string what = "'" + path + "' array '" + a.name + "'";
            locateZipMember(file->data(), file->size(), m, what, "path");
            const std::uint8_t *bytes = file->data() + m.dataOffset;
            std::size_t have = static_cast<std::size_t>(std::min<std::uint64_t>(m.size, head.size()));
            if (m.method == 8) { // the first 64 KiB inflated: the header is at the start
                z_stream zs{};
                if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw EngineError(what + ": cannot start zlib.", "path");
                zs.next_in = const_cast<Bytef *>(bytes);
                zs.avail_in = static_cast<uInt>(std::min<std::uint64_t>(m.compressedSize, 1u << 30));
                zs.next_out = head.data();
                zs.avail_out = static_cast<uInt>(have);
                int rc = Z_OK;
                while (rc == Z_OK && zs.avail_out > 0)
                    rc = inflate(&zs, Z_NO_FLUSH);
                have -= zs.avail_out;
                inflateEnd(&zs);
                bytes = head.data();
            } else if (m.method != 0) {
                throw EngineError(what + ": compression method " + std::to_string(m.method) + ".", "path");
            }
            const NpyHeader h = readNpyHeader(bytes, have, what, "path");
            a.shape.assign(h.shape.begin(), h.shape.end());
            a.dtype = dtypeName(h.dtype);
            a.readable = true;
        } catch (const EngineError &) {
            // listed, not readable (an unsupported dtype, a damaged member)
        }
        arrays.push_back(std::move(a));
    }
    return arrays;
}

std::unique_ptr<DataSource> makeNpySource() { return std::make_unique<NpySource>(); }
std::unique_ptr<DataSource> makeNpzSource() { return std::make_unique<NpzSource>(); }

} // namespace diamond::engine::data
