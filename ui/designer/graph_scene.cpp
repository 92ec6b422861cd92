#include "ui/designer/graph_scene.h"

#include "ui/designer/graph_items.h"
#include "ui/designer/graph_style.h"
#include "ui/designer/json_convert.h"

#include <QApplication>
#include <QClipboard>
#include <QMimeData>
#include <QPainter>
#include <QUndoStack>

#include <cmath>
#include <utility>

namespace diamond::ui {

GraphScene::GraphScene(GraphDocument *document, QObject *parent) : QGraphicsScene(parent), doc_(document) {
    setItemIndexMethod(QGraphicsScene::NoIndex);
    connect(doc_, &GraphDocument::documentReset, this, &GraphScene::rebuild);
    connect(doc_, &GraphDocument::nodeAdded, this, &GraphScene::addNodeItem);
    connect(doc_, &GraphDocument::nodeAboutToBeRemoved, this, &GraphScene::removeNodeItem);
    connect(doc_, &GraphDocument::nodeRenamed, this, &GraphScene::renameNodeItem);
    connect(doc_, &GraphDocument::nodeParamsChanged, this, [this](const QString &id) {
        if (NodeItem *item = nodes_.value(id)) item->syncFromDocument();
    });
    connect(doc_, &GraphDocument::nodeMoved, this, [this](const QString &id) {
        if (NodeItem *item = nodes_.value(id)) item->setPos(doc_->position(id));
        updateEdgesOf(id);
        growSceneRect();
    });
    connect(doc_, &GraphDocument::inputsChanged, this, &GraphScene::syncEdgesInto);
    connect(doc_, &GraphDocument::directionChanged, this, &GraphScene::onDirectionChanged);
    connect(doc_, &GraphDocument::analysisChanged, this, &GraphScene::onAnalysisChanged);
    connect(doc_, &GraphDocument::pipelineChanged, this, &GraphScene::syncStages);
    rebuild();
}

GraphScene::~GraphScene() {
    // Items refer back to the scene while being destroyed; drop them first.
    pendingFrom_ = nullptr;
    pickedUp_ = nullptr;
    hoverTarget_ = nullptr;
    clear();
}

EdgeItem *GraphScene::edgeItem(const QString &to, int toIndex) const {
    const QVector<EdgeItem *> edges = edgesInto_.value(to);
    return toIndex >= 0 && toIndex < edges.size() ? edges[toIndex] : nullptr;
}

QList<EdgeItem *> GraphScene::edgeItems() const {
    QList<EdgeItem *> all;
    for (const auto &list : edgesInto_)
        for (EdgeItem *e : list)
            if (e) all << e;
    return all;
}

QStringList GraphScene::selectedNodeIds() const {
    QStringList ids;
    // In document order, so copies and deletions are deterministic.
    for (const QString &id : doc_->nodeIds()) {
        NodeItem *item = nodes_.value(id);
        if (item && item->isSelected()) ids << id;
    }
    return ids;
}

void GraphScene::selectNodes(const QStringList &ids) {
    clearSelection();
    for (const QString &id : ids)
        if (NodeItem *item = nodes_.value(id)) item->setSelected(true);
}

QRectF GraphScene::contentRect() const {
    QRectF r;
    for (NodeItem *n : nodes_)
        r = r.united(n->sceneBoundingRect());
    for (const auto &list : edgesInto_)
        for (EdgeItem *e : list)
            if (e) r = r.united(e->sceneBoundingRect());
    return r;
}

QPointF GraphScene::snapped(const QPointF &p) const {
    if (!snap_) return p;
    return QPointF(std::round(p.x() / style::kGrid) * style::kGrid, std::round(p.y() / style::kGrid) * style::kGrid);
}

void GraphScene::setGridVisible(bool on) {
    if (grid_ == on) return;
    grid_ = on;
    update();
}

// --- Document -> items ----------------------------------------------------------------------

void GraphScene::rebuild() {
    pendingFrom_ = nullptr;
    pickedUp_ = nullptr;
    hoverTarget_ = nullptr;
    if (pending_) {
        delete pending_;
        pending_ = nullptr;
    }
    // Deleting a selected item emits selectionChanged at once: empty the maps before deleting.
    clearSelection();
    const auto oldEdges = std::exchange(edgesInto_, {});
    edgesFrom_.clear();
    const auto oldNodes = std::exchange(nodes_, {});
    for (const auto &list : oldEdges)
        qDeleteAll(list);
    qDeleteAll(oldNodes);
    for (const QString &id : doc_->nodeIds()) {
        auto *item = new NodeItem(this, id);
        nodes_.insert(id, item);
        addItem(item);
        item->syncFromDocument();
    }
    for (const QString &id : doc_->nodeIds())
        syncEdgesInto(id);
    onAnalysisChanged();
    setSceneRect(QRectF());
    growSceneRect();
}

void GraphScene::addNodeItem(const QString &id) {
    if (nodes_.contains(id)) return;
    auto *item = new NodeItem(this, id);
    nodes_.insert(id, item);
    addItem(item);
    item->syncFromDocument();
    syncEdgesInto(id);
    // Edges of consumers that referred to this id before it existed (undo of a delete).
    for (const QString &other : doc_->nodeIds()) {
        if (other == id) continue;
        for (const GraphPortRef &r : doc_->inputs(other))
            if (r.node == id) {
                syncEdgesInto(other);
                break;
            }
    }
    growSceneRect();
}

void GraphScene::removeNodeItem(const QString &id) {
    NodeItem *item = nodes_.take(id);
    if (!item) return;
    for (EdgeItem *e : edgesInto_.take(id))
        if (e) removeEdge(e);
    const QList<EdgeItem *> outgoing = edgesFrom_.values(id);
    for (EdgeItem *e : outgoing) {
        QVector<EdgeItem *> &list = edgesInto_[e->connection().to];
        for (EdgeItem *&slot : list)
            if (slot == e) slot = nullptr;
        removeEdge(e);
    }
    if (pendingFrom_ && pendingFrom_->parentItem() == item) {
        pendingFrom_ = nullptr;
        delete pending_;
        pending_ = nullptr;
    }
    hoverTarget_ = nullptr;
    delete item;
}

void GraphScene::renameNodeItem(const QString &oldId, const QString &newId) {
    NodeItem *item = nodes_.take(oldId);
    if (!item) return;
    item->setId(newId);
    nodes_.insert(newId, item);
    edgesInto_.insert(newId, edgesInto_.take(oldId));
    syncEdgesInto(newId);
    const QList<EdgeItem *> outgoing = edgesFrom_.values(oldId);
    edgesFrom_.remove(oldId);
    for (EdgeItem *e : outgoing)
        edgesFrom_.insert(newId, e); // rebuilt by inputsChanged of the consumers right after
    item->syncFromDocument();
}

void GraphScene::removeEdge(EdgeItem *edge) {
    if (edge == pickedUp_) pickedUp_ = nullptr;
    const QString from = edge->connection().from.node;
    edgesFrom_.remove(from, edge);
    if (NodeItem *src = nodes_.value(from)) {
        const int i = std::max(0, src->outputIndex(edge->connection().from.port));
        bool stillUsed = false;
        for (EdgeItem *e : edgesFrom_.values(from))
            stillUsed = stillUsed || std::max(0, src->outputIndex(e->connection().from.port)) == i;
        if (PortItem *p = src->outputPort(i)) p->setConnected(stillUsed);
    }
    delete edge;
}

void GraphScene::syncEdgesInto(const QString &id) {
    NodeItem *consumer = nodes_.value(id);
    QVector<EdgeItem *> old = edgesInto_.take(id);
    for (EdgeItem *e : old)
        if (e) removeEdge(e);
    if (!consumer) return;
    consumer->syncFromDocument(); // slot count may change (open-ended merges)
    QVector<EdgeItem *> edges;
    const QVector<GraphPortRef> inputs = doc_->inputs(id);
    for (int i = 0; i < inputs.size(); ++i) {
        NodeItem *producer = nodes_.value(inputs[i].node);
        if (!producer) {
            edges.push_back(nullptr); // dangling reference: the diagnostic shows on the node
            continue;
        }
        auto *edge = new EdgeItem(this, GraphConnection{inputs[i], id, i});
        addItem(edge);
        edge->updatePath();
        edge->syncAnalysis();
        edges.push_back(edge);
        edgesFrom_.insert(inputs[i].node, edge);
        if (PortItem *p = producer->outputPort(std::max(0, producer->outputIndex(inputs[i].port))))
            p->setConnected(true);
    }
    edgesInto_.insert(id, edges);
    refreshPortStates(id);
}

void GraphScene::refreshPortStates(const QString &id) {
    NodeItem *item = nodes_.value(id);
    if (!item) return;
    const int connected = doc_->inputs(id).size();
    for (int i = 0; PortItem *p = item->inputPort(i); ++i)
        p->setConnected(i < connected);
}

void GraphScene::updateEdgesOf(const QString &id) {
    for (EdgeItem *e : edgesInto_.value(id))
        if (e) e->updatePath();
    for (auto it = edgesFrom_.constFind(id); it != edgesFrom_.constEnd() && it.key() == id; ++it)
        it.value()->updatePath();
}

void GraphScene::onAnalysisChanged() {
    for (NodeItem *n : std::as_const(nodes_))
        n->syncAnalysis();
    syncStages();
    for (const auto &list : std::as_const(edgesInto_))
        for (EdgeItem *e : list)
            if (e) e->syncAnalysis();
}

void GraphScene::syncStages() {
    const QHash<QString, int> stageOf = doc_->pipelineStageOfNodes();
    for (NodeItem *n : std::as_const(nodes_))
        n->setStage(stageOf.value(n->id(), -1));
}

void GraphScene::onDirectionChanged() {
    for (NodeItem *n : std::as_const(nodes_))
        n->layoutPorts();
    for (const auto &list : std::as_const(edgesInto_))
        for (EdgeItem *e : list)
            if (e) {
                e->updatePath();
                e->syncAnalysis();
            }
}

void GraphScene::growSceneRect() {
    const QRectF wanted = itemsBoundingRect().adjusted(-2000, -2000, 2000, 2000);
    if (!sceneRect().contains(wanted)) setSceneRect(sceneRect().united(wanted));
}

// --- Editing gestures -----------------------------------------------------------------------

void GraphScene::deleteSelection() {
    const QStringList ids = selectedNodeIds();
    QVector<GraphConnection> edges;
    for (QGraphicsItem *item : selectedItems()) {
        if (item->type() == EdgeItem::Type) edges << static_cast<EdgeItem *>(item)->connection();
    }
    if (ids.isEmpty() && edges.isEmpty()) return;
    if (edges.isEmpty()) {
        doc_->removeNodes(ids);
        return;
    }
    // Selected edges between kept nodes go in the same undo step as the nodes; they are
    // disconnected from the highest input slot down so earlier slots keep their index.
    QUndoStack *stack = doc_->undoStack();
    stack->beginMacro(tr("Delete selection"));
    std::sort(edges.begin(), edges.end(), [](const GraphConnection &a, const GraphConnection &b) {
        return a.to == b.to ? a.toIndex > b.toIndex : a.to < b.to;
    });
    for (const GraphConnection &c : edges) {
        if (!ids.contains(c.to) && !ids.contains(c.from.node)) doc_->disconnectInput(c.to, c.toIndex);
    }
    if (!ids.isEmpty()) doc_->removeNodes(ids);
    stack->endMacro();
}

void GraphScene::copySelection() {
    const QStringList ids = selectedNodeIds();
    if (ids.isEmpty()) return;
    auto *mime = new QMimeData;
    const QByteArray fragment = doc_->copy(ids);
    mime->setData(QLatin1String(kGraphMimeType), fragment);
    mime->setText(QString::fromUtf8(fragment));
    QApplication::clipboard()->setMimeData(mime);
}

QStringList GraphScene::paste(const QPointF *at) {
    const QMimeData *mime = QApplication::clipboard()->mimeData();
    if (!mime) return {};
    QByteArray fragment = mime->data(QLatin1String(kGraphMimeType));
    if (fragment.isEmpty()) fragment = mime->text().toUtf8();
    QPointF offset(40, 40);
    if (at) {
        // Place the fragment's top-left node corner at `at`.
        const nlohmann::json j =
            nlohmann::json::parse(fragment.constData(), fragment.constData() + fragment.size(), nullptr, false);
        if (j.is_object() && j.contains("nodes") && j["nodes"].is_array() && !j["nodes"].empty()) {
            qreal minX = 1e18, minY = 1e18;
            for (const auto &n : j["nodes"]) {
                minX = std::min(minX, numberAt(n, "x"));
                minY = std::min(minY, numberAt(n, "y"));
            }
            offset = snapped(*at) - QPointF(minX, minY);
        }
    }
    const QStringList ids = doc_->paste(fragment, offset);
    if (!ids.isEmpty()) selectNodes(ids);
    return ids;
}

void GraphScene::beginNodeDrag(NodeItem *item, const QPointF &scenePos) {
    dragAnchor_ = item->id();
    dragPress_ = scenePos;
    dragStart_.clear();
    for (const QString &id : selectedNodeIds())
        dragStart_.insert(id, doc_->position(id));
    dragSession_ = doc_->newMergeSession();
    dragging_ = true;
}

void GraphScene::dragNodes(const QPointF &scenePos) {
    if (!dragging_ || !dragStart_.contains(dragAnchor_)) return;
    const QPointF anchorStart = dragStart_.value(dragAnchor_);
    const QPointF delta = snapped(anchorStart + (scenePos - dragPress_)) - anchorStart;
    QHash<QString, QPointF> positions;
    for (auto it = dragStart_.begin(); it != dragStart_.end(); ++it)
        positions.insert(it.key(), it.value() + delta);
    doc_->moveNodes(positions, dragSession_);
}

void GraphScene::endNodeDrag() {
    dragging_ = false;
    dragStart_.clear();
}

void GraphScene::beginConnection(PortItem *port, const QPointF &scenePos) {
    pickedUp_ = nullptr;
    pendingFrom_ = port;
    // Pressing a connected input picks its connection up: it now follows the mouse from its source.
    if (port->kind() == PortItem::Kind::Input) {
        if (EdgeItem *edge = edgeItem(port->nodeId(), port->index())) {
            NodeItem *src = nodes_.value(edge->connection().from.node);
            if (PortItem *out =
                    src ? src->outputPort(std::max(0, src->outputIndex(edge->connection().from.port))) : nullptr) {
                pickedUp_ = edge;
                edge->hide();
                pendingFrom_ = out;
            }
        }
    }
    if (!pending_) {
        pending_ = new PendingEdgeItem;
        addItem(pending_);
    }
    updateConnection(scenePos);
    pending_->show();
}

PortItem *GraphScene::portAt(const QPointF &scenePos, PortItem *from) const {
    const qreal r = style::kPortRadius + 8;
    PortItem *best = nullptr;
    qreal bestDist = 1e18;
    for (QGraphicsItem *item : items(QRectF(scenePos - QPointF(r, r), QSizeF(2 * r, 2 * r)))) {
        if (item->type() != PortItem::Type) continue;
        auto *port = static_cast<PortItem *>(item);
        if (port == from || port->kind() == from->kind() || port->nodeId() == from->nodeId()) continue;
        const qreal d = QLineF(port->scenePos(), scenePos).length();
        if (d < bestDist) {
            bestDist = d;
            best = port;
        }
    }
    return best;
}

void GraphScene::updateConnection(const QPointF &scenePos) {
    if (!pendingFrom_ || !pending_) return;
    PortItem *target = portAt(scenePos, pendingFrom_);
    if (target != hoverTarget_) {
        if (hoverTarget_) hoverTarget_->setHighlighted(false);
        hoverTarget_ = target;
        if (hoverTarget_) hoverTarget_->setHighlighted(true);
    }
    const QPointF end = target ? target->scenePos() : scenePos;
    if (pendingFrom_->kind() == PortItem::Kind::Output)
        pending_->setEnds(pendingFrom_->scenePos(), end, verticalFlow());
    else
        pending_->setEnds(end, pendingFrom_->scenePos(), verticalFlow());
}

void GraphScene::finishConnection(const QPointF &scenePos) {
    if (hoverTarget_) hoverTarget_->setHighlighted(false);
    hoverTarget_ = nullptr;
    if (pending_) pending_->hide();
    PortItem *from = pendingFrom_;
    pendingFrom_ = nullptr;
    EdgeItem *picked = pickedUp_;
    pickedUp_ = nullptr;
    if (!from) return;
    PortItem *target = portAt(scenePos, from);
    if (picked) {
        const GraphConnection old = picked->connection();
        if (target && target->nodeId() == old.to && target->index() == old.toIndex) {
            picked->show(); // put back where it was
            return;
        }
        if (!target) { // dropped on empty canvas: the connection is removed
            doc_->disconnectInput(old.to, old.toIndex);
            return;
        }
        // Moved to another input: one undo step, refused (and restored) when it would close a cycle.
        if (doc_->wouldCreateCycle(old.from.node, target->nodeId())) {
            picked->show();
            Q_EMIT message(tr("Connecting %1 to %2 would create a cycle; networks must be acyclic.")
                               .arg(old.from.node, target->nodeId()));
            return;
        }
        int index = target->index();
        if (target->nodeId() == old.to && index > old.toIndex) --index;
        doc_->undoStack()->beginMacro(tr("Reconnect %1").arg(old.from.node));
        doc_->disconnectInput(old.to, old.toIndex);
        QString reason;
        if (!doc_->connectPorts(old.from, target->nodeId(), std::min(index, doc_->inputSlotCount(target->nodeId()) - 1),
                                &reason))
            Q_EMIT message(reason);
        doc_->undoStack()->endMacro();
        return;
    }
    if (!target) return;
    PortItem *out = from->kind() == PortItem::Kind::Output ? from : target;
    PortItem *in = from->kind() == PortItem::Kind::Output ? target : from;
    const GraphPortRef ref{out->nodeId(), out->index() == 0 ? QString() : out->name()};
    QString reason;
    if (!doc_->connectPorts(ref, in->nodeId(), in->index(), &reason)) Q_EMIT message(reason);
}

// --- Background -----------------------------------------------------------------------------

void GraphScene::drawBackground(QPainter *painter, const QRectF &rect) {
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    painter->fillRect(rect, style::isDark(pal) ? base.darker(115) : base);
    if (!grid_) return;
    // Axis-aligned hairlines: aliased drawing is crisp and several times cheaper than antialiased.
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    const qreal scale = painter->worldTransform().m11();
    auto blend = [&](qreal t) {
        return QColor::fromRgbF(base.redF() * (1 - t) + text.redF() * t, base.greenF() * (1 - t) + text.greenF() * t,
                                base.blueF() * (1 - t) + text.blueF() * t);
    };
    const qreal major = style::kGrid * 5;
    auto drawGrid = [&](qreal step, const QColor &color) {
        QVector<QLineF> lines;
        const qreal left = std::floor(rect.left() / step) * step;
        const qreal top = std::floor(rect.top() / step) * step;
        for (qreal x = left; x < rect.right(); x += step)
            lines.push_back(QLineF(x, rect.top(), x, rect.bottom()));
        for (qreal y = top; y < rect.bottom(); y += step)
            lines.push_back(QLineF(rect.left(), y, rect.right(), y));
        painter->setPen(QPen(color, 0));
        painter->drawLines(lines);
    };
    if (style::kGrid * scale >= 8) drawGrid(style::kGrid, blend(0.05));
    if (major * scale >= 8) drawGrid(major, blend(0.10));
    painter->restore();
}

bool GraphScene::event(QEvent *event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) update();
    return QGraphicsScene::event(event);
}

} // namespace diamond::ui
