#include "ui/run/run_monitor_page.h"

#include "app/run/engine_plan.h"
#include "app/run/run_history.h"
#include "app/run/run_service.h"
#include "app/workspace/workspace.h"
#include "ui/run/confusion_matrix_view.h"
#include "ui/run/curve_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace diamond::ui {

namespace {

const QColor kTrainColor(31, 119, 180);
const QColor kValidationColor(255, 127, 14);

QString seriesKey(const QString &metric, app::MetricSplit split) {
    return metric + (split == app::MetricSplit::Validation ? QStringLiteral("/val") : QStringLiteral("/train"));
}

QString formatDuration(double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) return QStringLiteral("–");
    const qint64 s = qint64(std::llround(seconds));
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(s / 3600)
            .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString stateText(app::RunState state) {
    switch (state) {
    case app::RunState::Draft: return RunMonitorPage::tr("draft");
    case app::RunState::Queued: return RunMonitorPage::tr("queued");
    case app::RunState::Running: return RunMonitorPage::tr("running");
    case app::RunState::Finished: return RunMonitorPage::tr("finished");
    case app::RunState::Failed: return RunMonitorPage::tr("failed");
    case app::RunState::Cancelled: return RunMonitorPage::tr("cancelled");
    case app::RunState::Preempted: return RunMonitorPage::tr("preempted");
    case app::RunState::Resumed: return RunMonitorPage::tr("resumed");
    }
    return {};
}

} // namespace

