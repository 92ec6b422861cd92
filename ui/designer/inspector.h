// The inspector: typed editors for the selected node, built from the layer registry (spin boxes
// with the registry's ranges, combo boxes for enums, check boxes, line edits for shapes and
// lists; the registry's one-line docs as tooltips). Every edit goes through GraphDocument, so it
// is undoable; the node's output shape, parameter count, FLOPs and diagnostics are shown below.
#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

class QFormLayout;
class QLabel;
class QCheckBox;
class QLineEdit;
class QScrollArea;
class QVBoxLayout;

namespace diamond::spec {
struct ParamSpec;
}

namespace diamond::ui {

class GraphDocument;

class Inspector : public QWidget {
    Q_OBJECT
public:
    explicit Inspector(QWidget *parent = nullptr);

    void setDocument(GraphDocument *document);
    /// Shows `id` (empty: nothing selected; `selected` > 1 says how many are).
    void setNode(const QString &id, int selected = 1);
    QString nodeId() const { return id_; }

    /// The editor of a parameter (QSpinBox, QDoubleSpinBox, QComboBox, QCheckBox or QLineEdit).
    QWidget *editor(const QString &param) const { return editors_.value(param); }
    QLineEdit *idEdit() const { return idEdit_; }
    QString outputShapeText() const;
    QString statsText() const;
    QString diagnosticsText() const;

Q_SIGNALS:
    /// A rename or a value was refused; the text says why.
    void message(const QString &text);

private:
    void rebuild();
    void refreshValues();
    void refreshAnalysis();
    QWidget *createEditor(const spec::ParamSpec &p);
    void commit(const QString &name, const QJsonValue &value);
    void commitText(const QString &name, QLineEdit *edit);

    QPointer<GraphDocument> doc_;
    QString id_;
    int selected_ = 0;
    QScrollArea *scroll_;
    QWidget *page_ = nullptr;
    QLineEdit *idEdit_ = nullptr;
    QCheckBox *recomputeCheck_ = nullptr;
    QLabel *shapeLabel_ = nullptr;
    QLabel *statsLabel_ = nullptr;
    QLabel *diagLabel_ = nullptr;
    QHash<QString, QWidget *> editors_;
    bool updating_ = false;
};

} // namespace diamond::ui
