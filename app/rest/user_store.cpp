#include "app/rest/user_store.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app::rest {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::rest::UserStore", text); }

QString tokenHash(const QString &token) {
    return QString::fromLatin1(QCryptographicHash::hash(token.toLatin1(), QCryptographicHash::Sha256).toHex());
}

constexpr const char *kColumns =
    "id, name, role, can_publish, max_active_runs, created_at, token_issued_at, cpu_hours_quota, gpu_hours_quota";

std::optional<double> optionalDouble(const QVariant &v) {
    if (v.isNull()) return std::nullopt;
    return v.toDouble();
}

QVariant toVariant(std::optional<double> v) { return v ? QVariant(*v) : QVariant(); }

QJsonValue toJson(std::optional<double> v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

User fromRow(const QSqlQuery &q) {
    User u;
    u.id = q.value(0).toLongLong();
    u.name = q.value(1).toString();
    u.role = roleFromName(q.value(2).toString()).value_or(Role::Student);
    u.canPublish = q.value(3).toBool();
    u.maxActiveRuns = q.value(4).toInt();
    u.createdAt = q.value(5).toString();
    u.tokenIssuedAt = q.value(6).toString();
    u.cpuHourQuota = optionalDouble(q.value(7));
    u.gpuHourQuota = optionalDouble(q.value(8));
    return u;
}

} // namespace

QString roleName(Role role) {
    switch (role) {
    case Role::Student: return QStringLiteral("student");
    case Role::Instructor: return QStringLiteral("instructor");
    case Role::Admin: return QStringLiteral("admin");
    }
    return {};
}

std::optional<Role> roleFromName(const QString &name) {
    for (Role r : {Role::Student, Role::Instructor, Role::Admin})
        if (roleName(r) == name) return r;
    return std::nullopt;
}

QJsonObject userJson(const User &u) {
    return {{QStringLiteral("name"), u.name},
            {QStringLiteral("role"), roleName(u.role)},
            {QStringLiteral("can_publish"), u.canPublish},
            {QStringLiteral("max_active_runs"), u.maxActiveRuns},
            {QStringLiteral("cpu_hours_quota"), toJson(u.cpuHourQuota)},
            {QStringLiteral("gpu_hours_quota"), toJson(u.gpuHourQuota)},
            {QStringLiteral("created_at"), u.createdAt},
            {QStringLiteral("token_issued_at"), u.tokenIssuedAt}};
}

QString newBearerToken() {
    QByteArray random(32, Qt::Uninitialized);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(random.data()),
                                         reinterpret_cast<quint32 *>(random.data() + random.size()));
    return QString::fromLatin1(random.toHex());
}

QString UserStore::checkName(const QString &name) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (!re.match(name).hasMatch())
        return tr("'%1' is not a valid user name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a "
                  "letter or digit.")
            .arg(name.left(80));
    if (name == QLatin1String("owner")) return tr("'owner' is reserved for the holder of the workspace's own token.");
    return {};
}

QString UserStore::checkQuotas(int maxActiveRuns, std::optional<double> cpuHours, std::optional<double> gpuHours) {
    if (maxActiveRuns < 0 || maxActiveRuns > 10000)
        return tr("The number of runs at once must be between 0 and 10000, not %1.").arg(maxActiveRuns);
    for (const auto &[hours, kind] : {std::pair(cpuHours, "CPU"), std::pair(gpuHours, "GPU")})
        if (hours && !(*hours >= 0 && *hours <= 1e6))
            return tr("The %1-hour quota must be between 0 and 1000000 hours, not %2.")
                .arg(QLatin1String(kind))
                .arg(*hours);
    return {};
}

bool UserStore::fail(const QString &message) {
    error_ = message;
    return false;
}

