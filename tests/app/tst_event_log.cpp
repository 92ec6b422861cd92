// EventLogTail and MetricIngestor on hand-written events.jsonl files: partial lines, offsets, reattach without
// duplicates.
#include "app/run/event_log.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

class TestEventLog : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static void append(const QString &path, const QByteArray &data) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        QCOMPARE(f.write(data), data.size());
    }

    static QByteArray metricLine(int step, const char *name, const char *split, double value) {
        return QByteArrayLiteral("{\"event\":\"metric\",\"step\":") + QByteArray::number(step) +
               QByteArrayLiteral(",\"epoch\":0,\"split\":\"") + split + QByteArrayLiteral("\",\"name\":\"") + name +
               QByteArrayLiteral("\",\"value\":") + QByteArray::number(value, 'g', 17) +
               QByteArrayLiteral(",\"time\":1700000000.5}\n");
    }

    static int count(Workspace &ws, const QString &sql) {
        QSqlQuery q(ws.database());
        return q.exec(sql) && q.next() ? q.value(0).toInt() : -1;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void tailReturnsCompleteLinesWithOffsets() {
        const QString path = dir_.filePath(QStringLiteral("tail.jsonl"));
        EventLogTail tail(path);
        QVERIFY(tail.readLines().isEmpty()); // no file yet
        QCOMPARE(tail.offset(), 0);

        append(path, "{\"a\":1}\n{\"b\":22}\r\n{\"c\":");
        auto lines = tail.readLines();
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].offset, 0);
        QCOMPARE(lines[0].text, QByteArray("{\"a\":1}"));
        QCOMPARE(lines[1].offset, 8);
        QCOMPARE(lines[1].text, QByteArray("{\"b\":22}"));
        QCOMPARE(tail.offset(), 18);
        QVERIFY(tail.readLines().isEmpty()); // the partial line waits

        append(path, "3}\n\n{\"d\":4}\n");
        lines = tail.readLines();
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0].offset, 18);
        QCOMPARE(lines[0].text, QByteArray("{\"c\":3}"));
        QCOMPARE(lines[1].offset, 27); // the empty line is skipped but counted
        QCOMPARE(tail.offset(), QFileInfo(path).size());

        // A small read budget still returns whole lines, and continues where it stopped.
        EventLogTail small(path);
        QCOMPARE(small.readLines(3).size(), 1);
        QCOMPARE(small.offset(), 8);
        QCOMPARE(small.readLines(3).first().offset, 8);
    }

    void overlongLinesAreSkippedNotHeld() {
        // A line longer than any event (a broken or hostile file, e.g. fetched from a cluster) is skipped in pieces,
        // also while it is still being written; the lines around it are read.
        const QString path = dir_.filePath(QStringLiteral("long.jsonl"));
        append(path, "{\"a\":1}\n");
        append(path, QByteArray(3 << 20, 'x')); // 3 MiB, no end yet
        EventLogTail tail(path);
        auto lines = tail.readLines();
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].text, QByteArray("{\"a\":1}"));
        QVERIFY(tail.readLines().isEmpty());
        append(path, QByteArray(2 << 20, 'y') + "\n{\"b\":2}\n");
        lines = tail.readLines();
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].text, QByteArray("{\"b\":2}"));
        QCOMPARE(tail.skippedLines(), 1);
        QCOMPARE(tail.offset(), QFileInfo(path).size());
        // A complete over-long line within one read is skipped as well.
        append(path, QByteArray(EventLogTail::kMaxLineBytes + 10, 'z') + "\n{\"c\":3}\n");
        lines = tail.readLines(8 << 20);
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].text, QByteArray("{\"c\":3}"));
        QCOMPARE(tail.skippedLines(), 2);
    }

    void metricPointParsing() {
        const QJsonObject e{{QStringLiteral("event"), QStringLiteral("metric")},
                            {QStringLiteral("step"), 20},
                            {QStringLiteral("split"), QStringLiteral("val")},
                            {QStringLiteral("name"), QStringLiteral("loss")},
                            {QStringLiteral("value"), 0.25},
                            {QStringLiteral("time"), 12.5}};
        const auto p = metricPointFromEvent(e);
        QVERIFY(p);
        QCOMPARE(p->step, 20);
        QCOMPARE(p->split, MetricSplit::Validation);
        QCOMPARE(p->name, QStringLiteral("loss"));
        QCOMPARE(p->value, 0.25);
        QCOMPARE(p->wall, 12.5);
        QVERIFY(!metricPointFromEvent({{QStringLiteral("event"), QStringLiteral("checkpoint")}}));
        QJsonObject bad = e;
        bad.remove(QStringLiteral("value"));
        QVERIFY(!metricPointFromEvent(bad));
    }

    void ingestorStoresBatchesAndReattachesWithoutDuplicates() {
        const QString folder = dir_.filePath(QStringLiteral("ws"));
        Workspace ws;
        QVERIFY2(ws.create(folder), qPrintable(ws.errorString()));
        RunStore store(ws);
        const auto project = store.createProject(QStringLiteral("P"));
        QVERIFY(project);
        const auto run = store.createRun(project->id, 0, QStringLiteral("r"), {});
        QVERIFY(run);
        const QString events = QDir(ws.runDirectory(run->id)).filePath(QStringLiteral("events.jsonl"));

        MetricIngestor first(ws, run->id);
        QSignalSpy metrics(&first, &MetricIngestor::metricsAppended);
        QSignalSpy received(&first, &MetricIngestor::eventReceived);
        QCOMPARE(first.poll(), 0); // the file does not exist yet

        append(events, "{\"event\":\"started\",\"steps\":30,\"time\":1}\n");
        append(events, metricLine(10, "loss", "train", 1.5));
        append(events, metricLine(10, "accuracy", "train", 0.25));
        append(events, "{\"event\":\"metric\",\"step\":20,\"split\":\"train\",\"na"); // partial
        QCOMPARE(first.poll(), 3);
        QCOMPARE(metrics.size(), 1);
        QCOMPARE(metrics.first().at(1).value<QList<MetricPoint>>().size(), 2);
        QCOMPARE(received.size(), 3);
        QCOMPARE(store.metricPoints(run->id, QStringLiteral("loss"), MetricSplit::Train).size(), 1);

        append(events, "me\":\"loss\",\"value\":1.0,\"time\":2}\n");
        append(events, metricLine(20, "loss", "val", 1.25));
        QCOMPARE(first.poll(), 2);
        QCOMPARE(count(ws, QStringLiteral("SELECT COUNT(*) FROM metric_points")), 4);

        // A second process (own connection) reattaches: it continues after the newest stored offset.
        Workspace other;
        QVERIFY(other.open(folder));
        append(events, metricLine(30, "loss", "train", 0.5));
        append(events, "{\"event\":\"finished\",\"step\":30,\"metrics\":{\"val_loss\":0.75},"
                       "\"weights_sha256\":\"abc123\",\"time\":3}\n");
        MetricIngestor second(other, run->id);
        QSignalSpy secondMetrics(&second, &MetricIngestor::metricsAppended);
        QSignalSpy terminal(&second, &MetricIngestor::terminalEventReceived);
        QCOMPARE(second.poll(), 2);
        QCOMPARE(secondMetrics.size(), 1);
        QCOMPARE(secondMetrics.first().at(1).value<QList<MetricPoint>>().size(), 1);
        QCOMPARE(terminal.size(), 1);
        QVERIFY(second.lastTerminalEvent());

        // The first ingestor reads the same two lines: the database ignores them (no duplicates).
        QCOMPARE(first.poll(), 2);
        QCOMPARE(count(ws, QStringLiteral("SELECT COUNT(*) FROM metric_points")), 5);
        QCOMPARE(count(ws, QStringLiteral("SELECT COUNT(*) FROM events")), 7);

        // A third one started after everything finds nothing new but knows the terminal event.
        MetricIngestor third(other, run->id);
        QCOMPARE(third.poll(), 0);
        QVERIFY(third.lastTerminalEvent());
        QCOMPARE(third.lastTerminalEvent()->value(QStringLiteral("event")).toString(), QStringLiteral("finished"));

        const auto stored = store.run(run->id);
        QCOMPARE(stored->weightsHash, QStringLiteral("abc123"));
        QCOMPARE(stored->finalMetrics.value(QStringLiteral("val_loss")).toDouble(), 0.75);
        const auto loss = store.metricPoints(run->id, QStringLiteral("loss"), MetricSplit::Train);
        QCOMPARE(loss.size(), 3);
        QCOMPARE(loss[1].step, 20);
        QCOMPARE(loss[1].value, 1.0);
    }

    void errorEventAndInvalidLines() {
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws2"))));
        RunStore store(ws);
        const auto project = store.createProject(QStringLiteral("P"));
        const auto run = store.createRun(project->id, 0, QStringLiteral("r"), {});
        const QString events = QDir(ws.runDirectory(run->id)).filePath(QStringLiteral("events.jsonl"));
        append(events, "not json\n{\"event\":\"error\",\"message\":\"bad lr\",\"field\":\"optimizer.lr\"}\n");
        MetricIngestor ingestor(ws, run->id);
        QCOMPARE(ingestor.poll(), 2);
        QCOMPARE(ingestor.lastErrorMessage(), QStringLiteral("bad lr"));
        MetricIngestor again(ws, run->id);
        QCOMPARE(again.poll(), 0);
        QCOMPARE(again.lastErrorMessage(), QStringLiteral("bad lr"));
    }

    void firstErrorEventOfAJobsOutput() {
        const QByteArray output = "diamond: batch script started\n"
                                  "{\"event\":\"metric\",\"step\":1}\n"
                                  "{\"event\":\"error\",\"message\":\"truncated\n"
                                  "srun: error: task 1: Exited with exit code 1\n"
                                  "  {\"event\":\"error\",\"message\":\"lr must be positive\",\"rank\":1}\n"
                                  "{\"event\":\"error\",\"message\":\"later\",\"rank\":0}\n";
        const QJsonObject first = firstErrorEventIn(output);
        QCOMPARE(first.value(QStringLiteral("message")).toString(), QStringLiteral("lr must be positive"));
        QCOMPARE(first.value(QStringLiteral("rank")).toInt(), 1);
        QVERIFY(firstErrorEventIn("{\"event\":\"finished\"}\nerror: \"error\"\n").isEmpty());
        QVERIFY(firstErrorEventIn({}).isEmpty());
    }

    void startedClearsEarlierTerminalEvent() {
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws4"))));
        RunStore store(ws);
        const auto project = store.createProject(QStringLiteral("P"));
        const auto run = store.createRun(project->id, 0, QStringLiteral("r"), {});
        const QString events = QDir(ws.runDirectory(run->id)).filePath(QStringLiteral("events.jsonl"));
        append(events, "{\"event\":\"started\"}\n{\"event\":\"requeue\",\"step\":5}\n");
        MetricIngestor first(ws, run->id);
        QCOMPARE(first.poll(), 2);
        QVERIFY(first.lastTerminalEvent());
        append(events, "{\"event\":\"started\",\"start_step\":5}\n"); // resumed
        QCOMPARE(first.poll(), 1);
        QVERIFY(!first.lastTerminalEvent());
        MetricIngestor later(ws, run->id); // from the database only
        QCOMPARE(later.poll(), 0);
        QVERIFY(!later.lastTerminalEvent());
    }

    void timerPolls() {
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws3"))));
        RunStore store(ws);
        const auto project = store.createProject(QStringLiteral("P"));
        const auto run = store.createRun(project->id, 0, QStringLiteral("r"), {});
        MetricIngestor ingestor(ws, run->id);
        QSignalSpy metrics(&ingestor, &MetricIngestor::metricsAppended);
        ingestor.start(20);
        QVERIFY(ingestor.isActive());
        append(QDir(ws.runDirectory(run->id)).filePath(QStringLiteral("events.jsonl")),
               metricLine(10, "loss", "train", 2.0));
        QVERIFY(metrics.wait(2000));
        ingestor.stop();
        QVERIFY(!ingestor.isActive());
    }
};

QTEST_GUILESS_MAIN(TestEventLog)
#include "tst_event_log.moc"
