#include "ui/run/dataset_preview.h"

#include "app/data/dataset_inspector.h"
#include "app/run/executor.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QImageReader>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>
#include <cstring>

namespace diamond::ui {

namespace {

class PreviewText {
    Q_DECLARE_TR_FUNCTIONS(DatasetPreview)
};

DatasetPreview previewCsv(const QString &path, int skipRows) {
    DatasetPreview p;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        p.error = PreviewText::tr("Cannot open %1: %2").arg(path, f.errorString());
        return p;
    }
    for (int i = 0; i < skipRows && !f.atEnd(); ++i)
        f.readLine();
    const QString first = QString::fromUtf8(f.readLine()).trimmed();
    const QChar delimiter =
        first.count(QLatin1Char('\t')) > first.count(QLatin1Char(',')) ? QLatin1Char('\t') : QLatin1Char(',');
    p.header = app::splitCsvRecord(first, delimiter);
    qint64 lines = 0;
    // A first row of numbers is data: the columns are numbered instead.
    bool allNumbers = !p.header.isEmpty();
    for (const QString &field : std::as_const(p.header)) {
        bool ok = false;
        field.toDouble(&ok);
        allNumbers = allNumbers && ok;
    }
    if (allNumbers) {
        p.rows << p.header;
        ++lines;
        const qsizetype columns = p.header.size();
        p.header.clear();
        for (qsizetype c = 0; c < columns; ++c)
            p.header << QString::number(c);
    }
    while (!f.atEnd()) {
        const QByteArray raw = f.readLine();
        if (raw.trimmed().isEmpty()) continue;
        ++lines;
        if (p.rows.size() < 200) p.rows << app::splitCsvRecord(QString::fromUtf8(raw).trimmed(), delimiter);
    }
    p.summary = PreviewText::tr("%1 rows × %2 columns").arg(lines).arg(p.header.size());
    return p;
}

DatasetPreview previewImages(const QString &path) {
    DatasetPreview p;
    const QDir dir(path);
    if (!dir.exists()) {
        p.error = PreviewText::tr("The folder %1 does not exist.").arg(path);
        return p;
    }
    const QStringList classes = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    int total = 0;
    for (const QString &cls : classes) {
        QDirIterator it(dir.filePath(cls), {QStringLiteral("*.png"), QStringLiteral("*.jpg"), QStringLiteral("*.jpeg")},
                        QDir::Files);
        int shown = 0;
        while (it.hasNext()) {
            const QString file = it.next();
            ++total;
            if (shown >= std::max<qsizetype>(1, 32 / std::max<qsizetype>(1, classes.size())) || p.images.size() >= 32)
                continue;
            QImageReader reader(file);
            reader.setScaledSize(QSize(64, 64));
            const QImage image = reader.read();
            if (!image.isNull()) p.images.append({cls, image}), ++shown;
        }
    }
    if (classes.isEmpty())
        p.error = PreviewText::tr("%1 has no class sub-folders (one folder of images per class).").arg(path);
    p.summary = PreviewText::tr("%1 images in %2 classes").arg(total).arg(classes.size());
    return p;
}

/// An IDX images file (or the folder holding it): the first 32 images of a uint8 [N, H, W] file as thumbnails,
/// named by their labels when a rank-1 labels file lies beside it; the shape otherwise.
DatasetPreview previewIdx(const QString &path) {
    DatasetPreview p;
    std::optional<app::IdxHeader> images, labels;
    const QFileInfo info(path);
    const QStringList files = info.isDir() ? QDir(path).entryList(QDir::Files, QDir::Name)
                                           : QDir(info.absolutePath()).entryList(QDir::Files, QDir::Name);
    const QDir folder(info.isDir() ? path : info.absolutePath());
    if (!info.isDir()) images = app::readIdxHeader(path);
    for (const QString &name : files) {
        const auto h = app::readIdxHeader(folder.filePath(name));
        if (h && h->dims.size() >= 2 && !images) images = h;
        if (h && h->dims.size() == 1 && !labels) labels = h;
    }
    if (!images || images->dims.size() < 2) {
        p.error = PreviewText::tr("%1 holds no uncompressed IDX images file.").arg(path);
        return p;
    }
    QStringList shape;
    for (qint64 d : images->dims)
        shape << QString::number(d);
    p.summary =
        PreviewText::tr("%1: %2 (IDX)").arg(QFileInfo(images->path).fileName(), shape.join(QStringLiteral(" × ")));
    if (images->type != 0x08 || images->dims.size() != 3 || images->dims[1] > 512 || images->dims[2] > 512) return p;
    QFile f(images->path), l(labels ? labels->path : QString());
    const int h = int(images->dims[1]), w = int(images->dims[2]);
    const bool named = labels && labels->type == 0x08 && l.open(QIODevice::ReadOnly) && l.seek(labels->dataOffset);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(images->dataOffset)) return p;
    for (qint64 i = 0; i < std::min<qint64>(32, images->dims[0]); ++i) {
        const QByteArray pixels = f.read(qint64(h) * w);
        if (pixels.size() < qint64(h) * w) break;
        QImage image(w, h, QImage::Format_Grayscale8);
        for (int y = 0; y < h; ++y)
            std::memcpy(image.scanLine(y), pixels.constData() + qsizetype(y) * w, std::size_t(w));
        const QByteArray label = named ? l.read(1) : QByteArray();
        p.images.append({label.isEmpty() ? QString::number(i) : QString::number(quint8(label[0])),
                         image.scaled(64, 64, Qt::KeepAspectRatio, Qt::FastTransformation)});
    }
    return p;
}

