#include "app/run/run_store.h"

#include "app/data/dataset_inspector.h"

#include "app/data/dataset_store.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <sqlite3.h>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::RunStore", text); }

struct StateName {
    RunState state;
    const char *name;
};

constexpr StateName kStateNames[] = {
    {RunState::Draft, "draft"},         {RunState::Queued, "queued"},   {RunState::Running, "running"},
    {RunState::Finished, "finished"},   {RunState::Failed, "failed"},   {RunState::Cancelled, "cancelled"},
    {RunState::Preempted, "preempted"}, {RunState::Resumed, "resumed"},
};

QJsonObject parseObject(const QVariant &v) { return QJsonDocument::fromJson(v.toByteArray()).object(); }

QVariant nullableText(const QString &s) { return s.isEmpty() ? QVariant() : QVariant(s); }

bool writeFile(const QString &path, const QByteArray &content) {
    QSaveFile f(path); // complete or not at all
    return f.open(QIODevice::WriteOnly) && f.write(content) == content.size() && f.commit();
}

constexpr const char *kRunColumns = "id, project_id, architecture_version_id, name, config_json, target, state, "
                                    "created_at, started_at, finished_at, exit_code, exit_message, "
                                    "final_metrics_json, weights_hash, execution_json, dataset_version_id, "
                                    "(SELECT d.name || '@' || v.version FROM dataset_versions v JOIN datasets d"
                                    " ON d.id = v.dataset_id WHERE v.id = runs.dataset_version_id), owner";

Run runFromQuery(const QSqlQuery &q) {
    Run r;
    r.id = q.value(0).toLongLong();
    r.projectId = q.value(1).toLongLong();
    r.architectureVersionId = q.value(2).toLongLong();
    r.name = q.value(3).toString();
    r.config = parseObject(q.value(4));
    r.target = q.value(5).toString();
    r.state = runStateFromName(q.value(6).toString()).value_or(RunState::Draft);
    r.createdAt = q.value(7).toString();
    r.startedAt = q.value(8).toString();
    r.finishedAt = q.value(9).toString();
    if (!q.value(10).isNull()) r.exitCode = q.value(10).toInt();
    r.exitMessage = q.value(11).toString();
    r.finalMetrics = parseObject(q.value(12));
    r.weightsHash = q.value(13).toString();
    r.execution = parseObject(q.value(14));
    r.datasetVersionId = q.value(15).toLongLong();
    r.datasetRef = q.value(16).toString();
    r.owner = q.value(17).toString();
    return r;
}

} // namespace

QString runStateName(RunState state) {
    for (const auto &s : kStateNames)
        if (s.state == state) return QString::fromLatin1(s.name);
    return {};
}

std::optional<RunState> runStateFromName(const QString &name) {
    for (const auto &s : kStateNames)
        if (name == QLatin1String(s.name)) return s.state;
    return std::nullopt;
}

bool isRunTransitionAllowed(RunState from, RunState to) {
    using S = RunState;
    switch (from) {
    case S::Draft: return to == S::Queued || to == S::Cancelled;
    case S::Queued: return to == S::Running || to == S::Failed || to == S::Cancelled;
    case S::Running: return to == S::Finished || to == S::Failed || to == S::Cancelled || to == S::Preempted;
    case S::Preempted:
    case S::Resumed:
        return to == (from == S::Preempted ? S::Resumed : S::Running) || to == S::Failed || to == S::Cancelled;
    case S::Failed:
    case S::Cancelled: return to == S::Resumed;
    case S::Finished: return false;
    }
    return false;
}

RunState stateForExitCode(int exitCode) {
    if (exitCode == 0) return RunState::Finished;
    if (exitCode == kPreemptedExitCode) return RunState::Preempted;
    return RunState::Failed;
}

RunStore::RunStore(Workspace &workspace) : ws_(workspace) {}

bool RunStore::fail(const QString &message) {
    error_ = message;
    return false;
}

