// The class leaderboard of a project (a lesson or an assignment): each user's best finished run by one final
// metric, ranked.
//
// Contract: only finished runs of the project with a numeric final value of the metric count. The metric defaults
// to the first of val_accuracy, val_r2, val_loss that some such run has. Names ending in loss, mse, mae, rmse or
// error rank lower values first; every other metric ranks higher values first. One entry per user (runs.owner; the
// workspace owner's runs as "owner"): the best run, earlier finish winning a tie; equal values share a rank.
#pragma once

#include "app/run/run_store.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

struct LeaderboardEntry {
    int rank = 0;
    QString user;
    qint64 runId = 0;
    QString runName;
    double value = 0;
    int finishedRuns = 0; ///< the user's finished runs of the project with the metric
    QString finishedAt;   ///< of the best run
};

struct Leaderboard {
    qint64 projectId = 0;
    QString project;
    QString metric; ///< empty when no finished run has any of the default metrics
    bool higherIsBetter = true;
    QList<LeaderboardEntry> entries;
};

/// True unless the metric's name says it is an error (loss, mse, mae, rmse, error at the end).
bool metricHigherIsBetter(const QString &metric);

/// The leaderboard of project `projectId`; nullopt with *error for an unknown project.
std::optional<Leaderboard> projectLeaderboard(RunStore &store, qint64 projectId, const QString &metric, QString *error);

/// {project_id, project, metric, higher_is_better, entries: [{rank, user, run_id, run_name, value, finished_runs,
/// finished_at}]}
QJsonObject leaderboardJson(const Leaderboard &board);

} // namespace diamond::app
