// RunMonitorPage: one run, live. Curves (loss, each metric, learning rate) with a shared x-axis mode, log scale and
// smoothing; a progress bar with ETA and throughput; stop, resume and publish; for a cluster run its batch job (id,
// queue phase and the scheduler's reason); the engine's event log with the executors' messages; the confusion matrix
// once the run is evaluated. History is loaded off the GUI thread (loadRunHistory under QtConcurrent); live points
// arrive as batches from RunService::metricsAppended and go to the charts, which repaint on their own timer. Stop and
// resume go through the RunService, like every other front end's.
#pragma once

#include "app/run/run_store.h"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QCheckBox;
class QGridLayout;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QSplitter;
class QPushButton;
class QSlider;

namespace diamond::app {
class RunService;
class Workspace;
struct ClusterJob;
struct RunHistory;
} // namespace diamond::app

namespace diamond::ui {

class CurveChart;
class ConfusionMatrixView;

class RunMonitorPage : public QWidget {
    Q_OBJECT
public:
    enum class XAxis { Step, Epoch, WallTime };

    /// `workspace` and `service` must outlive the page.
    RunMonitorPage(app::Workspace &workspace, app::RunService *service, qint64 runId, QWidget *parent = nullptr);
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
    QProgressBar *stagingBar() const { return staging_; }
    QLabel *datasetLabel() const { return dataset_; }
    /// The event log's text (engine events and the executors' notes).
    QString logText() const;
    QPushButton *stopButton() const { return stop_; }
    QPushButton *resumeButton() const { return resume_; }
    QPushButton *publishButton() const { return publish_; }
    /// "job 42 on hpc: pending (Resources)" for cluster runs, else empty.
    QString jobText() const;
    ConfusionMatrixView *confusionMatrix() const { return confusion_; }
    /// Points received for a series, e.g. ("loss", Validation).
    int pointCount(const QString &metric, app::MetricSplit split) const;
    bool historyLoaded() const { return historyLoaded_; }
    /// Presenter mode: the engine log gives its room to the charts and the confusion matrix joins them in the
    /// chart grid (the free cell after the charts); off puts both back below the charts.
    void setPresenting(bool on);
    bool isPresenting() const { return presenting_; }

Q_SIGNALS:
    void titleChanged(const QString &title);
    void historyLoadedChanged();
    /// The user asked to publish this (finished) run to the gallery.
    void publishRequested(qint64 runId);

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
    void showJob(const app::ClusterJob &job);

    app::Workspace &ws_;
    app::RunService *service_;
    qint64 runId_;
    QString runName_;
    app::RunState state_ = app::RunState::Draft;
    XAxis xAxis_ = XAxis::Step;
    bool logY_ = false;
    double smoothing_ = 0.6;
    bool historyLoaded_ = false;
    bool presenting_ = false;

    QHash<SeriesKey, QVector<Point>> points_;
    QHash<QString, CurveChart *> charts_;
    double startWall_ = 0;      ///< wall time of the first point, the origin of the wall-time axis
    double stepsPerEpoch_ = 0;  ///< from the `started` event
    double totalSteps_ = 0;     ///< from the `started` event
    double lastThroughput_ = 0; ///< samples per second of the newest train point
    double lastStep_ = 0;       ///< newest train step seen

    QLabel *heading_ = nullptr;
    QSplitter *split_ = nullptr;  ///< charts above, log and confusion matrix below
    QSplitter *bottom_ = nullptr; ///< log | confusion matrix
    QWidget *matrixBox_ = nullptr;
    void placeConfusionMatrix();
    QLabel *stateLabel_ = nullptr;
    QProgressBar *progress_ = nullptr;
    QLabel *eta_ = nullptr;
    QPushButton *stop_ = nullptr;
    QPushButton *resume_ = nullptr;
    QPushButton *publish_ = nullptr;
    QLabel *job_ = nullptr;
    QLabel *dataset_ = nullptr;       ///< "Dataset: name@N" for runs on a registered dataset
    QProgressBar *staging_ = nullptr; ///< while a cluster run's dataset is staged
    QString jobPhase_;                ///< of the newest cluster job; empty for local runs
    QComboBox *xAxisBox_ = nullptr;
    QCheckBox *logBox_ = nullptr;
    QSlider *smoothingSlider_ = nullptr;
    QLabel *smoothingValue_ = nullptr;
    QGridLayout *chartGrid_ = nullptr;
    QPlainTextEdit *log_ = nullptr;
    ConfusionMatrixView *confusion_ = nullptr;
};

} // namespace diamond::ui
