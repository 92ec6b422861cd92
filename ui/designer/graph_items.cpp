#include "ui/designer/graph_items.h"

#include "diamond/spec/registry.h"
#include "ui/designer/graph_scene.h"
#include "ui/designer/graph_style.h"
#include "ui/designer/json_convert.h"

#include <QApplication>
#include <QCoreApplication>
#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace diamond::ui {

namespace {

QFont canvasFont(const QGraphicsScene *scene, qreal points, bool bold = false) {
    QFont f = scene ? scene->font() : QApplication::font();
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

QColor mix(const QColor &a, const QColor &b, qreal t) {
    return QColor::fromRgbF(a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t,
                            a.blueF() * (1 - t) + b.blueF() * t);
}

/// "3", "3×3", "same", "true"
QString valueText(const nlohmann::json &v) {
    if (v.is_array()) {
        QStringList parts;
        bool allSame = !v.empty();
        for (const auto &e : v) {
            parts << valueText(e);
            allSame = allSame && e == v.front();
        }
        if (allSame && v.size() > 1 && v.front().is_number_integer()) return parts.join(QChar(0x00d7));
        return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    if (v.is_string()) return qs(v.get<std::string>());
    if (v.is_boolean())
        return v.get<bool>() ? QCoreApplication::translate("diamond::ui::NodeItem", "on")
                             : QCoreApplication::translate("diamond::ui::NodeItem", "off");
    if (v.is_number_float()) return QString::number(v.get<double>(), 'g', 4);
    return qs(v.dump());
}

QString shortName(const std::string &name) {
    static const QHash<QString, QString> abbrev = {
        {QStringLiteral("out_features"), QStringLiteral("out")},
        {QStringLiteral("out_channels"), QStringLiteral("out")},
        {QStringLiteral("kernel_size"), QStringLiteral("k")},
        {QStringLiteral("stride"), QStringLiteral("s")},
        {QStringLiteral("padding"), QStringLiteral("pad")},
        {QStringLiteral("dilation"), QStringLiteral("dil")},
        {QStringLiteral("hidden_size"), QStringLiteral("hidden")},
        {QStringLiteral("num_layers"), QStringLiteral("layers")},
        {QStringLiteral("num_heads"), QStringLiteral("heads")},
        {QStringLiteral("nhead"), QStringLiteral("heads")},
        {QStringLiteral("dim_feedforward"), QStringLiteral("ff")},
        {QStringLiteral("num_embeddings"), QStringLiteral("vocab")},
        {QStringLiteral("embedding_dim"), QStringLiteral("dim")},
        {QStringLiteral("output_size"), QStringLiteral("size")},
        {QStringLiteral("negative_slope"), QStringLiteral("slope")},
    };
    const QString n = qs(name);
    return abbrev.value(n, n);
}

QString shapeSummary(const nlohmann::json &shape) {
    if (!shape.is_array()) return {};
    QStringList dims;
    for (const auto &d : shape)
        dims << (d.is_string() ? qs(d.get<std::string>()) : qs(d.dump()));
    return dims.join(QChar(0x00d7));
}

} // namespace

QPainterPath edgePath(const QPointF &from, const QPointF &to, bool vertical) {
    QPainterPath path(from);
    const qreal span = vertical ? std::abs(to.y() - from.y()) : std::abs(to.x() - from.x());
    const qreal pull = std::max<qreal>(40.0, span * 0.5);
    if (vertical)
        path.cubicTo(from + QPointF(0, pull), to - QPointF(0, pull), to);
    else
        path.cubicTo(from + QPointF(pull, 0), to - QPointF(pull, 0), to);
    return path;
}

// --- PortItem -----------------------------------------------------------------------------

PortItem::PortItem(QGraphicsItem *node, Kind kind, int index, const QString &name)
    : QGraphicsItem(node), kind_(kind), index_(index), name_(name) {
    setAcceptHoverEvents(true);
    setCursor(Qt::CrossCursor);
    setZValue(2);
}

QRectF PortItem::boundingRect() const {
    const qreal r = style::kPortRadius + 4;
    return QRectF(-r, -r, 2 * r, 2 * r);
}

QPainterPath PortItem::shape() const {
    QPainterPath p;
    p.addEllipse(boundingRect());
    return p;
}

void PortItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    const QPalette pal = scene() ? scene()->palette() : QApplication::palette();
    const auto *node = static_cast<NodeItem *>(parentItem());
    const QColor accent = style::familyColor(style::familyOf(graphScene()->document()->nodeType(node->id())), pal);
    qreal r = style::kPortRadius;
    if (hovered_ || highlighted_) r += 2;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(highlighted_ ? pal.color(QPalette::Highlight) : accent, 2));
    painter->setBrush(connected_ ? accent : pal.color(QPalette::Base));
    painter->drawEllipse(QPointF(0, 0), r, r);
}

