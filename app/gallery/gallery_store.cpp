#include "gallery_store.h"

#include "app/data/dataset_store.h"
#include "app/run/executor.h"
#include "model_package.h"
#include "package_signature.h"
#include "zip_archive.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QVariant>

namespace diamond::app::gallery {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::gallery", text); }

const char *kColumns = "e.id, e.run_id, e.name, e.version, e.title, e.task, e.domain, e.license, e.card_markdown,"
                       " e.tags, e.manifest_json, e.package_path, e.package_sha256, e.consistent, e.key_metric,"
                       " e.created_at, e.updated_at, e.publisher, e.publisher_key,"
                       " (SELECT count(*) FROM gallery_trust t WHERE t.public_key = e.publisher_key AND"
                       " e.publisher_key <> '')";

GalleryEntry fromRow(const QSqlQuery &q) {
    GalleryEntry e;
    e.id = q.value(0).toLongLong();
    e.runId = q.value(1).isNull() ? 0 : q.value(1).toLongLong();
    e.name = q.value(2).toString();
    e.version = q.value(3).toString();
    e.title = q.value(4).toString();
    e.task = q.value(5).toString();
    e.domain = q.value(6).toString();
    e.license = q.value(7).toString();
    e.card = q.value(8).toString();
    for (const QString &t : q.value(9).toString().split(QLatin1Char(','), Qt::SkipEmptyParts))
        e.tags << t.trimmed();
    e.manifest = QJsonDocument::fromJson(q.value(10).toString().toUtf8()).object();
    e.packagePath = q.value(11).toString();
    e.packageSha256 = q.value(12).toString();
    e.consistent = q.value(13).toInt() != 0;
    if (!q.value(14).isNull()) e.keyMetric = q.value(14).toDouble();
    e.keyMetricName =
        e.manifest.value(QStringLiteral("key_metric")).toObject().value(QStringLiteral("name")).toString();
    e.createdAt = q.value(15).toString();
    e.updatedAt = q.value(16).toString();
    e.publisher = q.value(17).toString();
    e.publisherKey = QByteArray::fromBase64(q.value(18).toString().toLatin1());
    e.trusted = q.value(19).toInt() > 0;
    if (!e.publisherKey.isEmpty()) e.fingerprint = keyFingerprint(e.publisherKey);
    return e;
}

} // namespace

QString ftsExpression(const QString &text) {
    static const QRegularExpression word(QStringLiteral("[\\p{L}\\p{N}_]+"));
    QStringList terms;
    auto it = word.globalMatch(text);
    while (it.hasNext() && terms.size() < 16)
        terms << QLatin1Char('"') + it.next().captured(0) + QStringLiteral("\"*");
    return terms.join(QLatin1Char(' '));
}

QJsonObject entryJson(const GalleryEntry &e, bool withManifest) {
    QJsonObject o{{QStringLiteral("id"), e.id},
                  {QStringLiteral("name"), e.name},
                  {QStringLiteral("version"), e.version},
                  {QStringLiteral("title"), e.title},
                  {QStringLiteral("task"), e.task},
                  {QStringLiteral("domain"), e.domain},
                  {QStringLiteral("license"), e.license},
                  {QStringLiteral("tags"), QJsonArray::fromStringList(e.tags)},
                  {QStringLiteral("consistent"), e.consistent},
                  {QStringLiteral("signature"),
                   e.fingerprint.isEmpty() ? QJsonValue()
                                           : QJsonValue(QJsonObject{{QStringLiteral("publisher"), e.publisher},
                                                                    {QStringLiteral("fingerprint"), e.fingerprint},
                                                                    {QStringLiteral("trusted"), e.trusted}})},
                  {QStringLiteral("key_metric"), e.keyMetric ? QJsonValue(*e.keyMetric) : QJsonValue()},
                  {QStringLiteral("key_metric_name"), e.keyMetricName},
                  {QStringLiteral("package_sha256"), e.packageSha256},
                  {QStringLiteral("run_id"), e.runId > 0 ? QJsonValue(e.runId) : QJsonValue()},
                  {QStringLiteral("created_at"), e.createdAt},
                  {QStringLiteral("updated_at"), e.updatedAt}};
    if (withManifest) {
        o.insert(QStringLiteral("card"), e.card);
        o.insert(QStringLiteral("manifest"), e.manifest);
    }
    return o;
}

