#include "remote/job_script.h"

#include "diamond/version.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>

namespace diamond::remote {

QString shellWords(const QStringList &words) {
    QStringList quoted;
    for (const QString &w : words)
        quoted << shellWord(w);
    return quoted.join(QLatin1Char(' '));
}

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::remote::JobScript", text); }

/// Variables a containerised rank needs from the host (rendezvous and run settings).
const char *const kRankVariables[] = {
    "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_JOB_ID", "SLURM_JOB_NODELIST", "SLURM_NODELIST",
    "MASTER_ADDR",  "MASTER_PORT",  "RANK",          "WORLD_SIZE",   "LOCAL_RANK",         "DIAMOND_DIST_TIMEOUT_S"};

/// A value for a `#SBATCH --x="..."` / `#PBS -x ...` line: the scheduler reads these lines itself, so shell
/// quoting does not apply; double quotes keep spaces.
QString directiveValue(const QString &text) {
    return text.contains(QLatin1Char(' ')) ? QLatin1Char('"') + text + QLatin1Char('"') : text;
}

QString checkPath(const QString &field, const QString &path, bool required) {
    if (path.isEmpty()) return required ? tr("%1: is required").arg(field) : QString();
    if (!path.startsWith(QLatin1Char('/'))) return tr("%1: '%2' must be an absolute path").arg(field, path);
    if (path.contains(QLatin1Char('"')) || path.contains(QLatin1Char('\n')) || path.contains(QLatin1Char('\r')))
        return tr("%1: '%2' must not contain double quotes or line breaks").arg(field, path);
    return {};
}

QString containerPrefix(const JobRequest &r) {
    const ContainerSettings &c = r.container;
    QStringList words;
    switch (c.runtime) {
    case ContainerRuntime::None: return {};
    case ContainerRuntime::Apptainer:
    case ContainerRuntime::Singularity:
        words << c.program() << QStringLiteral("exec");
        if (r.gpusPerNode > 0) words << QStringLiteral("--nv");
        words << QStringLiteral("--bind") << r.engine.runDir;
        words << c.options << c.image;
        return shellWords(words) + QLatin1Char(' ');
    case ContainerRuntime::Podman:
    case ContainerRuntime::Docker: {
        words << c.program() << QStringLiteral("run") << QStringLiteral("--rm") << QStringLiteral("--sig-proxy=true");
        bool hasNetwork = false;
        for (const QString &o : c.options)
            hasNetwork =
                hasNetwork || o.startsWith(QLatin1String("--network")) || o.startsWith(QLatin1String("--net="));
        if (!hasNetwork) words << QStringLiteral("--network=host"); // ranks meet over the host's addresses
        words << QStringLiteral("-v") << r.engine.runDir + QLatin1Char(':') + r.engine.runDir;
        if (!r.workDir.isEmpty() && r.workDir != r.engine.runDir)
            words << QStringLiteral("-v") << r.workDir + QLatin1Char(':') + r.workDir << QStringLiteral("-w")
                  << r.workDir;
        if (r.gpusPerNode > 0)
            words << (c.runtime == ContainerRuntime::Podman ? QStringLiteral("--device=nvidia.com/gpu=all")
                                                            : QStringLiteral("--gpus=all"));
        for (const char *name : kRankVariables)
            words << QStringLiteral("--env") << QString::fromLatin1(name);
        if (!r.engine.runDir.isEmpty()) words << QStringLiteral("--env") << QStringLiteral("DIAMOND_READY_FILE");
        for (auto it = r.environment.begin(); it != r.environment.end(); ++it)
            words << QStringLiteral("--env") << it.key();
        words << c.options << c.image;
        return shellWords(words) + QLatin1Char(' ');
    }
    }
    return {};
}

/// The part of a script after the directives: modules, environment, signal forwarding, engine, exit code.
/// Modules, environment and the work folder: what every engine command on the cluster starts with.
QString environmentPreamble(const JobRequest &r) {
    QString s;
    if (!r.modules.isEmpty()) {
        s += QStringLiteral("if ! command -v module >/dev/null 2>&1; then\n"
                            "  for f in /etc/profile.d/lmod.sh /etc/profile.d/modules.sh "
                            "/usr/share/lmod/lmod/init/bash; do [ -f \"$f\" ] && . \"$f\" && break; done\n"
                            "fi\n");
        s += QStringLiteral("module load %1 || { echo \"diamond: module load failed\" >&2; exit 1; }\n")
                 .arg(shellWords(r.modules));
    }
    for (auto it = r.environment.begin(); it != r.environment.end(); ++it)
        s += QStringLiteral("export %1=%2\n").arg(it.key(), shellWord(it.value()));
    if (!r.workDir.isEmpty())
        s += QStringLiteral("cd %1 || { echo \"diamond: cannot enter the work folder\" >&2; exit 1; }\n")
                 .arg(shellWord(r.workDir));
    return s;
}

QString scriptBody(const JobRequest &r, const QString &launch) {
    QString s;
    s += QStringLiteral("\nset -u\n");
    s += environmentPreamble(r);
    if (!r.previousExitFile.isEmpty()) {
        const QString own = r.exitFile.isEmpty()
                                ? QStringLiteral(":")
                                : QStringLiteral("echo \"$diamond_previous\" > %1 && mv -f %1 %2")
                                      .arg(shellWord(r.exitFile + QStringLiteral(".tmp")), shellWord(r.exitFile));
        s += QStringLiteral("\n# A later link of a chain: the run goes on only when the previous link checkpointed on "
                            "request (85),\n# died of a signal (129-255) or was killed before it could write its "
                            "code.\n"
                            "if [ -e %1 ]; then\n"
                            "  diamond_previous=$(head -c 16 %1)\n"
                            "  case \"$diamond_previous\" in\n"
                            "    85 | 129 | 1[3-9][0-9] | 2[0-4][0-9] | 25[0-5]) ;;\n"
                            "    *)\n"
                            "      echo \"diamond: the run already ended (the previous job exited $diamond_previous); "
                            "nothing to do\" >&2\n"
                            "      %2\n"
                            "      exit 0 ;;\n"
                            "  esac\n"
                            "fi\n")
                 .arg(shellWord(r.previousExitFile), own);
    }
    // A signal is held until the engine has its handlers in place (it creates the ready file): sent earlier, it
    // kills srun or an engine that is still starting (exit 138) instead of stopping them with a checkpoint.
    const QString ready =
        r.engine.runDir.isEmpty() ? QString() : r.engine.runDir + QLatin1Char('/') + QLatin1String(kEngineReadyFile);
    s +=
        QStringLiteral("\n# Forward the pre-timeout signal (and scancel/qdel's TERM) to the engine: it checkpoints and "
                       "exits 85.\n"
                       "# The signal waits until the engine is ready for it (DIAMOND_READY_FILE exists).\n"
                       "diamond_ready=%1\n")
            .arg(ready.isEmpty() ? QStringLiteral("\"\"") : shellWord(ready));
    if (!ready.isEmpty())
        s += QStringLiteral("rm -f \"$diamond_ready\"\n"
                            "export DIAMOND_READY_FILE=\"$diamond_ready\"\n");
    s += QStringLiteral(
        "diamond_step=\"\"\n"
        "diamond_pending=\"\"\n"
        "diamond_trapped=\"\"\n"
        "diamond_forward() {\n"
        "  diamond_pending=$1\n"
        "  diamond_trapped=1\n"
        "  echo \"diamond: batch script got SIG$1 at $(date -u +%Y-%m-%dT%H:%M:%SZ); forwarding it to the engine\" "
        ">&2\n"
        "}\n"
        "diamond_deliver() {\n"
        "  [ -n \"$diamond_pending\" ] && [ -n \"$diamond_step\" ] || return 0\n"
        "  [ -z \"$diamond_ready\" ] || [ -e \"$diamond_ready\" ] || return 0\n"
        "  kill -s \"$diamond_pending\" \"$diamond_step\" 2>/dev/null\n"
        "  diamond_pending=\"\"\n"
        "}\n"
        "trap 'diamond_forward USR1' USR1\n"
        "trap 'diamond_forward TERM' TERM\n"
        "trap 'diamond_forward INT' INT\n\n");
    s += launch + QStringLiteral(" &\n");
    s += QStringLiteral("diamond_step=$!\n"
                        "while :; do\n"
                        "  diamond_deliver\n"
                        "  if [ -n \"$diamond_pending\" ]; then\n"
                        "    # Held while the engine starts: look again in a second, unless the step has ended.\n"
                        "    case \" $(jobs -rp) \" in *\" $diamond_step \"*) sleep 1; continue ;; esac\n"
                        "  fi\n"
                        "  diamond_trapped=\"\"\n"
                        "  wait \"$diamond_step\"\n"
                        "  diamond_rc=$?\n"
                        "  [ -n \"$diamond_trapped\" ] && continue # wait was interrupted by a signal\n"
                        "  break\n"
                        "done\n");
    if (!ready.isEmpty()) s += QStringLiteral("rm -f \"$diamond_ready\"\n");
    if (!r.exitFile.isEmpty())
        s += QStringLiteral("echo \"$diamond_rc\" > %1 && mv -f %1 %2\n")
                 .arg(shellWord(r.exitFile + QStringLiteral(".tmp")), shellWord(r.exitFile));
    s += QStringLiteral("echo \"diamond: engine exited with code $diamond_rc\" >&2\n"
                        "exit \"$diamond_rc\"\n");
    return s;
}

QString header(const JobRequest &r) {
    return QStringLiteral("# Generated by Diamond %1 for %2; resubmitted by Diamond with --resume after exit 85.\n")
        .arg(QStringLiteral(DIAMOND_VERSION), r.jobName);
}

} // namespace

