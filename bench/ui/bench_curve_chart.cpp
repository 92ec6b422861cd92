// Benchmark: 100 runs x 10,000 points overlaid in one CurveChart (1400x900), panned frame by frame. Each frame =
// setXRange (min/max decimation of every visible series to the plot width) + a synchronous paint of the chart
// into an image. Target: at most 16 ms per frame. Also: live appends coalesced (frames per second of points).
#include "ui/run/compare_page.h"
#include "ui/run/curve_chart.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

using namespace diamond::ui;

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    CurveChart chart;
    chart.resize(1400, 900);
    chart.show();
    QApplication::processEvents();
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.05);
    const int runs = 100, points = 10000;
    for (int r = 0; r < runs; ++r) {
        const QString key = QString::number(r);
        chart.addSeries(key, QStringLiteral("run %1").arg(r), categoricalColor(r));
        QVector<QPointF> pts;
        pts.reserve(points);
        const double rate = 0.0002 + 0.00002 * r;
        for (int i = 0; i < points; ++i)
            pts.append(QPointF(i, 2.0 * std::exp(-rate * i) + 0.1 + noise(rng)));
        chart.replacePoints(key, std::move(pts));
    }
    chart.setLegendVisible(false);
    chart.renderNow();

    QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frames, decimation;
    const double window = 4000;
    for (int f = 0; f < 60; ++f) {
        QElapsedTimer t;
        t.start();
        const double lo = f * 100.0;
        chart.setXRange(lo, lo + window);
        decimation.push_back(t.nsecsElapsed() / 1e6);
        QPainter painter(&image);
        chart.render(&painter);
        painter.end();
        frames.push_back(t.nsecsElapsed() / 1e6);
    }
    std::sort(frames.begin(), frames.end());
    std::sort(decimation.begin(), decimation.end());
    const double median = frames[frames.size() / 2], p90 = frames[frames.size() * 9 / 10];

    // Full view (everything visible), with smoothing on: the heaviest frame.
    chart.resetView();
    chart.setSmoothing(0.6);
    chart.renderNow(); // builds the smoothing caches once
    std::vector<double> full;
    for (int f = 0; f < 20; ++f) {
        QElapsedTimer t;
        t.start();
        chart.setXRange(0, points - 1 - f);
        QPainter painter(&image);
        chart.render(&painter);
        painter.end();
        full.push_back(t.nsecsElapsed() / 1e6);
    }
    std::sort(full.begin(), full.end());
    std::printf("{\"benchmark\":\"curve_chart_overlay\",\"runs\":%d,\"points_per_run\":%d,"
                "\"pan_frame_ms_median\":%.2f,\"of_which_decimation_ms\":%.2f,\"pan_frame_ms_p90\":%.2f,\"full_frame_"
                "smoothed_ms_median\":%.2f,"
                "\"target_ms\":16}\n",
                runs, points, median, decimation[decimation.size() / 2], p90, full[full.size() / 2]);
    return median <= 16.0 ? 0 : 1;
}
