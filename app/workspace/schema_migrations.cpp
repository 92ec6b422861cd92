#include "app/workspace/schema_migrations.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::SchemaMigrations", text); }

QStringList l(std::initializer_list<const char *> statements) {
    QStringList out;
    for (const char *s : statements)
        out << QString::fromUtf8(s);
    return out;
}

// Version 1: the tables of the workspace. Timestamps are ISO 8601 UTC text ("...Z"); `wall` columns are
// seconds since the Unix epoch (REAL). Run states are the lower-case names of RunState (run_store.h).
Migration migration1() {
    return {1, QStringLiteral("workspace tables"),
            l({
                "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL,"
                " applied_at TEXT NOT NULL)",
                "CREATE TABLE workspace_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
                "CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                " description TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL)",
                "CREATE TABLE architectures (id INTEGER PRIMARY KEY,"
                " project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,"
                " name TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (project_id, name))",
                // One row per saved version of an architecture; content_hash = SHA-256 (hex) of spec_json,
                // which is the canonical (compact, key-sorted) JSON text of the spec.
                "CREATE TABLE architecture_versions (id INTEGER PRIMARY KEY,"
                " architecture_id INTEGER NOT NULL REFERENCES architectures(id) ON DELETE CASCADE,"
                " version INTEGER NOT NULL, spec_json TEXT NOT NULL, content_hash TEXT NOT NULL,"
                " created_at TEXT NOT NULL, UNIQUE (architecture_id, version))",
                "CREATE INDEX architecture_versions_hash ON architecture_versions (content_hash)",
                "CREATE TABLE runs (id INTEGER PRIMARY KEY,"
                " project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,"
                " architecture_version_id INTEGER REFERENCES architecture_versions(id),"
                " name TEXT NOT NULL, config_json TEXT NOT NULL, target TEXT NOT NULL DEFAULT 'local',"
                " state TEXT NOT NULL DEFAULT 'draft', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,"
                " started_at TEXT, finished_at TEXT, exit_code INTEGER, exit_message TEXT,"
                " final_metrics_json TEXT, weights_hash TEXT)",
                "CREATE INDEX runs_project ON runs (project_id, id)",
                "CREATE INDEX runs_state ON runs (state)",
                // Every state change of a run, append-only; from_state is NULL for the creation row.
                "CREATE TABLE run_transitions (id INTEGER PRIMARY KEY,"
                " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                " from_state TEXT, to_state TEXT NOT NULL, at TEXT NOT NULL, note TEXT NOT NULL DEFAULT '')",
                "CREATE INDEX run_transitions_run ON run_transitions (run_id, id)",
                "CREATE TABLE metric_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
                // Compact: integer keys, no rowid; the key makes duplicate points impossible.
                // split: 0 = train, 1 = validation.
                "CREATE TABLE metric_points (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                " name_id INTEGER NOT NULL REFERENCES metric_names(id), split INTEGER NOT NULL CHECK (split IN (0, 1)),"
                " step INTEGER NOT NULL, value REAL NOT NULL, wall REAL NOT NULL,"
                " PRIMARY KEY (run_id, name_id, split, step)) WITHOUT ROWID",
                // One row per line of the run's events.jsonl; offset is the line's byte offset in that file,
                // so re-reading the file after a restart cannot duplicate events.
                "CREATE TABLE events (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
                " offset INTEGER NOT NULL, kind TEXT NOT NULL, json TEXT NOT NULL,"
                " PRIMARY KEY (run_id, offset)) WITHOUT ROWID",
                "CREATE TABLE checkpoints (id INTEGER PRIMARY KEY,"
                " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, step INTEGER NOT NULL,"
                " path TEXT NOT NULL, size_bytes INTEGER NOT NULL DEFAULT 0, sha256 TEXT,"
                " metrics_json TEXT, created_at TEXT NOT NULL, UNIQUE (run_id, step))",
                "CREATE TABLE datasets (id INTEGER PRIMARY KEY,"
                " project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL, name TEXT NOT NULL,"
                " path TEXT NOT NULL, format TEXT NOT NULL, size_bytes INTEGER NOT NULL DEFAULT 0,"
                " content_hash TEXT, created_at TEXT NOT NULL)",
                "CREATE TABLE cluster_profiles (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                " host TEXT NOT NULL, port INTEGER NOT NULL DEFAULT 22, username TEXT NOT NULL DEFAULT '',"
                " scheduler TEXT NOT NULL DEFAULT 'slurm', config_json TEXT NOT NULL DEFAULT '{}',"
                " created_at TEXT NOT NULL, updated_at TEXT NOT NULL)",
                "CREATE TABLE sweeps (id INTEGER PRIMARY KEY,"
                " project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,"
                " architecture_version_id INTEGER REFERENCES architecture_versions(id), name TEXT NOT NULL,"
                " strategy TEXT NOT NULL, space_json TEXT NOT NULL, objective TEXT NOT NULL DEFAULT '',"
                " state TEXT NOT NULL DEFAULT 'draft', created_at TEXT NOT NULL)",
                "CREATE TABLE trials (id INTEGER PRIMARY KEY,"
                " sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,"
                " run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL, trial_index INTEGER NOT NULL,"
                " params_json TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'draft', objective_value REAL,"
                " created_at TEXT NOT NULL, UNIQUE (sweep_id, trial_index))",
                "CREATE TABLE gallery_entries (id INTEGER PRIMARY KEY,"
                " run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,"
                " architecture_version_id INTEGER REFERENCES architecture_versions(id) ON DELETE SET NULL,"
                " title TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '',"
                " metrics_json TEXT, created_at TEXT NOT NULL)",
            })};
}

