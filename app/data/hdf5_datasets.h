// The datasets of an HDF5 file, listed by the engine (`diamond-train hdf5-datasets`: the app links no libhdf5),
// and which two of them most likely are a run's inputs and targets: what the Data page shows and the run page's
// dataset picker offers.
#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>

namespace diamond::app {

struct Hdf5Array {
    QString name;        ///< "/group/x"
    QList<qint64> shape; ///< empty for a scalar
    QString dtype;       ///< float32, float64, int64, ..., string, compound, other
    bool readable = false;

    QString shapeText() const; ///< "1000 × 4"
};

struct Hdf5Listing {
    QList<Hdf5Array> arrays;
    bool truncated = false;
    QString inputs;  ///< guessed data.inputs (empty when nothing is readable)
    QString targets; ///< guessed data.targets
    QString error;   ///< translated, names the file; empty on success
};

/// Runs `enginePath hdf5-datasets file` (at most `timeoutMs`; its output at most 16 MiB) and guesses the roles.
/// Blocks: call it off the GUI thread.
Hdf5Listing listHdf5Datasets(const QString &enginePath, const QString &file, int timeoutMs = 30000);

/// The likely inputs and targets: targets a readable array of rank 1 (or N × 1), preferring names such as y,
/// label(s), target(s), class(es); inputs the largest other readable array with as many rows.
void guessHdf5Roles(Hdf5Listing &listing);

/// [{name, shape, dtype, readable}] as in docs/datasets.md.
QJsonArray hdf5ArraysToJson(const QList<Hdf5Array> &arrays);

} // namespace diamond::app
