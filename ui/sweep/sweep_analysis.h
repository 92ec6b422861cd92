// Pure computations of the sweep view (docs/sweeps.md, "Parameter importance"): per-parameter importance of
// finished trials and the best trial of a sweep from its stored rows.
#pragma once

#include "app/sweep/search_space.h"
#include "app/sweep/sweep_store.h"

#include <QList>
#include <QString>

#include <optional>

namespace diamond::ui::sweep {

struct ParameterImportance {
    QString name;
    double importance = 0; ///< correlation ratio eta^2 in [0, 1]
    int bins = 0;          ///< number of groups the trials were split into
};

/// Importance of each parameter for the objective: the correlation ratio eta^2 = (sum over bins of
/// n_b (mean_b - mean)^2) / (sum over trials of (y - mean)^2), the share of the objective's variance explained
/// by the parameter's binned marginal means ("fANOVA-lite"). Numeric parameters are split into
/// B = clamp(n / 8, 2, 5) equal-count bins by their value in model space (log for log-scale parameters);
/// choices are grouped by value. `values[i]` holds the trial's parameter values (by name) and `objectives[i]`
/// its objective. Fewer than 4 trials, or a constant objective, give importance 0 for every parameter.
QList<ParameterImportance> parameterImportance(const app::sweep::SearchSpace &space, const QList<QJsonObject> &values,
                                               const QList<double> &objectives);

/// The highest rung the trial has a result for (info_json "values"), -1 when none.
int reachedRung(const app::sweep::TrialRow &trial);

/// The best trial as the algorithms define it: among trials with an objective, those at the highest rung any
/// trial reached, the one with the lowest (highest when `maximize`) objective. Returns its position in `trials`.
std::optional<int> bestTrialRow(const QList<app::sweep::TrialRow> &trials, bool maximize);

} // namespace diamond::ui::sweep
