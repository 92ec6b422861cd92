#include "ui/run/compute_options.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>

namespace diamond::ui {

ComputeOptions::ComputeOptions(QWidget *parent, QFormLayout *form) : QObject(parent), form_(form) {
    device_ = new QComboBox(parent);
    device_->setObjectName(QStringLiteral("device"));
    device_->addItem(tr("CPU"), QStringLiteral("cpu"));
    device_->addItem(tr("GPU (CUDA)"), QStringLiteral("cuda"));
    device_->setToolTip(tr("On a GPU every process takes one GPU of its node"));
    form->addRow(tr("De&vice:"), device_);
    precision_ = new QComboBox(parent);
    precision_->setObjectName(QStringLiteral("precision"));
    precision_->addItem(tr("fp32 (full precision)"), QStringLiteral("fp32"));
    precision_->addItem(tr("bf16 (mixed precision)"), QStringLiteral("bf16"));
    precision_->addItem(tr("fp16 (mixed precision, GPU only)"), QStringLiteral("fp16"));
    precision_->setToolTip(tr("Mixed precision computes layers in 16 bits (faster, less memory); the weights stay "
                              "32-bit"));
    form->addRow(tr("Precisio&n:"), precision_);
    parallelism_ = new QComboBox(parent);
    parallelism_->setObjectName(QStringLiteral("parallelism"));
    parallelism_->addItem(tr("Each trains on part of every batch"), QStringLiteral("data"));
    parallelism_->addItem(tr("Each holds a stage of the network"), QStringLiteral("pipeline"));
    parallelism_->setItemData(0,
                              tr("Data parallel: every process holds the whole network and trains on its share of "
                                 "each batch; their gradients are averaged."),
                              Qt::ToolTipRole);
    parallelism_->setItemData(1,
                              tr("Pipeline: the network is cut into consecutive stages, one per process, so that each "
                                 "holds only its stage's weights and optimizer state; each batch flows through them "
                                 "in micro-batches. For networks too large for one process."),
                              Qt::ToolTipRole);
    parallelism_->setToolTip(tr("How the processes share the training. The weights trained are the same either way "
                                "(a pipeline's are those of one process adding up the micro-batches)."));
    form->addRow(tr("Processes wor&k as:"), parallelism_);
    microBatches_ = new QSpinBox(parent);
    microBatches_->setObjectName(QStringLiteral("microBatches"));
    microBatches_->setRange(1, 4096);
    microBatches_->setValue(4);
    microBatches_->setToolTip(tr("Each batch is cut into this many micro-batches that follow each other through the "
                                 "stages; more keep the stages busier, fewer make each larger. Must divide the batch "
                                 "size. The cut balances the stages' computation."));
    form->addRow(tr("Micro-batc&hes:"), microBatches_);
    sharding_ = new QComboBox(parent);
    sharding_->setObjectName(QStringLiteral("sharding"));
    sharding_->addItem(tr("Nothing: each process holds all of it"), QStringLiteral("none"));
    sharding_->addItem(tr("The optimizer state"), QStringLiteral("optimizer"));
    sharding_->addItem(tr("The optimizer state and the gradients"), QStringLiteral("gradients"));
    sharding_->setItemData(0, tr("Every process keeps the whole optimizer state and all gradients (data parallel)."),
                           Qt::ToolTipRole);
    sharding_->setItemData(1,
                           tr("Each process keeps only its share of the optimizer's state (ZeRO stage 1): Adam needs "
                              "half the memory for it with 2 processes, a quarter with 4. Each step also gathers the "
                              "updated weights."),
                           Qt::ToolTipRole);
    sharding_->setItemData(2,
                           tr("Each process also keeps only the gradients of its share (ZeRO stage 2): with Adam and 2 "
                              "processes about half of what the optimizer state and the gradients take otherwise, for "
                              "no more traffic between the processes."),
                           Qt::ToolTipRole);
    sharding_->setToolTip(tr("What the processes split between them instead of each holding all of it. The weights "
                             "trained are the same either way."));
    form->addRow(tr("Split (&ZeRO):"), sharding_);
    recompute_ = new QComboBox(parent);
    recompute_->setObjectName(QStringLiteral("recompute"));
    recompute_->addItem(tr("Keep them (only layers marked \u21bb recompute)"), QStringLiteral("marked"));
    recompute_->addItem(tr("Recompute every layer in backward"), QStringLiteral("all"));
    recompute_->addItem(tr("Recompute what a memory budget needs"), QStringLiteral("auto"));
    recompute_->addItem(tr("Keep them all (ignore the \u21bb marks)"), QStringLiteral("none"));
    recompute_->setToolTip(tr("Recomputed layers keep almost none of their intermediate values for the backward pass "
                              "and compute them again there (activation checkpointing): less memory for more time. "
                              "The weights are the same either way."));
    recompute_->setItemData(2,
                            tr("The layers that save the most memory for the least computation, until the activations "
                               "of one process fit the budget below"),
                            Qt::ToolTipRole);
    form->addRow(tr("Act&ivations:"), recompute_);
    activationBudget_ = new QSpinBox(parent);
    activationBudget_->setObjectName(QStringLiteral("activationBudget"));
    activationBudget_->setRange(1, 1 << 30);
    activationBudget_->setValue(1024);
    activationBudget_->setSuffix(tr(" MiB"));
    activationBudget_->setToolTip(tr("The most the activations of one process may take (estimated)"));
    form->addRow(tr("Activation b&udget:"), activationBudget_);
    nodes_ = new QSpinBox(parent);
    nodes_->setObjectName(QStringLiteral("nodes"));
    nodes_->setRange(1, 4096);
    nodes_->setToolTip(tr("Nodes of the job; the processes run on each of them"));
    form->addRow(tr("N&odes:"), nodes_);
    gpus_ = new QSpinBox(parent);
    gpus_->setObjectName(QStringLiteral("gpusPerNode"));
    gpus_->setRange(0, 64);
    gpus_->setSpecialValueText(tr("one per process"));
    form->addRow(tr("&GPUs per node:"), gpus_);
    gpuType_ = new QComboBox(parent);
    gpuType_->setObjectName(QStringLiteral("gpuType"));
    gpuType_->setEditable(true);
    gpuType_->lineEdit()->setPlaceholderText(tr("any"));
    form->addRow(tr("GPU t&ype:"), gpuType_);
    connect(device_, &QComboBox::currentIndexChanged, this, [this] {
        updateRows();
        Q_EMIT changed();
    });
    connect(precision_, &QComboBox::currentIndexChanged, this, &ComputeOptions::changed);
    connect(parallelism_, &QComboBox::currentIndexChanged, this, [this] {
        updateRows();
        Q_EMIT changed();
    });
    connect(microBatches_, &QSpinBox::valueChanged, this, &ComputeOptions::changed);
    connect(sharding_, &QComboBox::currentIndexChanged, this, &ComputeOptions::changed);
    connect(recompute_, &QComboBox::currentIndexChanged, this, [this] {
        updateRows();
        Q_EMIT changed();
    });
    connect(activationBudget_, &QSpinBox::valueChanged, this, &ComputeOptions::changed);
    connect(nodes_, &QSpinBox::valueChanged, this, &ComputeOptions::changed);
    connect(gpus_, &QSpinBox::valueChanged, this, &ComputeOptions::changed);
    connect(gpuType_, &QComboBox::currentTextChanged, this, &ComputeOptions::changed);
    updateRows();
}

QString ComputeOptions::device() const { return device_->currentData().toString(); }

void ComputeOptions::load(const QJsonObject &config) {
    device_->setCurrentIndex(std::max(0, device_->findData(config.value(QStringLiteral("device")).toString())));
    precision_->setCurrentIndex(
        std::max(0, precision_->findData(config.value(QStringLiteral("precision")).toString())));
    setSharding(config.value(QStringLiteral("sharding")).toString());
    const QJsonObject pipeline = config.value(QStringLiteral("pipeline")).toObject();
    cut_ = pipeline.value(QStringLiteral("cut")).toArray();
    setPipeline(pipeline.value(QStringLiteral("stages")).toInt(1) > 1,
                pipeline.value(QStringLiteral("micro_batches")).toInt(4), cut_);
    setRecompute(config.value(QStringLiteral("recompute")).toString(QStringLiteral("marked")),
                 config.value(QStringLiteral("activation_budget_mb")).toDouble());
    updateRows();
}

void ComputeOptions::applyToConfig(QJsonObject &config) const {
    const QString precision = precision_->currentData().toString();
    if (device() == QLatin1String("cpu"))
        config.remove(QStringLiteral("device"));
    else
        config.insert(QStringLiteral("device"), device());
    if (precision == QLatin1String("fp32"))
        config.remove(QStringLiteral("precision"));
    else
        config.insert(QStringLiteral("precision"), precision);
    const bool pipeline = pipelineStages() > 1;
    if (pipeline) {
        QJsonObject section{{QStringLiteral("stages"), processes_},
                            {QStringLiteral("micro_batches"), microBatches_->value()},
                            {QStringLiteral("cut"), QStringLiteral("auto")}};
        if (cut_.size() == processes_ - 1) section.insert(QStringLiteral("cut"), cut_);
        config.insert(QStringLiteral("pipeline"), section);
    } else {
        config.remove(QStringLiteral("pipeline"));
    }
    const QString sharding = sharding_->currentData().toString();
    if (sharding != QLatin1String("none") && processes_ > 1 && !pipeline)
        config.insert(QStringLiteral("sharding"), sharding);
    else
        config.remove(QStringLiteral("sharding"));
    const QString recompute = recompute_->currentData().toString();
    if (recompute == QLatin1String("marked"))
        config.remove(QStringLiteral("recompute"));
    else
        config.insert(QStringLiteral("recompute"), recompute);
    if (recompute == QLatin1String("auto"))
        config.insert(QStringLiteral("activation_budget_mb"), activationBudget_->value());
    else
        config.remove(QStringLiteral("activation_budget_mb"));
}

void ComputeOptions::setProcesses(int processes) {
    processes_ = processes;
    updateRows();
}

int ComputeOptions::pipelineStages() const {
    return processes_ > 1 && parallelism_->currentData().toString() == QLatin1String("pipeline") ? processes_ : 0;
}

void ComputeOptions::setPipeline(bool on, int microBatches, const QJsonArray &cut) {
    if (!cut.isEmpty()) cut_ = cut;
    parallelism_->setCurrentIndex(on ? 1 : 0);
    if (microBatches >= 1) microBatches_->setValue(microBatches);
}

void ComputeOptions::setSharding(const QString &sharding) {
    sharding_->setCurrentIndex(std::max(0, sharding_->findData(sharding)));
}

void ComputeOptions::setRecompute(const QString &mode, double budgetMb) {
    recompute_->setCurrentIndex(std::max(0, recompute_->findData(mode)));
    if (budgetMb >= 1) activationBudget_->setValue(int(std::min<double>(budgetMb, 1 << 30)));
}

void ComputeOptions::applyToJob(QJsonObject &job) const {
    job.insert(QStringLiteral("nodes"), nodes_->value());
    if (device() != QLatin1String("cuda")) return;
    if (gpus_->value() > 0) job.insert(QStringLiteral("gpus_per_node"), gpus_->value());
    const QString type = gpuType_->currentText().trimmed();
    if (!type.isEmpty()) job.insert(QStringLiteral("gpu_type"), type);
}

void ComputeOptions::setCluster(bool cluster, const QStringList &gpuTypes) {
    cluster_ = cluster;
    const QString typed = gpuType_->currentText();
    gpuType_->clear();
    gpuType_->addItems(gpuTypes);
    gpuType_->setEditText(gpuTypes.contains(typed) || gpuTypes.isEmpty() ? typed : QString());
    updateRows();
}

void ComputeOptions::updateRows() {
    const bool gpu = device() == QLatin1String("cuda");
    // fp16 needs a GPU (the CPU's autocast is bfloat16 only).
    if (auto *model = qobject_cast<QStandardItemModel *>(precision_->model()))
        if (QStandardItem *fp16 = model->item(2)) fp16->setEnabled(gpu);
    if (!gpu && precision_->currentIndex() == 2) precision_->setCurrentIndex(1);
    const bool pipeline = pipelineStages() > 1;
    form_->setRowVisible(parallelism_, processes_ > 1);
    form_->setRowVisible(microBatches_, pipeline);
    form_->setRowVisible(sharding_, processes_ > 1 && !pipeline);
    form_->setRowVisible(activationBudget_, recompute_->currentData().toString() == QLatin1String("auto"));
    form_->setRowVisible(nodes_, cluster_);
    form_->setRowVisible(gpus_, cluster_ && gpu);
    form_->setRowVisible(gpuType_, cluster_ && gpu);
}

} // namespace diamond::ui
