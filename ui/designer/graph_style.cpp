#include "ui/designer/graph_style.h"

#include "diamond/spec/registry.h"
#include "ui/designer/graph_document.h"

#include <QCoreApplication>
#include <QHash>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

#include <cmath>

namespace diamond::ui::style {

namespace {

/// Hue (degrees) per family; unknown families get a neutral grey.
int familyHue(const QString &family) {
    static const QHash<QString, int> hues = {
        {QStringLiteral("Input"), 200},         {QStringLiteral("Output"), 340},
        {QStringLiteral("Linear"), 220},        {QStringLiteral("Convolution"), 265},
        {QStringLiteral("Pooling"), 185},       {QStringLiteral("Normalization"), 150},
        {QStringLiteral("Regularization"), 40}, {QStringLiteral("Activation"), 25},
        {QStringLiteral("Reshaping"), 300},     {QStringLiteral("Embedding"), 95},
        {QStringLiteral("Recurrent"), 5},       {QStringLiteral("Attention"), 320},
        {QStringLiteral("Merge"), 55},
    };
    return hues.value(family, -1);
}

void drawGlyph(QPainter &p, const QString &family, const QRectF &r) {
    const qreal u = r.width() / 16.0;
    auto pt = [&](qreal x, qreal y) { return QPointF(r.left() + x * u, r.top() + y * u); };
    QPen pen(Qt::white, 1.4 * u, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    if (family == QLatin1String("Input")) {
        p.drawLine(pt(3, 8), pt(11, 8));
        p.drawPolyline(QPolygonF({pt(8, 5), pt(11, 8), pt(8, 11)}));
        p.drawLine(pt(13, 4), pt(13, 12));
    } else if (family == QLatin1String("Output")) {
        p.drawLine(pt(3, 4), pt(3, 12));
        p.drawLine(pt(5, 8), pt(13, 8));
        p.drawPolyline(QPolygonF({pt(10, 5), pt(13, 8), pt(10, 11)}));
    } else if (family == QLatin1String("Linear")) {
        for (int a : {4, 8, 12})
            for (int b : {5, 11})
                p.drawLine(pt(4, a), pt(12, b));
        p.setBrush(Qt::white);
        for (int a : {4, 8, 12})
            p.drawEllipse(pt(4, a), 0.9 * u, 0.9 * u);
        for (int b : {5, 11})
            p.drawEllipse(pt(12, b), 0.9 * u, 0.9 * u);
    } else if (family == QLatin1String("Convolution")) {
        for (int i = 0; i <= 3; ++i) {
            p.drawLine(pt(3 + i * 10.0 / 3, 3), pt(3 + i * 10.0 / 3, 13));
            p.drawLine(pt(3, 3 + i * 10.0 / 3), pt(13, 3 + i * 10.0 / 3));
        }
    } else if (family == QLatin1String("Pooling")) {
        p.drawRect(QRectF(pt(2.5, 2.5), pt(8.5, 8.5)));
        p.setBrush(Qt::white);
        p.drawRect(QRectF(pt(10, 10), pt(13.5, 13.5)));
        p.drawLine(pt(8.5, 8.5), pt(10, 10));
    } else if (family == QLatin1String("Normalization")) {
        QPainterPath bell(pt(2, 12));
        bell.cubicTo(pt(6, 12), pt(6, 3), pt(8, 3));
        bell.cubicTo(pt(10, 3), pt(10, 12), pt(14, 12));
        p.drawPath(bell);
    } else if (family == QLatin1String("Regularization")) {
        p.setBrush(Qt::white);
        for (int x : {4, 8, 12})
            for (int y : {4, 8, 12})
                if ((x + y) % 8 != 0) p.drawEllipse(pt(x, y), 1.0 * u, 1.0 * u);
    } else if (family == QLatin1String("Activation")) {
        p.drawPolyline(QPolygonF({pt(2, 11), pt(8, 11), pt(14, 4)}));
    } else if (family == QLatin1String("Reshaping")) {
        p.drawRect(QRectF(pt(2.5, 5), pt(7, 11)));
        p.drawRect(QRectF(pt(9, 7), pt(14, 9.5)));
        p.drawLine(pt(7.2, 8), pt(8.8, 8));
    } else if (family == QLatin1String("Embedding")) {
        p.drawRect(QRectF(pt(3, 3), pt(13, 13)));
        p.drawLine(pt(3, 6.5), pt(13, 6.5));
        p.drawLine(pt(3, 9.8), pt(13, 9.8));
        p.drawLine(pt(6.5, 3), pt(6.5, 13));
    } else if (family == QLatin1String("Recurrent")) {
        p.drawArc(QRectF(pt(3, 3), pt(13, 13)), 60 * 16, 300 * 16);
        p.drawPolyline(QPolygonF({pt(10.5, 2), pt(11, 4.5), pt(8.5, 5)}));
    } else if (family == QLatin1String("Attention")) {
        QPainterPath eye(pt(2, 8));
        eye.quadTo(pt(8, 2), pt(14, 8));
        eye.quadTo(pt(8, 14), pt(2, 8));
        p.drawPath(eye);
        p.setBrush(Qt::white);
        p.drawEllipse(pt(8, 8), 1.8 * u, 1.8 * u);
    } else if (family == QLatin1String("Merge")) {
        p.drawLine(pt(3, 4), pt(8, 8));
        p.drawLine(pt(3, 12), pt(8, 8));
        p.drawLine(pt(8, 8), pt(14, 8));
    } else {
        p.drawEllipse(QRectF(pt(4, 4), pt(12, 12)));
    }
}

} // namespace

bool isDark(const QPalette &palette) { return palette.color(QPalette::Window).lightness() < 128; }

QColor familyColor(const QString &family, const QPalette &palette) {
    const int hue = familyHue(family);
    if (hue < 0) return isDark(palette) ? QColor(110, 110, 120) : QColor(120, 124, 132);
    return isDark(palette) ? QColor::fromHsl(hue, 120, 95) : QColor::fromHsl(hue, 150, 105);
}

namespace {
/// Blue, orange, green, purple, teal, red, olive, pink: neighbours stay apart.
constexpr int kStageHues[] = {210, 30, 120, 275, 180, 0, 60, 320};
} // namespace

QColor stageColor(int stage, const QPalette &palette) {
    const int hue = kStageHues[std::abs(stage) % 8];
    QColor c = isDark(palette) ? QColor::fromHsl(hue, 140, 90) : QColor::fromHsl(hue, 170, 190);
    c.setAlpha(isDark(palette) ? 120 : 150);
    return c;
}

QColor stageTextColor(int stage, const QPalette &palette) {
    const int hue = kStageHues[std::abs(stage) % 8];
    return isDark(palette) ? QColor::fromHsl(hue, 160, 200) : QColor::fromHsl(hue, 200, 60);
}

QString familyOf(const QString &type) {
    if (type == QLatin1String(kOutputType)) return QStringLiteral("Output");
    const spec::LayerType *t = spec::Registry::instance().find(type.toStdString());
    return t ? QString::fromStdString(t->family) : QString();
}

QIcon familyIcon(const QString &family) {
    static QHash<QString, QIcon> cache;
    auto it = cache.constFind(family);
    if (it != cache.constEnd()) return *it;
    QIcon icon;
    const QColor fill = familyColor(family, QPalette(QColor(240, 240, 240)));
    for (int size : {16, 24, 32, 48, 64}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        const QRectF r(0.5, 0.5, size - 1.0, size - 1.0);
        p.drawRoundedRect(r, size * 0.22, size * 0.22);
        drawGlyph(p, family, r);
        p.end();
        icon.addPixmap(pm);
    }
    cache.insert(family, icon);
    return icon;
}

QColor errorColor(const QPalette &palette) { return isDark(palette) ? QColor(255, 99, 92) : QColor(214, 40, 40); }

QColor warningColor(const QPalette &palette) { return isDark(palette) ? QColor(255, 190, 70) : QColor(214, 140, 0); }

QString compactCount(qint64 n) {
    const QLocale locale;
    if (n < 10000) return locale.toString(n);
    const double v = double(n);
    auto sig = [&](double x) { return locale.toString(x, 'f', x < 10 ? 2 : x < 100 ? 1 : 0); };
    if (v < 1e6) return sig(v / 1e3) + QStringLiteral("k");
    if (v < 1e9) return sig(v / 1e6) + QStringLiteral("M");
    return sig(v / 1e9) + QStringLiteral("G");
}

QString flopsText(qint64 flops) {
    // Three significant digits: 21.6 kFLOPs, 411 kFLOPs, 4.47 MFLOPs.
    const QLocale locale;
    const double v = double(flops);
    auto sig = [&](double x) { return locale.toString(x, 'f', x < 10 ? 2 : x < 100 ? 1 : 0); };
    if (v < 1e3) return QCoreApplication::translate("diamond::ui::style", "%1 FLOPs").arg(flops);
    if (v < 1e6) return QCoreApplication::translate("diamond::ui::style", "%1 kFLOPs").arg(sig(v / 1e3));
    if (v < 1e9) return QCoreApplication::translate("diamond::ui::style", "%1 MFLOPs").arg(sig(v / 1e6));
    if (v < 1e12) return QCoreApplication::translate("diamond::ui::style", "%1 GFLOPs").arg(sig(v / 1e9));
    return QCoreApplication::translate("diamond::ui::style", "%1 TFLOPs").arg(sig(v / 1e12));
}

QString bytesText(qint64 bytes) { return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat); }

QString familyTitle(const QString &family) {
    static const char *const names[] = {
        QT_TRANSLATE_NOOP("diamond::ui::style", "Input"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Output"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Linear"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Convolution"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Pooling"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Normalization"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Regularization"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Activation"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Reshaping"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Embedding"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Recurrent"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Attention"),
        QT_TRANSLATE_NOOP("diamond::ui::style", "Merge"),
    };
    for (const char *n : names) {
        if (family == QLatin1String(n)) return QCoreApplication::translate("diamond::ui::style", n);
    }
    return family;
}

} // namespace diamond::ui::style
