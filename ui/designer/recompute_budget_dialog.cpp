#include "ui/designer/recompute_budget_dialog.h"

#include "ui/designer/graph_document.h"
#include "ui/designer/graph_style.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace diamond::ui {

namespace {

constexpr qint64 kMiB = 1024 * 1024;

struct Preview {
    spec::RecomputeChoice choice;
    qint64 allFlops = 0;
    int layers = 0;
};

Preview choose(const spec::Analysis &analysis, qint64 batch, qint64 budget) {
    spec::MemoryOptions options;
    options.batch = batch;
    Preview p{spec::chooseRecomputed(analysis, options, budget), analysis.totalFlops, 0};
    for (const spec::NodeInfo &n : analysis.nodes)
        p.layers += n.type == "Input" ? 0 : 1;
    return p;
}

} // namespace

RecomputeBudgetDialog::RecomputeBudgetDialog(const GraphDocument &document, int batch, QWidget *parent)
    : QDialog(parent), document_(document) {
    setWindowTitle(tr("Recompute to Fit a Memory Budget"));
    auto *intro = new QLabel(tr("Layers marked \u21bb keep none of their activations for the backward pass and compute "
                                "them again there. Diamond marks the layers that save the most memory for the least "
                                "computation, so that the activations of one process stay within the budget."),
                             this);
    intro->setWordWrap(true);
    batch_ = new QSpinBox(this);
    batch_->setObjectName(QStringLiteral("budgetBatch"));
    batch_->setRange(1, 1 << 20);
    batch_->setValue(std::max(1, batch));
    budget_ = new QSpinBox(this);
    budget_->setObjectName(QStringLiteral("budgetMiB"));
    budget_->setRange(1, 1 << 30);
    budget_->setSuffix(tr(" MiB"));
    range_ = new QLabel(this);
    range_->setObjectName(QStringLiteral("budgetRange"));
    preview_ = new QLabel(this);
    preview_->setObjectName(QStringLiteral("budgetPreview"));
    preview_->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("&Batch size per process:"), batch_);
    form->addRow(tr("&Activations at most:"), budget_);
    form->addRow(QString(), range_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons_->button(QDialogButtonBox::Ok)->setText(tr("&Mark layers"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(preview_);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(batch_, &QSpinBox::valueChanged, this, &RecomputeBudgetDialog::batchChanged);
    connect(budget_, &QSpinBox::valueChanged, this, &RecomputeBudgetDialog::preview);
    batchChanged();
    // Start half way between what recomputing everything keeps and what nothing recomputed keeps.
    budget_->setValue(int(std::clamp<qint64>((plainBytes_ + leastBytes_) / 2 / kMiB, 1, 1 << 30)));
    resize(520, sizeHint().height());
}

void RecomputeBudgetDialog::batchChanged() {
    spec::MemoryOptions options;
    options.batch = batch_->value();
    const spec::Analysis &analysis = document_.analysis();
    plainBytes_ = spec::estimateMemory(analysis, options).activations;
    for (const spec::NodeInfo &n : analysis.nodes)
        if (n.type != "Input") options.recomputed.push_back(n.id);
    leastBytes_ = spec::estimateMemory(analysis, options).activations;
    range_->setText(tr("Nothing recomputed: %1 \u00b7 every layer recomputed: %2")
                        .arg(style::bytesText(plainBytes_), style::bytesText(leastBytes_)));
    preview();
}

void RecomputeBudgetDialog::preview() {
    const int generation = ++generation_;
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
    preview_->setText(tr("Choosing\u2026"));
    auto *watcher = new QFutureWatcher<Preview>(this);
    connect(watcher, &QFutureWatcher<Preview>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != generation_) return; // a newer request is on its way
        const Preview p = watcher->result();
        chosen_.clear();
        for (const std::string &id : p.choice.nodes)
            chosen_ << QString::fromStdString(id);
        const QString activations = style::bytesText(p.choice.activationBytes);
        if (p.choice.nodes.empty())
            preview_->setText(tr("Nothing needs recomputing: the activations take %1.").arg(activations));
        else if (!p.choice.fits)
            preview_->setText(tr("<b>Even with every layer recomputed the activations take %1.</b> Every layer will be "
                                 "marked; lower the batch size to go further.")
                                  .arg(activations));
        else
            preview_->setText(
                tr("%1 of %2 layers recompute: the activations take %3, and %4 % of the network's "
                   "forward FLOPs are computed again in backward.")
                    .arg(chosen_.size())
                    .arg(p.layers)
                    .arg(activations)
                    .arg(100.0 * double(p.choice.flops) / double(std::max<qint64>(1, p.allFlops)), 0, 'f', 0));
        buttons_->button(QDialogButtonBox::Ok)->setEnabled(true);
    });
    watcher->setFuture(
        QtConcurrent::run(choose, document_.analysis(), qint64(batch_->value()), qint64(budget_->value()) * kMiB));
}

} // namespace diamond::ui
