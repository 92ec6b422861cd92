// Users of a class server (table users, docs/rest-api.md "Users and roles"): a name, a role and a bearer token.
//
// Contracts:
// - The database holds only SHA-256(token) (hex): add() and renewToken() return the token once, and a copy of the
//   workspace file lets no one in. renewToken() replaces the token at once (the old one stops working); remove()
//   revokes the user's access with the row.
// - Tokens are 32 random bytes from the system generator (64 hex digits); userForToken() looks the token up by its
//   hash, so the time a lookup takes says nothing about any stored token.
// - Names: 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (the REST path pattern of
//   {name}); "owner" is reserved for the holder of the workspace's own token (<workspace>/rest-token).
// - Same threading rules as RunStore: the workspace's thread.
#pragma once

#include "app/workspace/workspace.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app::rest {

/// What a user may do (each REST route lists the roles it allows): students use the class's gallery, datasets and
/// targets within their quota and see only their own runs; instructors also manage projects, datasets and sweeps
/// and see every run; admins also manage users.
enum class Role { Student, Instructor, Admin };

/// "student", "instructor", "admin".
QString roleName(Role role);
std::optional<Role> roleFromName(const QString &name);

struct User {
    qint64 id = 0;
    QString name;
    Role role = Role::Student;
    bool canPublish = false; ///< students: may publish their runs and upload packages to the gallery
    int maxActiveRuns = 2;   ///< students: runs queued or running at once (0: none may start)
    /// Students: compute hours their runs may use in all (app/run/compute_usage.h); no value: no limit. A run
    /// starts only while the user's total is below the quota of its kind (CPU or GPU).
    std::optional<double> cpuHourQuota, gpuHourQuota;
    QString createdAt, tokenIssuedAt;
};

/// The JSON view of a user (no token, no hash): {name, role, can_publish, max_active_runs, cpu_hours_quota,
/// gpu_hours_quota (null: no limit), created_at, token_issued_at}.
QJsonObject userJson(const User &user);

/// 32 random bytes from the system generator, as 64 lower-case hex digits.
QString newBearerToken();

class UserStore {
public:
    /// `workspace` must be open and outlive this object.
    explicit UserStore(Workspace &workspace) : ws_(workspace) {}

    QString errorString() const { return error_; }

    struct NewUser {
        QString name;
        Role role = Role::Student;
        bool canPublish = false;                          ///< default: students do not publish
        int maxActiveRuns = 2;                            ///< default: two runs at once
        std::optional<double> cpuHourQuota, gpuHourQuota; ///< default: no limit
    };
    /// Stores the user and returns its token (shown once); nullopt with errorString() for a bad or taken name or a
    /// negative quota.
    std::optional<QString> add(const NewUser &user);
    /// A new token for `name`; the old one stops working.
    std::optional<QString> renewToken(const QString &name);
    /// Changes what the user named `changed.name` may do: role, publishing and quotas.
    bool update(const User &changed);
    /// Empty when the quotas are in range (runs 0–10000, hours 0–10^6), else why not.
    static QString checkQuotas(int maxActiveRuns, std::optional<double> cpuHours, std::optional<double> gpuHours);
    bool remove(const QString &name);
    std::optional<User> user(const QString &name);
    /// Every user, by name.
    QList<User> users();
    /// The user holding `token`, or nullopt (also for an empty or malformed token).
    std::optional<User> userForToken(const QString &token);

    /// Empty when `name` is a valid user name, else why not.
    static QString checkName(const QString &name);

private:
    bool fail(const QString &message);

    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app::rest
