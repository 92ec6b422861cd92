// JobChainChart (ui/run/job_chain_chart.h): the plan's chain of jobs as rows on one time axis — one row per job,
// each starting where the one before ends, the checkpoint on the signal in every job but the last; past six jobs
// the last row stands for the rest and ends where the last job does; a run on this computer has no time limit to
// draw; an empty plan draws nothing.
#include "ui/run/job_chain_chart.h"

#include <QJsonObject>
#include <QtTest>

using namespace diamond;

class TestJobChainChart : public QObject {
    Q_OBJECT

    static QJsonObject plan(int jobs, qint64 steps, qint64 stepsPerJob, double predicted,
                            const QString &target = QStringLiteral("hpc")) {
        return {{QStringLiteral("target"), target},
                {QStringLiteral("jobs"), jobs},
                {QStringLiteral("steps"), steps},
                {QStringLiteral("chain"), QJsonObject{{QStringLiteral("steps_per_job"), stepsPerJob},
                                                      {QStringLiteral("startup_s"), 60.0},
                                                      {QStringLiteral("checkpoint_s"), 20.0},
                                                      {QStringLiteral("time_limit_s"), 3600.0},
                                                      {QStringLiteral("predicted_s"), predicted}}}};
    }

private Q_SLOTS:
    void oneRowPerJob() {
        ui::JobChainChart chart;
        // 3 jobs: 1200 + 1200 + 600 steps; 3 start-ups of 60 s, the rest shared by steps.
        const double predicted = 3 * 60 + 3000 * 2.5;
        chart.setPlan(plan(3, 3000, 1200, predicted));
        const auto &bars = chart.bars();
        QCOMPARE(bars.size(), 3);
        QCOMPARE(bars.at(0).start, 0.0);
        QCOMPARE(bars.at(0).label, QStringLiteral("Job 1"));
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(bars.at(i).startup, 60.0);
            QCOMPARE(bars.at(i).limit, 3600.0);
        }
        QCOMPARE(bars.at(0).compute + bars.at(0).checkpoint, 1200 * 2.5);
        QCOMPARE(bars.at(0).checkpoint, 20.0);
        QCOMPARE(bars.at(1).start, 60 + 1200 * 2.5);
        QCOMPARE(bars.at(2).checkpoint, 0.0); // the last job ends with the run, not on a signal
        QCOMPARE(bars.at(2).compute, 600 * 2.5);
        const double end = bars.at(2).start + 60 + 600 * 2.5;
        QCOMPARE(end, predicted);
        QCOMPARE(chart.totalSeconds(), bars.at(2).start + 3600); // the last job's time limit frame
        QVERIFY(chart.toolTip().contains(QStringLiteral("3 job")));
        QVERIFY(!chart.grab().isNull());
    }

    void manyJobsFoldIntoTheLastRow() {
        ui::JobChainChart chart;
        const double predicted = 10 * 60 + 10000 * 1.0;
        chart.setPlan(plan(10, 10000, 1000, predicted));
        const auto &bars = chart.bars();
        QCOMPARE(bars.size(), ui::JobChainChart::kMaxRows);
        QCOMPARE(bars.last().label, QStringLiteral("Jobs 6–10"));
        QCOMPARE(bars.last().start, 5 * (60 + 1000.0));
        QCOMPARE(bars.last().start + bars.last().startup + bars.last().compute + bars.last().checkpoint, predicted);
        QCOMPARE(bars.last().limit, 0.0);
        QCOMPARE(chart.sizeHint().height(), chart.minimumSizeHint().height());
    }

    void thisComputerHasNoTimeLimit() {
        ui::JobChainChart chart;
        chart.setPlan(plan(1, 500, 500, 560, QStringLiteral("local")));
        QCOMPARE(chart.bars().size(), 1);
        QCOMPARE(chart.bars().at(0).limit, 0.0);
        QCOMPARE(chart.totalSeconds(), 560.0);
    }

    void anEmptyPlanDrawsNothing() {
        ui::JobChainChart chart;
        chart.setPlan(plan(2, 100, 50, 200));
        chart.setPlan({});
        QVERIFY(chart.bars().isEmpty());
        QCOMPARE(chart.totalSeconds(), 0.0);
        chart.resize(300, 60);
        QVERIFY(!chart.grab().isNull());
        chart.setPlan(plan(2, 0, 0, 0)); // no steps: nothing to draw, no division by zero
        QVERIFY(chart.bars().isEmpty());
    }
};

QTEST_MAIN(TestJobChainChart)
#include "tst_job_chain_chart.moc"
