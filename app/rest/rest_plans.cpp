// POST /api/v1/plans: the planner's recommendation for a run (docs/planning.md, docs/rest-api.md), the JSON of
// `diamondctl run plan --json`. The engine's dry run (and, the first time, this computer's calibration) run on a
// worker thread with its own connection to the workspace; data paths are confined as for POST /api/v1/runs. With
// "measure_width": true the width probes (width_probe.h) train a few seconds per width on that thread too. For a
// cluster target the scheduler is asked for each partition's queue wait ("queue_wait": false skips it), as `run plan`
// does.
#include "rest_server.h"

#include "app/cluster/cluster_link.h"
#include "app/cluster/cluster_store.h"
#include "app/plan/run_planner.h"
#include "app/rest/client_data.h"

#include <cmath>
#include <tuple>

namespace diamond::app::rest {

RestServer::Reply RestServer::planRun(const Request &req) {
    QJsonObject body;
    Reply error;
    if (!jsonBody(req, &body, &error)) return error;
    RunPlanRequest r;
    if (!specAndConfig(body, &r.spec, &r.config, &error)) return error;
    r.target = body.value(QStringLiteral("target")).toString(QStringLiteral("local"));
    r.partition = body.value(QStringLiteral("partition")).toString();
    for (const auto &[key, out, most] :
         {std::tuple{"nproc", &r.fixedRanks, 64}, std::tuple{"threads", &r.threads, 1024}}) {
        const QJsonValue v = body.value(QLatin1String(key));
        if (v.isUndefined()) continue;
        const double n = v.toDouble(-1);
        if (!v.isDouble() || n != std::floor(n) || n < 0 || n > most)
            return errorReply(400, QStringLiteral("bad_request"),
                              tr("\"%1\" must be a whole number from 0 to %2").arg(QLatin1String(key)).arg(most));
        *out = int(n);
    }
    const QJsonValue measureWidth = body.value(QStringLiteral("measure_width"));
    if (!measureWidth.isUndefined() && !measureWidth.isBool())
        return errorReply(400, QStringLiteral("bad_request"), tr("\"measure_width\" must be true or false"));
    r.measureWidth = measureWidth.toBool(false);
    const QJsonValue queueWait = body.value(QStringLiteral("queue_wait"));
    if (!queueWait.isUndefined() && !queueWait.isBool())
        return errorReply(400, QStringLiteral("bad_request"), tr("\"queue_wait\" must be true or false"));
    r.queueWait = queueWait.toBool(true);
    QJsonObject execution;
    QString problem;
    if (!confineDataPaths(ws_, r.config, &execution, &problem))
        return errorReply(400, QStringLiteral("path_not_allowed"), problem);
    if (r.target != QLatin1String("local") && !ClusterStore(ws_).profile(r.target))
        return errorReply(400, QStringLiteral("unknown_target"),
                          tr("no target \"%1\": GET /api/v1/clusters lists them").arg(r.target));
    return deferred(req.socket, [r](Workspace &ws) {
        QString why;
        RunPlanner planner(ws);
        // A cluster's scheduler estimates each partition's queue wait, over a connection of this request's own
        // (key or agent sign-in: a server has nobody to type a password).
        ClusterLinks links;
        if (r.target != QLatin1String("local") && r.queueWait)
            if (const auto cluster = ClusterStore(ws).profile(r.target))
                planner.setQueueWaitEstimator(queueWaitsOver(links.link(*cluster)));
        const auto plan = planner.plan(r, &why);
        if (!plan) return errorReply(422, QStringLiteral("no_plan"), why);
        return jsonReply(plan->document);
    });
}

} // namespace diamond::app::rest
