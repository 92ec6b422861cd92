#include "app/run/leaderboard.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>

#include <algorithm>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::Leaderboard", text); }

} // namespace

bool metricHigherIsBetter(const QString &metric) {
    for (const char *suffix : {"loss", "mse", "mae", "rmse", "error"})
        if (metric.endsWith(QLatin1String(suffix))) return false;
    return true;
}

std::optional<Leaderboard> projectLeaderboard(RunStore &store, qint64 projectId, const QString &metric,
                                              QString *error) {
    Leaderboard board;
    board.projectId = projectId;
    for (const Project &p : store.projects())
        if (p.id == projectId) board.project = p.name;
    if (board.project.isEmpty()) {
        *error = tr("There is no project %1.").arg(projectId);
        return std::nullopt;
    }
    QList<Run> finished;
    for (const Run &r : store.runs(projectId))
        if (r.state == RunState::Finished) finished.append(r);
    board.metric = metric;
    if (board.metric.isEmpty()) {
        for (const char *name : {"val_accuracy", "val_r2", "val_loss"}) {
            if (std::any_of(finished.begin(), finished.end(),
                            [&](const Run &r) { return r.finalMetrics.value(QLatin1String(name)).isDouble(); })) {
                board.metric = QLatin1String(name);
                break;
            }
        }
        if (board.metric.isEmpty()) return board;
    }
    board.higherIsBetter = metricHigherIsBetter(board.metric);
    auto better = [&](double a, double b) { return board.higherIsBetter ? a > b : a < b; };

    QHash<QString, LeaderboardEntry> best;
    for (const Run &r : std::as_const(finished)) {
        const QJsonValue v = r.finalMetrics.value(board.metric);
        if (!v.isDouble()) continue;
        const QString user = r.owner.isEmpty() ? QStringLiteral("owner") : r.owner;
        LeaderboardEntry &e = best[user];
        ++e.finishedRuns;
        if (e.runId == 0 || better(v.toDouble(), e.value) || (v.toDouble() == e.value && r.finishedAt < e.finishedAt)) {
            e.user = user;
            e.runId = r.id;
            e.runName = r.name;
            e.value = v.toDouble();
            e.finishedAt = r.finishedAt;
        }
    }
    board.entries = best.values();
    std::sort(board.entries.begin(), board.entries.end(), [&](const LeaderboardEntry &a, const LeaderboardEntry &b) {
        if (a.value != b.value) return better(a.value, b.value);
        return a.finishedAt != b.finishedAt ? a.finishedAt < b.finishedAt : a.user < b.user;
    });
    for (int i = 0; i < board.entries.size(); ++i)
        board.entries[i].rank =
            i > 0 && board.entries[i].value == board.entries[i - 1].value ? board.entries[i - 1].rank : i + 1;
    return board;
}

QJsonObject leaderboardJson(const Leaderboard &board) {
    QJsonArray entries;
    for (const LeaderboardEntry &e : board.entries)
        entries.append(QJsonObject{{QStringLiteral("rank"), e.rank},
                                   {QStringLiteral("user"), e.user},
                                   {QStringLiteral("run_id"), e.runId},
                                   {QStringLiteral("run_name"), e.runName},
                                   {QStringLiteral("value"), e.value},
                                   {QStringLiteral("finished_runs"), e.finishedRuns},
                                   {QStringLiteral("finished_at"), e.finishedAt}});
    return {
        {QStringLiteral("project_id"), board.projectId},
        {QStringLiteral("project"), board.project},
        {QStringLiteral("metric"), board.metric.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(board.metric)},
        {QStringLiteral("higher_is_better"), board.higherIsBetter},
        {QStringLiteral("entries"), entries}};
}

} // namespace diamond::app