// --- projects ---

std::optional<Project> RunStore::createProject(const QString &name, const QString &description) {
    error_.clear();
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty()) return fail(tr("A project needs a name.")), std::nullopt;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT INTO projects (name, description, created_at) VALUES (?, ?, ?)"));
    q.addBindValue(trimmed);
    q.addBindValue(description.isNull() ? QStringLiteral("") : description); // NOT NULL column
    q.addBindValue(databaseTimestamp());
    if (!q.exec()) {
        if (projectByName(trimmed))
            return fail(tr("A project named \"%1\" already exists.").arg(trimmed)), std::nullopt;
        return fail(tr("Cannot create project \"%1\": %2").arg(trimmed, q.lastError().text())), std::nullopt;
    }
    return projectByName(trimmed);
}

QList<Project> RunStore::projects() {
    QList<Project> out;
    QSqlQuery q(db());
    if (!q.exec(QStringLiteral("SELECT p.id, p.name, p.description, p.created_at,"
                               " (SELECT COUNT(*) FROM runs r WHERE r.project_id = p.id)"
                               " FROM projects p ORDER BY p.name COLLATE NOCASE, p.id"))) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                    q.value(4).toInt()});
    return out;
}

std::optional<Project> RunStore::projectByName(const QString &name) {
    const auto all = projects();
    for (const Project &p : all)
        if (p.name == name.trimmed()) return p;
    return std::nullopt;
}

// --- architectures ---

QByteArray RunStore::canonicalSpecJson(const QJsonObject &spec) {
    return QJsonDocument(spec).toJson(QJsonDocument::Compact);
}

QString RunStore::specContentHash(const QJsonObject &spec) {
    return QString::fromLatin1(QCryptographicHash::hash(canonicalSpecJson(spec), QCryptographicHash::Sha256).toHex());
}

std::optional<qint64> RunStore::ensureArchitecture(qint64 projectId, const QString &name) {
    error_.clear();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO architectures (project_id, name, created_at) VALUES (?, ?, ?)"));
    q.addBindValue(projectId);
    q.addBindValue(name);
    q.addBindValue(databaseTimestamp());
    if (!q.exec())
        return fail(tr("Cannot create architecture \"%1\": %2").arg(name, q.lastError().text())), std::nullopt;
    q.prepare(QStringLiteral("SELECT id FROM architectures WHERE project_id = ? AND name = ?"));
    q.addBindValue(projectId);
    q.addBindValue(name);
    if (!q.exec() || !q.next()) return fail(tr("Cannot find architecture \"%1\".").arg(name)), std::nullopt;
    return q.value(0).toLongLong();
}

std::optional<ArchitectureVersion> RunStore::addArchitectureVersion(qint64 architectureId, const QJsonObject &spec) {
    error_.clear();
    const QByteArray text = canonicalSpecJson(spec);
    const QString hash = specContentHash(spec);
    WriteTransaction tx(db());
    if (!tx.isActive()) return fail(tx.errorString()), std::nullopt;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT id, version, content_hash FROM architecture_versions WHERE architecture_id = ?"
                             " ORDER BY version DESC LIMIT 1"));
    q.addBindValue(architectureId);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    int version = 1;
    if (q.next()) {
        if (q.value(2).toString() == hash) return architectureVersion(q.value(0).toLongLong());
        version = q.value(1).toInt() + 1;
    }
    q.prepare(QStringLiteral("INSERT INTO architecture_versions (architecture_id, version, spec_json, content_hash,"
                             " created_at) VALUES (?, ?, ?, ?, ?)"));
    q.addBindValue(architectureId);
    q.addBindValue(version);
    q.addBindValue(QString::fromUtf8(text));
    q.addBindValue(hash);
    q.addBindValue(databaseTimestamp());
    if (!q.exec()) return fail(tr("Cannot store the architecture: %1").arg(q.lastError().text())), std::nullopt;
    const qint64 id = q.lastInsertId().toLongLong();
    if (!tx.commit()) return fail(tx.errorString()), std::nullopt;
    return ArchitectureVersion{id, architectureId, version, hash, text};
}