RunMonitorPage::RunMonitorPage(app::Workspace &workspace, app::RunService *service, qint64 runId, QWidget *parent)
    : QWidget(parent), ws_(workspace), service_(service), runId_(runId) {
    buildUi();
    connect(service_, &app::RunService::metricsAppended, this,
            [this](qint64 id, const QList<app::MetricPoint> &points) {
                if (id == runId_ && historyLoaded_) addPoints(points);
            });
    connect(service_, &app::RunService::eventReceived, this, [this](qint64 id, const QJsonObject &event) {
        if (id == runId_ && historyLoaded_) handleEvent(event, true);
    });
    connect(service_, &app::RunService::runStateChanged, this, [this](qint64 id, app::RunState state) {
        if (id == runId_) setState(state);
    });
    connect(service_, &app::RunService::clusterJobChanged, this, [this](qint64 id) {
        if (id != runId_) return;
        if (const auto job = app::ClusterJobStore(ws_).current(runId_)) showJob(*job);
    });
    connect(service_, &app::RunService::runMessage, this, [this](qint64 id, const QString &text) {
        if (id == runId_) appendLog(tr("[cluster] %1").arg(text));
    });
    connect(service_, &app::RunService::cancelFailed, this, [this](qint64 id, const QString &error) {
        if (id == runId_) appendLog(tr("Cannot stop: %1").arg(error));
    });
    connect(service_, &app::RunService::datasetStaging, this,
            [this](qint64 id, qint64 sent, qint64 total, const QString &phase) {
                if (id != runId_) return;
                const bool over = phase == QLatin1String("done") || phase == QLatin1String("failed");
                staging_->setVisible(!over);
                if (over) return;
                staging_->setValue(total > 0 ? int(1000.0 * double(sent) / double(total)) : 0);
                staging_->setFormat(phase == QLatin1String("verifying")
                                        ? tr("Dataset: verifying on the cluster…")
                                        : tr("Dataset: %1 of %2 MiB sent")
                                              .arg(double(sent) / 1048576.0, 0, 'f', 1)
                                              .arg(double(total) / 1048576.0, 0, 'f', 1));
            });

    // History off the GUI thread; live batches that arrive meanwhile are already in the database and come back
    // with the history (the signals above are ignored until then).
    auto *watcher = new QFutureWatcher<app::RunHistory>(this);
    connect(watcher, &QFutureWatcher<app::RunHistory>::finished, this, [this, watcher] {
        applyHistory(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(app::loadRunHistory, ws_.path(), runId_));
}

RunMonitorPage::~RunMonitorPage() = default;

void RunMonitorPage::buildUi() {
    auto *layout = new QVBoxLayout(this);

    auto *header = new QHBoxLayout;
    heading_ = new QLabel(this);
    QFont big = heading_->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    heading_->setFont(big);
    heading_->setTextFormat(Qt::PlainText);
    stateLabel_ = new QLabel(this);
    stateLabel_->setObjectName(QStringLiteral("runState"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setFormat(tr("%p%"));
    progress_->setMinimumWidth(120);
    eta_ = new QLabel(this);
    eta_->setMinimumWidth(150);
    stop_ = new QPushButton(QIcon::fromTheme(QStringLiteral("process-stop")), tr("&Stop"), this);
    stop_->setToolTip(tr("Stop the run; its newest checkpoint is kept so that it can be resumed."));
    resume_ = new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("&Resume"), this);
    resume_->setToolTip(tr("Continue the run from its newest checkpoint."));
    publish_ = new QPushButton(QIcon::fromTheme(QStringLiteral("document-send")), tr("&Publish…"), this);
    publish_->setObjectName(QStringLiteral("publishRun"));
    publish_->setToolTip(
        tr("Publish the finished run to the model gallery as a signed package that others can check."));
    heading_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    heading_->setMinimumWidth(120);
    header->addWidget(heading_, 2);
    header->addWidget(stateLabel_);
    header->addStretch();
    header->addWidget(progress_, 1);
    header->addWidget(eta_);
    header->addWidget(stop_);
    header->addWidget(resume_);
    header->addWidget(publish_);
    layout->addLayout(header);
    job_ = new QLabel(this);
    job_->setObjectName(QStringLiteral("clusterJob"));
    job_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    job_->setTextFormat(Qt::PlainText); // job ids and states come from the cluster
    job_->hide();
    layout->addWidget(job_);
    auto *dataRow = new QHBoxLayout;
    dataset_ = new QLabel(this);
    dataset_->setObjectName(QStringLiteral("runDataset"));
    dataset_->setTextFormat(Qt::PlainText);
    dataset_->hide();
    staging_ = new QProgressBar(this);
    staging_->setObjectName(QStringLiteral("datasetStaging"));
    staging_->setRange(0, 1000);
    staging_->hide();
    dataRow->addWidget(dataset_);
    dataRow->addWidget(staging_, 1);
    layout->addLayout(dataRow);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("X axis:"), this));
    xAxisBox_ = new QComboBox(this);
    xAxisBox_->addItems({tr("Step"), tr("Epoch"), tr("Wall time (s)")});
    controls->addWidget(xAxisBox_);
    logBox_ = new QCheckBox(tr("&Log scale"), this);
    controls->addWidget(logBox_);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Smoothing:"), this));
    smoothingSlider_ = new QSlider(Qt::Horizontal, this);
    smoothingSlider_->setRange(0, 99);
    smoothingSlider_->setValue(int(smoothing_ * 100));
    smoothingSlider_->setMaximumWidth(200);
    smoothingSlider_->setToolTip(tr("Debiased exponential moving average; the raw curve stays faintly visible."));
    smoothingValue_ = new QLabel(QString::number(smoothing_, 'f', 2), this);
    controls->addWidget(smoothingSlider_);
    controls->addWidget(smoothingValue_);
    controls->addStretch();
    layout->addLayout(controls);

    auto *split = split_ = new QSplitter(Qt::Vertical, this);
    auto *chartArea = new QWidget(split);
    chartGrid_ = new QGridLayout(chartArea);
    chartGrid_->setContentsMargins(0, 0, 0, 0);
    chartGrid_->setColumnStretch(0, 1);
    chartGrid_->setColumnStretch(1, 1);
    split->addWidget(chartArea);
    auto *bottom = bottom_ = new QSplitter(Qt::Horizontal, split);
    log_ = new QPlainTextEdit(bottom);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(5000);
    log_->setPlaceholderText(tr("Engine events appear here."));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    log_->setFont(mono);
    auto *matrixBox = new QGroupBox(tr("Confusion matrix"), bottom);
    matrixBox_ = matrixBox;
    auto *matrixLayout = new QVBoxLayout(matrixBox);
    confusion_ = new ConfusionMatrixView(matrixBox);
    matrixLayout->addWidget(confusion_);
    bottom->addWidget(log_);
    bottom->addWidget(matrixBox);
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 2);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    connect(xAxisBox_, &QComboBox::currentIndexChanged, this, [this](int i) { setXAxis(XAxis(i)); });
    connect(logBox_, &QCheckBox::toggled, this, &RunMonitorPage::setLogY);
    connect(smoothingSlider_, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 100.0); });
    connect(stop_, &QPushButton::clicked, this, [this] {
        if (!service_->cancel(runId_)) appendLog(tr("Cannot stop: %1").arg(service_->errorString()));
    });
    connect(resume_, &QPushButton::clicked, this, [this] {
        if (!service_->resume(runId_)) appendLog(tr("Cannot resume: %1").arg(service_->errorString()));
    });
    connect(publish_, &QPushButton::clicked, this, [this] { Q_EMIT publishRequested(runId_); });
    setState(state_);
}

