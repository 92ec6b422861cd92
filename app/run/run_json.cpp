#include "app/run/run_json.h"

#include <QJsonArray>

namespace diamond::app {

QString metricSplitName(MetricSplit split) {
    return split == MetricSplit::Validation ? QStringLiteral("val") : QStringLiteral("train");
}

QJsonObject projectJson(const Project &p) {
    return {{QStringLiteral("id"), p.id},
            {QStringLiteral("name"), p.name},
            {QStringLiteral("description"), p.description},
            {QStringLiteral("runs"), p.runCount},
            {QStringLiteral("created_at"), p.createdAt}};
}

QJsonObject metricPointJson(const MetricPoint &p) {
    return {{QStringLiteral("step"), p.step},
            {QStringLiteral("name"), p.name},
            {QStringLiteral("split"), metricSplitName(p.split)},
            {QStringLiteral("value"), p.value},
            {QStringLiteral("wall"), p.wall}};
}

QJsonObject runTransitionJson(const RunTransition &t) {
    return {{QStringLiteral("from"), t.from ? QJsonValue(runStateName(*t.from)) : QJsonValue()},
            {QStringLiteral("to"), runStateName(t.to)},
            {QStringLiteral("at"), t.at},
            {QStringLiteral("note"), t.note}};
}

QJsonObject clusterJobJson(const ClusterJob &j) {
    return {{QStringLiteral("cluster"), j.cluster},
            {QStringLiteral("job_id"), j.jobId},
            {QStringLiteral("phase"), j.phase},
            {QStringLiteral("reason"), j.reason},
            {QStringLiteral("continuation"), j.continuation},
            {QStringLiteral("submitted_at"), j.submittedAt},
            {QStringLiteral("updated_at"), j.updatedAt}};
}

QJsonObject runJson(Workspace &ws, const Run &r) {
    RunStore store(ws);
    QString project;
    for (const Project &p : store.projects())
        if (p.id == r.projectId) project = p.name;
    QJsonObject o{{QStringLiteral("id"), r.id},
                  {QStringLiteral("project_id"), r.projectId},
                  {QStringLiteral("project"), project},
                  {QStringLiteral("name"), r.name},
                  {QStringLiteral("state"), runStateName(r.state)},
                  {QStringLiteral("target"), r.target},
                  {QStringLiteral("config"), r.config},
                  {QStringLiteral("execution"), r.execution},
                  {QStringLiteral("created_at"), r.createdAt},
                  {QStringLiteral("started_at"), r.startedAt},
                  {QStringLiteral("finished_at"), r.finishedAt},
                  {QStringLiteral("exit_code"), r.exitCode ? QJsonValue(*r.exitCode) : QJsonValue()},
                  {QStringLiteral("exit_message"), r.exitMessage},
                  {QStringLiteral("final_metrics"), r.finalMetrics},
                  {QStringLiteral("weights_sha256"), r.weightsHash},
                  {QStringLiteral("dataset"), r.datasetRef.isEmpty() ? QJsonValue() : QJsonValue(r.datasetRef)},
                  {QStringLiteral("owner"), r.owner}};
    if (r.architectureVersionId > 0) o.insert(QStringLiteral("architecture_version_id"), r.architectureVersionId);
    if (const auto job = ClusterJobStore(ws).current(r.id)) o.insert(QStringLiteral("job"), clusterJobJson(*job));
    return o;
}

QJsonObject runDetailJson(Workspace &ws, const Run &r) {
    RunStore store(ws);
    QJsonObject o = runJson(ws, r);
    QJsonArray transitions, messages, jobs;
    for (const RunTransition &t : store.transitions(r.id))
        transitions.append(runTransitionJson(t));
    for (const RunMessage &m : store.messages(r.id))
        messages.append(QJsonObject{{QStringLiteral("at"), m.at}, {QStringLiteral("text"), m.text}});
    for (const ClusterJob &j : ClusterJobStore(ws).jobs(r.id))
        jobs.append(clusterJobJson(j));
    o.insert(QStringLiteral("transitions"), transitions);
    o.insert(QStringLiteral("messages"), messages);
    o.insert(QStringLiteral("jobs"), jobs);
    o.insert(QStringLiteral("metric_points"), store.metricPointCount(r.id));
    o.insert(QStringLiteral("run_dir"), ws.runDirectory(r.id));
    return o;
}

} // namespace diamond::app
