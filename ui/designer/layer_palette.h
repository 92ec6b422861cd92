// The layer palette: every registry layer (plus the designer's Output node) grouped by family,
// with icons, a search field, drag-and-drop onto the canvas (MIME application/x-diamond-layer)
// and double-click to add at the view centre.
#pragma once

#include <QAbstractItemModel>
#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace diamond::ui {

class LayerPaletteModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Role { TypeRole = Qt::UserRole + 1, FamilyRole, SearchRole };
    explicit LayerPaletteModel(QObject *parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QStringList mimeTypes() const override;
    QMimeData *mimeData(const QModelIndexList &indexes) const override;
    Qt::DropActions supportedDragActions() const override { return Qt::CopyAction; }

    /// Index of a layer type, invalid when unknown.
    QModelIndex indexOfType(const QString &type) const;

private:
    struct Layer {
        QString type, doc;
    };
    struct Family {
        QString name;
        QVector<Layer> layers;
    };
    QVector<Family> families_;
};

class LayerPalette : public QWidget {
    Q_OBJECT
public:
    explicit LayerPalette(QWidget *parent = nullptr);

    LayerPaletteModel *model() const { return model_; }
    QSortFilterProxyModel *proxyModel() const { return proxy_; }
    QTreeView *treeView() const { return tree_; }
    QLineEdit *filterEdit() const { return filter_; }
    void setFilterText(const QString &text);

Q_SIGNALS:
    /// A layer was double-clicked (or chosen with Enter): add it at the view centre.
    void layerActivated(const QString &type);

private:
    void activate(const QModelIndex &proxyIndex);
    LayerPaletteModel *model_;
    QSortFilterProxyModel *proxy_;
    QTreeView *tree_;
    QLineEdit *filter_;
};

} // namespace diamond::ui
