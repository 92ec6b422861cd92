#include "app/sweep/sweep_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app::sweep {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::sweep", text); }

QString compact(const QJsonObject &o) { return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)); }

QJsonObject parse(const QVariant &v) { return QJsonDocument::fromJson(v.toString().toUtf8()).object(); }

constexpr const char *kSweepColumns = "id, project_id, architecture_version_id, name, strategy, objective, state, "
                                      "config_json, state_json, created_at, updated_at";
constexpr const char *kTrialColumns = "id, sweep_id, run_id, trial_index, params_json, state, objective_value, "
                                      "rung, budget, info_json, created_at, updated_at";

SweepRow sweepFrom(const QSqlQuery &q) {
    SweepRow r;
    r.id = q.value(0).toLongLong();
    r.projectId = q.value(1).toLongLong();
    r.architectureVersionId = q.value(2).toLongLong();
    r.name = q.value(3).toString();
    r.strategy = q.value(4).toString();
    r.objective = q.value(5).toString();
    r.state = q.value(6).toString();
    r.document = parse(q.value(7));
    r.stateJson = parse(q.value(8));
    r.createdAt = q.value(9).toString();
    r.updatedAt = q.value(10).toString();
    return r;
}

TrialRow trialFrom(const QSqlQuery &q) {
    TrialRow t;
    t.id = q.value(0).toLongLong();
    t.sweepId = q.value(1).toLongLong();
    t.runId = q.value(2).toLongLong();
    t.index = q.value(3).toInt();
    t.params = parse(q.value(4));
    t.state = q.value(5).toString();
    if (!q.value(6).isNull()) t.objective = q.value(6).toDouble();
    t.rung = q.value(7).toInt();
    t.budget = q.value(8).toDouble();
    t.info = parse(q.value(9));
    t.createdAt = q.value(10).toString();
    t.updatedAt = q.value(11).toString();
    return t;
}

} // namespace

bool SweepStore::fail(const QString &message) {
    error_ = message;
    return false;
}

std::optional<qint64> SweepStore::createSweep(qint64 projectId, qint64 architectureVersionId,
                                              const SweepDefinition &def) {
    error_.clear();
    const QString now = databaseTimestamp();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT INTO sweeps (project_id, architecture_version_id, name, strategy, space_json,"
                             " objective, state, created_at, config_json, state_json, updated_at)"
                             " VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, '{}', ?)"));
    q.addBindValue(projectId);
    q.addBindValue(architectureVersionId > 0 ? QVariant(architectureVersionId) : QVariant());
    q.addBindValue(def.name);
    q.addBindValue(def.algorithm.name);
    q.addBindValue(QString::fromUtf8(QJsonDocument(def.space.toJson()).toJson(QJsonDocument::Compact)));
    q.addBindValue(def.objective.describe());
    q.addBindValue(now);
    q.addBindValue(compact(def.toJson()));
    q.addBindValue(now);
    if (!q.exec()) return fail(tr("Cannot create the sweep: %1").arg(q.lastError().text())), std::nullopt;
    return q.lastInsertId().toLongLong();
}

std::optional<SweepRow> SweepStore::sweep(qint64 id) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM sweeps WHERE id = ?").arg(QLatin1String(kSweepColumns)));
    q.addBindValue(id);
    if (!q.exec() || !q.next()) return fail(tr("No sweep %1.").arg(id)), std::nullopt;
    return sweepFrom(q);
}

QList<SweepRow> SweepStore::sweeps() {
    QList<SweepRow> out;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT %1 FROM sweeps ORDER BY id").arg(QLatin1String(kSweepColumns)))) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append(sweepFrom(q));
    return out;
}

bool SweepStore::setSweepState(qint64 id, const QString &state, const std::optional<QJsonObject> &stateJson) {
    QSqlQuery q(ws_.database());
    q.prepare(stateJson ? QStringLiteral("UPDATE sweeps SET state = ?, updated_at = ?, state_json = ? WHERE id = ?")
                        : QStringLiteral("UPDATE sweeps SET state = ?, updated_at = ? WHERE id = ?"));
    q.addBindValue(state);
    q.addBindValue(databaseTimestamp());
    if (stateJson) q.addBindValue(compact(*stateJson));
    q.addBindValue(id);
    if (!q.exec()) return fail(q.lastError().text());
    return true;
}

