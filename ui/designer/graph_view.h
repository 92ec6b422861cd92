// The canvas view: zoom (Ctrl+wheel, +/-), pan (middle drag or Space+drag), fit (F), rubber-band
// selection, Delete, Ctrl+C/Ctrl+V, and drops from the layer palette.
#pragma once

#include <QGraphicsView>

namespace diamond::ui {

class GraphScene;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(GraphScene *scene, QWidget *parent = nullptr);

    GraphScene *graphScene() const { return scene_; }
    qreal zoom() const { return transform().m11(); }
    void setZoom(qreal zoom);
    /// Scene position at the centre of the viewport.
    QPointF viewCenter() const;

public Q_SLOTS:
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    /// Fits the graph, but never below a readable zoom: large graphs show their beginning.
    void fitForReading();
    void deleteSelection();
    void copy();
    void cut();
    void paste();
    void selectAll();

Q_SIGNALS:
    void zoomChanged(qreal zoom);
    /// Where a palette drop or a paste failed, or why a connection was refused.
    void message(const QString &text);

protected:
    bool event(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void keyReleaseEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void changeEvent(QEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;

private:
    bool handlesKey(const QKeyEvent *event) const;
    GraphScene *scene_;
    bool spaceHeld_ = false;
    bool panning_ = false;
    QPoint panLast_;
};

} // namespace diamond::ui
