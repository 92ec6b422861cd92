#include "ui/designer/summary_panel.h"

#include "app/run/run_config_defaults.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/graph_style.h"
#include "ui/designer/json_convert.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {
QLabel *valueLabel(QWidget *parent, const QString &name) {
    auto *l = new QLabel(parent);
    l->setObjectName(name);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}
} // namespace

SummaryPanel::SummaryPanel(QWidget *parent)
    : QWidget(parent), batch_(new QSpinBox(this)), optimizer_(new QComboBox(this)),
      layers_(valueLabel(this, QStringLiteral("layersValue"))),
      params_(valueLabel(this, QStringLiteral("paramsValue"))), flops_(valueLabel(this, QStringLiteral("flopsValue"))),
      memory_(valueLabel(this, QStringLiteral("memoryValue"))),
      breakdown_(valueLabel(this, QStringLiteral("memoryBreakdown"))),
      errors_(valueLabel(this, QStringLiteral("errorsValue"))),
      problems_(valueLabel(this, QStringLiteral("problems"))) {
    setObjectName(QStringLiteral("summaryPanel"));
    batch_->setObjectName(QStringLiteral("batchSpin"));
    batch_->setRange(1, 1 << 20);
    batch_->setValue(app::runConfigDefault(QStringLiteral("batch_size")).toInt()); // the run config's default
    batch_->setAccelerated(true);
    batch_->setToolTip(tr("Samples per training step used for the memory estimate."));
    optimizer_->setObjectName(QStringLiteral("optimizerCombo"));
    optimizer_->addItem(tr("Adam"), int(spec::Optimizer::Adam));
    optimizer_->addItem(tr("AdamW"), int(spec::Optimizer::AdamW));
    optimizer_->addItem(tr("SGD"), int(spec::Optimizer::SGD));
    optimizer_->addItem(tr("SGD with momentum"), int(spec::Optimizer::SGDMomentum));
    optimizer_->addItem(tr("RMSprop"), int(spec::Optimizer::RMSprop));
    optimizer_->setToolTip(tr("The optimizer's state adds 0\u00d7 (SGD), 1\u00d7 (momentum, RMSprop) or 2\u00d7 (Adam) "
                              "the weights."));
    breakdown_->setWordWrap(true);
    breakdown_->setForegroundRole(QPalette::PlaceholderText);
    problems_->setWordWrap(true);
    problems_->setTextFormat(Qt::RichText);
    QFont big = params_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    for (QLabel *l : {params_, flops_, memory_})
        l->setFont(big);

    auto *form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    form->addRow(tr("Layers"), layers_);
    form->addRow(tr("Parameters"), params_);
    form->addRow(tr("FLOPs per sample"), flops_);
    form->addRow(tr("Batch size"), batch_);
    form->addRow(tr("Optimizer"), optimizer_);
    form->addRow(tr("Training memory"), memory_);
    form->addRow(QString(), breakdown_);
    form->addRow(tr("Problems"), errors_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 10, 10, 10);
    layout->addLayout(form);
    layout->addWidget(problems_);
    layout->addStretch();

    connect(batch_, &QSpinBox::valueChanged, this, &SummaryPanel::refresh);
    connect(optimizer_, &QComboBox::currentIndexChanged, this, &SummaryPanel::refresh);
    refresh();
}

void SummaryPanel::setDocument(GraphDocument *document) {
    if (doc_) disconnect(doc_, nullptr, this, nullptr);
    doc_ = document;
    if (doc_) connect(doc_, &GraphDocument::analysisChanged, this, &SummaryPanel::refresh);
    refresh();
}

void SummaryPanel::refresh() {
    if (!doc_) {
        for (QLabel *l : {layers_, params_, flops_, memory_, breakdown_, errors_, problems_})
            l->clear();
        memoryBytes_ = 0;
        return;
    }
    const QLocale locale;
    layers_->setText(locale.toString(doc_->nodeCount()));
    params_->setText(locale.toString(doc_->totalParams()));
    params_->setToolTip(tr("%1 trainable parameters").arg(style::compactCount(doc_->totalParams())));
    flops_->setText(style::flopsText(doc_->totalFlops()));
    const auto optimizer = static_cast<spec::Optimizer>(optimizer_->currentData().toInt());
    const spec::MemoryEstimate m = doc_->memoryEstimate(batch_->value(), optimizer);
    memoryBytes_ = m.total();
    memory_->setText(style::bytesText(m.total()));
    breakdown_->setText(tr("weights %1 \u00b7 gradients %2 \u00b7 optimizer %3 \u00b7 activations %4")
                            .arg(style::bytesText(m.weights), style::bytesText(m.gradients),
                                 style::bytesText(m.optimizerState), style::bytesText(m.activations)));
    const int errors = doc_->errorCount(), warnings = doc_->warningCount();
    const QColor err = style::errorColor(palette()), warn = style::warningColor(palette());
    if (errors == 0 && warnings == 0) {
        errors_->setText(tr("None"));
    } else {
        QStringList parts;
        if (errors)
            parts << QStringLiteral("<span style='color:%1'>%2</span>")
                         .arg(err.name(), tr("%n error(s)", nullptr, errors));
        if (warnings)
            parts << QStringLiteral("<span style='color:%1'>%2</span>")
                         .arg(warn.name(), tr("%n warning(s)", nullptr, warnings));
        errors_->setText(parts.join(QStringLiteral(", ")));
    }
    QString html;
    for (const spec::Diagnostic &d : doc_->documentDiagnostics()) {
        html += QStringLiteral("<p><span style='color:%1'>\u25cf</span> %2")
                    .arg((d.severity == spec::Severity::Error ? err : warn).name(), qs(d.message).toHtmlEscaped());
        if (!d.hint.empty()) html += QStringLiteral("<br><i>%1</i>").arg(qs(d.hint).toHtmlEscaped());
        html += QStringLiteral("</p>");
    }
    problems_->setText(html);
    problems_->setVisible(!html.isEmpty());
}

QString SummaryPanel::paramsText() const { return params_->text(); }

QString SummaryPanel::flopsText() const { return flops_->text(); }

QString SummaryPanel::errorsText() const { return errors_->text(); }

} // namespace diamond::ui
