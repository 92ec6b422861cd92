#include "ui/cluster/cluster_models.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QSet>
#include <QStyle>

namespace diamond::ui {

// ---- ClusterProfilesModel ----

void ClusterProfilesModel::setProfiles(const QList<app::ClusterProfile> &profiles) {
    beginResetModel();
    m_profiles = profiles;
    endResetModel();
}

int ClusterProfilesModel::rowOf(const QString &name) const {
    for (int i = 0; i < m_profiles.size(); ++i)
        if (m_profiles[i].name == name) return i;
    return -1;
}

QStringList ClusterProfilesModel::names() const {
    QStringList names;
    for (const auto &p : m_profiles)
        names << p.name;
    return names;
}

int ClusterProfilesModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_profiles.size());
}

QVariant ClusterProfilesModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const app::ClusterProfile &p = m_profiles.at(index.row());
    const QString address =
        QStringLiteral("%1%2:%3").arg(p.user.isEmpty() ? QString() : p.user + QLatin1Char('@'), p.host).arg(p.port);
    switch (role) {
    case Qt::DisplayRole: return QStringLiteral("%1\n%2").arg(p.name, address);
    case Qt::EditRole: return p.name;
    case Qt::DecorationRole: return QApplication::style()->standardIcon(QStyle::SP_DriveNetIcon);
    case Qt::ToolTipRole: return tr("%1 (%2)").arg(address, app::schedulerKindName(p.scheduler));
    case HostRole: return p.host;
    case SchedulerRole: return app::schedulerKindName(p.scheduler);
    default: return {};
    }
}

// ---- PartitionsModel ----

void PartitionsModel::setPartitions(const QList<app::PartitionInfo> &partitions) {
    beginResetModel();
    m_partitions = partitions;
    endResetModel();
}

int PartitionsModel::appendPartition() {
    QSet<QString> names;
    for (const auto &p : std::as_const(m_partitions))
        names.insert(p.name);
    app::PartitionInfo p;
    int n = int(m_partitions.size()) + 1;
    do
        p.name = QStringLiteral("partition%1").arg(n++);
    while (names.contains(p.name));
    const int row = int(m_partitions.size());
    beginInsertRows({}, row, row);
    m_partitions.append(p);
    endInsertRows();
    Q_EMIT edited();
    return row;
}

void PartitionsModel::removePartition(int row) {
    if (row < 0 || row >= m_partitions.size()) return;
    beginRemoveRows({}, row, row);
    m_partitions.removeAt(row);
    endRemoveRows();
    Q_EMIT edited();
}

int PartitionsModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_partitions.size());
}

int PartitionsModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PartitionsModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const app::PartitionInfo &p = m_partitions.at(index.row());
    if (index.column() == Default) {
        if (role == Qt::CheckStateRole) return p.isDefault ? Qt::Checked : Qt::Unchecked;
        return {};
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != GpuType)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    const bool edit = role == Qt::EditRole;
    // 0 means "unknown"/"unlimited" in PartitionInfo: shown as a dash, edited as 0.
    auto number = [edit](qint64 v) -> QVariant {
        return edit ? QVariant(v) : (v ? QVariant(v) : QVariant(QStringLiteral("–")));
    };
    switch (index.column()) {
    case Name: return p.name;
    case GpuType: return edit ? p.gpuType : (p.gpuType.isEmpty() ? QStringLiteral("–") : p.gpuType);
    case GpusPerNode: return edit ? QVariant(p.gpusPerNode) : QVariant(p.gpusPerNode);
    case CpusPerNode: return number(p.cpusPerNode);
    case MemoryMb: return number(p.memoryMb);
    case MaxWalltime:
        if (edit) return p.maxWalltimeMinutes;
        return p.maxWalltimeMinutes ? JobQueueModel::formatSeconds(qint64(p.maxWalltimeMinutes) * 60) : tr("unlimited");
    case Nodes: return number(p.nodes);
    default: return {};
    }
}

bool PartitionsModel::setData(const QModelIndex &index, const QVariant &value, int role) {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return false;
    app::PartitionInfo &p = m_partitions[index.row()];
    if (index.column() == Default) {
        if (role != Qt::CheckStateRole) return false;
        const bool on = value.toInt() == Qt::Checked;
        if (on) // at most one default partition
            for (int r = 0; r < m_partitions.size(); ++r)
                if (r != index.row() && m_partitions[r].isDefault) {
                    m_partitions[r].isDefault = false;
                    Q_EMIT dataChanged(this->index(r, Default), this->index(r, Default), {Qt::CheckStateRole});
                }
        p.isDefault = on;
        Q_EMIT dataChanged(index, index, {Qt::CheckStateRole});
        Q_EMIT edited();
        return true;
    }
    if (role != Qt::EditRole) return false;
    bool ok = true;
    switch (index.column()) {
    case Name: p.name = value.toString().trimmed(); break;
    case GpuType: p.gpuType = value.toString().trimmed(); break;
    case GpusPerNode: p.gpusPerNode = value.toInt(&ok); break;
    case CpusPerNode: p.cpusPerNode = value.toInt(&ok); break;
    case MemoryMb: p.memoryMb = value.toLongLong(&ok); break;
    case MaxWalltime: p.maxWalltimeMinutes = value.toInt(&ok); break;
    case Nodes: p.nodes = value.toInt(&ok); break;
    default: return false;
    }
    if (!ok) return false;
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    Q_EMIT edited();
    return true;
}

