// libFuzzer target over diamond_spec (build: see tests/fuzz/README.md).
#include "fuzz_spec_input.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    diamond::spec::fuzz::runOne(std::string_view(reinterpret_cast<const char *>(data), size));
    return 0;
}
