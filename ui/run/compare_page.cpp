#include "ui/run/compare_page.h"

#include "app/run/run_history.h"
#include "app/workspace/workspace.h"
#include "ui/run/curve_chart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QSet>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace diamond::ui {

QColor categoricalColor(int i) {
    static const QColor base[] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
                                  {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    const QColor c = base[i % 10];
    if (i < 10) return c;
    return QColor::fromHsv((c.hue() + 23 * (i / 10)) % 360, c.saturation(),
                           std::max(90, c.value() - 30 * ((i / 10) % 3)));
}

ComparePage::ComparePage(app::Workspace &workspace, QWidget *parent) : QWidget(parent), ws_(workspace) {
    auto *layout = new QVBoxLayout(this);
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Metric:"), this));
    metricBox_ = new QComboBox(this);
    metricBox_->setMinimumContentsLength(12);
    controls->addWidget(metricBox_);
    splitBox_ = new QComboBox(this);
    splitBox_->addItem(tr("validation"), int(app::MetricSplit::Validation));
    splitBox_->addItem(tr("train"), int(app::MetricSplit::Train));
    controls->addWidget(splitBox_);
    logBox_ = new QCheckBox(tr("&Log scale"), this);
    controls->addWidget(logBox_);
    status_ = new QLabel(this);
    controls->addWidget(status_, 1);
    layout->addLayout(controls);
    chart_ = new CurveChart(this);
    chart_->setObjectName(QStringLiteral("compareChart"));
    layout->addWidget(chart_, 1);

    connect(metricBox_, &QComboBox::currentTextChanged, this, [this] { showSeries(); });
    connect(splitBox_, &QComboBox::currentIndexChanged, this, [this] { showSeries(); });
    connect(logBox_, &QCheckBox::toggled, chart_, &CurveChart::setLogY);
}

void ComparePage::setRuns(const QList<qint64> &runIds) {
    runIds_ = runIds;
    histories_.clear();
    loading_ = true;
    const int generation = ++generation_;
    status_->setText(tr("Loading %n run(s)…", "", int(runIds.size())));
    auto *watcher = new QFutureWatcher<QList<app::RunHistory>>(this);
    connect(watcher, &QFutureWatcher<QList<app::RunHistory>>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != generation_) return; // a newer set was requested meanwhile
        const QList<app::RunHistory> result = watcher->result();
        QSet<QString> metrics;
        for (const app::RunHistory &h : result) {
            if (!h.run) continue;
            histories_.insert(h.run->id, h);
            for (const auto &s : h.series)
                metrics.insert(s.first.first);
        }
        QStringList names(metrics.begin(), metrics.end());
        std::sort(names.begin(), names.end());
        const QString previous = metricBox_->currentText();
        {
            const QSignalBlocker block(metricBox_);
            metricBox_->clear();
            metricBox_->addItems(names);
            const int keep = names.indexOf(previous.isEmpty() ? QStringLiteral("loss") : previous);
            metricBox_->setCurrentIndex(keep >= 0 ? keep : 0);
        }
        loading_ = false;
        status_->setText(tr("%n run(s)", "", int(histories_.size())));
        showSeries();
        Q_EMIT loaded();
    });
    const QString folder = ws_.path();
    watcher->setFuture(QtConcurrent::run([folder, runIds] {
        QList<app::RunHistory> out;
        for (qint64 id : runIds)
            out.append(app::loadRunHistory(folder, id));
        return out;
    }));
}

void ComparePage::setMetric(const QString &metric, app::MetricSplit split) {
    splitBox_->setCurrentIndex(split == app::MetricSplit::Validation ? 0 : 1);
    metricBox_->setCurrentText(metric);
    showSeries();
}

void ComparePage::showSeries() {
    chart_->clear();
    const QString metric = metricBox_->currentText();
    const auto split = app::MetricSplit(splitBox_->currentData().toInt());
    chart_->setTitle(metric);
    chart_->setAxisTitles(tr("Step"), metric);
    int i = 0;
    for (qint64 id : std::as_const(runIds_)) {
        const auto it = histories_.constFind(id);
        if (it == histories_.cend() || !it->run) continue;
        const QString key = QString::number(id);
        chart_->addSeries(key, QStringLiteral("%1 #%2").arg(it->run->name).arg(id), categoricalColor(i++));
        for (const auto &s : it->series) {
            if (s.first.first != metric || s.first.second != split) continue;
            QVector<QPointF> pts;
            pts.reserve(s.second.size());
            for (const app::MetricPoint &p : s.second)
                pts.append(QPointF(double(p.step), p.value));
            chart_->replacePoints(key, std::move(pts));
        }
    }
}

} // namespace diamond::ui