void JobRequest::applyProfile(const ClusterProfile &profile) {
    if (account.isEmpty()) account = profile.account;
    if (modules.isEmpty()) modules = profile.modules;
    if (container.runtime == ContainerRuntime::None) container = profile.container;
    for (auto it = profile.environment.begin(); it != profile.environment.end(); ++it)
        if (!environment.contains(it.key())) environment.insert(it.key(), it.value());
    if (engine.enginePath.isEmpty()) engine.enginePath = profile.enginePath;
    gpuDirective = profile.gpuDirective;
}

QString slurmGpuOption(const JobRequest &r) {
    const QString count = r.gpuType.isEmpty() ? QString::number(r.gpusPerNode)
                                              : QStringLiteral("%1:%2").arg(r.gpuType).arg(r.gpusPerNode);
    return r.gpuDirective == QLatin1String("gres") ? QStringLiteral("--gres=gpu:%1").arg(count)
                                                   : QStringLiteral("--gpus-per-node=%1").arg(count);
}

QString fitGpusToDevice(JobRequest &r, const QString &device) {
    if (!device.startsWith(QLatin1String("cuda"))) return {};
    if (r.gpusPerNode == 0) r.gpusPerNode = r.tasksPerNode;
    if (r.tasksPerNode > r.gpusPerNode)
        return tr("tasks_per_node: %1 processes per node on %2 GPU(s) per node: each process of a cuda run takes a "
                  "GPU of its own")
            .arg(r.tasksPerNode)
            .arg(r.gpusPerNode);
    return {};
}

