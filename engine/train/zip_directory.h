// The central directory of a zip archive held in memory (NPZ arrays, checkpoints), read defensively: every
// offset and length comes from the file and is checked against it with checked arithmetic before it is used.
// No torch, no allocation beyond the member list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace diamond::engine {

struct ZipMember {
    std::string name;
    std::uint16_t flags = 0, method = 0; ///< method 0: stored, 8: deflated
    std::uint32_t crc = 0;
    std::uint64_t compressedSize = 0, size = 0, localOffset = 0;
    std::uint64_t dataOffset = 0; ///< where the member's bytes start (after its local header); see memberData()
};

/// Deflate's largest expansion: 1032 output bytes per input byte, plus one longest match (258 bytes).
std::uint64_t deflateMaxOutput(std::uint64_t compressedSize);

/// The members listed in the central directory of the zip bytes [p, p + n) (zip64 records included). Throws
/// EngineError(field) "<what>: not a readable <kind> (zip) file: ..." when a record is missing, out of range or
/// lists more members than it can hold.
std::vector<ZipMember> readZipDirectory(const std::uint8_t *p, std::size_t n, const std::string &what,
                                        const std::string &kind, const std::string &field);

/// Locates member `m`'s bytes: checks its local header and that its compressed bytes lie inside the file, sets
/// m.dataOffset, and for a stored member checks size == compressedSize; for a deflated one size <=
/// deflateMaxOutput(compressedSize). Throws EngineError(field) naming `what` and the numbers otherwise.
void locateZipMember(const std::uint8_t *p, std::size_t n, ZipMember &m, const std::string &what,
                     const std::string &field);

} // namespace diamond::engine
