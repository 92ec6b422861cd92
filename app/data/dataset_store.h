// Registered datasets of a workspace (tables datasets and dataset_versions; schema_migrations.cpp, version 7) and
// their content in the workspace's chunk store (<workspace>/datasets/.chunks). One owner for both: adding a
// version imports the files' chunks and writes the row; removing a dataset drops its rows and the chunks no other
// version uses. Local copies of versions for runs live in <workspace>/datasets/<name>/v<N>/.
//
// A dataset reference is "NAME" (the newest version) or "NAME@N". Names: letters, digits, '.', '_' and '-', at
// most 64 characters, starting with a letter or digit. Same threading rules as RunStore: the workspace's thread
// (importing blocks: run addVersion() off the GUI thread with a Workspace of that thread).
#pragma once

#include "app/data/chunk_store.h"
#include "app/data/content_manifest.h"
#include "app/workspace/workspace.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace diamond::app {

struct DatasetVersion {
    qint64 id = 0;
    qint64 datasetId = 0;
    QString name;
    int version = 0;
    QByteArray manifestHash;
    QString format;
    QJsonObject schema;
    qint64 rows = -1;
    qint64 sizeBytes = 0;
    int fileCount = 0;
    qint64 newBytes = 0; ///< bytes this version added to the store (what was not stored already)
    QString source;      ///< where it was imported from
    QString createdBy;
    QString createdAt;
    QStringList problems; ///< schema["problems"]
    ContentManifest manifest;
    QString ref() const { return QStringLiteral("%1@%2").arg(name).arg(version); }
};

struct DatasetSummary {
    qint64 id = 0;
    QString name;
    int versions = 0;
    DatasetVersion latest; ///< without its manifest
};

class DatasetStore {
public:
    explicit DatasetStore(Workspace &workspace);

    QString errorString() const { return error_; }
    ChunkStore &chunks() { return chunks_; }

    static bool isValidName(const QString &name);
    /// A name for a dataset imported from `path`: its file name without extensions, other characters as '-'.
    static QString nameForPath(const QString &path);
    /// Splits "NAME[@N]" (version 0 = newest); false when malformed.
    static bool parseRef(const QString &ref, QString *name, int *version);

    /// Imports `source` (file or folder) as the next version of `name` (created when new) and builds its local copy
    /// (localCopy()) on the calling thread. When the content equals
    /// the newest version's, no version is added and that version is returned with *unchanged set.
    /// `provenance` is recorded as the version's source instead of the path (e.g. the gallery package it came from).
    std::optional<DatasetVersion> addVersion(const QString &name, const QString &source,
                                             const DataProgress &progress = {}, bool *unchanged = nullptr,
                                             const QString &provenance = {});
    QList<DatasetSummary> list();
    /// The version a reference names, with its manifest; nullopt with errorString() when there is none.
    std::optional<DatasetVersion> resolve(const QString &ref);
    std::optional<DatasetVersion> versionById(qint64 id);
    /// Every version of a dataset, oldest first (without manifests).
    QList<DatasetVersion> versions(const QString &name);
    /// Removes the dataset, its versions, local copies and unshared chunks. Runs keep their config (the reference
    /// stays readable) but lose the link to the version.
    bool remove(const QString &name, qint64 *freedBytes = nullptr);
    /// The local copy of a version (built from the store when missing): the folder holding its files.
    QString localCopy(const DatasetVersion &version);
    /// The path the engine reads for `version` under `root` (a local copy or a staged copy on a cluster): the file
    /// itself for a one-file dataset, else the folder; `relativePath` (data.path of the run) picks a file inside.
    static QString dataPathIn(const QString &root, const DatasetVersion &version, const QString &relativePath);

private:
    bool fail(const QString &message);
    std::optional<DatasetVersion> fromQuery(class QSqlQuery &q, bool withManifest);

    Workspace &ws_;
    ChunkStore chunks_;
    QString error_;
};

} // namespace diamond::app
