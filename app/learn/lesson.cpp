#include "app/learn/lesson.h"

#include "app/learn/lesson_checks.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::Lesson", text); }

const QStringList kPages = {QStringLiteral("designer"), QStringLiteral("setup"),    QStringLiteral("data"),
                            QStringLiteral("gallery"),  QStringLiteral("clusters"), QStringLiteral("sweeps"),
                            QStringLiteral("runs"),     QStringLiteral("learn")};

bool validId(const QString &id) {
    static const QRegularExpression re(QStringLiteral("^[a-z0-9][a-z0-9-]{0,63}$"));
    return re.match(id).hasMatch();
}

/// Reads `key` of `object` as localized text into *out. `where` names the place for errors.
bool readText(const QJsonObject &object, const char *key, bool required, const QString &where, LocalizedText *out,
              QString *error) {
    const QJsonValue v = object.value(QLatin1String(key));
    if (v.isUndefined() && !required) return true;
    if (!v.isObject()) {
        *error = tr("%1: \"%2\" must be an object of language -> text.").arg(where, QLatin1String(key));
        return false;
    }
    const QJsonObject texts = v.toObject();
    for (auto it = texts.begin(); it != texts.end(); ++it) {
        if (!it.value().isString()) {
            *error = tr("%1: \"%2\".%3 must be text.").arg(where, QLatin1String(key), it.key());
            return false;
        }
        out->byLanguage.insert(it.key(), it.value().toString());
    }
    if (out->byLanguage.value(QStringLiteral("en")).trimmed().isEmpty()) {
        *error = tr("%1: \"%2\" has no English (\"en\") text.").arg(where, QLatin1String(key));
        return false;
    }
    return true;
}

bool readStep(const QJsonValue &value, int number, QSet<QString> *ids, LessonStep *step, QString *error) {
    QString where = tr("step %1").arg(number);
    if (!value.isObject()) {
        *error = tr("%1 is not an object.").arg(where);
        return false;
    }
    const QJsonObject o = value.toObject();
    step->id = o.value(QStringLiteral("id")).toString();
    if (!validId(step->id)) {
        *error = tr("%1: \"id\" must be 1-64 characters a-z, 0-9 and '-'.").arg(where);
        return false;
    }
    where = tr("step %1 (%2)").arg(number).arg(step->id);
    if (ids->contains(step->id)) {
        *error = tr("%1: the id is used by an earlier step.").arg(where);
        return false;
    }
    ids->insert(step->id);
    if (!readText(o, "title", true, where, &step->title, error) ||
        !readText(o, "body", true, where, &step->body, error) || !readText(o, "hint", false, where, &step->hint, error))
        return false;
    const QJsonObject show = o.value(QStringLiteral("show")).toObject();
    step->page = show.value(QStringLiteral("page")).toString();
    step->widget = show.value(QStringLiteral("widget")).toString();
    if (!step->page.isEmpty() && !kPages.contains(step->page)) {
        *error = tr("%1: show.page \"%2\" is not one of %3.").arg(where, step->page, kPages.join(QStringLiteral(", ")));
        return false;
    }
    const QJsonValue check = o.value(QStringLiteral("check"));
    if (!check.isObject()) {
        *error = tr("%1: \"check\" must be an object with a \"kind\".").arg(where);
        return false;
    }
    step->check.params = check.toObject();
    step->check.kind = step->check.params.take(QStringLiteral("kind")).toString();
    QString checkError;
    if (!validateLessonCheck(step->check, &checkError)) {
        *error = tr("%1: check: %2").arg(where, checkError);
        return false;
    }
    return true;
}

} // namespace

QString LocalizedText::in(const QString &language) const {
    auto exact = byLanguage.constFind(language);
    if (exact != byLanguage.constEnd() && !exact->isEmpty()) return *exact;
    const QString prefix = language.section(QLatin1Char('_'), 0, 0);
    for (auto it = byLanguage.constBegin(); it != byLanguage.constEnd(); ++it)
        if (!it->isEmpty() && it.key().section(QLatin1Char('_'), 0, 0) == prefix) return *it;
    return byLanguage.value(QStringLiteral("en"));
}

std::optional<Lesson> parseLesson(const QByteArray &json, const QString &sourceName, QString *error) {
    const auto failed = [&](const QString &message) {
        *error = tr("%1: %2").arg(sourceName, message);
        return std::nullopt;
    };
    if (json.size() > kMaxLessonFileBytes)
        return failed(
            tr("the file has %1 bytes, more than the %2 a lesson may have.").arg(json.size()).arg(kMaxLessonFileBytes));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const int line = int(json.left(parseError.offset).count('\n')) + 1;
        return failed(tr("line %1: %2").arg(line).arg(parseError.errorString()));
    }
    if (!doc.isObject()) return failed(tr("the lesson must be a JSON object."));
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != QStringLiteral("diamond.lesson/1"))
        return failed(tr("\"format\" must be \"diamond.lesson/1\"."));
    Lesson lesson;
    lesson.sourceName = sourceName;
    lesson.id = o.value(QStringLiteral("id")).toString();
    if (!validId(lesson.id)) return failed(tr("\"id\" must be 1-64 characters a-z, 0-9 and '-'."));
    lesson.order = o.value(QStringLiteral("order")).toInt();
    lesson.minutes = o.value(QStringLiteral("minutes")).toInt();
    lesson.project = o.value(QStringLiteral("project")).toString().trimmed();
    lesson.needsCluster = o.value(QStringLiteral("needs_cluster")).toBool();
    if (lesson.project.size() > 200) return failed(tr("\"project\" is longer than 200 characters."));
    QString textError;
    if (!readText(o, "title", true, tr("lesson"), &lesson.title, &textError) ||
        !readText(o, "summary", true, tr("lesson"), &lesson.summary, &textError))
        return failed(textError);
    const QJsonArray steps = o.value(QStringLiteral("steps")).toArray();
    if (steps.isEmpty()) return failed(tr("\"steps\" must be a non-empty array."));
    if (steps.size() > 100) return failed(tr("a lesson has at most 100 steps, this one %1.").arg(steps.size()));
    QSet<QString> ids;
    for (int i = 0; i < steps.size(); ++i) {
        LessonStep step;
        QString stepError;
        if (!readStep(steps.at(i), i + 1, &ids, &step, &stepError)) return failed(stepError);
        lesson.steps << step;
    }
    return lesson;
}

QList<Lesson> shippedLessons(QStringList *errors) {
    QList<Lesson> out;
    const QDir dir(QStringLiteral(":/lessons"));
    for (const QString &name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        QString error;
        std::optional<Lesson> lesson;
        if (!file.open(QIODevice::ReadOnly))
            error = tr("Cannot read %1.").arg(name);
        else
            lesson = parseLesson(file.read(kMaxLessonFileBytes + 1), name, &error);
        if (lesson)
            out << *lesson;
        else if (errors)
            *errors << error;
    }
    std::stable_sort(out.begin(), out.end(), [](const Lesson &a, const Lesson &b) { return a.order < b.order; });
    return out;
}

std::optional<Lesson> shippedLesson(const QString &id) {
    for (const Lesson &l : shippedLessons())
        if (l.id == id) return l;
    return std::nullopt;
}

} // namespace diamond::app
