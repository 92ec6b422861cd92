// Cleaning a cluster's dataset cache (the layout of dataset_stager.h) through a CommandRunner: staged versions are
// removed by name, and then every cache entry that no staged version still uses is deleted:
//   - a cached file (.files/<sha256>) whose link count is 1 (versions hold hard links to what they use; where the
//     host refused links, versions hold copies and the cache entry only saves re-sending), with its .chunks list;
//   - a pack (.packs/<sha256>.pack) that no version's .diamond-packed index names, with its member list;
//   - partial transfers (.in-*) untouched for an hour.
// A staging in progress on the same cache may lose entries it counted on (it then fails and is run again): clean
// when no staging runs. Blocking: run on a worker thread with a runner of that thread.
#pragma once

#include <QJsonObject>
#include <QSet>
#include <QStringList>

#include <optional>

namespace diamond::remote {
class CommandRunner;
}

namespace diamond::app {

class DatasetStore;
struct DatasetVersion;

struct CacheCleanResult {
    QStringList removedVersions; ///< "NAME/HASH16" folders removed (with their .verified markers)
    int filesFreed = 0;          ///< cached files (and .chunks lists) deleted
    qint64 fileBytesFreed = 0;
    int packsFreed = 0; ///< packs (and member lists) deleted
    qint64 packBytesFreed = 0;
    int partialsFreed = 0; ///< stale partial transfers deleted
    qint64 partialBytesFreed = 0;
    int versionsLeft = 0; ///< staged versions still in the cache
    qint64 bytesLeft = 0; ///< bytes the cache still holds (hard-linked files counted once)
    qint64 bytesFreed() const { return fileBytesFreed + packBytesFreed + partialBytesFreed; }
    QJsonObject toJson() const;
};

/// Which staged versions a clean removes before freeing what no remaining version uses.
struct CacheSelection {
    enum class Kind {
        Nothing,      ///< only free unused entries
        Unregistered, ///< every staged version not in `registered`
        Dataset,      ///< every staged version of `name`, or only `entry` when set
    };
    Kind kind = Kind::Nothing;
    QSet<QString> registered; ///< Unregistered: DatasetCacheCleaner::registeredEntries(), read before cleaning
    QString name;             ///< Dataset
    QString entry;            ///< Dataset: "NAME/HASH16" of one version, or empty for all of them
};

class DatasetCacheCleaner {
public:
    /// `root`: the cache folder on the host (<scratch>/datasets; a leading "~/" is the host's home).
    DatasetCacheCleaner(remote::CommandRunner &runner, const QString &root) : runner_(runner), root_(root) {}

    /// "NAME/HASH16" of every version staged in the cache (a folder or a .verified marker); nullopt with *error when
    /// the host cannot be read. Entries of any other shape are ignored.
    std::optional<QStringList> stagedVersions(QString *error);
    /// Removes the staged copies `versions` ("NAME/HASH16", as stagedVersions() or DatasetStager::remoteDir() name
    /// them; malformed ones are refused with *error), then deletes what no remaining version uses. An empty list
    /// only deletes unused entries.
    std::optional<CacheCleanResult> clean(const QStringList &versions, QString *error);
    /// Lists the staged versions and clean()s those `selection` picks. A Dataset selection that picks nothing fails
    /// with *notStaged set (and *error empty: the caller names what it asked for).
    std::optional<CacheCleanResult> clean(const CacheSelection &selection, QString *error, bool *notStaged);

    /// True when `entry` is "NAME/HASH16" with a dataset name and 16 lower-case hex digits.
    static bool isVersionEntry(const QString &entry);
    /// The entry a version has when staged: "NAME/HASH16".
    static QString entryOf(const DatasetVersion &version);
    /// The entries of every version `store` holds (read on the store's thread, before cleaning).
    static QSet<QString> registeredEntries(DatasetStore &store);

private:
    QString rootWord() const;

    remote::CommandRunner &runner_;
    QString root_;
};

} // namespace diamond::app
