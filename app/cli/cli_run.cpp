// diamondctl run start|list|show|metrics|logs|cancel|resume|export|delete. Every lifecycle step goes through
// app::RunService, for local and cluster runs alike. Errors go to stderr as "diamondctl: ..." with exit code 1
// (kFailed), or 2 (kUsage) for bad arguments; --json output is one JSON document on stdout. With --follow,
// start/resume/metrics print metric lines as they come and exit with the run's result: 0 finished, 85 preempted,
// 1 failed or cancelled. Without it, a local engine is left running on its own and a cluster run returns once its
// job is submitted; a later `run metrics ID --follow` (or the desktop app) follows it.
#include "cli.h"
#include "terminal_prompter.h"

#include "app/cluster/cluster_job_store.h"
#include "app/cluster/cluster_store.h"
#include "app/plan/run_planner.h"
#include "app/run/leaderboard.h"
#include "app/run/run_json.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "remote/engine_command.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTimer>

#include <tuple>

namespace diamond::cli {

namespace {

using app::MetricPoint;
using app::Run;
using app::RunService;
using app::RunState;
using app::RunStore;
using app::Workspace;

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

using Options = CommandOptions;

/// How long a command waits for a cluster to confirm a submission or a cancel.
constexpr int kClusterWaitMs = 10 * 60 * 1000;

QString runUsage() {
    return tr(
        "Usage:\n"
        "  diamondctl [--workspace DIR] run start --spec FILE --config FILE [--project NAME] [--name NAME]\n"
        "                                         [--target local|CLUSTER|any|C1,C2 [--job JSON]] [--nproc N]\n"
        "                                         [--threads N] [--plan auto] [--race] [--follow|--detach] [--json]\n"
        "                               --target any (or a list): the cluster with the earliest predicted finish,\n"
        "                               queue wait included; its plan is applied as with --plan auto\n"
        "                               --race: submitted to all of them at once instead; the first to start keeps\n"
        "                               the run and the other jobs are cancelled (waits until one started)\n"
        "  diamondctl [--workspace DIR] run plan --spec FILE --config FILE [--target local|CLUSTER]\n"
        "                                        [--partition P] [--nproc N] [--threads N] [--measure-width]\n"
        "                                        [--no-queue-wait] [--json]\n"
        "                               predicted step time and memory, and the chain of jobs (docs/planning.md);\n"
        "                               --measure-width trains a few seconds at each number of processes first;\n"
        "                               on a cluster, each partition's queue wait comes from sbatch --test-only\n"
        "  diamondctl [--workspace DIR] run stages --spec FILE --config FILE [--stages N] [--micro-batches M]\n"
        "                                          [--cut A,B] [--threads N] [--output CONFIG] [--json]\n"
        "                               pipeline stages: the cut the performance model chooses (or --cut), each\n"
        "                               stage's predicted time and memory; --output writes the config with it\n"
        "  diamondctl [--workspace DIR] run list [--json]\n"
        "  diamondctl [--workspace DIR] run show ID [--json]\n"
        "  diamondctl [--workspace DIR] run metrics ID [--csv] [--json] [--follow]\n"
        "  diamondctl [--workspace DIR] run logs ID\n"
        "  diamondctl [--workspace DIR] run cancel ID [--json]\n"
        "  diamondctl [--workspace DIR] run resume ID [--follow] [--json]\n"
        "  diamondctl [--workspace DIR] run move ID --target CLUSTER|local [--job JSON] [--follow] [--json]\n"
        "                               stops the run at a checkpoint, brings the checkpoint here and continues it\n"
        "                               on the other target from there (the metric history stays one series);\n"
        "                               --job: its resources there (default: the old ones without the partition)\n"
        "  diamondctl [--workspace DIR] run export ID [--out DIR] [--json]\n"
        "  diamondctl [--workspace DIR] run delete ID\n"
        "  diamondctl [--workspace DIR] run leaderboard --project NAME [--metric M] [--json]\n"
        "                               each user's best finished run of the project (a lesson, a class task)\n"
        "With --follow, metric lines are printed as they come and the exit code is the run's result:\n"
        "0 finished, 85 preempted, 1 failed or cancelled. Without it (or with --detach), a cluster run returns\n"
        "once its jobs are submitted. --plan auto lets the planner choose the processes, the job length, the\n"
        "stop signal, the chain of jobs (queued up front) and the checkpoint interval; --job keys, --nproc and the\n"
        "config's own checkpoint interval override its choices. A cluster that asks for a password or a\n"
        "one-time code asks on the terminal.\n");
}

} // namespace

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

namespace {

QString pointKey(const MetricPoint &p) {
    return QString::number(p.step) + QLatin1Char('/') + app::metricSplitName(p.split) + QLatin1Char('/') + p.name;
}

enum class PointFormat { Text, Csv, JsonLines };

QString formatPoint(const MetricPoint &p, PointFormat format) {
    switch (format) {
    case PointFormat::Csv:
        return QStringLiteral("%1,%2,%3,%4,%5\n")
            .arg(p.step)
            .arg(app::metricSplitName(p.split), p.name)
            .arg(p.value, 0, 'g', 10)
            .arg(p.wall, 0, 'f', 3);
    case PointFormat::JsonLines:
        return QString::fromUtf8(QJsonDocument(app::metricPointJson(p)).toJson(QJsonDocument::Compact)) +
               QLatin1Char('\n');
    case PointFormat::Text: break;
    }
    return QStringLiteral("step %1  %2 %3 %4\n")
        .arg(p.step, 7)
        .arg(app::metricSplitName(p.split).leftJustified(5), p.name.leftJustified(9))
        .arg(p.value, 0, 'g', 6);
}

int exitCodeFor(RunState state) {
    switch (state) {
    case RunState::Finished: return kOk;
    case RunState::Preempted: return app::kPreemptedExitCode;
    default: return kFailed;
    }
}

bool isEnded(RunState s) {
    return s == RunState::Finished || s == RunState::Failed || s == RunState::Cancelled || s == RunState::Preempted;
}

/// A service for one command: terminal prompts for cluster sign-in, local engines detached unless followed.
struct Session {
    Session(Workspace &ws, Io &io, bool detachedLocal) : prompter(io.err), service(ws) {
        service.clusterLinks()->setPrompter(&prompter);
        service.setDetachedLocalRuns(detachedLocal);
        QObject::connect(&service, &RunService::runMessage, &service, [&io](qint64 id, const QString &text) {
            io.err << tr("run %1: %2\n").arg(id).arg(text);
            io.err.flush();
        });
    }
    TerminalPrompter prompter;
    RunService service;
};

/// Prints the run's metric points (stored ones first, then new ones) until the run ends; returns its exit code.
/// The run is followed through the service (adopted when this process does not follow it yet).
int follow(RunService &service, qint64 runId, PointFormat format, Io &io) {
    Workspace &ws = service.workspace();
    RunStore store(ws);
    QSet<QString> printed;
    auto print = [&](const QList<MetricPoint> &points) {
        for (const MetricPoint &p : points)
            if (!printed.contains(pointKey(p))) {
                printed.insert(pointKey(p));
                io.out << formatPoint(p, format);
            }
        io.out.flush();
    };
    std::optional<RunState> ended;
    QEventLoop loop;
    QObject::connect(&service, &RunService::metricsAppended, &loop, [&](qint64 id, const QList<MetricPoint> &points) {
        if (id == runId) print(points);
    });
    QObject::connect(&service, &RunService::runEnded, &loop, [&](qint64 id, RunState state) {
        if (id != runId) return;
        ended = state;
        loop.quit();
    });
    print(store.metricPointsSince(runId));
    const auto run = store.run(runId);
    if (run && run->state == RunState::Running && !service.isActive(runId) && !service.adopt(runId))
        io.err << tr("diamondctl: cannot follow run %1: %2\n").arg(runId).arg(service.errorString());
    print(store.metricPointsSince(runId));
    if (!ended && service.isActive(runId)) loop.exec();
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

/// Waits until the cluster run's job is submitted, with every job of its chain (or the run ended before that). False
/// with a message on io.err.
bool waitForSubmission(RunService &service, qint64 runId, Io &io) {
    RunStore store(service.workspace());
    app::ClusterJobStore jobs(service.workspace());
    const int before = int(jobs.jobs(runId).size());
    const auto started = store.run(runId);
    const int chain =
        started
            ? started->execution.value(QStringLiteral("job")).toObject().value(QStringLiteral("chain_jobs")).toInt(1)
            : 1;
    QEventLoop loop;
    QObject::connect(&service, &RunService::clusterJobChanged, &loop, [&](qint64 id) {
        if (id == runId && jobs.jobs(runId).size() >= before + std::max(1, chain)) loop.quit();
    });
    QObject::connect(&service, &RunService::runEnded, &loop, [&](qint64 id) {
        if (id == runId) loop.quit();
    });
    QTimer::singleShot(kClusterWaitMs, &loop, &QEventLoop::quit);
    loop.exec();
    const auto job = jobs.current(runId);
    const auto run = store.run(runId);
    if (job && jobs.jobs(runId).size() > before) return true;
    io.err << tr("diamondctl: run %1 was not submitted: %2\n")
                  .arg(runId)
                  .arg(run && !run->exitMessage.isEmpty() ? run->exitMessage : tr("no answer from the cluster"));
    return false;
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

/// Reports a started (or resumed) run: the follow loop, or a line / the run's JSON.
int reportStarted(RunService &service, qint64 runId, const Options &o, bool followRun, const QString &verb, Io &io) {
    Workspace &ws = service.workspace();
    const auto run = RunStore(ws).run(runId);
    const bool cluster = run && run->target != QLatin1String("local");
    if (followRun) {
        if (!o.json) io.out << tr("%1 run %2 in %3\n").arg(verb).arg(runId).arg(ws.runDirectory(runId));
        return follow(service, runId, o.json ? PointFormat::JsonLines : PointFormat::Text, io);
    }
    if (cluster && !waitForSubmission(service, runId, io)) return kFailed;
    const auto now = RunStore(ws).run(runId);
    if (o.json) {
        printJson(io, app::runJson(ws, *now));
        return kOk;
    }
    io.out << tr("%1 run %2 (\"%3\") in %4\n").arg(verb).arg(runId).arg(now->name, ws.runDirectory(runId));
    if (const auto job = app::ClusterJobStore(ws).current(runId))
        io.out << tr("Job %1 on %2 is %3; follow it with: diamondctl run metrics %4 --follow\n")
                      .arg(job->jobId, job->cluster, job->phase)
                      .arg(runId);
    return kOk;
}

/// `run start --plan auto`: the planner's choice of processes, job length, stop signal, chain and checkpoint
/// interval, under whatever the user set explicitly (--job keys, --nproc, the config's checkpoint interval).
bool applyPlan(Workspace &ws, RunService::NewRun &n, const Options &o, Io &io) {
    const QJsonObject userJob = n.execution.value(QStringLiteral("job")).toObject();
    app::RunPlanRequest request;
    request.spec = n.spec;
    request.config = n.config;
    request.target = n.target;
    request.partition = userJob.value(QStringLiteral("partition")).toString();
    request.fixedRanks = n.execution.value(QStringLiteral("nproc")).toInt(0);
    request.threads = n.execution.value(QStringLiteral("threads")).toInt(0);
    QString error;
    const auto plan = planRun(ws, request, o.json, io, &error);
    if (!plan) {
        io.err << tr("diamondctl: no plan: %1\n").arg(error);
        return false;
    }
    const QJsonObject &doc = plan->document;
    n.config = app::configForPlan(doc, n.config);
    if (n.target != QLatin1String("local"))
        n.execution.insert(QStringLiteral("job"), app::jobForPlan(doc, userJob));
    else if (!n.execution.contains(QStringLiteral("nproc")))
        n.execution.insert(QStringLiteral("nproc"), doc.value(QStringLiteral("ranks")).toInt(1));
    if (!o.json)
        io.out << tr("Plan: %1 process(es), %2 job(s) of %3 min, a checkpoint every %4 steps, predicted %5 s in all\n")
                      .arg(doc.value(QStringLiteral("ranks")).toInt())
                      .arg(plan->chain.jobs)
                      .arg(plan->chain.timeLimitSeconds / 60.0, 0, 'f', 0)
                      .arg(plan->chain.checkpointEverySteps)
                      .arg(plan->chain.predictedSeconds, 0, 'f', 0);
    return true;
}

/// `run start --target any` (every cluster profile) or `--target A,B`: the run is planned on each candidate, with the
/// queue wait its scheduler estimates, and goes to the earliest predicted finish; that plan is applied as by --plan
/// auto. The candidates' figures (or why one was left out) go to stderr.
/// The clusters `--target any` (every profile with a scheduler) or `--target A,B` names, each once.
QStringList candidateClusters(Workspace &ws, const QString &target) {
    QStringList candidates;
    if (target == QLatin1String("any")) {
        for (const remote::ClusterProfile &p : app::ClusterStore(ws).profiles())
            if (p.scheduler != remote::SchedulerKind::None) candidates << p.name;
        return candidates;
    }
    for (const QString &name : target.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!candidates.contains(name.trimmed())) candidates << name.trimmed();
    return candidates;
}

bool chooseCluster(Workspace &ws, RunService::NewRun &n, const Options &o, Io &io) {
    const QStringList candidates = candidateClusters(ws, n.target);
    if (candidates.isEmpty())
        return io.err << tr("diamondctl: --target any: no cluster with a scheduler (see diamondctl cluster list)\n"),
               false;
    const QJsonObject userJob = n.execution.value(QStringLiteral("job")).toObject();
    QString best;
    double bestFinish = 0;
    QStringList lines;
    for (const QString &cluster : std::as_const(candidates)) {
        if (!app::ClusterStore(ws).profile(cluster)) {
            io.err
                << tr("diamondctl: unknown target '%1': no such cluster (see diamondctl cluster list)\n").arg(cluster);
            return false;
        }
        app::RunPlanRequest request;
        request.spec = n.spec;
        request.config = n.config;
        request.target = cluster;
        request.partition = userJob.value(QStringLiteral("partition")).toString();
        request.fixedRanks = n.execution.value(QStringLiteral("nproc")).toInt(0);
        request.threads = n.execution.value(QStringLiteral("threads")).toInt(0);
        QString error;
        const auto plan = planRun(ws, request, true, io, &error);
        if (!plan) {
            lines << tr("  %1: left out: %2").arg(cluster, error.left(300));
            continue;
        }
        const double finish = plan->document.value(QStringLiteral("predicted_finish_s")).toDouble();
        const double wait = plan->document.value(QStringLiteral("queue_wait_s")).toDouble(-1);
        lines << tr("  %1: finish in %2 s (queue %3)")
                     .arg(cluster)
                     .arg(finish, 0, 'f', 0)
                     .arg(wait >= 0 ? tr("%1 s").arg(wait, 0, 'f', 0) : tr("not estimated"));
        if (best.isEmpty() || finish < bestFinish) {
            best = cluster;
            bestFinish = finish;
        }
    }
    io.err << tr("Start anywhere, the predicted finish on each cluster:\n") << lines.join(QLatin1Char('\n'))
           << QLatin1Char('\n');
    if (best.isEmpty()) return io.err << tr("diamondctl: no cluster can take this run\n"), false;
    io.err << tr("Chosen: %1\n").arg(best);
    n.target = best;
    return applyPlan(ws, n, o, io);
}

/// `run start --target any|A,B --race`: submitted to every candidate at once; the first to start keeps the run and the
/// other jobs are cancelled (RunService::startRace). Waits until one started (or none could).
int runRace(Workspace &ws, RunService::NewRun &n, const Options &o, bool followRun, Io &io) {
    const QStringList candidates = candidateClusters(ws, n.target);
    if (candidates.size() < 2)
        return io.err << tr("diamondctl: --race needs two or more clusters with a scheduler (got: %1)\n")
                             .arg(candidates.join(QStringLiteral(", "))),
               kUsage;
    for (const QString &cluster : std::as_const(candidates))
        if (!app::ClusterStore(ws).profile(cluster))
            return io.err << tr("diamondctl: unknown target '%1': no such cluster (see diamondctl cluster list)\n")
                                 .arg(cluster),
                   kUsage;
    QString error;
    if (!remote::jobRequestFromJson(n.execution.value(QStringLiteral("job")).toObject(), &error))
        return io.err << tr("diamondctl: --job: %1\n").arg(error), kUsage;
    n.target = candidates.first();
    Session session(ws, io, false);
    RunService &service = session.service;
    const auto run = service.createRun(n);
    if (!run) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
    std::optional<QString> winner, lost;
    QEventLoop loop;
    QObject::connect(&service, &RunService::raceWon, &loop, [&](qint64 id, const QString &cluster) {
        if (id != run->id) return;
        winner = cluster;
        loop.quit();
    });
    QObject::connect(&service, &RunService::raceLost, &loop, [&](qint64 id, const QString &why) {
        if (id != run->id) return;
        lost = why;
        loop.quit();
    });
    if (!service.startRace(run->id, candidates))
        return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
    io.err << tr("Run %1 submitted to %2; the first to start keeps it.\n")
                  .arg(run->id)
                  .arg(candidates.join(QStringLiteral(", ")));
    QTimer::singleShot(kClusterWaitMs, &loop, &QEventLoop::quit);
    loop.exec();
    if (lost) return io.err << tr("diamondctl: %1\n").arg(*lost), kFailed;
    if (!winner) {
        service.cancel(run->id);
        return io.err << tr("diamondctl: no cluster started run %1 within %2 minutes; it was cancelled\n")
                             .arg(run->id)
                             .arg(kClusterWaitMs / 60000),
               kFailed;
    }
    io.err << tr("%1 started first; the other jobs are cancelled.\n").arg(*winner);
    if (followRun) return follow(service, run->id, o.json ? PointFormat::JsonLines : PointFormat::Text, io);
    // The losers' cancels are confirmed before this process ends (their jobs must not stay queued).
    QElapsedTimer settle;
    settle.start();
    while (service.isRacing(run->id) && settle.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 100);
    const auto now = RunStore(ws).run(run->id);
    if (o.json)
        printJson(io, app::runJson(ws, *now));
    else
        io.out << tr("Started run %1 (\"%2\") on %3 in %4\n")
                      .arg(run->id)
                      .arg(now->name, *winner, ws.runDirectory(run->id));
    return kOk;
}

int runStart(const Options &o, Workspace &ws, Io &io) {
    const QString specPath = o.values.value(QStringLiteral("--spec"));
    const QString configPath = o.values.value(QStringLiteral("--config"));
    if (specPath.isEmpty() || configPath.isEmpty() || !o.positional.isEmpty()) {
        io.err << tr("diamondctl: run start needs --spec FILE and --config FILE\n") << runUsage();
        return kUsage;
    }
    const bool followRun = o.flags.contains(QStringLiteral("--follow"));
    if (followRun && o.flags.contains(QStringLiteral("--detach")))
        return io.err << tr("diamondctl: --follow and --detach exclude each other\n"), kUsage;
    if (o.values.contains(QStringLiteral("--plan")) &&
        o.values.value(QStringLiteral("--plan")) != QLatin1String("auto"))
        return io.err << tr("diamondctl: --plan expects 'auto'\n"), kUsage;
    RunService::NewRun n;
    n.target = o.values.value(QStringLiteral("--target"), QStringLiteral("local"));
    if (o.values.contains(QStringLiteral("--job"))) {
        const QJsonDocument job = QJsonDocument::fromJson(o.values.value(QStringLiteral("--job")).toUtf8());
        if (!job.isObject()) {
            io.err << tr("diamondctl: --job expects a JSON object such as "
                         "{\"partition\":\"gpu\",\"tasks_per_node\":2,\"time_limit_minutes\":60}\n");
            return kUsage;
        }
        n.execution.insert(QStringLiteral("job"), job.object());
    }
    for (const auto &[option, key, minimum] :
         {std::tuple{"--nproc", "nproc", 1}, std::tuple{"--threads", "threads", 0}}) {
        const QString text = o.values.value(QLatin1String(option));
        if (text.isEmpty()) continue;
        bool ok = false;
        const int value = text.toInt(&ok);
        if (!ok || value < minimum || value > 1024) {
            io.err << tr("diamondctl: %1 expects a whole number from %2 to 1024, not '%3'\n")
                          .arg(QLatin1String(option))
                          .arg(minimum)
                          .arg(text);
            return kUsage;
        }
        n.execution.insert(QLatin1String(key), value);
    }
    if (!readJsonObject(specPath, &n.spec, io) || !readJsonObject(configPath, &n.config, io)) return kFailed;
    n.project = o.values.value(QStringLiteral("--project"), QStringLiteral("Default"));
    n.architectureName = n.spec.value(QStringLiteral("name")).toString();
    if (n.architectureName.isEmpty()) n.architectureName = QFileInfo(specPath).completeBaseName();
    n.name = o.values.value(QStringLiteral("--name"), n.architectureName);

    const bool anywhere = n.target == QLatin1String("any") || n.target.contains(QLatin1Char(','));
    if (o.flags.contains(QStringLiteral("--race"))) {
        if (!anywhere) return io.err << tr("diamondctl: --race needs --target any or a list A,B\n"), kUsage;
        return runRace(ws, n, o, followRun, io);
    }
    if (anywhere) {
        if (!chooseCluster(ws, n, o, io)) return kFailed;
    } else if (n.target != QLatin1String("local") && !app::ClusterStore(ws).profile(n.target)) {
        io.err << tr("diamondctl: unknown target '%1': no such cluster (see diamondctl cluster list)\n").arg(n.target);
        return kUsage;
    } else if (o.values.contains(QStringLiteral("--plan")) && !applyPlan(ws, n, o, io)) {
        return kFailed;
    }
    if (n.target != QLatin1String("local")) {
        QString error;
        if (!remote::jobRequestFromJson(n.execution.value(QStringLiteral("job")).toObject(), &error))
            return io.err << tr("diamondctl: --job: %1\n").arg(error), kUsage;
    }
    Session session(ws, io, !followRun);
    const auto run = session.service.createRun(n);
    if (!run) return io.err << tr("diamondctl: %1\n").arg(session.service.errorString()), kFailed;
    if (!session.service.start(run->id)) {
        io.err << tr("diamondctl: run %1 could not start: %2\n").arg(run->id).arg(session.service.errorString());
        return kFailed;
    }
    return reportStarted(session.service, run->id, o, followRun, tr("Started"), io);
}

/// `run cancel ID`: a cluster run waits until the scheduler confirms (or refuses).
int runCancel(RunService &service, qint64 runId, const Options &o, Io &io) {
    Workspace &ws = service.workspace();
    std::optional<QString> refused;
    QEventLoop loop;
    QObject::connect(&service, &RunService::runEnded, &loop, [&](qint64 id) {
        if (id == runId) loop.quit();
    });
    QObject::connect(&service, &RunService::cancelFailed, &loop, [&](qint64 id, const QString &error) {
        if (id != runId) return;
        refused = error;
        loop.quit();
    });
    if (!service.cancel(runId)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
    if (service.isActive(runId)) {
        QTimer::singleShot(kClusterWaitMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    const auto run = RunStore(ws).run(runId);
    if (refused) return io.err << tr("diamondctl: run %1 was not cancelled: %2\n").arg(runId).arg(*refused), kFailed;
    if (!run || !isEnded(run->state))
        return io.err << tr("diamondctl: run %1 is still %2: the cancel was not confirmed in time\n")
                             .arg(runId)
                             .arg(run ? app::runStateName(run->state) : QStringLiteral("?")),
               kFailed;
    if (o.json)
        printJson(io, app::runJson(ws, *run));
    else
        io.out << tr("Cancelled run %1.\n").arg(runId);
    return kOk;
}

/// `run move ID --target B`: waits for the run to stop at a checkpoint (a running run), then reports its start on B
/// as `run resume` does.
int runMove(RunService &service, qint64 runId, const Options &o, bool followRun, Io &io) {
    const QString target = o.values.value(QStringLiteral("--target"));
    if (target.isEmpty()) return io.err << tr("diamondctl: run move needs --target CLUSTER|local\n"), kUsage;
    QJsonObject job;
    if (o.values.contains(QStringLiteral("--job"))) {
        const QJsonDocument doc = QJsonDocument::fromJson(o.values.value(QStringLiteral("--job")).toUtf8());
        if (!doc.isObject()) return io.err << tr("diamondctl: --job expects a JSON object\n"), kUsage;
        job = doc.object();
    }
    std::optional<QString> failed;
    bool moved = false;
    QEventLoop loop;
    QObject::connect(&service, &RunService::runMoved, &loop, [&](qint64 id) {
        if (id != runId) return;
        moved = true;
        loop.quit();
    });
    QObject::connect(&service, &RunService::moveFailed, &loop, [&](qint64 id, const QString &error) {
        if (id != runId) return;
        failed = error;
        loop.quit();
    });
    QObject::connect(&service, &RunService::cancelFailed, &loop, [&](qint64 id, const QString &error) {
        if (id != runId) return;
        failed = tr("the run could not be stopped: %1").arg(error);
        loop.quit();
    });
    if (!service.moveRun(runId, target, job))
        return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
    if (service.isMoving(runId)) {
        if (!o.json) io.out << tr("Stopping run %1 at a checkpoint…\n").arg(runId);
        QTimer::singleShot(kClusterWaitMs, &loop, &QEventLoop::quit);
        loop.exec();
        if (failed) return io.err << tr("diamondctl: run %1 did not move: %2\n").arg(runId).arg(*failed), kFailed;
        if (!moved)
            return io.err << tr("diamondctl: run %1 did not stop in time; it was not moved\n").arg(runId), kFailed;
    }
    const auto now = RunStore(service.workspace()).run(runId);
    if (now && (now->state == RunState::Draft || now->state == RunState::Queued)) {
        if (o.json)
            printJson(io, app::runJson(service.workspace(), *now));
        else
            io.out << tr("Run %1 now targets %2; it has not started.\n").arg(runId).arg(target);
        return kOk;
    }
    return reportStarted(service, runId, o, followRun, tr("Moved"), io);
}

/// `run show ID`: the run, its cluster job and the executors' messages.
int runShow(Workspace &ws, const Run &r, const Options &o, Io &io) {
    if (o.json) {
        printJson(io, app::runDetailJson(ws, r));
        return kOk;
    }
    RunStore store(ws);
    const QJsonObject doc = app::runJson(ws, r);
    io.out << tr("Run:           %1 \"%2\"\n").arg(r.id).arg(r.name)
           << tr("Project:       %1\n").arg(doc.value(QStringLiteral("project")).toString())
           << tr("State:         %1\n").arg(app::runStateName(r.state)) << tr("Target:        %1\n").arg(r.target)
           << tr("Folder:        %1\n").arg(ws.runDirectory(r.id)) << tr("Created:       %1\n").arg(r.createdAt)
           << tr("Started:       %1\n").arg(r.startedAt) << tr("Ended:         %1\n").arg(r.finishedAt);
    if (const auto job = app::ClusterJobStore(ws).current(r.id))
        io.out << tr("Job:           %1 on %2, %3%4\n")
                      .arg(job->jobId, job->cluster, job->phase,
                           job->reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(job->reason));
    if (r.exitCode) io.out << tr("Exit code:     %1\n").arg(*r.exitCode);
    if (!r.exitMessage.isEmpty()) io.out << tr("Message:       %1\n").arg(r.exitMessage);
    if (!r.finalMetrics.isEmpty())
        io.out << tr("Final metrics: %1\n")
                      .arg(QString::fromUtf8(QJsonDocument(r.finalMetrics).toJson(QJsonDocument::Compact)));
    if (!r.weightsHash.isEmpty()) io.out << tr("Weights:       sha256 %1\n").arg(r.weightsHash);
    if (!r.datasetRef.isEmpty()) io.out << tr("Dataset:       %1\n").arg(r.datasetRef);
    if (!r.owner.isEmpty()) io.out << tr("Started by:    %1 (a user of the REST API)\n").arg(r.owner);
    io.out << tr("Metric points: %1\n").arg(store.metricPointCount(r.id));
    for (const app::RunMessage &m : store.messages(r.id, 20))
        io.out << QStringLiteral("  %1  %2\n").arg(m.at, m.text);
    return kOk;
}

/// `run export ID [--out DIR]`: the engine's export (safetensors, spec, test inputs/outputs, a standalone PyTorch
/// module) of the run's newest checkpoint, into DIR or <run folder>/export.
int runExport(RunService &service, qint64 runId, const Options &o, Io &io) {
    const QString runDir = service.workspace().runDirectory(runId);
    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::Export;
    command.specPath = QDir(runDir).filePath(QStringLiteral("spec.json"));
    command.runDir = runDir;
    if (o.values.contains(QStringLiteral("--out")))
        command.outDir = QDir(o.values.value(QStringLiteral("--out"))).absolutePath();
    QProcess engine;
    engine.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    engine.start(service.enginePath(), command.arguments());
    if (!engine.waitForStarted() || !engine.waitForFinished(-1)) {
        io.err << tr("diamondctl: cannot run %1: %2\n").arg(service.enginePath(), engine.errorString());
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

int runList(Workspace &ws, const Options &o, Io &io) {
    RunStore store(ws);
    const QList<Run> runs = store.runs();
    if (o.json) {
        QJsonArray array;
        for (const Run &r : runs)
            array.append(app::runJson(ws, r));
        printJson(io, {{QStringLiteral("workspace"), ws.path()}, {QStringLiteral("runs"), array}});
        return kOk;
    }
    io.out << tr("id").rightJustified(4) << "  " << tr("state").leftJustified(9) << "  "
           << tr("target").leftJustified(8) << "  " << tr("name").leftJustified(20) << "  " << tr("created") << '\n';
    for (const Run &r : runs)
        io.out << QString::number(r.id).rightJustified(4) << "  " << app::runStateName(r.state).leftJustified(9) << "  "
               << r.target.leftJustified(8) << "  " << r.name.leftJustified(20) << "  " << r.createdAt << '\n';
    return kOk;
}

int runLeaderboard(Workspace &ws, const Options &o, Io &io) {
    const QString projectName = o.values.value(QStringLiteral("--project"));
    if (projectName.isEmpty() || !o.positional.isEmpty())
        return io.err << tr("diamondctl: run leaderboard needs --project NAME\n"), kUsage;
    RunStore store(ws);
    const auto project = store.projectByName(projectName);
    if (!project) return io.err << tr("diamondctl: there is no project '%1'\n").arg(projectName), kFailed;
    QString error;
    const auto board = app::projectLeaderboard(store, project->id, o.values.value(QStringLiteral("--metric")), &error);
    if (!board) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    if (o.json) return printJson(io, app::leaderboardJson(*board)), kOk;
    if (board->entries.isEmpty()) {
        io.out << tr("No finished run of %1 has %2 yet.\n")
                      .arg(board->project, board->metric.isEmpty() ? tr("a validation metric") : board->metric);
        return kOk;
    }
    io.out << tr("%1, best %2 per user (%3 is better)\n")
                  .arg(board->project, board->metric, board->higherIsBetter ? tr("higher") : tr("lower"));
    io.out << tr("rank").rightJustified(4) << "  " << tr("user").leftJustified(16) << "  "
           << tr("value").rightJustified(10) << "  " << tr("runs").rightJustified(4) << "  " << tr("best run") << '\n';
    for (const app::LeaderboardEntry &e : board->entries)
        io.out << QString::number(e.rank).rightJustified(4) << "  " << e.user.leftJustified(16) << "  "
               << QString::number(e.value, 'g', 6).rightJustified(10) << "  "
               << QString::number(e.finishedRuns).rightJustified(4) << "  " << tr("#%1 %2").arg(e.runId).arg(e.runName)
               << '\n';
    return kOk;
}

int runMetrics(RunService &service, qint64 runId, const Options &o, Io &io) {
    const PointFormat format = o.flags.contains(QStringLiteral("--csv")) ? PointFormat::Csv
                               : o.json                                  ? PointFormat::JsonLines
                                                                         : PointFormat::Text;
    if (format == PointFormat::Csv) io.out << "step,split,name,value,wall\n";
    if (o.flags.contains(QStringLiteral("--follow"))) return follow(service, runId, format, io);
    const QList<MetricPoint> points = RunStore(service.workspace()).metricPointsSince(runId);
    if (o.json) {
        QJsonArray array;
        for (const MetricPoint &p : points)
            array.append(app::metricPointJson(p));
        printJson(io, {{QStringLiteral("run"), runId}, {QStringLiteral("points"), array}});
        return kOk;
    }
    for (const MetricPoint &p : points)
        io.out << formatPoint(p, format);
    return kOk;
}

} // namespace

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
    static const QStringList known{QStringLiteral("start"),  QStringLiteral("plan"),   QStringLiteral("list"),
                                   QStringLiteral("stages"), QStringLiteral("show"),   QStringLiteral("metrics"),
                                   QStringLiteral("logs"),   QStringLiteral("cancel"), QStringLiteral("resume"),
                                   QStringLiteral("export"), QStringLiteral("delete"), QStringLiteral("leaderboard"),
                                   QStringLiteral("move")};
    if (!known.contains(sub)) {
        io.err << tr("diamondctl: unknown run command '%1'\n").arg(sub) << runUsage();
        return kUsage;
    }
    const QStringList valued =
        sub == QLatin1String("start")
            ? QStringList{QStringLiteral("--spec"),    QStringLiteral("--config"), QStringLiteral("--project"),
                          QStringLiteral("--name"),    QStringLiteral("--target"), QStringLiteral("--nproc"),
                          QStringLiteral("--threads"), QStringLiteral("--job"),    QStringLiteral("--plan")}
        : sub == QLatin1String("plan")
            ? QStringList{QStringLiteral("--spec"),      QStringLiteral("--config"), QStringLiteral("--target"),
                          QStringLiteral("--partition"), QStringLiteral("--nproc"),  QStringLiteral("--threads")}
        : sub == QLatin1String("stages")
            ? QStringList{QStringLiteral("--spec"),          QStringLiteral("--config"), QStringLiteral("--stages"),
                          QStringLiteral("--micro-batches"), QStringLiteral("--cut"),    QStringLiteral("--threads"),
                          QStringLiteral("--output")}
        : sub == QLatin1String("move")        ? QStringList{QStringLiteral("--target"), QStringLiteral("--job")}
        : sub == QLatin1String("export")      ? QStringList{QStringLiteral("--out")}
        : sub == QLatin1String("leaderboard") ? QStringList{QStringLiteral("--project"), QStringLiteral("--metric")}
                                              : QStringList{};
    if (!parseOptions(rest, valued,
                      {QStringLiteral("--follow"), QStringLiteral("--csv"), QStringLiteral("--detach"),
                       QStringLiteral("--measure-width"), QStringLiteral("--no-queue-wait"), QStringLiteral("--race")},
                      &o, io))
        return kUsage;

    Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    if (sub == QLatin1String("start")) return runStart(o, ws, io);
    if (sub == QLatin1String("plan")) return runPlan(o, ws, io);
    if (sub == QLatin1String("stages")) return runStages(o, ws, io);
    if (sub == QLatin1String("leaderboard")) {
        Session session(ws, io, true);
        session.service.settleLocalRuns(); // runs whose engine has ended
        return runLeaderboard(ws, o, io);
    }
    const bool followRun = o.flags.contains(QStringLiteral("--follow"));
    if (sub == QLatin1String("list")) {
        Session session(ws, io, true);
        session.service.settleLocalRuns(); // runs whose engine has ended
        return runList(ws, o, io);
    }

    qint64 runId = 0;
    if (!parseRunId(o, &runId, io)) return kUsage;
    RunStore store(ws);
    const auto run = store.run(runId);
    if (!run) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    Session session(ws, io, !followRun);
    RunService &service = session.service;
    if (sub == QLatin1String("show")) {
        service.settleLocalRuns();
        return runShow(ws, *store.run(runId), o, io);
    }
    if (sub == QLatin1String("metrics")) return runMetrics(service, runId, o, io);
    if (sub == QLatin1String("logs")) {
        for (const QJsonObject &event : store.events(runId, {}, true))
            io.out << QString::fromUtf8(QJsonDocument(event).toJson(QJsonDocument::Compact)) << '\n';
        return kOk;
    }
    if (sub == QLatin1String("export")) return runExport(service, runId, o, io);
    if (sub == QLatin1String("cancel")) return runCancel(service, runId, o, io);
    if (sub == QLatin1String("move")) return runMove(service, runId, o, followRun, io);
    if (sub == QLatin1String("delete")) {
        if (!service.deleteRun(runId)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
        io.out << tr("Deleted run %1.\n").arg(runId);
        return kOk;
    }
    // resume
    if (!service.resume(runId)) return io.err << tr("diamondctl: %1\n").arg(service.errorString()), kFailed;
    return reportStarted(service, runId, o, followRun, tr("Resumed"), io);
}

} // namespace diamond::cli