std::optional<JobRequest> jobRequestFromJson(const QJsonObject &json, QString *error) {
    error->clear();
    JobRequest r;
    static const QStringList strings{QStringLiteral("partition"), QStringLiteral("account"), QStringLiteral("qos"),
                                     QStringLiteral("gpu_type"), QStringLiteral("memory")};
    static const QStringList numbers{
        QStringLiteral("nodes"),         QStringLiteral("tasks_per_node"),     QStringLiteral("gpus_per_node"),
        QStringLiteral("cpus_per_task"), QStringLiteral("time_limit_minutes"), QStringLiteral("signal_seconds"),
        QStringLiteral("threads"),       QStringLiteral("chain_jobs")};
    for (auto it = json.begin(); it != json.end(); ++it) {
        const QString field = QStringLiteral("job.") + it.key();
        if (strings.contains(it.key())) {
            if (!it.value().isString()) {
                *error = tr("%1: expected a string").arg(field);
                return std::nullopt;
            }
            const QString v = it.value().toString();
            if (it.key() == QLatin1String("partition")) r.partition = v;
            if (it.key() == QLatin1String("account")) r.account = v;
            if (it.key() == QLatin1String("qos")) r.qos = v;
            if (it.key() == QLatin1String("gpu_type")) r.gpuType = v;
            if (it.key() == QLatin1String("memory")) r.memory = v;
        } else if (numbers.contains(it.key())) {
            const double d = it.value().toDouble(-1);
            if (!it.value().isDouble() || d != double(int(d)) || d < 0 || d > 1e7) {
                *error = tr("%1: expected a whole number from 0").arg(field);
                return std::nullopt;
            }
            const int v = int(d);
            if (it.key() == QLatin1String("nodes")) r.nodes = v;
            if (it.key() == QLatin1String("tasks_per_node")) r.tasksPerNode = v;
            if (it.key() == QLatin1String("gpus_per_node")) r.gpusPerNode = v;
            if (it.key() == QLatin1String("cpus_per_task")) r.cpusPerTask = v;
            if (it.key() == QLatin1String("time_limit_minutes")) r.timeLimitMinutes = v;
            if (it.key() == QLatin1String("signal_seconds")) r.signalSeconds = v;
            if (it.key() == QLatin1String("threads")) r.engine.threads = v;
            if (it.key() == QLatin1String("chain_jobs")) r.chainJobs = v;
        } else if (it.key() == QLatin1String("extra_directives")) {
            for (const QJsonValue &v : it.value().toArray()) {
                if (!v.isString()) {
                    *error = tr("%1: expected a list of strings").arg(field);
                    return std::nullopt;
                }
                r.extraDirectives << v.toString();
            }
        } else {
            *error = tr("%1: unknown field").arg(field);
            return std::nullopt;
        }
    }
    // Check the resource fields with placeholder paths, so that errors name the JSON field.
    JobRequest probe = r;
    probe.jobName = QStringLiteral("check");
    probe.workDir = probe.outputPath = probe.engine.runDir = QStringLiteral("/x");
    probe.engine.specPath = probe.engine.configPath = QStringLiteral("/x/y");
    probe.engine.enginePath = QStringLiteral("e");
    if (const QString problem = validateJobRequest(probe, SchedulerKind::Slurm); !problem.isEmpty()) {
        *error = QStringLiteral("job.") + problem;
        return std::nullopt;
    }
    return r;
}

