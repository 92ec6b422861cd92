// Handlers of the gallery routes (see rest_server.h, docs/rest-api.md).
#include "rest_server.h"

#include "app/gallery/gallery_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryFile>
#include <QUrlQuery>

namespace diamond::app::rest {

namespace {

using gallery::GalleryQuery;
using gallery::GalleryStore;

/// HTTP status of a gallery failure code.
int statusFor(const QString &code) {
    if (code == QLatin1String("not_found")) return 404;
    if (code == QLatin1String("run_not_finished")) return 409;
    if (code.startsWith(QLatin1String("package_"))) return 422;
    if (code == QLatin1String("export_failed")) return 502;
    return 500;
}

RestServer::Reply importReply(const gallery::ImportResult &r, GalleryStore &store, int createdStatus) {
    if (!r.entry) return errorReply(statusFor(store.errorCode()), store.errorCode(), store.errorString());
    QJsonObject doc = gallery::entryJson(*r.entry, false);
    doc.insert(QStringLiteral("already_present"), r.alreadyPresent);
    doc.insert(QStringLiteral("verify_message"), r.verifyMessage);
    return jsonReply(doc, r.alreadyPresent ? 200 : createdStatus);
}

} // namespace

RestServer::Reply RestServer::searchGallery(const Request &req) {
    const QUrlQuery q(req.http.url);
    GalleryQuery query;
    query.text = q.queryItemValue(QStringLiteral("q"), QUrl::FullyDecoded);
    query.task = q.queryItemValue(QStringLiteral("task"), QUrl::FullyDecoded);
    query.domain = q.queryItemValue(QStringLiteral("domain"), QUrl::FullyDecoded);
    query.license = q.queryItemValue(QStringLiteral("license"), QUrl::FullyDecoded);
    query.consistentOnly = q.queryItemValue(QStringLiteral("consistent")) == QLatin1String("true") ||
                           q.queryItemValue(QStringLiteral("verified")) == QLatin1String("true"); // older clients
    query.ascending = q.queryItemValue(QStringLiteral("order")) == QLatin1String("asc");
    const QString sort = q.queryItemValue(QStringLiteral("sort"));
    if (sort.isEmpty())
        query.sort = query.text.isEmpty() ? GalleryQuery::Sort::Date : GalleryQuery::Sort::Relevance;
    else if (sort == QLatin1String("relevance"))
        query.sort = GalleryQuery::Sort::Relevance;
    else if (sort == QLatin1String("metric"))
        query.sort = GalleryQuery::Sort::Metric;
    else if (sort == QLatin1String("date"))
        query.sort = GalleryQuery::Sort::Date;
    else if (sort == QLatin1String("name"))
        query.sort = GalleryQuery::Sort::Name;
    else
        return errorReply(400, QStringLiteral("bad_request"), tr("sort must be relevance, metric, date or name"));
    if (q.hasQueryItem(QStringLiteral("limit"))) query.limit = q.queryItemValue(QStringLiteral("limit")).toInt();
    if (q.hasQueryItem(QStringLiteral("offset"))) query.offset = q.queryItemValue(QStringLiteral("offset")).toInt();
    GalleryStore store(ws_);
    int total = 0;
    const auto entries = store.search(query, &total);
    if (!store.errorString().isEmpty()) return errorReply(500, QStringLiteral("internal"), store.errorString());
    QJsonArray a;
    for (const auto &e : entries)
        a.append(gallery::entryJson(e, false));
    return jsonReply({{QStringLiteral("total"), total}, {QStringLiteral("entries"), a}});
}

RestServer::Reply RestServer::uploadPackage(const Request &req) {
    if (!req.caller.user.canPublish && req.caller.user.role == Role::Student)
        return errorReply(403, QStringLiteral("forbidden"),
                          tr("%1 may not add to the gallery; an instructor can allow it "
                             "(diamondctl user update NAME --publish)")
                              .arg(req.caller.user.name));
    // The body was streamed into a file by the HTTP layer (removed once the answer is sent).
    const QString file = req.http.bodyFile;
    if (file.isEmpty() || req.http.contentLength == 0)
        return errorReply(400, QStringLiteral("bad_request"), tr("the request body must be a .diamond package"));
    return deferred(req.socket, [file](Workspace &ws) {
        GalleryStore store(ws);
        return importReply(store.importPackage(file), store, 201);
    });
}

RestServer::Reply RestServer::getGalleryEntry(const Request &req) {
    GalleryStore store(ws_);
    const auto e = store.entry(req.ids.value(0));
    if (!e) return errorReply(statusFor(store.errorCode()), store.errorCode(), store.errorString());
    return jsonReply(gallery::entryJson(*e, true));
}

RestServer::Reply RestServer::downloadPackage(const Request &req) {
    GalleryStore store(ws_);
    const auto e = store.entry(req.ids.value(0));
    if (!e) return errorReply(statusFor(store.errorCode()), store.errorCode(), store.errorString());
    const QString file = store.packageFile(*e);
    if (file.isEmpty())
        return errorReply(404, QStringLiteral("package_missing"),
                          tr("the package file of entry %1 is missing").arg(e->id));
    Reply r;
    r.contentType = "application/vnd.diamond.package+zip";
    r.filePath = file;
    r.headers.append(qMakePair(QByteArray("Content-Disposition"),
                               "attachment; filename=\"model-" + QByteArray::number(e->id) + ".diamond\""));
    r.headers.append(qMakePair(QByteArray("X-Diamond-Package-Sha256"), e->packageSha256.toLatin1()));
    return r;
}

RestServer::Reply RestServer::galleryThumbnail(const Request &req) {
    GalleryStore store(ws_);
    const auto e = store.entry(req.ids.value(0), true);
    if (!e) return errorReply(statusFor(store.errorCode()), store.errorCode(), store.errorString());
    if (e->thumbnail.isEmpty())
        return errorReply(404, QStringLiteral("not_found"), tr("entry %1 has no thumbnail").arg(e->id));
    Reply r;
    r.contentType = "image/png";
    r.body = e->thumbnail;
    return r;
}

RestServer::Reply RestServer::publishRun(const Request &req) {
    if (const auto refused = refuseRunAccess(req, req.ids.value(0))) return *refused;
    if (!req.caller.user.canPublish && req.caller.user.role == Role::Student)
        return errorReply(403, QStringLiteral("forbidden"),
                          tr("%1 may not publish to the gallery; an instructor can allow it "
                             "(diamondctl user update NAME --publish)")
                              .arg(req.caller.user.name));
    QJsonObject body;
    if (!req.http.body.trimmed().isEmpty()) {
        const QJsonDocument doc = QJsonDocument::fromJson(req.http.body);
        if (!doc.isObject())
            return errorReply(400, QStringLiteral("invalid_json"), tr("the request body must be a JSON object"));
        body = doc.object();
    }
    gallery::PublishOptions p;
    p.name = body.value(QStringLiteral("name")).toString();
    p.version = body.value(QStringLiteral("version")).toString();
    p.title = body.value(QStringLiteral("title")).toString();
    p.card = body.value(QStringLiteral("card")).toString();
    p.license = body.value(QStringLiteral("license")).toString();
    p.citation = body.value(QStringLiteral("citation")).toString();
    p.domain = body.value(QStringLiteral("domain")).toString();
    p.task = body.value(QStringLiteral("task")).toString();
    for (const QJsonValue &v : body.value(QStringLiteral("authors")).toArray())
        p.authors << v.toString();
    for (const QJsonValue &v : body.value(QStringLiteral("tags")).toArray())
        p.tags << v.toString();
    const qint64 runId = req.ids.value(0);
    return deferred(req.socket, [runId, p](Workspace &ws) {
        GalleryStore store(ws);
        return importReply(store.publishRun(runId, p), store, 201);
    });
}

} // namespace diamond::app::rest
