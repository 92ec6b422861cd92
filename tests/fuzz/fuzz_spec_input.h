// One fuzz iteration over parse + validate + infer + memory + serialise, shared by the libFuzzer
// target and the corpus replay test. Aborts on a broken invariant (round trip not lossless).
#pragma once

#include "diamond/spec/analysis.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace diamond::spec::fuzz {

inline void runOne(std::string_view text) {
    const ParseResult parsed = parseSpec(text);
    for (const auto &d : parsed.diagnostics)
        (void)formatDiagnostic(d);
    if (!parsed.ok()) return;
    const Analysis analysis = analyze(parsed.spec);
    for (const auto &d : analysis.diagnostics)
        (void)formatDiagnostic(d);
    for (std::int64_t batch : {1LL, 1LL << 40}) {
        MemoryOptions options;
        options.batch = batch;
        (void)estimateMemory(analysis, options).total();
    }
    const nlohmann::json once = toJson(parsed.spec);
    const ParseResult again = parseSpecJson(once);
    if (toJson(again.spec) != once) {
        std::fprintf(stderr, "round trip is not lossless\n");
        std::abort();
    }
}

} // namespace diamond::spec::fuzz
