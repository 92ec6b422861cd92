// ComparePage: the curves of several runs overlaid in one chart, one series per run, for a chosen metric and
// split; the legend toggles runs. Series are loaded off the GUI thread.
#pragma once

#include "app/run/run_history.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QCheckBox;
class QLabel;

namespace diamond::app {
class Workspace;
}

namespace diamond::ui {

class CurveChart;

class ComparePage : public QWidget {
    Q_OBJECT
public:
    ComparePage(app::Workspace &workspace, QWidget *parent = nullptr);

    /// Loads the runs (asynchronously) and shows them; replaces the previous set.
    void setRuns(const QList<qint64> &runIds);
    QList<qint64> runIds() const { return runIds_; }
    CurveChart *chart() const { return chart_; }
    bool isLoading() const { return loading_; }
    /// Selects the metric ("loss", "accuracy", ...) and split shown.
    void setMetric(const QString &metric, app::MetricSplit split);

Q_SIGNALS:
    void loaded();

private:
    void showSeries();

    app::Workspace &ws_;
    QList<qint64> runIds_;
    QHash<qint64, app::RunHistory> histories_;
    bool loading_ = false;
    int generation_ = 0;
    QComboBox *metricBox_ = nullptr;
    QComboBox *splitBox_ = nullptr;
    QCheckBox *logBox_ = nullptr;
    QLabel *status_ = nullptr;
    CurveChart *chart_ = nullptr;
};

/// The i-th colour of a categorical palette that stays distinguishable for many runs.
QColor categoricalColor(int i);

} // namespace diamond::ui