QString PortItem::nodeId() const { return static_cast<NodeItem *>(parentItem())->id(); }

void PortItem::setConnected(bool connected) {
    if (connected_ == connected) return;
    connected_ = connected;
    update();
}

void PortItem::setHighlighted(bool on) {
    if (highlighted_ == on) return;
    highlighted_ = on;
    update();
}

GraphScene *PortItem::graphScene() const { return static_cast<GraphScene *>(scene()); }

void PortItem::mousePressEvent(QGraphicsSceneMouseEvent *event) {
    if (event->button() != Qt::LeftButton) {
        event->ignore();
        return;
    }
    graphScene()->beginConnection(this, event->scenePos());
    event->accept();
}

void PortItem::mouseMoveEvent(QGraphicsSceneMouseEvent *event) { graphScene()->updateConnection(event->scenePos()); }

void PortItem::mouseReleaseEvent(QGraphicsSceneMouseEvent *event) { graphScene()->finishConnection(event->scenePos()); }

void PortItem::hoverEnterEvent(QGraphicsSceneHoverEvent *) {
    hovered_ = true;
    update();
}

void PortItem::hoverLeaveEvent(QGraphicsSceneHoverEvent *) {
    hovered_ = false;
    update();
}

// --- BadgeItem ----------------------------------------------------------------------------

BadgeItem::BadgeItem(QGraphicsItem *parent) : QGraphicsItem(parent) {
    setZValue(3);
    setVisible(false);
    setAcceptHoverEvents(true);
}

QRectF BadgeItem::boundingRect() const { return QRectF(-11, -11, 22, 22); }

void BadgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    const QPalette pal = scene() ? scene()->palette() : QApplication::palette();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(pal.color(QPalette::Base), 2));
    painter->setBrush(error_ ? style::errorColor(pal) : style::warningColor(pal));
    painter->drawEllipse(QPointF(0, 0), 10, 10);
    painter->setPen(Qt::white);
    painter->setFont(canvasFont(scene(), 9, true));
    painter->drawText(boundingRect(), Qt::AlignCenter, count_ > 1 ? QString::number(count_) : QStringLiteral("!"));
}

void BadgeItem::setState(bool error, int count, const QString &tooltip) {
    const bool visible = count > 0;
    if (error_ != error || count_ != count) {
        error_ = error;
        count_ = count;
        update();
    }
    if (toolTip() != tooltip) setToolTip(tooltip);
    if (isVisible() != visible) setVisible(visible);
}

// --- NodeItem -----------------------------------------------------------------------------

NodeItem::NodeItem(GraphScene *scene, const QString &id) : scene_(scene), id_(id), badge_(new BadgeItem(this)) {
    setFlag(ItemIsSelectable);
    setZValue(1);
    badge_->setPos(style::kNodeWidth - 2, 2);
}

QRectF NodeItem::boundingRect() const {
    const qreal m = stage_ >= 0 ? style::kStageBandMargin + 2 : 4;
    return QRectF(-m, -m, style::kNodeWidth + 2 * m, style::kNodeHeight + 2 * m);
}

void NodeItem::setStage(int stage) {
    if (stage == stage_) return;
    prepareGeometryChange();
    stage_ = stage;
    update();
}

QPainterPath NodeItem::shape() const {
    QPainterPath p;
    p.addRoundedRect(QRectF(0, 0, style::kNodeWidth, style::kNodeHeight), 8, 8);
    return p;
}

