// The canvas scene: a projection of a GraphDocument. It creates and updates node and edge items
// from the document's signals and turns mouse gestures (node drags, port-to-port drags) into
// document edits; it never holds state the document does not have.
#pragma once

#include "ui/designer/graph_document.h"

#include <QGraphicsScene>
#include <QHash>
#include <QPointer>

namespace diamond::ui {

class NodeItem;
class EdgeItem;
class PortItem;
class PendingEdgeItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(GraphDocument *document, QObject *parent = nullptr);
    ~GraphScene() override;

    GraphDocument *document() const { return doc_; }
    NodeItem *nodeItem(const QString &id) const { return nodes_.value(id); }
    QList<NodeItem *> nodeItems() const { return nodes_.values(); }
    EdgeItem *edgeItem(const QString &to, int toIndex) const;
    QList<EdgeItem *> edgeItems() const;
    bool verticalFlow() const { return doc_->direction() == GraphDocument::Direction::TopToBottom; }

    QStringList selectedNodeIds() const;
    void selectNodes(const QStringList &ids);
    /// Bounding rectangle of all nodes (and labels), or an empty rect.
    QRectF contentRect() const;

    bool snapToGrid() const { return snap_; }
    void setSnapToGrid(bool on) { snap_ = on; }
    QPointF snapped(const QPointF &p) const;
    bool gridVisible() const { return grid_; }
    void setGridVisible(bool on);

    /// Deletes the selected nodes and the selected edges (one undo step).
    void deleteSelection();
    void copySelection();
    /// Pastes the clipboard's nodes with their top-left at `at` (or shifted by 40 px when null).
    QStringList paste(const QPointF *at = nullptr);

    // Gestures forwarded by items.
    void beginNodeDrag(NodeItem *item, const QPointF &scenePos);
    void dragNodes(const QPointF &scenePos);
    void endNodeDrag();
    void beginConnection(PortItem *port, const QPointF &scenePos);
    void updateConnection(const QPointF &scenePos);
    void finishConnection(const QPointF &scenePos);

Q_SIGNALS:
    /// A short message for the status bar (e.g. why a connection was refused).
    void message(const QString &text);
    /// A node was double-clicked (e.g. to focus the inspector).
    void nodeActivated(const QString &id);

protected:
    void drawBackground(QPainter *painter, const QRectF &rect) override;
    bool event(QEvent *event) override;

private:
    void rebuild();
    void addNodeItem(const QString &id);
    void removeNodeItem(const QString &id);
    void renameNodeItem(const QString &oldId, const QString &newId);
    void syncEdgesInto(const QString &id);
    void removeEdge(EdgeItem *edge);
    void updateEdgesOf(const QString &id);
    void refreshPortStates(const QString &id);
    void onAnalysisChanged();
    /// Each node's pipeline stage (GraphDocument::pipelineStageOfNodes), drawn as a coloured band behind it.
    void syncStages();
    void onDirectionChanged();
    PortItem *portAt(const QPointF &scenePos, PortItem *from) const;
    void growSceneRect();

    GraphDocument *doc_;
    QHash<QString, NodeItem *> nodes_;
    QHash<QString, QVector<EdgeItem *>> edgesInto_; ///< by consumer id, in input order
    QMultiHash<QString, EdgeItem *> edgesFrom_;     ///< by producer id
    bool snap_ = true;
    bool grid_ = true;

    // Node drag state.
    QString dragAnchor_;
    QPointF dragPress_;
    QHash<QString, QPointF> dragStart_;
    int dragSession_ = 0;
    bool dragging_ = false;

    // Connection drag state.
    PortItem *pendingFrom_ = nullptr;
    PendingEdgeItem *pending_ = nullptr;
    PortItem *hoverTarget_ = nullptr;
    EdgeItem *pickedUp_ = nullptr; ///< existing edge being dragged off an input port
};

} // namespace diamond::ui
