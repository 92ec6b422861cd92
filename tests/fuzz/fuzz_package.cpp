// libFuzzer target over the model-package importer (fuzz_package_input.h; build: tests/fuzz/README.md).
// DIAMOND_WRITE_SEEDS=DIR: write the seed packages into DIR and exit (they are tests/fuzz/corpus/package/seed-*).
#include "fuzz_package_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    const QString seedDir = qEnvironmentVariable("DIAMOND_WRITE_SEEDS");
    if (!seedDir.isEmpty()) {
        QDir().mkpath(seedDir);
        for (const auto &[name, bytes] : diamond::app::gallery::fuzz::seedPackages()) {
            QFile f(QDir(seedDir).filePath(name));
            if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) std::exit(1);
        }
        std::exit(0);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    diamond::app::gallery::fuzz::runOne(std::string_view(reinterpret_cast<const char *>(data), size));
    return 0;
}
