// POST /api/v1/clusters/{name}/deploy: puts a working engine on a cluster, as `diamondctl cluster deploy` does
// (app/cluster/engine_deploy.h), on a worker thread; the cluster profile then uses it.
#include "rest_server.h"

#include "app/cluster/cluster_connection.h"
#include "app/cluster/cluster_store.h"
#include "app/cluster/engine_deploy.h"

#include <QJsonDocument>

namespace diamond::app::rest {

RestServer::Reply RestServer::deployClusterEngine(const Request &req) {
    QJsonParseError parseError;
    const QJsonDocument doc = req.http.body.trimmed().isEmpty() ? QJsonDocument(QJsonObject())
                                                                : QJsonDocument::fromJson(req.http.body, &parseError);
    if (!doc.isObject()) return errorReply(400, QStringLiteral("bad_request"), tr("the body must be a JSON object"));
    const QJsonObject body = doc.object();
    EngineDeployOptions options;
    const QJsonValue container = body.value(QStringLiteral("container"));
    if (!container.isUndefined() && !container.isBool())
        return errorReply(400, QStringLiteral("bad_request"), tr("\"container\" must be true or false"));
    options.container = container.toBool();
    for (const auto &[key, field] :
         {std::pair{"partition", &options.partition}, std::pair{"image", &options.baseImage}}) {
        const QJsonValue v = body.value(QLatin1String(key));
        if (v.isUndefined()) continue;
        if (!v.isString() || v.toString().size() > 256)
            return errorReply(400, QStringLiteral("bad_request"),
                              tr("\"%1\" must be a string of at most 256 characters").arg(QLatin1String(key)));
        *field = v.toString();
    }
    const QJsonValue minutes = body.value(QStringLiteral("build_minutes"));
    if (!minutes.isUndefined()) {
        if (!minutes.isDouble() || minutes.toDouble() != double(minutes.toInt()) || minutes.toInt() < 1 ||
            minutes.toInt() > 1440)
            return errorReply(400, QStringLiteral("bad_request"),
                              tr("\"build_minutes\" must be a whole number from 1 to 1440"));
        options.buildMinutes = minutes.toInt();
    }
    if (!options.container)
        for (const char *containerOnly : {"partition", "image", "build_minutes"})
            if (body.contains(QLatin1String(containerOnly)))
                return errorReply(
                    400, QStringLiteral("bad_request"),
                    tr("\"%1\" is for container deployments (\"container\": true)").arg(QLatin1String(containerOnly)));
    const QString name = req.names.value(0);
    return deferred(req.socket, [name, options](Workspace &ws) {
        ClusterStore clusters(ws);
        const auto profile = clusters.profile(name);
        if (!profile) return errorReply(404, QStringLiteral("not_found"), clusters.errorString());
        // The server cannot answer sign-in prompts: keys, agents and stored secrets only.
        auto runner = makeClusterRunner(*profile);
        QString error;
        const auto deployed = deployEngine(*runner, *profile, options, {}, &error);
        if (!deployed) return errorReply(502, QStringLiteral("deploy_failed"), error);
        if (!clusters.update(withDeployment(*profile, options, *deployed)))
            return errorReply(500, QStringLiteral("internal"), clusters.errorString());
        return jsonReply(deploymentJson(name, options, *deployed));
    });
}

} // namespace diamond::app::rest
