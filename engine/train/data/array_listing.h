// What an array file holds, for choosing data.inputs and data.targets before a run: `diamond-train arrays FILE`
// prints the arrays of an HDF5 or NPZ file as one JSON object (docs/datasets.md), so that the app, which links
// neither libhdf5 nor libtorch, can offer them in its array pickers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace diamond::engine::data {

struct ArrayInfo {
    std::string name;                 ///< HDF5: absolute path ("/train/images"); NPZ: member name without ".npy"
    std::vector<std::uint64_t> shape; ///< empty when unknown or a scalar
    std::string dtype;                ///< float32, float64, int8..int64, uint8..uint64, bool, string, compound, other
    bool readable = false;            ///< the hdf5 / npz source reads it (element type and rank >= 1)
};

/// The datasets of an HDF5 file reachable through hard links, in name order, at most `maxArrays` (`*truncated`
/// tells whether more exist). Soft and external links are not followed (an external link would open another
/// file). Throws EngineError naming `path` when it is not a readable HDF5 file.
std::vector<ArrayInfo> listHdf5Arrays(const std::string &path, std::size_t maxArrays, bool *truncated);

/// The members of an NPZ file in name order (at most `maxArrays`): shape and dtype from each member's NPY header
/// (of a deflated member only its first 64 KiB are inflated). Throws EngineError naming `path` when the zip
/// directory is unreadable; a member whose header is not readable is listed with readable = false.
std::vector<ArrayInfo> listNpzArrays(const std::string &path, std::size_t maxArrays, bool *truncated);

/// `diamond-train arrays FILE` (HDF5 or NPZ, told apart by the zip signature): prints
/// {"path", "format": "hdf5"|"npz", "arrays": [{name, shape, dtype, readable}], "truncated"}.
int runListArrays(int argc, char **argv);

} // namespace diamond::engine::data