/// Parses a .npy header and builds a histogram of up to 1M float values.
DatasetPreview previewNpy(const QString &path) {
    DatasetPreview p;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        p.error = PreviewText::tr("Cannot open %1: %2").arg(path, f.errorString());
        return p;
    }
    const QByteArray magic = f.read(10);
    if (magic.size() < 10 || !magic.startsWith("\x93NUMPY")) {
        p.error = PreviewText::tr("%1 is not a NumPy .npy file.").arg(path);
        return p;
    }
    const int major = uchar(magic[6]);
    quint32 headerLength = uchar(magic[8]) | (uchar(magic[9]) << 8);
    if (major >= 2) {
        const QByteArray more = f.read(2);
        headerLength |= quint32(uchar(more.size() > 0 ? more.at(0) : 0)) << 16 |
                        quint32(uchar(more.size() > 1 ? more.at(1) : 0)) << 24;
    }
    const QString header = QString::fromLatin1(f.read(headerLength));
    const QString descr = QRegularExpression(QStringLiteral("'descr':\\s*'([^']+)'")).match(header).captured(1);
    const QString shape = QRegularExpression(QStringLiteral("'shape':\\s*\\(([^)]*)\\)")).match(header).captured(1);
    p.summary = PreviewText::tr("shape (%1), dtype %2").arg(shape.trimmed(), descr);
    const bool f32 = descr == QLatin1String("<f4"), f64 = descr == QLatin1String("<f8");
    if (!f32 && !f64) return p;
    const QByteArray data = f.read(qint64(1) << (f32 ? 22 : 23)); // 1M values
    const int n = int(data.size() / (f32 ? 4 : 8));
    QVector<double> values(n);
    for (int i = 0; i < n; ++i) {
        if (f32) {
            float v;
            std::memcpy(&v, data.constData() + 4 * i, 4);
            values[i] = v;
        } else {
            std::memcpy(&values[i], data.constData() + 8 * i, 8);
        }
    }
    double lo = INFINITY, hi = -INFINITY;
    for (double v : values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!(hi >= lo)) return p;
    if (hi == lo) hi = lo + 1;
    p.histogram = QVector<double>(40, 0.0);
    for (double v : values)
        if (std::isfinite(v)) p.histogram[std::min(39, int((v - lo) / (hi - lo) * 40))] += 1;
    p.histogramMin = lo;
    p.histogramMax = hi;
    return p;
}

