#include "app/sweep/sweep_json.h"

#include "app/sweep/sweep_controller.h"

#include <QJsonArray>

namespace diamond::app::sweep {

QJsonObject trialJson(const TrialRow &t) {
    return {{QStringLiteral("index"), t.index},
            {QStringLiteral("run_id"), t.runId > 0 ? QJsonValue(t.runId) : QJsonValue()},
            {QStringLiteral("state"), t.state},
            {QStringLiteral("rung"), t.rung},
            {QStringLiteral("budget"), t.budget},
            {QStringLiteral("objective"), t.objective ? QJsonValue(*t.objective) : QJsonValue()},
            {QStringLiteral("params"), t.params},
            {QStringLiteral("bracket"), t.info.value(QStringLiteral("bracket"))},
            {QStringLiteral("values"), t.info.value(QStringLiteral("values"))},
            {QStringLiteral("note"), t.info.value(QStringLiteral("note"))},
            {QStringLiteral("cluster"), t.info.value(QStringLiteral("target"))},
            {QStringLiteral("placements"), t.info.value(QStringLiteral("placements"))},
            {QStringLiteral("left_behind"), t.info.value(QStringLiteral("left_behind"))}};
}

QJsonObject sweepSummaryJson(const SweepRow &s, int trialCount) {
    return {{QStringLiteral("id"), s.id},
            {QStringLiteral("project_id"), s.projectId},
            {QStringLiteral("name"), s.name},
            {QStringLiteral("target"),
             s.document.contains(QStringLiteral("targets"))
                 ? QJsonValue(s.document.value(QStringLiteral("targets")).toVariant().toStringList().join(u','))
                 : QJsonValue(s.document.value(QStringLiteral("target")).toString(QStringLiteral("local")))},
            {QStringLiteral("algorithm"), s.strategy},
            {QStringLiteral("objective"), s.objective},
            {QStringLiteral("state"), s.state},
            {QStringLiteral("controller_pid"), SweepController::livePid(s)},
            {QStringLiteral("created_at"), s.createdAt},
            {QStringLiteral("updated_at"), s.updatedAt},
            {QStringLiteral("trials"), trialCount}};
}

QJsonObject sweepJson(const SweepRow &s, const QList<TrialRow> &trials) {
    QJsonArray array;
    double used = 0;
    for (const TrialRow &t : trials) {
        array.append(trialJson(t));
        used += t.budget;
    }
    const QJsonObject limits = s.document.value(QStringLiteral("limits")).toObject();
    QJsonObject o = sweepSummaryJson(s, int(trials.size()));
    o.insert(QStringLiteral("note"), s.stateJson.value(QStringLiteral("note")));
    o.insert(QStringLiteral("max_trials"), limits.value(QStringLiteral("max_trials")));
    o.insert(QStringLiteral("budget_unit"), limits.value(QStringLiteral("budget_unit")));
    o.insert(QStringLiteral("used_budget"), used);
    o.insert(QStringLiteral("definition"), s.document);
    o.insert(QStringLiteral("trials"), array);
    return o;
}

} // namespace diamond::app::sweep
