// RunsPanel: the runs dock. A filterable, sortable table of every run (RunsTableModel behind a
// QSortFilterProxyModel); double-click opens a run's monitor, "Compare" overlays the selected runs. The table's
// context menu asks for the selected runs' monitor, comparison, publishing, stop, resume, move and deletion; each
// action is enabled only for runs in a state that allows it. The panel only asks (signals); the main window acts.
#pragma once

#include <QWidget>

class QAction;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace diamond::app {
class Workspace;
}

namespace diamond::ui {

class RunsTableModel;

class RunsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunsPanel(QWidget *parent = nullptr);

    /// Shows the runs of `workspace` (nullptr clears). The workspace must outlive the panel or be reset first.
    void setWorkspace(app::Workspace *workspace);
    RunsTableModel *model() const { return model_; }
    QSortFilterProxyModel *proxy() const { return proxy_; }
    QTableView *view() const { return view_; }
    QList<qint64> selectedRunIds() const;

    // The table's context menu (also in view()->actions()).
    QAction *openAction() const { return openAction_; }
    QAction *compareAction() const { return compareAction_; }
    QAction *publishAction() const { return publishAction_; }
    QAction *stopAction() const { return stopAction_; }
    QAction *resumeAction() const { return resumeAction_; }
    QAction *moveAction() const { return moveAction_; }
    QAction *deleteAction() const { return deleteAction_; }

public Q_SLOTS:
    void refreshRun(qint64 runId);
    void reload();

Q_SIGNALS:
    void openRunRequested(qint64 runId);
    void compareRequested(const QList<qint64> &runIds);
    void publishRequested(qint64 runId);
    void stopRequested(const QList<qint64> &runIds);
    void resumeRequested(const QList<qint64> &runIds);
    /// "Move to another cluster…" for one run that has not finished.
    void moveRequested(qint64 runId);
    void deleteRequested(const QList<qint64> &runIds);

private:
    void updateButtons();

    RunsTableModel *model_ = nullptr;
    QSortFilterProxyModel *proxy_ = nullptr;
    QTableView *view_ = nullptr;
    QLineEdit *filter_ = nullptr;
    QPushButton *open_ = nullptr;
    QPushButton *compare_ = nullptr;
    QAction *openAction_ = nullptr;
    QAction *compareAction_ = nullptr;
    QAction *publishAction_ = nullptr;
    QAction *stopAction_ = nullptr;
    QAction *resumeAction_ = nullptr;
    QAction *moveAction_ = nullptr;
    QAction *deleteAction_ = nullptr;
};

} // namespace diamond::ui
