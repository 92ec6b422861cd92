// Pure functions behind the live curves: smoothing and min/max decimation. No widgets; unit-tested.
#pragma once

#include <QPointF>
#include <QVector>

namespace diamond::ui {

/// Debiased exponential moving average (as TensorBoard's smoothing): s_t = m_t / (1 - w^t) with
/// m_t = w * m_{t-1} + (1 - w) * y_t, m_0 = 0. weight in [0, 1); 0 returns the input. x values are kept.
/// Non-finite y values are passed through and do not enter the average.
QVector<QPointF> debiasedExponentialSmoothing(const QVector<QPointF> &points, double weight);

/// Min/max decimation of points sorted by x: the range [xMin, xMax] is split into `columns` equal buckets; each
/// bucket that holds points contributes its first, minimum, maximum and last point, in x order (at most 4 per
/// bucket, duplicates removed), so spikes and the curve's ends survive. Points outside the range are dropped
/// except the nearest one on each side (so a panned line still reaches the plot's edges). A series with at most
/// 2 * columns points in range is returned unchanged (that part of it).
QVector<QPointF> decimateMinMax(const QVector<QPointF> &points, double xMin, double xMax, int columns);

/// Index of the first point with x >= value in points sorted by x.
int lowerBoundX(const QVector<QPointF> &points, double value);

/// "Nice" axis bounds enclosing [lo, hi] (1, 2, 2.5, 5 x 10^k steps); lo == hi is widened.
void niceRange(double *lo, double *hi, int ticks = 5);

} // namespace diamond::ui
