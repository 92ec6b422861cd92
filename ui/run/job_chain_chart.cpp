#include "ui/run/job_chain_chart.h"

#include <QJsonArray>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace diamond::ui {

namespace {

constexpr int kRowHeight = 18, kRowGap = 4, kAxisHeight = 18, kLabelWidth = 64;

/// "90 s", "12 min", "3.5 h", "2.1 d": the axis and the tooltip.
QString shortDuration(double seconds) {
    if (seconds < 120) return JobChainChart::tr("%1 s").arg(std::lround(seconds));
    if (seconds < 7200) return JobChainChart::tr("%1 min").arg(std::lround(seconds / 60));
    if (seconds < 172800) return JobChainChart::tr("%1 h").arg(seconds / 3600, 0, 'f', 1);
    return JobChainChart::tr("%1 d").arg(seconds / 86400, 0, 'f', 1);
}

/// A tick step of 1, 2 or 5 × 10^k seconds-or-minutes-or-hours giving about 4–8 ticks over `total`.
double tickStep(double total) {
    static const double steps[] = {1,     2,     5,      10,     15,     30,      60,     120,
                                   300,   600,   900,    1800,   3600,   7200,    10800,  21600,
                                   43200, 86400, 172800, 432000, 864000, 1728000, 4320000};
    for (double s : steps)
        if (total / s <= 8) return s;
    return total / 6;
}

} // namespace

JobChainChart::JobChainChart(QWidget *parent) : QWidget(parent) {
    setObjectName(QStringLiteral("jobChainChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void JobChainChart::setPlan(const QJsonObject &plan) {
    bars_.clear();
    total_ = 0;
    const QJsonObject chain = plan.value(QStringLiteral("chain")).toObject();
    const int jobs = std::max(1, plan.value(QStringLiteral("jobs")).toInt(1));
    const double steps = plan.value(QStringLiteral("steps")).toDouble();
    const double stepsPerJob = chain.value(QStringLiteral("steps_per_job")).toDouble();
    const double startup = chain.value(QStringLiteral("startup_s")).toDouble();
    const double predicted = chain.value(QStringLiteral("predicted_s")).toDouble();
    const bool local = plan.value(QStringLiteral("target")).toString() == QLatin1String("local");
    const double limit = local ? 0.0 : chain.value(QStringLiteral("time_limit_s")).toDouble();
    const double checkpoint = chain.value(QStringLiteral("checkpoint_s")).toDouble();
    if (plan.isEmpty() || steps <= 0 || predicted <= 0) {
        updateGeometry();
        update();
        return;
    }
    // The predicted time without the start-ups is shared in proportion to each job's steps.
    const double working = std::max(0.0, predicted - startup * jobs);
    double remaining = steps, at = 0;
    QList<Bar> all;
    for (int j = 0; j < jobs; ++j) {
        const double mine = j + 1 < jobs && stepsPerJob > 0 ? std::min(stepsPerJob, remaining) : remaining;
        remaining -= mine;
        Bar bar;
        bar.start = at;
        bar.startup = startup;
        bar.checkpoint = j + 1 < jobs ? std::min(checkpoint, working * mine / steps) : 0;
        bar.compute = std::max(0.0, working * mine / steps - bar.checkpoint);
        bar.limit = limit;
        bar.label = tr("Job %1").arg(j + 1);
        all.append(bar);
        at += startup + bar.compute + bar.checkpoint;
    }
    total_ = std::max(at, limit > 0 ? all.last().start + limit : at);
    if (all.size() > kMaxRows) {
        // The last row: jobs kMaxRows … N as one span.
        Bar rest = all.at(kMaxRows - 1);
        const Bar &last = all.last();
        rest.compute = last.start + last.startup + last.compute + last.checkpoint - rest.start - rest.startup;
        rest.checkpoint = 0;
        rest.limit = 0;
        rest.label = tr("Jobs %1–%2").arg(kMaxRows).arg(all.size());
        all = all.mid(0, kMaxRows - 1);
        all.append(rest);
    }
    bars_ = all;
    QStringList tip;
    tip << tr("%n job(s), about %1 in all (queue waits not included)", "", jobs).arg(shortDuration(predicted));
    if (limit > 0) tip << tr("time limit per job: %1").arg(shortDuration(limit));
    setToolTip(tip.join(QLatin1Char('\n')));
    updateGeometry();
    update();
}

QSize JobChainChart::sizeHint() const {
    const int rows = std::max<int>(1, static_cast<int>(bars_.size()));
    return {360, rows * (kRowHeight + kRowGap) + kAxisHeight + 4};
}

QSize JobChainChart::minimumSizeHint() const { return {200, sizeHint().height()}; }

void JobChainChart::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    if (bars_.isEmpty() || total_ <= 0) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No job plan yet"));
        return;
    }
    const double left = kLabelWidth, right = width() - 8;
    const double scale = (right - left) / total_;
    const auto x = [&](double seconds) { return left + seconds * scale; };
    const QColor startupColor = pal.color(QPalette::Mid), computeColor = pal.color(QPalette::Highlight),
                 checkpointColor(0xe6, 0x7e, 0x22);
    for (int row = 0; row < bars_.size(); ++row) {
        const Bar &bar = bars_.at(row);
        const double top = 2 + row * (kRowHeight + kRowGap);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRectF(0, top, kLabelWidth - 6, kRowHeight), Qt::AlignRight | Qt::AlignVCenter, bar.label);
        p.setPen(Qt::NoPen);
        double at = bar.start;
        for (const auto &[seconds, color] : {std::pair{bar.startup, startupColor}, std::pair{bar.compute, computeColor},
                                             std::pair{bar.checkpoint, checkpointColor}}) {
            if (seconds <= 0) continue;
            p.setBrush(color);
            p.drawRect(QRectF(x(at), top + 3, std::max(1.0, seconds * scale), kRowHeight - 6));
            at += seconds;
        }
        if (bar.limit > 0) {
            QPen dashed(pal.color(QPalette::WindowText), 1, Qt::DashLine);
            p.setPen(dashed);
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRectF(x(bar.start), top + 0.5, bar.limit * scale, kRowHeight - 1));
        }
    }
    // Time axis.
    const double axisTop = 2 + bars_.size() * (kRowHeight + kRowGap);
    p.setPen(pal.color(QPalette::WindowText));
    p.drawLine(QPointF(left, axisTop), QPointF(right, axisTop));
    const double step = tickStep(total_);
    const QFontMetrics fm(font());
    double lastTextEnd = -1e9;
    for (double t = 0; t <= total_ * 1.0001; t += step) {
        p.drawLine(QPointF(x(t), axisTop), QPointF(x(t), axisTop + 3));
        const QString text = shortDuration(t);
        const double w = fm.horizontalAdvance(text);
        const double cx = std::clamp(x(t) - w / 2, 0.0, width() - w);
        if (cx < lastTextEnd + 6) continue;
        p.drawText(QPointF(cx, axisTop + 3 + fm.ascent()), text);
        lastTextEnd = cx + w;
    }
}

} // namespace diamond::ui