// Version 2: sweep settings and trial progress. sweeps.config_json holds the sweep file (docs/sweeps.md);
// trials.rung is the ASHA rung reached, budget the resource (epochs/steps) granted so far.
Migration migration2() {
    return {2, QStringLiteral("sweep settings and trial progress"),
            l({
                "ALTER TABLE sweeps ADD COLUMN config_json TEXT NOT NULL DEFAULT '{}'",
                "ALTER TABLE sweeps ADD COLUMN state_json TEXT NOT NULL DEFAULT '{}'",
                "ALTER TABLE sweeps ADD COLUMN updated_at TEXT",
                "ALTER TABLE trials ADD COLUMN rung INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE trials ADD COLUMN budget REAL",
                "ALTER TABLE trials ADD COLUMN info_json TEXT NOT NULL DEFAULT '{}'",
                "ALTER TABLE trials ADD COLUMN updated_at TEXT",
                "CREATE INDEX trials_run ON trials (run_id)",
            })};
}

// Version 3: model packages in the gallery, with full-text search (FTS5, kept in sync by the code that
// writes gallery_entries: one gallery_search row per entry, rowid = gallery_entries.id).
Migration migration3() {
    return {3, QStringLiteral("gallery packages and full-text search"),
            l({
                "ALTER TABLE gallery_entries ADD COLUMN name TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN version TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN task TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN domain TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN license TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN card_markdown TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN manifest_json TEXT NOT NULL DEFAULT '{}'",
                "ALTER TABLE gallery_entries ADD COLUMN package_path TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN package_sha256 TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN verified INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE gallery_entries ADD COLUMN key_metric REAL",
                "ALTER TABLE gallery_entries ADD COLUMN thumbnail BLOB",
                "ALTER TABLE gallery_entries ADD COLUMN updated_at TEXT",
                "CREATE INDEX gallery_entries_task ON gallery_entries (task, domain, license)",
                "CREATE VIRTUAL TABLE gallery_search USING fts5(name, title, card, tags,"
                " tokenize = 'unicode61 remove_diacritics 2')",
            })};
}

// Version 4: how a run is executed, apart from the engine's run config: {"nproc": N, "threads": T} for local
// runs, scheduler settings (partition, nodes, time, ...) for cluster targets. See RunStore::Run::execution.
Migration migration4() {
    return {4, QStringLiteral("run execution settings"),
            l({
                "ALTER TABLE runs ADD COLUMN execution_json TEXT NOT NULL DEFAULT '{}'",
            })};
}

