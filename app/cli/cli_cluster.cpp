// diamondctl cluster add|list|show|remove|test|probe|calibrate|deploy: cluster profiles of the workspace
// (app/cluster_store.h), their connection test and partition probe (over SSH, or on this machine for host "local").
#include "cli.h"
#include "terminal_prompter.h"

#include "app/cluster/cluster_connection.h"
#include "app/cluster/cluster_link.h"
#include "app/cluster/cluster_overview.h"
#include "app/cluster/cluster_store.h"
#include "app/cluster/engine_deploy.h"
#include "app/plan/cluster_calibration.h"
#include "app/workspace/workspace.h"
#include "remote/scheduler.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace diamond::cli {

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("diamondctl", text, disambiguation, n);
}

QString clusterUsage() {
    return tr("Usage:\n"
              "  diamondctl cluster add NAME --host HOST --scratch DIR --engine PATH [--port N] [--user USER]\n"
              "                         [--scheduler slurm|pbs|none] [--account A] [--modules M1,M2]\n"
              "                         [--container RUNTIME:IMAGE] [--identity KEY] [--known-hosts FILE] [--json]\n"
              "  diamondctl cluster add --from-json FILE [--json]      (the JSON form of docs/clusters.md)\n"
              "  diamondctl cluster list [--json]\n"
              "  diamondctl cluster show NAME [--json]\n"
              "  diamondctl cluster remove NAME\n"
              "  diamondctl cluster test NAME [--json]       connection, scheduler, scratch folder, engine\n"
              "  diamondctl cluster probe NAME [--save] [--json]   partitions from sinfo/scontrol (qstat -Qf)\n"
              "  diamondctl cluster calibrate NAME [--partition P] [--json]\n"
              "                                          measure a node's speed (a short srun job) for the planner\n"
              "  diamondctl cluster status [--timeout S] [--json]\n"
              "                                          every cluster: reachable, nodes idle/allocated, your jobs,\n"
              "                                          fair share (read in parallel; S seconds at most, default 20)\n"
              "  diamondctl cluster deploy NAME [--engine FILE] [--json]\n"
              "                                          put this computer's engine and its libraries on the cluster\n"
              "  diamondctl cluster deploy NAME --container [--partition P] [--source DIR] [--image BASE]\n"
              "                             [--build-minutes N] [--json]\n"
              "                                          build an Apptainer image with the engine on the cluster\n"
              "                                          (GPU clusters: against the image's PyTorch with CUDA)\n"
              "HOST \"local\" means this computer (no SSH).\n");
}

QString partitionLine(const remote::PartitionInfo &p) {
    QString gpus = p.gpusPerNode ? QStringLiteral("%1%2")
                                       .arg(p.gpusPerNode)
                                       .arg(p.gpuType.isEmpty() ? QString() : QStringLiteral(" x ") + p.gpuType)
                                 : QStringLiteral("-");
    return tr("  %1%2  nodes %3, CPUs/node %4, memory/node %5 MB, GPUs/node %6, max walltime %7\n")
        .arg(p.name, p.isDefault ? QStringLiteral(" (default)") : QString())
        .arg(p.nodes)
        .arg(p.cpusPerNode)
        .arg(p.memoryMb)
        .arg(gpus)
        .arg(p.maxWalltimeMinutes ? tr("%n min", nullptr, p.maxWalltimeMinutes) : tr("unlimited"));
}

