#include "ui/run/curve_math.h"

#include <algorithm>
#include <cmath>

namespace diamond::ui {

QVector<QPointF> debiasedExponentialSmoothing(const QVector<QPointF> &points, double weight) {
    if (weight <= 0.0) return points;
    weight = std::min(weight, 0.999);
    QVector<QPointF> out;
    out.reserve(points.size());
    double last = 0.0, debias = 0.0;
    for (const QPointF &p : points) {
        if (!std::isfinite(p.y())) {
            out.append(p);
            continue;
        }
        last = last * weight + (1.0 - weight) * p.y();
        debias = debias * weight + (1.0 - weight);
        out.append(QPointF(p.x(), last / debias));
    }
    return out;
}

int lowerBoundX(const QVector<QPointF> &points, double value) {
    const auto it =
        std::lower_bound(points.begin(), points.end(), value, [](const QPointF &p, double v) { return p.x() < v; });
    return int(it - points.begin());
}

QVector<QPointF> decimateMinMax(const QVector<QPointF> &points, double xMin, double xMax, int columns) {
    if (points.isEmpty() || columns <= 0 || !(xMax > xMin)) return points;
    const int begin = std::max(0, lowerBoundX(points, xMin) - 1);
    int end = lowerBoundX(points, xMax);
    while (end < points.size() && points[end].x() <= xMax)
        ++end;
    end = std::min(int(points.size()), end + 1); // one point past the range
    if (end - begin <= 2 * columns) return points.mid(begin, end - begin);

    QVector<QPointF> out;
    out.reserve(4 * columns + 2);
    const double width = (xMax - xMin) / columns;
    int i = begin;
    if (points[i].x() < xMin) out.append(points[i++]);
    while (i < end && points[i].x() <= xMax) {
        const int bucket = std::min(columns - 1, int((points[i].x() - xMin) / width));
        const double bucketEnd = xMin + (bucket + 1) * width;
        const int first = i;
        int lo = i, hi = i;
        while (i < end && points[i].x() <= xMax && (points[i].x() < bucketEnd || bucket == columns - 1)) {
            if (points[i].y() < points[lo].y()) lo = i;
            if (points[i].y() > points[hi].y()) hi = i;
            ++i;
        }
        const int last = i - 1;
        int picks[4] = {first, std::min(lo, hi), std::max(lo, hi), last};
        int previous = -1;
        for (int p : picks) {
            if (p != previous) out.append(points[p]);
            previous = p;
        }
    }
    if (i < end) out.append(points[i]);
    return out;
}

void niceRange(double *lo, double *hi, int ticks) {
    if (!std::isfinite(*lo) || !std::isfinite(*hi)) {
        *lo = 0;
        *hi = 1;
        return;
    }
    if (*hi < *lo) std::swap(*lo, *hi);
    if (*hi - *lo < 1e-12 * std::max(1.0, std::abs(*hi))) {
        const double pad = std::max(std::abs(*hi) * 0.05, 1e-6);
        *lo -= pad;
        *hi += pad;
    }
    const double raw = (*hi - *lo) / std::max(1, ticks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        step = m * magnitude;
        if (step >= raw) break;
    }
    *lo = std::floor(*lo / step) * step;
    *hi = std::ceil(*hi / step) * step;
}

} // namespace diamond::ui
