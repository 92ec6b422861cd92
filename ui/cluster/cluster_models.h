// Item models of the cluster manager: the workspace's cluster profiles (a list), the partitions of the profile
// being edited (an editable table) and the connected user's jobs on a cluster (the queue view).
#pragma once

#include "app/cluster/cluster_types.h"

#include <QAbstractListModel>
#include <QAbstractTableModel>
#include <QList>

namespace diamond::ui {

/// One row per profile: DisplayRole "name\nuser@host:port", EditRole the name, ToolTipRole "user@host:port
/// (scheduler)", HostRole the host.
class ClusterProfilesModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { HostRole = Qt::UserRole + 1, SchedulerRole };
    using QAbstractListModel::QAbstractListModel;

    void setProfiles(const QList<app::ClusterProfile> &profiles);
    const QList<app::ClusterProfile> &profiles() const { return m_profiles; }
    const app::ClusterProfile &profileAt(int row) const { return m_profiles.at(row); }
    /// Row of the profile named `name`; -1 when none.
    int rowOf(const QString &name) const;
    QStringList names() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QList<app::ClusterProfile> m_profiles;
};

/// Partitions of one profile; every cell is editable (numbers through spin boxes, "Default" as a check box).
class PartitionsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, GpuType, GpusPerNode, CpusPerNode, MemoryMb, MaxWalltime, Nodes, Default, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setPartitions(const QList<app::PartitionInfo> &partitions);
    const QList<app::PartitionInfo> &partitions() const { return m_partitions; }
    /// Appends an empty partition (named partitionN) and returns its row.
    int appendPartition();
    void removePartition(int row);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void edited();

private:
    QList<app::PartitionInfo> m_partitions;
};

/// The queue view's rows: job id, state, elapsed time, time limit, nodes, reason.
class JobQueueModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { JobId, State, Elapsed, TimeLimit, Nodes, Reason, ColumnCount };
    enum Role { PhaseRole = Qt::UserRole + 1 };
    using QAbstractTableModel::QAbstractTableModel;

    /// Replaces the rows, keeping rows of unchanged job ids in place (selection survives a refresh).
    void setJobs(const QList<app::JobStatus> &jobs);
    const QList<app::JobStatus> &jobs() const { return m_jobs; }
    /// Row of job `jobId`; -1 when it is not listed.
    int rowOf(const QString &jobId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "1:02:03", "12:05"; "–" for unknown (negative).
    static QString formatSeconds(qint64 seconds);

private:
    QList<app::JobStatus> m_jobs;
};

} // namespace diamond::ui
