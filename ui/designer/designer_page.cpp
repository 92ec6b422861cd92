#include "ui/designer/designer_page.h"

#include "ui/designer/graph_items.h"
#include "ui/designer/graph_layout.h"
#include "ui/designer/graph_scene.h"
#include "ui/designer/graph_style.h"
#include "ui/designer/graph_view.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/recompute_budget_dialog.h"
#include "ui/designer/summary_panel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QPainter>
#include <QSaveFile>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

namespace diamond::ui {

DesignerPage::DesignerPage(QWidget *parent)
    : QWidget(parent), doc_(new GraphDocument(this)), scene_(new GraphScene(doc_, this)),
      view_(new GraphView(scene_, this)) {
    setObjectName(QStringLiteral("designerPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);

    // The panels start as hidden children; MainWindow moves them into its docks.
    palette_ = new LayerPalette(this);
    palette_->hide();
    inspector_ = new Inspector(this);
    inspector_->hide();
    inspector_->setDocument(doc_);
    summary_ = new SummaryPanel(this);
    summary_->hide();
    summary_->setDocument(doc_);

    connect(palette_, &LayerPalette::layerActivated, this, &DesignerPage::addLayerAtCenter);
    connect(inspector_, &Inspector::message, this, &DesignerPage::message);
    connect(view_, &GraphView::message, this, &DesignerPage::message);
    connect(scene_, &QGraphicsScene::selectionChanged, this, &DesignerPage::onSelectionChanged);
    connect(scene_, &GraphScene::nodeActivated, this, &DesignerPage::nodeActivated);
    connect(doc_->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

DesignerPage::~DesignerPage() {
    // Panels living in MainWindow's docks outlive the page: detach them from the document.
    if (inspector_) inspector_->setDocument(nullptr);
    if (summary_) summary_->setDocument(nullptr);
    if (palette_) disconnect(palette_, nullptr, this, nullptr);
    disconnect(scene_, nullptr, this, nullptr);
    // The view and the scene go before the document they project.
    delete view_;
    delete scene_;
}

QUndoStack *DesignerPage::undoStack() const { return doc_->undoStack(); }

QWidget *DesignerPage::palette() const { return palette_; }

QWidget *DesignerPage::inspector() const { return inspector_; }

QWidget *DesignerPage::summary() const { return summary_; }

bool DesignerPage::isModified() const { return !doc_->undoStack()->isClean(); }

QString DesignerPage::title() const {
    if (!currentFile_.isEmpty()) return QFileInfo(currentFile_).fileName();
    if (!doc_->name().isEmpty()) return doc_->name();
    return tr("Untitled");
}

QJsonObject DesignerPage::specJson() const { return doc_->toJsonObject(); }

void DesignerPage::setCurrentFile(const QString &path) {
    if (currentFile_ == path) return;
    currentFile_ = path;
    Q_EMIT currentFileChanged(path);
}

void DesignerPage::newDocument() {
    const bool wasModified = isModified();
    doc_->clear();
    setCurrentFile(QString());
    if (wasModified) Q_EMIT modifiedChanged(false);
    zoomToFit();
}

bool DesignerPage::loadText(const QByteArray &text, const QString &origin, QString *error) {
    const bool wasModified = isModified();
    QString why;
    if (!doc_->loadJson(text, &why)) {
        if (error) *error = tr("Cannot open %1: %2").arg(origin, why);
        return false;
    }
    if (doc_->needsLayout()) {
        QString layoutError;
        const QHash<QString, QPointF> positions = computeLayout(*doc_, doc_->direction(), &layoutError);
        if (positions.isEmpty() && doc_->nodeCount() > 0)
            Q_EMIT message(layoutError);
        else
            doc_->setPositionsWithoutUndo(positions);
    }
    if (wasModified) Q_EMIT modifiedChanged(false);
    view_->fitForReading();
    fitPending_ = !isVisible();
    return true;
}

bool DesignerPage::newFromTemplate(const QString &resourcePath, QString *error) {
    QFile file(resourcePath);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = tr("Cannot read the template %1.").arg(resourcePath);
        return false;
    }
    if (!loadText(file.readAll(), resourcePath, error)) return false;
    setCurrentFile(QString());
    return true;
}

bool DesignerPage::loadSpecJson(const QJsonObject &spec, const QString &origin, QString *error) {
    if (!loadText(QJsonDocument(spec).toJson(), origin, error)) return false;
    setCurrentFile(QString());
    return true;
}

bool DesignerPage::openSpec(const QString &path, QString *error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = tr("Cannot open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    if (!loadText(file.readAll(), QDir::toNativeSeparators(path), error)) return false;
    setCurrentFile(path);
    return true;
}

bool DesignerPage::saveSpec(const QString &path, QString *error) {
    QSaveFile file(path);
    const std::string text = doc_->toJson().dump(2) + "\n";
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit()) {
        if (error) *error = tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    doc_->undoStack()->setClean();
    setCurrentFile(path);
    return true;
}

bool DesignerPage::exportImage(const QString &path, QString *error) {
    const QRectF source = scene_->contentRect().adjusted(-24, -24, 24, 24);
    if (source.isEmpty()) {
        if (error) *error = tr("There is nothing to export: the graph is empty.");
        return false;
    }
    // Export without the selection highlight and the grid.
    const QStringList selected = scene_->selectedNodeIds();
    scene_->clearSelection();
    scene_->setGridVisible(false);
    bool ok = false;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(title());
        svg.setDescription(tr("Network diagram exported by Diamond"));
        QPainter painter;
        if (painter.begin(&svg)) {
            scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
            ok = painter.end();
        }
        ok = ok && QFileInfo::exists(path);
    } else if (suffix == QLatin1String("png")) {
        const qreal scale = 2.0;
        QImage image((source.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(scene_->palette().color(QPalette::Base));
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        scene_->render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        painter.end();
        ok = image.save(path, "PNG");
    } else {
        scene_->setGridVisible(true);
        scene_->selectNodes(selected);
        if (error) *error = tr("Cannot export %1: use a .png or .svg file name.").arg(QDir::toNativeSeparators(path));
        return false;
    }
    scene_->setGridVisible(true);
    scene_->selectNodes(selected);
    if (!ok && error) *error = tr("Cannot write %1.").arg(QDir::toNativeSeparators(path));
    return ok;
}

void DesignerPage::autoLayout() { autoLayoutDirection(doc_->direction()); }

void DesignerPage::autoLayoutDirection(GraphDocument::Direction direction) {
    QString error;
    const QHash<QString, QPointF> positions = computeLayout(*doc_, direction, &error);
    if (positions.isEmpty()) {
        if (!error.isEmpty()) Q_EMIT message(error);
        return;
    }
    doc_->applyLayout(positions, direction);
    zoomToFit();
}

void DesignerPage::zoomToFit() { view_->zoomToFit(); }

void DesignerPage::zoomIn() { view_->zoomIn(); }

void DesignerPage::zoomOut() { view_->zoomOut(); }

void DesignerPage::deleteSelection() { view_->deleteSelection(); }

void DesignerPage::copy() { view_->copy(); }

void DesignerPage::cut() { view_->cut(); }

void DesignerPage::paste() { view_->paste(); }

void DesignerPage::selectAll() { view_->selectAll(); }

void DesignerPage::toggleRecompute() {
    QStringList layers;
    bool allMarked = true;
    for (const QString &id : scene_->selectedNodeIds()) {
        if (!doc_->canRecompute(id)) continue;
        layers << id;
        allMarked = allMarked && doc_->recomputes(id);
    }
    if (layers.isEmpty()) {
        Q_EMIT message(tr("Select the layers to recompute in backward."));
        return;
    }
    doc_->setRecompute(layers, !allMarked);
    Q_EMIT message(allMarked ? tr("%n layer(s) keep their activations again.", nullptr, int(layers.size()))
                             : tr("%n layer(s) recompute their activations in backward: less memory, more time.",
                                  nullptr, int(layers.size())));
}

void DesignerPage::showPipelineStages(int stages) {
    if (!doc_->setPipelineStages(stages)) {
        if (stages >= 2 && doc_->pipelineStages() != stages)
            Q_EMIT message(
                tr("The network cannot be cut into %1 stages (too few layers, or errors to fix first).").arg(stages));
        return;
    }
    Q_EMIT message(stages >= 2 ? tr("%1 pipeline stages, cut where the computation balances. Select a layer and use "
                                    "Edit ▸ End the pipeline stage here to move a cut.")
                                     .arg(stages)
                               : tr("Pipeline stages hidden."));
}

void DesignerPage::endStageAtSelection() {
    const QStringList selected = scene_->selectedNodeIds();
    if (doc_->pipelineStages() < 2) {
        Q_EMIT message(tr("Show the pipeline stages first (Edit ▸ Pipeline stages)."));
        return;
    }
    if (selected.size() != 1 || !doc_->endPipelineStageAt(selected.first())) {
        Q_EMIT message(tr("Select one layer that does not already end its stage."));
        return;
    }
    Q_EMIT message(tr("The stage now ends at %1.").arg(selected.first()));
}

void DesignerPage::recomputeForBudget() {
    RecomputeBudgetDialog dialog(*doc_, summary_ ? summary_->batchSpin()->value() : 32, this);
    if (dialog.exec() != QDialog::Accepted) return;
    const QStringList layers = dialog.chosenLayers();
    if (!doc_->setRecomputedLayers(layers)) {
        Q_EMIT message(tr("The layers marked already fit that budget."));
        return;
    }
    Q_EMIT message(layers.isEmpty() ? tr("No layer needs recomputing for that budget; the marks are cleared.")
                                    : tr("%n layer(s) recompute their activations in backward to fit the budget.",
                                         nullptr, int(layers.size())));
}

QString DesignerPage::addLayerAtCenter(const QString &type) {
    const QPointF at = view_->viewCenter() - QPointF(style::kNodeWidth / 2, style::kNodeHeight / 2);
    const QString id = doc_->addNode(type, scene_->snapped(at));
    if (!id.isEmpty()) scene_->selectNodes({id});
    return id;
}

void DesignerPage::onSelectionChanged() {
    if (!inspector_) return;
    const QStringList ids = scene_->selectedNodeIds();
    inspector_->setNode(ids.size() == 1 ? ids.first() : QString(), ids.size());
}

void DesignerPage::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (fitPending_) {
        fitPending_ = false;
        QTimer::singleShot(0, view_, &GraphView::fitForReading);
    }
}

} // namespace diamond::ui