std::optional<ArchitectureVersion> RunStore::architectureVersion(qint64 id) {
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT architecture_id, version, content_hash, spec_json FROM architecture_versions"
                             " WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec() || !q.next()) return fail(tr("No architecture version %1.").arg(id)), std::nullopt;
    return ArchitectureVersion{id, q.value(0).toLongLong(), q.value(1).toInt(), q.value(2).toString(),
                               q.value(3).toString().toUtf8()};
}

// --- runs ---

std::optional<Run> RunStore::createRun(qint64 projectId, qint64 architectureVersionId, const QString &name,
                                       const QJsonObject &requestedConfig, const QString &target,
                                       const QJsonObject &execution) {
    error_.clear();
    std::optional<ArchitectureVersion> arch;
    if (architectureVersionId > 0) {
        arch = architectureVersion(architectureVersionId);
        if (!arch) return std::nullopt;
    }
    // data.dataset "NAME" or "NAME@N" is pinned to the version it names now, so the run records what it trains on.
    QJsonObject config = requestedConfig;
    QVariant datasetVersionId;
    QJsonObject data = config.value(QStringLiteral("data")).toObject();
    if (data.contains(QStringLiteral("dataset"))) {
        DatasetStore datasets(ws_);
        const auto version = datasets.resolve(data.value(QStringLiteral("dataset")).toString());
        if (!version) return fail(tr("data.dataset: %1").arg(datasets.errorString())), std::nullopt;
        const QString relative = data.value(QStringLiteral("path")).toString();
        if (!relative.isEmpty() && !isSafeManifestPath(relative))
            return fail(tr("data.path \"%1\" must be a relative path inside the dataset %2.")
                            .arg(relative, version->ref())),
                   std::nullopt;
        data.insert(QStringLiteral("dataset"), version->ref());
        const QJsonObject options = datasetRunOptions(version->format, version->schema);
        for (auto it = options.begin(); it != options.end(); ++it)
            if (!data.contains(it.key())) data.insert(it.key(), it.value()); // what the config leaves out
        config.insert(QStringLiteral("data"), data);
        datasetVersionId = version->id;
    }
    WriteTransaction tx(db());
    if (!tx.isActive()) return fail(tx.errorString()), std::nullopt;
    const QString now = databaseTimestamp();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT INTO runs (project_id, architecture_version_id, name, config_json, target,"
                             " execution_json, state, created_at, updated_at, dataset_version_id)"
                             " VALUES (?, ?, ?, ?, ?, ?, 'draft', ?, ?, ?)"));
    q.addBindValue(projectId);
    q.addBindValue(architectureVersionId > 0 ? QVariant(architectureVersionId) : QVariant());
    q.addBindValue(name);
    q.addBindValue(QString::fromUtf8(QJsonDocument(config).toJson(QJsonDocument::Compact)));
    q.addBindValue(target);
    q.addBindValue(QString::fromUtf8(QJsonDocument(execution).toJson(QJsonDocument::Compact)));
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(datasetVersionId);
    if (!q.exec()) return fail(tr("Cannot create run \"%1\": %2").arg(name, q.lastError().text())), std::nullopt;
    const qint64 id = q.lastInsertId().toLongLong();
    q.prepare(
        QStringLiteral("INSERT INTO run_transitions (run_id, from_state, to_state, at) VALUES (?, NULL, 'draft', ?)"));
    q.addBindValue(id);
    q.addBindValue(now);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;

    const QString dir = ws_.runDirectory(id);
    if (!QDir().mkpath(dir)) return fail(tr("Cannot create the run folder %1.").arg(dir)), std::nullopt;
    const QByteArray configText = QJsonDocument(config).toJson(QJsonDocument::Indented);
    if (!writeFile(QDir(dir).filePath(QStringLiteral("run.json")), configText) ||
        (arch && !writeFile(QDir(dir).filePath(QStringLiteral("spec.json")),
                            QJsonDocument::fromJson(arch->specJson).toJson(QJsonDocument::Indented))))
        return fail(tr("Cannot write the files of run %1 in %2.").arg(id).arg(dir)), std::nullopt;
    if (!tx.commit()) return fail(tx.errorString()), std::nullopt;
    return run(id);
}

