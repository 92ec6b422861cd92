// diamondctl init, workspace info, project list|create. Errors go to stderr as "diamondctl: ..." and give
// exit code 1 (kFailed), or 2 (kUsage) for bad arguments; --json output is one JSON document on stdout.
#include "cli.h"

#include "app/run/run_json.h"

#include "app/run/run_store.h"
#include "app/workspace/sample_workspace.h"
#include "app/workspace/schema_migrations.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcessEnvironment>
#include <QSqlQuery>
#include <QVariant>

namespace diamond::cli {

namespace {

using app::RunStore;
using app::Workspace;

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

/// Options of one sub-command: flags without value and options with one value.
using Options = CommandOptions;

QJsonArray projectsJson(const QList<app::Project> &projects) {
    QJsonArray out;
    for (const auto &p : projects)
        out.append(app::projectJson(p));
    return out;
}

QString scalar(Workspace &ws, const QString &sql) {
    QSqlQuery q(ws.database());
    return q.exec(sql) && q.next() ? q.value(0).toString() : QString();
}

QString projectsUsage() {
    return tr("Usage:\n"
              "  diamondctl [--workspace DIR] project list [--json]\n"
              "  diamondctl [--workspace DIR] project create NAME [--description TEXT] [--json]\n");
}

} // namespace

bool takeWorkspaceOption(QStringList &args, QString *dir, Io &io) {
    for (int i = 0; i < args.size();) {
        const QString a = args[i];
        if (a == QLatin1String("--workspace")) {
            if (i + 1 >= args.size() || args[i + 1].isEmpty()) {
                io.err << tr("diamondctl: --workspace needs a folder\n");
                return false;
            }
            *dir = args[i + 1];
            args.remove(i, 2);
        } else if (a.startsWith(QLatin1String("--workspace="))) {
            *dir = a.mid(12);
            if (dir->isEmpty()) {
                io.err << tr("diamondctl: --workspace needs a folder\n");
                return false;
            }
            args.remove(i);
        } else {
            ++i;
        }
    }
    return true;
}

bool parseOptions(const QStringList &args, const QStringList &valued, const QStringList &flags, CommandOptions *out,
                  Io &io) {
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--json")) {
            out->json = true;
        } else if (valued.contains(a)) {
            if (i + 1 >= args.size()) {
                io.err << tr("diamondctl: %1 needs a value\n").arg(a);
                return false;
            }
            out->values.insert(a, args[++i]);
        } else if (flags.contains(a)) {
            out->flags.insert(a);
        } else if (a.startsWith(QLatin1String("--"))) {
            io.err << tr("diamondctl: unknown option '%1'\n").arg(a);
            return false;
        } else {
            out->positional << a;
        }
    }
    return true;
}

void printJson(Io &io, const QJsonObject &doc) {
    io.out << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
}

bool openWorkspace(Workspace &ws, const QString &option, Io &io) {
    const QString path = QDir(resolveWorkspacePath(option)).absolutePath();
    if (!Workspace::exists(path)) {
        io.err << tr("diamondctl: no Diamond workspace at %1; run 'diamondctl init' (with --workspace %1 for "
                     "this folder) to create one\n")
                      .arg(path);
        return false;
    }
    if (!ws.open(path, Workspace::OpenMode::OpenExisting)) {
        io.err << tr("diamondctl: %1\n").arg(ws.errorString());
        return false;
    }
    return true;
}

QString resolveWorkspacePath(const QString &option) {
    if (!option.isEmpty()) return option;
    const QString env = QProcessEnvironment::systemEnvironment().value(QStringLiteral("DIAMOND_WORKSPACE"));
    return env.isEmpty() ? Workspace::defaultPath() : env;
}

int runInit(const QStringList &args, const QString &workspaceOption, Io &io) {
    Options o;
    if (args.contains(QLatin1String("--help"))) {
        io.out << tr("Usage: diamondctl [--workspace DIR] init [--no-examples] [--json]\n");
        return kOk;
    }
    if (!parseOptions(args, {}, {QStringLiteral("--no-examples")}, &o, io)) return kUsage;
    if (!o.positional.isEmpty()) {
        io.err << tr("diamondctl: unexpected argument '%1' (use --workspace DIR to choose the folder)\n")
                      .arg(o.positional.first());
        return kUsage;
    }
    Workspace ws;
    if (!ws.create(resolveWorkspacePath(workspaceOption))) {
        io.err << tr("diamondctl: %1\n").arg(ws.errorString());
        return kFailed;
    }
    const bool created = ws.wasCreated();
    if (created && !o.flags.contains(QLatin1String("--no-examples"))) {
        QString error;
        if (!app::populateSampleWorkspace(ws, &error)) {
            io.err << tr("diamondctl: could not add the examples: %1\n").arg(error);
            return kFailed;
        }
    }
    RunStore store(ws);
    const auto projects = store.projects();
    if (o.json) {
        printJson(io, {{QStringLiteral("path"), ws.path()},
                       {QStringLiteral("database"), ws.databasePath()},
                       {QStringLiteral("created"), created},
                       {QStringLiteral("schema_version"), ws.schemaVersion()},
                       {QStringLiteral("projects"), projectsJson(projects)}});
        return kOk;
    }
    if (created)
        io.out << tr("Created the workspace %1 (projects: %2, runs: %3).\n")
                      .arg(ws.path())
                      .arg(projects.size())
                      .arg(store.runs().size());
    else
        io.out << tr("The workspace %1 already exists (schema version %2); nothing changed.\n")
                      .arg(ws.path())
                      .arg(ws.schemaVersion());
    return kOk;
}

