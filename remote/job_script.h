// Batch scripts for one engine attempt of a run: sbatch (Slurm) and qsub (PBS Pro) text rendered from a
// JobRequest. docs/clusters.md describes the design; in short:
//
// - Slurm: one engine rank per task, started by `srun` inside the batch script; the engine takes its
//   rendezvous from SLURM_PROCID/SLURM_NTASKS/SLURM_LOCALID/SLURM_JOB_NODELIST (docs/distributed.md).
//   PBS: one node; several ranks through the engine's own `--nproc` launcher.
// - The batch shell traps USR1, TERM and INT and forwards them to the engine step (srun, or the container
//   runtime in front of the engine), so a pre-timeout signal (`--signal=B:USR1@T`) reaches the engine even when
//   it runs in a container: nothing inside the container has to requeue (see pyxis issue 129). A signal that
//   comes before the engine can take it (kEngineReadyFile) is held until it can.
// - The script exits with the engine's exit code (85 = checkpointed on request: submit a continuation with
//   --resume) and also writes it to the request's exit file, so the code survives schedulers without accounting.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/engine_command.h"

#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace diamond::remote {

/// The file (in the engine's run folder) that the engine creates, as DIAMOND_READY_FILE, once every rank can take
/// a stop signal; the batch script holds a signal until then. The script removes it before and after the engine.
inline constexpr char kEngineReadyFile[] = ".diamond-engine-ready";

/// The longest chain of jobs submitted up front for one run.
inline constexpr int kMaxChainJobs = 100;

struct JobRequest {
    QString jobName;   ///< letters, digits, spaces, ".", "_", "-"
    QString partition; ///< Slurm partition / PBS queue; empty = the cluster's default
    QString account;
    QString qos;
    int nodes = 1;
    int tasksPerNode = 1; ///< engine ranks per node
    int gpusPerNode = 0;
    QString gpuType;                                        ///< e.g. "a100" -> --gpus-per-node=a100:4
    QString gpuDirective = QStringLiteral("gpus-per-node"); ///< or "gres" (ClusterProfile::gpuDirective)
    int cpusPerTask = 0;                                    ///< 0 = scheduler default
    QString memory;           ///< per node, e.g. "16G", "4000M"; empty = scheduler default
    int timeLimitMinutes = 0; ///< 0 = partition default
    int signalSeconds = 0;    ///< pre-timeout USR1 to the batch shell this many seconds before the limit; 0 = none
    QString workDir;          ///< absolute; the batch script runs there
    QString outputPath;       ///< scheduler stdout file (absolute; Slurm patterns like %j allowed)
    QString errorPath;        ///< scheduler stderr file; empty = with stdout
    QString array;            ///< Slurm --array / PBS -J spec, e.g. "0-9%2"; empty = no array
    QStringList afterAny;     ///< job ids this job waits for (afterany: runs whatever their outcome)
    QString exitFile;         ///< absolute path; the script writes the engine's exit code there; empty = none
    /// A later link of a chain: the previous link's exit file. When it holds 85 (checkpointed on the signal), a
    /// code from 129 to 255 (the engine died of a signal) or is missing (the job was killed before writing it),
    /// the engine resumes from the newest checkpoint; any other code means the run ended (finished, failed,
    /// refused its input): this job runs no engine, writes that code to exitFile and exits 0. Empty = not a
    /// later link. chainLinkContinues() is the same rule.
    QString previousExitFile;
    int chainJobs = 1;   ///< jobs the ClusterExecutor submits up front as one chain (afterany; 1 = no chain)
    QStringList modules; ///< `module load` before the engine
    ContainerSettings container;
    QMap<QString, QString> environment; ///< exported before the engine starts
    QStringList extraDirectives;        ///< appended verbatim after the generated directives ("--constraint=x")
    EngineCommand engine;               ///< the engine command of one attempt (paths on the cluster)

    /// Fills scheduler-independent fields from a profile: account, modules, container, environment, engine path,
    /// GPU directive.
    void applyProfile(const ClusterProfile &profile);
};

/// Matches the GPUs asked for to the engine's device (the run config's "device", or --device): a "cuda" run that asks
/// for none gets one per process (gpus_per_node = tasks_per_node); one with fewer GPUs than processes per node is
/// refused (every process takes the GPU of its local rank). A CPU run is left as it is. Returns the problem, or "".
QString fitGpusToDevice(JobRequest &request, const QString &device);

/// The request's GPUs as a Slurm option: "--gpus-per-node=[type:]N", or "--gres=gpu[:type]:N" (gpuDirective "gres").
QString slurmGpuOption(const JobRequest &request);

/// The resource fields of a JobRequest from JSON (a run's execution["job"]): partition, account, qos, nodes,
/// tasks_per_node, gpus_per_node, gpu_type, cpus_per_task, memory, time_limit_minutes, signal_seconds, threads,
/// chain_jobs, extra_directives. Unknown keys and wrong types are refused with the field's name ("job.nodes: ...").
std::optional<JobRequest> jobRequestFromJson(const QJsonObject &json, QString *error);
QJsonObject jobRequestToJson(const JobRequest &request);

/// Whether the next link of a chain resumes after a link whose exit file held `code` (nullopt: no exit file).
inline bool chainLinkContinues(std::optional<int> code) {
    return !code || *code == 85 || (*code > 128 && *code <= 255);
}

/// Total engine ranks (nodes x tasksPerNode).
inline int worldSize(const JobRequest &r) { return r.nodes * r.tasksPerNode; }

/// Single-quotes `text` for /bin/sh. A leading "~/" stays unquoted so that the shell expands it.
QString shellWord(const QString &text);
/// shellWord() of each, joined by spaces.
QString shellWords(const QStringList &words);
/// Minutes as Slurm's "[D-]HH:MM:SS".
QString slurmDuration(int minutes);
/// Minutes as PBS' "HH:MM:SS" (hours may exceed 24).
QString pbsDuration(int minutes);

/// Empty when the request can be rendered for `scheduler`, else the first problem naming the field
/// (e.g. "nodes: must be at least 1").
QString validateJobRequest(const JobRequest &request, SchedulerKind scheduler);

/// The command line (already shell-quoted) that starts one engine rank: container wrapper + engine + arguments.
/// `nproc` > 1 adds --nproc (PBS; Slurm starts ranks with srun).
QString engineCommandLine(const JobRequest &request, int nproc = 1);

/// An sbatch script; empty with *error (naming the field) when the request is invalid.
QString renderSlurmScript(const JobRequest &request, QString *error);
/// A shell command for a login node that runs `request.engine` as it is (any mode, e.g. calibrate) as one blocking
/// `srun` job step: one task on one node, with the request's partition, account, qos, cpus_per_task, memory and
/// time limit, after its modules, environment and work folder (created); the engine's output is the command's.
/// Empty with *error (naming the field) when the request is invalid or asks for more than one task.
QString renderSlurmStepCommand(const JobRequest &request, QString *error);
/// A qsub script for PBS Pro; empty with *error when invalid (PBS jobs use one node).
QString renderPbsScript(const JobRequest &request, QString *error);

} // namespace diamond::remote
