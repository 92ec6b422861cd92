// CurveChart: the one chart view class of the app (live curves, compare overlays). Callers hand it full-resolution
// series; it keeps them, and on a ~40 ms coalescing timer draws min/max-decimated copies (2 columns per pixel) with
// one graphics item on top of a QtCharts chart that provides only the axes, grid and title
// (docs: ../shared/notes/qtcharts-6.4.md — one QLineSeries per run is too slow for overlays). The backend can change
// without touching callers: nothing of QtCharts appears in this header.
//
// Contract: appendPoints()/replacePoints() may be called at any rate; the chart repaints at most once per
// kRepaintIntervalMs and never per point. Series x values must be non-decreasing.
#pragma once

#include <QColor>
#include <QHash>
#include <QImage>
#include <QPointF>
#include <QStringList>
#include <QVector>
#include <QWidget>

class QTimer;

namespace diamond::ui {

class CurveChartCanvas;
class CurveLegend;

class CurveChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRepaintIntervalMs = 40;

    explicit CurveChart(QWidget *parent = nullptr);
    ~CurveChart() override;

    void setTitle(const QString &title);
    void setAxisTitles(const QString &x, const QString &y);
    QString yAxisTitle() const { return yTitle_; }

    /// Declares a series (or changes its label/colour). Series are drawn in declaration order.
    void addSeries(const QString &key, const QString &label, const QColor &color, Qt::PenStyle style = Qt::SolidLine);
    void removeSeries(const QString &key);
    void clear();
    QStringList seriesKeys() const { return order_; }

    /// Bulk updates; coalesced into one repaint per interval.
    void replacePoints(const QString &key, QVector<QPointF> points);
    void appendPoints(const QString &key, const QVector<QPointF> &points);

    void setSeriesVisible(const QString &key, bool visible);
    bool isSeriesVisible(const QString &key) const;
    void setLegendVisible(bool visible);

    /// Logarithmic y axis (points with y <= 0 are not drawn).
    void setLogY(bool on);
    bool logY() const { return logY_; }
    /// Debiased exponential smoothing weight in [0, 0.99]; 0 = off. With smoothing on, the raw curve stays
    /// faintly visible and the chart names the method.
    void setSmoothing(double weight);
    double smoothing() const { return smoothing_; }

    /// Visible x range; resetView() goes back to following the data.
    void setXRange(double lo, double hi);
    void resetView();
    QPointF xRange() const;
    QPointF yRange() const;

    // Introspection for tests and benchmarks.
    int pointCount(const QString &key) const;
    int drawnPointCount(const QString &key) const; ///< after decimation, in the last frame
    int frameCount() const;                        ///< repaints done by the coalescing timer
    bool hasPendingFrame() const;
    /// Rebuilds the decimated polylines now and paints the chart synchronously into an image (benchmarks).
    QImage renderNow();

Q_SIGNALS:
    void seriesVisibilityChanged(const QString &key, bool visible);

private:
    struct Series {
        QString label;
        QColor color;
        Qt::PenStyle style = Qt::SolidLine;
        QVector<QPointF> points;
        QVector<QPointF> smoothed; ///< cache of the smoothed points, valid while smoothedValid
        bool smoothedValid = false;
        bool visible = true;
    };
    void scheduleFrame();
    void rebuildFrame();
    void updateAxes();

    QHash<QString, Series> series_;
    QStringList order_;
    CurveChartCanvas *canvas_ = nullptr;
    CurveLegend *legend_ = nullptr;
    QTimer *frameTimer_ = nullptr;
    bool logY_ = false;
    double smoothing_ = 0.0;
    bool followData_ = true;
    double xLo_ = 0, xHi_ = 1, yLo_ = 0, yHi_ = 1;
    int frames_ = 0;
    QString yTitle_;
    QHash<QString, int> drawnIndex_; ///< series key -> index of its curve in the last frame

    friend class CurveChartCanvas;
};

} // namespace diamond::ui
