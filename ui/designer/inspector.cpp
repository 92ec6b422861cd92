#include "ui/designer/inspector.h"

#include "diamond/spec/registry.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/graph_style.h"
#include "ui/designer/json_convert.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>

namespace diamond::ui {

namespace {

const char kParamProperty[] = "diamondParam";

/// Parameters edited as text: lists, shapes, padding, strings, and every optional parameter
/// (empty text = not set).
bool editedAsText(const spec::ParamSpec &p) {
    switch (p.kind) {
    case spec::ParamKind::Int:
    case spec::ParamKind::Float:
    case spec::ParamKind::Bool:
    case spec::ParamKind::Enum: return p.optional;
    default: return true;
    }
}

QString valueToText(const QJsonValue &v) {
    if (v.isNull() || v.isUndefined()) return {};
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue &e : v.toArray())
            parts << valueToText(e);
        return parts.join(QStringLiteral(", "));
    }
    if (v.isBool()) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isDouble()) return QString::number(v.toDouble(), 'g', 10);
    return v.toString();
}

/// Parses the text of a text-edited parameter; returns false with a reason when invalid.
bool textToValue(const spec::ParamSpec &p, const QString &raw, QJsonValue *out, QString *why) {
    QString text = raw.trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']'))) text = text.mid(1, text.size() - 2);
    if (text.isEmpty()) {
        if (p.optional || !p.defaultValue.is_null()) {
            *out = QJsonValue(QJsonValue::Undefined);
            return true;
        }
        *why = Inspector::tr("%1 needs a value.").arg(qs(p.name));
        return false;
    }
    const QStringList parts =
        text.split(QRegularExpression(QStringLiteral("\\s*[,x\u00d7]\\s*|\\s+")), Qt::SkipEmptyParts);
    auto toInt = [&](const QString &s, qint64 *v) {
        bool ok = false;
        *v = s.toLongLong(&ok);
        if (!ok) *why = Inspector::tr("\"%1\" is not a whole number.").arg(s);
        return ok;
    };
    qint64 v = 0;
    switch (p.kind) {
    case spec::ParamKind::Int:
        if (!toInt(text, &v)) return false;
        *out = QJsonValue(v);
        return true;
    case spec::ParamKind::Float: {
        bool ok = false;
        const double d = text.toDouble(&ok);
        if (!ok) *why = Inspector::tr("\"%1\" is not a number.").arg(text);
        *out = QJsonValue(d);
        return ok;
    }
    case spec::ParamKind::Bool:
        if (text != QLatin1String("true") && text != QLatin1String("false")) {
            *why = Inspector::tr("Write true or false.");
            return false;
        }
        *out = QJsonValue(text == QLatin1String("true"));
        return true;
    case spec::ParamKind::Enum:
    case spec::ParamKind::String: *out = QJsonValue(text); return true;
    case spec::ParamKind::Padding:
        if (text == QLatin1String("same") || text == QLatin1String("valid")) {
            *out = QJsonValue(text);
            return true;
        }
        [[fallthrough]];
    case spec::ParamKind::IntOrList:
        if (parts.size() == 1) {
            if (!toInt(parts.first(), &v)) return false;
            *out = QJsonValue(v);
            return true;
        }
        [[fallthrough]];
    case spec::ParamKind::IntList: {
        QJsonArray a;
        for (const QString &s : parts) {
            if (!toInt(s, &v)) return false;
            a.append(v);
        }
        *out = a;
        return true;
    }
    case spec::ParamKind::Shape: {
        QJsonArray a;
        for (const QString &s : parts) {
            if (s == QLatin1String("N") || s == QLatin1String("n")) {
                a.append(QStringLiteral("N"));
                continue;
            }
            if (!toInt(s, &v)) return false;
            a.append(v);
        }
        *out = a;
        return true;
    }
    case spec::ParamKind::Strings: {
        QJsonArray a;
        for (const QString &s : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
            a.append(s.trimmed());
        *out = a;
        return true;
    }
    }
    return false;
}

spec::ParamSpec outputNameSpec() {
    spec::ParamSpec p;
    p.name = "name";
    p.kind = spec::ParamKind::String;
    p.doc = "Name of this network output, e.g. logits";
    return p;
}

} // namespace

Inspector::Inspector(QWidget *parent) : QWidget(parent), scroll_(new QScrollArea(this)) {
    setObjectName(QStringLiteral("inspector"));
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll_);
    setMinimumWidth(240);
    rebuild();
}

