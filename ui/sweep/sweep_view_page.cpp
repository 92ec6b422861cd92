#include "ui/sweep/sweep_view_page.h"

#include "ui/sweep/sweep_plots.h"
#include "ui/sweep/sweep_trials_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace diamond::ui::sweep {

namespace {
bool isEnded(const QString &state) {
    return state == QLatin1String("completed") || state == QLatin1String("stopped") || state == QLatin1String("failed");
}
} // namespace

SweepViewPage::SweepViewPage(app::RunService &service, QWidget *parent)
    : QWidget(parent), service_(service), ws_(service.workspace()), store_(service.workspace()),
      title_(new QLabel(this)), summary_(new QLabel(this)), pause_(new QPushButton(tr("Pause"), this)),
      stop_(new QPushButton(tr("Stop"), this)), promote_(new QPushButton(tr("Promote best"), this)),
      model_(new SweepTrialsModel(this)), proxy_(new QSortFilterProxyModel(this)), table_(new QTableView(this)),
      parallel_(new ParallelCoordinatesPlot(this)), scatter_(new ObjectiveScatterPlot(this)),
      importance_(new ImportanceBars(this)), coalesce_(new QTimer(this)), poll_(new QTimer(this)) {
    // A controller that starts here later (Resume, another window's action) is followed from then on.
    connect(&service_, &app::RunService::sweepStarted, this, [this](qint64 id) {
        if (id == sweepId_) attachController();
    });
    QFont tf = title_->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.35);
    tf.setBold(true);
    title_->setFont(tf);
    summary_->setTextFormat(Qt::PlainText);
    summary_->setObjectName(QStringLiteral("sweepSummary"));
    pause_->setObjectName(QStringLiteral("pauseButton"));
    stop_->setObjectName(QStringLiteral("stopButton"));
    promote_->setObjectName(QStringLiteral("promoteButton"));
    promote_->setToolTip(tr("Create a normal run from the best trial, with the full budget"));

    auto *head = new QHBoxLayout;
    auto *titles = new QVBoxLayout;
    titles->addWidget(title_);
    titles->addWidget(summary_);
    head->addLayout(titles, 1);
    head->addWidget(pause_);
    head->addWidget(stop_);
    head->addSpacing(12);
    head->addWidget(promote_);

    proxy_->setSourceModel(model_);
    proxy_->setSortRole(SweepTrialsModel::SortRole);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(0, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(56);
    table_->setToolTip(tr("Click a trial to open its run"));
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex &index) {
        openTrial(proxy_->data(index, SweepTrialsModel::TrialIndexRole).toInt());
    });
    connect(scatter_, &ObjectiveScatterPlot::trialClicked, this, &SweepViewPage::openTrial);
    connect(parallel_, &ParallelCoordinatesPlot::trialClicked, this, &SweepViewPage::openTrial);

    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(table_);
    top->addWidget(scatter_);
    top->setStretchFactor(0, 5);
    top->setStretchFactor(1, 4);
    auto *bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(parallel_);
    bottom->addWidget(importance_);
    bottom->setStretchFactor(0, 7);
    bottom->setStretchFactor(1, 2);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({420, 480});
    top->setSizes({760, 620});
    bottom->setSizes({1000, 380});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(head);
    layout->addWidget(split, 1);

    coalesce_->setSingleShot(true);
    coalesce_->setInterval(150);
    connect(coalesce_, &QTimer::timeout, this, &SweepViewPage::refresh);
    poll_->setInterval(2000);
    connect(poll_, &QTimer::timeout, this, &SweepViewPage::refresh);
    connect(pause_, &QPushButton::clicked, this, &SweepViewPage::pauseOrResume);
    connect(stop_, &QPushButton::clicked, this, &SweepViewPage::stopSweep);
    connect(promote_, &QPushButton::clicked, this, [this] {
        if (!promoteBest()) QMessageBox::warning(this, tr("Promote best"), error_);
    });
    updateButtons();
}

bool SweepViewPage::loadDefinition(qint64 sweepId) {
    const auto row = store_.sweep(sweepId);
    if (!row) {
        error_ = store_.errorString();
        return false;
    }
    QString error;
    const auto def = app::sweep::SweepDefinition::fromJson(row->document, {}, &error);
    if (!def) {
        error_ = tr("Sweep %1 has an invalid stored definition: %2").arg(sweepId).arg(error);
        return false;
    }
    def_ = *def;
    sweepId_ = sweepId;
    state_ = row->state;
    trials_.clear();
    model_->setSpace(def_.space);
    table_->setColumnHidden(model_->clusterColumn(), !def_.isMultiTarget());
    title_->setText(tr("Sweep %1: %2").arg(sweepId).arg(def_.name));
    return true;
}

void SweepViewPage::attachController() {
    app::sweep::SweepController *controller = service_.sweepController(sweepId_);
    if (controller == controller_) return;
    if (controller_) disconnect(controller_, nullptr, this, nullptr);
    controller_ = controller;
    if (!controller) {
        if (!isEnded(state_)) poll_->start();
        return;
    }
    poll_->stop();
    for (auto signal : {&app::sweep::SweepController::stateChanged, &app::sweep::SweepController::finished})
        connect(controller, signal, this, &SweepViewPage::scheduleRefresh);
    connect(controller, &app::sweep::SweepController::trialStarted, this, &SweepViewPage::scheduleRefresh);
    connect(controller, &app::sweep::SweepController::trialReported, this, &SweepViewPage::scheduleRefresh);
    connect(controller, &app::sweep::SweepController::trialEnded, this, &SweepViewPage::scheduleRefresh);
}

