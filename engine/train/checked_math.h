// Overflow-checked arithmetic for sizes, counts and offsets read from files (NPY/NPZ, IDX, HDF5, safetensors,
// checkpoints). Contract: every function returns false when the exact result does not fit its unsigned 64-bit
// type (or an input is negative), and then leaves `out` unspecified; callers turn false into an EngineError that
// names the file and the numbers. No torch, no allocation.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace diamond::engine {

/// out = a + b.
[[nodiscard]] inline bool checkedAdd(std::uint64_t a, std::uint64_t b, std::uint64_t &out) {
    return !__builtin_add_overflow(a, b, &out);
}

/// out = a * b.
[[nodiscard]] inline bool checkedMul(std::uint64_t a, std::uint64_t b, std::uint64_t &out) {
    return !__builtin_mul_overflow(a, b, &out);
}

/// Whether the byte range [offset, offset + length) lies inside [0, size), computed without wrapping.
[[nodiscard]] inline bool withinSize(std::uint64_t offset, std::uint64_t length, std::uint64_t size) {
    return offset <= size && length <= size - offset;
}

/// out = product of `dims` (elements); false for a negative dimension or when the product of the non-zero
/// dimensions exceeds INT64_MAX (torch's sizes and strides are int64, and a zero dimension must not hide
/// dimensions whose strides would overflow). An empty shape (a scalar) has one element.
[[nodiscard]] inline bool checkedElements(const std::vector<std::int64_t> &dims, std::uint64_t &out) {
    std::uint64_t nonZero = 1;
    bool zero = false;
    for (const std::int64_t d : dims) {
        if (d < 0) return false;
        if (d == 0)
            zero = true;
        else if (!checkedMul(nonZero, static_cast<std::uint64_t>(d), nonZero))
            return false;
    }
    if (nonZero > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
    out = zero ? 0 : nonZero;
    return true;
}

/// out = elements(dims) * elementSize bytes, with the same rules as checkedElements().
[[nodiscard]] inline bool checkedBytes(const std::vector<std::int64_t> &dims, std::uint64_t elementSize,
                                       std::uint64_t &out) {
    std::uint64_t n = 0;
    return checkedElements(dims, n) && checkedMul(n, elementSize, out) &&
           out <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

} // namespace diamond::engine
