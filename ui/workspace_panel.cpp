#include "ui/workspace_panel.h"

#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {
QString stateLabel(app::RunState state) {
    switch (state) {
    case app::RunState::Draft: return WorkspacePanel::tr("Draft");
    case app::RunState::Queued: return WorkspacePanel::tr("Queued");
    case app::RunState::Running: return WorkspacePanel::tr("Running");
    case app::RunState::Finished: return WorkspacePanel::tr("Finished");
    case app::RunState::Failed: return WorkspacePanel::tr("Failed");
    case app::RunState::Cancelled: return WorkspacePanel::tr("Cancelled");
    case app::RunState::Preempted: return WorkspacePanel::tr("Preempted");
    case app::RunState::Resumed: return WorkspacePanel::tr("Resumed");
    }
    return {};
}
} // namespace

WorkspacePanel::WorkspacePanel(QWidget *parent) : QWidget(parent) {
    model_ = new QStandardItemModel(this);
    model_->setHorizontalHeaderLabels({tr("Name"), tr("State")});
    view_ = new QTreeView(this);
    view_->setObjectName(QStringLiteral("workspaceTree"));
    view_->setModel(model_);
    view_->setUniformRowHeights(true);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    view_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view_);
    connect(view_, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const QVariant id = index.siblingAtColumn(0).data(Qt::UserRole);
        if (id.isValid()) Q_EMIT runActivated(id.toLongLong());
    });
}

QString WorkspacePanel::currentProject() const {
    QModelIndex index = view_->currentIndex().siblingAtColumn(0);
    if (!index.isValid()) return {};
    if (index.parent().isValid()) index = index.parent();
    return index.data().toString();
}

void WorkspacePanel::setWorkspace(app::Workspace *workspace) {
    workspace_ = workspace;
    reload();
}

void WorkspacePanel::reload() {
    model_->removeRows(0, model_->rowCount());
    if (!workspace_ || !workspace_->isOpen()) return;
    app::RunStore store(*workspace_);
    const QList<app::Project> projects = store.projects();
    for (const app::Project &project : projects) {
        auto *projectItem = new QStandardItem(project.name);
        projectItem->setToolTip(project.description);
        const QList<app::Run> runs = store.runs(project.id);
        for (const app::Run &run : runs) {
            auto *name = new QStandardItem(run.name);
            name->setData(run.id, Qt::UserRole);
            auto *state = new QStandardItem(stateLabel(run.state));
            projectItem->appendRow({name, state});
        }
        auto *count = new QStandardItem(tr("%n run(s)", nullptr, static_cast<int>(runs.size())));
        model_->appendRow({projectItem, count});
    }
    view_->expandAll();
}

} // namespace diamond::ui
