// GalleryModel: the entries of one gallery source (local or remote) as a flat list for the card grid, with their
// thumbnails decoded once. Rows are replaced as a whole by each search result; thumbnails may arrive later
// (remote sources) and only change the decoration of their row.
#pragma once

#include "app/gallery/gallery_store.h"

#include <QAbstractListModel>
#include <QHash>
#include <QImage>

namespace diamond::ui {

class GalleryModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        NameRole,
        VersionRole,
        TaskRole,
        DomainRole,
        LicenseRole,
        TagsRole,          ///< QStringList
        ConsistentRole,    ///< bool: the package's test inputs reproduce its outputs
        SignatureRole,     ///< "trusted", "untrusted" (signed by a key not on the trust list) or "unsigned"
        PublisherRole,     ///< the signer's name, empty when unsigned
        KeyMetricRole,     ///< double, invalid when the entry has none
        KeyMetricNameRole, ///< "val_accuracy", ...
        CreatedAtRole,
        SubtitleRole, ///< "v1.0.0 · classification · toy"
    };

    explicit GalleryModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    /// Replaces every row; thumbnails given in the entries are decoded, those of ids seen before are kept.
    void setEntries(const QList<app::gallery::GalleryEntry> &entries);
    /// Sets the PNG thumbnail of an entry (ignored when the id is not shown or the bytes are not an image).
    void setThumbnail(qint64 id, const QByteArray &png);
    void clear();

    const app::gallery::GalleryEntry *entryAt(int row) const;
    /// Row of an entry id, -1 when not shown.
    int rowOf(qint64 id) const;

    /// Text of a key metric for display: accuracies in [0, 1] as percentages, others with 4 significant digits.
    static QString metricText(const QString &name, double value);

private:
    QList<app::gallery::GalleryEntry> entries_;
    QHash<qint64, QImage> thumbnails_;
};

} // namespace diamond::ui