std::optional<Run> RunStore::createRunWithSpec(const QString &projectName, const QJsonObject &spec,
                                               const QString &architectureName, const QString &runName,
                                               const QJsonObject &config, const QString &target,
                                               const QJsonObject &execution) {
    error_.clear();
    auto project = projectByName(projectName);
    if (!project) project = createProject(projectName);
    if (!project) return std::nullopt;
    QString archName = architectureName;
    if (archName.isEmpty()) archName = spec.value(QStringLiteral("name")).toString();
    if (archName.isEmpty()) archName = tr("Untitled network");
    const auto archId = ensureArchitecture(project->id, archName);
    const auto version = archId ? addArchitectureVersion(*archId, spec) : std::nullopt;
    if (!version) return std::nullopt;
    return createRun(project->id, version->id, runName.isEmpty() ? archName : runName, config, target, execution);
}

std::optional<Run> RunStore::run(qint64 id) {
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT %1 FROM runs WHERE id = ?").arg(QLatin1String(kRunColumns)));
    q.addBindValue(id);
    if (!q.exec() || !q.next()) return fail(tr("No run %1.").arg(id)), std::nullopt;
    return runFromQuery(q);
}

QList<Run> RunStore::runs(qint64 projectId) {
    QList<Run> out;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT %1 FROM runs WHERE ? = 0 OR project_id = ? ORDER BY id")
                  .arg(QLatin1String(kRunColumns)));
    q.addBindValue(projectId);
    q.addBindValue(projectId);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append(runFromQuery(q));
    return out;
}

bool RunStore::transition(qint64 runId, RunState to, const QString &note, std::optional<int> exitCode) {
    error_.clear();
    WriteTransaction tx(db());
    if (!tx.isActive()) return fail(tx.errorString());
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT state FROM runs WHERE id = ?"));
    q.addBindValue(runId);
    if (!q.exec() || !q.next()) return fail(tr("No run %1.").arg(runId));
    const std::optional<RunState> from = runStateFromName(q.value(0).toString());
    if (!from) return fail(tr("Run %1 has an unknown state \"%2\".").arg(runId).arg(q.value(0).toString()));
    if (!isRunTransitionAllowed(*from, to))
        return fail(tr("Run %1 cannot go from %2 to %3.").arg(runId).arg(runStateName(*from), runStateName(to)));

    const QString now = databaseTimestamp();
    const bool ends =
        to == RunState::Finished || to == RunState::Failed || to == RunState::Cancelled || to == RunState::Preempted;
    QString sql = QStringLiteral("UPDATE runs SET state = :state, updated_at = :now");
    if (to == RunState::Running) sql += QStringLiteral(", started_at = COALESCE(started_at, :now)");
    if (ends) sql += QStringLiteral(", finished_at = :now, exit_code = :exit");
    if (to == RunState::Resumed) sql += QStringLiteral(", finished_at = NULL, exit_code = NULL");
    sql += QStringLiteral(" WHERE id = :id");
    q.prepare(sql);
    q.bindValue(QStringLiteral(":state"), runStateName(to));
    q.bindValue(QStringLiteral(":now"), now);
    if (ends) q.bindValue(QStringLiteral(":exit"), exitCode ? QVariant(*exitCode) : QVariant());
    q.bindValue(QStringLiteral(":id"), runId);
    if (!q.exec()) return fail(q.lastError().text());
    q.prepare(
        QStringLiteral("INSERT INTO run_transitions (run_id, from_state, to_state, at, note) VALUES (?, ?, ?, ?, ?)"));
    q.addBindValue(runId);
    q.addBindValue(runStateName(*from));
    q.addBindValue(runStateName(to));
    q.addBindValue(now);
    q.addBindValue(note.isNull() ? QStringLiteral("") : note); // NOT NULL column
    if (!q.exec()) return fail(q.lastError().text());
    if (!tx.commit()) return fail(tx.errorString());
    return true;
}

