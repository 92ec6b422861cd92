// Defensive reading of zip central directories and local headers; see zip_directory.h.
#include "zip_directory.h"

#include "checked_math.h"
#include "engine_error.h"

#include <limits>

namespace diamond::engine {

namespace {

std::uint64_t le(const std::uint8_t *p, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

constexpr std::uint64_t kDeflateMaxRatio = 1032;
constexpr std::uint64_t kDeflateSlack = 258;
constexpr std::uint64_t kCentralRecord = 46, kLocalRecord = 30, kEndRecord = 22, kZip64End = 56, kZip64Locator = 20;

} // namespace

std::uint64_t deflateMaxOutput(std::uint64_t compressedSize) {
    std::uint64_t out = 0;
    if (!checkedMul(compressedSize, kDeflateMaxRatio, out) || !checkedAdd(out, kDeflateSlack, out))
        return std::numeric_limits<std::uint64_t>::max();
    return out;
}

std::vector<ZipMember> readZipDirectory(const std::uint8_t *p, std::size_t n, const std::string &what,
                                        const std::string &kind, const std::string &field) {
    auto bad = [&](const std::string &m) -> EngineError {
        return EngineError(what + ": not a readable " + kind + " (zip) file: " + m, field);
    };
    if (n < kEndRecord) throw bad("too short.");
    std::size_t eocd = std::string::npos;
    for (std::size_t i = n - kEndRecord + 1; i-- > 0 && n - i <= kEndRecord + 65535;)
        if (le(p + i, 4) == 0x06054b50) {
            eocd = i;
            break;
        }
    if (eocd == std::string::npos) throw bad("no end of central directory.");
    std::uint64_t entries = le(p + eocd + 10, 2);
    std::uint64_t cdSize = le(p + eocd + 12, 4);
    std::uint64_t cdOffset = le(p + eocd + 16, 4);
    if (entries == 0xFFFF || cdSize == 0xFFFFFFFF || cdOffset == 0xFFFFFFFF) {
        if (eocd < kZip64Locator || le(p + eocd - kZip64Locator, 4) != 0x07064b50) throw bad("zip64 locator missing.");
        const std::uint64_t at = le(p + eocd - kZip64Locator + 8, 8);
        if (!withinSize(at, kZip64End, n) || le(p + at, 4) != 0x06064b50)
            throw bad("zip64 end record missing (the locator points at byte " + std::to_string(at) + " of " +
                      std::to_string(n) + ").");
        entries = le(p + at + 32, 8);
        cdSize = le(p + at + 40, 8);
        cdOffset = le(p + at + 48, 8);
    }
    if (!withinSize(cdOffset, cdSize, n))
        throw bad("central directory out of range (" + std::to_string(cdSize) + " bytes at offset " +
                  std::to_string(cdOffset) + " in a file of " + std::to_string(n) + " bytes).");
    if (entries > cdSize / kCentralRecord)
        throw bad("the central directory of " + std::to_string(cdSize) + " bytes cannot list " +
                  std::to_string(entries) + " members.");
    std::vector<ZipMember> members;
    members.reserve(static_cast<std::size_t>(entries));
    std::size_t at = cdOffset;
    const std::size_t cdEnd = cdOffset + cdSize; // no overflow: checked above
    for (std::uint64_t e = 0; e < entries; ++e) {
        if (!withinSize(at, kCentralRecord, cdEnd) || le(p + at, 4) != 0x02014b50)
            throw bad("corrupt central directory.");
        ZipMember m;
        m.flags = static_cast<std::uint16_t>(le(p + at + 8, 2));
        m.method = static_cast<std::uint16_t>(le(p + at + 10, 2));
        m.crc = static_cast<std::uint32_t>(le(p + at + 16, 4));
        m.compressedSize = le(p + at + 20, 4);
        m.size = le(p + at + 24, 4);
        const std::size_t nameLen = le(p + at + 28, 2), extraLen = le(p + at + 30, 2), commentLen = le(p + at + 32, 2);
        m.localOffset = le(p + at + 42, 4);
        if (!withinSize(at, kCentralRecord + nameLen + extraLen + commentLen, cdEnd))
            throw bad("corrupt central directory.");
        m.name.assign(reinterpret_cast<const char *>(p + at + kCentralRecord), nameLen);
        // Zip64 extended information: the 64-bit values of the fields stored as 0xFFFFFFFF, in this order.
        const std::uint8_t *x = p + at + kCentralRecord + nameLen;
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
        at += kCentralRecord + nameLen + extraLen + commentLen;
    }
    return members;
}

void locateZipMember(const std::uint8_t *p, std::size_t n, ZipMember &m, const std::string &what,
                     const std::string &field) {
    if (!withinSize(m.localOffset, kLocalRecord, n) || le(p + m.localOffset, 4) != 0x04034b50)
        throw EngineError(what + ": corrupt zip local header (at byte " + std::to_string(m.localOffset) +
                              " of a file of " + std::to_string(n) + " bytes).",
                          field);
    // localOffset + 30 + two 16-bit lengths: no overflow, localOffset + 30 <= n.
    m.dataOffset = m.localOffset + kLocalRecord + le(p + m.localOffset + 26, 2) + le(p + m.localOffset + 28, 2);
    if (!withinSize(m.dataOffset, m.compressedSize, n))
        throw EngineError(what + ": the zip member is truncated (" + std::to_string(m.compressedSize) +
                              " bytes at offset " + std::to_string(m.dataOffset) + " in a file of " +
                              std::to_string(n) + " bytes).",
                          field);
    if (m.method == 0 && m.size != m.compressedSize)
        throw EngineError(what + ": the stored (uncompressed) zip member declares " + std::to_string(m.size) +
                              " bytes but occupies " + std::to_string(m.compressedSize) + " bytes of the file.",
                          field);
    if (m.method == 8 && m.size > deflateMaxOutput(m.compressedSize))
        throw EngineError(what + ": the deflated zip member declares " + std::to_string(m.size) +
                              " bytes, more than its " + std::to_string(m.compressedSize) +
                              " compressed bytes can hold (deflate expands at most 1032:1).",
                          field);
}

} // namespace diamond::engine
