#include "ui/run/curve_chart.h"

#include "ui/presenter_mode.h"
#include "ui/run/curve_math.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QGraphicsItem>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>

#include <cmath>
#include <limits>
#include <vector>

namespace diamond::ui {

namespace {

/// Points [begin, end) of a polyline in data coordinates: either a min/max-decimated copy or, when the visible
/// part is small enough, the series' own (implicitly shared, not copied) points.
struct CurveSlice {
    QVector<QPointF> points;
    qsizetype begin = 0, end = 0;
    qsizetype size() const { return end - begin; }
    bool isEmpty() const { return end <= begin; }
};

/// The visible part of `points` for a plot `columns` pixels wide: shared when it has at most 8 points per column,
/// else decimated to at most 4 per column. One point beyond each side is kept so lines reach the edges.
CurveSlice visibleSlice(const QVector<QPointF> &points, double xLo, double xHi, int columns) {
    const qsizetype first = std::max<qsizetype>(0, lowerBoundX(points, xLo) - 1);
    qsizetype last = lowerBoundX(points, xHi);
    while (last < points.size() && points[last].x() <= xHi)
        ++last;
    last = std::min<qsizetype>(points.size(), last + 1);
    if (last - first > 8 * qsizetype(columns)) {
        CurveSlice slice{decimateMinMax(points, xLo, xHi, columns), 0, 0};
        slice.end = slice.points.size();
        return slice;
    }
    return {points, first, std::max(first, last)};
}

/// The polylines of one frame.
struct FrameCurve {
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    CurveSlice raw;      ///< drawn faint when smoothed is not empty
    CurveSlice smoothed; ///< empty when smoothing is off
};

/// Above this many points per frame, curves are rasterised by rasterizePolyline() instead of QPainter.
constexpr qsizetype kDenseFramePoints = 60000;

/// Source-over blend of `color` into one premultiplied ARGB pixel.
inline void blendPixel(QRgb *pixel, QRgb premultipliedColor, uint alpha) {
    if (alpha == 255) {
        *pixel = premultipliedColor;
        return;
    }
    const uint inverse = 255 - alpha;
    const QRgb d = *pixel;
    auto channel = [&](int shift) {
        return ((((d >> shift) & 0xff) * inverse + 127) / 255 + ((premultipliedColor >> shift) & 0xff)) & 0xff;
    };
    *pixel = (channel(24) << 24) | (channel(16) << 16) | (channel(8) << 8) | channel(0);
}

/// A 1 px polyline without antialiasing, drawn as one vertical span per pixel column: each column gets the y range
/// the line covers inside it. Cost is O(points + columns), independent of how many points share a column, which
/// is what makes 100 overlaid runs cheap. Coordinates in device pixels; clipped to the image.
void rasterizePolyline(QImage &image, const QPolygonF &poly, const QColor &color) {
    if (poly.size() < 2) return;
    const int w = image.width(), h = image.height();
    if (w <= 0 || h <= 0) return;
    thread_local std::vector<float> lo, hi;
    lo.assign(size_t(w), std::numeric_limits<float>::infinity());
    hi.assign(size_t(w), -std::numeric_limits<float>::infinity());
    auto extend = [&](int col, double a, double b) {
        if (col < 0 || col >= w) return;
        lo[size_t(col)] = std::min(lo[size_t(col)], float(std::min(a, b)));
        hi[size_t(col)] = std::max(hi[size_t(col)], float(std::max(a, b)));
    };
    for (qsizetype i = 1; i < poly.size(); ++i) {
        QPointF p = poly[i - 1], q = poly[i];
        if (p.x() > q.x()) std::swap(p, q);
        if (q.x() < 0 || p.x() >= w) continue;
        const int c0 = int(std::floor(p.x())), c1 = int(std::floor(q.x()));
        if (c0 == c1) {
            extend(c0, p.y(), q.y());
            continue;
        }
        const double slope = (q.y() - p.y()) / (q.x() - p.x());
        extend(c0, p.y(), p.y() + slope * (c0 + 1 - p.x()));
        const int first = std::max(c0 + 1, 0), last = std::min(c1 - 1, w - 1);
        for (int col = first; col <= last; ++col) {
            const double ya = p.y() + slope * (col - p.x());
            extend(col, ya, ya + slope);
        }
        extend(c1, q.y() - slope * (q.x() - c1), q.y());
    }
    const QRgb c = qPremultiply(color.rgba());
    const uint alpha = uint(color.alpha());
    const qsizetype stride = image.bytesPerLine() / 4;
    QRgb *bits = reinterpret_cast<QRgb *>(image.bits());
    for (int col = 0; col < w; ++col) {
        if (!(lo[size_t(col)] <= hi[size_t(col)])) continue;
        const int y0 = std::max(0, int(std::floor(lo[size_t(col)]))),
                  y1 = std::min(h - 1, int(std::floor(hi[size_t(col)])));
        for (int y = y0; y <= y1; ++y)
            blendPixel(bits + y * stride + col, c, alpha);
    }
}

} // namespace

/// Draws every curve of a frame inside the chart's plot area with 1 px pens (wide pens are slow).
class CurveLayer : public QGraphicsItem {
public:
    explicit CurveLayer(QChart *chart) : QGraphicsItem(chart), chart_(chart) { setZValue(10); }
    QRectF boundingRect() const override { return chart_->plotArea(); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override {
        const QRectF area = chart_->plotArea();
        if (area.width() <= 1 || area.height() <= 1) return;
        painter->save();
        painter->setClipRect(area);
        qsizetype drawn = 0;
        for (const FrameCurve &c : curves)
            drawn += c.raw.size() + c.smoothed.size();
        const bool dense = drawn >= kDenseFramePoints;
        // Dense frames (many runs overlaid) are rasterised by hand into one image: 1 px lines without
        // antialiasing, which costs a few ns per pixel instead of QPainter's per-segment setup.
        QImage raster;
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        if (dense) {
            raster = QImage((area.size() * dpr).toSize(), QImage::Format_ARGB32_Premultiplied);
            raster.fill(Qt::transparent);
        } else {
            painter->setRenderHint(QPainter::Antialiasing, true);
        }
        const double xs = area.width() / (xHi - xLo);
        const bool log = logY;
        const double ylo = log ? std::log10(yLo) : yLo, yhi = log ? std::log10(yHi) : yHi;
        const double ys = area.height() / (yhi - ylo);
        QPolygonF poly;
        auto draw = [&](const CurveSlice &slice, const QColor &color, Qt::PenStyle style) {
            poly.clear();
            poly.reserve(slice.size());
            const QPointF *begin = slice.points.constData() + slice.begin, *end = slice.points.constData() + slice.end;
            const QPointF origin = dense ? QPointF(0, 0) : area.topLeft();
            const double scale = dense ? dpr : 1.0;
            for (const QPointF *it = begin; it != end; ++it) {
                const QPointF &p = *it;
                double y = p.y();
                if (log) {
                    if (!(y > 0)) continue;
                    y = std::log10(y);
                }
                if (!std::isfinite(y)) continue;
                poly.append(QPointF(origin.x() + (p.x() - xLo) * xs * scale,
                                    origin.y() + (area.height() - (y - ylo) * ys) * scale));
            }
            if (dense) {
                rasterizePolyline(raster, poly, color);
                return;
            }
            QPen pen(color, PresenterMode::curveLineWidth(), style);
            pen.setCosmetic(true);
            painter->setPen(pen);
            painter->drawPolyline(poly);
        };
        for (const FrameCurve &c : curves) {
            if (c.smoothed.isEmpty()) {
                draw(c.raw, c.color, c.style);
            } else {
                QColor faint = c.color;
                faint.setAlpha(70);
                draw(c.raw, faint, c.style);
                draw(c.smoothed, c.color, c.style);
            }
        }
        if (dense) {
            raster.setDevicePixelRatio(dpr);
            painter->drawImage(area.topLeft(), raster);
        }
        painter->restore();
    }
    void refresh() {
        prepareGeometryChange();
        update();
    }

    QVector<FrameCurve> curves;
    double xLo = 0, xHi = 1, yLo = 0, yHi = 1;
    bool logY = false;

private:
    QChart *chart_;
};

/// The chart view: axes, grid and title from QtCharts; curves from CurveLayer; wheel zoom and drag pan on x.
class CurveChartCanvas : public QChartView {
public:
    CurveChartCanvas(CurveChart *owner) : owner_(owner) {
        chart_ = new QChart;
        chart_->legend()->hide();
        chart_->setMargins(QMargins(4, 4, 8, 4));
        chart_->setBackgroundRoundness(0);
        setChart(chart_);
        setRenderHint(QPainter::Antialiasing);
        x_ = new QValueAxis;
        x_->setLabelFormat(QStringLiteral("%g"));
        chart_->addAxis(x_, Qt::AlignBottom);
        setLogAxis(false);
        layer_ = new CurveLayer(chart_);
        note_ = new QGraphicsSimpleTextItem(chart_);
        note_->setZValue(11);
        applyPalette();
        connect(chart_, &QChart::plotAreaChanged, this, [this](const QRectF &) { placeNote(); });
        setMinimumSize(260, 180);
    }

