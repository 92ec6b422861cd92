// Numbered schema migrations of the workspace database.
//
// Contract: migration N (1-based) moves a database from `PRAGMA user_version` N-1 to N. Each one is
// applied in its own BEGIN IMMEDIATE transaction together with the user_version bump and a row in
// `schema_migrations`, so a crash or a concurrent opener never sees a half-migrated file. A database
// whose user_version is higher than latestSchemaVersion() was written by a newer Diamond: it is refused
// and not modified. Later issues append migrations; never edit a released one.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace diamond::app {

struct Migration {
    int version = 0;        ///< the user_version after this migration
    QString description;    ///< one line, stored in schema_migrations
    QStringList statements; ///< SQL statements, executed in order (one statement each)
};

/// All migrations, in order; element i has version i + 1.
const QList<Migration> &schemaMigrations();

/// The schema version this build writes (the number of migrations).
int latestSchemaVersion();

/// `PRAGMA user_version` of db, or -1 when it cannot be read.
int databaseSchemaVersion(const QSqlDatabase &db);

struct MigrationOutcome {
    bool ok = false;
    int fromVersion = 0;        ///< user_version found before migrating
    int toVersion = 0;          ///< user_version afterwards (== latestSchemaVersion() on success)
    int applied = 0;            ///< migrations applied by this call (0 when another process did them first)
    bool createdSchema = false; ///< this call applied migration 1, i.e. created the database's tables
    QString error;              ///< translated, names the file; empty on success
};

/// Brings db up to latestSchemaVersion(). `fileName` is only used in messages. Refuses (ok=false,
/// nothing written) when the database is newer than this build. Safe against a second process
/// migrating the same file at the same time: versions are re-read inside the write lock.
MigrationOutcome migrateSchema(QSqlDatabase &db, const QString &fileName);

} // namespace diamond::app
