// What a dataset holds, read from its files without the engine: the format the engine would read it as, and a
// schema (CSV columns with their kind, missing values and the guessed target's classes; image classes with their
// counts; array shapes) plus the problems a scientist should see before training (missing values, constant
// columns, label imbalance, a metadata line above a CSV table). Reads at most a bounded prefix of big files.
#pragma once

#include "app/data/content_manifest.h"

#include <QJsonObject>
#include <QStringList>

namespace diamond::app {

struct DatasetDescription {
    QString format;     ///< engine data source: csv, npy, npz, hdf5, idx, image_folder; "files" otherwise
    QJsonObject schema; ///< format-specific (docs/datasets.md)
    qint64 rows = -1;   ///< samples when known
    QStringList problems;
};

/// The fields of one CSV record (RFC 4180 quotes, "" inside quotes; unquoted fields trimmed).
QStringList splitCsvRecord(const QString &line, QChar delimiter);

/// Describes the files of `manifest` found under `root` (a folder, or the folder holding a single file).
DatasetDescription describeDataset(const QString &root, const ContentManifest &manifest);

} // namespace diamond::app