QString arrayUse(const app::StoredArray &a, const QString &inputs, const QString &targets) {
    return a.name == inputs    ? PreviewText::tr("inputs")
           : a.name == targets ? PreviewText::tr("targets")
           : a.readable        ? QString()
                               : PreviewText::tr("not readable");
}

DatasetPreview previewArrays(const QString &path) {
    DatasetPreview p;
    if (path.isEmpty()) {
        p.summary = PreviewText::tr("Choose a file.");
        return p;
    }
    p.arrayFile = app::listArrays(app::LocalExecutor::defaultEnginePath(), path);
    if (!p.arrayFile.error.isEmpty()) {
        p.error = p.arrayFile.error;
        return p;
    }
    p.header = QStringList{PreviewText::tr("Array"), PreviewText::tr("Shape"), PreviewText::tr("Type"),
                           PreviewText::tr("Use")};
    int readable = 0;
    for (const app::StoredArray &a : std::as_const(p.arrayFile.arrays)) {
        p.rows << QStringList{a.name, a.shapeText(), a.dtype, arrayUse(a, p.arrayFile.inputs, p.arrayFile.targets)};
        readable += a.readable;
    }
    p.summary =
        PreviewText::tr("%1: %n array(s)", nullptr, int(p.arrayFile.arrays.size())).arg(QFileInfo(path).fileName()) +
        PreviewText::tr(", %n the engine reads", nullptr, readable);
    return p;
}

} // namespace

QString syntheticSourceDescription(const QString &source) {
    if (source == QLatin1String("spirals"))
        return PreviewText::tr("Points on interleaved spiral arms; one class per arm.");
    if (source == QLatin1String("moons")) return PreviewText::tr("Two interleaving half circles; two classes.");
    if (source == QLatin1String("blobs")) return PreviewText::tr("Gaussian clusters; one class per centre.");
    if (source == QLatin1String("checkerboard"))
        return PreviewText::tr("Points on a checkerboard; two classes by tile colour.");
    if (source == QLatin1String("sine")) return PreviewText::tr("Noisy samples of a sine wave; a regression task.");
    if (source == QLatin1String("shapes"))
        return PreviewText::tr("Small synthetic images of circles, squares and triangles.");
    return {};
}

DatasetPreview loadDatasetPreview(const QString &source, const QString &path, int skipRows) {
    if (source == QLatin1String("csv")) return previewCsv(path, skipRows);
    if (source == QLatin1String("image_folder")) return previewImages(path);
    if (source == QLatin1String("npy")) return previewNpy(path);
    if (source == QLatin1String("hdf5") || source == QLatin1String("npz")) return previewArrays(path);
    if (source == QLatin1String("idx")) return previewIdx(path);
    DatasetPreview p;
    const QString description = syntheticSourceDescription(source);
    if (!description.isEmpty()) {
        p.summary = description;
        return p;
    }
    const QFileInfo info(path);
    if (path.isEmpty())
        p.summary = PreviewText::tr("Choose a file.");
    else if (!info.exists())
        p.error = PreviewText::tr("%1 does not exist.").arg(path);
    else
        p.summary = PreviewText::tr("%1, %2 bytes").arg(info.fileName()).arg(info.size());
    return p;
}

HistogramView::HistogramView(QWidget *parent) : QWidget(parent) { setMinimumHeight(120); }

void HistogramView::setHistogram(const QVector<double> &bins, double lo, double hi) {
    bins_ = bins;
    lo_ = lo;
    hi_ = hi;
    update();
}