GalleryStore::GalleryStore(Workspace &workspace) : ws_(workspace) {}

bool GalleryStore::fail(const QString &code, const QString &message) {
    code_ = code;
    error_ = message;
    return false;
}

QString GalleryStore::packagesDirectory() const {
    const QString dir = QDir(ws_.path()).filePath(QStringLiteral("gallery/packages"));
    QDir().mkpath(dir);
    return dir;
}

QString GalleryStore::packageFile(const GalleryEntry &entry) const {
    // Stored paths are written by this class only, but a database can be edited by hand: never follow one
    // out of the packages folder.
    const QString root = QFileInfo(packagesDirectory()).canonicalFilePath();
    const QFileInfo f(QDir(ws_.path()).filePath(entry.packagePath));
    const QString canonical = f.canonicalFilePath();
    if (canonical.isEmpty() || !canonical.startsWith(root + QLatin1Char('/')) || !f.isFile()) return {};
    return canonical;
}

QString GalleryStore::enginePath() const { return LocalExecutor::defaultEnginePath(); }

std::optional<GalleryEntry> GalleryStore::entry(qint64 id, bool withThumbnail) {
    QSqlQuery q(ws_.database());
    q.prepare(
        QStringLiteral("SELECT %1, e.thumbnail FROM gallery_entries e WHERE e.id = ?").arg(QLatin1String(kColumns)));
    q.addBindValue(id);
    if (!q.exec()) return fail(QStringLiteral("database"), q.lastError().text()), std::nullopt;
    if (!q.next()) return fail(QStringLiteral("not_found"), tr("no gallery entry %1").arg(id)), std::nullopt;
    GalleryEntry e = fromRow(q);
    if (withThumbnail) e.thumbnail = q.value(20).toByteArray();
    return e;
}

int GalleryStore::count() {
    QSqlQuery q(ws_.database());
    return q.exec(QStringLiteral("SELECT count(*) FROM gallery_entries")) && q.next() ? q.value(0).toInt() : 0;
}

