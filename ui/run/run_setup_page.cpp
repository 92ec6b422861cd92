#include "ui/run/run_setup_page.h"

#include "ui/run/compute_options.h"

#include "app/data/dataset_inspector.h"

#include "app/plan/run_planner.h"
#include "app/run/class_server.h"
#include "app/run/engine_plan.h"
#include "app/run/run_config_defaults.h"
#include "diamond/config/run_config.h"
#include "ui/run/dataset_preview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include <cmath>

namespace diamond::ui {

namespace {

struct SourceInfo {
    const char *id;
    const char *label;
    bool file;
    bool folder;
};

const SourceInfo kSources[] = {
    {"spirals", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Spirals (synthetic)"), false, false},
    {"moons", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Moons (synthetic)"), false, false},
    {"blobs", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Gaussian blobs (synthetic)"), false, false},
    {"checkerboard", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Checkerboard (synthetic)"), false, false},
    {"sine", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Sine regression (synthetic)"), false, false},
    {"shapes", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Shapes images (synthetic)"), false, false},
    {"csv", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "CSV file"), true, false},
    {"npy", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "NumPy arrays (.npy)"), true, false},
    {"npz", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "NumPy archive (.npz)"), true, false},
    {"hdf5", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "HDF5 file"), true, false},
    {"idx", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "MNIST-style IDX file"), true, false},
    {"image_folder", QT_TRANSLATE_NOOP("diamond::ui::RunSetupPage", "Image folder (one folder per class)"), false,
     true},
};

const SourceInfo *sourceInfo(const QString &id) {
    for (const SourceInfo &s : kSources)
        if (id == QLatin1String(s.id)) return &s;
    return nullptr;
}

QDoubleSpinBox *doubleBox(QWidget *parent, double lo, double hi, int decimals, double step) {
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(lo, hi);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    return box;
}

QSpinBox *intBox(QWidget *parent, int lo, int hi) {
    auto *box = new QSpinBox(parent);
    box->setRange(lo, hi);
    box->setGroupSeparatorShown(true);
    return box;
}

} // namespace

RunSetupPage::RunSetupPage(QWidget *parent) : QWidget(parent) {
    planJob_ = new app::EnginePlanJob(this);
    planTimer_ = new QTimer(this);
    planTimer_->setSingleShot(true);
    planTimer_->setInterval(700);
    connect(planTimer_, &QTimer::timeout, this, &RunSetupPage::requestPlan);
    connect(planJob_, &app::EnginePlanJob::planReady, this, [this](const QJsonObject &plan) {
        plan_ = plan;
        planError_.clear();
        planLabel_->setText(planText());
        train_->setEnabled(true);
        updateAdvice();
        Q_EMIT planUpdated();
    });
    connect(planJob_, &app::EnginePlanJob::failed, this, [this](const QString &message, const QJsonObject &) {
        plan_ = {};
        planError_ = message;
        planLabel_->setText(planText());
        advice_->clear();
        Q_EMIT planUpdated();
    });
    buildUi();
    QJsonObject initial{{QStringLiteral("format"), QLatin1String(diamond::config::kRunFormatV1)},
                        {QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("spirals")}}}};
    setConfig(initial);
}