// Version 5: what the run service learns about a run's execution beyond the engine's events: the batch jobs of a
// cluster run (one row per submitted attempt, with the scheduler's phase and reason as last seen), and messages of
// the executors (staging, continuations, a cancel the scheduler refused) that a front end shows with the run.
Migration migration5() {
    return {5, QStringLiteral("cluster jobs and run messages"),
            l({
                "CREATE TABLE cluster_jobs (id INTEGER PRIMARY KEY,"
                " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, cluster TEXT NOT NULL,"
                " job_id TEXT NOT NULL, continuation INTEGER NOT NULL DEFAULT 0,"
                " phase TEXT NOT NULL DEFAULT 'pending', reason TEXT NOT NULL DEFAULT '',"
                " submitted_at TEXT NOT NULL, updated_at TEXT NOT NULL)",
                "CREATE INDEX cluster_jobs_run ON cluster_jobs (run_id)",
                "CREATE TABLE run_messages (id INTEGER PRIMARY KEY,"
                " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, at TEXT NOT NULL,"
                " text TEXT NOT NULL)",
                "CREATE INDEX run_messages_run ON run_messages (run_id)",
            })};
}

// Version 6: gallery trust. "verified" becomes "consistent" (it proves only that a package agrees with itself). An
// entry records the publisher and public key of its package's signature (empty when
// unsigned); gallery_trust lists the publisher keys this workspace trusts.
Migration migration6() {
    return {6, QStringLiteral("gallery publishers and trust"),
            l({
                "ALTER TABLE gallery_entries RENAME COLUMN verified TO consistent",
                "ALTER TABLE gallery_entries ADD COLUMN publisher TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE gallery_entries ADD COLUMN publisher_key TEXT NOT NULL DEFAULT ''",
                "CREATE TABLE gallery_trust (fingerprint TEXT PRIMARY KEY, public_key TEXT NOT NULL UNIQUE,"
                " name TEXT NOT NULL, added_at TEXT NOT NULL)",
            })};
}

// Version 7: registered datasets (app/data/dataset_store.h). A dataset has versions; each version holds the
// content manifest (files, sizes, chunk hashes) of what was imported. A run records the version it trained on.
Migration migration7() {
    return {7, QStringLiteral("dataset versions"),
            l({
                "CREATE UNIQUE INDEX datasets_name ON datasets (name)",
                "CREATE TABLE dataset_versions (id INTEGER PRIMARY KEY,"
                " dataset_id INTEGER NOT NULL REFERENCES datasets(id) ON DELETE CASCADE, version INTEGER NOT NULL,"
                " manifest_json TEXT NOT NULL, manifest_hash TEXT NOT NULL, format TEXT NOT NULL,"
                " schema_json TEXT NOT NULL DEFAULT '{}', row_count INTEGER NOT NULL DEFAULT -1,"
                " size_bytes INTEGER NOT NULL, file_count INTEGER NOT NULL, new_bytes INTEGER NOT NULL DEFAULT 0,"
                " source TEXT NOT NULL DEFAULT '', created_by TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL,"
                " UNIQUE (dataset_id, version))",
                "ALTER TABLE runs ADD COLUMN dataset_version_id INTEGER REFERENCES dataset_versions(id)"
                " ON DELETE SET NULL",
            })};
}

// Version 8: class-server users (app/rest/user_store.h). A user has a role and a bearer token stored only as its
// SHA-256; a run records the user who started it through the REST API (empty: the workspace's owner).
Migration migration8() {
    return {8, QStringLiteral("class server users"),
            l({
                "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,"
                " role TEXT NOT NULL CHECK (role IN ('student', 'instructor', 'admin')),"
                " token_sha256 TEXT NOT NULL UNIQUE, can_publish INTEGER NOT NULL DEFAULT 0,"
                " max_active_runs INTEGER NOT NULL DEFAULT 2, created_at TEXT NOT NULL, token_issued_at TEXT NOT NULL)",
                "ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT ''",
                "CREATE INDEX runs_owner ON runs (owner)",
            })};
}

// Version 9: compute-hour quotas of class-server users (NULL: no limit; app/run/compute_usage.h says what counts).
Migration migration9() {
    return {9, QStringLiteral("compute-hour quotas of users"),
            l({
                "ALTER TABLE users ADD COLUMN cpu_hours_quota REAL CHECK (cpu_hours_quota >= 0)",
                "ALTER TABLE users ADD COLUMN gpu_hours_quota REAL CHECK (gpu_hours_quota >= 0)",
            })};
}