std::optional<QString> UserStore::add(const NewUser &n) {
    error_.clear();
    if (const QString problem = checkName(n.name); !problem.isEmpty()) return fail(problem), std::nullopt;
    if (const QString problem = checkQuotas(n.maxActiveRuns, n.cpuHourQuota, n.gpuHourQuota); !problem.isEmpty())
        return fail(problem), std::nullopt;
    if (user(n.name)) return fail(tr("A user named '%1' exists already.").arg(n.name)), std::nullopt;
    const QString token = newBearerToken();
    const QString t = databaseTimestamp();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT INTO users (name, role, token_sha256, can_publish, max_active_runs, created_at, "
                             "token_issued_at, cpu_hours_quota, gpu_hours_quota) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &v :
         {QVariant(n.name), QVariant(roleName(n.role)), QVariant(tokenHash(token)), QVariant(n.canPublish ? 1 : 0),
          QVariant(n.maxActiveRuns), QVariant(t), QVariant(t), toVariant(n.cpuHourQuota), toVariant(n.gpuHourQuota)})
        q.addBindValue(v);
    if (!q.exec()) return fail(tr("Cannot store user '%1': %2").arg(n.name, q.lastError().text())), std::nullopt;
    return token;
}

std::optional<QString> UserStore::renewToken(const QString &name) {
    error_.clear();
    const QString token = newBearerToken();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("UPDATE users SET token_sha256 = ?, token_issued_at = ? WHERE name = ?"));
    q.addBindValue(tokenHash(token));
    q.addBindValue(databaseTimestamp());
    q.addBindValue(name);
    if (!q.exec()) return fail(tr("Cannot renew the token of '%1': %2").arg(name, q.lastError().text())), std::nullopt;
    if (q.numRowsAffected() != 1) return fail(tr("There is no user named '%1'.").arg(name)), std::nullopt;
    return token;
}

bool UserStore::update(const User &u) {
    error_.clear();
    if (const QString problem = checkQuotas(u.maxActiveRuns, u.cpuHourQuota, u.gpuHourQuota); !problem.isEmpty())
        return fail(problem);
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("UPDATE users SET role = ?, can_publish = ?, max_active_runs = ?, cpu_hours_quota = ?, "
                             "gpu_hours_quota = ? WHERE name = ?"));
    for (const QVariant &v : {QVariant(roleName(u.role)), QVariant(u.canPublish ? 1 : 0), QVariant(u.maxActiveRuns),
                              toVariant(u.cpuHourQuota), toVariant(u.gpuHourQuota), QVariant(u.name)})
        q.addBindValue(v);
    if (!q.exec()) return fail(tr("Cannot change user '%1': %2").arg(u.name, q.lastError().text()));
    if (q.numRowsAffected() != 1) return fail(tr("There is no user named '%1'.").arg(u.name));
    return true;
}

bool UserStore::remove(const QString &name) {
    error_.clear();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("DELETE FROM users WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec()) return fail(tr("Cannot remove user '%1': %2").arg(name, q.lastError().text()));
    if (q.numRowsAffected() != 1) return fail(tr("There is no user named '%1'.").arg(name));
    return true;
}

std::optional<User> UserStore::user(const QString &name) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM users WHERE name = ?").arg(QLatin1String(kColumns)));
    q.addBindValue(name);
    if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
    if (!q.next()) return fail(tr("There is no user named '%1'.").arg(name)), std::nullopt;
    return fromRow(q);
}

QList<User> UserStore::users() {
    error_.clear();
    QList<User> out;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT %1 FROM users ORDER BY name").arg(QLatin1String(kColumns))))
        return fail(q.lastError().text()), out;
    while (q.next())
        out.append(fromRow(q));
    return out;
}

std::optional<User> UserStore::userForToken(const QString &token) {
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
    if (!hex.match(token).hasMatch()) return std::nullopt;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM users WHERE token_sha256 = ?").arg(QLatin1String(kColumns)));
    q.addBindValue(tokenHash(token));
    if (!q.exec() || !q.next()) return std::nullopt;
    return fromRow(q);
}

} // namespace diamond::app::rest
