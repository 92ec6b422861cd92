// diamondctl run start|list|show|metrics|logs|cancel|resume. Errors go to
// stderr as "diamondctl: ..." with exit code 1 (kFailed), or 2 (kUsage) for bad
// arguments; --json output is one JSON document on stdout. With
// --follow, start/resume/metrics print metric lines as they come and exit with
// the run's result: 0 finished, 85 preempted, 1 failed or cancelled.
#include "cli.h"

#include "app/cluster_run.h"
#include "app/cluster_store.h"
#include "app/run_manager.h"
#include "app/run_store.h"
#include "app/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QSqlQuery>
#include <QVariant>

#include <tuple>

namespace diamond::cli {

namespace {

using app::MetricPoint;
using app::Run;
using app::RunManager;
using app::RunState;
using app::RunStore;
using app::Workspace;

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

using Options = CommandOptions;

QString runUsage() {
    return tr("Usage:\n"
              "  diamondctl [--workspace DIR] run start --spec FILE --config FILE "
              "[--project NAME] [--name NAME]\n"
              "                                         [--target local|CLUSTER [--job "
              "JSON]] [--nproc N] [--threads N]\n"
              "                                         [--follow] [--json]\n"
              "  diamondctl [--workspace DIR] run list [--json]\n"
              "  diamondctl [--workspace DIR] run show ID [--json]\n"
              "  diamondctl [--workspace DIR] run metrics ID [--csv] [--json] "
              "[--follow]\n"
              "  diamondctl [--workspace DIR] run logs ID\n"
              "  diamondctl [--workspace DIR] run cancel ID\n"
              "  diamondctl [--workspace DIR] run export ID [--out DIR] [--json]\n"
              "  diamondctl [--workspace DIR] run resume ID [--follow] [--json]\n"
              "With --follow, metric lines are printed as they come and the exit code "
              "is the run's result:\n"
              "0 finished, 85 preempted, 1 failed or cancelled.\n");
}

bool readJsonObject(const QString &path, QJsonObject *out, Io &io) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        io.err << tr("diamondctl: cannot read %1: %2\n").arg(path, f.errorString());
        return false;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (!doc.isObject()) {
        io.err << tr("diamondctl: %1 is not a JSON object: %2\n").arg(path, error.errorString());
        return false;
    }
    *out = doc.object();
    return true;
}

QString splitName(app::MetricSplit split) {
    return split == app::MetricSplit::Validation ? QStringLiteral("val") : QStringLiteral("train");
}

QJsonObject runJson(const Run &r, const QString &projectName) {
    QJsonObject o{{QStringLiteral("id"), r.id},
                  {QStringLiteral("project_id"), r.projectId},
                  {QStringLiteral("project"), projectName},
                  {QStringLiteral("name"), r.name},
                  {QStringLiteral("state"), app::runStateName(r.state)},
                  {QStringLiteral("target"), r.target},
                  {QStringLiteral("execution"), r.execution},
                  {QStringLiteral("created_at"), r.createdAt},
                  {QStringLiteral("started_at"), r.startedAt},
                  {QStringLiteral("finished_at"), r.finishedAt},
                  {QStringLiteral("exit_code"), r.exitCode ? QJsonValue(*r.exitCode) : QJsonValue()},
                  {QStringLiteral("exit_message"), r.exitMessage},
                  {QStringLiteral("final_metrics"), r.finalMetrics},
                  {QStringLiteral("weights_sha256"), r.weightsHash}};
    if (r.architectureVersionId > 0) o.insert(QStringLiteral("architecture_version_id"), r.architectureVersionId);
    return o;
}

QString projectName(RunStore &store, qint64 projectId) {
    for (const auto &p : store.projects())
        if (p.id == projectId) return p.name;
    return {};
}

/// Every metric point of a run, ordered by step, name, split.
QList<MetricPoint> allPoints(Workspace &ws, qint64 runId) {
    QList<MetricPoint> out;
    QSqlQuery q(ws.database());
    q.prepare(QStringLiteral("SELECT p.step, n.name, p.split, p.value, p.wall FROM metric_points p"
                             " JOIN metric_names n ON n.id = p.name_id WHERE p.run_id = ?"
                             " ORDER BY p.step, p.split, n.name"));
    q.addBindValue(runId);
    if (!q.exec()) return out;
    while (q.next())
        out.append({q.value(0).toLongLong(), q.value(1).toString(), static_cast<app::MetricSplit>(q.value(2).toInt()),
                    q.value(3).toDouble(), q.value(4).toDouble()});
    return out;
}

QString pointKey(const MetricPoint &p) {
    return QString::number(p.step) + QLatin1Char('/') + splitName(p.split) + QLatin1Char('/') + p.name;
}

enum class PointFormat { Text, Csv, JsonLines };

QString formatPoint(const MetricPoint &p, PointFormat format) {
    switch (format) {
    case PointFormat::Csv:
        return QStringLiteral("%1,%2,%3,%4,%5\n")
            .arg(p.step)
            .arg(splitName(p.split), p.name)
            .arg(p.value, 0, 'g', 10)
            .arg(p.wall, 0, 'f', 3);
    case PointFormat::JsonLines:
        return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("step"), p.step},
                                                           {QStringLiteral("split"), splitName(p.split)},
                                                           {QStringLiteral("name"), p.name},
                                                           {QStringLiteral("value"), p.value},
                                                           {QStringLiteral("wall"), p.wall}})
                                     .toJson(QJsonDocument::Compact)) +
               QLatin1Char('\n');
    case PointFormat::Text: break;
    }
    return QStringLiteral("step %1  %2 %3 %4\n")
        .arg(p.step, 7)
        .arg(splitName(p.split).leftJustified(5), p.name.leftJustified(9))
        .arg(p.value, 0, 'g', 6);
}

