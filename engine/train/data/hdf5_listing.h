// What an HDF5 file holds, for choosing data.inputs and data.targets before a run: `diamond-train hdf5-datasets
// FILE` prints the file's datasets as one JSON object (docs/datasets.md), so that the app, which links neither
// libhdf5 nor libtorch, can offer them in its dataset picker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace diamond::engine::data {

struct Hdf5Array {
    std::string name;                 ///< absolute path in the file, e.g. "/train/images"
    std::vector<std::uint64_t> shape; ///< empty for a scalar
    std::string dtype;                ///< float32, float64, int8..int64, uint8..uint64, string, compound, other
    bool readable = false;            ///< the hdf5 source reads it (element type and rank >= 1)
};

/// The datasets reachable through hard links, in name order, at most `maxArrays` (`*truncated` tells whether more
/// exist). Soft and external links are not followed (an external link would open another file). Throws EngineError
/// naming `path` when it is not a readable HDF5 file.
std::vector<Hdf5Array> listHdf5Arrays(const std::string &path, std::size_t maxArrays, bool *truncated);

/// `diamond-train hdf5-datasets FILE`: prints {"path", "datasets": [{name, shape, dtype, readable}], "truncated"}.
int runHdf5Datasets(int argc, char **argv);

} // namespace diamond::engine::data