QList<MetricPoint> RunStore::metricPointsSince(qint64 runId, qint64 sinceStep) {
    QList<MetricPoint> out;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT p.step, n.name, p.split, p.value, p.wall FROM metric_points p"
                             " JOIN metric_names n ON n.id = p.name_id WHERE p.run_id = ? AND p.step > ?"
                             " ORDER BY p.step, p.split, n.name"));
    q.addBindValue(runId);
    q.addBindValue(sinceStep);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toString(), static_cast<MetricSplit>(q.value(2).toInt()),
                    q.value(3).toDouble(), q.value(4).toDouble()});
    return out;
}

int RunStore::metricPointCount(qint64 runId) {
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT count(*) FROM metric_points WHERE run_id = ?"));
    q.addBindValue(runId);
    return q.exec() && q.next() ? q.value(0).toInt() : 0;
}

bool RunStore::deleteRun(qint64 runId) {
    error_.clear();
    {
        WriteTransaction tx(db());
        if (!tx.isActive()) return fail(tx.errorString());
        QSqlQuery q(db());
        q.prepare(QStringLiteral("DELETE FROM runs WHERE id = ?"));
        q.addBindValue(runId);
        if (!q.exec()) return fail(q.lastError().text());
        if (q.numRowsAffected() != 1) return fail(tr("No run %1.").arg(runId));
        if (!tx.commit()) return fail(tx.errorString());
    }
    QDir dir(ws_.runDirectory(runId));
    if (dir.exists() && !dir.removeRecursively())
        return fail(
            tr("Run %1 was deleted, but its folder %2 could not be removed completely.").arg(runId).arg(dir.path()));
    return true;
}

bool RunStore::addMessage(qint64 runId, const QString &text) {
    error_.clear();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT INTO run_messages (run_id, at, text) VALUES (?, ?, ?)"));
    q.addBindValue(runId);
    q.addBindValue(databaseTimestamp());
    q.addBindValue(text.isNull() ? QStringLiteral("") : text);
    if (!q.exec()) return fail(q.lastError().text());
    return true;
}

QList<RunMessage> RunStore::messages(qint64 runId, int limit) {
    QList<RunMessage> out;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT at, text FROM (SELECT id, at, text FROM run_messages WHERE run_id = ?"
                             " ORDER BY id DESC LIMIT ?) ORDER BY id"));
    q.addBindValue(runId);
    q.addBindValue(limit);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toString()});
    return out;
}

QList<RunTransition> RunStore::transitions(qint64 runId) {
    QList<RunTransition> out;
    QSqlQuery q(db());
    q.prepare(
        QStringLiteral("SELECT from_state, to_state, at, note FROM run_transitions WHERE run_id = ? ORDER BY id"));
    q.addBindValue(runId);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next()) {
        RunTransition t;
        if (!q.value(0).isNull()) t.from = runStateFromName(q.value(0).toString());
        t.to = runStateFromName(q.value(1).toString()).value_or(RunState::Draft);
        t.at = q.value(2).toString();
        t.note = q.value(3).toString();
        out.append(t);
    }
    return out;
}