QList<GalleryEntry> GalleryStore::search(const GalleryQuery &query, int *total) {
    QList<GalleryEntry> out;
    const QString match = ftsExpression(query.text);
    QString from = QStringLiteral(" FROM gallery_entries e");
    QStringList where;
    QVariantList binds;
    if (!match.isEmpty()) {
        from += QStringLiteral(" JOIN gallery_search s ON s.rowid = e.id");
        where << QStringLiteral("gallery_search MATCH ?");
        binds << match;
    }
    const std::pair<const char *, QString> filters[] = {
        {"e.task", query.task}, {"e.domain", query.domain}, {"e.license", query.license}};
    for (const auto &[column, value] : filters)
        if (!value.isEmpty()) {
            where << QStringLiteral("%1 = ? COLLATE NOCASE").arg(QLatin1String(column));
            binds << value;
        }
    if (query.consistentOnly) where << QStringLiteral("e.consistent = 1");
    const QString whereSql =
        where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where.join(QStringLiteral(" AND "));
    const QString dir = query.ascending ? QStringLiteral("ASC") : QStringLiteral("DESC");
    QString order;
    switch (query.sort) {
    case GalleryQuery::Sort::Relevance:
        order = match.isEmpty()
                    ? QStringLiteral("e.id DESC")
                    : QStringLiteral("bm25(gallery_search) %1").arg(QLatin1String(query.ascending ? "DESC" : "ASC"));
        break;
    case GalleryQuery::Sort::Metric:
        order = QStringLiteral("e.key_metric IS NULL, e.key_metric %1, e.id").arg(dir);
        break;
    case GalleryQuery::Sort::Name:
        order = QStringLiteral("e.name %1, e.id").arg(QLatin1String(query.ascending ? "ASC" : "DESC"));
        break;
    case GalleryQuery::Sort::Date: order = QStringLiteral("e.created_at %1, e.id %1").arg(dir); break;
    }
    QSqlQuery q(ws_.database());
    if (total) {
        // Text only: count in the index alone (the join costs several times more on large hit sets).
        const bool textOnly = !match.isEmpty() && binds.size() == 1 && !query.consistentOnly;
        q.prepare(textOnly ? QStringLiteral("SELECT count(*) FROM gallery_search WHERE gallery_search MATCH ?")
                           : QStringLiteral("SELECT count(*)") + from + whereSql);
        for (const QVariant &b : binds)
            q.addBindValue(b);
        *total = q.exec() && q.next() ? q.value(0).toInt() : 0;
    }
    q.prepare(QStringLiteral("SELECT %1").arg(QLatin1String(kColumns)) + from + whereSql +
              QStringLiteral(" ORDER BY ") + order + QStringLiteral(" LIMIT ? OFFSET ?"));
    for (const QVariant &b : binds)
        q.addBindValue(b);
    q.addBindValue(qBound(1, query.limit, 1000));
    q.addBindValue(qMax(0, query.offset));
    if (!q.exec()) {
        fail(QStringLiteral("database"), q.lastError().text());
        return out;
    }
    while (q.next())
        out.append(fromRow(q));
    return out;
}

