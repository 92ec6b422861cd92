// GalleryCardDelegate: paints a GalleryModel row as a card for a QListView in icon mode: the architecture
// thumbnail with a consistent / not consistent badge and a signature badge, the title, "version · task · domain", the
// key metric and the tags as pills. Sizes follow the view's font (readable on a projector when the font is large) and
// colours follow its palette (light and dark themes).
#pragma once

#include <QStyledItemDelegate>

namespace diamond::ui {

class GalleryCardDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// The card size for a font (the grid size of the view is this plus the spacing).
    static QSize cardSize(const QFont &font);
};

} // namespace diamond::ui