bool RunStore::setRunResult(qint64 runId, const QJsonObject &finalMetrics, const QString &weightsHash,
                            const QString &exitMessage) {
    error_.clear();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE runs SET final_metrics_json = ?, weights_hash = ?, exit_message = ?,"
                             " updated_at = ? WHERE id = ?"));
    q.addBindValue(QString::fromUtf8(QJsonDocument(finalMetrics).toJson(QJsonDocument::Compact)));
    q.addBindValue(nullableText(weightsHash));
    q.addBindValue(nullableText(exitMessage));
    q.addBindValue(databaseTimestamp());
    q.addBindValue(runId);
    if (!q.exec()) return fail(q.lastError().text());
    if (q.numRowsAffected() != 1) return fail(tr("No run %1.").arg(runId));
    return true;
}

bool RunStore::setRunTarget(qint64 runId, const QString &target, const QJsonObject &execution) {
    error_.clear();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE runs SET target = ?, execution_json = ?, updated_at = ? WHERE id = ?"));
    q.addBindValue(target);
    q.addBindValue(QString::fromUtf8(QJsonDocument(execution).toJson(QJsonDocument::Compact)));
    q.addBindValue(databaseTimestamp());
    q.addBindValue(runId);
    if (!q.exec()) return fail(q.lastError().text());
    if (q.numRowsAffected() != 1) return fail(tr("No run %1.").arg(runId));
    return true;
}

bool RunStore::setOwner(qint64 runId, const QString &owner) {
    error_.clear();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("UPDATE runs SET owner = ?, updated_at = ? WHERE id = ?"));
    q.addBindValue(owner.isEmpty() ? QStringLiteral("") : owner); // a null QString would bind NULL (not allowed)
    q.addBindValue(databaseTimestamp());
    q.addBindValue(runId);
    if (!q.exec()) return fail(q.lastError().text());
    if (q.numRowsAffected() != 1) return fail(tr("No run %1.").arg(runId));
    return true;
}

int RunStore::activeRunCount(const QString &owner) {
    error_.clear();
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM runs WHERE owner = ? AND state IN (?, ?, ?)"));
    q.addBindValue(owner);
    for (RunState s : {RunState::Queued, RunState::Running, RunState::Resumed})
        q.addBindValue(runStateName(s));
    if (!q.exec() || !q.next()) return fail(q.lastError().text()), -1;
    return q.value(0).toInt();
}

// --- metrics and events ---

std::optional<qint64> RunStore::metricNameId(const QString &name) {
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO metric_names (name) VALUES (?)"));
    q.addBindValue(name);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    q.prepare(QStringLiteral("SELECT id FROM metric_names WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec() || !q.next()) return fail(q.lastError().text()), std::nullopt;
    return q.value(0).toLongLong();
}

int RunStore::addMetricPoints(qint64 runId, const QList<MetricPoint> &points) {
    error_.clear();
    WriteTransaction tx(db());
    if (!tx.isActive()) return fail(tx.errorString()), -1;
    QHash<QString, qint64> ids;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO metric_points (run_id, name_id, split, step, value, wall)"
                             " VALUES (?, ?, ?, ?, ?, ?)"));
    int inserted = 0;
    for (const MetricPoint &p : points) {
        auto it = ids.find(p.name);
        if (it == ids.end()) {
            const auto id = metricNameId(p.name);
            if (!id) return -1;
            it = ids.insert(p.name, *id);
        }
        q.addBindValue(runId);
        q.addBindValue(*it);
        q.addBindValue(static_cast<int>(p.split));
        q.addBindValue(p.step);
        q.addBindValue(p.value);
        q.addBindValue(p.wall);
        if (!q.exec()) return fail(tr("Cannot store metrics of run %1: %2").arg(runId).arg(q.lastError().text())), -1;
        inserted += q.numRowsAffected() > 0 ? 1 : 0;
    }
    if (!tx.commit()) return fail(tx.errorString()), -1;
    return inserted;
}

