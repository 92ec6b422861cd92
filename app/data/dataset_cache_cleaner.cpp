#include "app/data/dataset_cache_cleaner.h"

#include "app/data/dataset_store.h"
#include "remote/command_runner.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("DatasetCacheCleaner", text); }

QString commandError(const remote::CommandResult &r) {
    const QString err = QString::fromUtf8(r.stderrData.left(400)).trimmed();
    return !r.error.isEmpty() ? r.error : err.isEmpty() ? tr("exit status %1").arg(r.exitCode) : err;
}

} // namespace

QJsonObject CacheCleanResult::toJson() const {
    return {{QStringLiteral("removed_versions"), QJsonArray::fromStringList(removedVersions)},
            {QStringLiteral("files_freed"), filesFreed},
            {QStringLiteral("file_bytes_freed"), fileBytesFreed},
            {QStringLiteral("packs_freed"), packsFreed},
            {QStringLiteral("pack_bytes_freed"), packBytesFreed},
            {QStringLiteral("partials_freed"), partialsFreed},
            {QStringLiteral("partial_bytes_freed"), partialBytesFreed},
            {QStringLiteral("bytes_freed"), bytesFreed()},
            {QStringLiteral("versions_left"), versionsLeft},
            {QStringLiteral("bytes_left"), bytesLeft}};
}

bool DatasetCacheCleaner::isVersionEntry(const QString &entry) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[0-9a-f]{16}$"));
    return re.match(entry).hasMatch();
}

QString DatasetCacheCleaner::entryOf(const DatasetVersion &version) {
    return version.name + QLatin1Char('/') + QString::fromLatin1(version.manifestHash.left(16));
}

QSet<QString> DatasetCacheCleaner::registeredEntries(DatasetStore &store) {
    QSet<QString> entries;
    for (const DatasetSummary &s : store.list())
        for (const DatasetVersion &v : store.versions(s.name))
            entries.insert(entryOf(v));
    return entries;
}

QString DatasetCacheCleaner::rootWord() const {
    if (root_ == QLatin1String("~")) return QStringLiteral("\"$HOME\"");
    if (root_.startsWith(QLatin1String("~/"))) return QStringLiteral("\"$HOME\"/") + remote::shellWord(root_.mid(2));
    return remote::shellWord(root_);
}

std::optional<QStringList> DatasetCacheCleaner::stagedVersions(QString *error) {
    const remote::CommandResult r =
        runner_.run(QStringLiteral("cd %1 2>/dev/null || exit 0; find . -mindepth 2 -maxdepth 2 ! -path './.*' "
                                   "\\( -type d -o -name '*.verified' \\) -printf '%P\\n'")
                        .arg(rootWord()));
    if (!r.ok())
        return *error = tr("Cannot list the dataset cache on %1: %2").arg(runner_.describe(), commandError(r)),
               std::nullopt;
    QStringList versions;
    for (const QByteArray &line : r.stdoutData.split('\n')) {
        QString entry = QString::fromUtf8(line.trimmed());
        if (entry.endsWith(QLatin1String(".verified"))) entry.chop(9);
        if (isVersionEntry(entry) && !versions.contains(entry)) versions.append(entry);
    }
    versions.sort();
    return versions;
}