std::optional<qint64> GalleryStore::insert(const GalleryEntry &e) {
    WriteTransaction tx(ws_.database());
    if (!tx.isActive()) return fail(QStringLiteral("database"), tx.errorString()), std::nullopt;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral(
        "INSERT INTO gallery_entries (run_id, title, description, tags, metrics_json, created_at, name, version,"
        " task, domain, license, card_markdown, manifest_json, package_path, package_sha256, consistent, key_metric,"
        " thumbnail, updated_at, publisher, publisher_key) VALUES (?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        " ?, ?, ?, ?)"));
    const QString now = databaseTimestamp();
    // NOT NULL text columns: a missing manifest field is stored as "", never NULL.
    auto text = [](const QString &v) { return v.isNull() ? QStringLiteral("") : v; };
    q.addBindValue(e.runId > 0 ? QVariant(e.runId) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(text(e.title));
    q.addBindValue(text(e.tags.join(QStringLiteral(", "))));
    q.addBindValue(QString::fromUtf8(
        QJsonDocument(e.manifest.value(QStringLiteral("metrics")).toObject()).toJson(QJsonDocument::Compact)));
    q.addBindValue(e.createdAt.isEmpty() ? now : e.createdAt);
    q.addBindValue(text(e.name));
    q.addBindValue(text(e.version));
    q.addBindValue(text(e.task));
    q.addBindValue(text(e.domain));
    q.addBindValue(text(e.license));
    q.addBindValue(text(e.card));
    q.addBindValue(QString::fromUtf8(QJsonDocument(e.manifest).toJson(QJsonDocument::Compact)));
    q.addBindValue(text(e.packagePath));
    q.addBindValue(text(e.packageSha256));
    q.addBindValue(e.consistent ? 1 : 0);
    q.addBindValue(e.keyMetric ? QVariant(*e.keyMetric) : QVariant(QMetaType(QMetaType::Double)));
    q.addBindValue(e.thumbnail.isNull() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(e.thumbnail));
    q.addBindValue(now);
    q.addBindValue(text(e.publisher));
    q.addBindValue(QString::fromLatin1(e.publisherKey.toBase64()));
    if (!q.exec()) return fail(QStringLiteral("database"), q.lastError().text()), std::nullopt;
    const qint64 id = q.lastInsertId().toLongLong();
    QSqlQuery s(ws_.database());
    s.prepare(QStringLiteral("INSERT INTO gallery_search (rowid, name, title, card, tags) VALUES (?, ?, ?, ?, ?)"));
    s.addBindValue(id);
    s.addBindValue(e.name);
    s.addBindValue(e.title);
    s.addBindValue(e.card);
    s.addBindValue(e.tags.join(QLatin1Char(' ')));
    if (!s.exec()) return fail(QStringLiteral("database"), s.lastError().text()), std::nullopt;
    if (!tx.commit()) return fail(QStringLiteral("database"), tx.errorString()), std::nullopt;
    return id;
}

bool GalleryStore::remove(qint64 id) {
    const auto e = entry(id);
    if (!e) return false;
    const QString file = packageFile(*e);
    WriteTransaction tx(ws_.database());
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("DELETE FROM gallery_search WHERE rowid = ?"));
    q.addBindValue(id);
    if (!q.exec()) return fail(QStringLiteral("database"), q.lastError().text());
    q.prepare(QStringLiteral("DELETE FROM gallery_entries WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec()) return fail(QStringLiteral("database"), q.lastError().text());
    if (!tx.commit()) return fail(QStringLiteral("database"), tx.errorString());
    QSqlQuery other(ws_.database());
    other.prepare(QStringLiteral("SELECT 1 FROM gallery_entries WHERE package_sha256 = ?"));
    other.addBindValue(e->packageSha256);
    if (!file.isEmpty() && other.exec() && !other.next()) QFile::remove(file);
    return true;
}

ImportResult GalleryStore::importPackage(const QString &file, qint64 runId) {
    ImportResult result;
    code_.clear();
    error_.clear();
    const QString tmpRoot = QDir(ws_.path()).filePath(QStringLiteral("gallery/tmp"));
    QDir().mkpath(tmpRoot);
    QTemporaryDir extracted(QDir(tmpRoot).filePath(QStringLiteral("import-XXXXXX")));
    if (!extracted.isValid())
        return fail(QStringLiteral("io"), tr("cannot create a folder in %1").arg(tmpRoot)), result;
    const PackageCheck check = checkPackage(file, extracted.path());
    if (!check.ok) return fail(check.code, check.message), result;
    // The spec must be one this version understands (it is what "Open in designer" loads).
    QFile specFile(QDir(extracted.path()).filePath(QLatin1String(kSpecFile)));
    const QByteArray specText = specFile.open(QIODevice::ReadOnly) ? specFile.readAll() : QByteArray();
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specText.constData(), specText.size()));
    std::vector<spec::Diagnostic> problems = parsed.diagnostics;
    if (parsed.ok()) {
        const spec::Analysis analysis = spec::analyze(parsed.spec);
        problems.insert(problems.end(), analysis.diagnostics.begin(), analysis.diagnostics.end());
    }
    for (const spec::Diagnostic &d : problems)
        if (d.severity == spec::Severity::Error)
            return fail(QStringLiteral("package_invalid_spec"),
                        tr("%1: spec.json is not a valid network spec: %2")
                            .arg(file, QString::fromStdString(spec::formatDiagnostic(d)))),
                   result;

    QSqlQuery existing(ws_.database());
    existing.prepare(QStringLiteral("SELECT id FROM gallery_entries WHERE package_sha256 = ? ORDER BY id LIMIT 1"));
    existing.addBindValue(check.packageSha256);
    if (existing.exec() && existing.next()) {
        result.entry = entry(existing.value(0).toLongLong());
        result.alreadyPresent = true;
        if (result.entry)
            result.verifyMessage = result.entry->consistent
                                       ? tr("already in the gallery (entry %1), consistent").arg(result.entry->id)
                                       : tr("already in the gallery (entry %1), not consistent").arg(result.entry->id);
        return result;
    }

    const QJsonObject m = check.manifest;
    const QJsonObject tolerance =
        m.value(QStringLiteral("test")).toObject().value(QStringLiteral("tolerance")).toObject();
    // A package may tighten the tolerance but never loosen it beyond the defaults' 100-fold.
    const double absTol =
        qBound(0.0, tolerance.value(QStringLiteral("abs")).toDouble(kDefaultAbsTolerance), 100 * kDefaultAbsTolerance);
    const double relTol =
        qBound(0.0, tolerance.value(QStringLiteral("rel")).toDouble(kDefaultRelTolerance), 100 * kDefaultRelTolerance);
    const OutputCheck outputs = verifyOutputs(extracted.path(), enginePath(), absTol, relTol);
    result.verifyMessage = outputs.message;
    const QString datasetNote = registerShippedDataset(extracted.path(), m);
    if (!datasetNote.isEmpty()) result.verifyMessage += QStringLiteral("; ") + datasetNote;

    const QString relative = QStringLiteral("gallery/packages/%1.diamond").arg(check.packageSha256);
    const QString target = QDir(ws_.path()).filePath(relative);
    packagesDirectory();
    if (!QFileInfo::exists(target)) {
        const QString part = target + QStringLiteral(".part");
        QFile::remove(part);
        if (!QFile::copy(file, part) || !QFile::rename(part, target))
            return fail(QStringLiteral("io"), tr("cannot copy %1 into the gallery (%2)").arg(file, target)), result;
    }
    GalleryEntry e;
    e.runId = runId;
    e.name = m.value(QStringLiteral("name")).toString();
    e.version = m.value(QStringLiteral("version")).toString();
    e.title = m.value(QStringLiteral("title")).toString(e.name);
    e.task = m.value(QStringLiteral("task")).toString();
    e.domain = m.value(QStringLiteral("domain")).toString();
    e.license = m.value(QStringLiteral("license")).toString();
    e.card = m.value(QStringLiteral("card")).toString();
    for (const QJsonValue &t : m.value(QStringLiteral("tags")).toArray())
        if (!t.toString().trimmed().isEmpty()) e.tags << t.toString().trimmed().remove(QLatin1Char(','));
    e.manifest = m;
    e.packagePath = relative;
    e.packageSha256 = check.packageSha256;
    e.consistent = outputs.consistent;
    if (check.signature.valid) {
        e.publisher = check.signature.publisher;
        e.publisherKey = check.signature.publicKey;
    }
    const QJsonValue key = m.value(QStringLiteral("key_metric")).toObject().value(QStringLiteral("value"));
    if (key.isDouble()) e.keyMetric = key.toDouble();
    QFile thumb(QDir(extracted.path()).filePath(QLatin1String(kThumbnailFile)));
    if (thumb.open(QIODevice::ReadOnly)) e.thumbnail = thumb.readAll();
    const auto id = insert(e);
    if (!id) return result;
    result.entry = entry(*id);
    return result;
}

