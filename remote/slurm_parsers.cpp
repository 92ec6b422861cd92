#include "remote/slurm_parsers.h"

#include <QDateTime>
#include <QRegularExpression>

#include <algorithm>

namespace diamond::remote::slurm {

namespace {

QStringList lines(const QByteArray &text) { return QString::fromUtf8(text).split(QLatin1Char('\n')); }

bool known(const QString &value) {
    return !value.isEmpty() && value != QLatin1String("(null)") && value != QLatin1String("N/A") &&
           value != QLatin1String("None") && value != QLatin1String("Unknown");
}

/// "85:0" -> {85, 0}.
std::pair<std::optional<int>, int> parseExitCode(const QString &text) {
    const QStringList parts = text.split(QLatin1Char(':'));
    bool ok = false;
    const int code = parts.value(0).toInt(&ok);
    if (!ok) return {std::nullopt, 0};
    return {code, parts.value(1).toInt()};
}

} // namespace

std::optional<QString> parseSbatchOutput(const QByteArray &stdoutText) {
    static const QRegularExpression plain(QStringLiteral("Submitted batch job (\\d+)"));
    static const QRegularExpression parsable(QStringLiteral("^(\\d+)(;\\S+)?$"));
    const QString text = QString::fromUtf8(stdoutText);
    if (const auto m = plain.match(text); m.hasMatch()) return m.captured(1);
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (const auto m = parsable.match(line.trimmed()); m.hasMatch()) return m.captured(1);
    }
    return std::nullopt;
}

std::optional<qint64> parseTestOnlyWait(const QByteArray &output) {
    static const QRegularExpression start(QStringLiteral("to start at (\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2})"));
    static const QRegularExpression clock(QStringLiteral("^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2})$"));
    const QString text = QString::fromUtf8(output.left(64 * 1024));
    const auto s = start.match(text);
    if (!s.hasMatch()) return std::nullopt;
    const QStringList lines = text.trimmed().split(QLatin1Char('\n'));
    const auto c = clock.match(lines.last().trimmed());
    if (!c.hasMatch()) return std::nullopt;
    // Both in the cluster's local time: read as UTC, their difference is right (except across a DST change).
    QDateTime startAt = QDateTime::fromString(s.captured(1), Qt::ISODate);
    QDateTime now = QDateTime::fromString(c.captured(1), Qt::ISODate);
    if (!startAt.isValid() || !now.isValid()) return std::nullopt;
    startAt.setTimeSpec(Qt::UTC);
    now.setTimeSpec(Qt::UTC);
    return std::max<qint64>(0, now.secsTo(startAt));
}