QString RunMonitorPage::logText() const { return log_->toPlainText(); }

void RunMonitorPage::setPresenting(bool on) {
    if (on == presenting_) return;
    presenting_ = on;
    placeConfusionMatrix();
}

void RunMonitorPage::placeConfusionMatrix() {
    if (presenting_) {
        const int cell = int(charts_.size());
        chartGrid_->removeWidget(matrixBox_);
        chartGrid_->addWidget(matrixBox_, cell / 2, cell % 2); // reparents it out of the bottom splitter
        bottom_->hide();
    } else if (matrixBox_->parent() != bottom_) {
        chartGrid_->removeWidget(matrixBox_);
        bottom_->insertWidget(1, matrixBox_);
        bottom_->show();
    }
    matrixBox_->show();
}

QString RunMonitorPage::title() const {
    return runName_.isEmpty() ? tr("Run %1").arg(runId_) : tr("%1 (run %2)").arg(runName_).arg(runId_);
}

void RunMonitorPage::applyHistory(const app::RunHistory &history) {
    if (!history.error.isEmpty()) {
        appendLog(history.error);
        return;
    }
    runName_ = history.run->name;
    heading_->setText(title());
    dataset_->setText(history.run->datasetRef.isEmpty() ? QString() : tr("Dataset: %1").arg(history.run->datasetRef));
    dataset_->setVisible(!history.run->datasetRef.isEmpty());
    Q_EMIT titleChanged(title());
    for (const QJsonObject &e : history.events)
        handleEvent(e, false);
    for (const app::RunMessage &m : history.messages)
        appendLog(tr("[cluster] %1").arg(m.text));
    if (history.job) showJob(*history.job);
    for (const auto &[key, points] : history.series)
        addPoints(points);
    historyLoaded_ = true;
    // A state change may have come and gone while loading: take the store's current one.
    if (const auto run = app::RunStore(ws_).run(runId_)) setState(run->state);
    Q_EMIT historyLoadedChanged();
}

CurveChart *RunMonitorPage::ensureChart(const QString &metric) {
    if (CurveChart *chart = charts_.value(metric)) return chart;
    auto *chart = new CurveChart(this);
    chart->setObjectName(QStringLiteral("chart:") + metric);
    const QString title = metric == QLatin1String("loss")       ? tr("Loss")
                          : metric == QLatin1String("lr")       ? tr("Learning rate")
                          : metric == QLatin1String("accuracy") ? tr("Accuracy")
                                                                : metric.left(1).toUpper() + metric.mid(1);
    chart->setTitle(title);
    chart->setAxisTitles(xAxisBox_->currentText(), title);
    chart->setLogY(logY_);
    chart->setSmoothing(metric == QLatin1String("lr") ? 0.0 : smoothing_);
    chart->addSeries(seriesKey(metric, app::MetricSplit::Train), tr("train"), kTrainColor);
    if (metric != QLatin1String("lr"))
        chart->addSeries(seriesKey(metric, app::MetricSplit::Validation), tr("validation"), kValidationColor);
    charts_.insert(metric, chart);

    // Loss first, learning rate last, the other metrics in between by name; two columns.
    QStringList names = charts_.keys();
    std::sort(names.begin(), names.end(), [](const QString &a, const QString &b) {
        auto rank = [](const QString &n) { return n == QLatin1String("loss") ? 0 : n == QLatin1String("lr") ? 2 : 1; };
        return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
    });
    for (CurveChart *c : std::as_const(charts_))
        chartGrid_->removeWidget(c);
    for (int i = 0; i < names.size(); ++i)
        chartGrid_->addWidget(charts_.value(names[i]), i / 2, i % 2);
    if (presenting_) placeConfusionMatrix();
    return chart;
}