int add(const CommandOptions &o, app::ClusterStore &store, Io &io) {
    QJsonObject json;
    if (o.values.contains(QStringLiteral("--from-json"))) {
        QFile f(o.values.value(QStringLiteral("--from-json")));
        if (!f.open(QIODevice::ReadOnly)) {
            io.err << tr("diamondctl: cannot read %1: %2\n").arg(f.fileName(), f.errorString());
            return kFailed;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
        if (!doc.isObject()) {
            io.err << tr("diamondctl: %1 is not a JSON object: %2\n").arg(f.fileName(), parseError.errorString());
            return kFailed;
        }
        json = doc.object();
        if (!o.positional.isEmpty()) json.insert(QStringLiteral("name"), o.positional.first());
    } else {
        if (o.positional.size() != 1) {
            io.err << tr("diamondctl: cluster add needs one NAME\n") << clusterUsage();
            return kUsage;
        }
        json.insert(QStringLiteral("name"), o.positional.first());
        const QList<std::pair<const char *, const char *>> keys{{"--host", "host"},
                                                                {"--user", "user"},
                                                                {"--scheduler", "scheduler"},
                                                                {"--account", "account"},
                                                                {"--scratch", "scratch_dir"},
                                                                {"--engine", "engine_path"},
                                                                {"--identity", "identity_file"},
                                                                {"--known-hosts", "known_hosts_file"}};
        for (const auto &[option, key] : keys)
            if (o.values.contains(QLatin1String(option)))
                json.insert(QLatin1String(key), o.values.value(QLatin1String(option)));
        if (o.values.contains(QStringLiteral("--port"))) {
            bool ok = false;
            const int port = o.values.value(QStringLiteral("--port")).toInt(&ok);
            json.insert(QStringLiteral("port"),
                        ok ? QJsonValue(port) : QJsonValue(o.values.value(QStringLiteral("--port"))));
        }
        if (o.values.contains(QStringLiteral("--modules")))
            json.insert(QStringLiteral("modules"),
                        QJsonArray::fromStringList(
                            o.values.value(QStringLiteral("--modules")).split(QLatin1Char(','), Qt::SkipEmptyParts)));
        if (o.values.contains(QStringLiteral("--container"))) {
            const QString c = o.values.value(QStringLiteral("--container"));
            json.insert(QStringLiteral("container"),
                        QJsonObject{{QStringLiteral("runtime"), c.section(QLatin1Char(':'), 0, 0)},
                                    {QStringLiteral("image"), c.section(QLatin1Char(':'), 1)}});
        }
    }
    QString error;
    const auto profile = remote::ClusterProfile::fromJson(json, &error);
    if (!profile) {
        io.err << tr("diamondctl: invalid cluster profile: %1\n").arg(error);
        return kUsage;
    }
    if (!store.add(*profile)) {
        io.err << tr("diamondctl: %1\n").arg(store.errorString());
        return kFailed;
    }
    if (o.json)
        printJson(io, profile->toJson());
    else
        io.out << tr("Added cluster \"%1\" (%2, %3)\n")
                      .arg(profile->name, profile->host, remote::schedulerKindName(profile->scheduler));
    return kOk;
}

/// `cluster status`: every profile read once in parallel (app::readAllClusterStatus). No sign-in questions are asked:
/// clusters reached by key or agent answer, the others say why.
int status(app::ClusterStore &store, const CommandOptions &o, Io &io) {
    int seconds = 20;
    if (o.values.contains(QStringLiteral("--timeout"))) {
        bool ok = false;
        seconds = o.values.value(QStringLiteral("--timeout")).toInt(&ok);
        if (!ok || seconds < 1 || seconds > 600)
            return io.err << tr("diamondctl: --timeout must be a whole number of seconds from 1 to 600\n"), kUsage;
    }
    const QList<remote::ClusterProfile> profiles = store.profiles();
    if (!store.errorString().isEmpty()) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    QElapsedTimer clock;
    clock.start();
    const QList<app::ClusterStatusEntry> entries = app::readAllClusterStatus(profiles, seconds * 1000);
    const double took = double(clock.elapsed()) / 1000.0;
    if (o.json) {
        QJsonArray a;
        for (const app::ClusterStatusEntry &e : std::as_const(entries))
            a.append(e.toJson());
        printJson(io, {{QStringLiteral("clusters"), a}, {QStringLiteral("refresh_s"), took}});
        return kOk;
    }
    if (entries.isEmpty()) io.out << tr("No clusters. Add one with: diamondctl cluster add NAME ...\n");
    for (const app::ClusterStatusEntry &e : std::as_const(entries)) {
        if (!e.reachable) {
            io.out << tr("%1\tunreachable: %2\n").arg(e.cluster, e.error);
            continue;
        }
        io.out << tr("%1\treachable (read in %2 s)\n").arg(e.cluster).arg(e.readSeconds, 0, 'f', 1);
        for (const remote::PartitionLoad &p : e.partitions)
            io.out << tr("  %1%2\tnodes: %3 idle, %4 allocated, %5 other of %6; CPUs %7 of %8 in use\n")
                          .arg(p.name, p.isDefault ? QStringLiteral("*") : QString())
                          .arg(p.nodesIdle)
                          .arg(p.nodesAllocated)
                          .arg(p.nodesOther)
                          .arg(p.nodesTotal)
                          .arg(p.cpusAllocated)
                          .arg(p.cpusTotal);
        for (const remote::JobStatus &j : e.jobs)
            io.out << tr("  job %1\t%2%3\n")
                          .arg(j.jobId, j.state,
                               j.reason.isEmpty() ? QString() : QStringLiteral(" (") + j.reason + QLatin1Char(')'));
        if (e.jobs.isEmpty()) io.out << tr("  no jobs of yours\n");
        for (const remote::FairShare &s : e.shares)
            io.out << tr("  fair share %1: %2\n").arg(s.account).arg(s.fairShare, 0, 'f', 3);
        if (e.shares.isEmpty() && !e.sharesNote.isEmpty()) io.out << tr("  fair share: %1\n").arg(e.sharesNote);
    }
    io.out << tr("Read %n cluster(s) in %1 s.\n", nullptr, int(entries.size())).arg(took, 0, 'f', 1);
    return kOk;
}

/// `cluster deploy`: app/cluster/engine_deploy.h. The profile then uses the deployed engine.
int deploy(app::ClusterLink &link, const remote::ClusterProfile &profile, const CommandOptions &o,
           app::ClusterStore &store, Io &io) {
    app::EngineDeployOptions options;
    options.container = o.flags.contains(QStringLiteral("--container"));
    options.localEngine = o.values.value(QStringLiteral("--engine"));
    options.sourceDir = o.values.value(QStringLiteral("--source"));
    options.partition = o.values.value(QStringLiteral("--partition"));
    options.baseImage = o.values.value(QStringLiteral("--image"));
    if (o.values.contains(QStringLiteral("--build-minutes"))) {
        bool ok = false;
        options.buildMinutes = o.values.value(QStringLiteral("--build-minutes")).toInt(&ok);
        if (!ok || options.buildMinutes < 1 || options.buildMinutes > 1440)
            return io.err << tr("diamondctl: --build-minutes must be a whole number from 1 to 1440\n"), kUsage;
    }
    if (!options.container)
        for (const char *containerOnly : {"--partition", "--source", "--image", "--build-minutes"})
            if (o.values.contains(QString::fromLatin1(containerOnly)))
                return io.err << tr("diamondctl: %1 is for --container deployments\n")
                                     .arg(QString::fromLatin1(containerOnly)),
                       kUsage;
    QString error;
    std::optional<app::EngineDeployment> deployed;
    app::runAndWait(link, [&] {
        if (remote::CommandRunner *runner = link.runner(&error))
            deployed = app::deployEngine(
                *runner, profile, options,
                [&io, json = o.json](const QString &step) {
                    if (!json) io.err << step << QLatin1Char('\n');
                },
                &error);
    });
    if (!deployed) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    const remote::ClusterProfile updated = app::withDeployment(profile, options, *deployed);
    if (!store.update(updated)) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    if (o.json) {
        printJson(io, app::deploymentJson(profile.name, options, *deployed));
        return kOk;
    }
    io.out << tr("Deployed %1 on %2 in %3 s (%4 MB sent): %5%6\n")
                  .arg(deployed->version, profile.name)
                  .arg(deployed->seconds, 0, 'f', 1)
                  .arg(double(deployed->uploadedBytes) / 1e6, 0, 'f', 1)
                  .arg(deployed->enginePath,
                       deployed->image.isEmpty() ? QString() : tr(" in the image %1").arg(deployed->image));
    io.out << tr("The cluster profile now uses it.\n");
    return kOk;
}

/// `cluster calibrate`: app/plan/cluster_calibration.h.
int calibrate(app::ClusterLink &link, const remote::ClusterProfile &profile, const CommandOptions &o,
              app::Workspace &ws, Io &io) {
    const QString partition = o.values.value(QStringLiteral("--partition"));
    QString error;
    if (app::clusterCalibrationCommand(profile, partition, &error).isEmpty())
        return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    if (!o.json)
        io.err << tr("Calibrating a node of %1 (a job step of up to 10 minutes; about 10 s once it runs)…\n")
                      .arg(partition.isEmpty() ? profile.name : profile.name + QStringLiteral(" › ") + partition);
    std::optional<QJsonObject> measured;
    app::runAndWait(link, [&] {
        if (remote::CommandRunner *runner = link.runner(&error))
            measured = app::runClusterCalibration(*runner, profile, partition, &error);
    });
    if (!measured) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    const QStringList saved = app::saveClusterCalibration(ws, profile.name, partition, *measured, &error);
    if (saved.isEmpty()) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    if (o.json) {
        printJson(io, {{QStringLiteral("cluster"), profile.name},
                       {QStringLiteral("partition"), partition},
                       {QStringLiteral("saved_as"), QJsonArray::fromStringList(saved)},
                       {QStringLiteral("profile"), *measured}});
        return kOk;
    }
    double bestGflops = 0;
    for (const QJsonValue &v : measured->value(QStringLiteral("linear")).toArray())
        bestGflops = std::max(bestGflops, v.toObject().value(QStringLiteral("gflops")).toDouble());
    io.out << tr("Node %1 (%2, %3 thread(s) per rank): up to %4 GFLOP/s in Linear layers, calibrated in %5 s.\n")
                  .arg(measured->value(QStringLiteral("host")).toString(),
                       measured->value(QStringLiteral("cpu")).toString(),
                       QString::number(measured->value(QStringLiteral("threads")).toInt()))
                  .arg(bestGflops, 0, 'f', 1)
                  .arg(measured->value(QStringLiteral("calibration_seconds")).toDouble(), 0, 'f', 1);
    io.out << tr("Saved as device profile(s): %1\n").arg(saved.join(QStringLiteral(", ")));
    return kOk;
}

} // namespace

