// Previews of a run's dataset, built off the GUI thread: a table for CSV files, an image grid for image folders,
// the header and a value histogram for .npy arrays, the arrays of an HDF5 or NPZ file (listed by the engine), a
// description for the synthetic sources.
#pragma once

#include "app/data/array_files.h"

#include <QImage>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QLabel;
class QListWidget;
class QStackedWidget;
class QTableWidget;

namespace diamond::ui {

/// What loadDatasetPreview() found; exactly one of the parts is filled, or error.
struct DatasetPreview {
    QString summary;                      ///< one line: rows/columns, images/classes, shape/dtype
    QStringList header;                   ///< CSV column names
    QList<QStringList> rows;              ///< first CSV rows
    QList<QPair<QString, QImage>> images; ///< (class, thumbnail) of an image folder
    QVector<double> histogram;            ///< bin counts of an array's values
    double histogramMin = 0, histogramMax = 0;
    app::ArrayListing arrayFile; ///< the arrays of an HDF5 or NPZ file (also shown as the table), guessed roles
    QString error;               ///< translated, names the file
};

/// Reads at most a few hundred rows / 32 images / 1M values. Safe on any thread. CSV: the first `skipRows` lines
/// are left out; a first row of numbers above numbers is data (columns "0", "1", ...), else the header.
DatasetPreview loadDatasetPreview(const QString &source, const QString &path, int skipRows = 0);

/// A bar chart of bin counts (QPainter).
class HistogramView : public QWidget {
    Q_OBJECT
public:
    explicit HistogramView(QWidget *parent = nullptr);
    void setHistogram(const QVector<double> &bins, double lo, double hi);
    QSize sizeHint() const override { return {320, 160}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QVector<double> bins_;
    double lo_ = 0, hi_ = 0;
};

/// The preview area of the run page.
class DatasetPreviewWidget : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPreviewWidget(QWidget *parent = nullptr);
    /// Starts loading a preview (asynchronously; a newer request wins).
    void showDataset(const QString &source, const QString &path, int skipRows = 0);
    QString summary() const;
    /// The arrays of the HDF5 or NPZ file shown last (empty for other sources).
    const app::ArrayListing &arrayFile() const { return arrayFile_; }
    /// Marks which arrays of the file shown are the run's inputs and targets (the table's "Use" column).
    void setArrayRoles(const QString &inputs, const QString &targets);
    QTableWidget *table() const { return table_; }
    QListWidget *imageGrid() const { return images_; }

Q_SIGNALS:
    void previewReady();

private:
    void apply(const DatasetPreview &preview);

    int generation_ = 0;
    app::ArrayListing arrayFile_;
    QLabel *summary_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QLabel *text_ = nullptr;
    QTableWidget *table_ = nullptr;
    QListWidget *images_ = nullptr;
    HistogramView *histogram_ = nullptr;
};

/// Description of a synthetic source ("spirals": "Points on interleaved spiral arms, one class per arm").
QString syntheticSourceDescription(const QString &source);

} // namespace diamond::ui