QPointF RunMonitorPage::toChartPoint(const Point &p) const {
    switch (xAxis_) {
    case XAxis::Epoch: return {stepsPerEpoch_ > 0 ? p.step / stepsPerEpoch_ : p.step, p.value};
    case XAxis::WallTime: return {p.wall - startWall_, p.value};
    case XAxis::Step: break;
    }
    return {p.step, p.value};
}

void RunMonitorPage::addPoints(const QList<app::MetricPoint> &points) {
    QHash<SeriesKey, QVector<QPointF>> batches;
    double newestTrainStep = -1;
    for (const app::MetricPoint &mp : points) {
        if (startWall_ == 0 || mp.wall < startWall_) startWall_ = mp.wall;
        const Point p{double(mp.step), mp.wall, mp.value};
        const SeriesKey key{mp.name, mp.split};
        QVector<Point> &series = points_[key];
        if (!series.isEmpty() && series.last().step >= p.step) continue; // replayed or out of order
        series.append(p);
        batches[key].append(toChartPoint(p));
        if (mp.split == app::MetricSplit::Train) newestTrainStep = std::max(newestTrainStep, p.step);
    }
    for (auto it = batches.cbegin(); it != batches.cend(); ++it)
        ensureChart(it.key().first)->appendPoints(seriesKey(it.key().first, it.key().second), it.value());
    if (newestTrainStep >= 0) updateProgress(newestTrainStep);
}

void RunMonitorPage::refreshAllSeries() {
    for (auto it = points_.cbegin(); it != points_.cend(); ++it) {
        QVector<QPointF> pts;
        pts.reserve(it.value().size());
        for (const Point &p : it.value())
            pts.append(toChartPoint(p));
        if (CurveChart *chart = charts_.value(it.key().first)) {
            chart->replacePoints(seriesKey(it.key().first, it.key().second), std::move(pts));
            chart->resetView();
        }
    }
}

int RunMonitorPage::pointCount(const QString &metric, app::MetricSplit split) const {
    return int(points_.value({metric, split}).size());
}

void RunMonitorPage::setXAxis(XAxis axis) {
    if (xAxisBox_->currentIndex() != int(axis)) xAxisBox_->setCurrentIndex(int(axis));
    if (xAxis_ == axis) return;
    xAxis_ = axis;
    for (auto it = charts_.cbegin(); it != charts_.cend(); ++it)
        it.value()->setAxisTitles(xAxisBox_->currentText(), it.value()->yAxisTitle());
    refreshAllSeries();
}

void RunMonitorPage::setLogY(bool on) {
    logY_ = on;
    if (logBox_->isChecked() != on) logBox_->setChecked(on);
    for (CurveChart *chart : std::as_const(charts_))
        chart->setLogY(on);
}

void RunMonitorPage::setSmoothing(double weight) {
    smoothing_ = weight;
    smoothingValue_->setText(QString::number(weight, 'f', 2));
    if (smoothingSlider_->value() != int(std::lround(weight * 100)))
        smoothingSlider_->setValue(int(std::lround(weight * 100)));
    for (auto it = charts_.cbegin(); it != charts_.cend(); ++it)
        it.value()->setSmoothing(it.key() == QLatin1String("lr") ? 0.0 : weight);
}

void RunMonitorPage::updateProgress(double step) {
    lastStep_ = step;
    if (totalSteps_ > 0) progress_->setValue(int(std::clamp(step / totalSteps_, 0.0, 1.0) * 1000));
    const QVector<Point> &loss = points_.value({QStringLiteral("loss"), app::MetricSplit::Train});
    double rate = 0;
    if (loss.size() >= 2) {
        const Point &a = loss[std::max<qsizetype>(0, loss.size() - 20)];
        const Point &b = loss.last();
        if (b.wall > a.wall) rate = (b.step - a.step) / (b.wall - a.wall);
    }
    QStringList parts;
    if (rate > 0 && totalSteps_ > step && state_ == app::RunState::Running)
        parts << tr("ETA %1").arg(formatDuration((totalSteps_ - step) / rate));
    if (rate > 0) parts << tr("%1 steps/s").arg(QLocale().toString(rate, 'f', rate < 10 ? 1 : 0));
    if (lastThroughput_ > 0) parts << tr("%1 samples/s").arg(QLocale().toString(lastThroughput_, 'f', 0));
    eta_->setText(parts.join(QStringLiteral(" · ")));
}

