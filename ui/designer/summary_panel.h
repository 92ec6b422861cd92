// The summary panel: totals of the whole network (parameters, FLOPs per sample), the training
// memory estimate at a chosen batch size and optimizer, and the error and warning counts with
// the diagnostics that belong to no single node.
#pragma once

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QSpinBox;

namespace diamond::ui {

class GraphDocument;

class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget *parent = nullptr);

    void setDocument(GraphDocument *document);
    QSpinBox *batchSpin() const { return batch_; }
    QComboBox *optimizerCombo() const { return optimizer_; }
    /// The memory estimate currently shown, in bytes.
    qint64 memoryBytes() const { return memoryBytes_; }
    QString paramsText() const;
    QString flopsText() const;
    QString errorsText() const;

private:
    void refresh();

    QPointer<GraphDocument> doc_;
    QSpinBox *batch_;
    QComboBox *optimizer_;
    QLabel *layers_, *params_, *flops_, *memory_, *breakdown_, *errors_, *problems_;
    qint64 memoryBytes_ = 0;
};

} // namespace diamond::ui