void NodeItem::syncFromDocument() {
    const GraphDocument *doc = scene_->document();
    const GraphNode *n = doc->node(id_);
    if (!n) return;
    prepareGeometryChange();
    setPos(n->pos);
    typeName_ = n->type;
    recompute_ = n->recompute;
    family_ = style::familyOf(n->type);
    if (n->type == QLatin1String(kOutputType)) {
        title_ = qs(stringAt(n->params, "name", ss(id_)));
        summary_ = n->inputs.isEmpty()
                       ? tr("not connected")
                       : tr("from %1").arg(n->inputs.first().node + (n->inputs.first().port.isEmpty()
                                                                         ? QString()
                                                                         : QLatin1Char(':') + n->inputs.first().port));
    } else if (n->type == QLatin1String(kInputType)) {
        title_ = id_;
        summary_ = shapeSummary(n->params.value("shape", nlohmann::json())) + QStringLiteral("  ") +
                   qs(stringAt(n->params, "dtype", "float32"));
    } else {
        title_ = id_;
        // Written parameters in the registry's order (most important first), unknown ones last.
        QStringList parts;
        const spec::LayerType *lt = spec::Registry::instance().find(ss(n->type));
        std::vector<std::string> order;
        if (lt)
            for (const spec::ParamSpec &p : lt->params)
                order.push_back(p.name);
        for (auto it = n->params.begin(); it != n->params.end(); ++it)
            if (std::find(order.begin(), order.end(), it.key()) == order.end()) order.push_back(it.key());
        for (const std::string &name : order) {
            auto it = n->params.find(name);
            if (it != n->params.end()) parts << shortName(name) + QLatin1Char(' ') + valueText(*it);
        }
        summary_ = parts.join(QStringLiteral(" \u00b7 "));
    }
    const spec::LayerType *t = spec::Registry::instance().find(ss(n->type));
    hasParams_ = !t || !t->params.empty() || n->type == QLatin1String(kOutputType);
    QString tip =
        t ? QStringLiteral("<b>%1</b> (%2)<br>%3").arg(title_.toHtmlEscaped(), n->type, qs(t->doc).toHtmlEscaped())
          : QStringLiteral("<b>%1</b> (%2)").arg(title_.toHtmlEscaped(), n->type);
    if (recompute_) tip += QStringLiteral("<br>\u21bb ") + tr("Recomputed in backward: saves memory, costs time.");
    setToolTip(tip);
    layoutPorts();
    update();
}

void NodeItem::layoutPorts() {
    const GraphDocument *doc = scene_->document();
    const int inCount = doc->inputSlotCount(id_);
    const QStringList outPorts = doc->outputPorts(id_);
    while (inputs_.size() > inCount)
        delete inputs_.takeLast();
    while (inputs_.size() < inCount)
        inputs_.push_back(new PortItem(this, PortItem::Kind::Input, inputs_.size(), QString()));
    bool same = outputs_.size() == outPorts.size();
    for (int i = 0; same && i < outputs_.size(); ++i)
        same = outputs_[i]->name() == outPorts[i];
    if (!same) {
        qDeleteAll(outputs_);
        outputs_.clear();
        for (int i = 0; i < outPorts.size(); ++i)
            outputs_.push_back(new PortItem(this, PortItem::Kind::Output, i, outPorts[i]));
    }
    const bool vertical = scene_->verticalFlow();
    const qreal w = style::kNodeWidth, h = style::kNodeHeight;
    for (int i = 0; i < inputs_.size(); ++i) {
        const qreal t = (i + 1.0) / (inputs_.size() + 1.0);
        inputs_[i]->setPos(vertical ? QPointF(w * t, 0) : QPointF(0, h * t));
        inputs_[i]->setToolTip(tr("Input %1").arg(i + 1));
    }
    for (int i = 0; i < outputs_.size(); ++i) {
        const qreal t = (i + 1.0) / (outputs_.size() + 1.0);
        outputs_[i]->setPos(vertical ? QPointF(w * t, h) : QPointF(w, h * t));
        outputs_[i]->setToolTip(tr("Output \"%1\"").arg(outputs_[i]->name()));
    }
}

QPointF NodeItem::inputAnchor(int index) const {
    if (PortItem *p = inputPort(index)) return p->scenePos();
    return mapToScene(QPointF(style::kNodeWidth / 2, 0));
}

