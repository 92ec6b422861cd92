#include "app/data/dataset_store.h"

#include "app/data/dataset_inspector.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::DatasetStore", text); }

const QString kColumns = QStringLiteral(
    "v.id, v.dataset_id, d.name, v.version, v.manifest_hash, v.format, v.schema_json, v.row_count, v.size_bytes,"
    " v.file_count, v.new_bytes, v.source, v.created_by, v.created_at, v.manifest_json");

} // namespace

DatasetStore::DatasetStore(Workspace &workspace)
    : ws_(workspace), chunks_(QDir(workspace.path()).filePath(QStringLiteral("datasets/.chunks"))) {}

bool DatasetStore::fail(const QString &message) {
    error_ = message;
    return false;
}

bool DatasetStore::isValidName(const QString &name) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    return re.match(name).hasMatch();
}

QString DatasetStore::nameForPath(const QString &path) {
    QString base = QFileInfo(QFileInfo(path).absoluteFilePath()).fileName();
    const qsizetype dot = base.indexOf(QLatin1Char('.'), 1);
    if (dot > 0) base = base.left(dot);
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("-"));
    if (base.isEmpty() || !base.at(0).isLetterOrNumber()) base.prepend(QLatin1Char('d'));
    return base.left(64);
}

bool DatasetStore::parseRef(const QString &ref, QString *name, int *version) {
    const qsizetype at = ref.indexOf(QLatin1Char('@'));
    *name = at < 0 ? ref : ref.left(at);
    *version = 0;
    if (at >= 0) {
        bool ok = false;
        *version = ref.mid(at + 1).toInt(&ok);
        if (!ok || *version < 1) return false;
    }
    return isValidName(*name);
}

std::optional<DatasetVersion> DatasetStore::fromQuery(QSqlQuery &q, bool withManifest) {
    DatasetVersion v;
    v.id = q.value(0).toLongLong();
    v.datasetId = q.value(1).toLongLong();
    v.name = q.value(2).toString();
    v.version = q.value(3).toInt();
    v.manifestHash = q.value(4).toString().toLatin1();
    v.format = q.value(5).toString();
    v.schema = QJsonDocument::fromJson(q.value(6).toString().toUtf8()).object();
    v.rows = q.value(7).toLongLong();
    v.sizeBytes = q.value(8).toLongLong();
    v.fileCount = q.value(9).toInt();
    v.newBytes = q.value(10).toLongLong();
    v.source = q.value(11).toString();
    v.createdBy = q.value(12).toString();
    v.createdAt = q.value(13).toString();
    for (const QJsonValue &p : v.schema.value(QStringLiteral("problems")).toArray())
        v.problems << p.toString();
    if (withManifest) {
        QString error;
        const auto m =
            ContentManifest::fromJson(QJsonDocument::fromJson(q.value(14).toString().toUtf8()).object(), &error);
        if (!m) return fail(tr("The stored manifest of %1 is unreadable: %2").arg(v.ref(), error)), std::nullopt;
        v.manifest = *m;
    }
    return v;
}

