#include "ui/designer/graph_view.h"

#include "ui/designer/graph_scene.h"
#include "ui/designer/graph_style.h"

#include <QGraphicsItem>
#include <QKeyEvent>
#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

namespace diamond::ui {

namespace {
constexpr qreal kReadableZoom = 0.85;
constexpr qreal kMinZoom = 0.08;
constexpr qreal kMaxZoom = 4.0;
constexpr qreal kStep = 1.2;

/// A copy with every role set explicitly: QGraphicsScene::setPalette() resolves unset roles
/// against the application palette, which would lose a palette inherited from the window.
QPalette explicitPalette(const QPalette &src) {
    QPalette p;
    for (int g = 0; g < QPalette::NColorGroups; ++g)
        for (int r = 0; r < QPalette::NColorRoles; ++r) {
            const auto group = QPalette::ColorGroup(g);
            const auto role = QPalette::ColorRole(r);
            p.setBrush(group, role, src.brush(group, role));
        }
    return p;
}
} // namespace

GraphView::GraphView(GraphScene *scene, QWidget *parent) : QGraphicsView(scene, parent), scene_(scene) {
    setObjectName(QStringLiteral("designerView"));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setDragMode(QGraphicsView::RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    scene_->setPalette(explicitPalette(palette()));
    connect(scene_, &GraphScene::message, this, &GraphView::message);
}

void GraphView::setZoom(qreal z) {
    z = std::clamp(z, kMinZoom, kMaxZoom);
    const qreal factor = z / zoom();
    if (std::abs(factor - 1.0) < 1e-9) return;
    scale(factor, factor);
    Q_EMIT zoomChanged(zoom());
}

QPointF GraphView::viewCenter() const { return mapToScene(viewport()->rect().center()); }

void GraphView::zoomIn() {
    const auto anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setZoom(zoom() * kStep);
    setTransformationAnchor(anchor);
}

void GraphView::zoomOut() {
    const auto anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setZoom(zoom() / kStep);
    setTransformationAnchor(anchor);
}

void GraphView::zoomToFit() {
    const QRectF content = scene_->contentRect();
    if (content.isEmpty()) {
        resetTransform();
        centerOn(0, 0);
        Q_EMIT zoomChanged(zoom());
        return;
    }
    const QRectF target = content.adjusted(-40, -40, 40, 40);
    fitInView(target, Qt::KeepAspectRatio);
    if (zoom() > 1.25) setZoom(1.25); // small graphs stay at a readable, not a blown-up, size
    if (zoom() < kMinZoom) setZoom(kMinZoom);
    centerOn(target.center());
    Q_EMIT zoomChanged(zoom());
}

void GraphView::fitForReading() {
    zoomToFit();
    const QRectF content = scene_->contentRect();
    if (content.isEmpty() || zoom() >= kReadableZoom) return;
    // Too big to read when fitted: readable zoom, showing where the data comes in.
    setZoom(kReadableZoom);
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const qreal x =
        content.width() <= visible.width() ? content.center().x() : content.left() - 40 + visible.width() / 2;
    const qreal y =
        content.height() <= visible.height() ? content.center().y() : content.top() - 40 + visible.height() / 2;
    centerOn(x, y);
    Q_EMIT zoomChanged(zoom());
}

void GraphView::deleteSelection() { scene_->deleteSelection(); }

void GraphView::copy() { scene_->copySelection(); }

void GraphView::cut() {
    scene_->copySelection();
    scene_->deleteSelection();
}

void GraphView::paste() {
    const QPoint cursor = viewport()->mapFromGlobal(QCursor::pos());
    if (viewport()->rect().contains(cursor)) {
        const QPointF at = mapToScene(cursor);
        scene_->paste(&at);
    } else {
        scene_->paste();
    }
}

void GraphView::selectAll() {
    for (QGraphicsItem *item : scene_->items())
        if (item->flags() & QGraphicsItem::ItemIsSelectable) item->setSelected(true);
}

bool GraphView::handlesKey(const QKeyEvent *e) const {
    const auto mods = e->modifiers() & ~Qt::KeypadModifier;
    switch (e->key()) {
    case Qt::Key_Delete:
    case Qt::Key_Backspace: return mods == Qt::NoModifier;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus:
    case Qt::Key_F:
    case Qt::Key_Space: return mods == Qt::NoModifier || mods == Qt::ShiftModifier;
    case Qt::Key_C:
    case Qt::Key_V:
    case Qt::Key_X:
    case Qt::Key_A: return mods == Qt::ControlModifier;
    default: return false;
    }
}

bool GraphView::event(QEvent *event) {
    // The canvas keeps its keys when it has focus, even if a window action uses the same shortcut.
    if (event->type() == QEvent::ShortcutOverride && handlesKey(static_cast<QKeyEvent *>(event))) {
        event->accept();
        return true;
    }
    return QGraphicsView::event(event);
}

void GraphView::keyPressEvent(QKeyEvent *event) {
    if (!handlesKey(event)) {
        QGraphicsView::keyPressEvent(event);
        return;
    }
    switch (event->key()) {
    case Qt::Key_Delete:
    case Qt::Key_Backspace: deleteSelection(); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); break;
    case Qt::Key_Minus: zoomOut(); break;
    case Qt::Key_F: zoomToFit(); break;
    case Qt::Key_C: copy(); break;
    case Qt::Key_V: paste(); break;
    case Qt::Key_X: cut(); break;
    case Qt::Key_A: selectAll(); break;
    case Qt::Key_Space:
        if (!event->isAutoRepeat()) {
            spaceHeld_ = true;
            viewport()->setCursor(Qt::OpenHandCursor);
        }
        break;
    default: break;
    }
    event->accept();
}

void GraphView::keyReleaseEvent(QKeyEvent *event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        spaceHeld_ = false;
        if (!panning_) viewport()->unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

void GraphView::wheelEvent(QWheelEvent *event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const qreal steps = event->angleDelta().y() / 120.0;
        if (steps != 0) setZoom(zoom() * std::pow(kStep, steps));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void GraphView::mousePressEvent(QMouseEvent *event) {
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && spaceHeld_)) {
        panning_ = true;
        panLast_ = event->position().toPoint();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseMoveEvent(QMouseEvent *event) {
    if (panning_) {
        const QPoint p = event->position().toPoint();
        const QPoint d = p - panLast_;
        panLast_ = p;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent *event) {
    if (panning_ && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        panning_ = false;
        if (spaceHeld_)
            viewport()->setCursor(Qt::OpenHandCursor);
        else
            viewport()->unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void GraphView::dragEnterEvent(QDragEnterEvent *event) {
    if (event->mimeData()->hasFormat(QLatin1String(kLayerMimeType)))
        event->acceptProposedAction();
    else
        event->ignore();
}

void GraphView::dragMoveEvent(QDragMoveEvent *event) {
    if (event->mimeData()->hasFormat(QLatin1String(kLayerMimeType)))
        event->acceptProposedAction();
    else
        event->ignore();
}

void GraphView::dropEvent(QDropEvent *event) {
    const QByteArray type = event->mimeData()->data(QLatin1String(kLayerMimeType));
    if (type.isEmpty()) {
        event->ignore();
        return;
    }
    // The drop point becomes the node's centre.
    const QPointF at = mapToScene(event->position().toPoint()) - QPointF(style::kNodeWidth / 2, style::kNodeHeight / 2);
    const QString id = scene_->document()->addNode(QString::fromUtf8(type), scene_->snapped(at));
    if (id.isEmpty()) {
        Q_EMIT message(tr("Unknown layer type \"%1\".").arg(QString::fromUtf8(type)));
        event->ignore();
        return;
    }
    scene_->selectNodes({id});
    setFocus();
    event->acceptProposedAction();
}

void GraphView::drawForeground(QPainter *painter, const QRectF &rect) {
    QGraphicsView::drawForeground(painter, rect);
    if (scene_->document()->nodeCount() > 0) return;
    // An empty canvas explains how to start, in view (not scene) coordinates.
    painter->save();
    painter->resetTransform();
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    painter->setFont(f);
    painter->setPen(palette().color(QPalette::PlaceholderText));
    painter->drawText(viewport()->rect().adjusted(40, 40, -40, -40), Qt::AlignCenter | Qt::TextWordWrap,
                      tr("Drag layers here from the palette, or start from a template.\n"
                         "Connect ports by dragging from an output to an input."));
    painter->restore();
}

void GraphView::changeEvent(QEvent *event) {
    if (event->type() == QEvent::PaletteChange) scene_->setPalette(explicitPalette(palette()));
    QGraphicsView::changeEvent(event);
}

} // namespace diamond::ui