QPointF NodeItem::outputAnchor(int index) const {
    if (PortItem *p = outputPort(index)) return p->scenePos();
    return mapToScene(QPointF(style::kNodeWidth / 2, style::kNodeHeight));
}

int NodeItem::outputIndex(const QString &port) const {
    if (port.isEmpty()) return 0;
    for (int i = 0; i < outputs_.size(); ++i)
        if (outputs_[i]->name() == port) return i;
    return -1;
}

void NodeItem::syncAnalysis() {
    const GraphDocument *doc = scene_->document();
    QString stats;
    if (typeName_ == QLatin1String(kOutputType)) {
        const QVector<GraphPortRef> ins = doc->inputs(id_);
        stats = ins.isEmpty() ? QString() : doc->shapeText(ins.first());
    } else if (const spec::NodeInfo *info = doc->analysis().node(ss(id_))) {
        if (!info->ok)
            stats = QStringLiteral("\u2014");
        else if (typeName_ == QLatin1String(kInputType))
            stats = tr("%n value(s) per sample", nullptr,
                       int(std::min<qint64>(spec::elementsPerSample(info->outputs.front().shape), INT32_MAX)));
        else if (info->paramCount > 0)
            stats = tr("%1 params \u00b7 %2").arg(style::compactCount(info->paramCount), style::flopsText(info->flops));
        else
            stats = style::flopsText(info->flops);
    } else {
        stats = QStringLiteral("\u2014");
    }
    if (stats != stats_) {
        stats_ = stats;
        update();
    }
    // Badge: errors in red; warnings other than "unused" in amber.
    const QVector<spec::Diagnostic> diags = doc->diagnostics(id_);
    int errors = 0, warnings = 0;
    QStringList lines;
    for (const spec::Diagnostic &d : diags) {
        const bool error = d.severity == spec::Severity::Error;
        if (!error && d.code == "graph.unused") continue;
        (error ? errors : warnings)++;
        QString line = QStringLiteral("<p><b>%1</b>").arg(qs(d.message).toHtmlEscaped());
        if (!d.hint.empty()) line += QStringLiteral("<br>%1").arg(qs(d.hint).toHtmlEscaped());
        lines << line + QStringLiteral("</p>");
    }
    badge_->setState(errors > 0, errors > 0 ? errors : warnings, lines.join(QString()));
}

void NodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    const QPalette pal = scene_->palette();
    const bool dark = style::isDark(pal);
    const QColor accent = style::familyColor(family_, pal);
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    const QRectF r(0, 0, style::kNodeWidth, style::kNodeHeight);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);

    // The pipeline stage: a band of its colour around the node, numbered at its corner.
    if (stage_ >= 0) {
        const qreal m = style::kStageBandMargin;
        const QColor band = style::stageColor(stage_, pal);
        painter->setPen(Qt::NoPen);
        painter->setBrush(band);
        painter->drawRoundedRect(r.adjusted(-m, -m, m, m), 12, 12);
        QFont tagFont = painter->font();
        tagFont.setBold(true);
        painter->setFont(tagFont);
        painter->setPen(style::stageTextColor(stage_, pal));
        painter->drawText(QRectF(-m, -m, m + 2, m), Qt::AlignCenter, QString::number(stage_ + 1));
    }

    // Soft shadow, body, header band.
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0, 0, 0, dark ? 90 : 28));
    painter->drawRoundedRect(r.translated(0, 2), 8, 8);
    painter->setBrush(dark ? mix(base, Qt::white, 0.06) : base);
    painter->drawRoundedRect(r, 8, 8);
    QPainterPath header;
    header.addRoundedRect(QRectF(0, 0, r.width(), style::kHeaderHeight + 8), 8, 8);
    QPainterPath clip;
    clip.addRect(QRectF(0, 0, r.width(), style::kHeaderHeight));
    painter->setBrush(accent);
    painter->drawPath(header.intersected(clip));

    // Outline: highlight when selected, red when in error.
    QPen outline(mix(base, text, 0.25), 1);
    if (badge_->isVisible() && badge_->isError()) outline = QPen(style::errorColor(pal), 1.5);
    if (isSelected()) outline = QPen(pal.color(QPalette::Highlight), 2.5);
    painter->setPen(outline);
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(r, 8, 8);

    // Header: id (bold) and type.
    const qreal pad = 9;
    QFont typeFont = canvasFont(scene_, 8.5);
    QFontMetricsF typeMetrics(typeFont);
    QFont titleFont = canvasFont(scene_, 10, true);
    // The id has priority; the type takes what is left, but at least a third of the header.
    const qreal available = r.width() - 2 * pad - 6;
    const qreal titleNeed = QFontMetricsF(titleFont).horizontalAdvance(title_);
    const qreal typeRoom = std::max(available - titleNeed, available / 3);
    const QString typeLabel = typeMetrics.elidedText(recompute_ ? QStringLiteral("\u21bb ") + typeName_ : typeName_,
                                                     Qt::ElideRight, typeRoom);
    const qreal typeWidth = typeMetrics.horizontalAdvance(typeLabel);
    painter->setFont(typeFont);
    painter->setPen(QColor(255, 255, 255, 200));
    painter->drawText(QRectF(r.width() - pad - typeWidth, 0, typeWidth, style::kHeaderHeight),
                      Qt::AlignVCenter | Qt::AlignRight, typeLabel);
    painter->setFont(titleFont);
    painter->setPen(Qt::white);
    const qreal titleWidth = r.width() - 2 * pad - typeWidth - 6;
    painter->drawText(QRectF(pad, 0, titleWidth, style::kHeaderHeight), Qt::AlignVCenter | Qt::AlignLeft,
                      QFontMetricsF(titleFont).elidedText(title_, Qt::ElideRight, titleWidth));

    // Body: parameters, then parameter count and FLOPs.
    QFont body = canvasFont(scene_, 8.5);
    QFontMetricsF bm(body);
    painter->setFont(body);
    painter->setPen(text);
    const qreal bodyHeight = r.height() - style::kHeaderHeight;
    const qreal line = bodyHeight / 2;
    const qreal textWidth = r.width() - 2 * pad;
    if (!hasParams_ && summary_.isEmpty()) {
        // Layers without parameters (ReLU, Add, ...): one centred line with their cost.
        painter->setPen(mix(base, text, 0.6));
        painter->drawText(QRectF(pad, style::kHeaderHeight, textWidth, bodyHeight), Qt::AlignVCenter,
                          bm.elidedText(stats_, Qt::ElideRight, textWidth));
        return;
    }
    const QString summary = summary_.isEmpty() ? tr("defaults") : summary_;
    painter->drawText(QRectF(pad, style::kHeaderHeight + 1, textWidth, line), Qt::AlignVCenter,
                      bm.elidedText(summary, Qt::ElideRight, textWidth));
    painter->setPen(mix(base, text, 0.6));
    painter->drawText(QRectF(pad, style::kHeaderHeight + line - 2, textWidth, line), Qt::AlignVCenter,
                      bm.elidedText(stats_, Qt::ElideRight, textWidth));
}

void NodeItem::mousePressEvent(QGraphicsSceneMouseEvent *event) {
    if (event->button() != Qt::LeftButton) {
        event->ignore();
        return;
    }
    pressedSelected_ = isSelected();
    dragged_ = false;
    if (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) {
        setSelected(!isSelected());
    } else if (!isSelected()) {
        scene()->clearSelection();
        setSelected(true);
    }
    if (isSelected()) scene_->beginNodeDrag(this, event->scenePos());
    event->accept();
}

void NodeItem::mouseMoveEvent(QGraphicsSceneMouseEvent *event) {
    if (!isSelected()) return;
    if (!dragged_ && QLineF(event->screenPos(), event->buttonDownScreenPos(Qt::LeftButton)).length() <
                         QApplication::startDragDistance())
        return;
    dragged_ = true;
    scene_->dragNodes(event->scenePos());
}

void NodeItem::mouseReleaseEvent(QGraphicsSceneMouseEvent *event) {
    scene_->endNodeDrag();
    // A plain click on one of several selected nodes selects just that node.
    if (!dragged_ && pressedSelected_ && !(event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier))) {
        scene()->clearSelection();
        setSelected(true);
    }
}

void NodeItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent *) { Q_EMIT scene_->nodeActivated(id_); }

// --- EdgeItem -----------------------------------------------------------------------------

EdgeItem::EdgeItem(GraphScene *scene, const GraphConnection &connection) : scene_(scene), connection_(connection) {
    setFlag(ItemIsSelectable);
    setZValue(0);
    setAcceptHoverEvents(true);
}

