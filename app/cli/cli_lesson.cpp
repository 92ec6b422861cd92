// diamondctl lesson list|show|check|reset: the lessons of the Learn page (app/learn, docs/lessons.md) from a terminal.
// `check` starts the lesson when new, evaluates every step's check against the workspace (and --spec FILE as the
// network being designed) and saves the steps that pass, as the desktop app does. Errors: "diamondctl: ..." on
// stderr, exit 1; 2 for bad usage.
#include "cli.h"

#include "app/learn/lesson.h"
#include "app/learn/lesson_checks.h"
#include "app/learn/lesson_progress.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

namespace diamond::cli {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

QString lessonUsage() {
    return tr("Usage:\n"
              "  diamondctl lesson list [--json]          the lessons with this workspace's progress\n"
              "  diamondctl lesson show ID [--lang L]     a lesson's steps as text (L: en, zh_CN)\n"
              "  diamondctl lesson check ID [--spec FILE] [--json]\n"
              "                                           evaluate the lesson's checks against the workspace and\n"
              "                                           save the steps that pass (FILE: the network you design)\n"
              "  diamondctl lesson reset ID               forget the lesson's progress\n");
}

constexpr qint64 kMaxSpecBytes = 16 * 1024 * 1024;

} // namespace

int runLesson(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << lessonUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    CommandOptions o;
    if (!parseOptions(args.mid(1), {QStringLiteral("--spec"), QStringLiteral("--lang")}, {}, &o, io)) return kUsage;
    const QStringList known{QStringLiteral("list"), QStringLiteral("show"), QStringLiteral("check"),
                            QStringLiteral("reset")};
    const bool needsId = sub != QLatin1String("list");
    if (!known.contains(sub) || o.positional.size() != (needsId ? 1 : 0)) return io.err << lessonUsage(), kUsage;
    QStringList errors;
    const QList<app::Lesson> lessons = app::shippedLessons(&errors);
    for (const QString &e : errors)
        io.err << tr("diamondctl: %1\n").arg(e);
    const app::Lesson *lesson = nullptr;
    for (const app::Lesson &l : lessons)
        if (l.id == o.positional.value(0)) lesson = &l;
    if (needsId && !lesson)
        return io.err
                   << tr("diamondctl: there is no lesson '%1' (diamondctl lesson list)\n").arg(o.positional.value(0)),
               kFailed;
    const QString language = o.values.value(QStringLiteral("--lang"), QLocale().name());

    if (sub == QLatin1String("show")) {
        io.out << lesson->title.in(language) << "\n\n" << lesson->summary.in(language) << "\n";
        for (int i = 0; i < lesson->steps.size(); ++i) {
            const app::LessonStep &s = lesson->steps.at(i);
            io.out << "\n"
                   << tr("Step %1: %2").arg(i + 1).arg(s.title.in(language)) << "\n\n"
                   << s.body.in(language) << "\n";
        }
        return kOk;
    }

    app::Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    app::LessonProgressStore progress(ws);
    if (sub == QLatin1String("list")) {
        QJsonArray array;
        for (const app::Lesson &l : lessons) {
            const int done = int(progress.doneSteps(l.id).size());
            if (o.json) {
                array.append(QJsonObject{{QStringLiteral("id"), l.id},
                                         {QStringLiteral("title"), l.title.in(language)},
                                         {QStringLiteral("minutes"), l.minutes},
                                         {QStringLiteral("steps"), int(l.steps.size())},
                                         {QStringLiteral("done"), done},
                                         {QStringLiteral("started_at"), progress.startedAt(l.id)},
                                         {QStringLiteral("needs_cluster"), l.needsCluster},
                                         {QStringLiteral("project"), l.project}});
                continue;
            }
            io.out << QStringLiteral("%1  %2  %3  %4\n")
                          .arg(l.id.leftJustified(16),
                               tr("%1/%2 steps").arg(done).arg(l.steps.size()).leftJustified(11),
                               tr("%1 min").arg(l.minutes).leftJustified(7), l.title.in(language));
        }
        if (o.json) printJson(io, {{QStringLiteral("workspace"), ws.path()}, {QStringLiteral("lessons"), array}});
        return progress.errorString().isEmpty()
                   ? kOk
                   : (io.err << tr("diamondctl: %1\n").arg(progress.errorString()), kFailed);
    }
    if (sub == QLatin1String("reset")) {
        if (!progress.reset(lesson->id)) return io.err << tr("diamondctl: %1\n").arg(progress.errorString()), kFailed;
        io.out << tr("Lesson %1 starts again from step 1.\n").arg(lesson->id);
        return kOk;
    }

    // check
    app::LessonCheckContext context;
    context.workspace = &ws;
    if (o.values.contains(QStringLiteral("--spec"))) {
        QFile file(o.values.value(QStringLiteral("--spec")));
        if (!file.open(QIODevice::ReadOnly))
            return io.err << tr("diamondctl: cannot read %1: %2\n").arg(file.fileName(), file.errorString()), kFailed;
        if (file.size() > kMaxSpecBytes)
            return io.err << tr("diamondctl: %1 is larger than 16 MiB\n").arg(file.fileName()), kFailed;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
        if (!doc.isObject())
            return io.err << tr("diamondctl: %1 is not a JSON network: %2\n").arg(file.fileName(), error.errorString()),
                   kFailed;
        context.design = doc.object();
    }
    context.since = progress.start(lesson->id);
    if (context.since.isEmpty()) return io.err << tr("diamondctl: %1\n").arg(progress.errorString()), kFailed;
    QSet<QString> done = progress.doneSteps(lesson->id);
    QJsonArray steps;
    for (int i = 0; i < lesson->steps.size(); ++i) {
        const app::LessonStep &s = lesson->steps.at(i);
        const app::LessonCheckResult r = app::evaluateLessonCheck(s.check, context);
        if (r.passed && !done.contains(s.id)) {
            if (!progress.markDone(lesson->id, s.id))
                return io.err << tr("diamondctl: %1\n").arg(progress.errorString()), kFailed;
            done.insert(s.id);
        }
        const bool isDone = done.contains(s.id);
        if (o.json) {
            steps.append(QJsonObject{{QStringLiteral("id"), s.id},
                                     {QStringLiteral("kind"), s.check.kind},
                                     {QStringLiteral("done"), isDone},
                                     {QStringLiteral("passed_now"), r.passed},
                                     {QStringLiteral("status"), r.status}});
            continue;
        }
        io.out << QStringLiteral("%1 %2. %3 — %4\n")
                      .arg(isDone ? QStringLiteral("✓") : QStringLiteral("·"))
                      .arg(i + 1)
                      .arg(s.title.in(language), r.manual ? tr("mark it done in the Learn page") : r.status);
    }
    if (o.json)
        printJson(io, {{QStringLiteral("lesson"), lesson->id},
                       {QStringLiteral("started_at"), context.since},
                       {QStringLiteral("done"), int(done.size())},
                       {QStringLiteral("steps"), steps}});
    else
        io.out << tr("%1 of %2 steps done.\n").arg(done.size()).arg(lesson->steps.size());
    return kOk;
}

} // namespace diamond::cli