void Inspector::setDocument(GraphDocument *document) {
    if (doc_) disconnect(doc_, nullptr, this, nullptr);
    doc_ = document;
    id_.clear();
    if (doc_) {
        connect(doc_, &GraphDocument::nodeParamsChanged, this, [this](const QString &id) {
            if (id == id_) refreshValues();
        });
        connect(doc_, &GraphDocument::analysisChanged, this, &Inspector::refreshAnalysis);
        connect(doc_, &GraphDocument::nodeRenamed, this, [this](const QString &oldId, const QString &newId) {
            if (oldId != id_) return;
            id_ = newId;
            refreshValues();
        });
        connect(doc_, &GraphDocument::nodeAboutToBeRemoved, this, [this](const QString &id) {
            if (id == id_) setNode({}, 0);
        });
        connect(doc_, &GraphDocument::documentReset, this, [this] { setNode({}, 0); });
    }
    rebuild();
}

void Inspector::setNode(const QString &id, int selected) {
    if (id == id_ && selected == selected_ && page_) return;
    id_ = doc_ && doc_->hasNode(id) ? id : QString();
    selected_ = selected;
    rebuild();
}

void Inspector::rebuild() {
    // Editors emit change signals while they are set up; none of that is a user edit.
    const bool wasUpdating = updating_;
    updating_ = true;
    if (QWidget *old = scroll_->takeWidget()) old->deleteLater();
    editors_.clear();
    idEdit_ = nullptr;
    recomputeCheck_ = nullptr;
    shapeLabel_ = statsLabel_ = diagLabel_ = nullptr;
    page_ = new QWidget;
    auto *layout = new QVBoxLayout(page_);
    layout->setContentsMargins(10, 10, 10, 10);
    layout->setSpacing(10);
    const GraphNode *node = doc_ ? doc_->node(id_) : nullptr;
    if (!node) {
        auto *hint = new QLabel(selected_ > 1 ? tr("%n nodes selected.", nullptr, selected_)
                                              : tr("Select a layer on the canvas to edit its parameters."),
                                page_);
        hint->setWordWrap(true);
        hint->setAlignment(Qt::AlignCenter);
        hint->setForegroundRole(QPalette::PlaceholderText);
        layout->addStretch();
        layout->addWidget(hint);
        layout->addStretch();
        scroll_->setWidget(page_);
        updating_ = wasUpdating;
        return;
    }
    const spec::LayerType *type = spec::Registry::instance().find(ss(node->type));

    // Header: family icon, type and its one-line doc.
    auto *header = new QHBoxLayout;
    auto *icon = new QLabel(page_);
    icon->setPixmap(style::familyIcon(style::familyOf(node->type)).pixmap(QSize(32, 32), devicePixelRatioF()));
    header->addWidget(icon, 0, Qt::AlignTop);
    auto *title = new QLabel(QStringLiteral("<b style='font-size:large'>%1</b><br>%2")
                                 .arg(node->type.toHtmlEscaped(), type ? qs(type->doc).toHtmlEscaped()
                                                                  : node->type == QLatin1String(kOutputType)
                                                                      ? tr("A network output.")
                                                                      : tr("Unknown layer type.")),
                             page_);
    title->setWordWrap(true);
    header->addWidget(title, 1);
    layout->addLayout(header);

    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (node->type != QLatin1String(kOutputType)) {
        idEdit_ = new QLineEdit(id_, page_);
        idEdit_->setObjectName(QStringLiteral("idEdit"));
        idEdit_->setToolTip(tr("Unique id of this layer: 1 to 128 characters, no spaces or ':'."));
        connect(idEdit_, &QLineEdit::editingFinished, this, [this] {
            if (!doc_ || !idEdit_ || idEdit_->text() == id_) return;
            QString why;
            if (!doc_->renameNode(id_, idEdit_->text().trimmed(), &why)) {
                Q_EMIT message(why);
                idEdit_->setText(id_);
            }
        });
        form->addRow(node->type == QLatin1String(kInputType) ? tr("Name") : tr("Id"), idEdit_);
    }
    std::vector<spec::ParamSpec> params;
    if (node->type == QLatin1String(kOutputType))
        params.push_back(outputNameSpec());
    else if (type)
        params = type->params;
    for (const spec::ParamSpec &p : params) {
        QWidget *editor = createEditor(p);
        editors_.insert(qs(p.name), editor);
        auto *label = new QLabel(qs(p.name) + (p.required() ? QStringLiteral(" *") : QString()), page_);
        label->setToolTip(qs(p.doc));
        label->setBuddy(editor);
        form->addRow(label, editor);
    }
    auto *paramsBox = new QGroupBox(tr("Parameters"), page_);
    paramsBox->setLayout(form);
    layout->addWidget(paramsBox);

    if (doc_->canRecompute(id_)) {
        auto *memoryBox = new QGroupBox(tr("Memory"), page_);
        auto *memory = new QVBoxLayout(memoryBox);
        recomputeCheck_ = new QCheckBox(tr("\u21bb Recompute in backward"), memoryBox);
        recomputeCheck_->setObjectName(QStringLiteral("recomputeCheck"));
        recomputeCheck_->setToolTip(
            tr("Training keeps none of this layer's intermediate values for the backward pass and computes them "
               "again there: much less memory for about one more forward pass. Mark consecutive layers (or use "
               "Edit \u25b8 Recompute in backward on a selection); the trained weights do not change."));
        connect(recomputeCheck_, &QCheckBox::toggled, this, [this](bool on) {
            if (!updating_ && doc_) doc_->setRecompute({id_}, on);
        });
        memory->addWidget(recomputeCheck_);
        layout->addWidget(memoryBox);
    }

    auto *analysisBox = new QGroupBox(tr("Analysis"), page_);
    auto *analysis = new QFormLayout(analysisBox);
    shapeLabel_ = new QLabel(page_);
    shapeLabel_->setObjectName(QStringLiteral("shapeLabel"));
    shapeLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statsLabel_ = new QLabel(page_);
    statsLabel_->setObjectName(QStringLiteral("statsLabel"));
    statsLabel_->setWordWrap(true);
    analysis->addRow(tr("Output"), shapeLabel_);
    analysis->addRow(tr("Size"), statsLabel_);
    layout->addWidget(analysisBox);
    diagLabel_ = new QLabel(page_);
    diagLabel_->setObjectName(QStringLiteral("diagnosticsLabel"));
    diagLabel_->setWordWrap(true);
    diagLabel_->setTextFormat(Qt::RichText);
    layout->addWidget(diagLabel_);
    layout->addStretch();
    scroll_->setWidget(page_);
    updating_ = wasUpdating;
    refreshValues();
    refreshAnalysis();
}

