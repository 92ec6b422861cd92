#include "app/cluster/cluster_store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ClusterStore", text); }

QString now() { return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs); }

std::optional<remote::ClusterProfile> fromRow(const QSqlQuery &q, QString *error) {
    QJsonObject json = QJsonDocument::fromJson(q.value(5).toByteArray()).object();
    json.insert(QStringLiteral("name"), q.value(0).toString());
    json.insert(QStringLiteral("host"), q.value(1).toString());
    json.insert(QStringLiteral("port"), q.value(2).toInt());
    if (!q.value(3).toString().isEmpty()) json.insert(QStringLiteral("user"), q.value(3).toString());
    json.insert(QStringLiteral("scheduler"), q.value(4).toString());
    auto profile = remote::ClusterProfile::fromJson(json, error);
    if (!profile) *error = tr("Cluster profile '%1' is invalid: %2").arg(q.value(0).toString(), *error);
    return profile;
}

constexpr const char *kColumns = "name, host, port, username, scheduler, config_json";

} // namespace

bool ClusterStore::fail(const QString &message) {
    error_ = message;
    return false;
}

bool ClusterStore::add(const remote::ClusterProfile &p) {
    error_.clear();
    if (const QString problem = p.validate(); !problem.isEmpty()) return fail(problem);
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT INTO cluster_profiles (name, host, port, username, scheduler, config_json, "
                             "created_at, updated_at) VALUES (?, ?, ?, COALESCE(?, ''), ?, ?, ?, ?)"));
    const QString t = now();
    for (const QVariant &v :
         {QVariant(p.name), QVariant(p.host), QVariant(p.port), QVariant(p.user),
          QVariant(remote::schedulerKindName(p.scheduler)),
          QVariant(QJsonDocument(p.configJson()).toJson(QJsonDocument::Compact)), QVariant(t), QVariant(t)})
        q.addBindValue(v);
    if (!q.exec()) {
        if (profile(p.name)) return fail(tr("A cluster profile named '%1' exists already.").arg(p.name));
        return fail(tr("Cannot store cluster profile '%1': %2").arg(p.name, q.lastError().text()));
    }
    return true;
}

bool ClusterStore::update(const remote::ClusterProfile &p) {
    error_.clear();
    if (const QString problem = p.validate(); !problem.isEmpty()) return fail(problem);
    QSqlQuery q(ws_.database());
    q.prepare(
        QStringLiteral("UPDATE cluster_profiles SET host = ?, port = ?, username = COALESCE(?, ''), scheduler = ?, "
                       "config_json = ?, updated_at = ? WHERE name = ?"));
    for (const QVariant &v :
         {QVariant(p.host), QVariant(p.port), QVariant(p.user), QVariant(remote::schedulerKindName(p.scheduler)),
          QVariant(QJsonDocument(p.configJson()).toJson(QJsonDocument::Compact)), QVariant(now()), QVariant(p.name)})
        q.addBindValue(v);
    if (!q.exec()) return fail(tr("Cannot update cluster profile '%1': %2").arg(p.name, q.lastError().text()));
    if (q.numRowsAffected() != 1) return fail(tr("There is no cluster profile named '%1'.").arg(p.name));
    return true;
}

bool ClusterStore::remove(const QString &name) {
    error_.clear();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("DELETE FROM cluster_profiles WHERE name = ?"));
    q.addBindValue(name);
    if (!q.exec()) return fail(tr("Cannot delete cluster profile '%1': %2").arg(name, q.lastError().text()));
    if (q.numRowsAffected() != 1) return fail(tr("There is no cluster profile named '%1'.").arg(name));
    return true;
}

std::optional<remote::ClusterProfile> ClusterStore::profile(const QString &name) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM cluster_profiles WHERE name = ?").arg(QLatin1String(kColumns)));
    q.addBindValue(name);
    if (!q.exec()) {
        fail(tr("Cannot read cluster profiles: %1").arg(q.lastError().text()));
        return std::nullopt;
    }
    if (!q.next()) {
        fail(tr("There is no cluster profile named '%1'.").arg(name));
        return std::nullopt;
    }
    return fromRow(q, &error_);
}

QList<remote::ClusterProfile> ClusterStore::profiles() {
    error_.clear();
    QList<remote::ClusterProfile> out;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT %1 FROM cluster_profiles ORDER BY name").arg(QLatin1String(kColumns)))) {
        fail(tr("Cannot read cluster profiles: %1").arg(q.lastError().text()));
        return out;
    }
    while (q.next()) {
        QString error;
        if (auto p = fromRow(q, &error))
            out << *p;
        else
            error_ = error;
    }
    return out;
}

} // namespace diamond::app
