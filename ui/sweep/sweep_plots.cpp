#include "ui/sweep/sweep_plots.h"

#include "ui/sweep/sweep_trials_model.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace diamond::ui::sweep {

namespace {

const QColor kAxis(0x9e, 0x9e, 0x9e);
const QColor kText(0x42, 0x42, 0x42);
const QColor kGrid(0xee, 0xee, 0xee);

double distanceToSegment(const QPointF &p, const QPointF &a, const QPointF &b) {
    const QPointF d = b - a;
    const double len2 = d.x() * d.x() + d.y() * d.y();
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / len2, 0.0, 1.0) : 0.0;
    const QPointF q = a + t * d;
    return std::hypot(p.x() - q.x(), p.y() - q.y());
}

void drawTitle(QPainter &p, const QRect &r, const QString &title) {
    QFont f = p.font();
    f.setBold(true);
    p.setFont(f);
    p.setPen(kText);
    p.drawText(r.adjusted(8, 4, -8, 0), Qt::AlignLeft | Qt::AlignTop, title);
    f.setBold(false);
    p.setFont(f);
}

/// Text of a model-space position on a parameter's axis.
QString axisValue(const app::sweep::SearchParameter &param, double model) {
    return SweepTrialsModel::valueText(param.fromModel(model));
}

} // namespace

QColor objectiveColor(double t) {
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x90, 0x8d),
                                   QColor(0x5d, 0xc8, 0x63), QColor(0xfd, 0xe7, 0x25)};
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(t));
    const double f = t - i;
    const QColor &a = stops[i], &b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())),
                            float(a.greenF() + f * (b.greenF() - a.greenF())),
                            float(a.blueF() + f * (b.blueF() - a.blueF())));
}

// --- ParallelCoordinatesPlot ---

ParallelCoordinatesPlot::ParallelCoordinatesPlot(QWidget *parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::PointingHandCursor);
}

void ParallelCoordinatesPlot::setData(const app::sweep::SearchSpace &space, const QList<PlotTrial> &trials,
                                      const QString &objectiveName, bool maximize, int bestTrial) {
    space_ = space;
    trials_ = trials;
    objectiveName_ = objectiveName;
    maximize_ = maximize;
    best_ = bestTrial;
    bool any = false;
    for (const PlotTrial &t : trials_) {
        if (!t.objective) continue;
        objLow_ = any ? std::min(objLow_, *t.objective) : *t.objective;
        objHigh_ = any ? std::max(objHigh_, *t.objective) : *t.objective;
        any = true;
    }
    if (!any) objLow_ = 0, objHigh_ = 1;
    if (objHigh_ - objLow_ < 1e-12) objLow_ -= 0.5, objHigh_ += 0.5;
    // Draw the best lines last (on top): worst first.
    std::stable_sort(trials_.begin(), trials_.end(), [this](const PlotTrial &a, const PlotTrial &b) {
        if (a.objective.has_value() != b.objective.has_value()) return !a.objective.has_value();
        if (!a.objective) return false;
        return maximize_ ? *a.objective < *b.objective : *a.objective > *b.objective;
    });
    update();
}

QList<double> ParallelCoordinatesPlot::normalised(int index) const {
    QList<double> out;
    const auto it =
        std::find_if(trials_.cbegin(), trials_.cend(), [index](const PlotTrial &t) { return t.index == index; });
    if (it == trials_.cend()) return out;
    for (const app::sweep::SearchParameter &p : space_.parameters()) {
        const QJsonValue v = it->params.value(p.name);
        if (v.isUndefined()) {
            out.append(qQNaN());
            continue;
        }
        const double lo = p.modelLow(), hi = p.modelHigh();
        out.append(hi > lo ? std::clamp((p.toModel(v) - lo) / (hi - lo), 0.0, 1.0) : 0.5);
    }
    out.append(it->objective ? (*it->objective - objLow_) / (objHigh_ - objLow_) : qQNaN());
    return out;
}

QRectF ParallelCoordinatesPlot::plotRect() const { return QRectF(rect()).adjusted(64, 66, -140, -30); }

