// Writes the seeds of every engine fuzz target (fuzz_inputs.h: seedInputs) into <corpus>/<target>/seed-<name>,
// replacing older seeds of the same name. Usage: write_engine_seeds tests/fuzz/corpus
#include "fuzz/fuzz_inputs.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_FOLDER\n", argv[0]);
        return 2;
    }
    namespace fuzz = diamond::engine::fuzz;
    for (const fuzz::Target target : fuzz::allTargets()) {
        const std::filesystem::path dir = std::filesystem::path(argv[1]) / fuzz::targetName(target);
        std::filesystem::create_directories(dir);
        for (const auto &[name, bytes] : fuzz::seedInputs(target)) {
            if (!fuzz::runOne(target, bytes)) {
                std::fprintf(stderr, "seed %s of %s is refused\n", name.c_str(), fuzz::targetName(target));
                return 1;
            }
            std::ofstream out(dir / ("seed-" + name), std::ios::binary | std::ios::trunc);
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        std::printf("%s: %zu seeds\n", fuzz::targetName(target), fuzz::seedInputs(target).size());
    }
    return 0;
}
