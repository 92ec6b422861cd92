#include "ui/sweep/sweep_editor.h"

#include "app/cluster/cluster_store.h"
#include "app/run/run_config_defaults.h"
#include "app/run/run_service.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace diamond::ui::sweep {

namespace {

const char *const kTypes[] = {"choice", "uniform", "log_uniform", "int", "int_log"};

void collectNumbers(const QJsonObject &o, const QString &prefix, QList<SweepEditor::Candidate> *out) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (it->isDouble())
            out->append({path, *it});
        else if (it->isObject())
            collectNumbers(it->toObject(), path, out);
    }
}

QJsonValue lookup(const QJsonObject &o, const QStringList &path) {
    QJsonValue v = o;
    for (const QString &k : path)
        v = v.toObject().value(k);
    return v;
}

QJsonValue parseToken(const QString &token) {
    const QString t = token.trimmed();
    const QJsonDocument doc = QJsonDocument::fromJson(QStringLiteral("[%1]").arg(t).toUtf8());
    if (doc.isArray() && doc.array().size() == 1) return doc.array().first();
    return t;
}

} // namespace

SweepEditor::SweepEditor(QWidget *parent)
    : QWidget(parent), validate_(new QTimer(this)), name_(new QLineEdit(tr("sweep"), this)),
      project_(new QLineEdit(QStringLiteral("Default"), this)), picker_(new QComboBox(this)),
      params_(new QTableWidget(0, ColumnCount, this)), algorithm_(new QComboBox(this)), gridPoints_(new QSpinBox),
      startup_(new QSpinBox), candidates_(new QSpinBox), eta_(new QSpinBox), minResource_(new QSpinBox),
      gamma_(new QDoubleSpinBox), priorWeight_(new QDoubleSpinBox), metric_(new QComboBox), split_(new QComboBox),
      mode_(new QComboBox), unit_(new QComboBox), maxTrials_(new QSpinBox), maxConcurrent_(new QSpinBox),
      budget_(new QSpinBox), threads_(new QSpinBox), seed_(new QSpinBox), trialsPerPack_(new QSpinBox),
      packing_(new QCheckBox(tr("Pack small trials into one engine process"))), totalBudget_(new QDoubleSpinBox),
      targets_(new QListWidget(this)), perTarget_(new QSpinBox), errorLabel_(new QLabel(this)),
      start_(new QPushButton(tr("Start"), this)) {
    name_->setObjectName(QStringLiteral("sweepName"));
    project_->setObjectName(QStringLiteral("sweepProject"));
    algorithm_->setObjectName(QStringLiteral("algorithm"));
    start_->setObjectName(QStringLiteral("startButton"));
    errorLabel_->setObjectName(QStringLiteral("errors"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setTextFormat(Qt::PlainText);
    errorLabel_->setStyleSheet(QStringLiteral("color: #c62828;"));

    auto *general = new QFormLayout;
    general->addRow(tr("Name"), name_);
    general->addRow(tr("Project"), project_);

    // parameters
    params_->setHorizontalHeaderLabels(
        {tr("Name"), tr("Target"), tr("Distribution"), tr("Low"), tr("High"), tr("Values"), tr("Grid points")});
    params_->horizontalHeader()->setSectionResizeMode(TargetCol, QHeaderView::Stretch);
    for (const auto &[col, width] :
         {std::pair{int(NameCol), 140}, std::pair{int(TypeCol), 140}, std::pair{int(LowCol), 90},
          std::pair{int(HighCol), 90}, std::pair{int(ValuesCol), 150}, std::pair{int(GridCol), 80}})
        params_->setColumnWidth(col, width);
    params_->verticalHeader()->hide();
    params_->setMinimumHeight(160);
    auto *add = new QPushButton(tr("Add"), this);
    auto *remove = new QPushButton(tr("Remove"), this);
    picker_->setObjectName(QStringLiteral("parameterPicker"));
    picker_->setMinimumContentsLength(28);
    connect(add, &QPushButton::clicked, this, [this] {
        if (picker_->currentIndex() >= 0) addParameter(picker_->currentData().toString());
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (params_->currentRow() >= 0) removeParameter(params_->currentRow());
    });
    auto *pickRow = new QHBoxLayout;
    pickRow->addWidget(new QLabel(tr("Parameter:"), this));
    pickRow->addWidget(picker_, 1);
    pickRow->addWidget(add);
    pickRow->addWidget(remove);
    auto *paramBox = new QGroupBox(tr("Search space"), this);
    auto *paramLayout = new QVBoxLayout(paramBox);
    paramLayout->addLayout(pickRow);
    paramLayout->addWidget(params_);
    connect(params_, &QTableWidget::itemChanged, this, &SweepEditor::changed);

    // algorithm
    const QList<QPair<QString, QString>> algos{{QStringLiteral("grid"), tr("Grid")},
                                               {QStringLiteral("random"), tr("Random")},
                                               {QStringLiteral("tpe"), tr("TPE (Bergstra et al. 2011)")},
                                               {QStringLiteral("asha"), tr("ASHA (Li et al. 2020)")},
                                               {QStringLiteral("hyperband"), tr("Hyperband (brackets of ASHA)")}};
    for (const auto &a : algos)
        algorithm_->addItem(a.second, a.first);
    algorithm_->setCurrentIndex(1);
    const auto spin = [](QSpinBox *s, int lo, int hi, int v, const char *name) {
        s->setRange(lo, hi);
        s->setValue(v);
        s->setObjectName(QLatin1String(name));
    };
    const app::sweep::AlgorithmSettings defaults;
    spin(gridPoints_, 1, 1000, defaults.gridPoints, "gridPoints");
    spin(startup_, 1, 10000, defaults.startupTrials, "startupTrials");
    spin(candidates_, 1, 10000, defaults.candidates, "candidates");
    spin(eta_, 2, 100, defaults.eta, "eta");
    spin(minResource_, 1, 1000000, int(defaults.minResource), "minResource");
    gamma_->setRange(0.01, 0.99);
    gamma_->setSingleStep(0.05);
    gamma_->setValue(defaults.gamma);
    gamma_->setObjectName(QStringLiteral("gamma"));
    priorWeight_->setRange(0, 100);
    priorWeight_->setValue(defaults.priorWeight);
    priorWeight_->setObjectName(QStringLiteral("priorWeight"));
    auto *algoBox = new QGroupBox(tr("Algorithm"), this);
    algoForm_ = new QFormLayout(algoBox);
    algoForm_->addRow(tr("Algorithm"), algorithm_);
    algoHelp_ = new QLabel(this);
    algoHelp_->setWordWrap(true);
    algoHelp_->setStyleSheet(QStringLiteral("color: #616161;"));
    algoForm_->addRow(algoHelp_);
    algoForm_->addRow(tr("Grid points per parameter"), gridPoints_);
    algoForm_->addRow(tr("Random start-up trials"), startup_);
    algoForm_->addRow(tr("Good fraction γ"), gamma_);
    algoForm_->addRow(tr("Candidates per proposal"), candidates_);
    algoForm_->addRow(tr("Prior weight"), priorWeight_);
    algoForm_->addRow(tr("Reduction factor η"), eta_);
    algoForm_->addRow(tr("Minimum budget r"), minResource_);

    // objective
    metric_->setEditable(true);
    metric_->addItems({QStringLiteral("loss"), QStringLiteral("accuracy"), QStringLiteral("mae"),
                       QStringLiteral("rmse"), QStringLiteral("r2")});
    metric_->setObjectName(QStringLiteral("metric"));
    split_->addItem(tr("validation"), QStringLiteral("val"));
    split_->addItem(tr("training"), QStringLiteral("train"));
    split_->setObjectName(QStringLiteral("split"));
    mode_->addItem(tr("minimise"), QStringLiteral("min"));
    mode_->addItem(tr("maximise"), QStringLiteral("max"));
    mode_->setObjectName(QStringLiteral("mode"));
    auto *objBox = new QGroupBox(tr("Objective"), this);
    auto *objForm = new QFormLayout(objBox);
    objForm->addRow(tr("Metric"), metric_);
    objForm->addRow(tr("Split"), split_);
    objForm->addRow(tr("Goal"), mode_);

    // limits
    spin(maxTrials_, 1, 100000, defaults.maxTrials, "maxTrials");
    spin(maxConcurrent_, 1, 1024, 1, "maxConcurrent");
    spin(budget_, 1, 100000000, 10, "budgetPerTrial");
    spin(threads_, 0, 1024, 1, "threadsPerTrial");
    spin(seed_, 0, 2147483647, 0, "seed");
    spin(trialsPerPack_, 1, 1024, 16, "trialsPerPack");
    packing_->setChecked(true);
    packing_->setObjectName(QStringLiteral("packing"));
    packing_->setToolTip(tr("Trials started together train one after another in one diamond-train process, so "
                            "the engine start-up is paid once (docs/trial-packing.md)"));
    threads_->setSpecialValueText(tr("config's"));
    totalBudget_->setRange(0, 1e12);
    totalBudget_->setDecimals(0);
    totalBudget_->setSpecialValueText(tr("unlimited"));
    totalBudget_->setObjectName(QStringLiteral("totalBudget"));
    unit_->addItem(tr("epochs"), QStringLiteral("epochs"));
    unit_->addItem(tr("steps"), QStringLiteral("steps"));
    unit_->setObjectName(QStringLiteral("budgetUnit"));
    auto *limBox = new QGroupBox(tr("Limits"), this);
    auto *limForm = new QFormLayout(limBox);
    limForm->addRow(tr("Max trials"), maxTrials_);
    limForm->addRow(tr("Concurrent trials"), maxConcurrent_);
    auto *budgetRow = new QHBoxLayout;
    budgetRow->addWidget(budget_, 1);
    budgetRow->addWidget(unit_);
    limForm->addRow(tr("Budget per trial"), budgetRow);
    limForm->addRow(tr("Total budget"), totalBudget_);
    limForm->addRow(tr("Threads per trial"), threads_);
    limForm->addRow(tr("Seed"), seed_);
    auto *packRow = new QHBoxLayout;
    packRow->addWidget(packing_, 1);
    packRow->addWidget(new QLabel(tr("up to"), this));
    packRow->addWidget(trialsPerPack_);
    limForm->addRow(tr("Packing"), packRow);

    // where the trials run
    targets_->setObjectName(QStringLiteral("sweepTargets"));
    targets_->setMaximumHeight(96);
    targets_->setToolTip(tr("Several clusters: each trial goes where it is predicted to finish first, and trials "
                            "move to the others when one cannot be reached"));
    spin(perTarget_, 1, 1024, 2, "maxInFlightPerTarget");
    perTarget_->setToolTip(tr("Most trials queued or running on one cluster at once"));
    auto *whereBox = new QGroupBox(tr("Run trials on"), this);
    auto *whereForm = new QFormLayout(whereBox);
    whereForm->addRow(targets_);
    whereForm->addRow(tr("Trials per cluster"), perTarget_);
    setClusters({});
    connect(targets_, &QListWidget::itemChanged, this, &SweepEditor::targetToggled);
    connect(perTarget_, &QSpinBox::valueChanged, this, &SweepEditor::changed);

    auto *columns = new QHBoxLayout;
    columns->addWidget(algoBox, 1);
    auto *right = new QVBoxLayout;
    right->addWidget(whereBox);
    right->addWidget(objBox);
    right->addWidget(limBox);
    columns->addLayout(right, 1);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(errorLabel_, 1);
    buttons->addWidget(start_, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(general);
    layout->addWidget(paramBox, 1);
    layout->addLayout(columns);
    layout->addLayout(buttons);

    validate_->setSingleShot(true);
    validate_->setInterval(100);
    connect(validate_, &QTimer::timeout, this, &SweepEditor::validate);
    for (QLineEdit *e : {name_, project_})
        connect(e, &QLineEdit::textChanged, this, &SweepEditor::changed);
    for (QComboBox *c : {algorithm_, split_, mode_, unit_})
        connect(c, &QComboBox::currentIndexChanged, this, &SweepEditor::changed);
    connect(metric_, &QComboBox::currentTextChanged, this, &SweepEditor::changed);
    connect(packing_, &QCheckBox::toggled, this, &SweepEditor::changed);
    connect(packing_, &QCheckBox::toggled, trialsPerPack_, &QWidget::setEnabled);
    for (QSpinBox *s :
         {gridPoints_, startup_, candidates_, eta_, minResource_, maxTrials_, maxConcurrent_, budget_, threads_, seed_})
        connect(s, &QSpinBox::valueChanged, this, &SweepEditor::changed);
    for (QDoubleSpinBox *s : {gamma_, priorWeight_, totalBudget_})
        connect(s, &QDoubleSpinBox::valueChanged, this, &SweepEditor::changed);
    connect(algorithm_, &QComboBox::currentIndexChanged, this, &SweepEditor::updateAlgorithmRows);
    connect(start_, &QPushButton::clicked, this, &SweepEditor::start);
    updateAlgorithmRows();
    validate();
}

QList<SweepEditor::Candidate> SweepEditor::candidates(const QJsonObject &spec, const QJsonObject &config) {
    QList<Candidate> out;
    QList<Candidate> leaves;
    collectNumbers(config, {}, &leaves);
    const QStringList common{QStringLiteral("optimizer.lr"), QStringLiteral("optimizer.weight_decay"),
                             QStringLiteral("optimizer.name"), QStringLiteral("batch_size"), QStringLiteral("epochs")};
    for (const QString &t : common)
        out.append({t, lookup(config, t.split(QLatin1Char('.')))});
    for (const Candidate &c : leaves) {
        const QString first = c.target.section(QLatin1Char('.'), 0, 0);
        const bool known =
            std::any_of(out.cbegin(), out.cend(), [&](const Candidate &o) { return o.target == c.target; });
        if (!known && app::sweep::runConfigFields().contains(first) && first != QLatin1String("seed") &&
            first != QLatin1String("checkpoint"))
            out.append(c);
    }
    for (const QJsonValue &n : spec.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject node = n.toObject();
        const QJsonObject params = node.value(QStringLiteral("params")).toObject();
        for (auto it = params.begin(); it != params.end(); ++it)
            if (it->isDouble())
                out.append(
                    {QStringLiteral("spec:%1.%2").arg(node.value(QStringLiteral("id")).toString(), it.key()), *it});
    }
    return out;
}

void SweepEditor::setBase(const QJsonObject &spec, const QJsonObject &config) {
    spec_ = spec;
    config_ = config;
    picker_->clear();
    for (const Candidate &c : candidates(spec, config)) {
        const QString current = c.current.isUndefined() ? tr("not set")
                                : c.current.isString()  ? c.current.toString()
                                                        : QString::number(c.current.toDouble(), 'g', 6);
        picker_->addItem(tr("%1 (now %2)").arg(c.target, current), c.target);
    }
    const bool steps = config.value(QStringLiteral("steps")).toInt() > 0;
    unit_->setCurrentIndex(steps ? 1 : 0);
    // Without a length in the config: the run-config default epochs (diamond_run_config).
    budget_->setValue(std::max(1, config.value(steps ? QStringLiteral("steps") : QStringLiteral("epochs"))
                                      .toInt(app::runConfigDefault(QStringLiteral("epochs")).toInt())));
    const QString specName = spec.value(QStringLiteral("name")).toString();
    if (!specName.isEmpty()) name_->setText(tr("%1 sweep").arg(specName));
    changed();
}

QComboBox *SweepEditor::typeCombo(int row) const {
    return qobject_cast<QComboBox *>(params_->cellWidget(row, TypeCol));
}

int SweepEditor::addParameter(const QString &target) {
    const int row = params_->rowCount();
    const QSignalBlocker block(params_);
    params_->insertRow(row);
    for (int c = 0; c < ColumnCount; ++c)
        if (c != TypeCol) params_->setItem(row, c, new QTableWidgetItem);
    auto *type = new QComboBox(params_);
    const QStringList labels{tr("choice"), tr("uniform"), tr("log-uniform"), tr("integer"), tr("integer (log)")};
    for (int i = 0; i < 5; ++i)
        type->addItem(labels.at(i), QLatin1String(kTypes[i]));
    params_->setCellWidget(row, TypeCol, type);
    connect(type, &QComboBox::currentIndexChanged, this, &SweepEditor::changed);
    setRowTarget(row, target);
    changed();
    return row;
}

void SweepEditor::setRowTarget(int row, const QString &target) {
    params_->item(row, TargetCol)->setText(target);
    QString name = target.section(QLatin1Char(':'), -1);
    if (name.startsWith(QLatin1String("optimizer.")) || !target.startsWith(QLatin1String("spec:")))
        name = name.section(QLatin1Char('.'), -1);
    params_->item(row, NameCol)->setText(name);
    // A distribution and range guessed from the current value.
    QJsonValue current;
    if (target.startsWith(QLatin1String("spec:"))) {
        const QString rest = target.mid(5);
        for (const QJsonValue &n : spec_.value(QStringLiteral("nodes")).toArray())
            if (n.toObject().value(QStringLiteral("id")).toString() == rest.section(QLatin1Char('.'), 0, 0))
                current = lookup(n.toObject().value(QStringLiteral("params")).toObject(),
                                 rest.section(QLatin1Char('.'), 1).split(QLatin1Char('.')));
    } else {
        current = lookup(config_, target.split(QLatin1Char('.')));
    }
    QString type = QStringLiteral("uniform"), low, high, values;
    const QString key = target.section(QLatin1Char('.'), -1);
    if (current.isString() || key == QLatin1String("name")) {
        type = QStringLiteral("choice");
        values = key == QLatin1String("name") ? QStringLiteral("adam, sgd") : current.toString();
    } else if (current.isDouble() && current.toDouble() == std::floor(current.toDouble()) && current.toDouble() >= 1) {
        const double v = current.toDouble();
        type = v >= 8 ? QStringLiteral("int_log") : QStringLiteral("int");
        low = QString::number(std::max(1.0, std::floor(v / 4)));
        high = QString::number(v * 4);
    } else if (current.isDouble() && current.toDouble() > 0 && current.toDouble() < 1 &&
               (key == QLatin1String("p") || key.contains(QLatin1String("dropout")))) {
        low = QStringLiteral("0");
        high = QStringLiteral("0.5");
    } else if (current.isDouble() && current.toDouble() > 0) {
        type = QStringLiteral("log_uniform");
        low = QString::number(current.toDouble() / 10, 'g', 6);
        high = QString::number(current.toDouble() * 10, 'g', 6);
    } else if (key == QLatin1String("weight_decay")) {
        type = QStringLiteral("log_uniform");
        low = QStringLiteral("1e-06");
        high = QStringLiteral("0.01");
    } else {
        low = QStringLiteral("0");
        high = QStringLiteral("1");
    }
    typeCombo(row)->setCurrentIndex(typeCombo(row)->findData(type));
    params_->item(row, LowCol)->setText(low);
    params_->item(row, HighCol)->setText(high);
    params_->item(row, ValuesCol)->setText(values);
}

void SweepEditor::removeParameter(int row) {
    params_->removeRow(row);
    changed();
}

void SweepEditor::changed() {
    if (!validate_->isActive()) validate_->start();
}

void SweepEditor::updateAlgorithmRows() {
    const QString a = algorithm_->currentData().toString();
    const bool multi = a == QLatin1String("asha") || a == QLatin1String("hyperband");
    algoForm_->setRowVisible(gridPoints_, a == QLatin1String("grid"));
    for (QWidget *w : QList<QWidget *>{startup_, gamma_, candidates_, priorWeight_})
        algoForm_->setRowVisible(w, a == QLatin1String("tpe"));
    algoForm_->setRowVisible(eta_, multi);
    algoForm_->setRowVisible(minResource_, multi);
    if (a == QLatin1String("grid"))
        algoHelp_->setText(tr("Every point of the discretised space once."));
    else if (a == QLatin1String("random"))
        algoHelp_->setText(tr("Independent draws from each parameter's distribution."));
    else if (a == QLatin1String("tpe"))
        algoHelp_->setText(tr("After the start-up trials, proposes where good results are denser than bad ones."));
    else if (a == QLatin1String("asha"))
        algoHelp_->setText(tr("Trains trials with a small budget first and promotes the best 1/η of each rung to "
                              "η times the budget; the others stop early."));
    else
        algoHelp_->setText(tr("Several ASHA brackets with different starting budgets, hedging against stopping "
                              "too early."));
}

QJsonObject SweepEditor::parameterJson(int row, QString *error) const {
    const auto text = [&](int col) {
        return params_->item(row, col) ? params_->item(row, col)->text().trimmed() : QString();
    };
    QJsonObject p{{QStringLiteral("target"), text(TargetCol)}};
    if (!text(NameCol).isEmpty()) p.insert(QStringLiteral("name"), text(NameCol));
    QString type = typeCombo(row) ? typeCombo(row)->currentData().toString() : QStringLiteral("uniform");
    if (type == QLatin1String("int_log")) {
        type = QStringLiteral("int");
        p.insert(QStringLiteral("log"), true);
    }
    p.insert(QStringLiteral("type"), type);
    if (type == QLatin1String("choice")) {
        QJsonArray values;
        for (const QString &token : text(ValuesCol).split(QLatin1Char(','), Qt::SkipEmptyParts))
            values.append(parseToken(token));
        p.insert(QStringLiteral("values"), values);
    } else {
        for (const auto &[col, key] : {std::pair{int(LowCol), "low"}, std::pair{int(HighCol), "high"}}) {
            bool ok = false;
            const double v = text(col).toDouble(&ok);
            if (!ok) {
                if (error && error->isEmpty())
                    *error = tr("space[%1].%2: \"%3\" is not a number").arg(row).arg(QLatin1String(key), text(col));
                continue;
            }
            p.insert(QLatin1String(key),
                     type == QLatin1String("int") && v == std::floor(v) ? QJsonValue(qint64(v)) : QJsonValue(v));
        }
    }
    if (!text(GridCol).isEmpty()) {
        bool ok = false;
        const int g = text(GridCol).toInt(&ok);
        if (ok)
            p.insert(QStringLiteral("grid_points"), g);
        else if (error && error->isEmpty())
            *error = tr("space[%1].grid_points: \"%2\" is not an integer").arg(row).arg(text(GridCol));
    }
    return p;
}

void SweepEditor::setClusters(const QStringList &clusters) {
    const QStringList checked = targets_->count() > 0 ? checkedTargets() : QStringList{QStringLiteral("local")};
    const QSignalBlocker block(targets_);
    targets_->clear();
    auto add = [this, &checked](const QString &text, const QString &name) {
        auto *item = new QListWidgetItem(text, targets_);
        item->setData(Qt::UserRole, name);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(name) ? Qt::Checked : Qt::Unchecked);
    };
    add(tr("This computer"), QStringLiteral("local"));
    for (const QString &c : clusters)
        add(c, c);
    if (checkedTargets().isEmpty()) targets_->item(0)->setCheckState(Qt::Checked);
    perTarget_->setEnabled(checkedTargets().size() > 1);
}

QStringList SweepEditor::checkedTargets() const {
    QStringList out;
    for (int i = 0; i < targets_->count(); ++i)
        if (targets_->item(i)->checkState() == Qt::Checked) out << targets_->item(i)->data(Qt::UserRole).toString();
    return out;
}

void SweepEditor::targetToggled(QListWidgetItem *item) {
    {
        // This computer, or clusters: checking one side clears the other; nothing checked means this computer.
        const QSignalBlocker block(targets_);
        const bool local = item->data(Qt::UserRole).toString() == QLatin1String("local");
        if (item->checkState() == Qt::Checked)
            for (int i = 0; i < targets_->count(); ++i) {
                QListWidgetItem *other = targets_->item(i);
                const bool otherLocal = other->data(Qt::UserRole).toString() == QLatin1String("local");
                if (other != item && (local || otherLocal)) other->setCheckState(Qt::Unchecked);
            }
        if (checkedTargets().isEmpty()) targets_->item(0)->setCheckState(Qt::Checked);
    }
    const QStringList checked = checkedTargets();
    perTarget_->setEnabled(checked.size() > 1);
    packing_->setEnabled(checked == QStringList{QStringLiteral("local")});
    changed();
}

QJsonObject SweepEditor::document() const {
    QJsonArray space;
    for (int r = 0; r < params_->rowCount(); ++r)
        space.append(parameterJson(r, nullptr));
    const QString a = algorithm_->currentData().toString();
    QJsonObject algo{{QStringLiteral("name"), a}};
    if (a == QLatin1String("grid")) algo.insert(QStringLiteral("grid_points"), gridPoints_->value());
    if (a == QLatin1String("tpe")) {
        algo.insert(QStringLiteral("startup_trials"), startup_->value());
        algo.insert(QStringLiteral("gamma"), gamma_->value());
        algo.insert(QStringLiteral("candidates"), candidates_->value());
        algo.insert(QStringLiteral("prior_weight"), priorWeight_->value());
    }
    if (a == QLatin1String("asha") || a == QLatin1String("hyperband")) {
        algo.insert(QStringLiteral("eta"), eta_->value());
        algo.insert(QStringLiteral("min_resource"), minResource_->value());
    }
    QJsonObject limits{{QStringLiteral("max_trials"), maxTrials_->value()},
                       {QStringLiteral("max_concurrent"), maxConcurrent_->value()},
                       {QStringLiteral("budget_per_trial"), budget_->value()},
                       {QStringLiteral("budget_unit"), unit_->currentData().toString()},
                       {QStringLiteral("total_budget"), totalBudget_->value()},
                       {QStringLiteral("threads_per_trial"), threads_->value()},
                       {QStringLiteral("packing"), packing_->isChecked()},
                       {QStringLiteral("trials_per_pack"), trialsPerPack_->value()}};
    const QStringList where = checkedTargets();
    if (where.size() > 1) limits.insert(QStringLiteral("max_in_flight_per_target"), perTarget_->value());
    QJsonObject doc{
        {QStringLiteral("format"), QLatin1String(app::sweep::kSweepFormat)},
        {QStringLiteral("name"), name_->text().trimmed()},
        {QStringLiteral("project"), project_->text().trimmed()},
        {QStringLiteral("spec"), spec_},
        {QStringLiteral("config"), config_},
        {QStringLiteral("space"), space},
        {QStringLiteral("algorithm"), algo},
        {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), metric_->currentText().trimmed()},
                                                  {QStringLiteral("split"), split_->currentData().toString()},
                                                  {QStringLiteral("mode"), mode_->currentData().toString()}}},
        {QStringLiteral("limits"), limits},
        {QStringLiteral("seed"), seed_->value()}};
    if (where.size() > 1)
        doc.insert(QStringLiteral("targets"), QJsonArray::fromStringList(where));
    else if (where != QStringList{QStringLiteral("local")} && !where.isEmpty())
        doc.insert(QStringLiteral("target"), where.first());
    return doc;
}

