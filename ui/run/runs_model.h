// RunsTableModel: every run of the workspace as a table row (name, project, state, target, duration, best
// metric). Rows are reloaded from the RunStore on demand and single rows on state changes; the model never
// holds a database handle of its own beyond the Workspace it is given.
#pragma once

#include "app/run/run_store.h"

#include <QAbstractTableModel>
#include <QHash>

namespace diamond::ui {

class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Project, State, Target, Duration, BestMetric, ColumnCount };
    enum Role { RunIdRole = Qt::UserRole + 1, SortRole, StateRole /* int(app::RunState) */ };

    /// `workspace` must stay open while the model lives.
    explicit RunsTableModel(app::Workspace &workspace, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// Re-reads all runs (keeps rows of unchanged runs stable).
    void reload();
    /// Re-reads one run (new runs are appended).
    void refreshRun(qint64 runId);
    qint64 runId(int row) const;
    int rowOfRun(qint64 runId) const;

    /// The run's headline metric from its final metrics: val_accuracy, else val_r2, else val_loss; "" if none.
    static QPair<QString, double> bestMetric(const app::Run &run);
    static QString stateText(app::RunState state);
    /// stateText(), except that a cluster run whose job waits in the scheduler's queue reads "queued on the cluster".
    static QString stateText(app::RunState state, const QString &jobPhase);

private:
    struct Row {
        app::Run run;
        QString project;
        QString jobPhase; ///< the newest cluster job's phase ("pending", "running", ...); empty for local runs
    };
    Row rowFor(const app::Run &run);
    double durationSeconds(const app::Run &run) const;

    app::Workspace &ws_;
    QList<Row> rows_;
    QHash<qint64, QString> projectNames_;
};

} // namespace diamond::ui
