#include "ui/sweep/sweep_trials_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace diamond::ui::sweep {

namespace {
enum FixedColumn { TrialCol, StateCol, RungCol, BudgetCol };

bool sameRow(const app::sweep::TrialRow &a, const app::sweep::TrialRow &b) {
    return a.runId == b.runId && a.state == b.state && a.objective == b.objective && a.rung == b.rung &&
           a.budget == b.budget && a.params == b.params;
}
} // namespace

SweepTrialsModel::SweepTrialsModel(QObject *parent) : QAbstractTableModel(parent) {}

void SweepTrialsModel::setSpace(const app::sweep::SearchSpace &space) {
    beginResetModel();
    params_ = space.parameters();
    rows_.clear();
    byIndex_.clear();
    best_ = -1;
    endResetModel();
}

void SweepTrialsModel::upsert(const QList<app::sweep::TrialRow> &trials) {
    QList<app::sweep::TrialRow> added;
    for (const app::sweep::TrialRow &t : trials) {
        const int row = byIndex_.value(t.index, -1);
        if (row < 0) {
            added.append(t);
        } else if (!sameRow(rows_.at(row), t)) {
            rows_[row] = t;
            Q_EMIT dataChanged(index(row, 0), index(row, columnCount() - 1));
        }
    }
    if (added.isEmpty()) return;
    const int first = int(rows_.size());
    beginInsertRows({}, first, first + int(added.size()) - 1);
    for (const app::sweep::TrialRow &t : added) {
        byIndex_.insert(t.index, int(rows_.size()));
        rows_.append(t);
    }
    endInsertRows();
}

void SweepTrialsModel::setBestTrial(int trialIndex) {
    if (trialIndex == best_) return;
    const int old = rowOfTrial(best_);
    best_ = trialIndex;
    for (int row : {old, rowOfTrial(best_)})
        if (row >= 0) Q_EMIT dataChanged(index(row, 0), index(row, columnCount() - 1));
}

int SweepTrialsModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

int SweepTrialsModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : clusterColumn() + 1;
}

QString SweepTrialsModel::valueText(const QJsonValue &value) {
    if (value.isDouble()) {
        const double d = value.toDouble();
        return d == std::floor(d) && std::abs(d) < 1e9 ? QString::number(qint64(d)) : QString::number(d, 'g', 4);
    }
    if (value.isString()) return value.toString();
    if (value.isBool()) return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isNull() || value.isUndefined()) return {};
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

QString SweepTrialsModel::stateText(const QString &state) {
    if (state == QLatin1String("pending")) return tr("pending");
    if (state == QLatin1String("running")) return tr("running");
    if (state == QLatin1String("paused")) return tr("paused");
    if (state == QLatin1String("completed")) return tr("completed");
    if (state == QLatin1String("stopped")) return tr("stopped");
    if (state == QLatin1String("failed")) return tr("failed");
    if (state == QLatin1String("stopping")) return tr("stopping");
    return state;
}

QVariant SweepTrialsModel::data(const QModelIndex &idx, int role) const {
    if (!idx.isValid() || idx.row() >= rows_.size()) return {};
    const app::sweep::TrialRow &t = rows_.at(idx.row());
    const int col = idx.column();
    const int param = col - 4;
    if (role == TrialIndexRole) return t.index;
    if (role == RunIdRole) return t.runId;
    if (role == Qt::FontRole && t.index == best_) {
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && col == StateCol) {
        if (t.state == QLatin1String("failed")) return QBrush(QColor(0xc6, 0x28, 0x28));
        if (t.state == QLatin1String("running")) return QBrush(QColor(0x15, 0x65, 0xc0));
        if (t.state == QLatin1String("stopped")) return QBrush(QColor(0x75, 0x75, 0x75));
        if (t.state == QLatin1String("completed")) return QBrush(QColor(0x2e, 0x7d, 0x32));
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return col == StateCol ? QVariant(int(Qt::AlignLeft | Qt::AlignVCenter))
                               : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && col == StateCol) return t.info.value(QStringLiteral("note")).toString();
    if (role != Qt::DisplayRole && role != SortRole) return {};
    const bool sort = role == SortRole;
    switch (col) {
    case TrialCol: return t.index;
    case StateCol: return stateText(t.state);
    case RungCol: return t.rung;
    case BudgetCol: return sort ? QVariant(t.budget) : QVariant(valueText(t.budget));
    default: break;
    }
    if (param >= 0 && param < params_.size()) {
        const QJsonValue v = t.params.value(params_.at(param).name);
        return sort && v.isDouble() ? QVariant(v.toDouble()) : QVariant(valueText(v));
    }
    if (col == objectiveColumn()) {
        if (!t.objective) return sort ? QVariant(qQNaN()) : QVariant();
        return sort ? QVariant(*t.objective) : QVariant(QString::number(*t.objective, 'f', 4));
    }
    if (col == runColumn()) return t.runId > 0 ? QVariant(t.runId) : QVariant();
    if (col == clusterColumn()) {
        const QString target = t.info.value(QStringLiteral("target")).toString();
        QString from;
        for (const QJsonValue &p : t.info.value(QStringLiteral("placements")).toArray())
            if (const QString f = p.toObject().value(QStringLiteral("from")).toString(); !f.isEmpty()) from = f;
        return from.isEmpty() ? target : tr("%1, moved from %2").arg(target, from);
    }
    return {};
}

QVariant SweepTrialsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case TrialCol: return tr("Trial");
    case StateCol: return tr("State");
    case RungCol: return tr("Rung");
    case BudgetCol: return tr("Budget");
    default: break;
    }
    if (section - 4 >= 0 && section - 4 < params_.size()) return params_.at(section - 4).name;
    if (section == objectiveColumn()) return tr("Objective");
    if (section == runColumn()) return tr("Run");
    if (section == clusterColumn()) return tr("Cluster");
    return {};
}

} // namespace diamond::ui::sweep