std::optional<DatasetVersion> DatasetStore::addVersion(const QString &name, const QString &source,
                                                       const DataProgress &progress, bool *unchanged,
                                                       const QString &provenance) {
    error_.clear();
    if (unchanged) *unchanged = false;
    if (!isValidName(name))
        return fail(tr("\"%1\" is not a valid dataset name (letters, digits, '.', '_' and '-', at most 64, starting "
                       "with a letter or digit).")
                        .arg(name)),
               std::nullopt;
    QString error;
    const auto imported = chunks_.importPath(source, kDefaultChunkBytes, progress, &error);
    if (!imported) return fail(error), std::nullopt;
    const QFileInfo info(source);
    const QString root = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
    DatasetDescription description = describeDataset(root, imported->manifest);
    QJsonObject schema = description.schema;
    if (!description.problems.isEmpty())
        schema.insert(QStringLiteral("problems"), QJsonArray::fromStringList(description.problems));
    const QByteArray hash = imported->manifest.hash();

    QSqlDatabase db = ws_.database();
    WriteTransaction tx(db);
    if (!tx.isActive()) return fail(tx.errorString()), std::nullopt;
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id FROM datasets WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    qint64 datasetId = 0;
    const QString now = databaseTimestamp();
    if (q.next()) {
        datasetId = q.value(0).toLongLong();
    } else {
        q.prepare(QStringLiteral("INSERT INTO datasets (name, path, format, size_bytes, content_hash, created_at)"
                                 " VALUES (?, ?, ?, ?, ?, ?)"));
        q.addBindValue(name);
        q.addBindValue(info.absoluteFilePath());
        q.addBindValue(description.format);
        q.addBindValue(imported->manifest.totalBytes());
        q.addBindValue(QString::fromLatin1(hash));
        q.addBindValue(now);
        if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
        datasetId = q.lastInsertId().toLongLong();
    }
    q.prepare(QStringLiteral("SELECT ") + kColumns +
              QStringLiteral(" FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE v.dataset_id = ?"
                             " ORDER BY v.version DESC LIMIT 1"));
    q.addBindValue(datasetId);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    int next = 1;
    if (q.next()) {
        auto latest = fromQuery(q, true);
        if (latest && latest->manifestHash == hash) {
            if (unchanged) *unchanged = true;
            return latest;
        }
        next = q.value(3).toInt() + 1;
    }
    q.prepare(QStringLiteral(
        "INSERT INTO dataset_versions (dataset_id, version, manifest_json, manifest_hash, format, schema_json,"
        " row_count, size_bytes, file_count, new_bytes, source, created_by, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(datasetId);
    q.addBindValue(next);
    q.addBindValue(QString::fromUtf8(QJsonDocument(imported->manifest.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(QString::fromLatin1(hash));
    q.addBindValue(description.format);
    q.addBindValue(QString::fromUtf8(QJsonDocument(schema).toJson(QJsonDocument::Compact)));
    q.addBindValue(description.rows);
    q.addBindValue(imported->manifest.totalBytes());
    q.addBindValue(int(imported->manifest.files.size()));
    q.addBindValue(imported->newBytes);
    q.addBindValue(provenance.isEmpty() ? info.absoluteFilePath() : provenance);
    QString user = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
    q.addBindValue(user.isEmpty() ? QStringLiteral("unknown") : user);
    q.addBindValue(now);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    q.prepare(
        QStringLiteral("UPDATE datasets SET path = ?, format = ?, size_bytes = ?, content_hash = ? WHERE id = ?"));
    q.addBindValue(info.absoluteFilePath());
    q.addBindValue(description.format);
    q.addBindValue(imported->manifest.totalBytes());
    q.addBindValue(QString::fromLatin1(hash));
    q.addBindValue(datasetId);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    if (!tx.commit()) return fail(tx.errorString()), std::nullopt;
    auto added = resolve(QStringLiteral("%1@%2").arg(name).arg(next));
    // The local copy is built here, on the importing thread, so that previews, plans and runs started later on the
    // GUI thread find it ready instead of concatenating large files there. Not fatal: localCopy() builds it again.
    if (added && localCopy(*added).isEmpty()) error_.clear();
    return added;
}

QList<DatasetSummary> DatasetStore::list() {
    error_.clear();
    QList<DatasetSummary> out;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT ") + kColumns +
                QStringLiteral(", (SELECT COUNT(*) FROM dataset_versions c WHERE c.dataset_id = d.id)"
                               " FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id"
                               " WHERE v.version = (SELECT MAX(version) FROM dataset_versions m"
                               " WHERE m.dataset_id = d.id) ORDER BY d.name"))) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next()) {
        DatasetSummary s;
        if (auto v = fromQuery(q, false)) s.latest = *v;
        s.id = s.latest.datasetId;
        s.name = s.latest.name;
        s.versions = q.value(15).toInt();
        out.append(s);
    }
    return out;
}

std::optional<DatasetVersion> DatasetStore::resolve(const QString &ref) {
    error_.clear();
    QString name;
    int version = 0;
    if (!parseRef(ref, &name, &version))
        return fail(tr("\"%1\" is not a dataset reference (NAME or NAME@VERSION).").arg(ref)), std::nullopt;
    QSqlQuery q(ws_.database());
    q.prepare(
        QStringLiteral("SELECT ") + kColumns +
        QStringLiteral(" FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE d.name = ?") +
        (version > 0 ? QStringLiteral(" AND v.version = ?") : QStringLiteral(" ORDER BY v.version DESC LIMIT 1")));
    q.addBindValue(name);
    if (version > 0) q.addBindValue(version);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    if (!q.next()) {
        const QList<DatasetVersion> all = versions(name);
        if (all.isEmpty()) return fail(tr("There is no dataset \"%1\" in this workspace.").arg(name)), std::nullopt;
        return fail(tr("The dataset \"%1\" has no version %2 (newest: %3).")
                        .arg(name)
                        .arg(version)
                        .arg(all.last().version)),
               std::nullopt;
    }
    return fromQuery(q, true);
}

std::optional<DatasetVersion> DatasetStore::versionById(qint64 id) {
    error_.clear();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT ") + kColumns +
              QStringLiteral(" FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE v.id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next()) return fail(tr("There is no dataset version %1.").arg(id)), std::nullopt;
    return fromQuery(q, true);
}

QList<DatasetVersion> DatasetStore::versions(const QString &name) {
    QList<DatasetVersion> out;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT ") + kColumns +
              QStringLiteral(" FROM dataset_versions v JOIN datasets d ON d.id = v.dataset_id WHERE d.name = ?"
                             " ORDER BY v.version"));
    q.addBindValue(name);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        if (auto v = fromQuery(q, false)) out.append(*v);
    return out;
}

bool DatasetStore::remove(const QString &name, qint64 *freedBytes) {
    error_.clear();
    {
        QSqlDatabase db = ws_.database();
        WriteTransaction tx(db);
        if (!tx.isActive()) return fail(tx.errorString());
        QSqlQuery q(db);
        q.prepare(QStringLiteral("DELETE FROM datasets WHERE name = ?"));
        q.addBindValue(name);
        if (!q.exec()) return fail(q.lastError().text());
        if (q.numRowsAffected() == 0) return fail(tr("There is no dataset \"%1\" in this workspace.").arg(name));
        if (!tx.commit()) return fail(tx.errorString());
    }
    QDir(QDir(ws_.path()).filePath(QStringLiteral("datasets/") + name)).removeRecursively();
    QSet<QByteArray> keep;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT manifest_json FROM dataset_versions"))) return fail(q.lastError().text());
    while (q.next()) {
        QString error;
        const auto m =
            ContentManifest::fromJson(QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object(), &error);
        if (!m) return fail(tr("Kept every stored chunk: a stored manifest is unreadable (%1).").arg(error));
        for (const ManifestFile &f : m->files)
            for (const QByteArray &c : f.chunks)
                keep.insert(c);
    }
    const qint64 freed = chunks_.removeUnreferenced(keep);
    if (freedBytes) *freedBytes = freed;
    return true;
}

QString DatasetStore::localCopy(const DatasetVersion &version) {
    error_.clear();
    const QString folder =
        QDir(ws_.path()).filePath(QStringLiteral("datasets/%1/v%2").arg(version.name).arg(version.version));
    const QString marker = folder + QStringLiteral(".complete");
    QFile done(marker);
    if (done.open(QIODevice::ReadOnly) && done.readAll().trimmed() == version.manifestHash) return folder;
    done.close();
    QString error;
    if (!chunks_.materialize(version.manifest, folder, &error)) return fail(error), QString();
    if (!done.open(QIODevice::WriteOnly) || done.write(version.manifestHash + '\n') < 0)
        return fail(tr("Cannot write %1.").arg(marker)), QString();
    return folder;
}

QString DatasetStore::dataPathIn(const QString &root, const DatasetVersion &version, const QString &relativePath) {
    if (!relativePath.isEmpty()) return root + QLatin1Char('/') + relativePath;
    if (version.manifest.files.size() == 1) return root + QLatin1Char('/') + version.manifest.files.first().path;
    return root;
}

} // namespace diamond::app
