// SweepController in-process with the real diamond-train (spirals, 1 thread): pause keeps new trials from
// starting while the running one finishes; resume continues to completion; the state survives a reload.
#include "app/sweep/sweep_controller.h"
#include "common/test_paths.h"

#include <QElapsedTimer>
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
                                                   {QStringLiteral("budget_per_trial"), 2},
                                                   {QStringLiteral("packing"), false}}}};
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

    /// Runs a random sweep to completion; returns (trial index -> objective) and the wall time in seconds.
    QPair<QMap<int, double>, double> runSweep(const QString &wsName, int trials, bool packing, int concurrent,
                                              int *packs = nullptr) {
        Workspace ws;
        if (!ws.create(dir_.filePath(wsName))) return {};
        QJsonObject doc = document(wsName, trials);
        QJsonObject limits = doc.value(QStringLiteral("limits")).toObject();
        limits.insert(QStringLiteral("packing"), packing);
        limits.insert(QStringLiteral("max_concurrent"), concurrent);
        doc.insert(QStringLiteral("limits"), limits);
        doc.insert(QStringLiteral("seed"), 11);
        QString error;
        const auto def = SweepDefinition::fromJson(doc, {}, &error);
        if (!def) return {};
        SweepController c(ws);
        c.setEnginePath(engine());
        if (!c.create(*def)) return {};
        QSignalSpy finished(&c, &SweepController::finished);
        QElapsedTimer timer;
        timer.start();
        if (!c.start()) return {};
        if (!c.isFinished() && !finished.wait(600000)) return {};
        const double seconds = timer.elapsed() / 1000.0;
        QMap<int, double> objectives;
        for (const TrialRow &t : c.trials())
            if (t.state == QLatin1String("completed") && t.objective) objectives.insert(t.index, *t.objective);
        if (packs) *packs = qobject_cast<TrialExecutor *>(c.runManager()->executor())->local()->packsStarted();
        return {objectives, seconds};
    }

    void packedSweepMatchesUnpacked() {
        // The same seed proposes the same trials; a packed trial trains bit-identically to a separate process,
        // so every objective (and the best) is the same.
        int packs = 0;
        const auto packed = runSweep(QStringLiteral("packed"), 6, true, 1, &packs);
        const auto single = runSweep(QStringLiteral("single"), 6, false, 1);
        QCOMPARE(packed.first.size(), 6);
        QCOMPARE(single.first.size(), 6);
        QCOMPARE(packs, 1); // 6 trials <= trials_per_pack: one engine process
        QCOMPARE(packed.first, single.first);
        const auto best = [](const QMap<int, double> &m) { return *std::min_element(m.cbegin(), m.cend()); };
        QCOMPARE(best(packed.first), best(single.first));
    }

    void packingThroughput() {
        // 32 random trials of 2-epoch spirals: packed (16 per pack, 2 packs at a time) against one process per
        // trial (2 at a time).
        const auto packed = runSweep(QStringLiteral("tp-packed"), 32, true, 2);
        const auto single = runSweep(QStringLiteral("tp-single"), 32, false, 2);
        QCOMPARE(packed.first.size(), 32);
        QCOMPARE(single.first.size(), 32);
        QCOMPARE(packed.first, single.first);
        qInfo("32 trials: packed %.2f s (%.2f trials/s), one process per trial %.2f s (%.2f trials/s), %.1fx",
              packed.second, 32 / packed.second, single.second, 32 / single.second, single.second / packed.second);
        QVERIFY(packed.second < single.second);
    }
};

QTEST_GUILESS_MAIN(TestItSweepController)
#include "tst_it_sweep_controller.moc"