    void setLogAxis(bool log) {
        if (y_) {
            chart_->removeAxis(y_);
            delete y_;
        }
        if (log) {
            auto *axis = new QLogValueAxis;
            axis->setLabelFormat(QStringLiteral("%g"));
            axis->setBase(10);
            axis->setMinorTickCount(-1);
            y_ = axis;
        } else {
            auto *axis = new QValueAxis;
            axis->setLabelFormat(QStringLiteral("%g"));
            y_ = axis;
        }
        chart_->addAxis(y_, Qt::AlignLeft);
        applyPalette();
    }

    void applyPalette() {
        const QPalette pal = palette();
        chart_->setBackgroundBrush(pal.color(QPalette::Base));
        chart_->setTitleBrush(pal.color(QPalette::Text));
        for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(x_), y_}) {
            if (!axis) continue;
            axis->setLabelsBrush(pal.color(QPalette::Text));
            axis->setTitleBrush(pal.color(QPalette::Text));
            QColor grid = pal.color(QPalette::Text);
            grid.setAlpha(40);
            axis->setGridLineColor(grid);
            axis->setLinePenColor(grid);
        }
        if (note_) note_->setBrush(pal.color(QPalette::PlaceholderText));
        // QtCharts takes its fonts from its theme, not from the widget: follow the application's font so that
        // presenter mode (and a user's larger font) reaches the axes.
        QFont labels = font();
        QFont title = font();
        title.setBold(true);
        chart_->setTitleFont(title);
        // Presenting, the axis titles give their room to the plot: the chart's title names the metric and the
        // page's X axis box the x axis.
        const bool presenting = PresenterMode::anyPresenting();
        for (QAbstractAxis *axis : {static_cast<QAbstractAxis *>(x_), y_}) {
            if (!axis) continue;
            axis->setLabelsFont(labels);
            axis->setTitleFont(labels);
            axis->setTitleVisible(!presenting);
        }
        if (note_) {
            QFont small = font();
            if (small.pointSizeF() > 0) small.setPointSizeF(small.pointSizeF() * 0.85);
            note_->setFont(small);
            placeNote();
        }
        if (layer_) layer_->refresh();
    }