int exitCodeFor(RunState state) {
    switch (state) {
    case RunState::Finished: return kOk;
    case RunState::Preempted: return app::kPreemptedExitCode;
    default: return kFailed;
    }
}

/// Prints the run's metric points (stored ones first, then new ones) until the
/// run ends; returns its exit code.
int follow(Workspace &ws, RunManager &manager, qint64 runId, PointFormat format, Io &io) {
    QSet<QString> printed;
    auto print = [&](const QList<MetricPoint> &points) {
        for (const MetricPoint &p : points)
            if (!printed.contains(pointKey(p))) {
                printed.insert(pointKey(p));
                io.out << formatPoint(p, format);
            }
        io.out.flush();
    };
    RunStore store(ws);
    std::optional<RunState> ended;
    QEventLoop loop;
    QObject::connect(&manager, &RunManager::metricsAppended, &loop, [&](qint64 id, const QList<MetricPoint> &points) {
        if (id == runId) print(points);
    });
    QObject::connect(&manager, &RunManager::runEnded, &loop, [&](qint64 id, RunState state) {
        if (id != runId) return;
        ended = state;
        loop.quit();
    });
    print(allPoints(ws, runId));
    if (!manager.isActive(runId)) manager.reattach();
    print(allPoints(ws, runId));
    const auto run = store.run(runId);
    if (!ended && run && manager.isActive(runId)) loop.exec();
    const auto final = store.run(runId);
    if (!final) return kFailed;
    if (final->state == RunState::Failed && !final->exitMessage.isEmpty())
        io.err << tr("diamondctl: run %1 failed: %2\n").arg(runId).arg(final->exitMessage);
    else if (final->state == RunState::Finished && format == PointFormat::Text)
        io.out << tr("Run %1 finished: %2\n")
                      .arg(runId)
                      .arg(QString::fromUtf8(QJsonDocument(final->finalMetrics).toJson(QJsonDocument::Compact)));
    return ended ? exitCodeFor(*ended) : exitCodeFor(final->state);
}

bool parseRunId(const Options &o, qint64 *id, Io &io) {
    bool ok = false;
    *id = o.positional.size() == 1 ? o.positional.first().toLongLong(&ok) : 0;
    if (!ok || *id <= 0) {
        io.err << tr("diamondctl: expected one run ID\n") << runUsage();
        return false;
    }
    return true;
}

app::LocalExecutor *newExecutor(bool detached) {
    auto *executor = new app::LocalExecutor;
    executor->setDetached(detached);
    return executor;
}

