// makeDataSource / dataSourceNames: the table of every data source the engine knows.
#include "data/data_internal.h"

namespace diamond::engine {

namespace {

struct FileSource {
    const char *name;
    std::unique_ptr<DataSource> (*make)();
};

const FileSource kFileSources[] = {{"csv", data::makeCsvSource}, {"npy", data::makeNpySource},
                                   {"npz", data::makeNpzSource}, {"hdf5", data::makeHdf5Source},
                                   {"idx", data::makeIdxSource}, {"image_folder", data::makeImageFolderSource}};

} // namespace

std::unique_ptr<DataSource> makeDataSource(const std::string &name) {
    if (auto synthetic = data::makeSyntheticSource(name)) return synthetic;
    for (const FileSource &s : kFileSources)
        if (name == s.name) return s.make();
    std::string known;
    for (const std::string &n : dataSourceNames())
        known += (known.empty() ? "" : ", ") + n;
    throw EngineError("Unknown data source '" + name + "'.", "data.source", {}, "Known sources: " + known + ".");
}

std::vector<std::string> dataSourceNames() {
    std::vector<std::string> names = data::syntheticSourceNames();
    for (const FileSource &s : kFileSources)
        names.emplace_back(s.name);
    return names;
}

} // namespace diamond::engine