bool SweepStore::compareAndSetSweepState(qint64 id, const QString &from, const QString &to) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("UPDATE sweeps SET state = ?, updated_at = ? WHERE id = ? AND state = ?"));
    q.addBindValue(to);
    q.addBindValue(databaseTimestamp());
    q.addBindValue(id);
    q.addBindValue(from);
    if (!q.exec()) return fail(q.lastError().text());
    return q.numRowsAffected() == 1;
}

std::optional<qint64> SweepStore::insertTrial(const TrialRow &t) {
    const QString now = databaseTimestamp();
    QSqlQuery q(ws_.database());
    q.prepare(
        QStringLiteral("INSERT INTO trials (sweep_id, run_id, trial_index, params_json, state, objective_value,"
                       " created_at, rung, budget, info_json, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(t.sweepId);
    q.addBindValue(t.runId > 0 ? QVariant(t.runId) : QVariant());
    q.addBindValue(t.index);
    q.addBindValue(compact(t.params));
    q.addBindValue(t.state);
    q.addBindValue(t.objective ? QVariant(*t.objective) : QVariant());
    q.addBindValue(now);
    q.addBindValue(t.rung);
    q.addBindValue(t.budget);
    q.addBindValue(compact(t.info));
    q.addBindValue(now);
    if (!q.exec())
        return fail(tr("Cannot record trial %1 of sweep %2: %3").arg(t.index).arg(t.sweepId).arg(q.lastError().text())),
               std::nullopt;
    return q.lastInsertId().toLongLong();
}

bool SweepStore::updateTrial(const TrialRow &t) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("UPDATE trials SET run_id = ?, state = ?, objective_value = ?, rung = ?, budget = ?,"
                             " info_json = ?, updated_at = ? WHERE id = ?"));
    q.addBindValue(t.runId > 0 ? QVariant(t.runId) : QVariant());
    q.addBindValue(t.state);
    q.addBindValue(t.objective ? QVariant(*t.objective) : QVariant());
    q.addBindValue(t.rung);
    q.addBindValue(t.budget);
    q.addBindValue(compact(t.info));
    q.addBindValue(databaseTimestamp());
    q.addBindValue(t.id);
    if (!q.exec()) return fail(q.lastError().text());
    return true;
}

QList<TrialRow> SweepStore::trials(qint64 sweepId) {
    QList<TrialRow> out;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM trials WHERE sweep_id = ? ORDER BY trial_index")
                  .arg(QLatin1String(kTrialColumns)));
    q.addBindValue(sweepId);
    if (!q.exec()) {
        fail(q.lastError().text());
        return out;
    }
    while (q.next())
        out.append(trialFrom(q));
    return out;
}

std::optional<TrialRow> SweepStore::trialByRun(qint64 runId) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT %1 FROM trials WHERE run_id = ?").arg(QLatin1String(kTrialColumns)));
    q.addBindValue(runId);
    if (!q.exec() || !q.next()) return std::nullopt;
    return trialFrom(q);
}

bool SweepStore::setRunConfig(qint64 runId, const QJsonObject &config) {
    QSaveFile f(QDir(ws_.runDirectory(runId)).filePath(QStringLiteral("run.json")));
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(config).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit())
        return fail(tr("Cannot write the config of run %1: %2").arg(runId).arg(f.errorString()));
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("UPDATE runs SET config_json = ?, updated_at = ? WHERE id = ?"));
    q.addBindValue(compact(config));
    q.addBindValue(databaseTimestamp());
    q.addBindValue(runId);
    if (!q.exec()) return fail(q.lastError().text());
    return true;
}

std::optional<qint64> SweepStore::unlinkedRunNamed(qint64 projectId, const QString &name) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT r.id FROM runs r WHERE r.project_id = ? AND r.name = ? AND NOT EXISTS"
                             " (SELECT 1 FROM trials t WHERE t.run_id = r.id) ORDER BY r.id DESC LIMIT 1"));
    q.addBindValue(projectId);
    q.addBindValue(name);
    if (!q.exec() || !q.next()) return std::nullopt;
    return q.value(0).toLongLong();
}

} // namespace diamond::app::sweep
