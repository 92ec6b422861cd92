// Parsers for PBS Pro / Torque command output (qsub, qstat -f [-x], qstat -Qf, qdel). No PBS runs here: the
// unit tests use samples in tests/remote/data/pbs/ written after the formats documented in the PBS Professional
// Reference Guide and Torque's qstat(1) (see the header comment in each sample). Pure functions, no I/O.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/scheduler.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace diamond::remote::pbs {

/// Job id printed by qsub ("1234.server", "1234[].server" for arrays).
std::optional<QString> parseQsubOutput(const QByteArray &stdoutText);

/// One record of `qstat -f` / `qstat -Qf`: the id from its "Job Id: X" / "Queue: X" line and its attributes.
/// Continuation lines (starting with a tab) are joined to the previous value without a separator, as
/// qstat wraps long values at a fixed width.
struct Record {
    QString id;
    QMap<QString, QString> attributes;
};
QList<Record> parseQstatFull(const QByteArray &text);

/// Phase of a job_state letter (PBS Pro: Q H W T R E B S U F X M; Torque: C completed).
JobPhase phaseForState(const QString &state);
/// A job's status from a `qstat -f -x` record: Exit_status (PBS Pro) / exit_status (Torque); an exit status
/// of 256 + N means "killed by signal N"; a walltime kill ("walltime ... exceeded limit") is TimedOut.
JobStatus jobStatusFromRecord(const Record &record);
/// "HH:MM:SS" (hours may exceed 24) in seconds; -1 when unparsable.
qint64 parseWalltime(const QString &text);
/// Queues from `qstat -Qf` (resources_max.walltime, resources_max.ngpus, resources_available.ncpus, enabled).
QList<PartitionInfo> parseQueues(const QByteArray &text);
/// True when qstat/qdel stderr says the job id is unknown ("Unknown Job Id", "Job has finished").
bool isUnknownJobError(const QByteArray &stderrText);

} // namespace diamond::remote::pbs