bool SweepViewPage::showSweep(qint64 sweepId) {
    if (controller_) disconnect(controller_, nullptr, this, nullptr);
    controller_ = nullptr;
    if (!loadDefinition(sweepId)) return false;
    refresh();
    attachController();
    return true;
}

void SweepViewPage::scheduleRefresh() {
    if (!coalesce_->isActive()) coalesce_->start();
}

void SweepViewPage::refresh() {
    if (sweepId_ <= 0) return;
    ++refreshes_;
    if (const auto row = store_.sweep(sweepId_)) state_ = row->state;
    trials_ = store_.trials(sweepId_);
    model_->upsert(trials_);

    const bool maximize = def_.objective.maximize;
    const auto best = bestTrialRow(trials_, maximize);
    const int bestIndex = best ? trials_.at(*best).index : -1;
    model_->setBestTrial(bestIndex);

    QList<PlotTrial> points;
    QList<QJsonObject> values;
    QList<double> objectives;
    for (const app::sweep::TrialRow &t : trials_) {
        points.append(PlotTrial{t.index, t.params, t.objective, t.state});
        if (t.objective && std::isfinite(*t.objective)) {
            values.append(t.params);
            objectives.append(*t.objective);
        }
    }
    const QString objective = def_.objective.describe();
    scatter_->setData(points, objective, maximize);
    parallel_->setData(def_.space, points, objective, maximize, bestIndex);
    importance_->setImportance(parameterImportance(def_.space, values, objectives), int(objectives.size()));

    int running = 0, done = 0;
    for (const app::sweep::TrialRow &t : trials_) {
        if (t.state == QLatin1String("running") || t.state == QLatin1String("pending")) ++running;
        if (isEnded(t.state)) ++done;
    }
    double used = 0;
    for (const app::sweep::TrialRow &t : trials_)
        used += t.budget;
    const QString unit = def_.budgetInSteps ? tr("steps") : tr("epochs");
    QString text = tr("%1 · %2 · %3 of %4 trials (%5 running, %6 ended) · %7 %8 used")
                       .arg(SweepTrialsModel::stateText(state_), def_.algorithm.name)
                       .arg(trials_.size())
                       .arg(def_.algorithm.maxTrials)
                       .arg(running)
                       .arg(done)
                       .arg(used)
                       .arg(unit);
    if (best)
        text +=
            tr(" · best: trial %1, %2 = %3").arg(bestIndex).arg(objective).arg(*trials_.at(*best).objective, 0, 'f', 4);
    summary_->setText(text);
    if (isEnded(state_)) poll_->stop();
    updateButtons();
}

void SweepViewPage::openTrial(int trialIndex) {
    const int row = model_->rowOfTrial(trialIndex);
    if (row < 0) return;
    const qint64 runId = model_->trial(row).runId;
    if (runId > 0) Q_EMIT openRunRequested(runId);
}

void SweepViewPage::updateButtons() {
    const bool live = sweepId_ > 0 && !isEnded(state_);
    pause_->setEnabled(live && state_ != QLatin1String("stopping"));
    pause_->setText(state_ == QLatin1String("paused") ? tr("Resume") : tr("Pause"));
    stop_->setEnabled(live && state_ != QLatin1String("stopping"));
    promote_->setEnabled(bestTrialRow(trials_, def_.objective.maximize).has_value());
}

void SweepViewPage::pauseOrResume() {
    const bool paused = state_ == QLatin1String("paused");
    if (!(paused ? service_.continueSweep(sweepId_) : service_.pauseSweep(sweepId_))) {
        error_ = service_.errorString();
        QMessageBox::warning(this, tr("Sweep"), error_);
    }
    refresh();
    attachController(); // continuing a sweep whose controller died takes it over here
}

void SweepViewPage::stopSweep() {
    if (!service_.stopSweep(sweepId_)) {
        error_ = service_.errorString();
        QMessageBox::warning(this, tr("Sweep"), error_);
    }
    refresh();
    attachController();
}

std::optional<qint64> SweepViewPage::promoteBest() {
    error_.clear();
    const auto best = bestTrialRow(trials_, def_.objective.maximize);
    if (!best) {
        error_ = tr("No trial of sweep %1 has a result yet.").arg(sweepId_);
        return std::nullopt;
    }
    const app::sweep::TrialRow &t = trials_.at(*best);
    QJsonObject spec, config;
    QString error;
    if (!def_.trialDocuments(t.params, def_.algorithm.maxResource, &spec, &config, &error)) {
        error_ = tr("Trial %1: %2").arg(t.index).arg(error);
        return std::nullopt;
    }
    app::RunStore runs(ws_);
    const auto run =
        runs.createRunWithSpec(def_.project, spec, {}, tr("%1 best (trial %2)").arg(def_.name).arg(t.index), config);
    if (!run) {
        error_ = runs.errorString();
        return std::nullopt;
    }
    Q_EMIT runCreated(run->id);
    return run->id;
}

} // namespace diamond::ui::sweep
