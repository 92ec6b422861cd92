// The workspace dock: projects and their runs (name, state) from the open workspace.
#pragma once

#include <QWidget>

class QStandardItemModel;
class QTreeView;

namespace diamond::app {
class Workspace;
}

namespace diamond::ui {

class WorkspacePanel : public QWidget {
    Q_OBJECT
public:
    explicit WorkspacePanel(QWidget *parent = nullptr);

    /// Shows `workspace` (not owned; may be null). Reads the project and run lists; fast (one query
    /// each), so it runs on the GUI thread.
    void setWorkspace(app::Workspace *workspace);
    void reload();

    QStandardItemModel *model() const { return model_; }
    QTreeView *view() const { return view_; }
    /// Name of the project of the current item ("" when none is selected).
    QString currentProject() const;

Q_SIGNALS:
    /// A run was double-clicked (or Return pressed on it).
    void runActivated(qint64 runId);

private:
    app::Workspace *workspace_ = nullptr;
    QStandardItemModel *model_ = nullptr;
    QTreeView *view_ = nullptr;
};

} // namespace diamond::ui
