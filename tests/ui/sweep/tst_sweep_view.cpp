// SweepViewPage following a real sweep (spirals, real diamond-train): the trials table fills from the
// controller's signals (coalesced), the scatter, best-so-far line and parallel coordinates get every trial,
// importance is computed, clicking a trial asks for its run, "Promote best" creates a draft run with the best
// trial's parameters and the full budget. Renders build/screenshots/sweep.png.
#include "ui/sweep/sweep_plots.h"
#include "ui/sweep/sweep_trials_model.h"
#include "ui/sweep/sweep_view_page.h"

#include "common/test_paths.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using diamond::app::RunService;
using namespace diamond::app;
using namespace diamond::app::sweep;
using namespace diamond::ui::sweep;

class TestSweepView : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static QJsonObject readJson(const QString &relative) {
        QFile f(diamond::test::sourcePath(relative));
        if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(relative));
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    static QString engine() {
        return qEnvironmentVariableIsSet("DIAMOND_TRAIN") ? qEnvironmentVariable("DIAMOND_TRAIN")
                                                          : diamond::test::binary(QStringLiteral("diamond-train"));
    }

private Q_SLOTS:
    void followsARealSweep() {
        QVERIFY(dir_.isValid());
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("ws"))));
        QJsonObject config = readJson(QStringLiteral("resources/examples/spirals/run.json"));
        QJsonObject data = config.value(QStringLiteral("data")).toObject();
        data.insert(QStringLiteral("samples"), 1500);
        config.insert(QStringLiteral("data"), data);
        const QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QStringLiteral("spirals-view")},
            {QStringLiteral("project"), QStringLiteral("Sweeps")},
            {QStringLiteral("spec"), readJson(QStringLiteral("resources/examples/spirals/spec.json"))},
            {QStringLiteral("config"), config},
            {QStringLiteral("space"), QJsonDocument::fromJson(R"([
                {"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.0005,"high":0.2},
                {"name":"width","target":"spec:fc1.out_features","type":"int","low":4,"high":96,"log":true},
                {"name":"optimizer","target":"optimizer.name","type":"choice","values":["adam","sgd"]}])")
                                          .array()},
            {QStringLiteral("algorithm"), QStringLiteral("random")},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                      {QStringLiteral("mode"), QStringLiteral("max")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), 6},
                                                   {QStringLiteral("max_concurrent"), 2},
                                                   {QStringLiteral("budget_per_trial"), 4}}},
            {QStringLiteral("seed"), 3}};
        QString error;
        const auto def = SweepDefinition::fromJson(doc, {}, &error);
        QVERIFY2(def, qPrintable(error));

        RunService service(ws);
        service.setEnginePath(engine());
        const auto id = service.createSweep(*def);
        QVERIFY2(id, qPrintable(service.errorString()));

        SweepViewPage page(service);
        page.resize(1400, 900);
        QAbstractItemModelTester modelTester(page.trialsModel(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(page.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY2(page.showSweep(*id), qPrintable(page.errorString()));
        QVERIFY(!page.controller());
        QCOMPARE(page.trialsModel()->rowCount(), 0);
        QCOMPARE(page.trialsModel()->columnCount(), 4 + 3 + 3);
        page.show();

        // The page follows the controller as soon as the service starts it (the first trials start at once).
        SweepController *controller = service.controlSweep(*id);
        QVERIFY2(controller, qPrintable(service.errorString()));
        QCOMPARE(page.controller(), controller);
        QSignalSpy finished(controller, &SweepController::finished);
        QSignalSpy started(controller, &SweepController::trialStarted);
        QSignalSpy reported(controller, &SweepController::trialReported);
        QSignalSpy ended(controller, &SweepController::trialEnded);
        bool sawRunningRow = false;
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        bool midShot = false;
        QElapsedTimer timer;
        timer.start();
        while (finished.isEmpty() && timer.elapsed() < 300000) {
            finished.wait(300);
            for (int r = 0; r < page.trialsModel()->rowCount(); ++r)
                sawRunningRow |= page.trialsModel()->trial(r).state == QLatin1String("running");
            if (!midShot && reported.size() >= 3 && finished.isEmpty()) {
                QTest::qWait(300);
                midShot = page.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/sweep-mid.png"));
            }
            QVERIFY2(started.size() <= 6, "no more trials than max_trials");
        }
        QVERIFY2(!finished.isEmpty(), "the sweep did not finish in 5 minutes");
        QCOMPARE(finished.first().first().toString(), QStringLiteral("completed"));
        QVERIFY(sawRunningRow);
        QTest::qWait(400); // the coalesced refresh after the last event

        // table
        SweepTrialsModel *model = page.trialsModel();
        QCOMPARE(model->rowCount(), 6);
        const int events = int(started.size() + reported.size() + ended.size());
        QVERIFY2(page.refreshCount() < events,
                 qPrintable(QStringLiteral("%1 refreshes for %2 events").arg(page.refreshCount()).arg(events)));
        QList<TrialRow> trials = controller->trials();
        QCOMPARE(trials.size(), 6);
        for (int r = 0; r < 6; ++r) {
            const TrialRow &t = model->trial(r);
            QCOMPARE(t.state, QStringLiteral("completed"));
            QVERIFY(t.objective.has_value());
            QVERIFY(*t.objective >= 0 && *t.objective <= 1);
            QCOMPARE(model->data(model->index(r, model->objectiveColumn())).toString(),
                     QString::number(*t.objective, 'f', 4));
            QCOMPARE(model->data(model->index(r, model->runColumn())).toLongLong(), t.runId);
        }
        // sorting by objective (descending) puts the best first
        page.trialsView()->sortByColumn(model->objectiveColumn(), Qt::DescendingOrder);
        double top = -1;
        for (const TrialRow &t : trials)
            top = std::max(top, *t.objective);
        QCOMPARE(page.proxyModel()->index(0, model->objectiveColumn()).data(SweepTrialsModel::SortRole).toDouble(),
                 top);

        // scatter and best-so-far line
        ObjectiveScatterPlot *scatter = page.scatter();
        QCOMPARE(scatter->points().size(), 6);
        QCOMPARE(scatter->bestSoFar().size(), 6);
        for (int i = 1; i < 6; ++i)
            QVERIFY(scatter->bestSoFar().at(i).y() >= scatter->bestSoFar().at(i - 1).y());
        QCOMPARE(scatter->bestSoFar().last().y(), top);

        // parallel coordinates: one line per trial, positions normalised, log axis for lr
        ParallelCoordinatesPlot *pc = page.parallelCoordinates();
        QCOMPARE(pc->axisCount(), 4);
        QCOMPARE(pc->lineCount(), 6);
        for (const TrialRow &t : trials) {
            const QList<double> n = pc->normalised(t.index);
            QCOMPARE(n.size(), 4);
            for (double v : n)
                QVERIFY(v >= 0 && v <= 1);
            const double lr = t.params.value(QStringLiteral("lr")).toDouble();
            QVERIFY(std::abs(n.at(0) - std::log(lr / 0.0005) / std::log(0.2 / 0.0005)) < 1e-9);
        }

        // importance
        const QList<ParameterImportance> imp = page.importanceBars()->importance();
        QCOMPARE(imp.size(), 3);
        for (const ParameterImportance &p : imp)
            QVERIFY(p.importance >= 0 && p.importance <= 1);
        QVERIFY(std::any_of(imp.cbegin(), imp.cend(), [](const ParameterImportance &p) { return p.importance > 0; }));

        // clicking a trial asks for its run
        QSignalSpy open(&page, &SweepViewPage::openRunRequested);
        const QRect cell = page.trialsView()->visualRect(page.proxyModel()->index(0, 0));
        QTest::mouseClick(page.trialsView()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(open.size(), 1);
        const qint64 clickedRun = open.first().first().toLongLong();
        QVERIFY(std::any_of(trials.cbegin(), trials.cend(), [&](const TrialRow &t) { return t.runId == clickedRun; }));

        // promote best
        QSignalSpy created(&page, &SweepViewPage::runCreated);
        const auto runId = page.promoteBest();
        QVERIFY2(runId, qPrintable(page.errorString()));
        QCOMPARE(created.size(), 1);
        QCOMPARE(created.first().first().toLongLong(), *runId);
        const TrialRow *best = nullptr;
        for (const TrialRow &t : trials)
            if (!best || *t.objective > *best->objective) best = &t;
        RunStore runs(ws);
        const auto run = runs.run(*runId);
        QVERIFY(run);
        QCOMPARE(run->state, RunState::Draft);
        QCOMPARE(run->config.value(QStringLiteral("epochs")).toInt(), 4);
        QCOMPARE(run->config.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("lr")),
                 best->params.value(QStringLiteral("lr")));
        QCOMPARE(run->config.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("name")),
                 best->params.value(QStringLiteral("optimizer")));
        const auto version = runs.architectureVersion(run->architectureVersionId);
        QVERIFY(version);
        const QJsonObject spec = QJsonDocument::fromJson(version->specJson).object();
        for (const QJsonValue &n : spec.value(QStringLiteral("nodes")).toArray())
            if (n.toObject().value(QStringLiteral("id")).toString() == QLatin1String("fc1"))
                QCOMPARE(n.toObject().value(QStringLiteral("params")).toObject().value(QStringLiteral("out_features")),
                         best->params.value(QStringLiteral("width")));
        QVERIFY(run->name.contains(QStringLiteral("best (trial %1)").arg(best->index)));

        // the same sweep shown from the database (no controller) reads the same rows
        RunService otherService(ws);
        SweepViewPage again(otherService);
        QVERIFY(again.showSweep(*id));
        QVERIFY(!again.controller());
        QCOMPARE(again.trialsModel()->rowCount(), 6);
        QCOMPARE(again.scatter()->bestSoFar().last().y(), top);

        QVERIFY(page.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/sweep.png")));
    }

    void ashaSweepShowsRungs() {
        // ASHA (eta 3, r 1, R 9: rungs 1, 3, 9 epochs), 9 trials: the table shows each trial's rung and budget,
        // the best trial is one at the highest rung reached.
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("asha"))));
        QJsonObject config = readJson(QStringLiteral("resources/examples/spirals/run.json"));
        QJsonObject data = config.value(QStringLiteral("data")).toObject();
        data.insert(QStringLiteral("samples"), 1500);
        config.insert(QStringLiteral("data"), data);
        const QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("name"), QStringLiteral("spirals-asha")},
            {QStringLiteral("spec"), readJson(QStringLiteral("resources/examples/spirals/spec.json"))},
            {QStringLiteral("config"), config},
            {QStringLiteral("space"), QJsonDocument::fromJson(R"([
                {"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.0005,"high":0.2},
                {"name":"width","target":"spec:fc1.out_features","type":"int","low":4,"high":96,"log":true},
                {"name":"optimizer","target":"optimizer.name","type":"choice","values":["adam","sgd"]}])")
                                          .array()},
            {QStringLiteral("algorithm"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("asha")}, {QStringLiteral("eta"), 3}}},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                      {QStringLiteral("mode"), QStringLiteral("max")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), 9},
                                                   {QStringLiteral("max_concurrent"), 2},
                                                   {QStringLiteral("budget_per_trial"), 9}}},
            {QStringLiteral("seed"), 4}};
        QString error;
        const auto def = SweepDefinition::fromJson(doc, {}, &error);
        QVERIFY2(def, qPrintable(error));
        RunService service(ws);
        service.setEnginePath(engine());
        SweepViewPage page(service);
        page.resize(1400, 900);
        QAbstractItemModelTester tester(page.proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        SweepController *controller = service.startSweep(*def);
        QVERIFY2(controller, qPrintable(service.errorString()));
        QVERIFY(page.showSweep(controller->sweepId()));
        QCOMPARE(page.controller(), controller);
        page.show();
        QSignalSpy finished(controller, &SweepController::finished);
        QVERIFY(controller->isFinished() || finished.wait(300000));
        QTest::qWait(400);
        SweepTrialsModel *model = page.trialsModel();
        QCOMPARE(model->rowCount(), 9);
        int maxRung = 0;
        for (int r = 0; r < model->rowCount(); ++r) {
            const TrialRow &t = model->trial(r);
            maxRung = std::max(maxRung, t.rung);
            QCOMPARE(model->data(model->index(r, 2)).toInt(), t.rung);
            QCOMPARE(t.budget, std::pow(3.0, t.rung));
        }
        QVERIFY(maxRung >= 1); // at least one promotion
        const auto best = bestTrialRow(controller->trials(), true);
        QVERIFY(best);
        QCOMPARE(reachedRung(controller->trials().at(*best)), maxRung);
        QCOMPARE(page.parallelCoordinates()->lineCount(), 9);
        QVERIFY(page.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/sweep-asha.png")));
    }

    void takesOverASweepWithoutController() {
        // A sweep recorded but not run by any live process (a dead controller): the page shows it from the
        // database; Resume continues it in this process, and Stop of another one stops it here.
        Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("takeover"))));
        QJsonObject doc{{QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
                        {QStringLiteral("name"), QStringLiteral("orphan")},
                        {QStringLiteral("spec"), readJson(QStringLiteral("resources/examples/spirals/spec.json"))},
                        {QStringLiteral("config"), readJson(QStringLiteral("resources/examples/spirals/run.json"))},
                        {QStringLiteral("space"),
                         QJsonDocument::fromJson(
                             R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":0.001,"high":0.05}])")
                             .array()},
                        {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("loss")}}},
                        {QStringLiteral("limits"),
                         QJsonObject{{QStringLiteral("max_trials"), 3}, {QStringLiteral("budget_per_trial"), 1}}}};
        QString error;
        const auto def = SweepDefinition::fromJson(doc, {}, &error);
        QVERIFY2(def, qPrintable(error));
        RunService service(ws);
        service.setEnginePath(engine());
        const qint64 resumeId = service.createSweep(*def).value_or(0);
        const qint64 stopId = service.createSweep(*def).value_or(0);
        QVERIFY(resumeId > 0 && stopId > 0);
        SweepStore store(ws);
        QVERIFY(store.setSweepState(resumeId, QStringLiteral("paused")));

        SweepViewPage page(service);
        QVERIFY(page.showSweep(resumeId));
        QVERIFY(!page.controller());
        auto *pause = page.findChild<QPushButton *>(QStringLiteral("pauseButton"));
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QTest::mouseClick(pause, Qt::LeftButton);
        QVERIFY(page.controller());
        QSignalSpy finished(page.controller(), &SweepController::finished);
        QVERIFY(page.controller()->isFinished() || finished.wait(120000));
        QTest::qWait(300);
        QCOMPARE(store.sweep(resumeId)->state, QStringLiteral("completed"));
        QCOMPARE(page.trialsModel()->rowCount(), 3);

        SweepViewPage other(service);
        QVERIFY(other.showSweep(stopId));
        QTest::mouseClick(other.findChild<QPushButton *>(QStringLiteral("stopButton")), Qt::LeftButton);
        QVERIFY(other.controller());
        QTRY_COMPARE_WITH_TIMEOUT(store.sweep(stopId)->state, QStringLiteral("stopped"), 60000);
        QVERIFY(!other.findChild<QPushButton *>(QStringLiteral("stopButton"))->isEnabled());
    }
};

QTEST_MAIN(TestSweepView)
#include "tst_sweep_view.moc"
