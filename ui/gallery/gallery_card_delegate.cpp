#include "ui/gallery/gallery_card_delegate.h"

#include "ui/gallery/gallery_model.h"

#include <QApplication>
#include <QListView>
#include <QPainter>
#include <QPainterPath>

namespace diamond::ui {

namespace {

constexpr int kMargin = 6; ///< around a card inside its grid cell

int lineHeight(const QFont &font) { return QFontMetrics(font).height(); }

QFont scaled(const QFont &base, double factor, bool bold) {
    QFont f = base;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else
        f.setPixelSize(qRound(f.pixelSize() * factor));
    f.setBold(bold);
    return f;
}

/// Text colour at reduced contrast (secondary text) that stays readable on both palettes.
QColor secondary(const QPalette &pal) {
    QColor c = pal.color(QPalette::Text);
    c.setAlphaF(0.68f);
    return c;
}

/// Colour of the key metric: the palette's highlight, shifted for contrast against the card.
QColor accent(const QPalette &pal) {
    const QColor h = pal.color(QPalette::Highlight);
    return pal.color(QPalette::Base).lightness() > 128 ? h.darker(125) : h.lighter(150);
}

/// Draws a rounded pill with `text`; returns its width.
int pill(QPainter *p, int x, int y, const QString &text, const QFont &font, const QColor &bg, const QColor &fg,
         bool draw = true) {
    const QFontMetrics fm(font);
    const int w = fm.horizontalAdvance(text) + fm.height();
    if (draw) {
        const QRectF r(x, y, w, fm.height() + 4);
        p->setPen(Qt::NoPen);
        p->setBrush(bg);
        p->drawRoundedRect(r, r.height() / 2, r.height() / 2);
        p->setPen(fg);
        p->setFont(font);
        p->drawText(r, Qt::AlignCenter, text);
    }
    return w;
}

} // namespace

QSize GalleryCardDelegate::cardSize(const QFont &font) {
    const int line = lineHeight(font);
    const int width = qMax(220, line * 13);
    const int thumb = line * 8;
    const int height = 12 + thumb + 10 + lineHeight(scaled(font, 1.2, true)) + 4 + line + 8 +
                       lineHeight(scaled(font, 1.15, true)) + 8 + lineHeight(scaled(font, 0.9, false)) + 4 + 14;
    return {width + 2 * kMargin, height + 2 * kMargin};
}

QSize GalleryCardDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const {
    // The page stretches the grid so that the cards fill the row: a card takes its whole grid cell.
    if (const auto *view = qobject_cast<const QListView *>(option.widget))
        if (view->gridSize().isValid()) return view->gridSize();
    return cardSize(option.font);
}

void GalleryCardDelegate::paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const {
    const QPalette &pal = option.palette;
    const bool selected = option.state & QStyle::State_Selected;
    const bool hover = option.state & QStyle::State_MouseOver;
    const QRect card = option.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int line = lineHeight(option.font);
    const double radius = line * 0.6;

    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    p->setRenderHint(QPainter::SmoothPixmapTransform);

    // Card body and outline.
    QColor border = pal.color(QPalette::Mid);
    if (hover) border = pal.color(QPalette::Highlight).lighter(130);
    if (selected) border = pal.color(QPalette::Highlight);
    p->setPen(QPen(border, selected ? 2.5 : 1.0));
    p->setBrush(pal.color(QPalette::Base));
    p->drawRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);

    // Thumbnail band (clipped to the card's rounded top).
    const int thumbHeight = line * 8;
    const QRect band(card.left() + 1, card.top() + 1, card.width() - 2, thumbHeight + 12);
    QPainterPath clip;
    clip.addRoundedRect(QRectF(card).adjusted(1, 1, -1, -1), radius, radius);
    p->save();
    p->setClipPath(clip);
    p->fillRect(band, pal.color(QPalette::AlternateBase));
    if (selected || hover) {
        QColor tint = pal.color(QPalette::Highlight);
        tint.setAlphaF(selected ? 0.28f : 0.10f);
        p->fillRect(band, tint);
    }
    const QImage image = index.data(Qt::DecorationRole).value<QImage>();
    const QRect imageBox = band.adjusted(10, 6, -10, -6);
    if (!image.isNull()) {
        const QSize size = image.size().scaled(imageBox.size(), Qt::KeepAspectRatio);
        const QRectF target(imageBox.center().x() - size.width() / 2.0 + 1,
                            imageBox.center().y() - size.height() / 2.0 + 1, size.width(), size.height());
        QPainterPath rounded;
        rounded.addRoundedRect(target, radius * 0.6, radius * 0.6);
        p->save();
        p->setClipPath(rounded, Qt::IntersectClip);
        p->drawImage(target, image);
        p->restore();
        p->setPen(QPen(pal.color(QPalette::Mid), 1.0));
        p->setBrush(Qt::NoBrush);
        p->drawPath(rounded);
    } else {
        p->setPen(secondary(pal));
        p->setFont(option.font);
        p->drawText(imageBox, Qt::AlignCenter, tr("No preview"));
    }
    p->restore();

