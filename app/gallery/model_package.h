// Model packages: the `.diamond` file format "diamond.package/1" (docs/model-package.md).
//
// A package is a flat zip archive holding manifest.json and the files it lists with their SHA-256:
// spec.json, weights.safetensors, test_inputs.safetensors, test_outputs.safetensors, thumbnail.png.
// Packages are data: nothing in them is ever executed. checkPackage() refuses unknown format versions,
// oversize packages and entries (PackageLimits), unsafe entries (zip_archive.h), files missing from or not
// listed in the manifest, and any hash mismatch. verifyOutputs() re-runs the test inputs through the engine
// (`diamond-train predict`) and compares with the expected outputs within the manifest's tolerance.
#pragma once

#include "app/gallery/package_signature.h"

#include <QByteArray>

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <functional>

namespace diamond::app::gallery {

inline constexpr const char *kPackageFormat = "diamond.package/1";
inline constexpr const char *kManifestFile = "manifest.json";
inline constexpr const char *kSpecFile = "spec.json";
inline constexpr const char *kWeightsFile = "weights.safetensors";
inline constexpr const char *kTestInputsFile = "test_inputs.safetensors";
inline constexpr const char *kTestOutputsFile = "test_outputs.safetensors";
inline constexpr const char *kThumbnailFile = "thumbnail.png";
/// A registered dataset this small (and in this few chunks) travels in the package as "dataset-<sha256>" entries.
inline constexpr qint64 kShipDatasetBytes = qint64(1) << 20;
inline constexpr int kShipDatasetChunks = 16;
/// Default comparison of re-run outputs: |actual - expected| <= abs + rel * |expected| for every element.
inline constexpr double kDefaultAbsTolerance = 1e-5;
inline constexpr double kDefaultRelTolerance = 1e-4;

/// Limits enforced when reading a package (documented in docs/model-package.md).
struct PackageLimits {
    qint64 maxPackageBytes = qint64(2) << 30;   ///< the .diamond file
    qint64 maxWeightsBytes = qint64(2) << 30;   ///< weights.safetensors
    qint64 maxTestBytes = qint64(64) << 20;     ///< each test_*.safetensors
    qint64 maxJsonBytes = qint64(4) << 20;      ///< manifest.json, spec.json
    qint64 maxThumbnailBytes = qint64(4) << 20; ///< thumbnail.png
    qint64 maxOtherBytes = qint64(16) << 20;    ///< any other listed file
    int maxEntries = 32;
    qint64 limitFor(const QString &name) const;
};

/// Result of checkPackage(): ok, or a stable error code (zip_archive.h ErrorCode) and a message.
struct PackageCheck {
    bool ok = false;
    QString code;
    QString message;
    QJsonObject manifest;
    QString packageSha256;    ///< of the whole .diamond file
    SignatureCheck signature; ///< signature.json: present and valid, or absent (an invalid one is refused)
};

/// Makes signature.json for the bytes of manifest.json (empty: no signature).
using ManifestSigner = std::function<QByteArray(const QByteArray &manifestBytes)>;

/// Writes a package: `files` maps entry names (flat, see zip_archive.h) to contents; manifest.json is
/// `manifest` plus "format" and "files" (name -> SHA-256 hex of every other file), signed by `signer` when given
/// (signature.json, package_signature.h). False with *error.
bool writePackage(const QString &path, QJsonObject manifest, const QMap<QString, QByteArray> &files, QString *error,
                  const ManifestSigner &signer = {});

/// Checks a package file (see the file comment). When `extractDir` is not empty, the checked files are
/// written there (it must exist); a file is only written under its checked flat name.
PackageCheck checkPackage(const QString &path, const QString &extractDir = {}, const PackageLimits &limits = {});

/// SHA-256 (lower-case hex) of a file, streamed; empty when unreadable.
QString fileSha256(const QString &path);

/// Outcome of re-running the test inputs: whether the package agrees with itself (its weights reproduce its test
/// outputs). This says nothing about who made it: see the signature.
struct OutputCheck {
    bool consistent = false;
    QString message; ///< why not consistent, or a summary ("max abs diff ...")
    double maxAbsDiff = 0.0;
};

/// Runs `<engine> predict --spec spec.json --weights weights.safetensors --inputs test_inputs.safetensors
/// --output <tmp>` on an extracted package folder and compares the result with test_outputs.safetensors
/// (same tensor names, dtypes and shapes; floating values within the tolerance, others equal). Blocks until
/// the engine exits (at most `timeoutMs`).
OutputCheck verifyOutputs(const QString &extractedDir, const QString &enginePath, double absTolerance,
                          double relTolerance, int timeoutMs = 120000);

/// A PNG (about 256 x 256) of the spec's layers as a stack of boxes, one per node in order, width growing with
/// the node's output size, colour by layer family. Empty when the spec is not valid JSON.
QByteArray renderThumbnail(const QByteArray &specJson);

} // namespace diamond::app::gallery
