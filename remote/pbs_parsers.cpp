#include "remote/pbs_parsers.h"

#include "remote/slurm_parsers.h"

#include <QRegularExpression>

namespace diamond::remote::pbs {

std::optional<QString> parseQsubOutput(const QByteArray &stdoutText) {
    static const QRegularExpression re(QStringLiteral("^(\\d+(?:\\[\\d*\\])?(?:\\.[A-Za-z0-9._-]+)?)$"));
    for (const QString &line : QString::fromUtf8(stdoutText).split(QLatin1Char('\n')))
        if (const auto m = re.match(line.trimmed()); m.hasMatch()) return m.captured(1);
    return std::nullopt;
}

QList<Record> parseQstatFull(const QByteArray &text) {
    static const QRegularExpression head(QStringLiteral("^(?:Job Id|Queue|Server):\\s*(\\S+)"));
    static const QRegularExpression attr(QStringLiteral("^\\s+([A-Za-z_][\\w.]*) = ?(.*)$"));
    QList<Record> out;
    QString lastKey;
    for (QString line : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
        if (line.endsWith(QLatin1Char('\r'))) line.chop(1);
        if (const auto m = head.match(line); m.hasMatch()) {
            out << Record{m.captured(1), {}};
            lastKey.clear();
            continue;
        }
        if (out.isEmpty() || line.trimmed().isEmpty()) continue;
        if (line.startsWith(QLatin1Char('\t')) && !lastKey.isEmpty()) {
            out.last().attributes[lastKey] += line.mid(1);
            continue;
        }
        if (const auto m = attr.match(line); m.hasMatch()) {
            lastKey = m.captured(1);
            out.last().attributes.insert(lastKey, m.captured(2));
        }
    }
    return out;
}

JobPhase phaseForState(const QString &state) {
    const QString s = state.trimmed().toUpper();
    if (s == QLatin1String("Q") || s == QLatin1String("H") || s == QLatin1String("W") || s == QLatin1String("T") ||
        s == QLatin1String("M"))
        return JobPhase::Pending;
    if (s == QLatin1String("R") || s == QLatin1String("E") || s == QLatin1String("B")) return JobPhase::Running;
    if (s == QLatin1String("S") || s == QLatin1String("U")) return JobPhase::Suspended;
    if (s == QLatin1String("F") || s == QLatin1String("X") || s == QLatin1String("C"))
        return JobPhase::Completed; // refined by the exit status
    return JobPhase::Unknown;
}

qint64 parseWalltime(const QString &text) {
    static const QRegularExpression re(QStringLiteral("^(\\d+):(\\d+):(\\d+)$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) return -1;
    return m.captured(1).toLongLong() * 3600 + m.captured(2).toLongLong() * 60 + m.captured(3).toLongLong();
}

JobStatus jobStatusFromRecord(const Record &r) {
    JobStatus s;
    s.jobId = r.id;
    const auto &a = r.attributes;
    s.state = a.value(QStringLiteral("job_state"));
    s.phase = phaseForState(s.state);
    s.reason = a.value(QStringLiteral("comment"));
    s.runSeconds = parseWalltime(a.value(QStringLiteral("resources_used.walltime")));
    s.timeLimitSeconds = parseWalltime(a.value(QStringLiteral("Resource_List.walltime")));
    s.nodes = a.value(QStringLiteral("exec_host")).section(QLatin1Char('/'), 0, 0);
    if (s.phase == JobPhase::Completed) {
        QString exit = a.value(QStringLiteral("Exit_status"), a.value(QStringLiteral("exit_status")));
        bool ok = false;
        const int code = exit.toInt(&ok);
        if (!ok) {
            s.phase = JobPhase::Unknown; // finished, but no exit status recorded
        } else if (code >= 256) {
            s.signal = code - 256;
            s.exitCode = 128 + s.signal;
            s.phase = JobPhase::Failed;
        } else if (code < 0) {
            s.exitCode = code;
            s.phase = JobPhase::NodeFailed; // negative: PBS could not run the job (JOB_EXEC_* codes)
        } else {
            s.exitCode = code;
            s.phase = code == 0 ? JobPhase::Completed : JobPhase::Failed;
        }
        static const QRegularExpression walltime(QStringLiteral("walltime .* exceeded limit"));
        if (walltime.match(s.reason).hasMatch()) s.phase = JobPhase::TimedOut;
    }
    return s;
}

QList<PartitionInfo> parseQueues(const QByteArray &text) {
    QList<PartitionInfo> out;
    for (const Record &r : parseQstatFull(text)) {
        const auto &a = r.attributes;
        if (a.value(QStringLiteral("queue_type")).compare(QLatin1String("Execution"), Qt::CaseInsensitive) != 0 &&
            a.contains(QStringLiteral("queue_type")))
            continue; // routing queues forward jobs elsewhere
        PartitionInfo p;
        p.name = r.id;
        const qint64 wall = parseWalltime(a.value(QStringLiteral("resources_max.walltime")));
        p.maxWalltimeMinutes = wall > 0 ? int(wall / 60) : 0;
        p.gpusPerNode = a.value(QStringLiteral("resources_max.ngpus")).toInt();
        p.cpusPerNode = a.value(QStringLiteral("resources_max.ncpus")).toInt();
        p.memoryMb = slurm::parseMemoryMb(a.value(QStringLiteral("resources_max.mem")).remove(QLatin1Char('b')));
        p.nodes = a.value(QStringLiteral("resources_max.nodect")).toInt();
        out << p;
    }
    return out;
}

bool isUnknownJobError(const QByteArray &stderrText) {
    return stderrText.contains("Unknown Job Id") || stderrText.contains("Job has finished") ||
           stderrText.contains("Unknown queue destination");
}

} // namespace diamond::remote::pbs
