// The designer tab: the network canvas and the panels that go with it. MainWindow puts the
// canvas in its central tabs and palette(), inspector() and summary() in its docks; the undo
// stack feeds its Edit menu. The page has no toolbar of its own: every command is a slot.
#pragma once

#include "ui/designer/graph_document.h"

#include <QJsonObject>
#include <QPointer>
#include <QWidget>

class QUndoStack;

namespace diamond::ui {

class GraphScene;
class GraphView;
class Inspector;
class LayerPalette;
class SummaryPanel;

class DesignerPage : public QWidget {
    Q_OBJECT
public:
    explicit DesignerPage(QWidget *parent = nullptr);
    ~DesignerPage() override;

    GraphDocument *document() const { return doc_; }
    QUndoStack *undoStack() const;
    /// Panels for MainWindow's docks (reparented there; the page keeps working without them).
    QWidget *palette() const;
    QWidget *inspector() const;
    QWidget *summary() const;
    LayerPalette *layerPalette() const { return palette_; }
    Inspector *inspectorPanel() const { return inspector_; }
    SummaryPanel *summaryPanel() const { return summary_; }
    GraphScene *scene() const { return scene_; }
    GraphView *view() const { return view_; }

    /// Loads a template embedded as :/templates/<name>.json; the result is untitled and unmodified.
    bool newFromTemplate(const QString &resourcePath, QString *error = nullptr);
    /// Opens a spec file; errors name the file and the line or node id. Specs without a layout
    /// are laid out automatically.
    bool openSpec(const QString &path, QString *error);
    bool saveSpec(const QString &path, QString *error);
    /// Loads a spec given as JSON (e.g. from the gallery); the result is untitled. `origin` names it in errors.
    bool loadSpecJson(const QJsonObject &spec, const QString &origin, QString *error);
    /// Exports the graph as .png (rendered at twice the scene resolution) or .svg.
    bool exportImage(const QString &path, QString *error);
    QJsonObject specJson() const;

    QString currentFile() const { return currentFile_; }
    bool isModified() const;
    /// The spec's name, the file name, or "Untitled".
    QString title() const;

public Q_SLOTS:
    void newDocument();
    /// Graphviz layout in the current direction (one undo step).
    void autoLayout();
    void autoLayoutDirection(GraphDocument::Direction direction);
    void zoomToFit();
    void zoomIn();
    void zoomOut();
    void deleteSelection();
    void copy();
    void cut();
    void paste();
    void selectAll();
    /// Marks the selected layers to recompute in backward, or unmarks them when all of them are marked (one undo
    /// step); says what it did in message().
    void toggleRecompute();
    /// Asks for a batch size and an activation-memory budget (RecomputeBudgetDialog) and marks exactly the layers
    /// chosen for it (one undo step); says what it did in message().
    void recomputeForBudget();
    /// Shows the network cut into `stages` pipeline stages (below 2: none) as coloured bands, one undo step.
    void showPipelineStages(int stages);
    /// Ends the pipeline stage that holds the selected layer at it (Edit ▸ End the pipeline stage here).
    void endStageAtSelection();
    /// Adds a layer at the centre of the view and selects it.
    QString addLayerAtCenter(const QString &type);

Q_SIGNALS:
    void modifiedChanged(bool modified);
    void currentFileChanged(const QString &path);
    /// Transient text for the status bar (refused connections, layout errors, ...).
    void message(const QString &text);
    /// A node was double-clicked: MainWindow may raise the inspector dock.
    void nodeActivated(const QString &id);

protected:
    void showEvent(QShowEvent *event) override;

private:
    bool loadText(const QByteArray &text, const QString &origin, QString *error);
    void setCurrentFile(const QString &path);
    void onSelectionChanged();

    GraphDocument *doc_;
    GraphScene *scene_;
    GraphView *view_;
    QPointer<LayerPalette> palette_;
    QPointer<Inspector> inspector_;
    QPointer<SummaryPanel> summary_;
    QString currentFile_;
    bool fitPending_ = false;
};

} // namespace diamond::ui
