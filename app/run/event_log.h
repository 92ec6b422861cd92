// Reading the engine's events (<run-dir>/events.jsonl, docs/events-protocol.md) into the workspace.
//
// EventLogTail reads complete lines from a byte offset; MetricIngestor polls one run's file and stores its
// events and metric points in the workspace database, one write transaction per batch. Every stored event is
// keyed by its byte offset, so an ingestor started later (another process, a restart) continues after the
// newest stored offset: no gap and no duplicate (the database's uniqueness on (run, offset) and
// (run, name, split, step) is the safety net when two ingestors read the same file).
#pragma once

#include "app/run/run_store.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>

#include <optional>

class QTimer;

namespace diamond::app {

/// One complete line of an events file: the offset of its first byte and its text without the line end.
struct EventLine {
    qint64 offset = 0;
    QByteArray text;
};

/// Reads complete lines of a growing file. A last line without '\n' is not returned (the writer may be in the
/// middle of it) and is read again, whole, by a later call. A file that does not exist yet reads as empty.
class EventLogTail {
public:
    explicit EventLogTail(const QString &path = {}, qint64 offset = 0) : path_(path), offset_(offset) {}

    QString path() const { return path_; }
    void setPath(const QString &path) { path_ = path; }
    /// Offset of the next byte to read: the start of the first line not yet returned.
    qint64 offset() const { return offset_; }
    void setOffset(qint64 offset) { offset_ = offset; }

    /// Complete lines from offset() on (at most about maxBytes of them; at least one complete line when the
    /// file has one), advancing offset() past them. Empty lines advance the offset but are not returned, and so do
    /// lines longer than kMaxLineBytes (no engine event is; a hostile or broken file must not make the reader hold
    /// them): such a line is scanned in pieces, never held whole.
    QList<EventLine> readLines(qint64 maxBytes = 4 * 1024 * 1024);
    /// Lines skipped for their length so far.
    int skippedLines() const { return skippedLines_; }

    static constexpr qint64 kMaxLineBytes = 1 << 20;

private:
    QString path_;
    qint64 offset_ = 0;
    bool skipping_ = false;  ///< inside an over-long line that has not ended yet
    qint64 skipScanned_ = 0; ///< how far that line was scanned
    int skippedLines_ = 0;
};

/// The first `error` event in a job's merged output (the stdout of all its ranks, where ranks other than 0 report
/// their errors: only rank 0 writes events.jsonl), or an empty object. Lines that are not JSON objects are skipped.
QJsonObject firstErrorEventIn(const QByteArray &jobOutput);

/// The metric point of a `metric` event; nullopt for other events or a malformed one.
std::optional<MetricPoint> metricPointFromEvent(const QJsonObject &event);

/// Polls <run-dir>/events.jsonl of one run and stores what it reads (see the file comment). Use from the
/// workspace's thread; the workspace must outlive the ingestor.
class MetricIngestor : public QObject {
    Q_OBJECT
public:
    MetricIngestor(Workspace &workspace, qint64 runId, QObject *parent = nullptr);
    ~MetricIngestor() override;

    qint64 runId() const { return runId_; }
    QString eventsPath() const { return tail_.path(); }
    /// Offset of the next line to read.
    qint64 offset() const { return tail_.offset(); }

    /// Positions the reader after the newest event stored for the run (the file start when none) and starts
    /// polling every intervalMs. Also loads the newest stored terminal event (see lastTerminalEvent()).
    void start(int intervalMs = 100);
    void stop();
    bool isActive() const;

    /// Reads and stores every complete new line now (one transaction per batch of lines). Returns the number
    /// of lines stored, or -1 when the database refused the batch (the lines are read again next time;
    /// errorString() says why). Safe to call without start(): it then begins after the newest stored event.
    int poll();

    /// The newest `finished`, `error` or `requeue` event seen (read now or stored before) that no `started`
    /// event follows (a resumed attempt starts afresh), if any.
    std::optional<QJsonObject> lastTerminalEvent() const { return terminal_; }
    /// Message of the newest `error` event seen since the newest `started`, empty when none.
    QString lastErrorMessage() const { return lastError_; }
    QString errorString() const { return error_; }

Q_SIGNALS:
    /// Points read in one batch, after they were committed (also points another ingestor stored first).
    void metricsAppended(qint64 runId, const QList<diamond::app::MetricPoint> &points);
    /// Every event of a batch, in file order, after the batch was committed.
    void eventReceived(qint64 runId, const QJsonObject &event);
    /// A `finished`, `error` or `requeue` event was read.
    void terminalEventReceived(qint64 runId, const QJsonObject &event);

private:
    void positionAfterStoredEvents();
    bool storeBatch(const QList<EventLine> &lines, QList<QJsonObject> *events, QList<MetricPoint> *points);

    Workspace &ws_;
    qint64 runId_ = 0;
    EventLogTail tail_;
    qint64 skipUpTo_ = -1; ///< lines starting at or before this offset are stored already
    bool positioned_ = false;
    QTimer *timer_ = nullptr;
    std::optional<QJsonObject> terminal_;
    QString lastError_;
    QString error_;
};

} // namespace diamond::app