QJsonObject jobRequestToJson(const JobRequest &r) {
    QJsonObject o{{QStringLiteral("nodes"), r.nodes}, {QStringLiteral("tasks_per_node"), r.tasksPerNode}};
    auto put = [&o](const char *key, const QString &v) {
        if (!v.isEmpty()) o.insert(QLatin1String(key), v);
    };
    put("partition", r.partition);
    put("account", r.account);
    put("qos", r.qos);
    put("gpu_type", r.gpuType);
    put("memory", r.memory);
    auto num = [&o](const char *key, int v) {
        if (v > 0) o.insert(QLatin1String(key), v);
    };
    num("gpus_per_node", r.gpusPerNode);
    num("cpus_per_task", r.cpusPerTask);
    num("time_limit_minutes", r.timeLimitMinutes);
    num("signal_seconds", r.signalSeconds);
    num("threads", r.engine.threads);
    if (r.chainJobs > 1) o.insert(QStringLiteral("chain_jobs"), r.chainJobs);
    if (!r.extraDirectives.isEmpty())
        o.insert(QStringLiteral("extra_directives"), QJsonArray::fromStringList(r.extraDirectives));
    return o;
}

QString shellWord(const QString &text) {
    if (text.startsWith(QLatin1String("~/"))) return QStringLiteral("~/") + shellWord(text.mid(2));
    if (text == QLatin1String("~")) return text;
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=@%+,-]+$"));
    if (safe.match(text).hasMatch()) return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString slurmDuration(int minutes) {
    const int days = minutes / (24 * 60);
    const int hours = (minutes / 60) % 24;
    const QString hms =
        QStringLiteral("%1:%2:00").arg(hours, 2, 10, QLatin1Char('0')).arg(minutes % 60, 2, 10, QLatin1Char('0'));
    return days > 0 ? QStringLiteral("%1-%2").arg(days).arg(hms) : hms;
}

