#include "data/array_listing.h"

#include "engine_cli.h"
#include "engine_error.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

namespace diamond::engine::data {

int runListArrays(int argc, char **argv) {
    if (argc != 2 || argv[1][0] == '-') throw UsageError("usage: diamond-train arrays FILE", "arrays");
    const std::string path = argv[1];
    char magic[4] = {};
    std::ifstream(path, std::ios::binary).read(magic, sizeof magic);
    const bool zip = magic[0] == 'P' && magic[1] == 'K';
    bool truncated = false;
    constexpr std::size_t kMaxArrays = 10000;
    const std::vector<ArrayInfo> arrays =
        zip ? listNpzArrays(path, kMaxArrays, &truncated) : listHdf5Arrays(path, kMaxArrays, &truncated);
    nlohmann::json list = nlohmann::json::array();
    for (const ArrayInfo &a : arrays)
        list.push_back({{"name", a.name}, {"shape", a.shape}, {"dtype", a.dtype}, {"readable", a.readable}});
    std::cout << nlohmann::json{{"path", path},
                                {"format", zip ? "npz" : "hdf5"},
                                {"arrays", list},
                                {"truncated", truncated}}
                     .dump()
              << "\n"
              << std::flush;
    return kExitFinished;
}

} // namespace diamond::engine::data
