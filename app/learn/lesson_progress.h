// Lesson progress of a workspace (tables lesson_progress and learning_activity, schema migration 10): when each
// lesson started, which steps are done, and the student's actions a check needs but no other table records
// (a comparison of runs).
#pragma once

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>

#include <optional>

namespace diamond::app {

class Workspace;

struct LearningActivity {
    qint64 id = 0;
    QString kind;       ///< "compare"
    QJsonObject detail; ///< "compare": {"runs": [ids]}
    QString at;
};

class LessonProgressStore {
public:
    explicit LessonProgressStore(Workspace &workspace);

    QString errorString() const { return error_; }

    /// Starts the lesson unless it is started; returns its start time (empty on failure).
    QString start(const QString &lessonId);
    /// Start time of the lesson, empty when not started.
    QString startedAt(const QString &lessonId);
    /// Forgets the lesson's start and done steps (so it can be taken again).
    bool reset(const QString &lessonId);
    bool markDone(const QString &lessonId, const QString &stepId);
    QSet<QString> doneSteps(const QString &lessonId);
    /// Lesson ids with a start time.
    QStringList startedLessons();

    bool recordActivity(const QString &kind, const QJsonObject &detail);
    /// Activities of a kind at or after `since` (all when empty), oldest first.
    QList<LearningActivity> activities(const QString &kind, const QString &since);

private:
    bool fail(const QString &message);
    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app