Qt::ItemFlags PartitionsModel::flags(const QModelIndex &index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    return index.column() == Default ? f | Qt::ItemIsUserCheckable : f | Qt::ItemIsEditable;
}

QVariant PartitionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case GpusPerNode: return tr("GPUs per node");
        case CpusPerNode: return tr("CPU cores per node");
        case MemoryMb: return tr("Memory per node in MB");
        case MaxWalltime: return tr("Longest run time a job may ask for, in minutes (0: unlimited)");
        case Default: return tr("Jobs go to the default partition unless the run names another");
        default: return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name: return tr("Partition");
    case GpuType: return tr("GPU type");
    case GpusPerNode: return tr("GPUs");
    case CpusPerNode: return tr("CPUs");
    case MemoryMb: return tr("Memory (MB)");
    case MaxWalltime: return tr("Max time");
    case Nodes: return tr("Nodes");
    case Default: return tr("Default");
    default: return {};
    }
}

// ---- JobQueueModel ----

void JobQueueModel::setJobs(const QList<app::JobStatus> &jobs) {
    QSet<QString> incoming;
    for (const auto &j : jobs)
        incoming.insert(j.jobId);
    for (int r = int(m_jobs.size()) - 1; r >= 0; --r)
        if (!incoming.contains(m_jobs[r].jobId)) {
            beginRemoveRows({}, r, r);
            m_jobs.removeAt(r);
            endRemoveRows();
        }
    QList<app::JobStatus> added;
    for (const auto &j : jobs) {
        const int r = rowOf(j.jobId);
        if (r < 0) {
            added << j;
            continue;
        }
        m_jobs[r] = j;
        Q_EMIT dataChanged(index(r, 0), index(r, ColumnCount - 1));
    }
    if (!added.isEmpty()) {
        beginInsertRows({}, int(m_jobs.size()), int(m_jobs.size() + added.size()) - 1);
        m_jobs << added;
        endInsertRows();
    }
}

int JobQueueModel::rowOf(const QString &jobId) const {
    for (int i = 0; i < m_jobs.size(); ++i)
        if (m_jobs[i].jobId == jobId) return i;
    return -1;
}

int JobQueueModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_jobs.size()); }

int JobQueueModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString JobQueueModel::formatSeconds(qint64 s) {
    if (s < 0) return QStringLiteral("–");
    const qint64 d = s / 86400, h = (s / 3600) % 24, m = (s / 60) % 60, sec = s % 60;
    QString text =
        h || d ? QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QLatin1Char('0')).arg(sec, 2, 10, QLatin1Char('0'))
               : QStringLiteral("%1:%2").arg(m).arg(sec, 2, 10, QLatin1Char('0'));
    return d ? QStringLiteral("%1-%2").arg(d).arg(text) : text;
}

QVariant JobQueueModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const app::JobStatus &j = m_jobs.at(index.row());
    if (role == PhaseRole) return app::jobPhaseName(j.phase);
    if (role == Qt::ForegroundRole && index.column() == State) {
        switch (j.phase) {
        case app::JobPhase::Running: return QBrush(QColor(0x1b, 0x7f, 0x3b));
        case app::JobPhase::Pending: return QBrush(QColor(0x9a, 0x67, 0x00));
        case app::JobPhase::Failed:
        case app::JobPhase::NodeFailed:
        case app::JobPhase::TimedOut: return QBrush(QColor(0xb3, 0x26, 0x1e));
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && (index.column() == Elapsed || index.column() == TimeLimit))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    switch (index.column()) {
    case JobId: return j.jobId;
    case State: return j.state.isEmpty() ? app::jobPhaseName(j.phase) : j.state;
    case Reason: return j.reason == QLatin1String("None") ? QString() : j.reason;
    case Elapsed: return formatSeconds(j.runSeconds);
    case TimeLimit: return formatSeconds(j.timeLimitSeconds);
    case Nodes: return j.nodes;
    default: return {};
    }
}

QVariant JobQueueModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case JobId: return tr("Job");
    case State: return tr("State");
    case Reason: return tr("Reason");
    case Elapsed: return tr("Elapsed");
    case TimeLimit: return tr("Time limit");
    case Nodes: return tr("Nodes");
    default: return {};
    }
}

} // namespace diamond::ui
