#include "app/learn/lesson_progress.h"

#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::LessonProgressStore", text); }

// The row with an empty step id ('') holds the lesson's start time.

} // namespace

LessonProgressStore::LessonProgressStore(Workspace &workspace) : ws_(workspace) {}

bool LessonProgressStore::fail(const QString &message) {
    error_ = message;
    return false;
}

QString LessonProgressStore::start(const QString &lessonId) {
    error_.clear();
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO lesson_progress (lesson_id, step_id, at) VALUES (?, '', ?)"));
    q.addBindValue(lessonId);
    q.addBindValue(databaseTimestamp());
    if (!q.exec()) {
        fail(tr("Cannot save the start of lesson %1: %2").arg(lessonId, q.lastError().text()));
        return {};
    }
    return startedAt(lessonId);
}

QString LessonProgressStore::startedAt(const QString &lessonId) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT at FROM lesson_progress WHERE lesson_id = ? AND step_id = ''"));
    q.addBindValue(lessonId);
    if (!q.exec()) {
        fail(tr("Cannot read the progress of lesson %1: %2").arg(lessonId, q.lastError().text()));
        return {};
    }
    return q.next() ? q.value(0).toString() : QString();
}

bool LessonProgressStore::reset(const QString &lessonId) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("DELETE FROM lesson_progress WHERE lesson_id = ?"));
    q.addBindValue(lessonId);
    if (!q.exec()) return fail(tr("Cannot reset lesson %1: %2").arg(lessonId, q.lastError().text()));
    return true;
}

bool LessonProgressStore::markDone(const QString &lessonId, const QString &stepId) {
    if (stepId.isEmpty()) return fail(tr("A step id is empty."));
    if (startedAt(lessonId).isEmpty() && start(lessonId).isEmpty()) return false;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT OR IGNORE INTO lesson_progress (lesson_id, step_id, at) VALUES (?, ?, ?)"));
    q.addBindValue(lessonId);
    q.addBindValue(stepId);
    q.addBindValue(databaseTimestamp());
    if (!q.exec()) return fail(tr("Cannot save step %1 of lesson %2: %3").arg(stepId, lessonId, q.lastError().text()));
    return true;
}

QSet<QString> LessonProgressStore::doneSteps(const QString &lessonId) {
    QSet<QString> out;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("SELECT step_id FROM lesson_progress WHERE lesson_id = ? AND step_id <> ''"));
    q.addBindValue(lessonId);
    if (!q.exec()) {
        fail(tr("Cannot read the progress of lesson %1: %2").arg(lessonId, q.lastError().text()));
        return out;
    }
    while (q.next())
        out.insert(q.value(0).toString());
    return out;
}

QStringList LessonProgressStore::startedLessons() {
    QStringList out;
    QSqlQuery q(ws_.database());
    if (!q.exec(QStringLiteral("SELECT lesson_id FROM lesson_progress WHERE step_id = '' ORDER BY at"))) {
        fail(tr("Cannot read the lesson progress: %1").arg(q.lastError().text()));
        return out;
    }
    while (q.next())
        out << q.value(0).toString();
    return out;
}

bool LessonProgressStore::recordActivity(const QString &kind, const QJsonObject &detail) {
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral("INSERT INTO learning_activity (kind, detail_json, at) VALUES (?, ?, ?)"));
    q.addBindValue(kind);
    q.addBindValue(QString::fromUtf8(QJsonDocument(detail).toJson(QJsonDocument::Compact)));
    q.addBindValue(databaseTimestamp());
    if (!q.exec()) return fail(tr("Cannot record the activity %1: %2").arg(kind, q.lastError().text()));
    return true;
}

QList<LearningActivity> LessonProgressStore::activities(const QString &kind, const QString &since) {
    QList<LearningActivity> out;
    QSqlQuery q(ws_.database());
    q.prepare(QStringLiteral(
        "SELECT id, kind, detail_json, at FROM learning_activity WHERE kind = ? AND at >= COALESCE(?, '') "
        "ORDER BY id"));
    q.addBindValue(kind);
    q.addBindValue(since);
    if (!q.exec()) {
        fail(tr("Cannot read the learning activity: %1").arg(q.lastError().text()));
        return out;
    }
    while (q.next()) {
        LearningActivity a;
        a.id = q.value(0).toLongLong();
        a.kind = q.value(1).toString();
        a.detail = QJsonDocument::fromJson(q.value(2).toString().toUtf8()).object();
        a.at = q.value(3).toString();
        out << a;
    }
    return out;
}

} // namespace diamond::app