    void placeNote() {
        const QRectF area = chart_->plotArea();
        // A note wider than 60 % of the plot would cover the curves (small charts, presenter mode): left out.
        note_->setVisible(!note_->text().isEmpty() && note_->boundingRect().width() <= 0.6 * area.width());
        note_->setPos(area.right() - note_->boundingRect().width() - 4,
                      area.bottom() - note_->boundingRect().height() - 2);
        layer_->refresh();
    }

    QChart *chart_ = nullptr;
    QValueAxis *x_ = nullptr;
    QAbstractAxis *y_ = nullptr;
    CurveLayer *layer_ = nullptr;
    QGraphicsSimpleTextItem *note_ = nullptr;

protected:
    void wheelEvent(QWheelEvent *event) override {
        const QRectF area = chart_->plotArea();
        const double fraction = std::clamp((event->position().x() - area.left()) / area.width(), 0.0, 1.0);
        const QPointF range = owner_->xRange();
        const double anchor = range.x() + fraction * (range.y() - range.x());
        const double factor = event->angleDelta().y() > 0 ? 0.8 : 1.25;
        owner_->setXRange(anchor - (anchor - range.x()) * factor, anchor + (range.y() - anchor) * factor);
        event->accept();
    }
    void mousePressEvent(QMouseEvent *event) override {
        if (event->button() == Qt::LeftButton) {
            dragging_ = true;
            dragStart_ = event->position();
            dragRange_ = owner_->xRange();
            setCursor(Qt::ClosedHandCursor);
            event->accept();
            return;
        }
        QChartView::mousePressEvent(event);
    }
    void mouseMoveEvent(QMouseEvent *event) override {
        if (!dragging_) return QChartView::mouseMoveEvent(event);
        const double perPixel = (dragRange_.y() - dragRange_.x()) / std::max(1.0, chart_->plotArea().width());
        const double shift = -(event->position().x() - dragStart_.x()) * perPixel;
        owner_->setXRange(dragRange_.x() + shift, dragRange_.y() + shift);
    }
    void mouseReleaseEvent(QMouseEvent *event) override {
        dragging_ = false;
        unsetCursor();
        QChartView::mouseReleaseEvent(event);
    }
    void mouseDoubleClickEvent(QMouseEvent *) override { owner_->resetView(); }
    void changeEvent(QEvent *event) override {
        if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) applyPalette();
        QChartView::changeEvent(event);
    }

