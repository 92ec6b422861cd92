// The canvas items: nodes (with ports and an error badge) and edges. Items only draw what the
// GraphScene tells them; they never change the document themselves (drags and clicks are
// forwarded to the scene, which turns them into document edits).
#pragma once

#include "ui/designer/graph_document.h"

#include <QCoreApplication>
#include <QGraphicsItem>
#include <QPainterPath>

namespace diamond::ui {

class GraphScene;
class EdgeItem;

class PortItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };
    enum class Kind { Input, Output };
    PortItem(QGraphicsItem *node, Kind kind, int index, const QString &name);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    QString nodeId() const;
    Kind kind() const { return kind_; }
    int index() const { return index_; }
    QString name() const { return name_; }
    void setConnected(bool connected);
    void setHighlighted(bool on);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void hoverEnterEvent(QGraphicsSceneHoverEvent *event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override;

private:
    GraphScene *graphScene() const;
    Kind kind_;
    int index_;
    QString name_;
    bool connected_ = false;
    bool highlighted_ = false;
    bool hovered_ = false;
};

/// Error (red) or warning (amber) marker on a node; its tooltip lists message and hint.
class BadgeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 3 };
    explicit BadgeItem(QGraphicsItem *parent);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    void setState(bool error, int count, const QString &tooltip);
    bool isError() const { return error_; }
    int count() const { return count_; }

private:
    bool error_ = true;
    int count_ = 0;
};

class NodeItem : public QGraphicsItem {
    Q_DECLARE_TR_FUNCTIONS(NodeItem)
public:
    enum { Type = UserType + 2 };
    NodeItem(GraphScene *scene, const QString &id);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    QString id() const { return id_; }
    void setId(const QString &id) { id_ = id; }
    /// Re-reads title, type, parameters, ports and position from the document.
    void syncFromDocument();
    /// Re-reads parameter count, FLOPs and diagnostics; repaints only when something changed.
    void syncAnalysis();
    /// Ports laid out for the document's flow direction.
    void layoutPorts();
    QPointF inputAnchor(int index) const;  ///< scene coordinates
    QPointF outputAnchor(int index) const; ///< scene coordinates; index into the output ports
    PortItem *inputPort(int index) const { return index >= 0 && index < inputs_.size() ? inputs_[index] : nullptr; }
    PortItem *outputPort(int index) const { return index >= 0 && index < outputs_.size() ? outputs_[index] : nullptr; }
    int outputIndex(const QString &port) const;
    BadgeItem *badge() const { return badge_; }
    QString statsText() const { return stats_; }
    QString paramsText() const { return summary_; }
    /// Whether the node is marked to recompute in backward (drawn as a ↻ before its type).
    bool recomputes() const { return recompute_; }
    /// The pipeline stage the node is in (from 0), drawn as a band of the stage's colour around it; -1: none.
    void setStage(int stage);
    int stage() const { return stage_; }

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent *event) override;

private:
    GraphScene *scene_;
    QString id_;
    QString title_, typeName_, family_, summary_, stats_;
    int stage_ = -1;
    QVector<PortItem *> inputs_, outputs_;
    BadgeItem *badge_;
    bool hasParams_ = true;
    bool recompute_ = false;
    bool pressedSelected_ = false;
    bool dragged_ = false;
};

class EdgeItem : public QGraphicsItem {
    Q_DECLARE_TR_FUNCTIONS(EdgeItem)
public:
    enum { Type = UserType + 4 };
    EdgeItem(GraphScene *scene, const GraphConnection &connection);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    const GraphConnection &connection() const { return connection_; }
    void updatePath();
    void syncAnalysis();
    QString label() const { return label_; }
    bool isInvalid() const { return invalid_; }

private:
    QRectF labelRect() const;
    GraphScene *scene_;
    GraphConnection connection_;
    QPainterPath path_;
    QPointF labelAnchor_;
    QString label_;
    bool invalid_ = false;
};

/// The dashed edge that follows the mouse while connecting ports.
class PendingEdgeItem : public QGraphicsItem {
public:
    PendingEdgeItem();
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;
    void setEnds(const QPointF &a, const QPointF &b, bool vertical);

private:
    QPainterPath path_;
};

/// A cubic bezier between two ports that leaves and enters along the flow direction.
QPainterPath edgePath(const QPointF &from, const QPointF &to, bool vertical);

} // namespace diamond::ui
