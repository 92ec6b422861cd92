#include "app/data/dataset_inspector.h"

#include "app/data/array_files.h"
#include "app/run/executor.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <limits>
#include <optional>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::DatasetInspector", text); }

constexpr qint64 kCsvScanBytes = qint64(64) << 20;

bool isImageName(const QString &name) {
    static const QStringList suffixes = {QStringLiteral(".png"), QStringLiteral(".jpg"), QStringLiteral(".jpeg"),
                                         QStringLiteral(".bmp"), QStringLiteral(".pgm"), QStringLiteral(".ppm")};
    for (const QString &s : suffixes)
        if (name.endsWith(s, Qt::CaseInsensitive)) return true;
    return false;
}

QString formatOfFile(const QString &name) {
    const QString n = name.toLower();
    if (n.endsWith(QLatin1String(".csv")) || n.endsWith(QLatin1String(".tsv")) ||
        n.endsWith(QLatin1String(".csv.gz")) || n.endsWith(QLatin1String(".tsv.gz")))
        return QStringLiteral("csv");
    if (n.endsWith(QLatin1String(".npy"))) return QStringLiteral("npy");
    if (n.endsWith(QLatin1String(".npz"))) return QStringLiteral("npz");
    if (n.endsWith(QLatin1String(".h5")) || n.endsWith(QLatin1String(".hdf5"))) return QStringLiteral("hdf5");
    if (n.contains(QLatin1String("-ubyte")) || n.endsWith(QLatin1String(".idx"))) return QStringLiteral("idx");
    return {};
}

bool isNumber(const QString &s) {
    bool ok = false;
    s.toDouble(&ok);
    return ok;
}

void describeCsv(const QString &path, const QString &name, DatasetDescription &d) {
    QFile file(path);
    if (name.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive) || !file.open(QIODevice::ReadOnly)) {
        d.schema.insert(QStringLiteral("file"), name);
        return;
    }
    const QByteArray bytes = file.read(kCsvScanBytes);
    QList<QByteArray> lines = bytes.split('\n');
    if (bytes.size() == kCsvScanBytes && !lines.isEmpty()) lines.removeLast(); // cut in the middle
    const QChar delimiter =
        name.endsWith(QLatin1String(".tsv"), Qt::CaseInsensitive) ? QLatin1Char('\t') : QLatin1Char(',');
    QList<QStringList> records;
    for (const QByteArray &l : lines) {
        const QString text = QString::fromUtf8(l).trimmed();
        if (!text.isEmpty()) records << splitCsvRecord(text, delimiter);
    }
    if (records.size() < 2) {
        d.problems << tr("%1 has fewer than two rows.").arg(name);
        return;
    }
    // A short first line above a wider table (scikit-learn's "569,30,malignant,benign").
    // Or scikit-learn's convention: the line starts with the number of rows below it and of feature columns.
    int skipRows = 0;
    const bool otherWidth =
        records.size() > 2 && records[0].size() != records[1].size() && records[1].size() == records[2].size();
    const bool sklearnCounts = records.size() > 1 && records[0].size() >= 2 &&
                               records[0][0] == QString::number(records.size() - 1) &&
                               records[0][1] == QString::number(records[1].size() - 1);
    if (otherWidth || sklearnCounts) {
        skipRows = 1;
        d.problems << tr("%1: line 1 (%2 fields) is not part of the table below (%3 columns); it looks like a "
                         "metadata line: use \"skip_rows\": 1.")
                          .arg(name)
                          .arg(records[0].size())
                          .arg(records[1].size());
        records.removeFirst();
    }
    const QStringList first = records[0];
    bool header = false;
    for (int c = 0; c < first.size() && c < records[1].size(); ++c)
        if (!first[c].isEmpty() && !isNumber(first[c]) && isNumber(records[1][c])) header = true;
    QStringList names;
    for (int c = 0; c < first.size(); ++c)
        names << (header ? first[c] : QString::number(c));
    if (header) records.removeFirst();
    const int columns = int(names.size());
    QList<int> missing(columns, 0), numeric(columns, 0);
    QList<QString> firstValue(columns);
    QList<bool> constant(columns, true);
    for (const QStringList &r : records)
        for (int c = 0; c < columns && c < r.size(); ++c) {
            if (r[c].isEmpty()) {
                ++missing[c];
                continue;
            }
            numeric[c] += isNumber(r[c]);
            if (firstValue[c].isNull())
                firstValue[c] = r[c];
            else if (r[c] != firstValue[c])
                constant[c] = false;
        }
    // Target guess: a column called like a label, else the last one.
    int target = columns - 1;
    for (int c = 0; c < columns; ++c)
        if (QStringList{QStringLiteral("label"), QStringLiteral("target"), QStringLiteral("class"),
                        QStringLiteral("species"), QStringLiteral("y")}
                .contains(names[c].toLower()))
            target = c;
    QJsonArray cols;
    for (int c = 0; c < columns; ++c) {
        const bool isNumeric = numeric[c] == records.size() - missing[c];
        cols.append(QJsonObject{{QStringLiteral("name"), names[c]},
                                {QStringLiteral("kind"), isNumeric ? QStringLiteral("number") : QStringLiteral("text")},
                                {QStringLiteral("missing"), missing[c]}});
        if (missing[c] > 0) d.problems << tr("Column '%1' has %2 missing values.").arg(names[c]).arg(missing[c]);
        if (constant[c] && records.size() > 1)
            d.problems << tr("Column '%1' has the same value in every row.").arg(names[c]);
    }
    QMap<QString, int> classes;
    for (const QStringList &r : records)
        if (target < r.size()) ++classes[r[target]];
    const bool classification = classes.size() <= std::max<qsizetype>(2, records.size() / 5) && classes.size() <= 1000;
    QJsonObject classCounts;
    if (classification) {
        int most = 0, least = std::numeric_limits<int>::max();
        for (auto it = classes.cbegin(); it != classes.cend(); ++it) {
            classCounts.insert(it.key(), it.value());
            most = std::max(most, it.value());
            least = std::min(least, it.value());
        }
        if (classes.size() > 1 && least * 10 < most)
            d.problems << tr("Label imbalance: the largest class has %1 rows, the smallest %2.").arg(most).arg(least);
    }
    d.rows = records.size();
    d.schema = QJsonObject{
        {QStringLiteral("file"), name},
        {QStringLiteral("header"), header},
        {QStringLiteral("skip_rows"), skipRows},
        {QStringLiteral("columns"), cols},
        {QStringLiteral("target"), names.value(target)},
        {QStringLiteral("task"), classification ? QStringLiteral("classification") : QStringLiteral("regression")}};
    if (classification) d.schema.insert(QStringLiteral("classes"), classCounts);
}