int runStart(const Options &o, Workspace &ws, Io &io) {
    const QString specPath = o.values.value(QStringLiteral("--spec"));
    const QString configPath = o.values.value(QStringLiteral("--config"));
    if (specPath.isEmpty() || configPath.isEmpty() || !o.positional.isEmpty()) {
        io.err << tr("diamondctl: run start needs --spec FILE and --config FILE\n") << runUsage();
        return kUsage;
    }
    const QString target = o.values.value(QStringLiteral("--target"), QStringLiteral("local"));
    const bool followRun = o.flags.contains(QStringLiteral("--follow"));
    QJsonObject execution;
    if (target != QLatin1String("local")) {
        if (!app::ClusterStore(ws).profile(target)) {
            io.err << tr("diamondctl: unknown target '%1': no such cluster (see "
                         "diamondctl cluster list)\n")
                          .arg(target);
            return kUsage;
        }
        if (!followRun) {
            io.err << tr("diamondctl: a run on a cluster needs --follow (diamondctl "
                         "follows its jobs and submits "
                         "their continuations)\n");
            return kUsage;
        }
        if (o.values.contains(QStringLiteral("--job"))) {
            const QJsonDocument job = QJsonDocument::fromJson(o.values.value(QStringLiteral("--job")).toUtf8());
            if (!job.isObject()) {
                io.err << tr("diamondctl: --job expects a JSON object such as "
                             "{\"partition\":\"gpu\",\"tasks_per_node\":2,\"time_limit_"
                             "minutes\":60}\n");
                return kUsage;
            }
            execution.insert(QStringLiteral("job"), job.object());
        }
    }
    for (const auto &[option, key, minimum] :
         {std::tuple{"--nproc", "nproc", 1}, std::tuple{"--threads", "threads", 0}}) {
        const QString text = o.values.value(QLatin1String(option));
        if (text.isEmpty()) continue;
        bool ok = false;
        const int value = text.toInt(&ok);
        if (!ok || value < minimum || value > 1024) {
            io.err << tr("diamondctl: %1 expects a whole number from %2 to 1024, not "
                         "'%3'\n")
                          .arg(QLatin1String(option))
                          .arg(minimum)
                          .arg(text);
            return kUsage;
        }
        execution.insert(QLatin1String(key), value);
    }
    app::Executor *executor = nullptr;
    if (target == QLatin1String("local")) {
        executor = newExecutor(!followRun);
    } else {
        QString error;
        executor = app::makeClusterExecutor(ws, target, execution, &error);
        if (!executor) return io.err << tr("diamondctl: %1\n").arg(error), kUsage;
    }
    QJsonObject spec, config;
    if (!readJsonObject(specPath, &spec, io) || !readJsonObject(configPath, &config, io))
        return delete executor, kFailed;
    RunStore store(ws);
    const QString projectName = o.values.value(QStringLiteral("--project"), QStringLiteral("Default"));
    QString archName = spec.value(QStringLiteral("name")).toString();
    if (archName.isEmpty()) archName = QFileInfo(specPath).completeBaseName();
    const QString name = o.values.value(QStringLiteral("--name"), archName);
    const auto run = store.createRunWithSpec(projectName, spec, archName, name, config, target, execution);
    if (!run) return delete executor, io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    const auto project = store.projectByName(projectName);

    RunManager manager(ws, executor);
    if (!manager.startRun(run->id)) {
        io.err << tr("diamondctl: run %1 could not start: %2\n").arg(run->id).arg(manager.errorString());
        return kFailed;
    }
    if (!followRun) {
        if (o.json)
            printJson(io, runJson(*store.run(run->id), project->name));
        else
            io.out << tr("Started run %1 (\"%2\", project \"%3\") in %4\n")
                          .arg(run->id)
                          .arg(name, project->name, ws.runDirectory(run->id));
        return kOk;
    }
    if (!o.json) io.out << tr("Started run %1 in %2\n").arg(run->id).arg(ws.runDirectory(run->id));
    const int code = follow(ws, manager, run->id, o.json ? PointFormat::JsonLines : PointFormat::Text, io);
    return code;
}

} // namespace

/// `run export ID [--out DIR]`: the engine's export (safetensors, spec, test
/// inputs/outputs, a standalone PyTorch module) of the run's newest checkpoint,
/// into DIR or <run folder>/export.
static int runExport(Workspace &ws, qint64 runId, const Options &o, Io &io) {
    const QString runDir = ws.runDirectory(runId);
    QStringList args{QStringLiteral("export"), QStringLiteral("--spec"),
                     QDir(runDir).filePath(QStringLiteral("spec.json")), QStringLiteral("--run-dir"), runDir};
    if (o.values.contains(QStringLiteral("--out")))
        args << QStringLiteral("--out") << QDir(o.values.value(QStringLiteral("--out"))).absolutePath();
    QProcess engine;
    engine.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    engine.start(app::LocalExecutor::defaultEnginePath(), args);
    if (!engine.waitForStarted() || !engine.waitForFinished(-1)) {
        io.err
            << tr("diamondctl: cannot run %1: %2\n").arg(app::LocalExecutor::defaultEnginePath(), engine.errorString());
        return kFailed;
    }
    const QList<QByteArray> lines = engine.readAllStandardOutput().split('\n');
    for (const QByteArray &line : lines) {
        const QJsonObject event = QJsonDocument::fromJson(line).object();
        const QString kind = event.value(QStringLiteral("event")).toString();
        if (kind == QLatin1String("exported")) {
            if (o.json)
                printJson(io, event);
            else
                io.out << tr("Exported run %1 to %2\n").arg(runId).arg(event.value(QStringLiteral("path")).toString());
        } else if (kind == QLatin1String("error")) {
            io.err << tr("diamondctl: %1\n").arg(event.value(QStringLiteral("message")).toString());
        }
    }
    return engine.exitStatus() == QProcess::NormalExit && engine.exitCode() == 0 ? kOk : kFailed;
}

