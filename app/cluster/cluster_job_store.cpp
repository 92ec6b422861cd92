#include "app/cluster/cluster_job_store.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app {

namespace {

ClusterJob jobFrom(const QSqlQuery &q) {
    return {q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), q.value(3).toBool(),
            q.value(4).toString(),   q.value(5).toString(), q.value(6).toString(), q.value(7).toString()};
}

/// A null QString binds as NULL; the text columns are NOT NULL.
QString text(const QString &s) { return s.isNull() ? QStringLiteral("") : s; }

constexpr const char *kColumns = "run_id, cluster, job_id, continuation, phase, reason, submitted_at, updated_at";

} // namespace

bool ClusterJobStore::fail(const QString &message) {
    error_ = message;
    return false;
}

bool ClusterJobStore::recordSubmission(qint64 runId, const QString &cluster, const QString &jobId, bool continuation) {
    error_.clear();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT INTO cluster_jobs (run_id, cluster, job_id, continuation, submitted_at,"
                             " updated_at) SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM cluster_jobs"
                             " WHERE run_id = ? AND cluster = ? AND job_id = ?)"));
    const QString now = databaseTimestamp();
    q.addBindValue(runId);
    q.addBindValue(cluster);
    q.addBindValue(jobId);
    q.addBindValue(continuation ? 1 : 0);
    q.addBindValue(now);
    q.addBindValue(now);
    q.addBindValue(runId);
    q.addBindValue(cluster);
    q.addBindValue(jobId);
    return q.exec() || fail(q.lastError().text());
}

bool ClusterJobStore::updatePhase(qint64 runId, const QString &jobId, const QString &phase, const QString &reason,
                                  const QString &cluster) {
    error_.clear();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("UPDATE cluster_jobs SET phase = ?, reason = ?, updated_at = ? WHERE run_id = ? AND"
                             " job_id = ?") +
              (cluster.isEmpty() ? QString() : QStringLiteral(" AND cluster = ?")));
    q.addBindValue(text(phase));
    q.addBindValue(text(reason));
    q.addBindValue(databaseTimestamp());
    q.addBindValue(runId);
    q.addBindValue(jobId);
    if (!cluster.isEmpty()) q.addBindValue(cluster);
    return q.exec() || fail(q.lastError().text());
}

std::optional<ClusterJob> ClusterJobStore::current(qint64 runId) {
    // The oldest job that has not ended (the jobs queued behind it in a chain come later), else the newest.
    for (const char *order : {"phase NOT IN ('completed', 'failed', 'cancelled', 'timed-out', 'node-failed') "
                              "ORDER BY id ASC",
                              "1 ORDER BY id DESC"}) {
        QSqlQuery q(ws_.database());
        q.prepare(QStringLiteral("SELECT %1 FROM cluster_jobs WHERE run_id = ? AND %2 LIMIT 1")
                      .arg(QLatin1String(kColumns), QLatin1String(order)));
        q.addBindValue(runId);
        if (!q.exec()) return fail(q.lastError().text()), std::nullopt;
        if (q.next()) return jobFrom(q);
    }
    return std::nullopt;
}

QList<ClusterJob> ClusterJobStore::jobs(qint64 runId) {
    QList<ClusterJob> out;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM cluster_jobs WHERE run_id = ? ORDER BY id").arg(QLatin1String(kColumns)));
    q.addBindValue(runId);
    if (!q.exec()) return fail(q.lastError().text()), out;
    while (q.next())
        out.append(jobFrom(q));
    return out;
}

} // namespace diamond::app