void HistogramView::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    if (bins_.isEmpty()) return;
    const double peak = *std::max_element(bins_.begin(), bins_.end());
    const QFontMetrics fm(font());
    const QRectF area = QRectF(rect()).adjusted(8, 8, -8, -fm.height() - 6);
    const double w = area.width() / bins_.size();
    for (int i = 0; i < bins_.size(); ++i) {
        const double h = peak > 0 ? bins_[i] / peak * area.height() : 0;
        p.fillRect(QRectF(area.left() + i * w + 1, area.bottom() - h, w - 2, h), palette().color(QPalette::Highlight));
    }
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(area.left(), area.bottom() + 2, area.width(), fm.height()), Qt::AlignLeft,
               QString::number(lo_, 'g', 4));
    p.drawText(QRectF(area.left(), area.bottom() + 2, area.width(), fm.height()), Qt::AlignRight,
               QString::number(hi_, 'g', 4));
}

DatasetPreviewWidget::DatasetPreviewWidget(QWidget *parent) : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setObjectName(QStringLiteral("previewSummary"));
    stack_ = new QStackedWidget(this);
    text_ = new QLabel(stack_);
    text_->setAlignment(Qt::AlignCenter);
    text_->setWordWrap(true);
    table_ = new QTableWidget(stack_);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    images_ = new QListWidget(stack_);
    images_->setViewMode(QListView::IconMode);
    images_->setIconSize(QSize(64, 64));
    images_->setResizeMode(QListView::Adjust);
    images_->setMovement(QListView::Static);
    histogram_ = new HistogramView(stack_);
    for (QWidget *w : {static_cast<QWidget *>(text_), static_cast<QWidget *>(table_), static_cast<QWidget *>(images_),
                       static_cast<QWidget *>(histogram_)})
        stack_->addWidget(w);
    layout->addWidget(summary_);
    layout->addWidget(stack_, 1);
}

QString DatasetPreviewWidget::summary() const { return summary_->text(); }

void DatasetPreviewWidget::showDataset(const QString &source, const QString &path, int skipRows) {
    const int generation = ++generation_;
    summary_->setText(tr("Loading preview…"));
    auto *watcher = new QFutureWatcher<DatasetPreview>(this);
    connect(watcher, &QFutureWatcher<DatasetPreview>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == generation_) apply(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(loadDatasetPreview, source, path, skipRows));
}

void DatasetPreviewWidget::setArrayRoles(const QString &inputs, const QString &targets) {
    for (int r = 0; r < arrayFile_.arrays.size() && r < table_->rowCount() && table_->columnCount() == 4; ++r)
        if (QTableWidgetItem *use = table_->item(r, 3)) use->setText(arrayUse(arrayFile_.arrays[r], inputs, targets));
}

void DatasetPreviewWidget::apply(const DatasetPreview &preview) {
    arrayFile_ = preview.arrayFile;
    if (!preview.error.isEmpty()) {
        summary_->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(preview.error.toHtmlEscaped()));
        text_->clear();
        stack_->setCurrentWidget(text_);
    } else {
        summary_->setText(preview.summary.toHtmlEscaped());
        if (!preview.header.isEmpty()) {
            table_->clear();
            table_->setColumnCount(int(preview.header.size()));
            table_->setHorizontalHeaderLabels(preview.header);
            table_->setRowCount(int(preview.rows.size()));
            for (int r = 0; r < preview.rows.size(); ++r)
                for (int c = 0; c < preview.rows[r].size() && c < preview.header.size(); ++c)
                    table_->setItem(r, c, new QTableWidgetItem(preview.rows[r][c]));
            table_->resizeColumnsToContents();
            stack_->setCurrentWidget(table_);
        } else if (!preview.images.isEmpty()) {
            images_->clear();
            for (const auto &[cls, image] : preview.images)
                new QListWidgetItem(QIcon(QPixmap::fromImage(image)), cls, images_);
            stack_->setCurrentWidget(images_);
        } else if (!preview.histogram.isEmpty()) {
            histogram_->setHistogram(preview.histogram, preview.histogramMin, preview.histogramMax);
            stack_->setCurrentWidget(histogram_);
        } else {
            text_->clear();
            stack_->setCurrentWidget(text_);
        }
    }
    Q_EMIT previewReady();
}

} // namespace diamond::ui
