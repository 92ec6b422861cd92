// npy and npz: NumPy arrays. The NPY header (format 1.0, 2.0, 3.0) is parsed here; C order only; dtypes <f4 <f8
// <i8 <i4 |u1 |b1. .npy files are memory-mapped and wrapped with from_blob (the tensor owns the mapping and
// unmaps it when the last view goes); .npz members are read from the mapped zip: STORED members in place,
// DEFLATED members inflated with zlib. Dtypes are converted only where the Dataset contract needs it.
#include "data/data_internal.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

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

/// The array in the .npy bytes [base, base + len). The tensor aliases the bytes (keeping `owner` alive) when
/// they are aligned for the dtype, else it is a copy.
torch::Tensor npyTensor(const std::uint8_t *base, std::size_t len, std::shared_ptr<void> owner, const std::string &what,
                        const std::string &field) {
    static const char kMagic[] = "\x93NUMPY";
    if (len < 10 || std::memcmp(base, kMagic, 6) != 0) npyError(what, field, "not a .npy file (no \\x93NUMPY magic).");
    const int major = base[6];
    if (major < 1 || major > 3) npyError(what, field, "unsupported .npy format version " + std::to_string(major) + ".");
    const std::size_t prefix = major == 1 ? 10 : 12;
    if (len < prefix) npyError(what, field, "truncated header.");
    const std::size_t headerLen = le(base + 8, major == 1 ? 2 : 4);
    if (prefix + headerLen > len) npyError(what, field, "truncated header.");
    const std::string text(reinterpret_cast<const char *>(base + prefix), headerLen);
    NpyHeader h = HeaderParser(text, what, field).parse();
    h.dataOffset = prefix + headerLen;
    if (h.shape.empty()) npyError(what, field, "holds a scalar; expected an array of samples.");

    const std::size_t element = torch::elementSize(h.dtype);
    std::size_t count = 1;
    for (const std::int64_t dim : h.shape) {
        if (dim != 0 && count > (std::size_t(1) << 60) / static_cast<std::size_t>(dim))
            npyError(what, field, "the shape is too large.");
        count *= static_cast<std::size_t>(dim);
    }
    const std::size_t bytes = count * element;
    if (h.dataOffset + bytes > len)
        npyError(what, field,
                 "truncated: shape " + shapeText(h.shape) + " needs " + std::to_string(bytes) +
                     " bytes of data, the file has " + std::to_string(len - h.dataOffset) + ".");
    const std::uint8_t *data = base + h.dataOffset;
    if (reinterpret_cast<std::uintptr_t>(data) % element == 0 && count > 0) {
        return torch::from_blob(
            const_cast<std::uint8_t *>(data), h.shape, [owner](void *) mutable { owner.reset(); },
            torch::TensorOptions().dtype(h.dtype));
    }
    torch::Tensor t = torch::empty(h.shape, torch::TensorOptions().dtype(h.dtype));
    if (bytes) std::memcpy(t.data_ptr(), data, bytes);
    return t;
}

torch::Tensor loadNpy(const std::string &path, const std::string &field) {
    auto file = std::make_shared<MappedFile>(path, field);
    return npyTensor(file->data(), file->size(), file, "'" + path + "' (" + field + ")", field);
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
        Dataset d =
            finishArrays(loadNpy(inputs, "data.inputs"), loadNpy(targets, "data.targets"), o,
                         "'" + inputs + "' (data.inputs)", "'" + targets + "' (data.targets)", "inputs", "targets");
        d.description = describe("npy " + std::filesystem::path(inputs).filename().string(), d);
        return d;
    }
};

// ---- npz --------------------------------------------------------------------------------------------------

struct ZipMember {
    std::string name;
    std::uint16_t flags = 0, method = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressedSize = 0, size = 0, localOffset = 0;
};

