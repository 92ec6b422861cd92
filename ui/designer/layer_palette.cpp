#include "ui/designer/layer_palette.h"

#include "diamond/spec/registry.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/graph_style.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMimeData>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {
constexpr quintptr kFamilyRow = 0; // internalId of family rows; layer rows store family + 1
}

LayerPaletteModel::LayerPaletteModel(QObject *parent) : QAbstractItemModel(parent) {
    const spec::Registry &registry = spec::Registry::instance();
    for (const std::string &family : registry.families()) {
        Family f;
        f.name = QString::fromStdString(family);
        for (const spec::LayerType &t : registry.types()) {
            if (t.family == family) f.layers.push_back({QString::fromStdString(t.name), QString::fromStdString(t.doc)});
        }
        if (f.name == QLatin1String(kInputType))
            f.layers.push_back({QLatin1String(kOutputType), tr("A network output: connect the layer whose result "
                                                               "the network returns (e.g. the logits).")});
        families_.push_back(std::move(f));
    }
}

QModelIndex LayerPaletteModel::index(int row, int column, const QModelIndex &parent) const {
    if (column != 0 || row < 0) return {};
    if (!parent.isValid()) return row < families_.size() ? createIndex(row, 0, kFamilyRow) : QModelIndex();
    if (parent.internalId() != kFamilyRow || parent.row() >= families_.size()) return {};
    if (row >= families_[parent.row()].layers.size()) return {};
    return createIndex(row, 0, quintptr(parent.row()) + 1);
}

QModelIndex LayerPaletteModel::parent(const QModelIndex &child) const {
    if (!child.isValid() || child.internalId() == kFamilyRow) return {};
    return createIndex(int(child.internalId() - 1), 0, kFamilyRow);
}

int LayerPaletteModel::rowCount(const QModelIndex &parent) const {
    if (!parent.isValid()) return families_.size();
    if (parent.column() != 0 || parent.internalId() != kFamilyRow) return 0;
    return families_[parent.row()].layers.size();
}

int LayerPaletteModel::columnCount(const QModelIndex &) const { return 1; }

QVariant LayerPaletteModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid()) return {};
    if (index.internalId() == kFamilyRow) {
        const Family &f = families_[index.row()];
        switch (role) {
        case Qt::DisplayRole:
            return f.name == QLatin1String(kInputType) ? tr("Inputs and outputs") : style::familyTitle(f.name);
        case Qt::DecorationRole: return style::familyIcon(f.name);
        case FamilyRole: return f.name;
        case SearchRole: return QString(); // families match through their layers
        default: return {};
        }
    }
    const Family &f = families_[int(index.internalId() - 1)];
    const Layer &l = f.layers[index.row()];
    const QString family = l.type == QLatin1String(kOutputType) ? l.type : f.name;
    switch (role) {
    case Qt::DisplayRole:
    case TypeRole: return l.type;
    case Qt::DecorationRole: return style::familyIcon(family);
    case Qt::ToolTipRole:
        return QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
            .arg(l.type, l.doc.toHtmlEscaped(), tr("Drag onto the canvas, or double-click to add."));
    case FamilyRole: return family;
    case SearchRole: return QString(l.type + QLatin1Char(' ') + family + QLatin1Char(' ') + l.doc);
    default: return {};
    }
}

Qt::ItemFlags LayerPaletteModel::flags(const QModelIndex &index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    if (index.internalId() == kFamilyRow) return Qt::ItemIsEnabled;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsDragEnabled | Qt::ItemNeverHasChildren;
}

QStringList LayerPaletteModel::mimeTypes() const { return {QLatin1String(kLayerMimeType)}; }

QMimeData *LayerPaletteModel::mimeData(const QModelIndexList &indexes) const {
    for (const QModelIndex &i : indexes) {
        if (!i.isValid() || i.internalId() == kFamilyRow) continue;
        auto *mime = new QMimeData;
        const QString type = data(i, TypeRole).toString();
        mime->setData(QLatin1String(kLayerMimeType), type.toUtf8());
        mime->setText(type);
        return mime;
    }
    return nullptr;
}

QModelIndex LayerPaletteModel::indexOfType(const QString &type) const {
    for (int f = 0; f < families_.size(); ++f)
        for (int l = 0; l < families_[f].layers.size(); ++l)
            if (families_[f].layers[l].type == type) return index(l, 0, index(f, 0));
    return {};
}

// --- LayerPalette -------------------------------------------------------------------------

LayerPalette::LayerPalette(QWidget *parent)
    : QWidget(parent), model_(new LayerPaletteModel(this)), proxy_(new QSortFilterProxyModel(this)),
      tree_(new QTreeView(this)), filter_(new QLineEdit(this)) {
    setObjectName(QStringLiteral("layerPalette"));
    proxy_->setSourceModel(model_);
    proxy_->setFilterRole(LayerPaletteModel::SearchRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setRecursiveFilteringEnabled(true);

    filter_->setObjectName(QStringLiteral("layerFilter"));
    filter_->setPlaceholderText(tr("Search layers\u2026"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Filter by name, family or description; Enter adds the first match."));

    tree_->setObjectName(QStringLiteral("layerTree"));
    tree_->setModel(proxy_);
    tree_->setHeaderHidden(true);
    tree_->setDragEnabled(true);
    tree_->setDragDropMode(QAbstractItemView::DragOnly);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setIconSize(QSize(22, 22));
    tree_->setUniformRowHeights(true);
    tree_->setAnimated(true);
    tree_->setExpandsOnDoubleClick(false);
    tree_->expandAll();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(filter_);
    layout->addWidget(tree_);

    connect(filter_, &QLineEdit::textChanged, this, &LayerPalette::setFilterText);
    connect(filter_, &QLineEdit::returnPressed, this, [this] {
        for (int f = 0; f < proxy_->rowCount(); ++f) {
            const QModelIndex family = proxy_->index(f, 0);
            if (proxy_->rowCount(family) > 0) {
                activate(proxy_->index(0, 0, family));
                return;
            }
        }
    });
    // activated = double-click or Enter (single click where the style says so).
    connect(tree_, &QTreeView::activated, this, [this](const QModelIndex &i) {
        if (!tree_->model()->hasChildren(i)) activate(i);
    });
}

void LayerPalette::setFilterText(const QString &text) {
    if (filter_->text() != text) filter_->setText(text);
    proxy_->setFilterFixedString(text);
    tree_->expandAll();
}

void LayerPalette::activate(const QModelIndex &proxyIndex) {
    const QString type = proxyIndex.data(LayerPaletteModel::TypeRole).toString();
    if (!type.isEmpty()) Q_EMIT layerActivated(type);
}

} // namespace diamond::ui