int runRun(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << runUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    Options o;
    const QStringList rest = args.mid(1);
    if (rest.contains(QLatin1String("--help"))) {
        io.out << runUsage();
        return kOk;
    }
    static const QStringList known{QStringLiteral("start"),   QStringLiteral("list"),  QStringLiteral("show"),
                                   QStringLiteral("metrics"), QStringLiteral("logs"),  QStringLiteral("cancel"),
                                   QStringLiteral("resume"),  QStringLiteral("export")};
    if (!known.contains(sub)) {
        io.err << tr("diamondctl: unknown run command '%1'\n").arg(sub) << runUsage();
        return kUsage;
    }
    const QStringList valued =
        sub == QLatin1String("start")
            ? QStringList{QStringLiteral("--spec"),    QStringLiteral("--config"), QStringLiteral("--project"),
                          QStringLiteral("--name"),    QStringLiteral("--target"), QStringLiteral("--nproc"),
                          QStringLiteral("--threads"), QStringLiteral("--job")}
        : sub == QLatin1String("export") ? QStringList{QStringLiteral("--out")}
                                         : QStringList{};
    if (!parseOptions(rest, valued, {QStringLiteral("--follow"), QStringLiteral("--csv")}, &o, io)) return kUsage;

    Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    if (sub == QLatin1String("start")) return runStart(o, ws, io);

    RunStore store(ws);
    if (sub == QLatin1String("list")) {
        RunManager(ws, newExecutor(true)).reattach(); // settle runs whose engine has ended
        const QList<Run> runs = store.runs();
        if (o.json) {
            QJsonArray array;
            for (const Run &r : runs)
                array.append(runJson(r, projectName(store, r.projectId)));
            printJson(io, {{QStringLiteral("workspace"), ws.path()}, {QStringLiteral("runs"), array}});
            return kOk;
        }
        io.out << tr("id").rightJustified(4) << "  " << tr("state").leftJustified(9) << "  "
               << tr("name").leftJustified(20) << "  " << tr("created") << '\n';
        for (const Run &r : runs)
            io.out << QString::number(r.id).rightJustified(4) << "  " << app::runStateName(r.state).leftJustified(9)
                   << "  " << r.name.leftJustified(20) << "  " << r.createdAt << '\n';
        return kOk;
    }

    qint64 runId = 0;
    if (!parseRunId(o, &runId, io)) return kUsage;
    if (!store.run(runId)) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    const bool followRun = o.flags.contains(QStringLiteral("--follow"));
    RunManager manager(ws, newExecutor(!(followRun && sub == QLatin1String("resume"))));
    if (sub != QLatin1String("cancel") && sub != QLatin1String("resume")) manager.reattach();
    if (sub == QLatin1String("metrics") && followRun) {
        // A cluster run's job is followed through its cluster's executor (ClusterExecutor::adopt()).
        const Run r = *store.run(runId);
        if (r.state == RunState::Running && !r.target.isEmpty() && r.target != QLatin1String("local")) {
            QString error;
            app::ClusterExecutor *executor = app::makeClusterExecutor(ws, r.target, r.execution, &error);
            if (!executor) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
            RunManager cluster(ws, executor);
            if (!cluster.adopt(runId)) return io.err << tr("diamondctl: %1\n").arg(cluster.errorString()), kFailed;
            const PointFormat format = o.flags.contains(QStringLiteral("--csv")) ? PointFormat::Csv
                                       : o.json                                  ? PointFormat::JsonLines
                                                                                 : PointFormat::Text;
            if (format == PointFormat::Csv) io.out << "step,split,name,value,wall\n";
            return follow(ws, cluster, runId, format, io);
        }
    }

    if (sub == QLatin1String("show")) {
        const Run r = *store.run(runId);
        if (o.json) {
            QJsonObject doc = runJson(r, projectName(store, r.projectId));
            QJsonArray transitions;
            for (const auto &t : store.transitions(runId))
                transitions.append(QJsonObject{
                    {QStringLiteral("from"), t.from ? QJsonValue(app::runStateName(*t.from)) : QJsonValue()},
                    {QStringLiteral("to"), app::runStateName(t.to)},
                    {QStringLiteral("at"), t.at},
                    {QStringLiteral("note"), t.note}});
            doc.insert(QStringLiteral("transitions"), transitions);
            doc.insert(QStringLiteral("metric_points"), static_cast<int>(allPoints(ws, runId).size()));
            doc.insert(QStringLiteral("run_dir"), ws.runDirectory(runId));
            printJson(io, doc);
            return kOk;
        }
        io.out << tr("Run:           %1 \"%2\"\n").arg(r.id).arg(r.name)
               << tr("Project:       %1\n").arg(projectName(store, r.projectId))
               << tr("State:         %1\n").arg(app::runStateName(r.state))
               << tr("Folder:        %1\n").arg(ws.runDirectory(runId)) << tr("Created:       %1\n").arg(r.createdAt)
               << tr("Started:       %1\n").arg(r.startedAt) << tr("Ended:         %1\n").arg(r.finishedAt);
        if (r.exitCode) io.out << tr("Exit code:     %1\n").arg(*r.exitCode);
        if (!r.exitMessage.isEmpty()) io.out << tr("Message:       %1\n").arg(r.exitMessage);
        if (!r.finalMetrics.isEmpty())
            io.out << tr("Final metrics: %1\n")
                          .arg(QString::fromUtf8(QJsonDocument(r.finalMetrics).toJson(QJsonDocument::Compact)));
        if (!r.weightsHash.isEmpty()) io.out << tr("Weights:       sha256 %1\n").arg(r.weightsHash);
        io.out << tr("Metric points: %1\n").arg(allPoints(ws, runId).size());
        return kOk;
    }
    if (sub == QLatin1String("metrics")) {
        const PointFormat format = o.flags.contains(QStringLiteral("--csv")) ? PointFormat::Csv
                                   : o.json                                  ? PointFormat::JsonLines
                                                                             : PointFormat::Text;
        if (format == PointFormat::Csv) io.out << "step,split,name,value,wall\n";
        if (followRun) return follow(ws, manager, runId, format, io);
        if (o.json) {
            QJsonArray array;
            for (const MetricPoint &p : allPoints(ws, runId))
                array.append(QJsonObject{{QStringLiteral("step"), p.step},
                                         {QStringLiteral("split"), splitName(p.split)},
                                         {QStringLiteral("name"), p.name},
                                         {QStringLiteral("value"), p.value},
                                         {QStringLiteral("wall"), p.wall}});
            printJson(io, {{QStringLiteral("run"), runId}, {QStringLiteral("points"), array}});
            return kOk;
        }
        for (const MetricPoint &p : allPoints(ws, runId))
            io.out << formatPoint(p, format);
        return kOk;
    }
    if (sub == QLatin1String("logs")) {
        QSqlQuery q(ws.database());
        q.prepare(QStringLiteral("SELECT json FROM events WHERE run_id = ? ORDER BY offset"));
        q.addBindValue(runId);
        if (!q.exec()) return io.err << tr("diamondctl: cannot read the events of run %1\n").arg(runId), kFailed;
        while (q.next())
            io.out << q.value(0).toString() << '\n';
        return kOk;
    }
    if (sub == QLatin1String("export")) return runExport(ws, runId, o, io);
    if (sub == QLatin1String("cancel")) {
        if (!manager.cancel(runId)) return io.err << tr("diamondctl: %1\n").arg(manager.errorString()), kFailed;
        io.out << tr("Cancelled run %1.\n").arg(runId);
        return kOk;
    }
    // resume
    if (!manager.resume(runId)) return io.err << tr("diamondctl: %1\n").arg(manager.errorString()), kFailed;
    if (!followRun) {
        io.out << tr("Resumed run %1.\n").arg(runId);
        return kOk;
    }
    return follow(ws, manager, runId, o.json ? PointFormat::JsonLines : PointFormat::Text, io);
}

} // namespace diamond::cli
