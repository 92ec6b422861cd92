#include "app/workspace/workspace.h"

#include "app/workspace/schema_migrations.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::Workspace", text); }

QString nextConnectionName() {
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("diamond-workspace-%1").arg(counter.fetchAndAddRelaxed(1) + 1);
}

bool exec(QSqlDatabase &db, const QString &sql, QString *error) {
    QSqlQuery q(db);
    if (q.exec(sql)) return true;
    *error = q.lastError().text();
    return false;
}

} // namespace

QString databaseTimestamp() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

Workspace::Workspace() = default;

Workspace::~Workspace() { close(); }

QString Workspace::defaultPath() {
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/Diamond/default");
}

QString Workspace::databaseFileName() { return QStringLiteral("diamond.db"); }

bool Workspace::exists(const QString &folder) { return QFileInfo(QDir(folder).filePath(databaseFileName())).isFile(); }

QString Workspace::databasePath() const { return QDir(path_).filePath(databaseFileName()); }

QString Workspace::runDirectory(qint64 runId) const {
    return QDir(path_).filePath(QStringLiteral("runs/%1").arg(runId));
}

bool Workspace::open(const QString &folder, OpenMode mode) {
    close();
    error_.clear();
    const QString absolute = QDir(folder).absolutePath();
    const QString dbFile = QDir(absolute).filePath(databaseFileName());
    const bool fileExists = QFileInfo(dbFile).isFile();
    if (!fileExists) {
        if (mode == OpenMode::OpenExisting) {
            error_ = tr("No Diamond workspace at %1 (no %2 there).").arg(absolute, databaseFileName());
            return false;
        }
        if (QFileInfo(absolute).exists() && !QFileInfo(absolute).isDir()) {
            error_ = tr("Cannot create a workspace at %1: it is a file, not a folder.").arg(absolute);
            return false;
        }
        const bool folderIsNew = !QFileInfo::exists(absolute);
        if (!QDir().mkpath(absolute)) {
            error_ = tr("Cannot create the workspace folder %1.").arg(absolute);
            return false;
        }
        // A new workspace is private: runs, data, tokens and the database are the user's alone.
        if (folderIsNew)
            QFile::setPermissions(absolute, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QFile db(dbFile);
        if (db.open(QIODevice::WriteOnly | QIODevice::NewOnly)) { // created empty with owner-only permissions
            db.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            db.close();
        }
    }

    connectionName_ = nextConnectionName();
    db_ = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), connectionName_);
    db_.setDatabaseName(dbFile);
    db_.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    auto fail = [&](const QString &message) {
        error_ = message;
        close();
        return false;
    };
    if (!db_.open()) return fail(tr("Cannot open %1: %2").arg(dbFile, db_.lastError().text()));

    QString error;
    // busy_timeout only affects this connection; it is set before anything that may wait for a lock.
    if (!exec(db_, QStringLiteral("PRAGMA busy_timeout = 5000"), &error))
        return fail(tr("Cannot configure %1: %2").arg(dbFile, error));
    // Check the version before any pragma that writes to the file (journal_mode=WAL does).
    const int found = databaseSchemaVersion(db_);
    if (found < 0) return fail(tr("%1 is not a readable SQLite database.").arg(dbFile));
    if (found > latestSchemaVersion()) return fail(migrateSchema(db_, dbFile).error);

    for (const char *pragma :
         {"PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON", "PRAGMA synchronous = NORMAL"}) {
        if (!exec(db_, QString::fromLatin1(pragma), &error))
            return fail(tr("Cannot configure %1: %2").arg(dbFile, error));
    }
    const MigrationOutcome outcome = migrateSchema(db_, dbFile);
    if (!outcome.ok) return fail(outcome.error);
    // The database and its WAL files are never readable by others, also in workspaces made by older versions.
    for (const QString &file : QStringList{dbFile, dbFile + QStringLiteral("-wal"), dbFile + QStringLiteral("-shm")})
        if (QFileInfo(file).permissions() &
            (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther))
            QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    created_ = outcome.createdSchema;
    schemaVersion_ = outcome.toVersion;
    path_ = absolute;
    if (created_) {
        QSqlQuery meta(db_);
        meta.prepare(QStringLiteral("INSERT OR IGNORE INTO workspace_meta (key, value) VALUES ('created_at', ?)"));
        meta.addBindValue(databaseTimestamp());
        meta.exec();
    }
    return true;
}

void Workspace::close() {
    if (!connectionName_.isEmpty()) {
        db_.close();
        db_ = QSqlDatabase();
        QSqlDatabase::removeDatabase(connectionName_);
        connectionName_.clear();
    }
    path_.clear();
    schemaVersion_ = 0;
    created_ = false;
}

WriteTransaction::WriteTransaction(QSqlDatabase db) : db_(std::move(db)) {
    active_ = exec(db_, QStringLiteral("BEGIN IMMEDIATE"), &error_);
}

WriteTransaction::~WriteTransaction() {
    if (active_) {
        QString ignored;
        exec(db_, QStringLiteral("ROLLBACK"), &ignored);
    }
}

bool WriteTransaction::commit() {
    if (!active_) return false;
    if (!exec(db_, QStringLiteral("COMMIT"), &error_)) return false;
    active_ = false;
    return true;
}

} // namespace diamond::app