std::optional<app::sweep::SweepDefinition> SweepEditor::definition(QString *error) const {
    QString e;
    for (int r = 0; r < params_->rowCount() && e.isEmpty(); ++r)
        parameterJson(r, &e);
    if (e.isEmpty()) {
        auto def = app::sweep::SweepDefinition::fromJson(document(), {}, &e);
        if (def) return def;
    }
    if (error) *error = e;
    return std::nullopt;
}

bool SweepEditor::cellHasError(int row, int column) const {
    const QTableWidgetItem *item = params_->item(row, column);
    if (item) return !item->toolTip().isEmpty();
    const QWidget *w = params_->cellWidget(row, column);
    return w && !w->toolTip().isEmpty();
}

bool SweepEditor::validate() {
    validate_->stop();
    const bool wasValid = errors_.isEmpty();
    errors_.clear();
    const QSignalBlocker block(params_);
    static const QRegularExpression fieldRe(QStringLiteral("^space\\[(\\d+)\\]\\.(\\w+)"));
    const auto columnOf = [](const QString &field) {
        if (field == QLatin1String("low")) return int(LowCol);
        if (field == QLatin1String("high")) return int(HighCol);
        if (field == QLatin1String("values")) return int(ValuesCol);
        if (field == QLatin1String("name")) return int(NameCol);
        if (field == QLatin1String("grid_points")) return int(GridCol);
        if (field == QLatin1String("type") || field == QLatin1String("log")) return int(TypeCol);
        return int(TargetCol);
    };
    for (int r = 0; r < params_->rowCount(); ++r) {
        for (int c = 0; c < ColumnCount; ++c) {
            if (auto *item = params_->item(r, c)) {
                item->setBackground(QBrush());
                item->setToolTip({});
            } else if (QWidget *w = params_->cellWidget(r, c)) {
                w->setToolTip({});
                w->setStyleSheet({});
            }
        }
        // Each row on its own, so that every erroneous row is marked, not only the first.
        QString e;
        const QJsonObject p = parameterJson(r, &e);
        if (e.isEmpty()) {
            if (app::sweep::SearchSpace::fromJson(QJsonArray{p}, &e))
                e.clear();
            else
                e.replace(QStringLiteral("space[0]"), QStringLiteral("space[%1]").arg(r));
        }
        if (e.isEmpty()) continue;
        errors_.append(e);
        const auto m = fieldRe.match(e);
        const int col = m.hasMatch() ? columnOf(m.captured(2)) : int(TargetCol);
        if (auto *item = params_->item(r, col)) {
            item->setBackground(QColor(0xff, 0xcd, 0xd2));
            item->setToolTip(e);
        } else if (QWidget *w = params_->cellWidget(r, col)) {
            w->setToolTip(e);
            w->setStyleSheet(QStringLiteral("background: #ffcdd2;"));
        }
    }
    if (errors_.isEmpty()) {
        QString e;
        if (params_->rowCount() == 0)
            e = tr("space: add at least one parameter");
        else if (app::sweep::SweepDefinition::fromJson(document(), {}, &e))
            e.clear();
        if (!e.isEmpty()) errors_.append(e);
        // A whole-document error about a target ("parameter 'w': the spec has no node ...") marks its row.
        for (int r = 0; r < params_->rowCount() && !e.isEmpty(); ++r) {
            const QString name = params_->item(r, NameCol)->text().trimmed();
            if (!name.isEmpty() && e.contains(QStringLiteral("'%1'").arg(name))) {
                params_->item(r, TargetCol)->setBackground(QColor(0xff, 0xcd, 0xd2));
                params_->item(r, TargetCol)->setToolTip(e);
            }
        }
    }
    errorLabel_->setText(errors_.join(QLatin1Char('\n')));
    start_->setEnabled(errors_.isEmpty() && service_);
    if (wasValid != errors_.isEmpty()) Q_EMIT validityChanged(errors_.isEmpty());
    return errors_.isEmpty();
}

void SweepEditor::setService(app::RunService *service) {
    service_ = service;
    QStringList clusters;
    if (service_)
        for (const remote::ClusterProfile &p : app::ClusterStore(service_->workspace()).profiles())
            if (p.scheduler != remote::SchedulerKind::None) clusters << p.name;
    setClusters(clusters);
    validate();
}

bool SweepEditor::start() {
    if (!validate() || !service_) return false;
    const auto def = definition();
    app::sweep::SweepController *controller = service_->startSweep(*def);
    if (!controller) {
        errors_ = {service_->errorString()};
        errorLabel_->setText(errors_.first());
        return false;
    }
    Q_EMIT sweepStarted(controller->sweepId());
    return true;
}

} // namespace diamond::ui::sweep