QString pbsDuration(int minutes) {
    return QStringLiteral("%1:%2:00")
        .arg(minutes / 60, 2, 10, QLatin1Char('0'))
        .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

QString validateJobRequest(const JobRequest &r, SchedulerKind scheduler) {
    static const QRegularExpression jobNameRe(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$"));
    static const QRegularExpression wordRe(QStringLiteral("^[A-Za-z0-9._-]+$"));
    static const QRegularExpression memoryRe(QStringLiteral("^[0-9]+[KMGT]?$"));
    static const QRegularExpression arrayRe(
        QStringLiteral("^[0-9]+(-[0-9]+)?(:[0-9]+)?(,[0-9]+(-[0-9]+)?)*(%[0-9]+)?$"));
    static const QRegularExpression jobIdRe(QStringLiteral("^[0-9]+(_[0-9]+)?(\\.[A-Za-z0-9.-]+)?(\\[[0-9]*\\])?$"));
    static const QRegularExpression envRe(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!jobNameRe.match(r.jobName).hasMatch())
        return tr("job_name: '%1' must be 1-64 letters, digits, spaces, '.', '_' or '-'").arg(r.jobName);
    if (!r.partition.isEmpty() && !wordRe.match(r.partition).hasMatch())
        return tr("partition: '%1' is not a partition name").arg(r.partition);
    if (!r.account.isEmpty() && !wordRe.match(r.account).hasMatch())
        return tr("account: '%1' is not an account name").arg(r.account);
    if (!r.qos.isEmpty() && !wordRe.match(r.qos).hasMatch()) return tr("qos: '%1' is not a QOS name").arg(r.qos);
    if (r.nodes < 1 || r.nodes > 100000) return tr("nodes: %1 is not from 1 to 100000").arg(r.nodes);
    if (r.tasksPerNode < 1 || r.tasksPerNode > 1024)
        return tr("tasks_per_node: %1 is not from 1 to 1024").arg(r.tasksPerNode);
    if (r.gpusPerNode < 0 || r.gpusPerNode > 1024)
        return tr("gpus_per_node: %1 is not from 0 to 1024").arg(r.gpusPerNode);
    if (!r.gpuType.isEmpty() && !wordRe.match(r.gpuType).hasMatch())
        return tr("gpu_type: '%1' is not a GPU type").arg(r.gpuType);
    if (r.cpusPerTask < 0 || r.cpusPerTask > 4096)
        return tr("cpus_per_task: %1 is not from 0 to 4096").arg(r.cpusPerTask);
    if (!r.memory.isEmpty() && !memoryRe.match(r.memory).hasMatch())
        return tr("memory: '%1' is not a size like 4000M or 16G").arg(r.memory);
    if (r.timeLimitMinutes < 0) return tr("time_limit: must not be negative");
    if (r.chainJobs < 1 || r.chainJobs > kMaxChainJobs)
        return tr("chain_jobs: %1 is not from 1 to %2").arg(r.chainJobs).arg(kMaxChainJobs);
    if (r.signalSeconds < 0 || r.signalSeconds > 65535)
        return tr("signal_seconds: %1 is not from 0 to 65535").arg(r.signalSeconds);
    if (r.signalSeconds > 0 && r.timeLimitMinutes > 0 && r.signalSeconds >= r.timeLimitMinutes * 60)
        return tr("signal_seconds: %1 s is not shorter than the time limit (%2 min)")
            .arg(r.signalSeconds)
            .arg(r.timeLimitMinutes);
    // A training engine needs its spec and config; calibration (a job step) only its folder.
    const bool trains = r.engine.mode != EngineCommand::Mode::Calibrate;
    for (const auto &[field, path, required] :
         {std::tuple{"work_dir", r.workDir, true}, std::tuple{"output", r.outputPath, true},
          std::tuple{"error", r.errorPath, false}, std::tuple{"exit_file", r.exitFile, false},
          std::tuple{"previous_exit_file", r.previousExitFile, false},
          std::tuple{"engine.run_dir", r.engine.runDir, true}, std::tuple{"engine.spec", r.engine.specPath, trains},
          std::tuple{"engine.config", r.engine.configPath, trains}})
        if (const QString problem = checkPath(QLatin1String(field), path, required); !problem.isEmpty()) return problem;
    if (r.engine.enginePath.isEmpty()) return tr("engine.path: is required");
    if (!r.array.isEmpty() && !arrayRe.match(r.array).hasMatch())
        return tr("array: '%1' is not an index list like 0-9 or 1,3,5%2").arg(r.array);
    for (int i = 0; i < r.afterAny.size(); ++i)
        if (!jobIdRe.match(r.afterAny[i]).hasMatch())
            return tr("dependency[%1]: '%2' is not a job id").arg(i).arg(r.afterAny[i]);
    for (auto it = r.environment.begin(); it != r.environment.end(); ++it)
        if (!envRe.match(it.key()).hasMatch()) return tr("environment.%1: is not a valid variable name").arg(it.key());
    for (int i = 0; i < r.extraDirectives.size(); ++i)
        if (r.extraDirectives[i].contains(QLatin1Char('\n')) || !r.extraDirectives[i].startsWith(QLatin1Char('-')))
            return tr("extra_directives[%1]: '%2' must be one option starting with '-'")
                .arg(i)
                .arg(r.extraDirectives[i]);
    if (r.container.runtime != ContainerRuntime::None && r.container.image.isEmpty())
        return tr("container.image: is required with a container runtime");
    if (scheduler == SchedulerKind::Pbs) {
        if (r.nodes != 1) return tr("nodes: PBS jobs run on one node (the engine's --nproc starts the ranks)");
        if (r.signalSeconds > 0)
            return tr("signal_seconds: PBS has no pre-timeout signal; the engine checkpoints on the walltime TERM");
    }
    return {};
}

QString engineCommandLine(const JobRequest &r, int nproc) {
    EngineCommand e = r.engine;
    e.mode = EngineCommand::Mode::Train;
    e.nproc = nproc;
    return containerPrefix(r) + shellWords(e.commandLine());
}

QString renderSlurmScript(const JobRequest &r, QString *error) {
    *error = validateJobRequest(r, SchedulerKind::Slurm);
    if (!error->isEmpty()) return {};
    QStringList d;
    d << QStringLiteral("--job-name=%1").arg(directiveValue(r.jobName));
    if (!r.partition.isEmpty()) d << QStringLiteral("--partition=%1").arg(r.partition);
    if (!r.account.isEmpty()) d << QStringLiteral("--account=%1").arg(r.account);
    if (!r.qos.isEmpty()) d << QStringLiteral("--qos=%1").arg(r.qos);
    d << QStringLiteral("--nodes=%1").arg(r.nodes) << QStringLiteral("--ntasks-per-node=%1").arg(r.tasksPerNode);
    if (r.gpusPerNode > 0) d << slurmGpuOption(r);
    if (r.cpusPerTask > 0) d << QStringLiteral("--cpus-per-task=%1").arg(r.cpusPerTask);
    if (!r.memory.isEmpty()) d << QStringLiteral("--mem=%1").arg(r.memory);
    if (r.timeLimitMinutes > 0) d << QStringLiteral("--time=%1").arg(slurmDuration(r.timeLimitMinutes));
    if (r.signalSeconds > 0) d << QStringLiteral("--signal=B:USR1@%1").arg(r.signalSeconds);
    d << QStringLiteral("--chdir=%1").arg(directiveValue(r.workDir));
    d << QStringLiteral("--output=%1").arg(directiveValue(r.outputPath));
    if (!r.errorPath.isEmpty()) d << QStringLiteral("--error=%1").arg(directiveValue(r.errorPath));
    d << QStringLiteral("--open-mode=append");
    if (!r.array.isEmpty()) d << QStringLiteral("--array=%1").arg(r.array);
    if (!r.afterAny.isEmpty()) d << QStringLiteral("--dependency=afterany:%1").arg(r.afterAny.join(QLatin1Char(':')));
    d << r.extraDirectives;

    QString s = QStringLiteral("#!/bin/bash\n");
    for (const QString &line : d)
        s += QStringLiteral("#SBATCH %1\n").arg(line);
    s += header(r);
    const int world = worldSize(r);
    QString launch = QStringLiteral("srun --kill-on-bad-exit=1 --nodes=%1 --ntasks=%2 --ntasks-per-node=%3")
                         .arg(r.nodes)
                         .arg(world)
                         .arg(r.tasksPerNode);
    if (r.cpusPerTask > 0) launch += QStringLiteral(" --cpus-per-task=%1").arg(r.cpusPerTask);
    launch += QLatin1Char(' ') + engineCommandLine(r);
    return s + scriptBody(r, launch);
}

QString renderSlurmStepCommand(const JobRequest &r, QString *error) {
    JobRequest checked = r; // a job step writes to the command's output, not to a file
    if (checked.outputPath.isEmpty()) checked.outputPath = r.workDir + QStringLiteral("/step.out");
    *error = validateJobRequest(checked, SchedulerKind::Slurm);
    if (error->isEmpty() && (r.nodes != 1 || r.tasksPerNode != 1))
        *error = tr("nodes, tasks_per_node: a job step command runs one task on one node");
    if (!error->isEmpty()) return {};
    QStringList srun{QStringLiteral("srun"), QStringLiteral("--job-name=%1").arg(shellWord(r.jobName)),
                     QStringLiteral("--nodes=1"), QStringLiteral("--ntasks=1")};
    if (!r.partition.isEmpty()) srun << QStringLiteral("--partition=%1").arg(shellWord(r.partition));
    if (!r.account.isEmpty()) srun << QStringLiteral("--account=%1").arg(shellWord(r.account));
    if (!r.qos.isEmpty()) srun << QStringLiteral("--qos=%1").arg(shellWord(r.qos));
    if (r.cpusPerTask > 0) srun << QStringLiteral("--cpus-per-task=%1").arg(r.cpusPerTask);
    if (r.gpusPerNode > 0) srun << slurmGpuOption(r);
    if (!r.memory.isEmpty()) srun << QStringLiteral("--mem=%1").arg(shellWord(r.memory));
    if (r.timeLimitMinutes > 0) srun << QStringLiteral("--time=%1").arg(slurmDuration(r.timeLimitMinutes));
    QString s = QStringLiteral("set -u\n");
    if (!r.workDir.isEmpty()) s += QStringLiteral("mkdir -p %1 || exit 1\n").arg(shellWord(r.workDir));
    s += environmentPreamble(r);
    s += srun.join(QLatin1Char(' ')) + QLatin1Char(' ') + containerPrefix(r) + shellWords(r.engine.commandLine()) +
         QLatin1Char('\n');
    return s;
}

QString renderPbsScript(const JobRequest &r, QString *error) {
    *error = validateJobRequest(r, SchedulerKind::Pbs);
    if (!error->isEmpty()) return {};
    QStringList d;
    d << QStringLiteral("-N %1").arg(QString(r.jobName).replace(QLatin1Char(' '), QLatin1Char('_')).left(15));
    if (!r.partition.isEmpty()) d << QStringLiteral("-q %1").arg(r.partition);
    if (!r.account.isEmpty()) d << QStringLiteral("-A %1").arg(r.account);
    const int cpus = r.tasksPerNode * std::max(1, r.cpusPerTask);
    QString select = QStringLiteral("select=1:ncpus=%1:mpiprocs=%2").arg(cpus).arg(r.tasksPerNode);
    if (r.gpusPerNode > 0) select += QStringLiteral(":ngpus=%1").arg(r.gpusPerNode);
    if (!r.gpuType.isEmpty()) select += QStringLiteral(":gpu_type=%1").arg(r.gpuType);
    if (!r.memory.isEmpty()) select += QStringLiteral(":mem=%1b").arg(r.memory.toLower());
    d << QStringLiteral("-l %1").arg(select);
    if (r.timeLimitMinutes > 0) d << QStringLiteral("-l walltime=%1").arg(pbsDuration(r.timeLimitMinutes));
    d << QStringLiteral("-o %1").arg(directiveValue(r.outputPath));
    if (r.errorPath.isEmpty())
        d << QStringLiteral("-j oe");
    else
        d << QStringLiteral("-e %1").arg(directiveValue(r.errorPath));
    if (!r.array.isEmpty()) d << QStringLiteral("-J %1").arg(r.array);
    if (!r.afterAny.isEmpty()) d << QStringLiteral("-W depend=afterany:%1").arg(r.afterAny.join(QLatin1Char(':')));
    d << r.extraDirectives;
    QString s = QStringLiteral("#!/bin/bash\n");
    for (const QString &line : d)
        s += QStringLiteral("#PBS %1\n").arg(line);
    s += header(r);
    return s + scriptBody(r, engineCommandLine(r, r.tasksPerNode));
}

} // namespace diamond::remote
