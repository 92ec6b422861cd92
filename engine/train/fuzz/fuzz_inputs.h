// One fuzz iteration per engine input format, shared by the libFuzzer targets (tests/fuzz, clang with
// -fsanitize=fuzzer,address,undefined) and the corpus replay test (tests/fuzz_replay, any compiler), so that
// every input the fuzzer kept, and every crash fixed, is replayed by the normal test run. Test support code: it
// lives in engine/train only because it needs torch, and it is not part of diamond-train. This header includes
// no torch, so its users need not either.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace diamond::engine::fuzz {

/// data.max_bytes of every iteration (256 MiB), also the memory cap of the checkpoint and safetensors readers.
/// Run libFuzzer with -malloc_limit_mb=512 (and -rss_limit_mb=2048): an allocation the cap should have
/// prevented then is a finding.
inline constexpr std::int64_t kMaxBytes = std::int64_t(256) << 20;

enum class Target { Csv, Npy, Npz, Hdf5, Idx, ImageFolder, Checkpoint, Safetensors };

/// Every target, in the order above.
const std::vector<Target> &allTargets();
/// "csv", "npy", "npz", "hdf5", "idx", "image_folder", "checkpoint", "safetensors": the corpus folder
/// (tests/fuzz/corpus/<name>/) and the libFuzzer binary (fuzz_<name>).
const char *targetName(Target target);

/// Process-wide set-up for a fuzzing or replay process: one intra-op thread, HDF5 quiet. Idempotent.
void initialize();

/// Runs `bytes` through the engine's reader for `target`, with kMaxBytes as the cap. Input layouts:
///  - csv, npy, npz, hdf5, safetensors, checkpoint: the bytes of one file (npy: used as both inputs and
///    targets; csv: header, target column 0; checkpoint: read against a fixed small network's state;
///    safetensors: read, converted and loaded into a fixed small network, then checked against its spec);
///  - idx: a 4-byte little-endian length L, L bytes of the images file, then the labels file (either may be
///    gzip-compressed);
///  - image_folder: one option byte (bit 0: grayscale, bit 1: size [12, 12]), then the bytes of the folder's
///    only image.
/// Returns true when the engine accepted the input and false when it refused it with an EngineError. A crash, a
/// sanitizer report, any other exception, or a dataset that breaks the Dataset contract (checked here; abort()) is a
/// finding.
bool runOne(Target target, std::string_view bytes);

/// Small valid inputs for `target` (file name, bytes): the seeds of its corpus. runOne() accepts each.
std::vector<std::pair<std::string, std::string>> seedInputs(Target target);

} // namespace diamond::engine::fuzz
