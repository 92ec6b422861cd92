// SHA-256 (FIPS 180-4), incremental. Used for weights_sha256 and file hashes; small enough to
// keep the engine free of a crypto dependency.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace diamond::engine {

class Sha256 {
public:
    Sha256();
    void update(const void *data, std::size_t size);
    /// Finishes and returns the lowercase hex digest; the object must not be updated afterwards.
    std::string hexDigest();

private:
    void block(const std::uint8_t *p);
    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t length_ = 0;
};

std::string sha256Hex(const void *data, std::size_t size);

} // namespace diamond::engine
