// RunManager + LocalExecutor with the real diamond-train on the spirals example (300 steps, 1 thread): the run
// finishes, the metric points in SQLite equal the metric lines of events.jsonl, a second manager reattaches
// without duplicates (live and after the fact), a broken config fails with the engine's message, cancel works.
#include "common/test_paths.h"

#include "app/run/run_manager.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QMap>
#include <QProcess>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

namespace {

using Key = std::tuple<qint64, int, QString>; // step, split, name

struct FileMetrics {
    int metricLines = 0;
    int lines = 0;
    QMap<Key, double> values; ///< last value per (step, split, name)
};

FileMetrics readEventsFile(const QString &path) {
    FileMetrics out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        ++out.lines;
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        if (e.value(QStringLiteral("event")).toString() != QLatin1String("metric")) continue;
        ++out.metricLines;
        const int split = e.value(QStringLiteral("split")).toString() == QLatin1String("val") ? 1 : 0;
        out.values.insert({static_cast<qint64>(e.value(QStringLiteral("step")).toDouble()), split,
                           e.value(QStringLiteral("name")).toString()},
                          e.value(QStringLiteral("value")).toDouble());
    }
    return out;
}

QMap<Key, double> storedPoints(Workspace &ws, qint64 runId, int *rows) {
    QMap<Key, double> out;
    QSqlQuery q(ws.database());
    q.prepare(QStringLiteral("SELECT p.step, p.split, n.name, p.value FROM metric_points p JOIN metric_names n"
                             " ON n.id = p.name_id WHERE p.run_id = ?"));
    q.addBindValue(runId);
    *rows = 0;
    if (!q.exec()) return out;
    while (q.next()) {
        ++*rows;
        out.insert({q.value(0).toLongLong(), q.value(1).toInt(), q.value(2).toString()}, q.value(3).toDouble());
    }
    return out;
}

int storedEvents(Workspace &ws, qint64 runId) {
    QSqlQuery q(ws.database());
    q.prepare(QStringLiteral("SELECT COUNT(*) FROM events WHERE run_id = ?"));
    q.addBindValue(runId);
    return q.exec() && q.next() ? q.value(0).toInt() : -1;
}

} // namespace