QWidget *Inspector::createEditor(const spec::ParamSpec &p) {
    const QString name = qs(p.name);
    QWidget *editor = nullptr;
    if (editedAsText(p)) {
        auto *edit = new QLineEdit(page_);
        if (p.optional)
            edit->setPlaceholderText(tr("not set"));
        else if (!p.defaultValue.is_null())
            edit->setPlaceholderText(valueToText(toQJson(p.defaultValue)));
        connect(edit, &QLineEdit::editingFinished, this, [this, name, edit] { commitText(name, edit); });
        editor = edit;
    } else if (p.kind == spec::ParamKind::Int) {
        auto *spin = new QSpinBox(page_);
        spin->setRange(p.minimum ? int(std::max<double>(*p.minimum, INT_MIN)) : -1000000000,
                       p.maximum ? int(std::min<double>(*p.maximum, INT_MAX)) : INT_MAX);
        spin->setAccelerated(true);
        connect(spin, &QSpinBox::valueChanged, this, [this, name](int v) { commit(name, QJsonValue(qint64(v))); });
        editor = spin;
    } else if (p.kind == spec::ParamKind::Float) {
        auto *spin = new QDoubleSpinBox(page_);
        spin->setDecimals(6);
        spin->setRange(p.minimum.value_or(-1e9), p.maximum.value_or(1e9));
        spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, name](double v) { commit(name, QJsonValue(v)); });
        editor = spin;
    } else if (p.kind == spec::ParamKind::Bool) {
        auto *check = new QCheckBox(page_);
        connect(check, &QCheckBox::toggled, this, [this, name](bool on) { commit(name, QJsonValue(on)); });
        editor = check;
    } else {
        auto *combo = new QComboBox(page_);
        for (const std::string &c : p.choices)
            combo->addItem(qs(c));
        connect(combo, &QComboBox::currentTextChanged, this,
                [this, name](const QString &text) { commit(name, QJsonValue(text)); });
        editor = combo;
    }
    editor->setObjectName(QStringLiteral("param_") + name);
    editor->setProperty(kParamProperty, name);
    QString tip = qs(p.doc);
    if (p.minimum || p.maximum)
        tip += QStringLiteral(" (") +
               (p.minimum && p.maximum ? tr("%1 to %2").arg(*p.minimum).arg(*p.maximum)
                : p.minimum            ? tr("at least %1").arg(*p.minimum)
                                       : tr("at most %1").arg(*p.maximum)) +
               QLatin1Char(')');
    editor->setToolTip(tip);
    return editor;
}

void Inspector::commit(const QString &name, const QJsonValue &value) {
    if (updating_ || !doc_ || id_.isEmpty()) return;
    doc_->setParam(id_, name, value);
}

