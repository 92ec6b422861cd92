#include "app/gallery/gallery_source.h"

#include "app/background.h"
#include "app/gallery/model_package.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrlQuery>

#include <memory>

namespace diamond::app::gallery {

namespace {

struct SearchResult {
    QList<GalleryEntry> entries;
    int total = 0;
    QString error;
};

struct EntryResult {
    GalleryEntry entry;
    QString error;
};

struct FileResult {
    QString file;
    QString error;
};

/// Opens the workspace in this (worker) thread; *error says why not.
bool openWorkspace(app::Workspace &ws, const QString &folder, QString *error) {
    if (ws.open(folder)) return true;
    *error = QCoreApplication::translate("diamond::app::gallery::GallerySource", "Cannot open the workspace %1: %2")
                 .arg(QDir::toNativeSeparators(folder), ws.errorString());
    return false;
}

/// Copies `from` to `to` through a temporary name; an existing `to` is replaced.
QString copyFile(const QString &from, const QString &to) {
    const QString part = to + QStringLiteral(".part");
    QFile::remove(part);
    if (!QFile::copy(from, part))
        return QCoreApplication::translate("diamond::app::gallery::GallerySource", "Cannot write %1.")
            .arg(QDir::toNativeSeparators(to));
    QFile::remove(to);
    if (!QFile::rename(part, to)) {
        QFile::remove(part);
        return QCoreApplication::translate("diamond::app::gallery::GallerySource", "Cannot write %1.")
            .arg(QDir::toNativeSeparators(to));
    }
    return {};
}

} // namespace

// ---------------------------------------------------------------------------------------------- local

LocalGallerySource::LocalGallerySource(const QString &workspaceFolder, QObject *parent)
    : GallerySource(parent), folder_(workspaceFolder) {}

QString LocalGallerySource::displayName() const { return tr("This workspace"); }

int LocalGallerySource::search(const GalleryQuery &query) {
    const int request = nextRequest();
    runInBackground(
        this,
        [folder = folder_, query] {
            SearchResult r;
            app::Workspace ws;
            if (!openWorkspace(ws, folder, &r.error)) return r;
            GalleryStore store(ws);
            r.entries = store.search(query, &r.total);
            if (!store.errorString().isEmpty()) r.error = store.errorString();
            for (GalleryEntry &e : r.entries)
                if (const auto full = store.entry(e.id, true)) e.thumbnail = full->thumbnail;
            return r;
        },
        [this, request](const SearchResult &r) { Q_EMIT searched(request, r.entries, r.total, r.error); });
    return request;
}

int LocalGallerySource::fetchEntry(qint64 id) {
    const int request = nextRequest();
    runInBackground(
        this,
        [folder = folder_, id] {
            EntryResult r;
            app::Workspace ws;
            if (!openWorkspace(ws, folder, &r.error)) return r;
            GalleryStore store(ws);
            if (const auto e = store.entry(id, true))
                r.entry = *e;
            else
                r.error = store.errorString();
            return r;
        },
        [this, request](const EntryResult &r) { Q_EMIT entryFetched(request, r.entry, r.error); });
    return request;
}

int LocalGallerySource::fetchPackage(qint64 id, const QString &targetFile) {
    const int request = nextRequest();
    runInBackground(
        this,
        [folder = folder_, id, targetFile] {
            FileResult r;
            app::Workspace ws;
            if (!openWorkspace(ws, folder, &r.error)) return r;
            GalleryStore store(ws);
            const auto e = store.entry(id);
            if (!e) return r.error = store.errorString(), r;
            const QString file = store.packageFile(*e);
            if (file.isEmpty()) return r.error = tr("The package file of gallery entry %1 is missing.").arg(id), r;
            if (targetFile.isEmpty()) return r.file = file, r;
            r.error = copyFile(file, targetFile);
            if (r.error.isEmpty()) r.file = targetFile;
            return r;
        },
        [this, request](const FileResult &r) {
            if (r.error.isEmpty()) {
                const qint64 size = QFileInfo(r.file).size();
                Q_EMIT packageProgress(request, size, size);
            }
            Q_EMIT packageFetched(request, r.file, r.error);
        });
    return request;
}

int LocalGallerySource::importPackage(const QString &file) {
    const int request = nextRequest();
    runInBackground(
        this,
        [folder = folder_, file] {
            GalleryImportOutcome o;
            app::Workspace ws;
            if (!openWorkspace(ws, folder, &o.message)) return o.code = QStringLiteral("workspace"), o;
            GalleryStore store(ws);
            const app::gallery::ImportResult r = store.importPackage(file);
            if (!r.entry) {
                o.code = store.errorCode();
                o.message = store.errorString();
                return o;
            }
            o.entryId = r.entry->id;
            o.consistent = r.entry->consistent;
            o.alreadyPresent = r.alreadyPresent;
            o.message = r.verifyMessage;
            return o;
        },
        [this, request](const GalleryImportOutcome &o) { Q_EMIT imported(request, o); });
    return request;
}

int LocalGallerySource::remove(qint64 id) {
    const int request = nextRequest();
    runInBackground(
        this,
        [folder = folder_, id] {
            QString error;
            app::Workspace ws;
            if (!openWorkspace(ws, folder, &error)) return error;
            GalleryStore store(ws);
            if (!store.remove(id)) error = store.errorString();
            return error;
        },
        [this, request, id](const QString &error) { Q_EMIT removed(request, id, error); });
    return request;
}

int LocalGallerySource::setPublisherTrusted(qint64 id, bool trusted) {
    const int request = nextRequest();
    runInBackground(
        this,
        [folder = folder_, id, trusted] {
            QString error;
            app::Workspace ws;
            if (!openWorkspace(ws, folder, &error)) return error;
            GalleryStore store(ws);
            const auto e = store.entry(id);
            if (!e) return store.errorString();
            if (e->publisherKey.isEmpty())
                return QCoreApplication::translate("diamond::gallery", "the package is not signed");
            const bool ok = trusted ? store.trust(e->publisherKey, e->publisher) : store.untrust(e->fingerprint);
            return ok ? QString() : store.errorString();
        },
        [this, request, id, trusted](const QString &error) { Q_EMIT trustChanged(request, id, trusted, error); });
    return request;
}

// ---------------------------------------------------------------------------------------------- remote

RemoteGallerySource::RemoteGallerySource(const QString &name, const QString &url, const QString &token, QObject *parent)
    : GallerySource(parent), name_(name), url_(url), token_(token), base_(apiBase(url)),
      nam_(new QNetworkAccessManager(this)) {
    if (name_.isEmpty()) name_ = base_.isValid() ? base_.authority() : url;
}

RemoteGallerySource::~RemoteGallerySource() {
    const auto running = downloads_;
    for (const QPointer<QNetworkReply> &r : running)
        if (r) {
            r->disconnect(this); // no signals from a source being destroyed
            r->abort();
        }
    if (!tempDir_.isEmpty()) QDir(tempDir_).removeRecursively();
}

QUrl RemoteGallerySource::apiBase(const QString &text) {
    QUrl url = QUrl::fromUserInput(text.trimmed());
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")))
        return {};
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (!path.endsWith(QLatin1String("/api/v1"))) path += QStringLiteral("/api/v1");
    url.setPath(path);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

GalleryEntry RemoteGallerySource::entryFromJson(const QJsonObject &o) {
    GalleryEntry e;
    e.id = o.value(QStringLiteral("id")).toInteger();
    e.runId = o.value(QStringLiteral("run_id")).toInteger();
    e.name = o.value(QStringLiteral("name")).toString();
    e.version = o.value(QStringLiteral("version")).toString();
    e.title = o.value(QStringLiteral("title")).toString();
    e.task = o.value(QStringLiteral("task")).toString();
    e.domain = o.value(QStringLiteral("domain")).toString();
    e.license = o.value(QStringLiteral("license")).toString();
    e.card = o.value(QStringLiteral("card")).toString();
    for (const QJsonValue &t : o.value(QStringLiteral("tags")).toArray())
        e.tags << t.toString();
    e.manifest = o.value(QStringLiteral("manifest")).toObject();
    e.packageSha256 = o.value(QStringLiteral("package_sha256")).toString();
    e.consistent = o.value(QStringLiteral("consistent")).toBool();
    const QJsonObject signature = o.value(QStringLiteral("signature")).toObject();
    e.publisher = signature.value(QStringLiteral("publisher")).toString();
    e.fingerprint = signature.value(QStringLiteral("fingerprint")).toString();
    e.trusted = signature.value(QStringLiteral("trusted")).toBool(); // as the serving gallery trusts it
    if (o.value(QStringLiteral("key_metric")).isDouble())
        e.keyMetric = o.value(QStringLiteral("key_metric")).toDouble();
    e.keyMetricName = o.value(QStringLiteral("key_metric_name")).toString();
    e.createdAt = o.value(QStringLiteral("created_at")).toString();
    e.updatedAt = o.value(QStringLiteral("updated_at")).toString();
    return e;
}

QNetworkReply *RemoteGallerySource::get(const QString &path, const QList<QPair<QString, QString>> &query) {
    QUrl url = base_;
    url.setPath(base_.path() + path);
    if (!query.isEmpty()) {
        QUrlQuery q;
        q.setQueryItems(query);
        url.setQuery(q);
    }
    QNetworkRequest request(url);
    request.setRawHeader("Authorization", "Bearer " + token_.toUtf8());
    request.setTransferTimeout(60000); // no data for a minute: give up
    return nam_->get(request);
}

QString RemoteGallerySource::replyError(QNetworkReply *reply) const {
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) return tr("Cannot reach the gallery \"%1\" at %2: %3").arg(name_, url_, reply->errorString());
    const QJsonObject error =
        QJsonDocument::fromJson(reply->readAll()).object().value(QStringLiteral("error")).toObject();
    const QString code = error.value(QStringLiteral("code")).toString();
    if (code == QLatin1String("unauthorized") || status == 401)
        return tr("The gallery \"%1\" refused the token (HTTP 401): check the token of this source.").arg(name_);
    if (!code.isEmpty())
        return tr("The gallery \"%1\" answered HTTP %2 (%3): %4")
            .arg(name_)
            .arg(status)
            .arg(code, error.value(QStringLiteral("message")).toString());
    return tr("The gallery \"%1\" answered HTTP %2: %3").arg(name_).arg(status).arg(reply->errorString());
}

int RemoteGallerySource::search(const GalleryQuery &query) {
    const int request = nextRequest();
    if (!base_.isValid()) {
        QTimer::singleShot(0, this, [this, request] {
            Q_EMIT searched(request, {}, 0, tr("\"%1\" is not an http:// or https:// address.").arg(url_));
        });
        return request;
    }
    QList<QPair<QString, QString>> items;
    auto add = [&items](const char *key, const QString &value) {
        if (!value.isEmpty()) items.append({QLatin1String(key), value});
    };
    add("q", query.text);
    add("task", query.task);
    add("domain", query.domain);
    add("license", query.license);
    if (query.consistentOnly) add("consistent", QStringLiteral("true"));
    switch (query.sort) {
    case GalleryQuery::Sort::Relevance: add("sort", QStringLiteral("relevance")); break;
    case GalleryQuery::Sort::Metric: add("sort", QStringLiteral("metric")); break;
    case GalleryQuery::Sort::Date: add("sort", QStringLiteral("date")); break;
    case GalleryQuery::Sort::Name: add("sort", QStringLiteral("name")); break;
    }
    add("order", query.ascending ? QStringLiteral("asc") : QStringLiteral("desc"));
    add("limit", QString::number(query.limit));
    add("offset", QString::number(query.offset));
    QNetworkReply *reply = get(QStringLiteral("/gallery"), items);
    connect(reply, &QNetworkReply::finished, this, [this, reply, request] {
        reply->deleteLater();
        if (reply->error() != QNetworkReply::NoError) {
            Q_EMIT searched(request, {}, 0, replyError(reply));
            return;
        }
        const QJsonObject doc = QJsonDocument::fromJson(reply->readAll()).object();
        QList<GalleryEntry> entries;
        for (const QJsonValue &v : doc.value(QStringLiteral("entries")).toArray()) {
            GalleryEntry e = entryFromJson(v.toObject());
            e.thumbnail = thumbnailCache_.value(e.packageSha256);
            entries.append(e);
        }
        Q_EMIT searched(request, entries, doc.value(QStringLiteral("total")).toInt(), QString());
        fetchThumbnails(entries);
    });
    return request;
}

void RemoteGallerySource::fetchThumbnails(const QList<GalleryEntry> &entries) {
    for (const GalleryEntry &e : entries) {
        if (!e.thumbnail.isEmpty() || e.packageSha256.isEmpty()) continue;
        QNetworkReply *reply = get(QStringLiteral("/gallery/%1/thumbnail").arg(e.id));
        connect(reply, &QNetworkReply::finished, this, [this, reply, id = e.id, sha = e.packageSha256] {
            reply->deleteLater();
            if (reply->error() != QNetworkReply::NoError) return; // a card without a picture
            const QByteArray png = reply->readAll();
            thumbnailCache_.insert(sha, png);
            Q_EMIT thumbnailReady(id, png);
        });
    }
}

int RemoteGallerySource::fetchEntry(qint64 id) {
    const int request = nextRequest();
    QNetworkReply *reply = get(QStringLiteral("/gallery/%1").arg(id));
    connect(reply, &QNetworkReply::finished, this, [this, reply, request] {
        reply->deleteLater();
        if (reply->error() != QNetworkReply::NoError) {
            Q_EMIT entryFetched(request, {}, replyError(reply));
            return;
        }
        GalleryEntry e = entryFromJson(QJsonDocument::fromJson(reply->readAll()).object());
        e.thumbnail = thumbnailCache_.value(e.packageSha256);
        Q_EMIT entryFetched(request, e, QString());
        if (e.thumbnail.isEmpty()) fetchThumbnails({e});
    });
    return request;
}

int RemoteGallerySource::fetchPackage(qint64 id, const QString &targetFile) {
    const int request = nextRequest();
    QString target = targetFile;
    if (target.isEmpty()) {
        if (tempDir_.isEmpty()) {
            QTemporaryDir dir(QDir(QDir::tempPath()).filePath(QStringLiteral("diamond-gallery-XXXXXX")));
            dir.setAutoRemove(false);
            tempDir_ = dir.path();
        }
        target = QDir(tempDir_).filePath(QStringLiteral("entry-%1-%2.diamond").arg(id).arg(request));
    }
    auto file = std::make_shared<QFile>(target + QStringLiteral(".part"));
    if (tempDir_.isEmpty() && targetFile.isEmpty()) file.reset();
    if (!file || !file->open(QIODevice::WriteOnly)) {
        QTimer::singleShot(0, this, [this, request, target] {
            Q_EMIT packageFetched(request, {}, tr("Cannot write %1.").arg(QDir::toNativeSeparators(target)));
        });
        return request;
    }
    QNetworkReply *reply = get(QStringLiteral("/gallery/%1/package").arg(id));
    downloads_.append(reply);
    auto ok = [reply] { return reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200; };
    connect(reply, &QNetworkReply::readyRead, this, [reply, file, ok] {
        if (ok()) file->write(reply->readAll()); // error bodies stay in the reply for replyError()
    });
    connect(reply, &QNetworkReply::downloadProgress, this,
            [this, request](qint64 received, qint64 total) { Q_EMIT packageProgress(request, received, total); });
    connect(reply, &QNetworkReply::finished, this, [this, reply, file, ok, request, target] {
        reply->deleteLater();
        downloads_.removeAll(reply);
        if (reply->error() != QNetworkReply::NoError || !ok()) {
            file->remove();
            Q_EMIT packageFetched(request, {}, replyError(reply));
            return;
        }
        file->write(reply->readAll());
        const bool written = file->flush() && file->error() == QFileDevice::NoError;
        file->close();
        if (!written) {
            file->remove();
            Q_EMIT packageFetched(request, {}, tr("Cannot write %1.").arg(QDir::toNativeSeparators(target)));
            return;
        }
        const QString expected = QString::fromLatin1(reply->rawHeader("X-Diamond-Package-Sha256")).toLower();
        runInBackground(
            this,
            [part = file->fileName(), target, expected, name = name_] {
                FileResult r;
                const QString actual = app::gallery::fileSha256(part);
                if (!expected.isEmpty() && actual != expected) {
                    QFile::remove(part);
                    r.error = tr("The package from \"%1\" arrived damaged (SHA-256 %2, expected %3).")
                                  .arg(name, actual, expected);
                    return r;
                }
                QFile::remove(target);
                if (!QFile::rename(part, target)) {
                    QFile::remove(part);
                    r.error = tr("Cannot write %1.").arg(QDir::toNativeSeparators(target));
                    return r;
                }
                r.file = target;
                return r;
            },
            [this, request](const FileResult &r) { Q_EMIT packageFetched(request, r.file, r.error); });
    });
    return request;
}

void RemoteGallerySource::abortDownloads() {
    const auto running = downloads_;
    for (const QPointer<QNetworkReply> &r : running)
        if (r) r->abort();
}

} // namespace diamond::app::gallery