void describeNpy(const QString &path, const QString &name, DatasetDescription &d) {
    QFile file(path);
    d.schema.insert(QStringLiteral("file"), name);
    if (!file.open(QIODevice::ReadOnly)) return;
    const QByteArray head = file.read(4096);
    const qsizetype open = head.indexOf('{'), close = head.indexOf('}');
    if (!head.startsWith("\x93NUMPY") || open < 0 || close < open) {
        d.problems << tr("%1 is not a NumPy .npy file.").arg(name);
        return;
    }
    const QString dict = QString::fromLatin1(head.mid(open, close - open + 1));
    d.schema.insert(QStringLiteral("header"), dict);
    const qsizetype s = dict.indexOf(QLatin1String("'shape': ("));
    if (s >= 0) {
        const QString shape = dict.mid(s + 10, dict.indexOf(QLatin1Char(')'), s) - s - 10);
        bool ok = false;
        const qint64 rows = shape.section(QLatin1Char(','), 0, 0).trimmed().toLongLong(&ok);
        if (ok) d.rows = rows;
        d.schema.insert(QStringLiteral("shape"), QStringLiteral("(%1)").arg(shape));
    }
}

void describeArrayFile(const QString &path, const QString &name, DatasetDescription &d) {
    d.schema.insert(QStringLiteral("file"), name);
    const ArrayListing listing = listArrays(LocalExecutor::defaultEnginePath(), path);
    if (!listing.error.isEmpty()) {
        d.problems << listing.error;
        return;
    }
    d.schema.insert(QStringLiteral("arrays"), arraysToJson(listing.arrays));
    if (listing.truncated)
        d.problems << tr("%1 holds more arrays than the %2 listed.").arg(name).arg(listing.arrays.size());
    if (listing.inputs.isEmpty()) {
        d.problems
            << tr("%1 has no array the engine reads (float32, float64, int64, int32 or uint8 arrays).").arg(name);
        return;
    }
    d.schema.insert(QStringLiteral("inputs"), listing.inputs);
    const auto find = [&](const QString &n) {
        return std::find_if(listing.arrays.cbegin(), listing.arrays.cend(),
                            [&](const StoredArray &a) { return a.name == n; });
    };
    const auto inputs = find(listing.inputs);
    d.rows = inputs->shape.value(0, -1);
    if (listing.targets.isEmpty()) {
        d.problems << tr("%1 has no array of one value per sample to use as targets.").arg(name);
        return;
    }
    d.schema.insert(QStringLiteral("targets"), listing.targets);
    const auto targets = find(listing.targets);
    if (targets->shape.value(0) != inputs->shape.value(0))
        d.problems << tr("In %1, the inputs %2 have %3 rows but the targets %4 have %5.")
                          .arg(name, inputs->name)
                          .arg(inputs->shape.value(0))
                          .arg(targets->name)
                          .arg(targets->shape.value(0));
}

