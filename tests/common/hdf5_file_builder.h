// Writes small HDF5 files for tests (links libhdf5: only test binaries that list PkgConfig::HDF5 include this).
#pragma once

#include <hdf5.h>

#include <QString>

#include <vector>

namespace diamond::test {

struct Hdf5TestArray {
    const char *name; ///< absolute path; missing groups are created
    hid_t type;       ///< a native type, e.g. H5T_NATIVE_FLOAT; the file stores the same
    std::vector<hsize_t> dims;
    const void *data; ///< nullptr: declared, never written
};

/// Creates (truncates) `path` with `arrays`; false when libhdf5 refuses.
inline bool writeHdf5File(const QString &path, const std::vector<Hdf5TestArray> &arrays) {
    const hid_t file = H5Fcreate(path.toLocal8Bit().constData(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0) return false;
    const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    bool ok = true;
    for (const Hdf5TestArray &a : arrays) {
        const hid_t space = H5Screate_simple(int(a.dims.size()), a.dims.data(), nullptr);
        const hid_t ds = H5Dcreate2(file, a.name, a.type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
        ok = ok && ds >= 0 && (!a.data || H5Dwrite(ds, a.type, H5S_ALL, H5S_ALL, H5P_DEFAULT, a.data) >= 0);
        if (ds >= 0) H5Dclose(ds);
        H5Sclose(space);
    }
    H5Pclose(lcpl);
    return H5Fclose(file) >= 0 && ok;
}

} // namespace diamond::test
