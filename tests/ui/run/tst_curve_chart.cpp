// CurveChart: coalesced repaints, decimation to the plot width, log scale, smoothing, legend toggles.
#include "ui/run/curve_chart.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QtTest>

#include <cmath>

using namespace diamond::ui;

class TestCurveChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void appendsAreCoalesced() {
        CurveChart chart;
        chart.resize(800, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.addSeries(QStringLiteral("loss"), QStringLiteral("train"), Qt::blue);
        const int before = chart.frameCount();
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < 2000; ++i)
            chart.appendPoints(QStringLiteral("loss"), {QPointF(i, 1.0 / (1 + i))});
        QVERIFY(chart.hasPendingFrame());
        QTRY_VERIFY(!chart.hasPendingFrame());
        const qint64 ms = clock.elapsed();
        // 2000 appends give at most one frame per interval, never one per point.
        QVERIFY2(chart.frameCount() - before <= ms / CurveChart::kRepaintIntervalMs + 1,
                 qPrintable(QStringLiteral("%1 frames in %2 ms").arg(chart.frameCount() - before).arg(ms)));
        QCOMPARE(chart.pointCount(QStringLiteral("loss")), 2000);
        QVERIFY(chart.xRange().y() >= 1999);
    }

    void millionPointsAreDecimatedToThePlotWidth() {
        CurveChart chart;
        chart.resize(800, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.addSeries(QStringLiteral("s"), QStringLiteral("s"), Qt::red);
        QVector<QPointF> pts;
        pts.reserve(1000000);
        for (int i = 0; i < 1000000; ++i)
            pts.append(QPointF(i, std::sin(i * 1e-4) + (i == 500000 ? 10 : 0)));
        chart.replacePoints(QStringLiteral("s"), pts);
        chart.renderNow();
        QVERIFY(chart.drawnPointCount(QStringLiteral("s")) > 100);
        QVERIFY(chart.drawnPointCount(QStringLiteral("s")) <= 4 * 800 + 2);
        QVERIFY(chart.yRange().y() >= 10); // the spike survived decimation and sets the axis

        // Zoom into a window: the drawn points cover only it.
        chart.setXRange(1000, 2000);
        QVERIFY(chart.drawnPointCount(QStringLiteral("s")) <= 1003);
        chart.resetView();
        QVERIFY(chart.xRange().x() <= 0 && chart.xRange().y() >= 999999 && chart.xRange().y() < 1.3e6);
    }

    void logScaleAndSmoothing() {
        CurveChart chart;
        chart.resize(600, 400);
        chart.addSeries(QStringLiteral("a"), QStringLiteral("a"), Qt::darkGreen);
        QVector<QPointF> pts;
        for (int i = 1; i <= 1000; ++i)
            pts.append(QPointF(i, 100.0 / i));
        chart.replacePoints(QStringLiteral("a"), pts);
        chart.setLogY(true);
        chart.renderNow();
        QCOMPARE(chart.yRange(), QPointF(0.1, 100));
        chart.setSmoothing(0.8);
        QCOMPARE(chart.smoothing(), 0.8);
        const QImage image = chart.renderNow();
        QVERIFY(!image.isNull());
        chart.setLogY(false);
        chart.renderNow();
        QVERIFY(chart.yRange().x() <= 0.1 && chart.yRange().y() >= 100);
    }

    void legendTogglesSeries() {
        CurveChart chart;
        chart.addSeries(QStringLiteral("a"), QStringLiteral("run a"), Qt::blue);
        chart.addSeries(QStringLiteral("b"), QStringLiteral("run b"), Qt::red);
        chart.replacePoints(QStringLiteral("a"), {{0, 0}, {1, 1}});
        chart.replacePoints(QStringLiteral("b"), {{0, 5}, {1, 6}});
        auto *box = chart.findChild<QCheckBox *>(QStringLiteral("legend:b"));
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("run b"));
        QSignalSpy spy(&chart, &CurveChart::seriesVisibilityChanged);
        box->click();
        QCOMPARE(spy.count(), 1);
        QVERIFY(!chart.isSeriesVisible(QStringLiteral("b")));
        chart.renderNow();
        QVERIFY(chart.yRange().y() < 5); // the hidden series no longer sets the axis
        QCOMPARE(chart.drawnPointCount(QStringLiteral("b")), 0);
    }
};

QTEST_MAIN(TestCurveChart)
#include "tst_curve_chart.moc"
