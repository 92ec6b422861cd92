// RunMonitorPage: one run, live. Curves (loss, each metric, learning rate) with a shared x-axis mode, log scale and
// smoothing; a progress bar with ETA and throughput; stop and resume; the engine's event log; the confusion matrix
// once the run is evaluated. History is loaded off the GUI thread (loadRunHistory under QtConcurrent); live points
// arrive as batches from RunManager::metricsAppended and go to the charts, which repaint on their own timer.
#pragma once

#include "app/run_store.h"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QCheckBox;
class QGridLayout;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSlider;

namespace diamond::app {
class RunManager;
class Workspace;
struct RunHistory;
} // namespace diamond::app

namespace diamond::ui {

class CurveChart;
class ConfusionMatrixView;

class RunMonitorPage : public QWidget {
    Q_OBJECT
public:
    enum class XAxis { Step, Epoch, WallTime };

    /// `workspace` and `manager` must outlive the page.
    RunMonitorPage(app::Workspace &workspace, app::RunManager *manager, qint64 runId, QWidget *parent = nullptr);
    ~RunMonitorPage() override;

    qint64 runId() const { return runId_; }
    app::RunState state() const { return state_; }
    QString title() const;

    void setXAxis(XAxis axis);
    void setLogY(bool on);
    void setSmoothing(double weight);

    /// Chart of a metric ("loss", "accuracy", "lr", ...), nullptr while the run has none.
    CurveChart *chart(const QString &metric) const { return charts_.value(metric); }
    QProgressBar *progressBar() const { return progress_; }
    ConfusionMatrixView *confusionMatrix() const { return confusion_; }
    /// Points received for a series, e.g. ("loss", Validation).
    int pointCount(const QString &metric, app::MetricSplit split) const;
    bool historyLoaded() const { return historyLoaded_; }

Q_SIGNALS:
    void titleChanged(const QString &title);
    void historyLoadedChanged();

private:
    struct Point {
        double step, wall, value;
    };
    using SeriesKey = QPair<QString, app::MetricSplit>;

    void buildUi();
    void applyHistory(const app::RunHistory &history);
    void addPoints(const QList<app::MetricPoint> &points);
    void handleEvent(const QJsonObject &event, bool live);
    void setState(app::RunState state);
    CurveChart *ensureChart(const QString &metric);
    QPointF toChartPoint(const Point &p) const;
    void refreshAllSeries();
    void updateProgress(double step);
    void appendLog(const QString &line);

    app::Workspace &ws_;
    app::RunManager *manager_;
    qint64 runId_;
    QString runName_;
    app::RunState state_ = app::RunState::Draft;
    XAxis xAxis_ = XAxis::Step;
    bool logY_ = false;
    double smoothing_ = 0.6;
    bool historyLoaded_ = false;

    QHash<SeriesKey, QVector<Point>> points_;
    QHash<QString, CurveChart *> charts_;
    double startWall_ = 0;      ///< wall time of the first point, the origin of the wall-time axis
    double stepsPerEpoch_ = 0;  ///< from the `started` event
    double totalSteps_ = 0;     ///< from the `started` event
    double lastThroughput_ = 0; ///< samples per second of the newest train point
    double lastStep_ = 0;       ///< newest train step seen

    QLabel *heading_ = nullptr;
    QLabel *stateLabel_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *eta_ = nullptr;
    QPushButton *stop_ = nullptr;
    QPushButton *resume_ = nullptr;
    QComboBox *xAxisBox_ = nullptr;
    QCheckBox *logBox_ = nullptr;
    QSlider *smoothingSlider_ = nullptr;
    QLabel *smoothingValue_ = nullptr;
    QGridLayout *chartGrid_ = nullptr;
    QPlainTextEdit *log_ = nullptr;
    ConfusionMatrixView *confusion_ = nullptr;
};

} // namespace diamond::ui
