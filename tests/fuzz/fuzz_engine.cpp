// libFuzzer target over one engine input format (build: see tests/fuzz/README.md). DIAMOND_FUZZ_TARGET names the
// format ("csv", "npy", ...; fuzz_inputs.h): one binary fuzz_<name> per format, all from this file.
#include "fuzz/fuzz_inputs.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

diamond::engine::fuzz::Target target() {
    for (const auto t : diamond::engine::fuzz::allTargets())
        if (std::string_view(diamond::engine::fuzz::targetName(t)) == DIAMOND_FUZZ_TARGET) return t;
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    diamond::engine::fuzz::initialize();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    static const diamond::engine::fuzz::Target kTarget = target();
    diamond::engine::fuzz::runOne(kTarget, std::string_view(reinterpret_cast<const char *>(data), size));
    return 0;
}
