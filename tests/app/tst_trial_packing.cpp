// PackingLocalExecutor + RunManager::startRuns: several runs trained by ONE diamond-train process (`pack`), each
// with its own run folder, events, state and exactly the weights of a separate run; cancelling the running trial
// and a waiting one.
#include "common/test_paths.h"

#include "app/run/pack_executor.h"
#include "app/run/run_manager.h"
#include "app/workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

class TestTrialPacking : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Workspace ws_;
    qint64 projectId_ = 0, archId_ = 0;

    QJsonObject config(int steps, int seed) const {
        QFile f(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        f.open(QIODevice::ReadOnly);
        QJsonObject c = QJsonDocument::fromJson(f.readAll()).object();
        c.insert(QStringLiteral("steps"), steps);
        c.insert(QStringLiteral("seed"), seed);
        c.insert(QStringLiteral("threads"), 1);
        return c;
    }
    qint64 newRun(const QJsonObject &config) {
        RunStore store(ws_);
        const auto run = store.createRun(projectId_, archId_, QStringLiteral("trial"), config);
        return run ? run->id : 0;
    }
    QString weightsOf(qint64 runId) {
        const auto run = RunStore(ws_).run(runId);
        return run ? run->weightsHash : QString();
    }
    RunManager *newManager(Executor *executor) {
        if (auto *local = qobject_cast<LocalExecutor *>(executor))
            local->setEnginePath(diamond::test::binary(QStringLiteral("diamond-train")));
        return new RunManager(ws_, executor, this);
    }
    void waitEnded(RunManager *manager, const QList<qint64> &ids, int timeoutMs) {
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (qint64 id : ids)
                    if (manager->isActive(id)) return false;
                return true;
            }(),
            timeoutMs);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(ws_.create(dir_.filePath(QStringLiteral("ws"))));
        RunStore store(ws_);
        projectId_ = store.createProject(QStringLiteral("packing"))->id;
        QFile f(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        archId_ = store
                      .addArchitectureVersion(*store.ensureArchitecture(projectId_, QStringLiteral("spirals")),
                                              QJsonDocument::fromJson(f.readAll()).object())
                      ->id;
    }

    void packedRunsEqualSeparateRuns() {
        auto *packing = new PackingLocalExecutor;
        RunManager *manager = newManager(packing);
        QList<qint64> ids;
        for (int seed = 1; seed <= 5; ++seed)
            ids << newRun(config(150, seed));
        QCOMPARE(manager->startRuns(ids), 5);
        QCOMPARE(packing->packsStarted(), 1);
        waitEnded(manager, ids, 120000);
        for (qint64 id : ids) {
            QCOMPARE(RunStore(ws_).run(id)->state, RunState::Finished);
            QCOMPARE(weightsOf(id).size(), 64);
            QVERIFY(QFile::exists(QDir(ws_.runDirectory(id)).filePath(QStringLiteral("events.jsonl"))));
            QVERIFY(!RunStore(ws_).metricPoints(id, QStringLiteral("loss"), MetricSplit::Train).isEmpty());
        }
        QVERIFY(weightsOf(ids[0]) != weightsOf(ids[1])); // different seeds, different weights

        // The same config trained alone (its own process) ends with the same weights as inside the pack.
        RunManager *separate = newManager(new LocalExecutor);
        const qint64 alone = newRun(config(150, 3));
        QVERIFY(separate->startRun(alone));
        waitEnded(separate, {alone}, 60000);
        QCOMPARE(RunStore(ws_).run(alone)->state, RunState::Finished);
        QCOMPARE(weightsOf(alone), weightsOf(ids[2]));
        delete manager;
        delete separate;
    }

    void cancelRunningAndWaitingTrials() {
        auto *packing = new PackingLocalExecutor;
        RunManager *manager = newManager(packing);
        const QList<qint64> ids{newRun(config(400000, 1)), newRun(config(400000, 2)), newRun(config(100, 3))};
        QCOMPARE(manager->startRuns(ids), 3);
        // Cancel the waiting second trial first, then the running first one once it reports metrics.
        QVERIFY(manager->cancel(ids[1]));
        QTRY_VERIFY_WITH_TIMEOUT(
            !RunStore(ws_).metricPoints(ids[0], QStringLiteral("loss"), MetricSplit::Train).isEmpty(), 60000);
        QVERIFY(manager->cancel(ids[0]));
        waitEnded(manager, ids, 120000);
        QCOMPARE(RunStore(ws_).run(ids[0])->state, RunState::Cancelled);
        QCOMPARE(RunStore(ws_).run(ids[1])->state, RunState::Cancelled);
        QCOMPARE(RunStore(ws_).run(ids[2])->state, RunState::Finished); // the pack went on after the cancels
        QCOMPARE(packing->packsStarted(), 1);
        // The running trial checkpointed before stopping: it can be resumed.
        QVERIFY(QDir(QDir(ws_.runDirectory(ids[0])).filePath(QStringLiteral("checkpoints")))
                    .entryList(QDir::Files | QDir::NoDotAndDotDot)
                    .size() > 0);
        delete manager;
    }
};

QTEST_GUILESS_MAIN(TestTrialPacking)
#include "tst_trial_packing.moc"