void RunSetupPage::buildUi() {
    auto *outer = new QHBoxLayout(this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *formHost = new QWidget(scroll);
    auto *column = new QVBoxLayout(formHost);

    auto *data = new QGroupBox(tr("Data"), formHost);
    auto *dataForm = new QFormLayout(data);
    source_ = new QComboBox(data);
    source_->setObjectName(QStringLiteral("dataSource"));
    for (const SourceInfo &s : kSources)
        source_->addItem(tr(s.label), QLatin1String(s.id));
    dataForm->addRow(tr("&Dataset:"), source_);
    auto *pathRow = new QHBoxLayout;
    path_ = new QLineEdit(data);
    path_->setPlaceholderText(tr("File or folder"));
    browse_ = new QPushButton(tr("&Browse…"), data);
    pathRow->addWidget(path_, 1);
    pathRow->addWidget(browse_);
    auto *pathLabel = new QLabel(tr("&Path:"), data);
    pathLabel->setBuddy(path_);
    dataForm->addRow(pathLabel, pathRow);
    targetColumn_ = new QLineEdit(data);
    targetColumn_->setPlaceholderText(tr("column to predict (name or index)"));
    dataForm->addRow(tr("&Target column:"), targetColumn_);
    dataForm_ = dataForm;
    arrayInputs_ = new QComboBox(data);
    arrayInputs_->setObjectName(QStringLiteral("arrayInputs"));
    arrayInputs_->setToolTip(tr("The array of the file the network reads (one row per sample)"));
    dataForm->addRow(tr("&Inputs array:"), arrayInputs_);
    arrayTargets_ = new QComboBox(data);
    arrayTargets_->setObjectName(QStringLiteral("arrayTargets"));
    arrayTargets_->setToolTip(tr("The array of the file the network learns to predict (one row per sample)"));
    dataForm->addRow(tr("T&argets array:"), arrayTargets_);
    dataForm->setRowVisible(arrayInputs_, false);
    dataForm->setRowVisible(arrayTargets_, false);
    samples_ = intBox(data, 4, 10000000);
    samples_->setObjectName(QStringLiteral("samples"));
    samples_->setToolTip(tr("Number of samples the synthetic source generates"));
    dataForm->addRow(tr("&Samples:"), samples_);
    validationSplit_ = doubleBox(data, 0.0, 0.9, 2, 0.05);
    validationSplit_->setToolTip(tr("Fraction of the samples held out for validation"));
    dataForm->addRow(tr("&Validation split:"), validationSplit_);
    column->addWidget(data);

    auto *training = new QGroupBox(tr("Training"), formHost);
    auto *trainForm = new QFormLayout(training);
    optimizer_ = new QComboBox(training);
    for (const char *name : {"adam", "adamw", "sgd", "rmsprop"})
        optimizer_->addItem(QLatin1String(name), QLatin1String(name));
    trainForm->addRow(tr("&Optimizer:"), optimizer_);
    lr_ = doubleBox(training, 1e-7, 10.0, 7, 0.001);
    lr_->setObjectName(QStringLiteral("learningRate"));
    lr_->setToolTip(tr("Learning rate (the peak rate for one-cycle)"));
    trainForm->addRow(tr("&Learning rate:"), lr_);
    weightDecay_ = doubleBox(training, 0.0, 1.0, 6, 0.0001);
    trainForm->addRow(tr("&Weight decay:"), weightDecay_);
    momentum_ = doubleBox(training, 0.0, 0.999, 3, 0.05);
    trainForm->addRow(tr("&Momentum:"), momentum_);
    schedule_ = new QComboBox(training);
    for (const char *name : {"constant", "cosine", "step", "warmup", "one_cycle"})
        schedule_->addItem(QLatin1String(name), QLatin1String(name));
    trainForm->addRow(tr("S&chedule:"), schedule_);
    warmup_ = intBox(training, 0, 10000000);
    trainForm->addRow(tr("Warm-up ste&ps:"), warmup_);
    loss_ = new QComboBox(training);
    loss_->addItem(tr("by task"), QString());
    for (const char *name : {"cross_entropy", "mse", "l1", "huber", "bce_with_logits"})
        loss_->addItem(QLatin1String(name), QLatin1String(name));
    trainForm->addRow(tr("Lo&ss:"), loss_);
    auto *metricRow = new QHBoxLayout;
    for (const char *name : {"accuracy", "top5", "mae", "rmse", "r2"}) {
        auto *box = new QCheckBox(QLatin1String(name), training);
        box->setObjectName(QLatin1String(name));
        metrics_.append(box);
        metricRow->addWidget(box);
    }
    auto *metricsLabel = new QLabel(tr("Metrics:"), training);
    trainForm->addRow(metricsLabel, metricRow);
    epochs_ = intBox(training, 1, 100000);
    epochs_->setObjectName(QStringLiteral("epochs"));
    trainForm->addRow(tr("&Epochs:"), epochs_);
    batch_ = intBox(training, 1, 1 << 20);
    trainForm->addRow(tr("&Batch size:"), batch_);
    seed_ = intBox(training, 0, 2147483647);
    trainForm->addRow(tr("S&eed:"), seed_);
    auto *initRow = new QHBoxLayout;
    initWeightsLabel_ = new QLabel(tr("fresh (random initialisation)"), training);
    initWeightsLabel_->setObjectName(QStringLiteral("initWeights"));
    initWeightsLabel_->setWordWrap(true);
    clearInitWeights_ = new QPushButton(tr("Start fresh"), training);
    clearInitWeights_->setVisible(false);
    initRow->addWidget(initWeightsLabel_, 1);
    initRow->addWidget(clearInitWeights_);
    trainForm->addRow(new QLabel(tr("Weights:"), training), initRow);
    connect(clearInitWeights_, &QPushButton::clicked, this, [this] { setInitialWeights({}); });
    column->addWidget(training);

    auto *where = new QGroupBox(tr("Where"), formHost);
    auto *whereForm = new QFormLayout(where);
    target_ = new QComboBox(where);
    target_->setObjectName(QStringLiteral("runTarget"));
    target_->addItem(tr("This computer"), QStringLiteral("local"));
    whereForm->addRow(tr("&Run on:"), target_);
    threads_ = intBox(where, 0, 256);
    threads_->setObjectName(QStringLiteral("threads"));
    threads_->setSpecialValueText(tr("all cores"));
    whereForm->addRow(tr("&Threads:"), threads_);
    nproc_ = intBox(where, 1, 64);
    nproc_->setObjectName(QStringLiteral("processes"));
    nproc_->setToolTip(tr("Processes that train together (on a cluster: tasks of the job)"));
    whereForm->addRow(tr("&Processes:"), nproc_);
    compute_ = new ComputeOptions(where, whereForm);
    connect(nproc_, &QSpinBox::valueChanged, compute_, &ComputeOptions::setProcesses);
    connect(compute_, &ComputeOptions::changed, this, [this] {
        if (!loading_) schedulePlan();
    });
    partition_ = new QLineEdit(where);
    partition_->setPlaceholderText(tr("the cluster's default"));
    auto *partitionLabel = new QLabel(tr("P&artition:"), where);
    partitionLabel->setBuddy(partition_);
    whereForm->addRow(partitionLabel, partition_);
    timeLimit_ = intBox(where, 1, 60 * 24 * 14);
    timeLimit_->setValue(60);
    timeLimit_->setSuffix(tr(" min"));
    timeLimit_->setToolTip(tr("Job time limit; the run checkpoints before it and continues in a new job"));
    auto *timeLabel = new QLabel(tr("Time &limit:"), where);
    timeLabel->setBuddy(timeLimit_);
    whereForm->addRow(timeLabel, timeLimit_);
    chainJobs_ = intBox(where, 1, app::kMaxChainJobs);
    chainJobs_->setObjectName(QStringLiteral("chainJobs"));
    chainJobs_->setSuffix(tr(" job(s)"));
    chainJobs_->setToolTip(tr("Jobs queued at once, each continuing from the last checkpoint when the one before "
                              "reaches its time limit: the run goes on with Diamond closed"));
    auto *chainLabel = new QLabel(tr("C&hain:"), where);
    chainLabel->setBuddy(chainJobs_);
    whereForm->addRow(chainLabel, chainJobs_);
    clusterOnly_ = {partitionLabel, partition_, timeLabel, timeLimit_, chainLabel, chainJobs_};
    partitionLabel_ = partitionLabel;
    for (QWidget *w : std::as_const(clusterOnly_))
        w->setVisible(false);
    connect(target_, &QComboBox::currentIndexChanged, this, [this] {
        const bool cluster = target() != QLatin1String("local") && !app::isClassServerTarget(target());
        const bool race = !raceClusters().isEmpty(); // partitions differ between the clusters of a race
        for (QWidget *w : std::as_const(clusterOnly_))
            w->setVisible(cluster && !(race && (w == partition_ || w == partitionLabel_)));
        compute_->setCluster(cluster, cluster && !race && gpuTypes_ ? gpuTypes_(target()) : QStringList());
        updateAdvice(); // the dry run does not depend on the target; the recommendation does
    });
    connect(timeLimit_, &QSpinBox::valueChanged, this, [this] { signalSeconds_ = 0; });
    column->addWidget(where);
    column->addStretch();
    scroll->setWidget(formHost);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(formHost->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 8);
    outer->addWidget(scroll, 1);

    auto *right = new QVBoxLayout;
    auto *previewBox = new QGroupBox(tr("Preview"), this);
    auto *previewLayout = new QVBoxLayout(previewBox);
    preview_ = new DatasetPreviewWidget(previewBox);
    previewLayout->addWidget(preview_);
    right->addWidget(previewBox, 2);
    auto *planBox = new QGroupBox(tr("Plan"), this);
    auto *planLayout = new QVBoxLayout(planBox);
    // The plan and the recommendation scroll; Train stays in view below them.
    auto *planScroll = new QScrollArea(planBox);
    planScroll->setWidgetResizable(true);
    planScroll->setFrameShape(QFrame::NoFrame);
    planScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *planHost = new QWidget(planScroll);
    auto *planColumn = new QVBoxLayout(planHost);
    planColumn->setContentsMargins(0, 0, 0, 0);
    planLabel_ = new QLabel(planHost);
    planLabel_->setObjectName(QStringLiteral("planLabel"));
    planLabel_->setWordWrap(true);
    planLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    planLabel_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    planColumn->addWidget(planLabel_);
    advice_ = new RunRecommendationView(planHost);
    advice_->setVisible(false);
    planColumn->addWidget(advice_);
    planColumn->addStretch(1);
    planScroll->setWidget(planHost);
    planLayout->addWidget(planScroll, 1);
    connect(advice_, &RunRecommendationView::applyRequested, this, &RunSetupPage::applyPlan);
    connect(advice_, &RunRecommendationView::measureRequested, this, [this] {
        const QString error = measureWidths_ ? measureWidths_(spec_, config(), plan_, target(), threads_->value())
                                             : tr("Measuring is not available here.");
        if (error.isEmpty()) return;
        advice_->setMeasuring(false);
        QMessageBox::warning(this, tr("Measure processes"), error);
    });
    train_ = new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("&Train"), planBox);
    train_->setObjectName(QStringLiteral("trainButton"));
    QFont bold = train_->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    train_->setFont(bold);
    train_->setMinimumHeight(40);
    // Ctrl+Return is the main window's Train action (one shortcut, on every page); a second shortcut here would
    // make the key ambiguous on this page.
    train_->setToolTip(tr("Start training (Ctrl+Return)"));
    planLayout->addWidget(train_);
    right->addWidget(planBox, 3);
    outer->addLayout(right, 1);

    connect(source_, &QComboBox::currentIndexChanged, this, &RunSetupPage::sourceChanged);
    connect(browse_, &QPushButton::clicked, this, &RunSetupPage::browse);
    connect(path_, &QLineEdit::editingFinished, this, &RunSetupPage::sourceChanged);
    connect(train_, &QPushButton::clicked, this, [this] { Q_EMIT trainRequested(config(), execution(), target()); });
    // Every edit refreshes the plan (debounced).
    for (QSpinBox *box : {samples_, warmup_, epochs_, batch_, seed_, threads_, nproc_})
        connect(box, &QSpinBox::valueChanged, this, &RunSetupPage::schedulePlan);
    for (QDoubleSpinBox *box : {validationSplit_, lr_, weightDecay_, momentum_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &RunSetupPage::schedulePlan);
    for (QComboBox *box : {optimizer_, schedule_, loss_})
        connect(box, &QComboBox::currentIndexChanged, this, &RunSetupPage::schedulePlan);
    for (QCheckBox *box : std::as_const(metrics_))
        connect(box, &QCheckBox::toggled, this, &RunSetupPage::schedulePlan);
    connect(targetColumn_, &QLineEdit::editingFinished, this, &RunSetupPage::schedulePlan);
    connect(preview_, &DatasetPreviewWidget::previewReady, this, &RunSetupPage::fillArrayPickers);
    for (QComboBox *box : {arrayInputs_, arrayTargets_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (loading_) return;
            wantedInputs_ = arrayInputs_->currentData().toString();
            wantedTargets_ = arrayTargets_->currentData().toString();
            preview_->setArrayRoles(wantedInputs_, wantedTargets_);
            schedulePlan();
        });
}

bool RunSetupPage::isArrayFileSource() const {
    const RegisteredDataset *d = currentDataset();
    const QString source = d ? d->format : source_->currentData().toString();
    return source == QLatin1String("hdf5") || source == QLatin1String("npz");
}

void RunSetupPage::fillArrayPickers() {
    if (!isArrayFileSource()) return;
    const app::ArrayListing &listing = preview_->arrayFile();
    const bool wasLoading = loading_;
    loading_ = true;
    const auto fill = [&](QComboBox *box, const QString &wanted, const QString &guess) {
        box->clear();
        for (const app::StoredArray &a : listing.arrays)
            if (a.readable) box->addItem(QStringLiteral("%1  (%2, %3)").arg(a.name, a.shapeText(), a.dtype), a.name);
        const int index = box->findData(wanted.isEmpty() ? guess : wanted);
        box->setCurrentIndex(index >= 0 ? index : box->findData(guess));
    };
    fill(arrayInputs_, wantedInputs_, listing.inputs);
    fill(arrayTargets_, wantedTargets_, listing.targets);
    loading_ = wasLoading;
    preview_->setArrayRoles(arrayInputs_->currentData().toString(), arrayTargets_->currentData().toString());
    if (arrayInputs_->count() > 0) schedulePlan();
}

void RunSetupPage::setConfig(const QJsonObject &config) {
    base_ = config;
    loadForm(config);
    sourceChanged();
}

void RunSetupPage::loadForm(const QJsonObject &c) {
    loading_ = true;
    // Fields the config leaves out show the run-config library's defaults (diamond_run_config).
    const auto value = [&c](const char *path) { return app::runConfigValue(c, QLatin1String(path)); };
    const QJsonObject data = c.value(QStringLiteral("data")).toObject();
    int index = source_->findData(data.value(QStringLiteral("source")).toString(QStringLiteral("spirals")));
    if (data.contains(QStringLiteral("dataset"))) {
        const QString name = data.value(QStringLiteral("dataset")).toString().section(QLatin1Char('@'), 0, 0);
        index = source_->findData(QString(QStringLiteral("dataset:") + name));
        if (index < 0) { // not (yet) listed: keep it selectable
            source_->addItem(tr("%1 (registered)").arg(name), QString(QStringLiteral("dataset:") + name));
            index = source_->count() - 1;
        }
    }
    source_->setCurrentIndex(std::max(0, index));
    const QString dataSource = data.value(QStringLiteral("source")).toString();
    const bool arrays = dataSource == QLatin1String("hdf5") || dataSource == QLatin1String("npz");
    wantedInputs_ = arrays ? data.value(QStringLiteral("inputs")).toString() : QString();
    wantedTargets_ = arrays ? data.value(QStringLiteral("targets")).toString() : QString();
    path_->setText(data.value(QStringLiteral("path")).toString(data.value(QStringLiteral("inputs")).toString()));
    targetColumn_->setText(data.value(QStringLiteral("target")).toVariant().toString());
    samples_->setValue(data.value(QStringLiteral("samples")).toInt(1000));
    validationSplit_->setValue(value("data.validation_split").toDouble());
    optimizer_->setCurrentIndex(std::max(0, optimizer_->findData(value("optimizer.name").toString())));
    lr_->setValue(value("optimizer.lr").toDouble());
    weightDecay_->setValue(value("optimizer.weight_decay").toDouble());
    momentum_->setValue(value("optimizer.momentum").toDouble());
    schedule_->setCurrentIndex(std::max(0, schedule_->findData(value("schedule.name").toString())));
    warmup_->setValue(value("schedule.warmup_steps").toInt());
    loss_->setCurrentIndex(std::max(0, loss_->findData(value("loss.name").toString()))); // none: "by task"
    const QJsonArray metrics = value("metrics").toArray();
    for (QCheckBox *box : std::as_const(metrics_))
        box->setChecked(metrics.contains(QJsonValue(box->objectName())));
    epochs_->setValue(value("epochs").toInt());
    batch_->setValue(value("batch_size").toInt());
    seed_->setValue(value("seed").toInt());
    threads_->setValue(value("threads").toInt());
    compute_->load(c);
    // A pipeline runs one process per stage.
    if (const int stages = c.value(QStringLiteral("pipeline")).toObject().value(QStringLiteral("stages")).toInt(1);
        stages > 1)
        nproc_->setValue(stages);
    loading_ = false;
}

QJsonObject RunSetupPage::config() const {
    QJsonObject c = base_;
    c.insert(QStringLiteral("format"), QLatin1String(diamond::config::kRunFormatV1));
    const QString item = source_->currentData().toString();
    const RegisteredDataset *dataset = currentDataset();
    QString source = item;
    QJsonObject data = c.value(QStringLiteral("data")).toObject();
    if (item.startsWith(QLatin1String("dataset:"))) {
        source = dataset ? dataset->format : data.value(QStringLiteral("source")).toString();
        const QString name = item.mid(8);
        if (data.value(QStringLiteral("dataset")).toString().section(QLatin1Char('@'), 0, 0) != name) {
            data = {{QStringLiteral("dataset"), name}}; // another dataset: its own options
            if (dataset) {
                const QJsonObject options = app::datasetRunOptions(dataset->format, dataset->schema);
                for (auto it = options.begin(); it != options.end(); ++it)
                    data.insert(it.key(), it.value());
            }
        }
    } else {
        data.remove(QStringLiteral("dataset"));
    }
    if (data.value(QStringLiteral("source")).toString() != source && !data.contains(QStringLiteral("dataset")))
        data = {}; // options of another source
    data.insert(QStringLiteral("source"), source);
    data.insert(QStringLiteral("validation_split"), validationSplit_->value());
    const SourceInfo *info = sourceInfo(source);
    if (info && !info->file && !info->folder) data.insert(QStringLiteral("samples"), samples_->value());
    if (info && (info->file || info->folder) && !data.contains(QStringLiteral("dataset"))) {
        data.insert(source == QLatin1String("npy") ? QStringLiteral("inputs") : QStringLiteral("path"), path_->text());
    }
    if (source == QLatin1String("hdf5") || source == QLatin1String("npz")) {
        const QString inputs = arrayInputs_->count() > 0 ? arrayInputs_->currentData().toString() : wantedInputs_;
        const QString targets = arrayTargets_->count() > 0 ? arrayTargets_->currentData().toString() : wantedTargets_;
        if (!inputs.isEmpty()) data.insert(QStringLiteral("inputs"), inputs);
        if (!targets.isEmpty()) data.insert(QStringLiteral("targets"), targets);
    }
    if (source == QLatin1String("csv") && !targetColumn_->text().isEmpty())
        data.insert(QStringLiteral("target"), targetColumn_->text());
    else if (source == QLatin1String("csv") && dataset && dataset->schema.contains(QStringLiteral("target")))
        data.insert(QStringLiteral("target"), dataset->schema.value(QStringLiteral("target")).toString());
    c.insert(QStringLiteral("data"), data);

    QJsonObject opt = c.value(QStringLiteral("optimizer")).toObject();
    opt.insert(QStringLiteral("name"), optimizer_->currentData().toString());
    opt.insert(QStringLiteral("lr"), lr_->value());
    if (weightDecay_->value() > 0)
        opt.insert(QStringLiteral("weight_decay"), weightDecay_->value());
    else
        opt.remove(QStringLiteral("weight_decay"));
    const bool hasMomentum = opt.value(QStringLiteral("name")).toString() == QLatin1String("sgd") ||
                             opt.value(QStringLiteral("name")).toString() == QLatin1String("rmsprop");
    if (hasMomentum && momentum_->value() > 0)
        opt.insert(QStringLiteral("momentum"), momentum_->value());
    else
        opt.remove(QStringLiteral("momentum"));
    if (!hasMomentum) opt.remove(QStringLiteral("nesterov"));
    c.insert(QStringLiteral("optimizer"), opt);

    QJsonObject schedule = c.value(QStringLiteral("schedule")).toObject();
    if (schedule.value(QStringLiteral("name")).toString() != schedule_->currentData().toString()) schedule = {};
    schedule.insert(QStringLiteral("name"), schedule_->currentData().toString());
    if (warmup_->value() > 0 && schedule_->currentData().toString() != QLatin1String("one_cycle"))
        schedule.insert(QStringLiteral("warmup_steps"), warmup_->value());
    else
        schedule.remove(QStringLiteral("warmup_steps"));
    c.insert(QStringLiteral("schedule"), schedule);

    if (loss_->currentData().toString().isEmpty())
        c.remove(QStringLiteral("loss"));
    else {
        QJsonObject loss = c.value(QStringLiteral("loss")).toObject();
        if (loss.value(QStringLiteral("name")).toString() != loss_->currentData().toString()) loss = {};
        loss.insert(QStringLiteral("name"), loss_->currentData().toString());
        c.insert(QStringLiteral("loss"), loss);
    }
    QJsonArray metrics;
    for (QCheckBox *box : metrics_)
        if (box->isChecked()) metrics.append(box->objectName());
    if (metrics.isEmpty())
        c.remove(QStringLiteral("metrics"));
    else
        c.insert(QStringLiteral("metrics"), metrics);
    c.insert(QStringLiteral("epochs"), epochs_->value());
    c.remove(QStringLiteral("steps")); // the form sets the length in epochs
    c.insert(QStringLiteral("batch_size"), batch_->value());
    c.insert(QStringLiteral("seed"), seed_->value());
    c.remove(QStringLiteral("threads")); // threads go through execution(), like the CLI's --threads
    compute_->applyToConfig(c);
    // A pipeline of as many processes as the designer shows stages is cut where the designer shows it (the spec's
    // layout "designer:pipeline"), while those layers are still in the network.
    QJsonObject pipeline = c.value(QStringLiteral("pipeline")).toObject();
    const QJsonObject shown =
        spec_.value(QStringLiteral("layout")).toObject().value(QStringLiteral("designer:pipeline")).toObject();
    const QJsonArray shownCut = shown.value(QStringLiteral("cut")).toArray();
    if (pipeline.value(QStringLiteral("cut")).toString() == QLatin1String("auto") &&
        shown.value(QStringLiteral("stages")).toInt() == pipeline.value(QStringLiteral("stages")).toInt() &&
        shownCut.size() == pipeline.value(QStringLiteral("stages")).toInt() - 1) {
        QSet<QString> layers;
        for (const QJsonValue &n : spec_.value(QStringLiteral("nodes")).toArray())
            layers.insert(n[QStringLiteral("id")].toString());
        if (std::all_of(shownCut.begin(), shownCut.end(),
                        [&](const QJsonValue &id) { return layers.contains(id.toString()); })) {
            pipeline.insert(QStringLiteral("cut"), shownCut);
            c.insert(QStringLiteral("pipeline"), pipeline);
        }
    }
    return c;
}

void RunSetupPage::setInitialWeights(const QString &path, const QString &description) {
    initWeights_ = path;
    initWeightsLabel_->setText(path.isEmpty()
                                   ? tr("fresh (random initialisation)")
                                   : tr("fine-tune from %1").arg(description.isEmpty() ? path : description));
    initWeightsLabel_->setToolTip(path);
    clearInitWeights_->setVisible(!path.isEmpty());
}

QJsonObject RunSetupPage::execution() const {
    QJsonObject e;
    if (!initWeights_.isEmpty()) e.insert(QStringLiteral("init_weights"), initWeights_);
    if (threads_->value() > 0) e.insert(QStringLiteral("threads"), threads_->value());
    if (target() == QLatin1String("local")) {
        if (nproc_->value() > 1) e.insert(QStringLiteral("nproc"), nproc_->value());
        return e;
    }
    QJsonObject job{{QStringLiteral("tasks_per_node"), nproc_->value()},
                    {QStringLiteral("time_limit_minutes"), timeLimit_->value()},
                    // The stop signal (checkpoint, then exit 85 for the next job) a quarter of the limit before
                    // its end, from 30 s to 2 min.
                    {QStringLiteral("signal_seconds"),
                     signalSeconds_ > 0 ? signalSeconds_ : std::clamp(timeLimit_->value() * 60 / 4, 30, 120)}};
    compute_->applyToJob(job);
    if (chainJobs_->value() > 1) job.insert(QStringLiteral("chain_jobs"), chainJobs_->value());
    if (!partition_->text().trimmed().isEmpty() && raceClusters().isEmpty())
        job.insert(QStringLiteral("partition"), partition_->text().trimmed());
    e.insert(QStringLiteral("job"), job);
    return e;
}

QString RunSetupPage::target() const { return target_->currentData().toString(); }

QStringList RunSetupPage::raceClusters() const {
    const QString t = target();
    return t.startsWith(QLatin1String("race:")) ? t.mid(5).split(QLatin1Char(','), Qt::SkipEmptyParts) : QStringList();
}

void RunSetupPage::setClusterTargets(const QStringList &names) {
    clusterTargets_ = names;
    fillTargets();
}

void RunSetupPage::setServerTargets(const QList<app::ClassServer> &servers) {
    serverTargets_ = servers;
    fillTargets();
}

void RunSetupPage::fillTargets() {
    const QString current = target();
    while (target_->count() > 1)
        target_->removeItem(1);
    for (const QString &name : std::as_const(clusterTargets_))
        target_->addItem(tr("Cluster: %1").arg(name), name);
    if (clusterTargets_.size() >= 2)
        target_->addItem(tr("First of %1 to start (submitted to all)").arg(clusterTargets_.join(QStringLiteral(", "))),
                         QString(QStringLiteral("race:") + clusterTargets_.join(QLatin1Char(','))));
    for (const app::ClassServer &server : std::as_const(serverTargets_)) {
        target_->addItem(tr("Class server: %1").arg(server.name), app::classServerTarget(server.name));
        for (const QString &cluster : server.clusters)
            target_->addItem(tr("Class server: %1 › %2").arg(server.name, cluster),
                             app::classServerTarget(server.name, cluster));
    }
    target_->setCurrentIndex(std::max(0, target_->findData(current)));
}

bool RunSetupPage::setTarget(const QString &target) {
    const int index = target_->findData(target);
    if (index < 0) return false;
    target_->setCurrentIndex(index);
    return true;
}

void RunSetupPage::setSpec(const QJsonObject &spec) {
    spec_ = spec;
    schedulePlan();
}

bool RunSetupPage::isPlanPending() const { return planTimer_->isActive() || planJob_->isRunning(); }

QString RunSetupPage::planText() const {
    if (!planError_.isEmpty())
        return QStringLiteral("<p style='color:#c0392b'><b>%1</b><br>%2</p>")
            .arg(tr("This run cannot start:").toHtmlEscaped(), planError_.toHtmlEscaped());
    if (plan_.isEmpty()) return tr("The plan appears here once the network and the settings are complete.");
    const QLocale locale;
    const double seconds = plan_.value(QStringLiteral("estimated_seconds")).toDouble();
    const QString duration = seconds >= 90 ? tr("about %n minute(s)", "", int(std::lround(seconds / 60)))
                                           : tr("about %n second(s)", "", int(std::ceil(seconds)));
    return tr("<table>"
              "<tr><td>Data</td><td><b>%1</b></td></tr>"
              "<tr><td>Samples</td><td>%2 train, %3 validation</td></tr>"
              "<tr><td>Parameters</td><td><b>%4</b></td></tr>"
              "<tr><td>Memory</td><td>%5 MiB</td></tr>"
              "<tr><td>Steps</td><td>%6</td></tr>"
              "<tr><td>Device</td><td>%7, %8 thread(s)</td></tr>"
              "<tr><td>Time</td><td><b>%9</b> (%10 ms per step)</td></tr></table>")
        .arg(plan_.value(QStringLiteral("data")).toString().toHtmlEscaped(),
             locale.toString(plan_.value(QStringLiteral("train_samples")).toDouble(), 'f', 0),
             locale.toString(plan_.value(QStringLiteral("validation_samples")).toDouble(), 'f', 0),
             locale.toString(plan_.value(QStringLiteral("parameters")).toDouble(), 'f', 0),
             locale.toString(plan_.value(QStringLiteral("memory_bytes")).toDouble() / 1048576.0, 'f', 1),
             locale.toString(plan_.value(QStringLiteral("steps")).toDouble(), 'f', 0),
             plan_.value(QStringLiteral("device")).toString(),
             QString::number(plan_.value(QStringLiteral("threads")).toInt()), duration)
        .arg(locale.toString(plan_.value(QStringLiteral("seconds_per_step")).toDouble() * 1000, 'f', 2));
}

void RunSetupPage::setRecommender(RunRecommender recommender) {
    recommender_ = std::move(recommender);
    advice_->setVisible(bool(recommender_));
    updateAdvice();
}

void RunSetupPage::refreshRecommendation() { updateAdvice(); }

void RunSetupPage::widthsMeasured() {
    advice_->setMeasuring(false);
    updateAdvice();
}

void RunSetupPage::updateAdvice() {
    if (!recommender_) return;
    if (app::isClassServerTarget(target())) return advice_->clear(tr("The class server decides where this run goes."));
    if (const QStringList race = raceClusters(); !race.isEmpty())
        return advice_->clear(tr("The run's job is submitted to %1 at once; the first cluster to start it keeps the "
                                 "run and the other jobs are cancelled.")
                                  .arg(race.join(QStringLiteral(", "))));
    if (plan_.isEmpty()) return advice_->clear();
    advice_->setAdvice(recommender_(spec_, config(), plan_, target(), threads_->value()));
}

void RunSetupPage::applyPlan(const QJsonObject &plan) {
    nproc_->setValue(std::max(1, plan.value(QStringLiteral("ranks")).toInt(1)));
    if (plan.contains(QStringLiteral("sharding")))
        compute_->setSharding(plan.value(QStringLiteral("sharding")).toString());
    if (const QJsonObject pipeline = plan.value(QStringLiteral("pipeline")).toObject(); !pipeline.isEmpty())
        compute_->setPipeline(true, pipeline.value(QStringLiteral("micro_batches")).toInt(4),
                              pipeline.value(QStringLiteral("cut")).toArray());
    if (plan.contains(QStringLiteral("recompute")))
        compute_->setRecompute(plan.value(QStringLiteral("recompute")).toString(),
                               plan.value(QStringLiteral("activation_budget_mb")).toDouble());
    // Threads per process only where they were measured (Measure processes): else the form's choice stays.
    if (plan.contains(QStringLiteral("measured_widths")) && plan.value(QStringLiteral("threads_per_rank")).toInt() > 0)
        threads_->setValue(plan.value(QStringLiteral("threads_per_rank")).toInt());
    if (plan.value(QStringLiteral("target")).toString() != QLatin1String("local")) {
        partition_->setText(plan.value(QStringLiteral("partition")).toString());
        const int minutes = int(std::ceil(plan.value(QStringLiteral("time_limit_s")).toDouble() / 60.0));
        if (minutes > 0) timeLimit_->setValue(minutes);
        chainJobs_->setValue(std::clamp(plan.value(QStringLiteral("jobs")).toInt(1), 1, app::kMaxChainJobs));
        signalSeconds_ = int(std::ceil(plan.value(QStringLiteral("signal_seconds")).toDouble())); // after the limit
    }
    const qint64 every = plan.value(QStringLiteral("checkpoint_every_steps")).toInteger();
    if (every > 0) {
        QJsonObject checkpoint = base_.value(QStringLiteral("checkpoint")).toObject();
        checkpoint.remove(QStringLiteral("every_seconds"));
        checkpoint.insert(QStringLiteral("every_steps"), every);
        base_.insert(QStringLiteral("checkpoint"), checkpoint);
    }
}

void RunSetupPage::sourceChanged() {
    const bool arrays = isArrayFileSource();
    dataForm_->setRowVisible(arrayInputs_, arrays);
    dataForm_->setRowVisible(arrayTargets_, arrays);
    {
        const bool wasLoading = loading_; // the config's arrays stay wanted until the new listing arrives
        loading_ = true;
        arrayInputs_->clear();
        arrayTargets_->clear();
        loading_ = wasLoading;
    }
    if (const RegisteredDataset *d = currentDataset()) {
        path_->setEnabled(false);
        path_->setText(tr("registered dataset %1@%2 (%3)").arg(d->name).arg(d->version).arg(d->format));
        browse_->setEnabled(false);
        targetColumn_->setEnabled(d->format == QLatin1String("csv"));
        targetColumn_->setPlaceholderText(d->schema.value(QStringLiteral("target")).toString());
        samples_->setEnabled(false);
        preview_->showDataset(d->format, resolveData_ ? resolveData_(d->name) : QString(),
                              d->schema.value(QStringLiteral("skip_rows")).toInt());
        schedulePlan();
        return;
    }
    const QString source = source_->currentData().toString();
    const SourceInfo *info = sourceInfo(source);
    const bool fileLike = info && (info->file || info->folder);
    path_->setEnabled(fileLike);
    browse_->setEnabled(fileLike);
    targetColumn_->setEnabled(source == QLatin1String("csv"));
    targetColumn_->setPlaceholderText(tr("column to predict (name or index)"));
    samples_->setEnabled(!fileLike);
    preview_->showDataset(source, path_->text());
    schedulePlan();
}

const RegisteredDataset *RunSetupPage::registered(const QString &name) const {
    for (const RegisteredDataset &d : datasets_)
        if (d.name == name) return &d;
    return nullptr;
}

const RegisteredDataset *RunSetupPage::currentDataset() const {
    const QString item = source_->currentData().toString();
    return item.startsWith(QLatin1String("dataset:")) ? registered(item.mid(8)) : nullptr;
}

void RunSetupPage::setRegisteredDatasets(const QList<RegisteredDataset> &datasets) {
    const QJsonObject keep = config();
    datasets_ = datasets;
    const QSignalBlocker block(source_);
    for (int i = source_->count() - 1; i >= 0; --i)
        if (source_->itemData(i).toString().startsWith(QLatin1String("dataset:")) ||
            source_->itemData(i).toString().isEmpty())
            source_->removeItem(i);
    if (!datasets_.isEmpty()) source_->insertSeparator(source_->count());
    for (const RegisteredDataset &d : std::as_const(datasets_))
        source_->addItem(tr("%1 (registered, %2)").arg(d.name, d.format), QString(QStringLiteral("dataset:") + d.name));
    loadForm(keep);
    sourceChanged();
}

bool RunSetupPage::useDataset(const QString &name) {
    const int index = source_->findData(QString(QStringLiteral("dataset:") + name));
    if (index < 0) return false;
    source_->setCurrentIndex(index);
    targetColumn_->clear();
    sourceChanged();
    return true;
}

void RunSetupPage::browse() {
    const SourceInfo *info = sourceInfo(source_->currentData().toString());
    if (!info) return;
    // Non-native dialogs are asynchronous with open(); the result arrives through fileSelected.
    auto *dialog = new QFileDialog(this, tr("Choose the dataset"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(info->folder ? QFileDialog::Directory : QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) {
        path_->setText(file);
        sourceChanged();
    });
    dialog->open();
}

void RunSetupPage::schedulePlan() {
    if (loading_) return;
    plan_ = {};
    planTimer_->start();
}

void RunSetupPage::requestPlan() {
    if (spec_.isEmpty()) {
        planError_.clear();
        planLabel_->setText(tr("Open or draw a network in the designer to see the plan."));
        return;
    }
    // The run-config library checks the form's config first, with the parser and messages of the engine, so a bad
    // setting is reported without starting a dry run.
    const QJsonObject config = this->config();
    const QJsonObject problem = app::checkRunConfig(config);
    if (!problem.isEmpty()) {
        planJob_->cancel();
        plan_ = {};
        planError_ = app::describeEngineError(problem);
        planLabel_->setText(planText());
        Q_EMIT planUpdated();
        return;
    }
    planLabel_->setText(tr("Computing the plan…"));
    QString dataPath;
    if (const RegisteredDataset *d = currentDataset(); d && resolveData_) dataPath = resolveData_(d->name);
    planJob_->start(spec_, config, 1, dataPath);
}

} // namespace diamond::ui
