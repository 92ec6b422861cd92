// QPainter plots of the sweep view: parallel coordinates (one polyline per trial across the parameter axes and
// the objective axis), objective against trial with the best-so-far line, and parameter-importance bars.
// Each plot is fed whole data sets (setData) by the view's coalesced refresh and only repaints.
#pragma once

#include "app/sweep/search_space.h"
#include "ui/sweep/sweep_analysis.h"

#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <optional>

namespace diamond::ui::sweep {

struct PlotTrial {
    int index = 0;
    QJsonObject params;
    std::optional<double> objective;
    QString state;
};

/// Colour of t in [0, 1] on a viridis-like scale (0 dark purple .. 1 yellow).
QColor objectiveColor(double t);

class ParallelCoordinatesPlot : public QWidget {
    Q_OBJECT
public:
    explicit ParallelCoordinatesPlot(QWidget *parent = nullptr);
    /// Axes: one per parameter (model space: log for log-scale parameters, index for choices), then the
    /// objective's observed range. Lines are coloured by objective, the best (per `maximize`) brightest.
    void setData(const app::sweep::SearchSpace &space, const QList<PlotTrial> &trials, const QString &objectiveName,
                 bool maximize, int bestTrial);
    int axisCount() const { return int(space_.size()) + 1; }
    int lineCount() const { return int(trials_.size()); }
    /// Position of trial `index` on each axis in [0, 1] (0 = bottom), NaN when it has no value there.
    QList<double> normalised(int index) const;
    QSize minimumSizeHint() const override { return {360, 220}; }

Q_SIGNALS:
    void trialClicked(int trialIndex);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QRectF plotRect() const;
    QList<QPointF> polyline(const PlotTrial &trial, const QRectF &area) const;
    app::sweep::SearchSpace space_;
    QList<PlotTrial> trials_;
    QString objectiveName_;
    bool maximize_ = false;
    int best_ = -1;
    double objLow_ = 0, objHigh_ = 1;
};

class ObjectiveScatterPlot : public QWidget {
    Q_OBJECT
public:
    explicit ObjectiveScatterPlot(QWidget *parent = nullptr);
    /// Points (trial index, objective) of the trials with an objective; the best-so-far line is the running
    /// best (min or max) in trial order.
    void setData(const QList<PlotTrial> &trials, const QString &objectiveName, bool maximize);
    const QList<QPointF> &points() const { return points_; }
    const QList<QPointF> &bestSoFar() const { return best_; }
    QSize minimumSizeHint() const override { return {320, 200}; }

Q_SIGNALS:
    void trialClicked(int trialIndex);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QRectF plotRect() const;
    QPointF toPixel(const QPointF &p, const QRectF &area) const;
    QList<QPointF> points_, best_;
    QString objectiveName_;
    bool maximize_ = false;
    double xMax_ = 1, yLow_ = 0, yHigh_ = 1;
};

class ImportanceBars : public QWidget {
    Q_OBJECT
public:
    explicit ImportanceBars(QWidget *parent = nullptr);
    void setImportance(const QList<ParameterImportance> &importance, int trials);
    const QList<ParameterImportance> &importance() const { return importance_; }
    QSize minimumSizeHint() const override { return {240, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<ParameterImportance> importance_;
    int trials_ = 0;
};

} // namespace diamond::ui::sweep