QList<QPair<QString, MetricSplit>> RunStore::metricSeries(qint64 runId) {
    QList<QPair<QString, MetricSplit>> out;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT n.name, s.split FROM (SELECT DISTINCT name_id, split FROM metric_points"
                             " WHERE run_id = ?) s JOIN metric_names n ON n.id = s.name_id ORDER BY n.name, s.split"));
    q.addBindValue(runId);
    if (!q.exec()) return fail(q.lastError().text()), out;
    while (q.next())
        out.append({q.value(0).toString(), q.value(1).toInt() == 1 ? MetricSplit::Validation : MetricSplit::Train});
    return out;
}

QList<QJsonObject> RunStore::events(qint64 runId, const QString &kind, bool includeMetrics) {
    QList<QJsonObject> out;
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT json FROM events WHERE run_id = ? AND (? = '' OR kind = ?)"
                             " AND (? OR kind <> 'metric') ORDER BY offset"));
    const QString k = kind.isEmpty() ? QStringLiteral("") : kind; // a null QString binds as NULL, never = ''
    q.addBindValue(runId);
    q.addBindValue(k);
    q.addBindValue(k);
    q.addBindValue(includeMetrics ? 1 : 0);
    if (!q.exec()) return fail(q.lastError().text()), out;
    while (q.next())
        out.append(QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object());
    return out;
}

QList<MetricPoint> RunStore::metricPoints(qint64 runId, const QString &name, MetricSplit split) {
    QList<MetricPoint> out;
    static const char *kSql =
        "SELECT p.step, p.value, p.wall FROM metric_points p JOIN metric_names n ON n.id = p.name_id"
        " WHERE p.run_id = ? AND n.name = ? AND p.split = ? ORDER BY p.step";
    // A series can hold millions of points: read them with SQLite's own API (QSqlQuery builds three
    // QVariants per row, which costs about 5x more), through the connection Qt already holds.
    const QVariant handle = db().driver()->handle();
    if (handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0) {
        sqlite3 *sqlite = *static_cast<sqlite3 *const *>(handle.constData());
        sqlite3_stmt *stmt = nullptr;
        if (sqlite && sqlite3_prepare_v2(sqlite, kSql, -1, &stmt, nullptr) == SQLITE_OK) {
            const QByteArray utf8 = name.toUtf8();
            sqlite3_bind_int64(stmt, 1, runId);
            sqlite3_bind_text(stmt, 2, utf8.constData(), static_cast<int>(utf8.size()), SQLITE_TRANSIENT);
            sqlite3_bind_int(stmt, 3, static_cast<int>(split));
            int rc;
            while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
                out.append({sqlite3_column_int64(stmt, 0), name, split, sqlite3_column_double(stmt, 1),
                            sqlite3_column_double(stmt, 2)});
            sqlite3_finalize(stmt);
            if (rc == SQLITE_DONE) return out;
            out.clear(); // fall through to the portable path, which reports the error
        }
    }
    QSqlQuery q(db());
    q.setForwardOnly(true);
    q.prepare(QString::fromLatin1(kSql));
    q.addBindValue(runId);
    q.addBindValue(name);
    q.addBindValue(static_cast<int>(split));
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append({q.value(0).toLongLong(), name, split, q.value(1).toDouble(), q.value(2).toDouble()});
    return out;
}

bool RunStore::addEvent(qint64 runId, qint64 offset, const QString &kind, const QByteArray &json) {
    QSqlQuery q(db());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO events (run_id, offset, kind, json) VALUES (?, ?, ?, ?)"));
    q.addBindValue(runId);
    q.addBindValue(offset);
    q.addBindValue(kind);
    q.addBindValue(QString::fromUtf8(json));
    if (!q.exec()) return fail(q.lastError().text());
    return true;
}

qint64 RunStore::lastEventOffset(qint64 runId) {
    QSqlQuery q(db());
    q.prepare(QStringLiteral("SELECT MAX(offset) FROM events WHERE run_id = ?"));
    q.addBindValue(runId);
    if (!q.exec() || !q.next() || q.value(0).isNull()) return -1;
    return q.value(0).toLongLong();
}

} // namespace diamond::app