int runWorkspace(const QStringList &args, const QString &workspaceOption, Io &io) {
    const QString usage = tr("Usage: diamondctl [--workspace DIR] workspace info [--json]\n");
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << usage;
        return args.isEmpty() ? kUsage : kOk;
    }
    if (args.first() != QLatin1String("info")) {
        io.err << tr("diamondctl: unknown workspace command '%1'\n").arg(args.first()) << usage;
        return kUsage;
    }
    Options o;
    if (!parseOptions(args.mid(1), {}, {}, &o, io)) return kUsage;
    if (!o.positional.isEmpty()) {
        io.err << tr("diamondctl: unexpected argument '%1'\n").arg(o.positional.first()) << usage;
        return kUsage;
    }
    Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    RunStore store(ws);
    const auto projects = store.projects();
    const auto runs = store.runs();
    QMap<QString, int> byState;
    for (const auto &r : runs)
        ++byState[app::runStateName(r.state)];
    const QString createdAt = scalar(ws, QStringLiteral("SELECT value FROM workspace_meta WHERE key = 'created_at'"));
    const QString journal = scalar(ws, QStringLiteral("PRAGMA journal_mode"));
    if (o.json) {
        QJsonObject states;
        for (auto it = byState.cbegin(); it != byState.cend(); ++it)
            states.insert(it.key(), it.value());
        printJson(io, {{QStringLiteral("path"), ws.path()},
                       {QStringLiteral("database"), ws.databasePath()},
                       {QStringLiteral("schema_version"), ws.schemaVersion()},
                       {QStringLiteral("latest_schema_version"), app::latestSchemaVersion()},
                       {QStringLiteral("journal_mode"), journal},
                       {QStringLiteral("created_at"), createdAt},
                       {QStringLiteral("projects"), static_cast<int>(projects.size())},
                       {QStringLiteral("runs"), static_cast<int>(runs.size())},
                       {QStringLiteral("runs_by_state"), states}});
        return kOk;
    }
    QStringList stateParts;
    for (auto it = byState.cbegin(); it != byState.cend(); ++it)
        stateParts << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    io.out << tr("Workspace:       %1\n").arg(ws.path()) << tr("Database:        %1\n").arg(ws.databasePath())
           << tr("Schema version:  %1 (this diamondctl knows up to %2)\n")
                  .arg(ws.schemaVersion())
                  .arg(app::latestSchemaVersion())
           << tr("Created:         %1\n").arg(createdAt) << tr("Projects:        %1\n").arg(projects.size())
           << tr("Runs:            %1%2\n")
                  .arg(runs.size())
                  .arg(stateParts.isEmpty()
                           ? QString()
                           : QStringLiteral(" (") + stateParts.join(QStringLiteral(", ")) + QLatin1Char(')'));
    return kOk;
}

int runProject(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << projectsUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    Options o;
    if (sub == QLatin1String("list")) {
        if (!parseOptions(args.mid(1), {}, {}, &o, io)) return kUsage;
        if (!o.positional.isEmpty()) {
            io.err << tr("diamondctl: unexpected argument '%1'\n").arg(o.positional.first()) << projectsUsage();
            return kUsage;
        }
    } else if (sub == QLatin1String("create")) {
        if (!parseOptions(args.mid(1), {QStringLiteral("--description")}, {}, &o, io)) return kUsage;
        if (o.positional.size() != 1) {
            io.err << tr("diamondctl: project create needs exactly one NAME\n") << projectsUsage();
            return kUsage;
        }
    } else {
        io.err << tr("diamondctl: unknown project command '%1'\n").arg(sub) << projectsUsage();
        return kUsage;
    }

    Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    RunStore store(ws);
    if (sub == QLatin1String("create")) {
        const auto project = store.createProject(o.positional.first(), o.values.value(QStringLiteral("--description")));
        if (!project) {
            io.err << tr("diamondctl: %1\n").arg(store.errorString());
            return kFailed;
        }
        if (o.json)
            printJson(io, projectJson(*project));
        else
            io.out << tr("Created project \"%1\" (id %2).\n").arg(project->name).arg(project->id);
        return kOk;
    }

    const auto projects = store.projects();
    if (!store.errorString().isEmpty()) {
        io.err << tr("diamondctl: %1\n").arg(store.errorString());
        return kFailed;
    }
    if (o.json) {
        printJson(io, {{QStringLiteral("workspace"), ws.path()}, {QStringLiteral("projects"), projectsJson(projects)}});
        return kOk;
    }
    int nameWidth = 4;
    for (const auto &p : projects)
        nameWidth = std::max(nameWidth, static_cast<int>(p.name.size()));
    io.out << tr("id").rightJustified(4) << "  " << tr("name").leftJustified(nameWidth) << "  "
           << tr("runs").rightJustified(5) << "  " << tr("created") << '\n';
    for (const auto &p : projects)
        io.out << QString::number(p.id).rightJustified(4) << "  " << p.name.leftJustified(nameWidth) << "  "
               << QString::number(p.runCount).rightJustified(5) << "  " << p.createdAt << '\n';
    return kOk;
}

} // namespace diamond::cli