std::optional<CacheCleanResult> DatasetCacheCleaner::clean(const QStringList &versions, QString *error) {
    QString removals;
    for (const QString &v : versions) {
        if (!isVersionEntry(v)) return *error = tr("Not a staged version: \"%1\" (NAME/HASH16).").arg(v), std::nullopt;
        const QString name = v.section(QLatin1Char('/'), 0, 0), hash = v.section(QLatin1Char('/'), 1, 1);
        // Entries are checked above: plain words, safe in single quotes.
        removals += QStringLiteral("if [ -e '%1' ] || [ -e '%1.verified' ]; then echo 'V %1'; fi; "
                                   "rm -rf -- '%1' '%1.verified' '%2/.%3.partial' '%2/.%3.list'; "
                                   "rmdir '%2' 2>/dev/null || true; ")
                        .arg(v, name, hash);
    }
    // Counts go out as "F|K|I COUNT BYTES" lines, then "L VERSIONS BYTES" for what stays.
    const QString script =
        QStringLiteral(
            "cd %1 2>/dev/null || { echo 'L 0 0'; exit 0; }; set -e; %2"
            "if [ -d .files ]; then "
            "find .files -maxdepth 1 -type f -links 1 ! -name '*.*' -printf '%s\\n' -delete "
            "| awk '{n++; s+=$1} END {print \"F\", n+0, s+0}'; "
            "for c in .files/*.chunks; do [ -e \"$c\" ] || continue; [ -e \"${c%.chunks}\" ] && continue; "
            "echo \"F 1 $(stat -c %s \"$c\")\"; rm -f \"$c\"; done; "
            "find .files -maxdepth 1 -name '.in-*' -mmin +60 -printf '%s\\n' -delete "
            "| awk '{n++; s+=$1} END {print \"I\", n+0, s+0}'; fi; "
            "if [ -d .packs ]; then "
            "cat ./*/*/.diamond-packed 2>/dev/null | awk 'length($1) == 64 {print $1}' | sort -u > .packs/.used; "
            "for p in .packs/*.pack; do [ -e \"$p\" ] || continue; s=${p#.packs/}; s=${s%.pack}; "
            "grep -qx \"$s\" .packs/.used && continue; echo \"K 1 $(stat -c %s \"$p\")\"; "
            "rm -f \"$p\" \".packs/$s.members\"; done; rm -f .packs/.used; "
            "find .packs -maxdepth 1 -name '.in-*' -mmin +60 -printf '%s\\n' -delete "
            "| awk '{n++; s+=$1} END {print \"I\", n+0, s+0}'; fi; "
            "echo \"L $(find . -mindepth 2 -maxdepth 2 ! -path './.*' -name '*.verified' | wc -l) "
            "$(du -sb . | cut -f1)\"")
            .arg(rootWord(), removals);
    const remote::CommandResult r = runner_.run(script);
    if (!r.ok())
        return *error = tr("Cannot clean the dataset cache on %1: %2").arg(runner_.describe(), commandError(r)),
               std::nullopt;
    CacheCleanResult result;
    for (const QByteArray &line : r.stdoutData.split('\n')) {
        const QList<QByteArray> parts = line.trimmed().split(' ');
        if (parts.size() == 2 && parts[0] == "V") {
            result.removedVersions.append(QString::fromUtf8(parts[1]));
            continue;
        }
        if (parts.size() != 3) continue;
        const int count = parts[1].toInt();
        const qint64 bytes = parts[2].toLongLong();
        if (parts[0] == "F") {
            result.filesFreed += count;
            result.fileBytesFreed += bytes;
        } else if (parts[0] == "K") {
            result.packsFreed += count;
            result.packBytesFreed += bytes;
        } else if (parts[0] == "I") {
            result.partialsFreed += count;
            result.partialBytesFreed += bytes;
        } else if (parts[0] == "L") {
            result.versionsLeft = count;
            result.bytesLeft = bytes;
        }
    }
    return result;
}

std::optional<CacheCleanResult> DatasetCacheCleaner::clean(const CacheSelection &selection, QString *error,
                                                           bool *notStaged) {
    *notStaged = false;
    const auto staged = stagedVersions(error);
    if (!staged) return std::nullopt;
    QStringList remove;
    for (const QString &v : *staged) {
        const bool picked =
            selection.kind == CacheSelection::Kind::Unregistered ? !selection.registered.contains(v)
            : selection.kind == CacheSelection::Kind::Dataset
                ? (selection.entry.isEmpty() ? v.startsWith(selection.name + QLatin1Char('/')) : v == selection.entry)
                : false;
        if (picked) remove.append(v);
    }
    if (selection.kind == CacheSelection::Kind::Dataset && remove.isEmpty()) {
        *notStaged = true;
        error->clear();
        return std::nullopt;
    }
    return clean(remove, error);
}

} // namespace diamond::app
