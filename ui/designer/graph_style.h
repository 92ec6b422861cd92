// Colours, icons, metrics and number formatting shared by the designer's canvas and panels.
// Colours adapt to the light or dark palette they are given.
#pragma once

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

namespace diamond::ui::style {

inline constexpr qreal kNodeWidth = 190;
inline constexpr qreal kNodeHeight = 64;
inline constexpr qreal kHeaderHeight = 24;
inline constexpr qreal kPortRadius = 6;
inline constexpr qreal kGrid = 20;
/// How far a pipeline stage's band reaches around each of its nodes.
inline constexpr qreal kStageBandMargin = 16;

bool isDark(const QPalette &palette);
/// The family's accent colour (palette group and node header), readable on `palette`.
QColor familyColor(const QString &family, const QPalette &palette);
/// The family of a layer type ("Output" for the designer's output node).
QString familyOf(const QString &type);
/// A crisp per-family icon drawn with QPainter (several sizes, high-DPI aware).
QIcon familyIcon(const QString &family);
QColor errorColor(const QPalette &palette);
/// Pipeline stage `stage`'s band colour (translucent; 8 hues in turn) and the colour of its number.
QColor stageColor(int stage, const QPalette &palette);
QColor stageTextColor(int stage, const QPalette &palette);
QColor warningColor(const QPalette &palette);

/// 11,689,512 -> "11.7 M"; below 10,000 the exact number with grouping.
QString compactCount(qint64 n);
/// FLOPs per sample -> "1.82 GFLOPs".
QString flopsText(qint64 flops);
/// Bytes -> "1.4 GiB".
QString bytesText(qint64 bytes);
/// The translated family name for display.
QString familyTitle(const QString &family);

} // namespace diamond::ui::style
