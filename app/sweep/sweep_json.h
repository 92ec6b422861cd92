// The JSON views of sweeps and trials, shared by diamondctl's --json output and the REST API.
#pragma once

#include "app/sweep/sweep_store.h"

#include <QJsonObject>

namespace diamond::app::sweep {

/// index, run_id, state, rung, budget, objective, params, bracket, values, note
QJsonObject trialJson(const TrialRow &trial);
/// A sweep in a list: id, project_id, name, target, algorithm, objective, state, controller_pid, created_at,
/// updated_at, trials (the count).
QJsonObject sweepSummaryJson(const SweepRow &sweep, int trialCount);
/// The summary plus note, max_trials, budget_unit, used_budget, the definition and every trial (trialJson()).
QJsonObject sweepJson(const SweepRow &sweep, const QList<TrialRow> &trials);

} // namespace diamond::app::sweep
