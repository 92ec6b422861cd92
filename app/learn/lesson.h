// Lessons: guided, self-checking exercises written as data (resources/lessons/*.json, docs/lessons.md).
//
// A lesson file (format "diamond.lesson/1") holds the lesson's id, order, title, summary, an optional project (the
// runs made during the lesson go there, so the project's leaderboard is the lesson's), whether it needs a configured
// cluster, and its steps. A step has Markdown text, an optional place in the app to show ("show": a page and a
// widget or action object name) and a check (lesson_checks.h) the application evaluates against the workspace.
// Every text is an object of language code -> text; "en" is required, "zh_CN" is shipped for every lesson.
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

/// Text in several languages.
struct LocalizedText {
    QHash<QString, QString> byLanguage; ///< "en", "zh_CN", ...
    /// The text for `language` ("zh_CN"), else for its language part ("zh"), else English.
    QString in(const QString &language) const;
};

/// What a step asks the application to check; `kind` is one of lessonCheckKinds(), `params` its settings.
struct LessonCheck {
    QString kind;
    QJsonObject params;
};

struct LessonStep {
    QString id;
    LocalizedText title;
    LocalizedText body; ///< Markdown
    LocalizedText hint; ///< shown while the check fails; may be empty
    QString page;       ///< page to show for "Show me": designer, setup, data, gallery, clusters, sweeps, runs, learn
    QString widget;     ///< object name of the widget or action to highlight (may be empty)
    LessonCheck check;
};

struct Lesson {
    QString id;
    int order = 0;
    LocalizedText title;
    LocalizedText summary;
    int minutes = 0;           ///< expected time for a newcomer
    QString project;           ///< project of the lesson's runs; empty: the current one
    bool needsCluster = false; ///< true for lessons that run on a configured cluster
    QList<LessonStep> steps;
    QString sourceName; ///< file it was read from
};

/// Largest lesson file accepted (bytes).
inline constexpr qint64 kMaxLessonFileBytes = 256 * 1024;

/// Parses one lesson file's text. `sourceName` names the file in errors; an error names the step (number and id)
/// and the field.
std::optional<Lesson> parseLesson(const QByteArray &json, const QString &sourceName, QString *error);

/// The shipped lessons (":/lessons/*.json"), by order. A lesson that fails to parse is left out and its error
/// appended to `errors` (when given).
QList<Lesson> shippedLessons(QStringList *errors = nullptr);

/// The shipped lesson with this id.
std::optional<Lesson> shippedLesson(const QString &id);

} // namespace diamond::app