/// IDX pair (MNIST layout): images are the file of rank >= 2, labels the file of rank 1; class counts from the
/// labels (uint8, at most 64 MiB read).
void describeIdx(const QString &root, const ContentManifest &manifest, DatasetDescription &d) {
    std::optional<IdxHeader> images, labels;
    for (const ManifestFile &f : manifest.files) {
        if (formatOfFile(f.path) != QLatin1String("idx")) continue;
        auto h = readIdxHeader(root + QLatin1Char('/') + f.path);
        if (h) h->path = f.path;
        if (h && h->dims.size() >= 2 && !images) images = h;
        if (h && h->dims.size() == 1 && !labels) labels = h;
    }
    if (!images) return;
    QStringList shape;
    for (qint64 n : images->dims)
        shape << QString::number(n);
    d.schema.insert(QStringLiteral("images"), images->path);
    d.schema.insert(QStringLiteral("shape"), QStringLiteral("(%1)").arg(shape.join(QStringLiteral(", "))));
    d.rows = images->dims.first();
    if (!labels) {
        d.problems << tr("%1 has no labels file beside it (an IDX file of rank 1).").arg(images->path);
        return;
    }
    d.schema.insert(QStringLiteral("labels"), labels->path);
    if (labels->dims.first() != images->dims.first())
        d.problems << tr("%1 has %2 labels for %3 images in %4.")
                          .arg(labels->path)
                          .arg(labels->dims.first())
                          .arg(images->dims.first())
                          .arg(images->path);
    if (labels->type != 0x08 || labels->dims.first() > (qint64(64) << 20)) return;
    QFile f(root + QLatin1Char('/') + labels->path);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(labels->dataOffset)) return;
    const QByteArray values = f.read(labels->dims.first());
    QMap<int, qint64> counts;
    for (char c : values)
        ++counts[quint8(c)];
    QJsonObject classes;
    qint64 most = 0, least = std::numeric_limits<qint64>::max();
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        classes.insert(QString::number(it.key()), it.value());
        most = std::max(most, it.value());
        least = std::min(least, it.value());
    }
    d.schema.insert(QStringLiteral("classes"), classes);
    d.schema.insert(QStringLiteral("task"), QStringLiteral("classification"));
    if (counts.size() > 1 && least * 10 < most)
        d.problems << tr("Label imbalance: the largest class has %1 images, the smallest %2.").arg(most).arg(least);
}

/// Two .npy files: inputs and targets (a name such as y, label(s), target(s) marks the targets; else the smaller).
void describeNpyPair(const ContentManifest &manifest, const ManifestFile &inputs, DatasetDescription &d) {
    const ManifestFile *targets = nullptr;
    static const QRegularExpression targetName(QStringLiteral("(^|[/_.-])(y|labels?|targets?|class(es)?)[^/]*\\.npy$"),
                                               QRegularExpression::CaseInsensitiveOption);
    for (const ManifestFile &f : manifest.files) {
        if (&f == &inputs || formatOfFile(f.path) != QLatin1String("npy")) continue;
        if (!targets || (targetName.match(f.path).hasMatch() && !targetName.match(targets->path).hasMatch()) ||
            (targetName.match(f.path).hasMatch() == targetName.match(targets->path).hasMatch() &&
             f.size < targets->size))
            targets = &f;
    }
    d.schema.insert(QStringLiteral("inputs"), inputs.path);
    if (targets) d.schema.insert(QStringLiteral("targets"), targets->path);
}