QList<QPointF> ParallelCoordinatesPlot::polyline(const PlotTrial &trial, const QRectF &area) const {
    QList<QPointF> pts;
    const QList<double> n = normalised(trial.index);
    const int axes = axisCount();
    for (int i = 0; i < n.size(); ++i) {
        if (std::isnan(n.at(i))) continue;
        const double x = area.left() + (axes > 1 ? area.width() * i / (axes - 1) : area.width() / 2);
        pts.append(QPointF(x, area.bottom() - n.at(i) * area.height()));
    }
    return pts;
}

void ParallelCoordinatesPlot::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    drawTitle(p, rect(), tr("Parallel coordinates"));
    const QRectF area = plotRect();
    const int axes = axisCount();
    const QFontMetrics fm(font());
    // lines
    for (const PlotTrial &t : trials_) {
        const QList<QPointF> pts = polyline(t, area);
        if (pts.size() < 2) continue;
        QPen pen;
        if (t.objective) {
            const double u = (*t.objective - objLow_) / (objHigh_ - objLow_);
            QColor c = objectiveColor(maximize_ ? u : 1.0 - u);
            c.setAlphaF(t.index == best_ ? 1.0f : 0.75f);
            pen = QPen(c, t.index == best_ ? 3.2 : 1.4);
        } else {
            pen = QPen(QColor(0xbd, 0xbd, 0xbd), 1.0, Qt::DashLine);
        }
        if (t.index == best_) {
            p.setPen(QPen(QColor(0, 0, 0, 90), 5.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            p.drawPolyline(pts.constData(), int(pts.size()));
        }
        pen.setJoinStyle(Qt::RoundJoin);
        p.setPen(pen);
        p.drawPolyline(pts.constData(), int(pts.size()));
    }
    // axes, names and tick labels
    for (int i = 0; i < axes; ++i) {
        const double x = area.left() + (axes > 1 ? area.width() * i / (axes - 1) : area.width() / 2);
        p.setPen(QPen(kAxis, 1.2));
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        const bool objective = i == axes - 1;
        QString name, lowText, highText, scale;
        QStringList choices;
        if (objective) {
            name = objectiveName_;
            lowText = QString::number(objLow_, 'g', 4);
            highText = QString::number(objHigh_, 'g', 4);
        } else {
            const app::sweep::SearchParameter &param = space_.parameters().at(i);
            name = param.name;
            if (param.kind == app::sweep::ParamKind::Choice) {
                for (const QJsonValue &v : param.values)
                    choices.append(SweepTrialsModel::valueText(v));
            } else {
                lowText = axisValue(param, param.modelLow());
                highText = axisValue(param, param.modelHigh());
                if (param.isLogScale()) scale = tr("log");
            }
        }
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(kText);
        const QRectF nameRect(x - 80, area.top() - 30, 160, 16);
        const QString shown = scale.isEmpty() ? name : tr("%1 (%2)").arg(name, scale);
        p.drawText(nameRect, Qt::AlignCenter, fm.elidedText(shown, Qt::ElideMiddle, 150));
        p.setFont(font());
        p.setPen(QColor(0x75, 0x75, 0x75));
        const auto label = [&](double y, const QString &text) {
            const QRectF r(x + 4, y - 8, 70, 16);
            const QRectF bg = QRectF(r.topLeft(), QSizeF(fm.horizontalAdvance(text) + 6, 16));
            p.fillRect(bg, QColor(255, 255, 255, 210));
            p.drawText(r.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
            p.drawLine(QPointF(x - 3, y), QPointF(x + 3, y));
        };
        if (!choices.isEmpty()) {
            for (int k = 0; k < choices.size(); ++k) {
                const double u = choices.size() > 1 ? double(k) / (choices.size() - 1) : 0.5;
                label(area.bottom() - u * area.height(), choices.at(k));
            }
        } else {
            label(area.bottom(), lowText);
            label(area.top(), highText);
        }
    }
    // colour legend
    const QRectF legend(area.right() + 96, area.top(), 10, area.height());
    QLinearGradient g(legend.bottomLeft(), legend.topLeft());
    for (int k = 0; k <= 4; ++k)
        g.setColorAt(k / 4.0, objectiveColor(k / 4.0));
    p.fillRect(legend, g);
    p.setPen(QColor(0x75, 0x75, 0x75));
    p.drawText(QRectF(legend.left() - 25, legend.bottom() + 4, 60, 14), Qt::AlignCenter, tr("worse"));
    p.drawText(QRectF(legend.left() - 25, legend.top() - 18, 60, 14), Qt::AlignCenter, tr("better"));
    if (trials_.isEmpty()) {
        p.setPen(kText);
        p.drawText(area, Qt::AlignCenter, tr("No trials yet"));
    }
}

void ParallelCoordinatesPlot::mousePressEvent(QMouseEvent *event) {
    const QRectF area = plotRect();
    double bestDistance = 6.0;
    int hit = -1;
    for (const PlotTrial &t : trials_) {
        const QList<QPointF> pts = polyline(t, area);
        for (int i = 1; i < pts.size(); ++i) {
            const double d = distanceToSegment(event->position(), pts.at(i - 1), pts.at(i));
            if (d < bestDistance) bestDistance = d, hit = t.index;
        }
    }
    if (hit >= 0) Q_EMIT trialClicked(hit);
}

// --- ObjectiveScatterPlot ---

ObjectiveScatterPlot::ObjectiveScatterPlot(QWidget *parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::PointingHandCursor);
}

void ObjectiveScatterPlot::setData(const QList<PlotTrial> &trials, const QString &objectiveName, bool maximize) {
    objectiveName_ = objectiveName;
    maximize_ = maximize;
    points_.clear();
    best_.clear();
    QList<PlotTrial> sorted = trials;
    std::sort(sorted.begin(), sorted.end(), [](const PlotTrial &a, const PlotTrial &b) { return a.index < b.index; });
    xMax_ = 1;
    for (const PlotTrial &t : sorted) {
        xMax_ = std::max(xMax_, double(t.index) + 1);
        if (!t.objective || !std::isfinite(*t.objective)) continue;
        const QPointF pt(t.index, *t.objective);
        points_.append(pt);
        const double run = best_.isEmpty() ? pt.y()
                           : maximize      ? std::max(best_.last().y(), pt.y())
                                           : std::min(best_.last().y(), pt.y());
        best_.append(QPointF(t.index, run));
    }
    yLow_ = 0, yHigh_ = 1;
    for (int i = 0; i < points_.size(); ++i) {
        yLow_ = i == 0 ? points_.at(i).y() : std::min(yLow_, points_.at(i).y());
        yHigh_ = i == 0 ? points_.at(i).y() : std::max(yHigh_, points_.at(i).y());
    }
    const double pad = std::max(1e-9, (yHigh_ - yLow_) * 0.08);
    yLow_ -= pad, yHigh_ += pad;
    update();
}

QRectF ObjectiveScatterPlot::plotRect() const { return QRectF(rect()).adjusted(64, 48, -20, -40); }

QPointF ObjectiveScatterPlot::toPixel(const QPointF &v, const QRectF &a) const {
    return {a.left() + (v.x() + 0.5) / (xMax_ + 0.5) * a.width(),
            a.bottom() - (v.y() - yLow_) / (yHigh_ - yLow_) * a.height()};
}

void ObjectiveScatterPlot::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    drawTitle(p, rect(), tr("%1 by trial").arg(objectiveName_));
    const QRectF a = plotRect();
    // grid and y ticks
    p.setPen(QPen(kGrid, 1));
    for (int k = 0; k <= 4; ++k) {
        const double y = a.bottom() - a.height() * k / 4;
        p.setPen(QPen(kGrid, 1));
        p.drawLine(QPointF(a.left(), y), QPointF(a.right(), y));
        p.setPen(QColor(0x75, 0x75, 0x75));
        p.drawText(QRectF(0, y - 8, a.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(yLow_ + (yHigh_ - yLow_) * k / 4, 'g', 4));
    }
    const int step = std::max(1, int(std::ceil(xMax_ / 10)));
    for (int x = 0; x < xMax_; x += step)
        p.drawText(QRectF(toPixel({double(x), yLow_}, a).x() - 20, a.bottom() + 4, 40, 14), Qt::AlignCenter,
                   QString::number(x));
    p.drawText(QRectF(a.left(), a.bottom() + 18, a.width(), 14), Qt::AlignCenter, tr("trial"));
    p.setPen(QPen(kAxis, 1));
    p.drawLine(a.bottomLeft(), a.bottomRight());
    p.drawLine(a.bottomLeft(), a.topLeft());
    // best so far (step line)
    if (!best_.isEmpty()) {
        QPainterPath path(toPixel(best_.first(), a));
        for (int i = 1; i < best_.size(); ++i) {
            path.lineTo(toPixel(QPointF(best_.at(i).x(), best_.at(i - 1).y()), a));
            path.lineTo(toPixel(best_.at(i), a));
        }
        path.lineTo(QPointF(a.right(), toPixel(best_.last(), a).y()));
        p.setPen(QPen(QColor(0xe6, 0x51, 0x00), 2.0));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    }
    // points, coloured like the parallel coordinates
    for (const QPointF &pt : points_) {
        const double u = (pt.y() - yLow_) / (yHigh_ - yLow_);
        p.setPen(QPen(QColor(255, 255, 255), 1.0));
        p.setBrush(objectiveColor(maximize_ ? u : 1.0 - u));
        p.drawEllipse(toPixel(pt, a), 4.5, 4.5);
    }
    // legend
    const QRectF lg(a.right() - 110, 6, 110, 16);
    p.setPen(QPen(QColor(0xe6, 0x51, 0x00), 2.0));
    p.drawLine(QPointF(lg.left(), lg.center().y()), QPointF(lg.left() + 18, lg.center().y()));
    p.setPen(kText);
    p.drawText(lg.adjusted(24, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, tr("best so far"));
    if (points_.isEmpty()) p.drawText(a, Qt::AlignCenter, tr("No results yet"));
}

void ObjectiveScatterPlot::mousePressEvent(QMouseEvent *event) {
    const QRectF a = plotRect();
    for (const QPointF &pt : points_) {
        const QPointF px = toPixel(pt, a);
        if (std::hypot(px.x() - event->position().x(), px.y() - event->position().y()) <= 7) {
            Q_EMIT trialClicked(int(pt.x()));
            return;
        }
    }
}

// --- ImportanceBars ---

ImportanceBars::ImportanceBars(QWidget *parent) : QWidget(parent) { setAttribute(Qt::WA_OpaquePaintEvent); }

void ImportanceBars::setImportance(const QList<ParameterImportance> &importance, int trials) {
    importance_ = importance;
    trials_ = trials;
    update();
}

void ImportanceBars::paintEvent(QPaintEvent *) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    drawTitle(p, rect(), tr("Parameter importance (η²)"));
    p.setPen(QColor(0x75, 0x75, 0x75));
    p.drawText(QRectF(rect()).adjusted(8, 4, -8, -6), Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap,
               tr("Share of the objective's variance explained by each parameter's binned means; %n finished "
                  "trial(s).",
                  nullptr, trials_));
    const QFontMetrics fm(font());
    int labelWidth = 60;
    for (const ParameterImportance &imp : importance_)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(imp.name) + 16);
    const QRectF area = QRectF(rect()).adjusted(labelWidth, 30, -52, -44);
    const double rowH = importance_.isEmpty() ? 0 : std::min(28.0, area.height() / importance_.size());
    QList<ParameterImportance> sorted = importance_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const ParameterImportance &a, const ParameterImportance &b) {
        return a.importance > b.importance;
    });
    for (int i = 0; i < sorted.size(); ++i) {
        const ParameterImportance &imp = sorted.at(i);
        const double y = area.top() + i * rowH;
        p.setPen(kText);
        p.drawText(QRectF(8, y, labelWidth - 16, rowH), Qt::AlignRight | Qt::AlignVCenter, imp.name);
        const QRectF track(area.left(), y + rowH * 0.2, area.width(), rowH * 0.6);
        p.fillRect(track, QColor(0xf2, 0xf2, 0xf2));
        p.fillRect(QRectF(track.topLeft(), QSizeF(track.width() * imp.importance, track.height())),
                   QColor(0x3b, 0x52, 0x8b));
        p.drawText(QRectF(area.right() + 6, y, 46, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(imp.importance, 'f', 2));
    }
    if (importance_.isEmpty() || trials_ < 4) {
        p.setPen(QColor(0x75, 0x75, 0x75));
        p.drawText(QRectF(rect()).adjusted(8, 24, -8, 0), Qt::AlignCenter, tr("Needs at least 4 finished trials"));
    }
}

} // namespace diamond::ui::sweep
