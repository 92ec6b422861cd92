// What a dataset holds, read from its files without the engine: the format the engine would read it as, and a
// schema (CSV columns with their kind, missing values and the guessed target's classes; image classes with their
// counts; array shapes) plus the problems a scientist should see before training (missing values, constant
// columns, label imbalance, a metadata line above a CSV table). Reads at most a bounded prefix of big files.
#pragma once

#include "app/data/content_manifest.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace diamond::app {

struct DatasetDescription {
    QString format;     ///< engine data source: csv, npy, npz, hdf5, idx, image_folder; "files" otherwise
    QJsonObject schema; ///< format-specific (docs/datasets.md)
    qint64 rows = -1;   ///< samples when known
    QStringList problems;
};

/// The header of an uncompressed IDX file: magic 0 0 <type> <rank>, then rank big-endian uint32 dimensions.
struct IdxHeader {
    QString path;
    quint8 type = 0; ///< 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64
    QList<qint64> dims;
    qint64 dataOffset = 0; ///< where the big-endian data starts
};
/// nullopt when `file` is compressed, unreadable or not IDX.
std::optional<IdxHeader> readIdxHeader(const QString &file);

/// The fields of one CSV record (RFC 4180 quotes, "" inside quotes; unquoted fields trimmed).
QStringList splitCsvRecord(const QString &line, QChar delimiter);

/// Describes the files of `manifest` found under `root` (a folder, or the folder holding a single file).
DatasetDescription describeDataset(const QString &root, const ContentManifest &manifest);

/// The data options a run on a dataset of `format` needs, from its schema, for the keys a config leaves out: csv
/// skip_rows and header; idx images and labels, npy inputs and targets (files of the dataset); hdf5 and npz inputs and
/// targets (arrays of the file).
QJsonObject datasetRunOptions(const QString &format, const QJsonObject &schema);

} // namespace diamond::app
