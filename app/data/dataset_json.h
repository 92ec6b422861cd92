// The JSON view of datasets, one for every front end (diamondctl --json, REST; docs/datasets.md).
#pragma once

#include "app/data/dataset_store.h"

#include <QJsonObject>

namespace diamond::app {

/// A version: name, version, ref, format, schema, rows, size, files, new bytes, source, created; with the
/// manifest's file list when `withFiles`.
QJsonObject datasetVersionJson(const DatasetVersion &version, bool withFiles = false);
/// A dataset: name, versions, and its newest version.
QJsonObject datasetSummaryJson(const DatasetSummary &summary);

} // namespace diamond::app
