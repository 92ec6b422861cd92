// A Diamond workspace: a folder holding the SQLite database `diamond.db` and one directory per run.
//
// Layout of a workspace folder:
//   diamond.db (+ -wal, -shm)   the database (schema: schema_migrations.cpp)
//   runs/<run id>/              spec.json, run.json (config), events.jsonl, checkpoints, export (engine)
//
// The default workspace is QStandardPaths::GenericDataLocation + "/Diamond/default"
// (~/.local/share/Diamond/default on Linux), so that the desktop app and diamondctl, which have different
// application names, share it. Several Workspace objects, in one or several processes, may use the same
// folder at once: the database runs in WAL mode with a busy timeout, and every write that reads before it
// writes uses a WriteTransaction (BEGIN IMMEDIATE).
//
// Threading: each Workspace owns its own uniquely named QSqlDatabase connection and must be used from the
// thread that opened it. Not copyable.
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace diamond::app {

class Workspace {
public:
    enum class OpenMode {
        OpenExisting,    ///< fail when the folder holds no database
        CreateIfMissing, ///< create the folder and the database when missing
    };

    Workspace();
    ~Workspace();
    Workspace(const Workspace &) = delete;
    Workspace &operator=(const Workspace &) = delete;

    /// GenericDataLocation/Diamond/default (see the file comment).
    static QString defaultPath();
    /// File name of the database inside a workspace folder ("diamond.db").
    static QString databaseFileName();
    /// True when `folder` holds a workspace database.
    static bool exists(const QString &folder);

    /// Opens (and in CreateIfMissing mode creates) the workspace in `folder`, sets the connection pragmas
    /// (journal_mode=WAL, busy_timeout=5000, foreign_keys=ON, synchronous=NORMAL) and applies pending
    /// migrations. A database from a newer Diamond is refused without being modified. On failure returns
    /// false, errorString() says why, and the object is closed. Closes a previously opened workspace first.
    bool open(const QString &folder, OpenMode mode = OpenMode::OpenExisting);
    /// Same as open(folder, CreateIfMissing).
    bool create(const QString &folder) { return open(folder, OpenMode::CreateIfMissing); }
    void close();

    bool isOpen() const { return db_.isOpen(); }
    /// True when the last open() created the database (applied migration 1): the caller may populate it.
    bool wasCreated() const { return created_; }
    /// Absolute folder of the open workspace.
    QString path() const { return path_; }
    QString databasePath() const;
    /// runs/<id> inside the workspace (not created here).
    QString runDirectory(qint64 runId) const;
    /// Schema version of the open database.
    int schemaVersion() const { return schemaVersion_; }
    /// The connection of this object; valid while open, only in the opening thread.
    QSqlDatabase database() const { return db_; }
    /// Translated description of the last failure, empty after success.
    QString errorString() const { return error_; }
    void setErrorString(const QString &error) { error_ = error; }

private:
    QSqlDatabase db_;
    QString connectionName_;
    QString path_;
    QString error_;
    int schemaVersion_ = 0;
    bool created_ = false;
};

/// RAII write transaction: BEGIN IMMEDIATE on construction (waits up to the busy timeout for other
/// writers), ROLLBACK on destruction unless commit() succeeded. Not nestable.
class WriteTransaction {
public:
    explicit WriteTransaction(QSqlDatabase db);
    ~WriteTransaction();
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;

    bool isActive() const { return active_; }
    /// Database error text when BEGIN or COMMIT failed.
    QString errorString() const { return error_; }
    bool commit();

private:
    QSqlDatabase db_;
    QString error_;
    bool active_ = false;
};

/// Current UTC time as stored in the database ("2026-01-31T12:00:00.000Z").
QString databaseTimestamp();

} // namespace diamond::app
