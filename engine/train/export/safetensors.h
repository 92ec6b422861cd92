// The safetensors file format (https://github.com/huggingface/safetensors), independent of torch:
// an 8-byte little-endian header length N, N bytes of JSON header
//   {"__metadata__": {string: string}, "<name>": {"dtype": "F32", "shape": [..],
//    "data_offsets": [begin, end]}, ...}
// padded with spaces to a multiple of 8, then the tensors' raw little-endian bytes. Offsets are
// relative to the end of the header; the tensors cover the byte buffer exactly, without gaps or
// overlaps. Shared by `diamond-train export` and the model gallery.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace diamond::engine {

/// Largest header accepted by the reader (the reference implementation's limit).
inline constexpr std::uint64_t kSafetensorsMaxHeaderBytes = 100'000'000;

/// Bytes per element of a safetensors dtype ("F64", "F32", "F16", "BF16", "I64", "I32", "I16",
/// "I8", "U64", "U32", "U16", "U8", "BOOL"); 0 for an unknown dtype.
int safetensorsDtypeSize(const std::string &dtype);

struct SafetensorsTensor {
    std::string name;
    std::string dtype;               ///< e.g. "F32"
    std::vector<std::int64_t> shape; ///< empty for a scalar
    std::string data;                ///< raw little-endian bytes: elements x dtype size
};

struct SafetensorsFile {
    std::vector<SafetensorsTensor> tensors;      ///< header (and data) order
    std::map<std::string, std::string> metadata; ///< "__metadata__"; may be empty

    /// The tensor called `name`, or nullptr.
    const SafetensorsTensor *find(const std::string &name) const;
};

/// The file's bytes. Tensors are laid out in `tensors` order. Throws EngineError for a
/// duplicate or empty name, the reserved name "__metadata__", an unknown dtype, a negative
/// dimension, or data whose size does not match dtype and shape.
std::string serializeSafetensors(const SafetensorsFile &file);

/// Parses and validates file bytes. Throws EngineError naming `what` (e.g. the path) when the
/// data is truncated, the header is longer than kSafetensorsMaxHeaderBytes or is not a JSON
/// object of well-formed entries (dtype, shape, data_offsets; string metadata), a name repeats,
/// a shape has more elements than an int64 counts (also across zero dimensions), a data size does
/// not match dtype and shape, or the offsets overlap, leave gaps or run past the end of the data.
SafetensorsFile parseSafetensors(std::string_view bytes, const std::string &what = "safetensors data");

/// Writes serializeSafetensors(file) to `path` through a temporary file and a rename. Returns
/// the bytes written (for hashing). Throws EngineError on I/O failure.
std::string writeSafetensors(const std::string &path, const SafetensorsFile &file);

/// Reads and parses `path`, which must be a regular file of at most `maxBytes` bytes (0: the default memory
/// cap, diamond::config::defaultDataMaxBytes()); its header may take at most a 32nd of that (parsing a JSON
/// header takes many times its size). The header length is checked before the rest is read. Throws
/// EngineError naming the file and the numbers.
SafetensorsFile readSafetensors(const std::string &path, std::int64_t maxBytes = 0);

} // namespace diamond::engine
