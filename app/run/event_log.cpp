#include "app/run/event_log.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QTimer>
#include <QVariant>

namespace diamond::app {

namespace {

bool isTerminalKind(const QString &kind) {
    return kind == QLatin1String("finished") || kind == QLatin1String("error") || kind == QLatin1String("requeue");
}

} // namespace

QList<EventLine> EventLogTail::readLines(qint64 maxBytes) {
    QList<EventLine> out;
    QFile file(path_);
    if (!file.open(QIODevice::ReadOnly)) return out; // not written yet
    if (file.size() <= offset_ || !file.seek(offset_)) return out;
    if (skipping_) {
        // Inside a line longer than kMaxLineBytes: scan on (from where the last call stopped) to its end.
        if (!file.seek(skipScanned_)) return out;
        for (;;) {
            const QByteArray chunk = file.read(1 << 20);
            if (chunk.isEmpty()) return out; // not ended yet
            const qsizetype nl = chunk.indexOf('\n');
            if (nl >= 0) {
                offset_ = skipScanned_ + nl + 1;
                skipping_ = false;
                ++skippedLines_;
                break;
            }
            skipScanned_ += chunk.size();
        }
        if (!file.seek(offset_)) return out;
    }
    const qint64 cap = std::max<qint64>(maxBytes, 1);
    QByteArray data = file.read(cap);
    qint64 lastNewline = data.lastIndexOf('\n');
    while (lastNewline < 0 && !file.atEnd() && data.size() <= kMaxLineBytes) { // one long line: read on to its end
        const QByteArray more = file.read(cap);
        if (more.isEmpty()) break;
        data += more;
        lastNewline = data.lastIndexOf('\n');
    }
    if (lastNewline < 0) {
        if (data.size() > kMaxLineBytes) { // no event is that long: skip the line without holding it
            skipping_ = true;
            skipScanned_ = offset_ + data.size();
            return readLines(maxBytes);
        }
        return out;
    }
    qint64 start = 0;
    while (start <= lastNewline) {
        const qint64 end = data.indexOf('\n', start);
        QByteArray line = data.mid(start, end - start);
        if (line.endsWith('\r')) line.chop(1);
        if (line.size() > kMaxLineBytes)
            ++skippedLines_;
        else if (!line.trimmed().isEmpty())
            out.append({offset_ + start, line});
        start = end + 1;
    }
    offset_ += lastNewline + 1;
    return out;
}

QJsonObject firstErrorEventIn(const QByteArray &jobOutput) {
    for (const QByteArray &line : jobOutput.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (!trimmed.startsWith('{') || !trimmed.contains("\"error\"")) continue; // cheap filter before parsing
        const QJsonObject event = QJsonDocument::fromJson(trimmed).object();
        if (event.value(QStringLiteral("event")).toString() == QLatin1String("error")) return event;
    }
    return {};
}

std::optional<MetricPoint> metricPointFromEvent(const QJsonObject &event) {
    if (event.value(QStringLiteral("event")).toString() != QLatin1String("metric")) return std::nullopt;
    const QJsonValue step = event.value(QStringLiteral("step"));
    const QJsonValue value = event.value(QStringLiteral("value"));
    const QString name = event.value(QStringLiteral("name")).toString();
    if (!step.isDouble() || name.isEmpty() || !value.isDouble()) return std::nullopt;
    MetricPoint p;
    p.step = static_cast<qint64>(step.toDouble());
    p.name = name;
    p.split = event.value(QStringLiteral("split")).toString() == QLatin1String("val") ? MetricSplit::Validation
                                                                                      : MetricSplit::Train;
    p.value = value.toDouble();
    p.wall = event.value(QStringLiteral("time")).toDouble();
    return p;
}

MetricIngestor::MetricIngestor(Workspace &workspace, qint64 runId, QObject *parent)
    : QObject(parent), ws_(workspace), runId_(runId),
      tail_(QDir(workspace.runDirectory(runId)).filePath(QStringLiteral("events.jsonl"))) {}

MetricIngestor::~MetricIngestor() = default;

void MetricIngestor::positionAfterStoredEvents() {
    positioned_ = true;
    RunStore store(ws_);
    skipUpTo_ = store.lastEventOffset(runId_);
    tail_.setOffset(std::max<qint64>(skipUpTo_, 0));
    // The newest terminal event stored before (by this or another process).
    QSqlQuery q(ws_.database());
    // A `started` after it means a later attempt (resume) is under way: then there is none.
    q.prepare(QStringLiteral("SELECT json, kind FROM events WHERE run_id = ?"
                             " AND kind IN ('started', 'finished', 'error', 'requeue') ORDER BY offset DESC LIMIT 1"));
    q.addBindValue(runId_);
    if (q.exec() && q.next() && q.value(1).toString() != QLatin1String("started")) {
        const QJsonObject e = QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object();
        terminal_ = e;
        if (e.value(QStringLiteral("event")).toString() == QLatin1String("error"))
            lastError_ = e.value(QStringLiteral("message")).toString();
    }
}

void MetricIngestor::start(int intervalMs) {
    if (!positioned_) positionAfterStoredEvents();
    if (!timer_) {
        timer_ = new QTimer(this);
        connect(timer_, &QTimer::timeout, this, [this] { poll(); });
    }
    timer_->start(intervalMs);
}

void MetricIngestor::stop() {
    if (timer_) timer_->stop();
}

bool MetricIngestor::isActive() const { return timer_ && timer_->isActive(); }

int MetricIngestor::poll() {
    if (!positioned_) positionAfterStoredEvents();
    int stored = 0;
    for (;;) {
        const qint64 before = tail_.offset();
        QList<EventLine> lines = tail_.readLines();
        if (lines.isEmpty()) return stored;
        while (!lines.isEmpty() && lines.first().offset <= skipUpTo_)
            lines.removeFirst();
        QList<QJsonObject> events;
        QList<MetricPoint> points;
        if (!storeBatch(lines, &events, &points)) {
            tail_.setOffset(before); // read again on the next poll
            return -1;
        }
        stored += static_cast<int>(lines.size());
        if (!points.isEmpty()) Q_EMIT metricsAppended(runId_, points);
        for (const QJsonObject &e : std::as_const(events)) {
            Q_EMIT eventReceived(runId_, e);
            if (isTerminalKind(e.value(QStringLiteral("event")).toString())) Q_EMIT terminalEventReceived(runId_, e);
        }
    }
}

bool MetricIngestor::storeBatch(const QList<EventLine> &lines, QList<QJsonObject> *events, QList<MetricPoint> *points) {
    if (lines.isEmpty()) return true;
    RunStore store(ws_);
    WriteTransaction tx(ws_.database());
    if (!tx.isActive()) return error_ = tx.errorString(), false;
    QSqlQuery insert(ws_.database());
    insert.prepare(QStringLiteral("INSERT OR IGNORE INTO metric_points (run_id, name_id, split, step, value, wall)"
                                  " VALUES (?, ?, ?, ?, ?, ?)"));
    QHash<QString, qint64> nameIds;
    std::optional<QJsonObject> terminal;
    QString lastError;
    bool restarted = false; // a `started` event: terminal events before it belong to an earlier attempt
    for (const EventLine &line : lines) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line.text, &parseError);
        const QJsonObject event = doc.object();
        // A line that is not a JSON object is stored as kind "invalid" so that its offset is not read again.
        const QString kind =
            doc.isObject() ? event.value(QStringLiteral("event")).toString() : QStringLiteral("invalid");
        if (!store.addEvent(runId_, line.offset, kind, line.text)) return error_ = store.errorString(), false;
        if (!doc.isObject()) continue;
        events->append(event);
        if (const auto p = metricPointFromEvent(event)) {
            auto it = nameIds.find(p->name);
            if (it == nameIds.end()) {
                const auto id = store.metricNameId(p->name);
                if (!id) return error_ = store.errorString(), false;
                it = nameIds.insert(p->name, *id);
            }
            insert.addBindValue(runId_);
            insert.addBindValue(*it);
            insert.addBindValue(static_cast<int>(p->split));
            insert.addBindValue(p->step);
            insert.addBindValue(p->value);
            insert.addBindValue(p->wall);
            if (!insert.exec())
                return error_ = tr("Cannot store metrics of run %1: %2").arg(runId_).arg(insert.lastError().text()),
                       false;
            points->append(*p);
        } else if (kind == QLatin1String("finished")) {
            if (!store.setRunResult(runId_, event.value(QStringLiteral("metrics")).toObject(),
                                    event.value(QStringLiteral("weights_sha256")).toString()))
                return error_ = store.errorString(), false;
        }
        if (kind == QLatin1String("started")) {
            restarted = true;
            terminal.reset();
            lastError.clear();
        }
        if (isTerminalKind(kind)) terminal = event;
        if (kind == QLatin1String("error")) lastError = event.value(QStringLiteral("message")).toString();
    }
    if (!tx.commit()) return error_ = tx.errorString(), false;
    if (restarted) {
        terminal_.reset();
        lastError_.clear();
    }
    if (terminal) terminal_ = terminal;
    if (!lastError.isEmpty()) lastError_ = lastError;
    error_.clear();
    return true;
}

} // namespace diamond::app