// Version 10: lesson progress (app/learn/lesson_progress.h): when a lesson started and which of its steps are done,
// and learning activities no other table records (a comparison of runs).
Migration migration10() {
    return {10, QStringLiteral("lesson progress"),
            l({
                "CREATE TABLE lesson_progress (lesson_id TEXT NOT NULL, step_id TEXT NOT NULL, at TEXT NOT NULL,"
                " PRIMARY KEY (lesson_id, step_id))",
                "CREATE TABLE learning_activity (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, detail_json TEXT NOT NULL,"
                " at TEXT NOT NULL)",
                "CREATE INDEX learning_activity_kind ON learning_activity (kind, at)",
            })};
}

bool exec(QSqlDatabase &db, const QString &sql, QString *error) {
    QSqlQuery q(db);
    if (q.exec(sql)) return true;
    *error = q.lastError().text();
    return false;
}

} // namespace

const QList<Migration> &schemaMigrations() {
    static const QList<Migration> all = {migration1(), migration2(), migration3(), migration4(), migration5(),
                                         migration6(), migration7(), migration8(), migration9(), migration10()};
    return all;
}

int latestSchemaVersion() { return static_cast<int>(schemaMigrations().size()); }

int databaseSchemaVersion(const QSqlDatabase &db) {
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next()) return -1;
    return q.value(0).toInt();
}

MigrationOutcome migrateSchema(QSqlDatabase &db, const QString &fileName) {
    MigrationOutcome out;
    const int latest = latestSchemaVersion();
    out.fromVersion = databaseSchemaVersion(db);
    out.toVersion = out.fromVersion;
    if (out.fromVersion < 0) {
        out.error = tr("Cannot read the schema version of %1: %2").arg(fileName, db.lastError().text());
        return out;
    }
    auto newerError = [&](int found) {
        return tr("%1 has schema version %2, but this Diamond only knows versions up to %3; "
                  "it was written by a newer Diamond. Update Diamond to open it. The file was not modified.")
            .arg(fileName)
            .arg(found)
            .arg(latest);
    };
    if (out.fromVersion > latest) {
        out.error = newerError(out.fromVersion);
        return out;
    }
    while (out.toVersion < latest) {
        QString error;
        // Take the write lock first, then re-read: another process may have migrated meanwhile.
        if (!exec(db, QStringLiteral("BEGIN IMMEDIATE"), &error)) {
            out.error = tr("Cannot lock %1 for migration: %2").arg(fileName, error);
            return out;
        }
        const int current = databaseSchemaVersion(db);
        if (current < 0 || current > latest || current >= latest) {
            exec(db, QStringLiteral("ROLLBACK"), &error);
            if (current < 0) {
                out.error = tr("Cannot read the schema version of %1").arg(fileName);
                return out;
            }
            if (current > latest) {
                out.error = newerError(current);
                return out;
            }
            out.toVersion = current;
            break;
        }
        const Migration &m = schemaMigrations().at(current);
        bool ok = true;
        for (const QString &statement : m.statements) {
            if (!exec(db, statement, &error)) {
                ok = false;
                break;
            }
        }
        if (ok) {
            QSqlQuery record(db);
            record.prepare(QStringLiteral("INSERT INTO schema_migrations (version, description, applied_at) "
                                          "VALUES (?, ?, ?)"));
            record.addBindValue(m.version);
            record.addBindValue(m.description);
            record.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
            ok = record.exec();
            if (!ok) error = record.lastError().text();
        }
        // PRAGMA does not take bound parameters; m.version is an integer we control.
        if (ok) ok = exec(db, QStringLiteral("PRAGMA user_version = %1").arg(m.version), &error);
        if (ok) ok = exec(db, QStringLiteral("COMMIT"), &error);
        if (!ok) {
            QString ignored;
            exec(db, QStringLiteral("ROLLBACK"), &ignored);
            out.error = tr("Migration %1 (%2) of %3 failed: %4").arg(m.version).arg(m.description, fileName, error);
            return out;
        }
        out.toVersion = m.version;
        ++out.applied;
        out.createdSchema = out.createdSchema || m.version == 1;
    }
    out.ok = true;
    return out;
}

} // namespace diamond::app