void describeImageFolder(const ContentManifest &manifest, DatasetDescription &d) {
    QMap<QString, int> classes;
    for (const ManifestFile &f : manifest.files) {
        const QStringList parts = f.path.split(QLatin1Char('/'));
        if (isImageName(f.path) && parts.size() >= 2) ++classes[parts[parts.size() - 2]];
    }
    QJsonObject counts;
    int most = 0, least = std::numeric_limits<int>::max(), total = 0;
    for (auto it = classes.cbegin(); it != classes.cend(); ++it) {
        counts.insert(it.key(), it.value());
        most = std::max(most, it.value());
        least = std::min(least, it.value());
        total += it.value();
    }
    d.rows = total;
    d.schema =
        QJsonObject{{QStringLiteral("classes"), counts}, {QStringLiteral("task"), QStringLiteral("classification")}};
    if (classes.size() > 1 && least * 10 < most)
        d.problems << tr("Label imbalance: the largest class has %1 images, the smallest %2.").arg(most).arg(least);
}

} // namespace

std::optional<IdxHeader> readIdxHeader(const QString &file) {
    QFile f(file);
    if (file.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive) || !f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QByteArray head = f.read(4 + 4 * 8);
    if (head.size() < 4 || head[0] != 0 || head[1] != 0 || head[3] < 1 || head[3] > 8) return std::nullopt;
    IdxHeader h{file, quint8(head[2]), {}, 4 + 4 * qint64(head[3])};
    if (head.size() < h.dataOffset) return std::nullopt;
    for (int i = 0; i < head[3]; ++i) {
        const auto *b = reinterpret_cast<const uchar *>(head.constData() + 4 + 4 * i);
        h.dims << ((qint64(b[0]) << 24) | (qint64(b[1]) << 16) | (qint64(b[2]) << 8) | qint64(b[3]));
    }
    return h;
}

QStringList splitCsvRecord(const QString &line, QChar delimiter) {
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == delimiter) {
            fields << field.trimmed();
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field.trimmed();
    return fields;
}

DatasetDescription describeDataset(const QString &root, const ContentManifest &manifest) {
    DatasetDescription d;
    int images = 0;
    for (const ManifestFile &f : manifest.files)
        images += isImageName(f.path);
    if (manifest.files.size() > 1 && images * 10 >= manifest.files.size() * 9) {
        d.format = QStringLiteral("image_folder");
        describeImageFolder(manifest, d);
        return d;
    }
    // The data file: the only one, else the largest of a known format.
    const ManifestFile *data = nullptr;
    for (const ManifestFile &f : manifest.files)
        if (!formatOfFile(f.path).isEmpty() && (!data || f.size > data->size)) data = &f;
    if (!data) {
        d.format = QStringLiteral("files");
        return d;
    }
    d.format = formatOfFile(data->path);
    const QString path = root + QLatin1Char('/') + data->path;
    if (d.format == QLatin1String("csv"))
        describeCsv(path, data->path, d);
    else if (d.format == QLatin1String("npy"))
        describeNpy(path, data->path, d), describeNpyPair(manifest, *data, d);
    else if (d.format == QLatin1String("idx"))
        describeIdx(root, manifest, d);
    else if (d.format == QLatin1String("hdf5") || d.format == QLatin1String("npz"))
        describeArrayFile(path, data->path, d);
    else
        d.schema.insert(QStringLiteral("file"), data->path);
    return d;
}

} // namespace diamond::app

namespace diamond::app {

QJsonObject datasetRunOptions(const QString &format, const QJsonObject &schema) {
    QJsonObject o;
    const auto copy = [&](const char *key) {
        const QString k = QLatin1String(key);
        if (schema.value(k).isString() && !schema.value(k).toString().isEmpty()) o.insert(k, schema.value(k));
    };
    if (format == QLatin1String("csv")) {
        if (schema.value(QStringLiteral("skip_rows")).toInt() > 0)
            o.insert(QStringLiteral("skip_rows"), schema.value(QStringLiteral("skip_rows")).toInt());
        o.insert(QStringLiteral("header"), schema.value(QStringLiteral("header")).toBool(true));
    } else if (format == QLatin1String("idx")) {
        copy("images");
        copy("labels");
    } else if (format == QLatin1String("npy") || format == QLatin1String("hdf5") || format == QLatin1String("npz")) {
        copy("inputs");
        copy("targets");
    }
    return o;
}

} // namespace diamond::app