QRectF EdgeItem::labelRect() const {
    if (label_.isEmpty()) return {};
    QFontMetricsF fm(canvasFont(scene_, 8.5));
    const qreal w = fm.horizontalAdvance(label_) + 10, h = fm.height() + 4;
    if (scene_->verticalFlow()) return QRectF(labelAnchor_.x() + 6, labelAnchor_.y() - h / 2, w, h);
    return QRectF(labelAnchor_.x() - w / 2, labelAnchor_.y() - h - 4, w, h);
}

QRectF EdgeItem::boundingRect() const { return path_.boundingRect().adjusted(-6, -6, 6, 6).united(labelRect()); }

QPainterPath EdgeItem::shape() const {
    QPainterPathStroker stroker;
    stroker.setWidth(10);
    QPainterPath s = stroker.createStroke(path_);
    s.addRect(labelRect());
    return s;
}

void EdgeItem::updatePath() {
    NodeItem *from = scene_->nodeItem(connection_.from.node);
    NodeItem *to = scene_->nodeItem(connection_.to);
    if (!from || !to) return;
    prepareGeometryChange();
    const QPointF a = from->outputAnchor(std::max(0, from->outputIndex(connection_.from.port)));
    const QPointF b = to->inputAnchor(connection_.toIndex);
    path_ = edgePath(a, b, scene_->verticalFlow());
    labelAnchor_ = path_.pointAtPercent(0.5);
}

void EdgeItem::syncAnalysis() {
    const GraphDocument *doc = scene_->document();
    QString label = doc->shapeText(connection_.from);
    const QVector<spec::Diagnostic> diags = doc->connectionDiagnostics(connection_);
    const bool invalid = !diags.isEmpty();
    if (label.isEmpty()) label = QStringLiteral("?");
    QString tip;
    for (const spec::Diagnostic &d : diags) {
        tip += QStringLiteral("<p><b>%1</b>").arg(qs(d.message).toHtmlEscaped());
        if (!d.hint.empty()) tip += QStringLiteral("<br>%1").arg(qs(d.hint).toHtmlEscaped());
        tip += QStringLiteral("</p>");
    }
    if (tip.isEmpty()) tip = tr("%1 \u2192 %2: %3").arg(connection_.from.node, connection_.to, label);
    if (label != label_ || invalid != invalid_) {
        prepareGeometryChange();
        label_ = label;
        invalid_ = invalid;
        update();
    }
    if (toolTip() != tip) setToolTip(tip);
}

void EdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    const QPalette pal = scene_->palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    QColor color = invalid_ ? style::errorColor(pal) : mix(base, text, 0.45);
    if (isSelected()) color = pal.color(QPalette::Highlight);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(
        QPen(color, invalid_ || isSelected() ? 2.5 : 1.8, invalid_ ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path_);
    if (label_.isEmpty()) return;
    const QRectF lr = labelRect();
    painter->setPen(QPen(invalid_ ? color : mix(base, text, 0.2), 1));
    painter->setBrush(invalid_ ? mix(base, color, 0.12) : mix(base, pal.color(QPalette::Window), 0.5));
    painter->drawRoundedRect(lr, lr.height() / 2, lr.height() / 2);
    painter->setFont(canvasFont(scene_, 8.5));
    painter->setPen(invalid_ ? color : mix(base, text, 0.8));
    painter->drawText(lr, Qt::AlignCenter, label_);
}

// --- PendingEdgeItem ----------------------------------------------------------------------

PendingEdgeItem::PendingEdgeItem() { setZValue(5); }

QRectF PendingEdgeItem::boundingRect() const { return path_.boundingRect().adjusted(-4, -4, 4, 4); }

void PendingEdgeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) {
    const QPalette pal = scene() ? scene()->palette() : QApplication::palette();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(QPen(pal.color(QPalette::Highlight), 2, Qt::DashLine, Qt::RoundCap));
    painter->drawPath(path_);
}

void PendingEdgeItem::setEnds(const QPointF &a, const QPointF &b, bool vertical) {
    prepareGeometryChange();
    path_ = edgePath(a, b, vertical);
}

} // namespace diamond::ui