std::vector<ZipMember> zipDirectory(const MappedFile &f, const std::string &what) {
    const std::uint8_t *p = f.data();
    const std::size_t n = f.size();
    auto bad = [&](const std::string &m) -> EngineError {
        return EngineError(what + ": not a readable .npz (zip) file: " + m, "data.path");
    };
    if (n < 22) throw bad("too short.");
    std::size_t eocd = std::string::npos;
    for (std::size_t i = n - 22 + 1; i-- > 0 && n - i <= 22 + 65535;)
        if (le(p + i, 4) == 0x06054b50) {
            eocd = i;
            break;
        }
    if (eocd == std::string::npos) throw bad("no end of central directory.");
    std::uint64_t entries = le(p + eocd + 10, 2);
    std::uint64_t cdSize = le(p + eocd + 12, 4);
    std::uint64_t cdOffset = le(p + eocd + 16, 4);
    if (entries == 0xFFFF || cdSize == 0xFFFFFFFF || cdOffset == 0xFFFFFFFF) {
        if (eocd < 20 || le(p + eocd - 20, 4) != 0x07064b50) throw bad("zip64 locator missing.");
        const std::uint64_t at = le(p + eocd - 20 + 8, 8);
        if (at + 56 > n || le(p + at, 4) != 0x06064b50) throw bad("zip64 end record missing.");
        entries = le(p + at + 32, 8);
        cdSize = le(p + at + 40, 8);
        cdOffset = le(p + at + 48, 8);
    }
    if (cdOffset + cdSize > n) throw bad("central directory out of range.");
    std::vector<ZipMember> members;
    std::size_t at = cdOffset;
    for (std::uint64_t e = 0; e < entries; ++e) {
        if (at + 46 > n || le(p + at, 4) != 0x02014b50) throw bad("corrupt central directory.");
        ZipMember m;
        m.flags = static_cast<std::uint16_t>(le(p + at + 8, 2));
        m.method = static_cast<std::uint16_t>(le(p + at + 10, 2));
        m.crc = static_cast<std::uint32_t>(le(p + at + 16, 4));
        m.compressedSize = le(p + at + 20, 4);
        m.size = le(p + at + 24, 4);
        const std::size_t nameLen = le(p + at + 28, 2), extraLen = le(p + at + 30, 2), commentLen = le(p + at + 32, 2);
        m.localOffset = le(p + at + 42, 4);
        if (at + 46 + nameLen + extraLen + commentLen > n) throw bad("corrupt central directory.");
        m.name.assign(reinterpret_cast<const char *>(p + at + 46), nameLen);
        // Zip64 extended information: the 64-bit values of the fields stored as 0xFFFFFFFF, in this order.
        const std::uint8_t *x = p + at + 46 + nameLen;
        for (std::size_t k = 0; k + 4 <= extraLen;) {
            const std::size_t id = le(x + k, 2), len = le(x + k + 2, 2);
            if (k + 4 + len > extraLen) break;
            if (id == 0x0001) {
                std::size_t q = k + 4;
                auto take = [&](std::uint64_t &v) {
                    if (v == 0xFFFFFFFF && q + 8 <= k + 4 + len) {
                        v = le(x + q, 8);
                        q += 8;
                    }
                };
                take(m.size);
                take(m.compressedSize);
                take(m.localOffset);
            }
            k += 4 + len;
        }
        members.push_back(std::move(m));
        at += 46 + nameLen + extraLen + commentLen;
    }
    return members;
}

torch::Tensor loadNpzMember(const std::shared_ptr<MappedFile> &file, const std::vector<ZipMember> &members,
                            const std::string &array, const std::string &key) {
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
    if (m->localOffset + 30 > n || le(p + m->localOffset, 4) != 0x04034b50)
        throw EngineError(what + ": corrupt zip local header.", "data.path");
    const std::uint64_t start = m->localOffset + 30 + le(p + m->localOffset + 26, 2) + le(p + m->localOffset + 28, 2);
    if (start + m->compressedSize > n) throw EngineError(what + ": the zip member is truncated.", "data.path");
    if (m->method == 0) return npyTensor(p + start, m->size, file, what, field);
    if (m->method != 8)
        throw EngineError(what + ": zip compression method " + std::to_string(m->method) +
                              " is not supported (only stored and deflated).",
                          field, {}, "Save with np.savez or np.savez_compressed.");

    auto buffer = std::make_shared<std::vector<std::uint8_t>>(m->size);
    z_stream zs{};
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) throw EngineError(what + ": cannot start zlib.", field);
    std::uint64_t inLeft = m->compressedSize, outLeft = m->size;
    zs.next_in = const_cast<Bytef *>(p + start);
    zs.next_out = buffer->data();
    int rc = Z_OK;
    for (;;) {
        if (zs.avail_in == 0 && inLeft > 0) {
            zs.avail_in = static_cast<uInt>(std::min<std::uint64_t>(inLeft, 1u << 30));
            inLeft -= zs.avail_in;
        }
        if (zs.avail_out == 0 && outLeft > 0) {
            zs.avail_out = static_cast<uInt>(std::min<std::uint64_t>(outLeft, 1u << 30));
            outLeft -= zs.avail_out;
        }
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) break;
        const bool canFeed = (zs.avail_in == 0 && inLeft > 0) || (zs.avail_out == 0 && outLeft > 0);
        if (rc != Z_OK && !(rc == Z_BUF_ERROR && canFeed)) break;
    }
    const std::uint64_t produced = zs.total_out;
    inflateEnd(&zs);
    if (rc != Z_STREAM_END || produced != m->size)
        throw EngineError(what + ": the compressed member is corrupt.", "data.path");
    if (static_cast<std::uint32_t>(crc32_z(0, buffer->data(), buffer->size())) != m->crc)
        throw EngineError(what + ": CRC mismatch, the file is corrupt.", "data.path");
    return npyTensor(buffer->data(), buffer->size(), buffer, what, field);
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
        const std::vector<ZipMember> members = zipDirectory(*file, "'" + path + "' (data.path)");
        torch::Tensor x = loadNpzMember(file, members, inputs, "inputs");
        torch::Tensor y = loadNpzMember(file, members, targets, "targets");
        file.reset(); // the tensors keep the mapping alive as long as they alias it
        Dataset d = finishArrays(x, y, o, "'" + path + "' array '" + inputs + "' (data.inputs)",
                                 "'" + path + "' array '" + targets + "' (data.targets)", "inputs", "targets");
        d.description = describe("npz " + std::filesystem::path(path).filename().string(), d);
        return d;
    }
};

} // namespace

std::unique_ptr<DataSource> makeNpySource() { return std::make_unique<NpySource>(); }
std::unique_ptr<DataSource> makeNpzSource() { return std::make_unique<NpzSource>(); }

} // namespace diamond::engine::data