void RunMonitorPage::handleEvent(const QJsonObject &e, bool live) {
    const QString kind = e.value(QStringLiteral("event")).toString();
    if (kind == QLatin1String("metric")) {
        const double sps = e.value(QStringLiteral("samples_per_s")).toDouble();
        if (sps > 0) lastThroughput_ = sps;
        return;
    }
    QString line;
    if (kind == QLatin1String("started")) {
        stepsPerEpoch_ = e.value(QStringLiteral("steps_per_epoch")).toDouble();
        totalSteps_ = e.value(QStringLiteral("steps")).toDouble();
        line =
            tr("started: %1 parameters on %2, %n thread(s), %3 steps", "", e.value(QStringLiteral("threads")).toInt())
                .arg(QLocale().toString(e.value(QStringLiteral("parameters")).toDouble(), 'f', 0),
                     e.value(QStringLiteral("device")).toString(), QLocale().toString(totalSteps_, 'f', 0));
    } else if (kind == QLatin1String("checkpoint")) {
        line = tr("checkpoint at step %1").arg(e.value(QStringLiteral("step")).toInt());
    } else if (kind == QLatin1String("eval")) {
        QVector<QVector<double>> matrix;
        for (const QJsonValue &row : e.value(QStringLiteral("confusion_matrix")).toArray()) {
            QVector<double> r;
            for (const QJsonValue &v : row.toArray())
                r.append(v.toDouble());
            matrix.append(r);
        }
        QStringList names;
        for (const QJsonValue &v : e.value(QStringLiteral("class_names")).toArray())
            names << v.toString();
        if (!matrix.isEmpty()) confusion_->setMatrix(matrix, names);
        line = tr("evaluated at step %1").arg(e.value(QStringLiteral("step")).toInt());
    } else if (kind == QLatin1String("finished")) {
        progress_->setValue(progress_->maximum());
        QStringList metrics;
        const QJsonObject m = e.value(QStringLiteral("metrics")).toObject();
        for (auto it = m.begin(); it != m.end(); ++it)
            metrics << QStringLiteral("%1 = %2").arg(it.key()).arg(it.value().toDouble(), 0, 'g', 5);
        line = tr("finished: %1").arg(metrics.join(QStringLiteral(", ")));
    } else if (kind == QLatin1String("error")) {
        line = tr("error: %1").arg(app::describeEngineError(e));
    } else {
        line = kind + QStringLiteral(": ") + QString::fromUtf8(QJsonDocument(e).toJson(QJsonDocument::Compact));
    }
    const QString time = e.value(QStringLiteral("time")).toString();
    appendLog((time.isEmpty() ? QString() : time.mid(11, 8) + QLatin1Char(' ')) + line);
    Q_UNUSED(live)
}

void RunMonitorPage::appendLog(const QString &line) { log_->appendPlainText(line); }

void RunMonitorPage::setState(app::RunState state) {
    state_ = state;
    const QString text = state == app::RunState::Running && jobPhase_ == QLatin1String("pending")
                             ? tr("queued on the cluster")
                             : stateText(state);
    stateLabel_->setText(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
    const bool active =
        state == app::RunState::Running || state == app::RunState::Queued || state == app::RunState::Resumed;
    stop_->setEnabled(active);
    resume_->setEnabled(state == app::RunState::Failed || state == app::RunState::Cancelled ||
                        state == app::RunState::Preempted);
    publish_->setEnabled(state == app::RunState::Finished);
    if (!active) updateProgress(lastStep_);
}

QString RunMonitorPage::jobText() const { return job_->text(); }

void RunMonitorPage::showJob(const app::ClusterJob &job) {
    QString text = tr("Cluster %1 · job %2 · %3").arg(job.cluster, job.jobId, job.phase);
    if (!job.reason.isEmpty() && job.reason != QLatin1String("None")) text += tr(" (%1)").arg(job.reason);
    if (job.continuation) text += tr(" · continuation");
    job_->setText(text);
    jobPhase_ = job.phase;
    setState(state_);
    job_->setToolTip(tr("Submitted %1, last seen %2").arg(job.submittedAt, job.updatedAt));
    job_->show();
}

} // namespace diamond::ui