private:
    CurveChart *owner_;
    bool dragging_ = false;
    QPointF dragStart_, dragRange_;
};

/// A row of check boxes, one per series, in the series' colours; unchecking hides the series.
class CurveLegend : public QWidget {
public:
    explicit CurveLegend(CurveChart *chart) : QWidget(chart), chart_(chart) {
        layout_ = new QHBoxLayout(this);
        layout_->setContentsMargins(8, 0, 8, 2);
        layout_->addStretch();
    }
    void rebuild(const QStringList &keys, const std::function<QPair<QString, QColor>(const QString &)> &info) {
        for (QCheckBox *box : std::as_const(boxes_))
            delete box;
        boxes_.clear();
        for (const QString &key : keys) {
            const auto [label, color] = info(key);
            auto *box = new QCheckBox(label, this);
            box->setChecked(chart_->isSeriesVisible(key));
            box->setObjectName(QStringLiteral("legend:") + key);
            QPixmap swatch(14, 14);
            swatch.fill(color);
            box->setIcon(QIcon(swatch));
            connect(box, &QCheckBox::toggled, chart_, [this, key](bool on) { chart_->setSeriesVisible(key, on); });
            layout_->insertWidget(layout_->count() - 1, box);
            boxes_.append(box);
        }
    }

private:
    CurveChart *chart_;
    QHBoxLayout *layout_;
    QList<QCheckBox *> boxes_;
};

CurveChart::CurveChart(QWidget *parent) : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    canvas_ = new CurveChartCanvas(this);
    legend_ = new CurveLegend(this);
    layout->addWidget(canvas_, 1);
    layout->addWidget(legend_);
    frameTimer_ = new QTimer(this);
    frameTimer_->setSingleShot(true);
    frameTimer_->setInterval(kRepaintIntervalMs);
    connect(frameTimer_, &QTimer::timeout, this, [this] {
        rebuildFrame();
        ++frames_;
    });
    updateAxes();
}

