// A process that is writing metric points is killed with SIGKILL in the middle of a burst; the
// workspace database must pass PRAGMA integrity_check and hold every point whose transaction was
// reported committed. The writer is this same binary started with --burst-writer DIR.
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QJsonObject>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstdio>

using namespace diamond::app;

namespace {

/// Writes batches of 1,000 points forever, printing the number of committed points after each commit.
int burstWriter(const QString &folder) {
    Workspace ws;
    if (!ws.open(folder)) return 2;
    RunStore store(ws);
    const QList<Run> runs = store.runs();
    if (runs.isEmpty()) return 2;
    const qint64 runId = runs.first().id;
    // Continue after what earlier (killed) writers committed.
    const qint64 first = store.metricPoints(runId, QStringLiteral("loss"), MetricSplit::Train).size();
    for (qint64 start = first;; start += 1000) {
        QList<MetricPoint> points;
        for (qint64 i = start; i < start + 1000; ++i) {
            MetricPoint p;
            p.step = i;
            p.name = QStringLiteral("loss");
            p.value = static_cast<double>(i);
            points.append(p);
        }
        if (store.addMetricPoints(runId, points) != 1000) return 3;
        std::printf("%lld\n", static_cast<long long>(start + 1000));
        std::fflush(stdout);
    }
}

} // namespace

class TestWorkspaceCrash : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void killDuringWriteBurstLosesNothingCommitted() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("ws"));
        {
            Workspace ws;
            QVERIFY(ws.create(folder));
            RunStore store(ws);
            const auto project = store.createProject(QStringLiteral("crash"));
            QVERIFY(project);
            QVERIFY(store.createRun(project->id, 0, QStringLiteral("burst"), QJsonObject()));
        }
        for (int round = 0; round < 3; ++round) {
            QProcess writer;
            writer.start(QCoreApplication::applicationFilePath(), {QStringLiteral("--burst-writer"), folder});
            QVERIFY(writer.waitForStarted());
            qint64 committed = 0;
            const qint64 target = 20000 * (round + 1) + 7000 * round;
            QByteArray pending;
            while (committed < target && writer.state() != QProcess::NotRunning) {
                writer.waitForReadyRead(2000);
                pending += writer.readAllStandardOutput();
                const int nl = pending.lastIndexOf('\n');
                if (nl < 0) continue;
                const QList<QByteArray> lines = pending.left(nl).split('\n');
                committed = lines.last().trimmed().toLongLong();
                pending.remove(0, nl + 1);
            }
            QVERIFY2(committed >= target, "writer stopped early");
            ::kill(static_cast<pid_t>(writer.processId()), SIGKILL);
            writer.waitForFinished();

            Workspace ws;
            QVERIFY2(ws.open(folder), qPrintable(ws.errorString()));
            QSqlQuery q(ws.database());
            QVERIFY(q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next());
            QCOMPARE(q.value(0).toString(), QStringLiteral("ok"));
            RunStore store(ws);
            const QList<MetricPoint> points =
                store.metricPoints(store.runs().first().id, QStringLiteral("loss"), MetricSplit::Train);
            qInfo("round %d: %lld points reported committed, %lld in the database after SIGKILL", round,
                  static_cast<long long>(committed), static_cast<long long>(points.size()));
            QVERIFY(points.size() >= committed);
            // Whole batches only, no gaps: steps are exactly 0..n-1.
            QCOMPARE(points.size() % 1000, 0);
            for (int i = 0; i < points.size(); i += 997)
                QCOMPARE(points[i].step, qint64(i));
            QCOMPARE(points.last().step, qint64(points.size() - 1));
        }
    }
};

int main(int argc, char **argv) {
    if (argc == 3 && qstrcmp(argv[1], "--burst-writer") == 0) {
        QCoreApplication app(argc, argv);
        return burstWriter(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TestWorkspaceCrash test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_workspace_crash.moc"
