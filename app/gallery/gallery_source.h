// Sources of gallery entries for the browser. LocalGallerySource is the workspace's own gallery
// (GalleryStore, each call on a worker thread with its own workspace connection);
// RemoteGallerySource is a gallery served by `diamondctl serve` (docs/rest-api.md), reached asynchronously with
// QNetworkAccessManager and the bearer token.
//
// Contract: every request method returns at once with a request number (> 0); its result arrives later as a
// signal carrying that number, on the thread that owns the source (the GUI thread). Errors are translated
// sentences naming the source and, for HTTP, the server's stable error code.
#pragma once

#include "app/gallery/gallery_store.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace diamond::app::gallery {

/// Outcome of importing a package into the local gallery.
struct GalleryImportOutcome {
    qint64 entryId = 0; ///< 0 when refused
    bool consistent = false;
    bool alreadyPresent = false;
    QString message; ///< the verification message, or why the package was refused
    QString code;    ///< stable error code when refused
};

class GallerySource : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual bool isRemote() const = 0;
    /// Name shown in the source list ("This workspace", "Lab server").
    virtual QString displayName() const = 0;
    /// Workspace folder or base URL.
    virtual QString location() const = 0;

    /// Searches the gallery -> searched(). Thumbnails come in the entries (local) or through thumbnailReady().
    virtual int search(const GalleryQuery &query) = 0;
    /// One entry with its card, manifest and thumbnail -> entryFetched().
    virtual int fetchEntry(qint64 id) = 0;
    /// The entry's .diamond file -> packageProgress(), packageFetched(). With an empty `targetFile` a local
    /// source answers with its own package file (read-only use) and a remote one downloads into a temporary
    /// file owned by the source; otherwise the package is copied / downloaded to `targetFile`.
    virtual int fetchPackage(qint64 id, const QString &targetFile) = 0;

Q_SIGNALS:
    void searched(int request, const QList<diamond::app::gallery::GalleryEntry> &entries, int total,
                  const QString &error);
    void thumbnailReady(qint64 id, const QByteArray &png);
    void entryFetched(int request, const diamond::app::gallery::GalleryEntry &entry, const QString &error);
    void packageProgress(int request, qint64 received, qint64 total);
    void packageFetched(int request, const QString &file, const QString &error);

protected:
    int nextRequest() { return ++lastRequest_; }

private:
    int lastRequest_ = 0;
};

class LocalGallerySource : public GallerySource {
    Q_OBJECT
public:
    explicit LocalGallerySource(const QString &workspaceFolder, QObject *parent = nullptr);

    bool isRemote() const override { return false; }
    QString displayName() const override;
    QString location() const override { return folder_; }
    int search(const GalleryQuery &query) override;
    int fetchEntry(qint64 id) override;
    int fetchPackage(qint64 id, const QString &targetFile) override;

    /// Checks, verifies (engine re-run) and adds a package file -> imported().
    int importPackage(const QString &file);
    /// Removes an entry (and its package file when no other entry uses it) -> removed().
    int remove(qint64 id);
    /// Adds the publisher key of entry `id` to this gallery's trust list, or removes it -> trustChanged().
    int setPublisherTrusted(qint64 id, bool trusted);

Q_SIGNALS:
    void imported(int request, const diamond::app::gallery::GalleryImportOutcome &outcome);
    void removed(int request, qint64 id, const QString &error);
    void trustChanged(int request, qint64 id, bool trusted, const QString &error);

private:
    QString folder_;
};

class RemoteGallerySource : public GallerySource {
    Q_OBJECT
public:
    /// `url`: the server's address, with or without the /api/v1 path ("http://127.0.0.1:8765").
    RemoteGallerySource(const QString &name, const QString &url, const QString &token, QObject *parent = nullptr);
    ~RemoteGallerySource() override;

    bool isRemote() const override { return true; }
    QString displayName() const override { return name_; }
    QString location() const override { return url_; }
    int search(const GalleryQuery &query) override;
    int fetchEntry(qint64 id) override;
    int fetchPackage(qint64 id, const QString &targetFile) override;

    void setToken(const QString &token) { token_ = token; }
    bool hasToken() const { return !token_.isEmpty(); }
    /// Aborts running downloads (their packageFetched() reports the cancellation).
    void abortDownloads();

    /// "http://host:port/api/v1" for what a user typed; invalid when it is not an http(s) URL with a host.
    static QUrl apiBase(const QString &url);
    /// The entry as the REST API describes it (entryJson of the app).
    static GalleryEntry entryFromJson(const QJsonObject &json);

private:
    QNetworkReply *get(const QString &path, const QList<QPair<QString, QString>> &query = {});
    /// Translated error for a finished reply: the server's {"error": {code, message}}, else the network error.
    QString replyError(QNetworkReply *reply) const;
    void fetchThumbnails(const QList<GalleryEntry> &entries);

    QString name_, url_, token_;
    QUrl base_;
    QNetworkAccessManager *nam_ = nullptr;
    QHash<QString, QByteArray> thumbnailCache_; ///< by package SHA-256
    QList<QPointer<QNetworkReply>> downloads_;
    QString tempDir_;
};

} // namespace diamond::app::gallery

Q_DECLARE_METATYPE(diamond::app::gallery::GalleryImportOutcome)
