// RunsPanel: the runs dock. A filterable, sortable table of every run (RunsTableModel behind a
// QSortFilterProxyModel); double-click opens a run's monitor, "Compare" overlays the selected runs.
#pragma once

#include <QWidget>

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

public Q_SLOTS:
    void refreshRun(qint64 runId);
    void reload();

Q_SIGNALS:
    void openRunRequested(qint64 runId);
    void compareRequested(const QList<qint64> &runIds);

private:
    void updateButtons();

    RunsTableModel *model_ = nullptr;
    QSortFilterProxyModel *proxy_ = nullptr;
    QTableView *view_ = nullptr;
    QLineEdit *filter_ = nullptr;
    QPushButton *open_ = nullptr;
    QPushButton *compare_ = nullptr;
};

} // namespace diamond::ui
