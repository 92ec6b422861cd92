// Sweeps and trials in the workspace database (tables sweeps and trials, schema_migrations.cpp).
//
// sweeps.config_json holds the sweep document with spec and config embedded (SweepDefinition::toJson);
// sweeps.state_json holds {"controller_pid", "controller_cmd", "note"}; trials.info_json holds
// {"bracket", "run_name", "losses": {rung: loss}, "values": {rung: metric value}, "restarts", "note"}.
// trials.objective_value is the metric value at the highest rung the trial reached.
//
// Sweep states: running, paused, stopping (asked to stop; the controller finishes it), stopped, completed,
// failed. Trial states: pending (row written, run not started yet), running, paused (rung reached, waiting
// for a promotion), completed (top rung reached), stopped, failed.
#pragma once

#include "app/sweep/sweep_definition.h"
#include "app/workspace/workspace.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app::sweep {

struct SweepRow {
    qint64 id = 0;
    qint64 projectId = 0;
    qint64 architectureVersionId = 0;
    QString name;
    QString strategy;
    QString objective;
    QString state;
    QJsonObject document; ///< config_json
    QJsonObject stateJson;
    QString createdAt, updatedAt;
};

struct TrialRow {
    qint64 id = 0;
    qint64 sweepId = 0;
    qint64 runId = 0; ///< 0 when no run yet
    int index = 0;
    QJsonObject params;
    QString state;
    std::optional<double> objective;
    int rung = 0;
    double budget = 0;
    QJsonObject info;
    QString createdAt, updatedAt;
};

class SweepStore {
public:
    explicit SweepStore(Workspace &workspace) : ws_(workspace) {}
    QString errorString() const { return error_; }

    std::optional<qint64> createSweep(qint64 projectId, qint64 architectureVersionId, const SweepDefinition &def);
    std::optional<SweepRow> sweep(qint64 id);
    QList<SweepRow> sweeps();
    /// Sets the state (and state_json when given).
    bool setSweepState(qint64 id, const QString &state, const std::optional<QJsonObject> &stateJson = {});
    /// Sets the state only when it is currently `from` (atomic); false when it was not.
    bool compareAndSetSweepState(qint64 id, const QString &from, const QString &to);

    /// Inserts a trial row; fails (nothing written) when the index exists for the sweep.
    std::optional<qint64> insertTrial(const TrialRow &trial);
    /// Updates run_id, state, objective_value, rung, budget, info_json of the row with trial.id.
    bool updateTrial(const TrialRow &trial);
    QList<TrialRow> trials(qint64 sweepId);
    std::optional<TrialRow> trialByRun(qint64 runId);

    /// Replaces a run's config: runs.config_json and <run-dir>/run.json.
    bool setRunConfig(qint64 runId, const QJsonObject &config);
    /// Id of the newest run named `name` in the project that no trial references, if any.
    std::optional<qint64> unlinkedRunNamed(qint64 projectId, const QString &name);

private:
    bool fail(const QString &message);
    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app::sweep
