// The arrays of an HDF5 or NPZ file, listed by the engine (`diamond-train arrays`: the app links neither libhdf5
// nor a zip reader), and which two of them most likely are a run's inputs and targets: what the Data page shows
// and the run page's array pickers offer.
#pragma once

#include <QJsonArray>
#include <QList>
#include <QString>

namespace diamond::app {

struct StoredArray {
    QString name;        ///< HDF5 "/group/x"; NPZ "x" (the member without .npy)
    QList<qint64> shape; ///< empty for a scalar
    QString dtype;       ///< float32, float64, int64, ..., string, compound, other
    bool readable = false;

    QString shapeText() const; ///< "1000 × 4"
};

struct ArrayListing {
    QList<StoredArray> arrays;
    bool truncated = false;
    QString inputs;  ///< guessed data.inputs (empty when nothing is readable)
    QString targets; ///< guessed data.targets
    QString error;   ///< translated, names the file; empty on success
};

/// Runs `enginePath arrays file` (at most `timeoutMs`; its output at most 16 MiB) and guesses the roles.
/// Blocks: call it off the GUI thread.
ArrayListing listArrays(const QString &enginePath, const QString &file, int timeoutMs = 30000);

/// The likely inputs and targets: targets a readable array of rank 1 (or N × 1), preferring names such as y,
/// label(s), target(s), class(es); inputs the largest other readable array with as many rows.
void guessArrayRoles(ArrayListing &listing);

/// [{name, shape, dtype, readable}] as in docs/datasets.md.
QJsonArray arraysToJson(const QList<StoredArray> &arrays);

} // namespace diamond::app