    // Consistency badge on the thumbnail's top right, signature badge on its top left.
    const QFont badgeFont = scaled(option.font, 0.9, true);
    const bool consistent = index.data(GalleryModel::ConsistentRole).toBool();
    const QString badge = consistent ? tr("✓ Consistent") : tr("Not consistent");
    const int badgeWidth = pill(p, 0, 0, badge, badgeFont, {}, {}, false);
    pill(p, band.right() - badgeWidth - 8, band.top() + 8, badge, badgeFont,
         consistent ? QColor(46, 125, 50) : QColor(120, 120, 120, 220), Qt::white);
    const QString signature = index.data(GalleryModel::SignatureRole).toString();
    const QString signatureBadge = signature == QLatin1String("trusted")     ? tr("✓ Trusted")
                                   : signature == QLatin1String("untrusted") ? tr("Untrusted")
                                                                             : tr("Unsigned");
    const int signatureWidth = pill(p, 0, 0, signatureBadge, badgeFont, {}, {}, false);
    // Side by side when the card is wide enough, else under the consistency badge.
    const bool sideBySide = band.left() + 8 + signatureWidth + 6 <= band.right() - badgeWidth - 8;
    pill(p, sideBySide ? band.left() + 8 : band.right() - signatureWidth - 8,
         sideBySide ? band.top() + 8 : band.top() + 8 + QFontMetrics(badgeFont).height() + 8, signatureBadge, badgeFont,
         signature == QLatin1String("trusted")     ? QColor(21, 101, 192)
         : signature == QLatin1String("untrusted") ? QColor(230, 81, 0)
                                                   : QColor(120, 120, 120, 220),
         Qt::white);

    // Title, subtitle, key metric, tags.
    const int x = card.left() + 12;
    const int w = card.width() - 24;
    int y = band.bottom() + 10;
    const QFont titleFont = scaled(option.font, 1.2, true);
    p->setFont(titleFont);
    p->setPen(pal.color(QPalette::Text));
    const QFontMetrics tm(titleFont);
    p->drawText(QRect(x, y, w, tm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                tm.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight, w));
    y += tm.height() + 4;

    p->setFont(option.font);
    p->setPen(secondary(pal));
    p->drawText(QRect(x, y, w, line), Qt::AlignLeft | Qt::AlignVCenter,
                option.fontMetrics.elidedText(index.data(GalleryModel::SubtitleRole).toString(), Qt::ElideRight, w));
    y += line + 8;

    const QFont metricFont = scaled(option.font, 1.15, true);
    const QFontMetrics mm(metricFont);
    const QVariant metric = index.data(GalleryModel::KeyMetricRole);
    const QString metricName = index.data(GalleryModel::KeyMetricNameRole).toString();
    if (metric.isValid()) {
        const QString value = GalleryModel::metricText(metricName, metric.toDouble());
        p->setFont(metricFont);
        p->setPen(accent(pal));
        p->drawText(QRect(x, y, w, mm.height()), Qt::AlignLeft | Qt::AlignVCenter, value);
        const int vw = mm.horizontalAdvance(value) + line / 2;
        p->setFont(option.font);
        p->setPen(secondary(pal));
        p->drawText(QRect(x + vw, y, w - vw, mm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                    option.fontMetrics.elidedText(metricName, Qt::ElideRight, w - vw));
    } else {
        p->setFont(option.font);
        p->setPen(secondary(pal));
        p->drawText(QRect(x, y, w, mm.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("no metric"));
    }
    y += mm.height() + 8;

    const QFont tagFont = scaled(option.font, 0.9, false);
    QColor tagBg = pal.color(QPalette::Highlight);
    tagBg.setAlphaF(0.16f);
    const QStringList tags = index.data(GalleryModel::TagsRole).toStringList();
    int tx = x;
    for (int i = 0; i < tags.size(); ++i) {
        const int tw = pill(p, 0, 0, tags.at(i), tagFont, {}, {}, false);
        const QString more = tr("+%1").arg(tags.size() - i);
        const int reserve = i + 1 < tags.size() ? pill(p, 0, 0, more, tagFont, {}, {}, false) + 4 : 0;
        if (tx + tw + reserve > x + w) {
            pill(p, tx, y, more, tagFont, tagBg, pal.color(QPalette::Text));
            break;
        }
        pill(p, tx, y, tags.at(i), tagFont, tagBg, pal.color(QPalette::Text));
        tx += tw + 4;
    }

    p->restore();
}

} // namespace diamond::ui
