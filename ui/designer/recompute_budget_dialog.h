// Edit ▸ Recompute to fit a memory budget: the user gives the batch size and how much memory the activations may take;
// the dialog previews which layers spec::chooseRecomputed marks for that (the fewest FLOPs recomputed, as the
// engine's "recompute": "auto" chooses) and, when accepted, chosenLayers() are the layers to mark.
#pragma once

#include "diamond/spec/recompute.h"

#include <QDialog>
#include <QStringList>

class QDialogButtonBox;
class QLabel;
class QSpinBox;

namespace diamond::ui {

class GraphDocument;

class RecomputeBudgetDialog : public QDialog {
    Q_OBJECT
public:
    /// `document` outlives the dialog; `batch`: the batch size to start from (the summary's).
    RecomputeBudgetDialog(const GraphDocument &document, int batch, QWidget *parent = nullptr);
    /// The layers to mark (the latest preview's choice); empty when nothing needs recomputing.
    QStringList chosenLayers() const { return chosen_; }

private:
    /// Recomputes the ends of the range (nothing / every layer recomputed) for the batch, then the preview.
    void batchChanged();
    /// Starts the choice for the current budget on a worker thread; the newest request's answer wins.
    void preview();

    const GraphDocument &document_;
    QSpinBox *batch_, *budget_;
    QLabel *range_, *preview_;
    QDialogButtonBox *buttons_;
    QStringList chosen_;
    qint64 plainBytes_ = 0, leastBytes_ = 0;
    int generation_ = 0;
};

} // namespace diamond::ui
