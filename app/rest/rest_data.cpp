// Handlers of the dataset routes (see rest_server.h, docs/rest-api.md and docs/datasets.md). Uploads are single
// files streamed to <workspace>/datasets/tmp by the HTTP layer; importing and staging run on worker threads.
#include "rest_server.h"

#include "app/cluster/cluster_connection.h"
#include "app/cluster/cluster_store.h"
#include "app/data/dataset_cache_cleaner.h"
#include "app/data/dataset_json.h"
#include "app/data/dataset_stager.h"
#include "app/data/dataset_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>
#include <QUuid>

#include <unistd.h>

namespace diamond::app::rest {

namespace {

RestServer::Reply notFound(const DatasetStore &store) {
    return errorReply(404, QStringLiteral("not_found"), store.errorString());
}

/// NAME from the path, with ?version=N when given.
QString refOf(const RestServer::Request &req) {
    const QString version = QUrlQuery(req.http.url).queryItemValue(QStringLiteral("version"));
    return version.isEmpty() ? req.names.value(0) : req.names.value(0) + QLatin1Char('@') + version;
}

} // namespace

RestServer::Reply RestServer::listDatasets(const Request &) {
    DatasetStore store(ws_);
    QJsonArray a;
    for (const DatasetSummary &s : store.list())
        a.append(datasetSummaryJson(s));
    return jsonReply({{QStringLiteral("datasets"), a}});
}

RestServer::Reply RestServer::uploadDataset(const Request &req) {
    const QUrlQuery q(req.http.url);
    const QString name = q.queryItemValue(QStringLiteral("name"), QUrl::FullyDecoded);
    const QString fileName = q.queryItemValue(QStringLiteral("file"), QUrl::FullyDecoded);
    if (!DatasetStore::isValidName(name))
        return errorReply(400, QStringLiteral("bad_request"),
                          tr("?name= must be a dataset name (letters, digits, '.', "
                             "'_' and '-', at most 64)"));
    if (!DatasetStore::isValidName(fileName))
        return errorReply(400, QStringLiteral("bad_request"),
                          tr("?file= must be a plain file name such as data.csv (letters, digits, '.', '_', '-')"));
    const QString body = req.http.bodyFile;
    if (body.isEmpty() || req.http.contentLength == 0)
        return errorReply(400, QStringLiteral("bad_request"), tr("the request body must be the dataset's file"));
    return deferred(req.socket, [body, name, fileName](Workspace &ws) {
        // The file needs its name in the manifest: a hard link with that name in a folder of its own.
        const QString folder =
            QDir(ws.path()).filePath(QStringLiteral("datasets/tmp/") + QUuid::createUuid().toString(QUuid::Id128));
        const QString file = folder + QLatin1Char('/') + fileName;
        if (!QDir().mkpath(folder) ||
            ::link(QFile::encodeName(body).constData(), QFile::encodeName(file).constData()) != 0)
            return errorReply(500, QStringLiteral("storage_failed"), tr("cannot store the upload in %1").arg(folder));
        DatasetStore store(ws);
        bool unchanged = false;
        const auto v = store.addVersion(name, file, {}, &unchanged);
        QDir(folder).removeRecursively();
        if (!v) return errorReply(422, QStringLiteral("dataset_refused"), store.errorString());
        QJsonObject doc = datasetVersionJson(*v);
        doc.insert(QStringLiteral("unchanged"), unchanged);
        return jsonReply(doc, unchanged ? 200 : 201);
    });
}

RestServer::Reply RestServer::getDataset(const Request &req) {
    DatasetStore store(ws_);
    const auto v = store.resolve(refOf(req));
    if (!v) return notFound(store);
    return jsonReply(datasetVersionJson(*v, true));
}

RestServer::Reply RestServer::datasetVersions(const Request &req) {
    DatasetStore store(ws_);
    const QList<DatasetVersion> all = store.versions(req.names.value(0));
    if (all.isEmpty())
        return errorReply(404, QStringLiteral("not_found"), tr("there is no dataset \"%1\"").arg(req.names.value(0)));
    QJsonArray a;
    for (const DatasetVersion &v : all)
        a.append(datasetVersionJson(v));
    return jsonReply({{QStringLiteral("name"), req.names.value(0)}, {QStringLiteral("versions"), a}});
}

RestServer::Reply RestServer::removeDataset(const Request &req) {
    DatasetStore store(ws_);
    qint64 freed = 0;
    if (!store.remove(req.names.value(0), &freed)) return notFound(store);
    return jsonReply({{QStringLiteral("removed"), req.names.value(0)}, {QStringLiteral("freed_bytes"), freed}});
}

RestServer::Reply RestServer::stageDataset(const Request &req) {
    const QJsonObject body = QJsonDocument::fromJson(req.http.body).object();
    const QString target = body.value(QStringLiteral("target")).toString();
    if (target.isEmpty())
        return errorReply(400, QStringLiteral("bad_request"), tr("the body must name the cluster: {\"target\": NAME}"));
    QString ref = req.names.value(0);
    if (body.contains(QStringLiteral("version")))
        ref += QLatin1Char('@') + QString::number(body.value(QStringLiteral("version")).toInt());
    const bool verify = body.value(QStringLiteral("verify")).toBool();
    return deferred(req.socket, [ref, target, verify](Workspace &ws) {
        DatasetStore store(ws);
        const auto v = store.resolve(ref);
        if (!v) return errorReply(404, QStringLiteral("not_found"), store.errorString());
        ClusterStore clusters(ws);
        const auto profile = clusters.profile(target);
        if (!profile) return errorReply(404, QStringLiteral("not_found"), clusters.errorString());
        // The server cannot answer sign-in prompts: keys, agents and stored secrets only.
        auto runner = makeClusterRunner(*profile);
        DatasetStager stager(*runner, profile->scratchDir + QStringLiteral("/datasets"));
        stager.setVerifyAlways(verify);
        QString error;
        const auto staged = stager.stage(*v, store.chunks(), {}, &error);
        if (!staged) return errorReply(502, QStringLiteral("staging_failed"), error);
        QJsonObject doc = staged->toJson();
        doc.insert(QStringLiteral("dataset"), v->ref());
        doc.insert(QStringLiteral("target"), target);
        return jsonReply(doc);
    });
}

namespace {

/// Cleans `target`'s dataset cache on the calling (worker) thread; a Dataset selection that is not staged answers
/// 404 naming `asked`.
RestServer::Reply cleanCache(Workspace &ws, const QString &target, const CacheSelection &selection,
                             const QString &asked = {}) {
    ClusterStore clusters(ws);
    const auto profile = clusters.profile(target);
    if (!profile) return errorReply(404, QStringLiteral("not_found"), clusters.errorString());
    auto runner = makeClusterRunner(*profile);
    QString error;
    bool notStaged = false;
    const auto cleaned = DatasetCacheCleaner(*runner, profile->scratchDir + QStringLiteral("/datasets"))
                             .clean(selection, &error, &notStaged);
    if (notStaged)
        return errorReply(404, QStringLiteral("not_found"),
                          RestServer::tr("%1 is not staged on %2").arg(asked, target));
    if (!cleaned) return errorReply(502, QStringLiteral("cluster_failed"), error);
    QJsonObject doc = cleaned->toJson();
    doc.insert(QStringLiteral("target"), target);
    return jsonReply(doc);
}

} // namespace

RestServer::Reply RestServer::unstageDataset(const Request &req) {
    const QJsonObject body = QJsonDocument::fromJson(req.http.body).object();
    const QString target = body.value(QStringLiteral("target")).toString();
    if (target.isEmpty())
        return errorReply(400, QStringLiteral("bad_request"), tr("the body must name the cluster: {\"target\": NAME}"));
    const QString name = req.names.value(0);
    const int version = body.value(QStringLiteral("version")).toInt();
    return deferred(req.socket, [name, version, target](Workspace &ws) {
        CacheSelection selection;
        selection.kind = CacheSelection::Kind::Dataset;
        selection.name = name;
        if (version > 0) { // only that version
            DatasetStore store(ws);
            const auto v = store.resolve(name + QLatin1Char('@') + QString::number(version));
            if (!v) return errorReply(404, QStringLiteral("not_found"), store.errorString());
            selection.entry = DatasetCacheCleaner::entryOf(*v);
        }
        return cleanCache(ws, target, selection, name);
    });
}

RestServer::Reply RestServer::cleanDatasetCache(const Request &req) {
    const bool unregistered =
        QJsonDocument::fromJson(req.http.body).object().value(QStringLiteral("unregistered")).toBool();
    const QString target = req.names.value(0);
    return deferred(req.socket, [target, unregistered](Workspace &ws) {
        CacheSelection selection;
        if (unregistered) {
            DatasetStore store(ws);
            selection.kind = CacheSelection::Kind::Unregistered;
            selection.registered = DatasetCacheCleaner::registeredEntries(store);
        }
        return cleanCache(ws, target, selection);
    });
}

} // namespace diamond::app::rest