QString GalleryStore::registerShippedDataset(const QString &extractedDir, const QJsonObject &manifest) {
    const QJsonObject registered =
        manifest.value(QStringLiteral("dataset")).toObject().value(QStringLiteral("registered")).toObject();
    if (!registered.value(QStringLiteral("shipped")).toBool()) return {};
    QString name = registered.value(QStringLiteral("name")).toString();
    QString error;
    const auto content = ContentManifest::fromJson(registered.value(QStringLiteral("manifest")).toObject(), &error);
    if (!DatasetStore::isValidName(name)) error = tr("\"%1\" is not a dataset name").arg(name.left(80));
    if (!content) return tr("its dataset was not registered: %1").arg(error);
    const QByteArray hash = content->hash();
    if (hash != registered.value(QStringLiteral("manifest_sha256")).toString().toLatin1())
        return tr("its dataset was not registered: the manifest does not match its SHA-256");
    if (content->totalBytes() > kShipDatasetBytes || content->files.size() > kShipDatasetChunks)
        return tr("its dataset was not registered: larger than a package may ship");
    DatasetStore datasets(ws_);
    const QList<DatasetVersion> existing = datasets.versions(name);
    for (const DatasetVersion &v : existing)
        if (v.manifestHash == hash) return tr("its dataset is registered already as %1").arg(v.ref());
    // Another dataset of that name stays untouched: this one is registered under a name of its own.
    if (!existing.isEmpty()) name = name.left(55) + QLatin1Char('-') + QString::fromLatin1(hash.left(8));
    const QString tmpRoot = QDir(ws_.path()).filePath(QStringLiteral("gallery/tmp"));
    QTemporaryDir folder(QDir(tmpRoot).filePath(QStringLiteral("dataset-XXXXXX")));
    if (!folder.isValid()) return tr("its dataset was not registered: cannot create a folder in %1").arg(tmpRoot);
    for (const ManifestFile &f : content->files) {
        QFile in(QDir(extractedDir).filePath(QStringLiteral("dataset-") + QString::fromLatin1(f.chunks.value(0))));
        const QByteArray data =
            f.chunks.size() == 1 && in.open(QIODevice::ReadOnly) ? in.read(kShipDatasetBytes + 1) : QByteArray();
        if (data.size() != f.size || Sha256::hex(data) != f.sha256)
            return tr("its dataset was not registered: the package lacks the content of %1").arg(f.path);
        const QString target = folder.filePath(QStringLiteral("data/") + f.path);
        QDir().mkpath(QFileInfo(target).absolutePath());
        QFile out(target);
        if (!out.open(QIODevice::WriteOnly) || out.write(data) != data.size())
            return tr("its dataset was not registered: cannot write %1").arg(target);
    }
    const QString root = folder.filePath(QStringLiteral("data"));
    const QString source = content->files.size() == 1 ? root + QLatin1Char('/') + content->files.first().path : root;
    const auto v = datasets.addVersion(name, source, {}, nullptr,
                                       tr("gallery package %1 %2")
                                           .arg(manifest.value(QStringLiteral("name")).toString().left(100),
                                                manifest.value(QStringLiteral("version")).toString().left(40)));
    if (!v) return tr("its dataset was not registered: %1").arg(datasets.errorString());
    return tr("its dataset is registered as %1").arg(v->ref());
}

