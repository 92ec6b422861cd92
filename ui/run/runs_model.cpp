#include "ui/run/runs_model.h"

#include "app/run/class_server.h"

#include "app/cluster/cluster_job_store.h"

#include <QDateTime>
#include <QLocale>

#include <cmath>

namespace diamond::ui {

RunsTableModel::RunsTableModel(app::Workspace &workspace, QObject *parent)
    : QAbstractTableModel(parent), ws_(workspace) {
    reload();
}

int RunsTableModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int RunsTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString RunsTableModel::stateText(app::RunState state) {
    switch (state) {
    case app::RunState::Draft: return tr("draft");
    case app::RunState::Queued: return tr("queued");
    case app::RunState::Running: return tr("running");
    case app::RunState::Finished: return tr("finished");
    case app::RunState::Failed: return tr("failed");
    case app::RunState::Cancelled: return tr("cancelled");
    case app::RunState::Preempted: return tr("preempted");
    case app::RunState::Resumed: return tr("resumed");
    }
    return {};
}

QPair<QString, double> RunsTableModel::bestMetric(const app::Run &run) {
    for (const char *name : {"val_accuracy", "val_r2", "val_loss"}) {
        const QJsonValue v = run.finalMetrics.value(QLatin1String(name));
        if (v.isDouble()) return {QLatin1String(name), v.toDouble()};
    }
    return {};
}

double RunsTableModel::durationSeconds(const app::Run &run) const {
    const QDateTime start = QDateTime::fromString(run.startedAt, Qt::ISODateWithMs);
    if (!start.isValid()) return -1;
    QDateTime end = QDateTime::fromString(run.finishedAt, Qt::ISODateWithMs);
    if (!end.isValid()) end = QDateTime::currentDateTimeUtc();
    return start.msecsTo(end) / 1000.0;
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= rows_.size()) return {};
    const Row &row = rows_[index.row()];
    const app::Run &run = row.run;
    if (role == RunIdRole) return run.id;
    if (role == StateRole) return int(run.state);
    if (role == Qt::ToolTipRole && !run.exitMessage.isEmpty()) return run.exitMessage;
    if (role == Qt::TextAlignmentRole && (index.column() == Duration || index.column() == BestMetric))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != SortRole) return {};
    switch (Column(index.column())) {
    case Name:
        return role == SortRole ? QVariant(run.id) : QVariant(QStringLiteral("%1  #%2").arg(run.name).arg(run.id));
    case Project: return row.project;
    case State: return stateText(run.state, row.jobPhase);
    case Target:
        if (run.target == QLatin1String("local")) return tr("this computer");
        if (app::isClassServerTarget(run.target))
            return app::classServerRemoteTarget(run.target) == QLatin1String("local")
                       ? tr("class server %1").arg(app::classServerName(run.target))
                       : tr("class server %1 › %2")
                             .arg(app::classServerName(run.target), app::classServerRemoteTarget(run.target));
        return run.target;
    case Duration: {
        const double s = durationSeconds(run);
        if (role == SortRole) return s;
        if (s < 0) return QString();
        const qint64 t = qint64(std::llround(s));
        return t >= 3600 ? tr("%1 h %2 min").arg(t / 3600).arg(t / 60 % 60)
               : t >= 60 ? tr("%1 min %2 s").arg(t / 60).arg(t % 60)
                         : tr("%1 s").arg(t);
    }
    case BestMetric: {
        const auto [name, value] = bestMetric(run);
        if (role == SortRole) return name.isEmpty() ? QVariant(-1e300) : QVariant(value);
        if (name.isEmpty()) return QString();
        return QStringLiteral("%1 %2").arg(name, QLocale().toString(value, 'g', 4));
    }
    case ColumnCount: break;
    }
    return {};
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Name: return tr("Run");
    case Project: return tr("Project");
    case State: return tr("State");
    case Target: return tr("Target");
    case Duration: return tr("Duration");
    case BestMetric: return tr("Best metric");
    case ColumnCount: break;
    }
    return {};
}

void RunsTableModel::reload() {
    app::RunStore store(ws_);
    projectNames_.clear();
    for (const app::Project &p : store.projects())
        projectNames_.insert(p.id, p.name);
    const QList<app::Run> runs = store.runs();
    // Same ids in the same order: update in place (keeps selections); otherwise reset.
    bool sameIds = runs.size() == rows_.size();
    for (int i = 0; sameIds && i < runs.size(); ++i)
        sameIds = runs[i].id == rows_[i].run.id;
    if (sameIds) {
        for (int i = 0; i < runs.size(); ++i)
            rows_[i] = rowFor(runs[i]);
        if (!rows_.isEmpty()) Q_EMIT dataChanged(index(0, 0), index(int(rows_.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    rows_.clear();
    rows_.reserve(runs.size());
    for (const app::Run &run : runs)
        rows_.append(rowFor(run));
    endResetModel();
}

void RunsTableModel::refreshRun(qint64 runId) {
    app::RunStore store(ws_);
    const auto run = store.run(runId);
    if (!run) return;
    if (!projectNames_.contains(run->projectId))
        for (const app::Project &p : store.projects())
            projectNames_.insert(p.id, p.name);
    const int row = rowOfRun(runId);
    if (row >= 0) {
        rows_[row] = rowFor(*run);
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    rows_.append(rowFor(*run));
    endInsertRows();
}

RunsTableModel::Row RunsTableModel::rowFor(const app::Run &run) {
    Row row{run, projectNames_.value(run.projectId), {}};
    if (run.target != QLatin1String("local") && run.state == app::RunState::Running)
        if (const auto job = app::ClusterJobStore(ws_).current(run.id)) row.jobPhase = job->phase;
    return row;
}

QString RunsTableModel::stateText(app::RunState state, const QString &jobPhase) {
    if (state == app::RunState::Running && jobPhase == QLatin1String("pending")) return tr("queued on the cluster");
    return stateText(state);
}

qint64 RunsTableModel::runId(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].run.id : 0; }

int RunsTableModel::rowOfRun(qint64 runId) const {
    for (int i = 0; i < rows_.size(); ++i)
        if (rows_[i].run.id == runId) return i;
    return -1;
}

} // namespace diamond::ui