int runCluster(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help")) {
        (args.isEmpty() ? io.err : io.out) << clusterUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    static const QStringList known{QStringLiteral("add"),       QStringLiteral("list"),   QStringLiteral("show"),
                                   QStringLiteral("remove"),    QStringLiteral("test"),   QStringLiteral("probe"),
                                   QStringLiteral("calibrate"), QStringLiteral("deploy"), QStringLiteral("status")};
    if (!known.contains(sub)) {
        io.err << tr("diamondctl: unknown cluster command '%1'\n").arg(sub) << clusterUsage();
        return kUsage;
    }
    CommandOptions o;
    const QStringList valued =
        sub == QLatin1String("add")
            ? QStringList{QStringLiteral("--host"),      QStringLiteral("--port"),        QStringLiteral("--user"),
                          QStringLiteral("--scheduler"), QStringLiteral("--account"),     QStringLiteral("--scratch"),
                          QStringLiteral("--engine"),    QStringLiteral("--modules"),     QStringLiteral("--container"),
                          QStringLiteral("--identity"),  QStringLiteral("--known-hosts"), QStringLiteral("--from-json")}
        : sub == QLatin1String("calibrate") ? QStringList{QStringLiteral("--partition")}
        : sub == QLatin1String("status")    ? QStringList{QStringLiteral("--timeout")}
        : sub == QLatin1String("deploy")
            ? QStringList{QStringLiteral("--partition"), QStringLiteral("--engine"), QStringLiteral("--source"),
                          QStringLiteral("--image"), QStringLiteral("--build-minutes")}
            : QStringList{};
    const QStringList flags = sub == QLatin1String("probe")    ? QStringList{QStringLiteral("--save")}
                              : sub == QLatin1String("deploy") ? QStringList{QStringLiteral("--container")}
                                                               : QStringList{};
    if (!parseOptions(args.mid(1), valued, flags, &o, io)) return kUsage;
    if (args.contains(QStringLiteral("--help"))) {
        io.out << clusterUsage();
        return kOk;
    }
    app::Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    app::ClusterStore store(ws);
    if (sub == QLatin1String("add")) return add(o, store, io);
    if (sub == QLatin1String("status")) return status(store, o, io);
    if (sub == QLatin1String("list")) {
        const auto profiles = store.profiles();
        if (!store.errorString().isEmpty()) io.err << tr("diamondctl: %1\n").arg(store.errorString());
        if (o.json) {
            QJsonArray a;
            for (const auto &p : profiles)
                a.append(p.toJson());
            printJson(io, {{QStringLiteral("clusters"), a}});
        } else {
            if (profiles.isEmpty()) io.out << tr("No clusters. Add one with: diamondctl cluster add NAME ...\n");
            for (const auto &p : profiles)
                io.out << QStringLiteral("%1\t%2@%3:%4\t%5\t%6\n")
                              .arg(p.name, p.user, p.host)
                              .arg(p.port)
                              .arg(remote::schedulerKindName(p.scheduler), p.scratchDir);
        }
        return kOk;
    }
    if (o.positional.size() != 1) {
        io.err << tr("diamondctl: cluster %1 needs one NAME\n").arg(sub) << clusterUsage();
        return kUsage;
    }
    const QString name = o.positional.first();
    if (sub == QLatin1String("remove")) {
        if (!store.remove(name)) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
        io.out << tr("Removed cluster \"%1\"\n").arg(name);
        return kOk;
    }
    auto profile = store.profile(name);
    if (!profile) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    if (sub == QLatin1String("show")) {
        if (o.json) {
            printJson(io, profile->toJson());
        } else {
            io.out << QString::fromUtf8(QJsonDocument(profile->toJson()).toJson(QJsonDocument::Indented));
        }
        return kOk;
    }
    // The cluster is reached like everywhere else: through its link, with sign-in prompts on the terminal.
    TerminalPrompter prompter(io.err);
    app::ClusterLinks links;
    links.setPrompter(&prompter);
    app::ClusterLink *link = links.link(*profile);
    if (sub == QLatin1String("test")) {
        QList<app::ClusterCheck> checks;
        app::runAndWait(*link, [&] {
            QString error;
            if (remote::CommandRunner *runner = link->runner(&error))
                checks = app::testCluster(*runner, *profile);
            else
                checks << app::ClusterCheck{QStringLiteral("connect"), false, error};
        });
        bool allOk = true;
        QJsonArray a;
        for (const auto &c : checks) {
            allOk = allOk && c.ok;
            a.append(app::checkJson(c));
            if (!o.json) io.out << QStringLiteral("%1 %2: %3\n").arg(c.ok ? tr("ok  ") : tr("FAIL"), c.name, c.detail);
        }
        if (o.json)
            printJson(
                io, {{QStringLiteral("cluster"), name}, {QStringLiteral("ok"), allOk}, {QStringLiteral("checks"), a}});
        return allOk ? kOk : kFailed;
    }
    if (sub == QLatin1String("calibrate")) return calibrate(*link, *profile, o, ws, io);
    if (sub == QLatin1String("deploy")) return deploy(*link, *profile, o, store, io);
    // probe
    QString error;
    std::optional<QList<remote::PartitionInfo>> partitions;
    app::runAndWait(*link, [&] {
        if (remote::Scheduler *scheduler = link->scheduler(&error)) partitions = scheduler->probe(&error);
    });
    if (!partitions) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    if (o.flags.contains(QStringLiteral("--save"))) {
        profile->partitions = *partitions;
        if (!store.update(*profile)) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    }
    if (o.json) {
        QJsonArray a;
        for (const auto &p : *partitions)
            a.append(p.toJson());
        printJson(io, {{QStringLiteral("cluster"), name}, {QStringLiteral("partitions"), a}});
    } else {
        io.out << tr("%n partition(s) on \"%1\":\n", nullptr, int(partitions->size())).arg(name);
        for (const auto &p : *partitions)
            io.out << partitionLine(p);
        if (o.flags.contains(QStringLiteral("--save"))) io.out << tr("Saved to the profile.\n");
    }
    return kOk;
}

} // namespace diamond::cli
