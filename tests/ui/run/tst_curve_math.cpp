// Smoothing and decimation behind the live curves.
#include "ui/run/curve_math.h"

#include <QRandomGenerator>
#include <QtTest>

#include <cmath>

using namespace diamond::ui;

class TestCurveMath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void smoothingIsDebiased() {
        // A constant series stays constant from the first point on (a plain EMA would start near 0).
        QVector<QPointF> flat;
        for (int i = 0; i < 50; ++i)
            flat.append(QPointF(i, 3.0));
        for (const QPointF &p : debiasedExponentialSmoothing(flat, 0.9))
            QVERIFY(std::abs(p.y() - 3.0) < 1e-12);
        // Hand-computed: w = 0.5, y = 0, 2 -> m1 = 0, d1 = 0.5 -> 0; m2 = 1, d2 = 0.75 -> 4/3.
        const auto s = debiasedExponentialSmoothing({{0, 0.0}, {1, 2.0}}, 0.5);
        QCOMPARE(s[0].y(), 0.0);
        QVERIFY(std::abs(s[1].y() - 4.0 / 3.0) < 1e-12);
        QCOMPARE(debiasedExponentialSmoothing(flat, 0.0), flat);
    }

    void smoothingReducesNoise() {
        QVector<QPointF> noisy;
        auto *rng = QRandomGenerator::global();
        for (int i = 0; i < 2000; ++i)
            noisy.append(QPointF(i, 1.0 + rng->generateDouble() - 0.5));
        const auto smooth = debiasedExponentialSmoothing(noisy, 0.95);
        double rawVar = 0, smoothVar = 0;
        for (int i = 200; i < noisy.size(); ++i) {
            rawVar += std::pow(noisy[i].y() - 1.0, 2);
            smoothVar += std::pow(smooth[i].y() - 1.0, 2);
        }
        QVERIFY2(smoothVar < rawVar / 10, qPrintable(QStringLiteral("%1 vs %2").arg(smoothVar).arg(rawVar)));
    }

    void decimationKeepsExtremesAndEnds() {
        QVector<QPointF> pts;
        for (int i = 0; i < 100000; ++i)
            pts.append(QPointF(i, std::sin(i * 0.001)));
        pts[54321].setY(50.0);  // a spike
        pts[77777].setY(-50.0); // and a dip
        const auto d = decimateMinMax(pts, 0, 99999, 500);
        QVERIFY(d.size() <= 4 * 500 + 2);
        QVERIFY(d.size() > 500);
        double hi = -1e9, lo = 1e9;
        for (const QPointF &p : d)
            hi = std::max(hi, p.y()), lo = std::min(lo, p.y());
        QCOMPARE(hi, 50.0);
        QCOMPARE(lo, -50.0);
        QCOMPARE(d.first(), pts.first());
        QCOMPARE(d.last(), pts.last());
        for (int i = 1; i < d.size(); ++i)
            QVERIFY(d[i].x() > d[i - 1].x()); // x order kept, no duplicates
    }

    void decimationOfAVisibleWindow() {
        QVector<QPointF> pts;
        for (int i = 0; i < 10000; ++i)
            pts.append(QPointF(i, i % 7));
        const auto d = decimateMinMax(pts, 2000, 3000, 100);
        // One point each side of the window, so the line reaches the plot's edges.
        QCOMPARE(d.first().x(), 1999.0);
        QCOMPARE(d.last().x(), 3001.0);
        // Small series pass unchanged.
        const QVector<QPointF> few{{0, 1}, {1, 2}, {2, 3}};
        QCOMPARE(decimateMinMax(few, 0, 2, 100), few);
    }

    void niceRanges() {
        double lo = 0.013, hi = 0.87;
        niceRange(&lo, &hi, 5);
        QVERIFY(lo <= 0.013 && lo >= 0);
        QVERIFY(hi >= 0.87 && hi <= 1.0);
        lo = hi = 5;
        niceRange(&lo, &hi);
        QVERIFY(lo < 5 && hi > 5);
    }
};

QTEST_GUILESS_MAIN(TestCurveMath)
#include "tst_curve_math.moc"