bool GalleryStore::trust(const QByteArray &publicKey, const QString &name) {
    if (publicKey.size() != 32) return fail(QStringLiteral("bad_request"), tr("not an Ed25519 public key"));
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO gallery_trust (fingerprint, public_key, name, added_at)"
                             " VALUES (?, ?, ?, ?)"));
    q.addBindValue(keyFingerprint(publicKey));
    q.addBindValue(QString::fromLatin1(publicKey.toBase64()));
    q.addBindValue(name.trimmed().isEmpty() ? QStringLiteral("?") : name.trimmed());
    q.addBindValue(databaseTimestamp());
    return q.exec() || fail(QStringLiteral("database"), q.lastError().text());
}

bool GalleryStore::untrust(const QString &fingerprint) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("DELETE FROM gallery_trust WHERE fingerprint = ?"));
    q.addBindValue(fingerprint);
    if (!q.exec()) return fail(QStringLiteral("database"), q.lastError().text());
    return q.numRowsAffected() > 0 || fail(QStringLiteral("not_found"), tr("no trusted key %1").arg(fingerprint));
}

QList<TrustedKey> GalleryStore::trustedKeys() {
    QList<TrustedKey> out;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT fingerprint, public_key, name, added_at FROM gallery_trust ORDER BY name"))) {
        fail(QStringLiteral("database"), q.lastError().text());
        return out;
    }
    while (q.next())
        out.append({q.value(0).toString(), QByteArray::fromBase64(q.value(1).toString().toLatin1()),
                    q.value(2).toString(), q.value(3).toString()});
    return out;
}

} // namespace diamond::app::gallery