qint64 parseDuration(const QString &input) {
    const QString text = input.trimmed();
    static const QRegularExpression re(QStringLiteral("^(?:(\\d+)-)?(\\d+)(?::(\\d+))?(?::(\\d+))?$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) return -1;
    const qint64 days = m.captured(1).toLongLong();
    const QString a = m.captured(2), b = m.captured(3), c = m.captured(4);
    qint64 h = 0, min = 0, s = 0;
    if (m.capturedLength(1) > 0) { // D-HH, D-HH:MM, D-HH:MM:SS
        h = a.toLongLong();
        min = b.toLongLong();
        s = c.toLongLong();
    } else if (!c.isEmpty()) { // HH:MM:SS
        h = a.toLongLong();
        min = b.toLongLong();
        s = c.toLongLong();
    } else if (!b.isEmpty()) { // MM:SS
        min = a.toLongLong();
        s = b.toLongLong();
    } else { // MM
        min = a.toLongLong();
    }
    return ((days * 24 + h) * 60 + min) * 60 + s;
}

QMap<QString, QString> parseKeyValues(const QString &text) {
    static const QRegularExpression keyRe(QStringLiteral("^([A-Za-z][A-Za-z0-9_/:.]*)=(.*)$"));
    QMap<QString, QString> out;
    QString lastKey;
    const QStringList words = text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        const auto m = keyRe.match(word);
        if (m.hasMatch()) {
            lastKey = m.captured(1);
            out.insert(lastKey, m.captured(2));
        } else if (!lastKey.isEmpty()) {
            out[lastKey] += QLatin1Char(' ') + word;
        }
    }
    return out;
}

QList<QMap<QString, QString>> parseScontrolRecords(const QByteArray &text) {
    QList<QMap<QString, QString>> records;
    QString current;
    auto flush = [&] {
        if (!current.trimmed().isEmpty()) records << parseKeyValues(current);
        current.clear();
    };
    for (const QString &line : lines(text)) {
        if (line.trimmed().isEmpty()) {
            flush();
            continue;
        }
        // A line that does not start with whitespace starts a new record (one-line -o output, or the first
        // line of a multi-line record).
        if (!line.at(0).isSpace()) flush();
        current += QLatin1Char(' ') + line;
    }
    flush();
    return records;
}

JobPhase phaseForState(const QString &input) {
    const QString state = input.section(QLatin1Char(' '), 0, 0).toUpper().remove(QLatin1Char('+'));
    if (state.isEmpty()) return JobPhase::Unknown;
    static const QStringList pending{
        QStringLiteral("PENDING"),     QStringLiteral("PD"),           QStringLiteral("REQUEUED"),
        QStringLiteral("REQUEUE_FED"), QStringLiteral("REQUEUE_HOLD"), QStringLiteral("RESV_DEL_HOLD"),
        QStringLiteral("CONFIGURING"), QStringLiteral("CF"),           QStringLiteral("RESIZING")};
    static const QStringList running{
        QStringLiteral("RUNNING"),   QStringLiteral("R"),         QStringLiteral("COMPLETING"), QStringLiteral("CG"),
        QStringLiteral("STAGE_OUT"), QStringLiteral("SIGNALING"), QStringLiteral("SO")};
    static const QStringList nodeFailed{
        QStringLiteral("NODE_FAIL"), QStringLiteral("NF"), QStringLiteral("OUT_OF_MEMORY"), QStringLiteral("OOM"),
        QStringLiteral("BOOT_FAIL"), QStringLiteral("BF"), QStringLiteral("PREEMPTED"),     QStringLiteral("PR"),
        QStringLiteral("DEADLINE"),  QStringLiteral("DL"), QStringLiteral("REVOKED"),       QStringLiteral("RV")};
    if (pending.contains(state)) return JobPhase::Pending;
    if (running.contains(state)) return JobPhase::Running;
    if (state == QLatin1String("SUSPENDED") || state == QLatin1String("S") || state == QLatin1String("STOPPED") ||
        state == QLatin1String("ST"))
        return JobPhase::Suspended;
    if (state == QLatin1String("COMPLETED") || state == QLatin1String("CD")) return JobPhase::Completed;
    if (state == QLatin1String("FAILED") || state == QLatin1String("F")) return JobPhase::Failed;
    if (state == QLatin1String("CANCELLED") || state == QLatin1String("CA")) return JobPhase::Cancelled;
    if (state == QLatin1String("TIMEOUT") || state == QLatin1String("TO")) return JobPhase::TimedOut;
    if (nodeFailed.contains(state)) return JobPhase::NodeFailed;
    return JobPhase::Unknown;
}

JobStatus jobStatusFromScontrol(const QMap<QString, QString> &r) {
    JobStatus s;
    s.jobId = r.value(QStringLiteral("JobId"));
    if (const QString task = r.value(QStringLiteral("ArrayTaskId")); known(task) && !task.contains(QLatin1Char('-')))
        s.jobId = r.value(QStringLiteral("ArrayJobId")) + QLatin1Char('_') + task;
    s.state = r.value(QStringLiteral("JobState"));
    s.phase = phaseForState(s.state);
    if (const QString reason = r.value(QStringLiteral("Reason")); known(reason)) s.reason = reason;
    if (isTerminal(s.phase)) {
        const auto [code, signal] = parseExitCode(r.value(QStringLiteral("ExitCode")));
        s.exitCode = code;
        s.signal = signal;
    }
    s.runSeconds = parseDuration(r.value(QStringLiteral("RunTime")));
    s.timeLimitSeconds = parseDuration(r.value(QStringLiteral("TimeLimit")));
    if (const QString nodes = r.value(QStringLiteral("NodeList")); known(nodes)) s.nodes = nodes;
    return s;
}

QList<JobStatus> parseSqueue(const QByteArray &text) {
    QList<JobStatus> out;
    for (const QString &line : lines(text)) {
        if (line.trimmed().isEmpty()) continue;
        const QStringList f = line.split(QLatin1Char('|'));
        if (f.size() < 2) continue;
        JobStatus s;
        s.jobId = f[0].trimmed();
        s.state = f[1].trimmed();
        s.phase = phaseForState(s.state);
        if (known(f.value(2))) s.reason = f.value(2);
        s.runSeconds = parseDuration(f.value(3));
        s.timeLimitSeconds = parseDuration(f.value(4));
        const QString where = f.value(6);
        if (!where.startsWith(QLatin1Char('('))) s.nodes = where;
        out << s;
    }
    return out;
}

QList<JobStatus> parseSacct(const QByteArray &text) {
    QList<JobStatus> out;
    const QStringList all = lines(text);
    QStringList header;
    for (const QString &line : all) {
        if (line.trimmed().isEmpty()) continue;
        const QStringList f = line.split(QLatin1Char('|'));
        if (header.isEmpty()) {
            header = f;
            continue;
        }
        auto field = [&](const char *name) { return f.value(header.indexOf(QLatin1String(name))); };
        JobStatus s;
        s.jobId = field("JobID");
        if (s.jobId.contains(QLatin1Char('.'))) continue; // a step: .batch, .extern, .0
        s.state = field("State");
        s.phase = phaseForState(s.state);
        if (isTerminal(s.phase)) {
            const auto [code, signal] = parseExitCode(field("ExitCode"));
            s.exitCode = code;
            s.signal = signal;
        }
        s.runSeconds = parseDuration(field("Elapsed"));
        s.timeLimitSeconds = parseDuration(field("Timelimit"));
        if (known(field("Reason"))) s.reason = field("Reason");
        out << s;
    }
    return out;
}

std::pair<QString, int> parseGpuGres(const QString &gres) {
    static const QRegularExpression gresRe(QStringLiteral("gpu(?::([A-Za-z][\\w.-]*))?:(\\d+)"));
    static const QRegularExpression tresRe(QStringLiteral("gres/gpu(?::([\\w.-]+))?=(\\d+)"));
    QString type;
    int count = 0;
    for (const QRegularExpression *re : {&tresRe, &gresRe}) {
        auto it = re->globalMatch(gres);
        while (it.hasNext()) {
            const auto m = it.next();
            const int n = m.captured(2).toInt();
            if (m.captured(1).isEmpty() && re == &tresRe && count > 0) continue;
            if (!m.captured(1).isEmpty() && type.isEmpty()) type = m.captured(1);
            count = std::max(count, n);
        }
        if (count > 0) break;
    }
    return {type, count};
}

qint64 parseMemoryMb(const QString &input) {
    static const QRegularExpression re(QStringLiteral("^(\\d+(?:\\.\\d+)?)([KMGT]?)B?\\+?$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(input.trimmed());
    if (!m.hasMatch()) return 0;
    const double v = m.captured(1).toDouble();
    const QString unit = m.captured(2).toUpper();
    const double mb = unit == QLatin1String("K")   ? v / 1024.0
                      : unit == QLatin1String("G") ? v * 1024.0
                      : unit == QLatin1String("T") ? v * 1024.0 * 1024.0
                                                   : v;
    return qint64(mb);
}

QList<PartitionLoad> parseSinfoLoad(const QByteArray &text) {
    QList<PartitionLoad> out;
    for (const QString &line : lines(text)) {
        const QStringList f = line.split(QLatin1Char('|'));
        if (f.size() < 3 || f[0].trimmed().isEmpty()) continue;
        const QStringList nodes = f[1].trimmed().split(QLatin1Char('/'));
        const QStringList cpus = f[2].trimmed().split(QLatin1Char('/'));
        if (nodes.size() != 4 || cpus.size() != 4) continue;
        bool ok = true;
        auto number = [&ok](const QString &t) {
            bool good = false;
            const int v = t.toInt(&good);
            ok = ok && good && v >= 0 && v <= 10000000; // no cluster has more; the sums below stay in range
            return v;
        };
        PartitionLoad p;
        p.name = f[0].trimmed();
        if (p.name.endsWith(QLatin1Char('*'))) {
            p.name.chop(1);
            p.isDefault = true;
        }
        p.nodesAllocated = number(nodes[0]);
        p.nodesIdle = number(nodes[1]);
        p.nodesOther = number(nodes[2]);
        p.nodesTotal = number(nodes[3]);
        p.cpusAllocated = number(cpus[0]);
        p.cpusIdle = number(cpus[1]);
        p.cpusTotal = number(cpus[3]);
        if (!ok) continue;
        auto same = std::find_if(out.begin(), out.end(), [&](const PartitionLoad &o) { return o.name == p.name; });
        if (same == out.end()) {
            out << p;
            continue;
        }
        same->nodesAllocated += p.nodesAllocated;
        same->nodesIdle += p.nodesIdle;
        same->nodesOther += p.nodesOther;
        same->nodesTotal += p.nodesTotal;
        same->cpusAllocated += p.cpusAllocated;
        same->cpusIdle += p.cpusIdle;
        same->cpusTotal += p.cpusTotal;
    }
    return out;
}

QList<FairShare> parseSshare(const QByteArray &text) {
    QList<FairShare> out;
    for (const QString &line : lines(text)) {
        const QStringList f = line.split(QLatin1Char('|'));
        if (f.size() < 4 || f[1].trimmed().isEmpty()) continue; // account rows without a user are the tree above
        FairShare s;
        s.account = f[0].trimmed();
        bool ok = false;
        const double usage = f[2].trimmed().toDouble(&ok);
        if (ok) s.effectiveUsage = usage;
        const double share = f[3].trimmed().toDouble(&ok);
        if (ok) s.fairShare = share;
        out << s;
    }
    return out;
}

QList<PartitionInfo> parseSinfo(const QByteArray &text) {
    QList<PartitionInfo> out;
    for (const QString &line : lines(text)) {
        const QStringList f = line.split(QLatin1Char('|'));
        if (f.size() < 7 || f[0].trimmed().isEmpty()) continue;
        PartitionInfo p;
        p.name = f[0].trimmed();
        if (p.name.endsWith(QLatin1Char('*'))) {
            p.name.chop(1);
            p.isDefault = true;
        }
        const qint64 limit = parseDuration(f[2]);
        p.maxWalltimeMinutes = limit > 0 ? int(limit / 60) : 0;
        p.nodes = f[3].trimmed().toInt();
        p.cpusPerNode = f[4].trimmed().remove(QLatin1Char('+')).toInt();
        p.memoryMb = parseMemoryMb(f[5]);
        const auto [type, count] = parseGpuGres(f[6]);
        p.gpuType = type;
        p.gpusPerNode = count;
        // sinfo prints one line per node state: merge lines of the same partition.
        auto same = std::find_if(out.begin(), out.end(), [&](const PartitionInfo &o) { return o.name == p.name; });
        if (same == out.end()) {
            out << p;
        } else {
            same->nodes += p.nodes;
            same->cpusPerNode = std::max(same->cpusPerNode, p.cpusPerNode);
            same->memoryMb = std::max(same->memoryMb, p.memoryMb);
            if (p.gpusPerNode > same->gpusPerNode) {
                same->gpusPerNode = p.gpusPerNode;
                same->gpuType = p.gpuType;
            }
        }
    }
    return out;
}

QList<PartitionInfo> parseScontrolPartitions(const QByteArray &text) {
    QList<PartitionInfo> out;
    for (const auto &r : parseScontrolRecords(text)) {
        PartitionInfo p;
        p.name = r.value(QStringLiteral("PartitionName"));
        if (p.name.isEmpty()) continue;
        p.isDefault = r.value(QStringLiteral("Default")) == QLatin1String("YES");
        const qint64 limit = parseDuration(r.value(QStringLiteral("MaxTime")));
        p.maxWalltimeMinutes = limit > 0 ? int(limit / 60) : 0;
        p.nodes = r.value(QStringLiteral("TotalNodes")).toInt();
        const int cpus = r.value(QStringLiteral("TotalCPUs")).toInt();
        if (p.nodes > 0) p.cpusPerNode = cpus / p.nodes;
        const QMap<QString, QString> tres = [&] {
            QMap<QString, QString> m;
            for (const QString &item : r.value(QStringLiteral("TRES")).split(QLatin1Char(',')))
                m.insert(item.section(QLatin1Char('='), 0, 0), item.section(QLatin1Char('='), 1));
            return m;
        }();
        if (p.nodes > 0) p.memoryMb = parseMemoryMb(tres.value(QStringLiteral("mem"))) / p.nodes;
        const auto [type, count] = parseGpuGres(r.value(QStringLiteral("TRES")));
        p.gpuType = type;
        if (p.nodes > 0) p.gpusPerNode = count / p.nodes;
        out << p;
    }
    return out;
}

QList<PartitionInfo> mergePartitions(QList<PartitionInfo> base, const QList<PartitionInfo> &extra) {
    for (const PartitionInfo &e : extra) {
        auto it = std::find_if(base.begin(), base.end(), [&](const PartitionInfo &b) { return b.name == e.name; });
        if (it == base.end()) {
            base << e;
            continue;
        }
        if (it->gpuType.isEmpty()) it->gpuType = e.gpuType;
        if (!it->gpusPerNode) it->gpusPerNode = e.gpusPerNode;
        if (!it->cpusPerNode) it->cpusPerNode = e.cpusPerNode;
        if (!it->memoryMb) it->memoryMb = e.memoryMb;
        if (!it->maxWalltimeMinutes) it->maxWalltimeMinutes = e.maxWalltimeMinutes;
        if (!it->nodes) it->nodes = e.nodes;
        it->isDefault = it->isDefault || e.isDefault;
    }
    return base;
}

} // namespace diamond::remote::slurm
