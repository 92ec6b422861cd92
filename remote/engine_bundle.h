// An engine bundle: diamond-train plus the shared libraries it needs, for clusters without Diamond installed.
//
// Layout of <dir>:  diamond-train (launcher script), bin/diamond-train, lib/*.so*, MANIFEST (sha256 + name).
// The launcher sets LD_LIBRARY_PATH to <dir>/lib and runs bin/diamond-train. Libraries come from `ldd`,
// except the C library, the dynamic loader and the other glibc parts (libm, libpthread, libdl, librt, ...):
// those must come from the cluster's own system, whose kernel they match.
#pragma once

#include <QString>
#include <QStringList>

namespace diamond::remote {

struct EngineBundle {
    QString dir;           ///< the bundle folder
    QString launcher;      ///< <dir>/diamond-train
    QStringList libraries; ///< file names copied into <dir>/lib
    qint64 bytes = 0;      ///< total size
};

/// True for libraries a bundle leaves to the target system (glibc and the loader).
bool isSystemLibrary(const QString &fileName);
/// The libraries `ldd binary` lists (resolved paths), or an empty list with *error.
QStringList sharedLibraries(const QString &binary, QString *error);
/// Creates the bundle in `dir` (created; must be empty or missing). False with *error.
bool createEngineBundle(const QString &binary, const QString &dir, EngineBundle *bundle, QString *error);
/// A container root file system for `podman import` / `docker import`: the program at <dir><enginePath> and
/// every library `ldd` lists, glibc and the dynamic loader included, at their original paths (so the loader's
/// default search finds them without an ld.so.cache). No shell, no package manager: the engine only.
bool createImageRootfs(const QString &binary, const QString &dir, const QString &enginePath, qint64 *bytes,
                       QString *error);
/// Packs a bundle folder into a .tar.gz next to it (tar must be installed). False with *error.
bool packBundle(const QString &dir, const QString &tarball, QString *error);

} // namespace diamond::remote
