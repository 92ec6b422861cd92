// SweepTrialsModel: the trials of one sweep as table rows (trial, state, rung, budget, one column per
// parameter, objective, run, cluster). upsert() applies a fresh read of the trial rows incrementally: changed rows
// emit dataChanged, new trials are inserted, nothing is reset, so views keep their selection and sorting.
#pragma once

#include "app/sweep/search_space.h"
#include "app/sweep/sweep_store.h"

#include <QAbstractTableModel>
#include <QHash>

namespace diamond::ui::sweep {

class SweepTrialsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { TrialIndexRole = Qt::UserRole + 1, RunIdRole, SortRole };

    explicit SweepTrialsModel(QObject *parent = nullptr);

    /// Sets the parameter columns (resets the model).
    void setSpace(const app::sweep::SearchSpace &space);
    /// Applies the current trial rows: updates changed rows, appends new ones.
    void upsert(const QList<app::sweep::TrialRow> &trials);
    /// Marks the best trial (bold); -1 for none.
    void setBestTrial(int trialIndex);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const app::sweep::TrialRow &trial(int row) const { return rows_.at(row); }
    int rowOfTrial(int trialIndex) const { return byIndex_.value(trialIndex, -1); }
    int objectiveColumn() const { return 4 + int(params_.size()); }
    int runColumn() const { return objectiveColumn() + 1; }
    /// The cluster a trial of a multi-cluster sweep is on ("alpha, moved from beta" after a move); empty otherwise.
    int clusterColumn() const { return runColumn() + 1; }

    /// Text of a parameter value: numbers with 4 significant digits, other JSON compactly.
    static QString valueText(const QJsonValue &value);
    /// Translated trial state.
    static QString stateText(const QString &state);

private:
    QList<app::sweep::SearchParameter> params_;
    QList<app::sweep::TrialRow> rows_;
    QHash<int, int> byIndex_; ///< trial index -> row
    int best_ = -1;
};

} // namespace diamond::ui::sweep
