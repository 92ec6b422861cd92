// SweepController in-process with the real diamond-train (spirals, 1 thread): pause keeps new trials from
// starting while the running one finishes; resume continues to completion; the state survives a reload.
#include "app/sweep/sweep_controller.h"
#include "common/test_paths.h"

#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;
using namespace diamond::app::sweep;

class TestItSweepController : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static QString engine() {
        return qEnvironmentVariableIsSet("DIAMOND_TRAIN") ? qEnvironmentVariable("DIAMOND_TRAIN")
                                                          : diamond::test::binary(QStringLiteral("diamond-train"));
    }

    static QJsonObject document(const QString &name, int trials) {
        return {
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), name},
            {QStringLiteral("spec"), diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))},
            {QStringLiteral("config"),
             diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json"))},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(
                 R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.001,"high":0.05}])")
                 .array()},
            {QStringLiteral("algorithm"), QStringLiteral("random")},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("loss")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), trials},
                                                   {QStringLiteral("max_concurrent"), 1},
                                                   {QStringLiteral("budget_per_trial"), 2}}}};
    }

private Q_SLOTS:
    void pauseResumeAndReload() {
        QVERIFY(dir_.isValid());
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws"))));
        QString error;
        const QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QStringLiteral("paused")},
            {QStringLiteral("spec"), diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))},
            {QStringLiteral("config"),
             diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json"))},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(
                 R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.001,"high":0.05}])")
                 .array()},
            {QStringLiteral("algorithm"), QStringLiteral("random")},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("loss")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), 3},
                                                   {QStringLiteral("max_concurrent"), 1},
                                                   {QStringLiteral("budget_per_trial"), 2}}}};
        const auto def = SweepDefinition::fromJson(doc, {}, &error);
        QVERIFY2(def, qPrintable(error));

        SweepController c(ws);
        const QString engine = qEnvironmentVariableIsSet("DIAMOND_TRAIN")
                                   ? qEnvironmentVariable("DIAMOND_TRAIN")
                                   : diamond::test::binary(QStringLiteral("diamond-train"));
        c.setEnginePath(engine);
        c.setPollInterval(100);
        const auto id = c.create(*def);
        QVERIFY2(id, qPrintable(c.errorString()));
        QSignalSpy started(&c, &SweepController::trialStarted);
        QSignalSpy ended(&c, &SweepController::trialEnded);
        QSignalSpy finished(&c, &SweepController::finished);
        QVERIFY2(c.start(), qPrintable(c.errorString()));
        QCOMPARE(started.size(), 1);
        c.pause();
        QCOMPARE(c.state(), QStringLiteral("paused"));
        QVERIFY(ended.wait(60000)); // the running trial finishes its budget
        QTest::qWait(1500);
        QCOMPARE(started.size(), 1); // nothing new while paused
        QCOMPARE(c.trials().size(), 1);
        QCOMPARE(c.trials().first().state, QStringLiteral("completed"));

        c.resume();
        QVERIFY(finished.wait(120000));
        QCOMPARE(c.state(), QStringLiteral("completed"));
        QCOMPARE(started.size(), 3);
        QCOMPARE(c.usedBudget(), 6.0);

        // A fresh controller reads the same state back.
        SweepController again(ws);
        QVERIFY(again.load(*id));
        QCOMPARE(again.state(), QStringLiteral("completed"));
        QCOMPARE(again.algorithm()->createdTrials(), 3);
        QVERIFY(again.algorithm()->bestTrial().has_value());
        QVERIFY(!again.start()); // a completed sweep does not start again
    }

    void adoptsTheRunOfACrashBetweenRowAndStart() {
        // A controller died after writing trial 0's row and creating its run, before linking and starting it:
        // the next controller must adopt that run instead of creating a second one.
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws2"))));
        QString error;
        const auto def = SweepDefinition::fromJson(document(QStringLiteral("adopt"), 2), {}, &error);
        QVERIFY2(def, qPrintable(error));
        qint64 id = 0, orphanRun = 0;
        {
            SweepController first(ws);
            id = first.create(*def).value_or(0);
            QVERIFY(id > 0);
            const Job job = first.algorithm()->next();
            QCOMPARE(job.kind, Job::NewTrial);
            SweepStore store(ws);
            TrialRow row;
            row.sweepId = id;
            row.index = job.trial;
            row.params = job.params;
            row.state = QStringLiteral("pending");
            row.budget = job.budget;
            QVERIFY(store.insertTrial(row));
            QJsonObject spec, config;
            QVERIFY(def->trialDocuments(job.params, job.budget, &spec, &config, &error));
            RunStore runs(ws);
            const auto sweep = store.sweep(id);
            const auto run = runs.createRun(sweep->projectId, sweep->architectureVersionId,
                                            QStringLiteral("adopt [sweep %1, trial 0]").arg(id), config);
            QVERIFY(run);
            orphanRun = run->id;
            QVERIFY(!store.insertTrial(row)); // the index is unique per sweep
        }
        SweepController second(ws);
        second.setEnginePath(engine());
        QSignalSpy finished(&second, &SweepController::finished);
        QVERIFY(second.load(id));
        QVERIFY2(second.start(), qPrintable(second.errorString()));
        QVERIFY(second.isFinished() || finished.wait(120000));
        QCOMPARE(second.state(), QStringLiteral("completed"));
        const QList<TrialRow> trials = second.trials();
        QCOMPARE(trials.size(), 2);
        QCOMPARE(trials.first().runId, orphanRun);
        QCOMPARE(trials.first().state, QStringLiteral("completed"));
        QCOMPARE(RunStore(ws).runs().size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestItSweepController)
#include "tst_it_sweep_controller.moc"
