#include "ui/run/runs_panel.h"

#include "ui/run/runs_model.h"

#include <QAction>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace diamond::ui {

RunsPanel::RunsPanel(QWidget *parent) : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter runs (name, project, state, target)…"));
    filter_->setClearButtonEnabled(true);
    open_ = new QPushButton(tr("&Open"), this);
    compare_ = new QPushButton(tr("&Compare"), this);
    compare_->setObjectName(QStringLiteral("compareButton"));
    compare_->setToolTip(tr("Overlay the curves of the selected runs"));
    top->addWidget(filter_, 1);
    top->addWidget(open_);
    top->addWidget(compare_);
    layout->addLayout(top);

    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setSortRole(RunsTableModel::SortRole);
    view_ = new QTableView(this);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(RunsTableModel::Name, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 8);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setAlternatingRowColors(true);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(view_, 1);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        Q_EMIT openRunRequested(index.data(RunsTableModel::RunIdRole).toLongLong());
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        for (qint64 id : selectedRunIds())
            Q_EMIT openRunRequested(id);
    });
    connect(compare_, &QPushButton::clicked, this, [this] { Q_EMIT compareRequested(selectedRunIds()); });

    auto addAction = [this](const QString &name, const QString &text, const QString &icon) {
        auto *a = new QAction(QIcon::fromTheme(icon), text, this);
        a->setObjectName(name);
        view_->addAction(a);
        return a;
    };
    openAction_ = addAction(QStringLiteral("openRuns"), tr("&Open monitor"), QStringLiteral("document-open"));
    compareAction_ = addAction(QStringLiteral("compareRuns"), tr("&Compare"), QString());
    publishAction_ =
        addAction(QStringLiteral("publishRun"), tr("&Publish to gallery…"), QStringLiteral("document-send"));
    stopAction_ = addAction(QStringLiteral("stopRuns"), tr("&Stop"), QStringLiteral("process-stop"));
    resumeAction_ = addAction(QStringLiteral("resumeRuns"), tr("&Resume"), QStringLiteral("media-playback-start"));
    moveAction_ = addAction(QStringLiteral("moveRun"), tr("&Move to another cluster…"), QStringLiteral("go-jump"));
    deleteAction_ = addAction(QStringLiteral("deleteRuns"), tr("&Delete…"), QStringLiteral("edit-delete"));
    view_->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(openAction_, &QAction::triggered, open_, &QPushButton::click);
    connect(compareAction_, &QAction::triggered, this, [this] { Q_EMIT compareRequested(selectedRunIds()); });
    connect(publishAction_, &QAction::triggered, this, [this] {
        if (const QList<qint64> ids = selectedRunIds(); ids.size() == 1) Q_EMIT publishRequested(ids.first());
    });
    connect(stopAction_, &QAction::triggered, this, [this] { Q_EMIT stopRequested(selectedRunIds()); });
    connect(resumeAction_, &QAction::triggered, this, [this] { Q_EMIT resumeRequested(selectedRunIds()); });
    connect(moveAction_, &QAction::triggered, this, [this] {
        if (const QList<qint64> ids = selectedRunIds(); ids.size() == 1) Q_EMIT moveRequested(ids.first());
    });
    connect(deleteAction_, &QAction::triggered, this, [this] { Q_EMIT deleteRequested(selectedRunIds()); });
    connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPanel::updateButtons);
    updateButtons();
}

void RunsPanel::setWorkspace(app::Workspace *workspace) {
    proxy_->setSourceModel(nullptr);
    delete model_;
    model_ = nullptr;
    if (workspace) {
        model_ = new RunsTableModel(*workspace, this);
        proxy_->setSourceModel(model_);
        view_->resizeColumnsToContents();
    }
    updateButtons();
}

QList<qint64> RunsPanel::selectedRunIds() const {
    QList<qint64> ids;
    for (const QModelIndex &index : view_->selectionModel()->selectedRows())
        ids.append(index.data(RunsTableModel::RunIdRole).toLongLong());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void RunsPanel::refreshRun(qint64 runId) {
    if (model_) model_->refreshRun(runId);
    updateButtons();
}

void RunsPanel::reload() {
    if (model_) model_->reload();
}

void RunsPanel::updateButtons() {
    const QModelIndexList rows = view_->selectionModel()->selectedRows();
    const int selected = int(rows.size());
    open_->setEnabled(selected >= 1);
    compare_->setEnabled(selected >= 2);
    bool anyActive = false, anyResumable = false, allEnded = selected > 0;
    for (const QModelIndex &index : rows) {
        const auto state = app::RunState(index.data(RunsTableModel::StateRole).toInt());
        const bool active =
            state == app::RunState::Running || state == app::RunState::Queued || state == app::RunState::Resumed;
        anyActive = anyActive || active || state == app::RunState::Draft;
        anyResumable = anyResumable || state == app::RunState::Failed || state == app::RunState::Cancelled ||
                       state == app::RunState::Preempted;
        allEnded = allEnded && !active;
    }
    openAction_->setEnabled(selected >= 1);
    compareAction_->setEnabled(selected >= 2);
    publishAction_->setEnabled(selected == 1 && app::RunState(rows.first().data(RunsTableModel::StateRole).toInt()) ==
                                                    app::RunState::Finished);
    stopAction_->setEnabled(anyActive);
    resumeAction_->setEnabled(anyResumable);
    const auto firstState =
        selected == 1 ? app::RunState(rows.first().data(RunsTableModel::StateRole).toInt()) : app::RunState::Finished;
    moveAction_->setEnabled(selected == 1 && firstState != app::RunState::Finished);
    deleteAction_->setEnabled(allEnded);
}

} // namespace diamond::ui
