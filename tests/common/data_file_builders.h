// Bytes of data files built by hand, for tests and fuzz seeds that need well-formed or deliberately hostile files:
// NPY arrays, zip archives (NPZ) with stored or deflated members and optional zip64 fields, raw deflate and gzip
// streams, IDX files and minimal PNG images. Plain C++ and zlib: no Qt, no torch. Every builder writes exactly
// what its arguments say (declared sizes may lie on purpose); nothing is validated.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace diamond::test::files {

/// Appends `v` as `bytes` little-endian bytes.
inline void putLe(std::string &b, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i)
        b.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

/// Appends `v` as 4 big-endian bytes.
inline void putBe32(std::string &b, std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8)
        b.push_back(static_cast<char>((v >> s) & 0xFF));
}

/// An .npy file as numpy writes it: magic, version, little-endian header length, dict padded to 64 bytes, `data`.
inline std::string npy(const std::string &descr, const std::vector<std::int64_t> &shape, const std::string &data,
                       int major = 1, bool fortran = false) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (";
    for (std::size_t i = 0; i < shape.size(); ++i)
        dict += (i ? ", " : "") + std::to_string(shape[i]);
    dict += shape.size() == 1 ? ",), }" : "), }";
    const std::size_t prefix = major == 1 ? 10 : 12;
    while ((prefix + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    std::string b("\x93NUMPY", 6);
    b.push_back(static_cast<char>(major));
    b.push_back('\0');
    putLe(b, dict.size(), major == 1 ? 2 : 4);
    return b + dict + data;
}

/// `values` as little-endian bytes of their own type.
template <typename T> std::string rawBytes(const std::vector<T> &values) {
    return std::string(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(T));
}

/// Raw deflate (no zlib header), as zip members hold it.
inline std::string deflateRaw(const std::string &in, int level = Z_BEST_COMPRESSION) {
    z_stream zs{};
    deflateInit2(&zs, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

/// A gzip stream of `in` (as gzip(1) writes it).
inline std::string gzip(const std::string &in, int level = Z_BEST_COMPRESSION) {
    z_stream zs{};
    deflateInit2(&zs, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY);
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())) + 32, '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

/// One zip member. By default the headers declare the true sizes; `declaredSize` / `declaredCompressedSize` /
/// `declaredOffset` (when not ~0) replace what the central directory (and, without zip64, the local header)
/// claims, so tests can build archives that lie.
struct ZipMember {
    std::string name;
    std::string data;
    bool deflate = false;
    bool zip64 = false; ///< sizes and offset in zip64 extra fields, like numpy's force_zip64 writes
    std::uint64_t declaredSize = ~std::uint64_t(0);
    std::uint64_t declaredCompressedSize = ~std::uint64_t(0);
    std::uint64_t declaredOffset = ~std::uint64_t(0);
};

/// A zip archive of `members` (local headers, bodies, central directory, end record).
inline std::string zip(const std::vector<ZipMember> &members) {
    std::string file, central;
    const std::uint64_t none = ~std::uint64_t(0), big = 0xFFFFFFFF;
    for (const ZipMember &m : members) {
        const std::string body = m.deflate ? deflateRaw(m.data) : m.data;
        const auto crc = crc32(0, reinterpret_cast<const Bytef *>(m.data.data()), static_cast<uInt>(m.data.size()));
        const std::uint64_t offset = m.declaredOffset != none ? m.declaredOffset : file.size();
        const std::uint64_t size = m.declaredSize != none ? m.declaredSize : m.data.size();
        const std::uint64_t compressed = m.declaredCompressedSize != none ? m.declaredCompressedSize : body.size();
        std::string localExtra, centralExtra;
        if (m.zip64) {
            putLe(localExtra, 1, 2);
            putLe(localExtra, 16, 2);
            putLe(localExtra, size, 8);
            putLe(localExtra, compressed, 8);
            putLe(centralExtra, 1, 2);
            putLe(centralExtra, 24, 2);
            putLe(centralExtra, size, 8);
            putLe(centralExtra, compressed, 8);
            putLe(centralExtra, offset, 8);
        }
        putLe(file, 0x04034b50, 4);
        putLe(file, m.zip64 ? 45 : 20, 2);
        putLe(file, 0, 2);
        putLe(file, m.deflate ? 8 : 0, 2);
        putLe(file, 0, 4); // time, date
        putLe(file, crc, 4);
        putLe(file, m.zip64 ? big : compressed & big, 4);
        putLe(file, m.zip64 ? big : size & big, 4);
        putLe(file, m.name.size(), 2);
        putLe(file, localExtra.size(), 2);
        file += m.name + localExtra + body;

        putLe(central, 0x02014b50, 4);
        putLe(central, 45, 2);
        putLe(central, m.zip64 ? 45 : 20, 2);
        putLe(central, 0, 2);
        putLe(central, m.deflate ? 8 : 0, 2);
        putLe(central, 0, 4);
        putLe(central, crc, 4);
        putLe(central, m.zip64 ? big : compressed & big, 4);
        putLe(central, m.zip64 ? big : size & big, 4);
        putLe(central, m.name.size(), 2);
        putLe(central, centralExtra.size(), 2);
        putLe(central, 0, 2 + 2 + 2 + 4); // comment length, disk, internal and external attributes
        putLe(central, m.zip64 ? big : offset & big, 4);
        central += m.name + centralExtra;
    }
    const std::uint64_t cdOffset = file.size();
    file += central;
    putLe(file, 0x06054b50, 4);
    putLe(file, 0, 4);
    putLe(file, members.size(), 2);
    putLe(file, members.size(), 2);
    putLe(file, central.size(), 4);
    putLe(file, cdOffset, 4);
    putLe(file, 0, 2);
    return file;
}

/// An IDX file: magic 0 0 <type> <rank>, big-endian dimensions, then `bigEndianData` as given.
inline std::string idx(std::uint8_t type, const std::vector<std::uint32_t> &dims, const std::string &bigEndianData) {
    std::string b;
    b.push_back('\0');
    b.push_back('\0');
    b.push_back(static_cast<char>(type));
    b.push_back(static_cast<char>(dims.size()));
    for (const std::uint32_t d : dims)
        putBe32(b, d);
    return b + bigEndianData;
}

/// A PNG chunk: length, type, data, CRC.
inline std::string pngChunk(const std::string &type, const std::string &data) {
    std::string c;
    putBe32(c, static_cast<std::uint32_t>(data.size()));
    const std::string body = type + data;
    c += body;
    putBe32(c, static_cast<std::uint32_t>(
                   crc32(0, reinterpret_cast<const Bytef *>(body.data()), static_cast<uInt>(body.size()))));
    return c;
}

/// A PNG of `width` x `height` 8-bit pixels (colour type 0 gray with 1 channel, 2 RGB with 3) whose IHDR says so;
/// `rows` is the filtered image data (one filter byte per row, then the row's bytes) before zlib compression.
/// Rows may be fewer than the header declares (a truncated image).
inline std::string png(std::uint32_t width, std::uint32_t height, int colourType, const std::string &rows) {
    std::string ihdr;
    putBe32(ihdr, width);
    putBe32(ihdr, height);
    ihdr.push_back(8);
    ihdr.push_back(static_cast<char>(colourType));
    ihdr.append(3, '\0'); // compression, filter, interlace
    std::string zlibStream(compressBound(static_cast<uLong>(rows.size())), '\0');
    uLongf len = static_cast<uLongf>(zlibStream.size());
    compress2(reinterpret_cast<Bytef *>(zlibStream.data()), &len, reinterpret_cast<const Bytef *>(rows.data()),
              static_cast<uLong>(rows.size()), Z_BEST_COMPRESSION);
    zlibStream.resize(len);
    return std::string("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + pngChunk("IDAT", zlibStream) +
           pngChunk("IEND", {});
}

/// A complete, solid PNG (every byte of every row is `value`).
inline std::string solidPng(std::uint32_t width, std::uint32_t height, int colourType, char value) {
    const std::size_t rowBytes = static_cast<std::size_t>(width) * (colourType == 2 ? 3 : 1);
    std::string rows;
    rows.reserve((rowBytes + 1) * height);
    for (std::uint32_t y = 0; y < height; ++y) {
        rows.push_back('\0');
        rows.append(rowBytes, value);
    }
    return png(width, height, colourType, rows);
}

} // namespace diamond::test::files
