// Parsers for the text Slurm's commands print (tested against outputs recorded from a real Slurm 22.05 in
// tests/remote/data/slurm/). Pure functions, no I/O.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/scheduler.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace diamond::remote::slurm {

/// Job id from `sbatch` output: "--parsable" form ("123" or "123;cluster") or "Submitted batch job 123".
std::optional<QString> parseSbatchOutput(const QByteArray &stdoutText);

/// Seconds of a Slurm duration: "[D-]HH:MM:SS", "MM:SS", "MM", "D-HH", "D-HH:MM"; -1 for UNLIMITED,
/// "Partition_Limit", "NONE", "N/A", "INVALID" or unparsable text.
qint64 parseDuration(const QString &text);

/// The wait until the start `sbatch --test-only` announces ("sbatch: Job 12 to start at 2026-12-06T16:50:01 using
/// 1 processors on nodes n1 in partition debug") from the cluster's clock (`date +%Y-%m-%dT%H:%M:%S` printed after
/// it, the last line): seconds, at least 0; nullopt when either time is missing.
std::optional<qint64> parseTestOnlyWait(const QByteArray &output);

/// One `Key=Value Key=Value ...` record (scontrol). A value may contain spaces ("JobName=my job"): a word
/// without "Key=" continues the previous value.
QMap<QString, QString> parseKeyValues(const QString &text);
/// The records of `scontrol show job|partition|node` (multi-line records separated by blank lines, or one
/// line each with -o).
QList<QMap<QString, QString>> parseScontrolRecords(const QByteArray &text);

/// Phase of a Slurm job state word (JobState, squeue %T, sacct State such as "CANCELLED by 1000").
JobPhase phaseForState(const QString &state);
/// A job's status from one `scontrol show job` record.
JobStatus jobStatusFromScontrol(const QMap<QString, QString> &record);

/// `squeue -h -o '%i|%T|%r|%M|%l|%D|%R'` lines (see kSqueueFormat).
QList<JobStatus> parseSqueue(const QByteArray &text);
inline constexpr const char *kSqueueFormat = "%i|%T|%r|%M|%l|%D|%R";

/// `sacct -X -P --format=JobID,State,ExitCode,Elapsed,Timelimit,Reason` output (with its header line; any
/// column order). Step rows ("123.batch") are skipped.
QList<JobStatus> parseSacct(const QByteArray &text);
inline constexpr const char *kSacctFormat = "JobID,State,ExitCode,Elapsed,Timelimit,Reason";

/// GPUs in a GRES/TRES string: "gpu:a100:4(S:0-1)", "gpu:2", "gres/gpu=4", "gres/gpu:v100=2"; {type, count}.
std::pair<QString, int> parseGpuGres(const QString &gres);
/// Memory in MB from "24105", "24105M", "512G", "1T".
qint64 parseMemoryMb(const QString &text);

/// Partitions from `sinfo -h -o '%P|%a|%l|%D|%c|%m|%G|%T'` (see kSinfoFormat); the default partition ends in '*'.
QList<PartitionInfo> parseSinfo(const QByteArray &text);
/// Partition loads from `sinfo -h -o '%P|%F|%C'` (kSinfoLoadFormat): nodes "allocated/idle/other/total" and CPUs
/// "allocated/idle/other/total"; lines of one partition are summed; malformed lines are skipped.
inline constexpr const char *kSinfoLoadFormat = "%P|%F|%C";
QList<PartitionLoad> parseSinfoLoad(const QByteArray &text);
/// The user's lines of `sshare -h -P -U -o Account,User,EffectvUsage,FairShare` (kSshareFormat).
inline constexpr const char *kSshareFormat = "Account,User,EffectvUsage,FairShare";
QList<FairShare> parseSshare(const QByteArray &text);
inline constexpr const char *kSinfoFormat = "%P|%a|%l|%D|%c|%m|%G|%T";
/// Partitions from `scontrol show partition` (MaxTime, Default, TotalNodes/TotalCPUs, TRES).
QList<PartitionInfo> parseScontrolPartitions(const QByteArray &text);
/// `base` with the fields `extra` knows and `base` does not (matched by name); partitions only in `extra` are
/// appended.
QList<PartitionInfo> mergePartitions(QList<PartitionInfo> base, const QList<PartitionInfo> &extra);

} // namespace diamond::remote::slurm