void Inspector::commitText(const QString &name, QLineEdit *edit) {
    if (updating_ || !doc_ || id_.isEmpty()) return;
    const GraphNode *node = doc_->node(id_);
    if (!node) return;
    spec::ParamSpec p = outputNameSpec();
    if (node->type != QLatin1String(kOutputType)) {
        const spec::LayerType *t = spec::Registry::instance().find(ss(node->type));
        const spec::ParamSpec *found = t ? t->param(ss(name)) : nullptr;
        if (!found) return;
        p = *found;
    }
    QJsonValue value;
    QString why;
    if (!textToValue(p, edit->text(), &value, &why)) {
        edit->setStyleSheet(
            QStringLiteral("QLineEdit { border: 2px solid %1; }").arg(style::errorColor(palette()).name()));
        edit->setToolTip(why);
        Q_EMIT message(why);
        return;
    }
    edit->setStyleSheet(QString());
    edit->setToolTip(qs(p.doc));
    commit(name, value);
}

void Inspector::refreshValues() {
    if (!doc_ || id_.isEmpty()) return;
    updating_ = true;
    if (idEdit_ && !idEdit_->hasFocus()) idEdit_->setText(id_);
    if (recomputeCheck_) {
        QSignalBlocker block(recomputeCheck_);
        recomputeCheck_->setChecked(doc_->recomputes(id_));
    }
    const QJsonObject written = doc_->params(id_);
    for (auto it = editors_.begin(); it != editors_.end(); ++it) {
        QWidget *w = it.value();
        const QJsonValue v = doc_->param(id_, it.key());
        QSignalBlocker block(w);
        if (auto *spin = qobject_cast<QSpinBox *>(w)) {
            spin->setValue(int(v.toInteger()));
        } else if (auto *dspin = qobject_cast<QDoubleSpinBox *>(w)) {
            dspin->setValue(v.toDouble());
        } else if (auto *check = qobject_cast<QCheckBox *>(w)) {
            check->setChecked(v.toBool());
        } else if (auto *combo = qobject_cast<QComboBox *>(w)) {
            combo->setCurrentText(v.toString());
        } else if (auto *edit = qobject_cast<QLineEdit *>(w)) {
            // Line edits show only what is written; the default is the placeholder.
            const QString text = written.contains(it.key()) ? valueToText(written.value(it.key())) : QString();
            if (!edit->hasFocus() || edit->text() != text) edit->setText(text);
        }
    }
    updating_ = false;
}

void Inspector::refreshAnalysis() {
    if (!doc_ || id_.isEmpty() || !shapeLabel_) return;
    const GraphNode *node = doc_->node(id_);
    if (!node) return;
    QStringList shapes;
    if (node->type == QLatin1String(kOutputType)) {
        if (!node->inputs.isEmpty()) shapes << doc_->shapeText(node->inputs.first());
    } else {
        const QStringList ports = doc_->outputPorts(id_);
        for (int i = 0; i < ports.size(); ++i) {
            const QString s = doc_->shapeText({id_, i == 0 ? QString() : ports[i]});
            if (!s.isEmpty()) shapes << (ports.size() > 1 ? ports[i] + QStringLiteral(": ") + s : s);
        }
    }
    shapeLabel_->setText(shapes.isEmpty() ? QStringLiteral("\u2014") : shapes.join(QLatin1Char('\n')));
    const diamond::spec::NodeInfo *info = doc_->analysis().node(ss(id_));
    if (info && info->ok)
        statsLabel_->setText(tr("%1 parameters, %2 per sample")
                                 .arg(QLocale().toString(info->paramCount), style::flopsText(info->flops)));
    else
        statsLabel_->setText(QStringLiteral("\u2014"));
    QString html;
    const QColor err = style::errorColor(palette()), warn = style::warningColor(palette());
    for (const spec::Diagnostic &d : doc_->diagnostics(id_)) {
        const bool error = d.severity == spec::Severity::Error;
        html +=
            QStringLiteral("<p><span style='color:%1'><b>%2</b></span> %3")
                .arg((error ? err : warn).name(), error ? tr("Error:") : tr("Warning:"), qs(d.message).toHtmlEscaped());
        if (!d.hint.empty()) html += QStringLiteral("<br><i>%1</i>").arg(qs(d.hint).toHtmlEscaped());
        html += QStringLiteral("</p>");
    }
    diagLabel_->setText(html);
    diagLabel_->setVisible(!html.isEmpty());
}

QString Inspector::outputShapeText() const { return shapeLabel_ ? shapeLabel_->text() : QString(); }

QString Inspector::statsText() const { return statsLabel_ ? statsLabel_->text() : QString(); }

QString Inspector::diagnosticsText() const { return diagLabel_ ? diagLabel_->text() : QString(); }

} // namespace diamond::ui