CurveChart::~CurveChart() = default;

void CurveChart::setTitle(const QString &title) { canvas_->chart_->setTitle(title); }

void CurveChart::setAxisTitles(const QString &x, const QString &y) {
    canvas_->x_->setTitleText(x);
    canvas_->y_->setTitleText(y);
    yTitle_ = y;
}

void CurveChart::addSeries(const QString &key, const QString &label, const QColor &color, Qt::PenStyle style) {
    Series &s = series_[key];
    s.label = label;
    s.color = color;
    s.style = style;
    if (!order_.contains(key)) order_.append(key);
    legend_->rebuild(order_, [this](const QString &k) { return qMakePair(series_[k].label, series_[k].color); });
    scheduleFrame();
}

void CurveChart::removeSeries(const QString &key) {
    series_.remove(key);
    order_.removeAll(key);
    legend_->rebuild(order_, [this](const QString &k) { return qMakePair(series_[k].label, series_[k].color); });
    scheduleFrame();
}

void CurveChart::clear() {
    series_.clear();
    order_.clear();
    legend_->rebuild(order_, {});
    followData_ = true;
    scheduleFrame();
}

void CurveChart::replacePoints(const QString &key, QVector<QPointF> points) {
    auto it = series_.find(key);
    if (it == series_.end()) return;
    it->points = std::move(points);
    it->smoothedValid = false;
    scheduleFrame();
}

void CurveChart::appendPoints(const QString &key, const QVector<QPointF> &points) {
    auto it = series_.find(key);
    if (it == series_.end() || points.isEmpty()) return;
    it->points += points;
    it->smoothedValid = false;
    scheduleFrame();
}

void CurveChart::setSeriesVisible(const QString &key, bool visible) {
    auto it = series_.find(key);
    if (it == series_.end() || it->visible == visible) return;
    it->visible = visible;
    if (auto *box = legend_->findChild<QCheckBox *>(QStringLiteral("legend:") + key)) box->setChecked(visible);
    Q_EMIT seriesVisibilityChanged(key, visible);
    scheduleFrame();
}

bool CurveChart::isSeriesVisible(const QString &key) const {
    const auto it = series_.find(key);
    return it != series_.end() && it->visible;
}

void CurveChart::setLegendVisible(bool visible) { legend_->setVisible(visible); }

void CurveChart::setLogY(bool on) {
    if (logY_ == on) return;
    logY_ = on;
    canvas_->setLogAxis(on);
    canvas_->y_->setTitleText(yTitle_);
    scheduleFrame();
}

void CurveChart::setSmoothing(double weight) {
    weight = std::clamp(weight, 0.0, 0.99);
    if (weight == smoothing_) return;
    smoothing_ = weight;
    for (Series &s : series_)
        s.smoothedValid = false;
    canvas_->note_->setText(weight > 0 ? tr("debiased EMA smoothing, weight %1").arg(QString::number(weight, 'f', 2))
                                       : QString());
    canvas_->placeNote();
    scheduleFrame();
}

void CurveChart::setXRange(double lo, double hi) {
    if (!(hi > lo)) return;
    followData_ = false;
    xLo_ = lo;
    xHi_ = hi;
    rebuildFrame(); // panning and zooming redraw at once: decimation is cheap
}

void CurveChart::resetView() {
    followData_ = true;
    rebuildFrame();
}

QPointF CurveChart::xRange() const { return {xLo_, xHi_}; }
QPointF CurveChart::yRange() const { return {yLo_, yHi_}; }

int CurveChart::pointCount(const QString &key) const {
    const auto it = series_.find(key);
    return it == series_.end() ? 0 : int(it->points.size());
}