class TestRunManager : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString folder_;
    Workspace ws_;
    qint64 projectId_ = 0;
    qint64 archVersionId_ = 0;

    QJsonObject config(int steps) const {
        QFile f(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        f.open(QIODevice::ReadOnly);
        QJsonObject c = QJsonDocument::fromJson(f.readAll()).object();
        c.insert(QStringLiteral("steps"), steps);
        c.insert(QStringLiteral("threads"), 1);
        return c;
    }

    qint64 newRun(const QJsonObject &config) {
        RunStore store(ws_);
        const auto run = store.createRun(projectId_, archVersionId_, QStringLiteral("spirals"), config);
        return run ? run->id : 0;
    }

    RunManager *newManager(Workspace &ws, QObject *parent) {
        auto *executor = new LocalExecutor;
        executor->setEnginePath(diamond::test::binary(QStringLiteral("diamond-train")));
        executor->setCancelGracePeriod(5000);
        return new RunManager(ws, executor, parent);
    }

    /// Points in SQLite == metric lines of events.jsonl (same keys and values), events == lines.
    void verifyIngested(Workspace &ws, qint64 runId) {
        const FileMetrics file = readEventsFile(QDir(ws.runDirectory(runId)).filePath(QStringLiteral("events.jsonl")));
        int rows = 0;
        const QMap<Key, double> stored = storedPoints(ws, runId, &rows);
        qInfo("run %lld: %d lines in events.jsonl, %d metric lines, %d distinct (step, split, name), %d points "
              "stored, %d events stored",
              runId, file.lines, file.metricLines, int(file.values.size()), rows, storedEvents(ws, runId));
        QVERIFY(file.metricLines > 0);
        QCOMPARE(rows, int(file.values.size()));
        QCOMPARE(stored, file.values);
        QCOMPARE(storedEvents(ws, runId), file.lines);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY(QFile::exists(diamond::test::binary(QStringLiteral("diamond-train"))));
        folder_ = dir_.filePath(QStringLiteral("ws"));
        QVERIFY(ws_.create(folder_));
        RunStore store(ws_);
        projectId_ = store.createProject(QStringLiteral("Test"))->id;
        QFile f(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto arch = store.ensureArchitecture(projectId_, QStringLiteral("spirals"));
        QVERIFY(arch);
        archVersionId_ = store.addArchitectureVersion(*arch, QJsonDocument::fromJson(f.readAll()).object())->id;
    }

    void trainsToFinished() {
        const qint64 id = newRun(config(300));
        QVERIFY(id > 0);
        QObject owner;
        RunManager *manager = newManager(ws_, &owner);
        QSignalSpy ended(manager, &RunManager::runEnded);
        QSignalSpy states(manager, &RunManager::runStateChanged);
        int emittedPoints = 0;
        connect(manager, &RunManager::metricsAppended, &owner,
                [&](qint64, const QList<MetricPoint> &points) { emittedPoints += int(points.size()); });
        QVERIFY2(manager->startRun(id), qPrintable(manager->errorString()));
        QVERIFY(manager->isActive(id));
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended.first().at(1).value<RunState>(), RunState::Finished);
        QCOMPARE(states.first().at(1).value<RunState>(), RunState::Queued);

        RunStore store(ws_);
        const Run run = *store.run(id);
        QCOMPARE(run.state, RunState::Finished);
        QCOMPARE(run.exitCode, std::optional<int>(0));
        QVERIFY(run.finalMetrics.contains(QStringLiteral("val_accuracy")));
        QCOMPARE(run.weightsHash.size(), 64);
        QVERIFY(!run.startedAt.isEmpty() && !run.finishedAt.isEmpty());
        verifyIngested(ws_, id);
        const FileMetrics file = readEventsFile(QDir(ws_.runDirectory(id)).filePath(QStringLiteral("events.jsonl")));
        QCOMPARE(emittedPoints, file.metricLines); // every metric line was reported once
        QVERIFY(!QFile::exists(QDir(ws_.runDirectory(id)).filePath(QStringLiteral("engine.pid"))));

        // After the fact: another connection reattaches and adds nothing.
        Workspace other;
        QVERIFY(other.open(folder_));
        QObject owner2;
        RunManager *second = newManager(other, &owner2);
        QCOMPARE(second->reattach(), 0); // nothing running
        MetricIngestor late(other, id);
        QCOMPARE(late.poll(), 0);
        verifyIngested(other, id);
    }

    void reattachAfterRestartMidFile() {
        // A manager died after ingesting part of the file while the engine went on to finish.
        const qint64 id = newRun(config(300));
        RunStore store(ws_);
        QVERIFY(store.transition(id, RunState::Queued));
        QVERIFY(store.transition(id, RunState::Running));
        const QString dir = ws_.runDirectory(id);
        QProcess engine;
        engine.setWorkingDirectory(dir);
        engine.setStandardOutputFile(QProcess::nullDevice());
        engine.start(diamond::test::binary(QStringLiteral("diamond-train")),
                     {QStringLiteral("--spec"), QDir(dir).filePath(QStringLiteral("spec.json")),
                      QStringLiteral("--config"), QDir(dir).filePath(QStringLiteral("run.json")),
                      QStringLiteral("--run-dir"), dir});
        QVERIFY(engine.waitForFinished(60000));
        QCOMPARE(engine.exitCode(), 0);
        const QString events = QDir(dir).filePath(QStringLiteral("events.jsonl"));
        QFile f(events);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray full = f.readAll();
        f.close();
        // Ingest the first 40 lines and half of the 41st, as a manager that was killed would have.
        qsizetype cut = 0;
        for (int i = 0; i < 40; ++i)
            cut = full.indexOf('\n', cut) + 1;
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(full.left(cut + 20));
        f.close();
        {
            MetricIngestor early(ws_, id);
            QCOMPARE(early.poll(), 40);
        }
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(full);
        f.close();

        Workspace other;
        QVERIFY(other.open(folder_));
        QObject owner;
        RunManager *manager = newManager(other, &owner);
        QSignalSpy ended(manager, &RunManager::runEnded);
        QCOMPARE(manager->reattach(), 1);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended.first().at(1).value<RunState>(), RunState::Finished);
        const Run run = *store.run(id);
        QCOMPARE(run.state, RunState::Finished);
        QCOMPARE(run.weightsHash.size(), 64);
        verifyIngested(ws_, id);
    }

    void secondManagerFollowsLiveRun() {
        const qint64 id = newRun(config(20000));
        QObject owner;
        RunManager *first = newManager(ws_, &owner);
        QSignalSpy firstEnded(first, &RunManager::runEnded);
        QSignalSpy firstMetrics(first, &RunManager::metricsAppended);
        QVERIFY(first->startRun(id));
        QVERIFY(firstMetrics.wait(30000));

        Workspace other;
        QVERIFY(other.open(folder_));
        RunManager *second = newManager(other, &owner);
        QSignalSpy secondEnded(second, &RunManager::runEnded);
        QCOMPARE(second->reattach(), 1);
        const bool live = second->isActive(id);
        if (!live) QSKIP("the engine finished before the second manager reattached");
        QVERIFY(firstEnded.wait(120000));
        QCOMPARE(firstEnded.first().at(1).value<RunState>(), RunState::Finished);
        QTRY_VERIFY_WITH_TIMEOUT(!second->isActive(id), 10000);
        RunStore store(ws_);
        QCOMPARE(store.run(id)->state, RunState::Finished);
        verifyIngested(ws_, id);
    }

    void brokenConfigFails() {
        QJsonObject c = config(300);
        QJsonObject optimizer = c.value(QStringLiteral("optimizer")).toObject();
        optimizer.insert(QStringLiteral("name"), QStringLiteral("bogus"));
        c.insert(QStringLiteral("optimizer"), optimizer);
        const qint64 id = newRun(c);
        QObject owner;
        RunManager *manager = newManager(ws_, &owner);
        QSignalSpy ended(manager, &RunManager::runEnded);
        QVERIFY(manager->startRun(id));
        QVERIFY(ended.wait(60000));
        QCOMPARE(ended.first().at(1).value<RunState>(), RunState::Failed);
        RunStore store(ws_);
        const Run run = *store.run(id);
        QCOMPARE(run.state, RunState::Failed);
        QCOMPARE(run.exitCode, std::optional<int>(1));
        QVERIFY2(run.exitMessage.contains(QStringLiteral("optimizer.name")), qPrintable(run.exitMessage));
    }

    void cancelStopsTheEngine() {
        const qint64 id = newRun(config(200000));
        QObject owner;
        RunManager *manager = newManager(ws_, &owner);
        QSignalSpy ended(manager, &RunManager::runEnded);
        QSignalSpy metrics(manager, &RunManager::metricsAppended);
        QVERIFY(manager->startRun(id));
        QVERIFY(metrics.wait(30000));
        QVERIFY(manager->cancel(id));
        QVERIFY(ended.wait(30000));
        QCOMPARE(ended.first().at(1).value<RunState>(), RunState::Cancelled);
        RunStore store(ws_);
        QCOMPARE(store.run(id)->state, RunState::Cancelled);
        verifyIngested(ws_, id);

        // Resume continues from the checkpoint written on SIGTERM and finishes... with fewer steps it is quick.
        QVERIFY(manager->resume(id) || !manager->errorString().isEmpty());
        if (manager->isActive(id)) {
            QVERIFY(manager->cancel(id));
            QVERIFY(ended.wait(30000));
            QCOMPARE(store.run(id)->state, RunState::Cancelled);
        }
    }
};

QTEST_GUILESS_MAIN(TestRunManager)
#include "tst_run_manager.moc"
