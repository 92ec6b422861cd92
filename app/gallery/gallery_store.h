// The local model gallery of a workspace: table gallery_entries (migration 3) with the FTS5 index
// gallery_search (rowid = gallery_entries.id, kept in sync here), and the package files in
// <workspace>/gallery/packages/<package sha256>.diamond.
//
// importPackage() checks a package (model_package.h), re-runs its test inputs through the engine, copies
// it into the gallery and records it; publishRun() builds a package from a finished run (engine export, card
// prefilled from the run, caller text overriding) and imports it. Both block until the engine is done.
// Same threading rule as Workspace: use from the thread that opened it.
#pragma once

#include "app/workspace/workspace.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace diamond::app::gallery {

struct GalleryEntry {
    qint64 id = 0;
    qint64 runId = 0; ///< the run it was published from, 0 when imported
    QString name, version, title, task, domain, license;
    QString card; ///< Markdown
    QStringList tags;
    QJsonObject manifest;
    QString packagePath; ///< relative to the workspace folder
    QString packageSha256;
    bool consistent = false; ///< the package's test inputs reproduce its expected outputs with its own weights
    QString publisher;       ///< who signed the package; empty when unsigned
    QByteArray publisherKey; ///< the signature's Ed25519 public key (raw); empty when unsigned or remote
    QString fingerprint;     ///< keyFingerprint() of the publisher's key; empty when unsigned
    bool trusted = false;    ///< publisherKey is on this gallery's trust list
    std::optional<double> keyMetric;
    QString keyMetricName;
    QByteArray thumbnail; ///< PNG; only filled by entry(id, true)
    QString createdAt, updatedAt;
};

/// A publisher key this gallery trusts.
struct TrustedKey {
    QString fingerprint; ///< keyFingerprint() of the key
    QByteArray publicKey;
    QString name;
    QString addedAt;
};

struct GalleryQuery {
    enum class Sort { Relevance, Metric, Date, Name };
    QString text; ///< free text: every word must match name, title, card or tags (prefix match)
    QString task, domain, license;
    bool consistentOnly = false;
    Sort sort = Sort::Date; ///< Relevance applies only with text; Metric and Date sort descending
    bool ascending = false;
    int limit = 50;
    int offset = 0;
};

/// What publishRun() takes from the caller; empty fields are filled in from the run.
struct PublishOptions {
    QString name, version, title, card, license, citation, domain, task;
    QStringList authors, tags;
    /// Keep the computer's details (data file paths, operating system, host core count) in the package. Off by
    /// default: a package names data files by their file name only.
    bool includePrivateDetails = false;
    /// Sign with this key file (default: package_signature.h defaultPublisherKeyPath(), made on first use).
    QString keyPath;
    bool sign = true;
    /// The signer's name in signature.json (default: the first author, else the user's login name).
    QString publisher;
};

struct ImportResult {
    std::optional<GalleryEntry> entry;
    bool alreadyPresent = false; ///< the same package (by SHA-256) was in the gallery
    QString verifyMessage;       ///< why verified or not
};

class GalleryStore {
public:
    explicit GalleryStore(Workspace &workspace);

    QString errorString() const { return error_; }
    /// Stable code of the last failure (zip_archive.h ErrorCode, or "not_found", "run_not_finished",
    /// "export_failed", "database").
    QString errorCode() const { return code_; }

    /// <workspace>/gallery/packages (created when missing).
    QString packagesDirectory() const;
    /// Absolute path of an entry's package file, checked to lie in packagesDirectory(); empty otherwise.
    QString packageFile(const GalleryEntry &entry) const;
    /// The engine used for verification and export (DIAMOND_TRAIN, else next to the executable).
    QString enginePath() const;

    std::optional<GalleryEntry> entry(qint64 id, bool withThumbnail = false);
    QList<GalleryEntry> search(const GalleryQuery &query, int *total = nullptr);
    int count();
    bool remove(qint64 id);

    /// Inserts an entry and its search row (one transaction). Returns the new id.
    std::optional<qint64> insert(const GalleryEntry &entry);

    /// See the file comment. On failure returns an empty entry with errorCode()/errorString().
    ImportResult importPackage(const QString &file, qint64 runId = 0);
    /// Registers the dataset a package ships (dataset.registered.shipped, docs/model-package.md) from its extracted
    /// files; returns a note for the import's message ("" when the package ships none).
    QString registerShippedDataset(const QString &extractedDir, const QJsonObject &manifest);
    ImportResult publishRun(qint64 runId, const PublishOptions &options);
    /// The manifest publishRun() would write for the run (without what the engine's export adds: weights and spec
    /// hashes, step, samples): what the publish dialog shows as "what is shared". Empty with errorString().
    QJsonObject previewManifest(qint64 runId, const PublishOptions &options);

    // --- trust ---
    /// Adds a publisher key (raw Ed25519, 32 bytes) to the trust list under `name`.
    bool trust(const QByteArray &publicKey, const QString &name);
    /// Removes the key with this fingerprint; false when it is not on the list.
    bool untrust(const QString &fingerprint);
    QList<TrustedKey> trustedKeys();

private:
    bool fail(const QString &code, const QString &message);
    Workspace &ws_;
    QString error_, code_;
};

/// FTS5 MATCH expression for free text: each word (letters, digits) quoted, prefix-matched, all required.
/// Empty when the text has no word.
QString ftsExpression(const QString &text);
/// JSON of an entry for diamondctl --json and the REST API (no thumbnail bytes, no manifest unless asked):
/// ..., "consistent", "signature": {"publisher", "fingerprint", "trusted"} or null when unsigned.
QJsonObject entryJson(const GalleryEntry &entry, bool withManifest);

} // namespace diamond::app::gallery