int CurveChart::drawnPointCount(const QString &key) const {
    const int index = drawnIndex_.value(key, -1);
    if (index < 0 || index >= canvas_->layer_->curves.size()) return 0;
    return int(canvas_->layer_->curves[index].raw.size());
}

int CurveChart::frameCount() const { return frames_; }
bool CurveChart::hasPendingFrame() const { return frameTimer_->isActive(); }

QImage CurveChart::renderNow() {
    rebuildFrame();
    QImage image(canvas_->viewport()->size() * devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(devicePixelRatioF());
    image.fill(Qt::transparent);
    QPainter painter(&image);
    canvas_->render(&painter);
    return image;
}

void CurveChart::scheduleFrame() {
    if (!frameTimer_->isActive()) frameTimer_->start();
}

void CurveChart::updateAxes() {
    canvas_->x_->setRange(xLo_, xHi_);
    if (auto *log = qobject_cast<QLogValueAxis *>(canvas_->y_))
        log->setRange(yLo_, yHi_);
    else
        static_cast<QValueAxis *>(canvas_->y_)->setRange(yLo_, yHi_);
}

void CurveChart::rebuildFrame() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (followData_) {
        double lo = inf, hi = -inf;
        for (const QString &key : std::as_const(order_)) {
            const Series &s = series_[key];
            if (!s.visible || s.points.isEmpty()) continue;
            lo = std::min(lo, s.points.first().x());
            hi = std::max(hi, s.points.last().x());
        }
        if (lo == inf) lo = 0, hi = 1;
        if (!(hi > lo)) hi = lo + 1;
        niceRange(&lo, &hi, 6);
        xLo_ = lo;
        xHi_ = hi;
    }
    // One bucket per pixel column: first/min/max/last keep the envelope and the ends of every column.
    const int columns = std::max(16, int(canvas_->chart_->plotArea().width()));
    CurveLayer *layer = canvas_->layer_;
    layer->curves.clear();
    drawnIndex_.clear();
    double ylo = inf, yhi = -inf;
    auto extend = [&](const CurveSlice &slice) {
        for (qsizetype i = slice.begin; i < slice.end; ++i) {
            const QPointF &p = slice.points[i];
            if (p.x() < xLo_ || p.x() > xHi_ || !std::isfinite(p.y()) || (logY_ && p.y() <= 0)) continue;
            ylo = std::min(ylo, p.y());
            yhi = std::max(yhi, p.y());
        }
    };
    for (const QString &key : std::as_const(order_)) {
        Series &s = series_[key];
        if (!s.visible) continue;
        FrameCurve curve;
        curve.color = s.color;
        curve.style = s.style;
        curve.raw = visibleSlice(s.points, xLo_, xHi_, columns);
        if (smoothing_ > 0) {
            if (!s.smoothedValid) {
                s.smoothed = debiasedExponentialSmoothing(s.points, smoothing_);
                s.smoothedValid = true;
            }
            curve.smoothed = visibleSlice(s.smoothed, xLo_, xHi_, columns);
        }
        extend(curve.raw);
        drawnIndex_.insert(key, int(layer->curves.size()));
        layer->curves.append(std::move(curve));
    }
    if (ylo == inf) {
        ylo = logY_ ? 0.1 : 0;
        yhi = logY_ ? 10 : 1;
    }
    if (logY_) {
        yLo_ = std::pow(10.0, std::floor(std::log10(ylo)));
        yHi_ = std::pow(10.0, std::ceil(std::log10(yhi)));
        if (!(yHi_ > yLo_)) yHi_ = yLo_ * 10;
    } else {
        niceRange(&ylo, &yhi, 5);
        yLo_ = ylo;
        yHi_ = yhi;
    }
    updateAxes();
    layer->xLo = xLo_;
    layer->xHi = xHi_;
    layer->yLo = yLo_;
    layer->yHi = yHi_;
    layer->logY = logY_;
    layer->refresh();
}

} // namespace diamond::ui
