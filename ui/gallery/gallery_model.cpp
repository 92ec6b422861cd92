#include "ui/gallery/gallery_model.h"

namespace diamond::ui {

using app::gallery::GalleryEntry;

GalleryModel::GalleryModel(QObject *parent) : QAbstractListModel(parent) {}

int GalleryModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(entries_.size()); }

QString GalleryModel::metricText(const QString &name, double value) {
    if (name.contains(QLatin1String("accuracy")) && value >= 0.0 && value <= 1.0)
        return tr("%1 %").arg(value * 100.0, 0, 'f', 1);
    return QString::number(value, 'g', 4);
}

QVariant GalleryModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const GalleryEntry &e = entries_.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return e.title.isEmpty() ? e.name : e.title;
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1 %2").arg(e.name, e.version);
        const QString description = e.manifest.value(QStringLiteral("description")).toString();
        if (!description.isEmpty()) tip += QLatin1Char('\n') + description;
        tip += QLatin1Char('\n') + (e.consistent ? tr("Consistent: its test inputs reproduce its expected outputs")
                                                 : tr("Not consistent: its test inputs did not reproduce its outputs"));
        tip += QLatin1Char('\n') + (e.fingerprint.isEmpty() ? tr("Unsigned: nothing says who made it")
                                    : e.trusted             ? tr("Signed by %1, a publisher you trust").arg(e.publisher)
                                                : tr("Signed by %1, not on your trust list").arg(e.publisher));
        return tip;
    }
    case Qt::DecorationRole: {
        const auto it = thumbnails_.constFind(e.id);
        return it == thumbnails_.cend() ? QVariant() : QVariant(*it);
    }
    case IdRole: return e.id;
    case NameRole: return e.name;
    case VersionRole: return e.version;
    case TaskRole: return e.task;
    case DomainRole: return e.domain;
    case LicenseRole: return e.license;
    case TagsRole: return e.tags;
    case ConsistentRole: return e.consistent;
    case SignatureRole:
        return e.fingerprint.isEmpty() ? QStringLiteral("unsigned")
               : e.trusted             ? QStringLiteral("trusted")
                                       : QStringLiteral("untrusted");
    case PublisherRole: return e.publisher;
    case KeyMetricRole: return e.keyMetric ? QVariant(*e.keyMetric) : QVariant();
    case KeyMetricNameRole: return e.keyMetricName;
    case CreatedAtRole: return e.createdAt;
    case SubtitleRole: {
        QStringList parts;
        if (!e.version.isEmpty()) parts << tr("v%1").arg(e.version);
        if (!e.task.isEmpty()) parts << e.task;
        if (!e.domain.isEmpty()) parts << e.domain;
        return parts.join(QStringLiteral(" · "));
    }
    default: return {};
    }
}

QHash<int, QByteArray> GalleryModel::roleNames() const {
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "entryId");
    names.insert(NameRole, "name");
    names.insert(VersionRole, "version");
    names.insert(TaskRole, "task");
    names.insert(DomainRole, "domain");
    names.insert(LicenseRole, "license");
    names.insert(TagsRole, "tags");
    names.insert(ConsistentRole, "consistent");
    names.insert(SignatureRole, "signature");
    names.insert(PublisherRole, "publisher");
    names.insert(KeyMetricRole, "keyMetric");
    names.insert(KeyMetricNameRole, "keyMetricName");
    names.insert(CreatedAtRole, "createdAt");
    names.insert(SubtitleRole, "subtitle");
    return names;
}

void GalleryModel::setEntries(const QList<GalleryEntry> &entries) {
    beginResetModel();
    QHash<qint64, QImage> kept;
    entries_ = entries;
    for (GalleryEntry &e : entries_) {
        QImage image;
        if (!e.thumbnail.isEmpty()) image = QImage::fromData(e.thumbnail, "PNG");
        if (image.isNull()) image = thumbnails_.value(e.id);
        if (!image.isNull()) kept.insert(e.id, image);
        e.thumbnail.clear(); // decoded once, the bytes are not needed any more
    }
    thumbnails_ = kept;
    endResetModel();
}

void GalleryModel::setThumbnail(qint64 id, const QByteArray &png) {
    const int row = rowOf(id);
    if (row < 0) return;
    const QImage image = QImage::fromData(png, "PNG");
    if (image.isNull()) return;
    thumbnails_.insert(id, image);
    const QModelIndex i = index(row);
    Q_EMIT dataChanged(i, i, {Qt::DecorationRole});
}

void GalleryModel::clear() {
    beginResetModel();
    entries_.clear();
    thumbnails_.clear();
    endResetModel();
}

const GalleryEntry *GalleryModel::entryAt(int row) const {
    return row >= 0 && row < entries_.size() ? &entries_.at(row) : nullptr;
}

int GalleryModel::rowOf(qint64 id) const {
    for (int i = 0; i < entries_.size(); ++i)
        if (entries_.at(i).id == id) return i;
    return -1;
}

} // namespace diamond::ui
