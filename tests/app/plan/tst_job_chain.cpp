// The long-job planner's arithmetic (app/plan/job_chain.h): Young/Daly's interval, the 3.5 % overhead cap, the
// signal lead in whole minutes, how many jobs a run needs and their time limit, and inputs that cannot be planned.
#include "app/plan/job_chain.h"

#include <QtTest>

#include <cmath>

using namespace diamond::app;

class TestJobChain : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void youngDalyIntervalWithoutALimit() {
        JobChainInputs in;
        in.totalSteps = 100000;
        in.stepSeconds = 1;
        in.checkpointSeconds = 10;
        in.mtbfSeconds = 7 * 86400.0;
        const JobChainPlan p = planJobChain(in);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.jobs, 1);
        QCOMPARE(p.youngDalySeconds, std::sqrt(2.0 * 10 * 7 * 86400.0)); // 3477.6 s
        QCOMPARE(p.checkpointEverySteps, qint64(3478));
        QVERIFY(p.checkpointOverhead < 0.0029 && p.checkpointOverhead > 0.0028);
        // One job: 1.25 x (compute + checkpoints) + start-up + signal, whole minutes.
        const double expected =
            std::ceil((1.25 * 100000 * (1 + 10 / std::sqrt(2.0 * 10 * 7 * 86400.0)) + 60 + 60) / 60) * 60;
        QCOMPARE(p.timeLimitSeconds, expected);
        QCOMPARE(p.signalSeconds, 60.0);
        QCOMPARE(p.predictedSeconds, 100000.0 + 10.0 * (100000 / 3478 + 1) + 60.0);
    }

    void checkpointsNeverCostMoreThanTheCap() {
        JobChainInputs in;
        in.totalSteps = 50000;
        in.stepSeconds = 0.5;
        in.checkpointSeconds = 60;
        in.mtbfSeconds = 1000; // Young/Daly alone would checkpoint every 346 s: 17 % overhead
        const JobChainPlan p = planJobChain(in);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.youngDalySeconds, std::sqrt(2.0 * 60 * 1000));
        QCOMPARE(p.checkpointEverySteps, qint64(std::llround(60 / 0.035 / 0.5))); // 3429 steps = 1714 s
        QVERIFY2(p.checkpointOverhead <= 0.035 + 1e-4, qPrintable(QString::number(p.checkpointOverhead)));
    }

    void aLongRunBecomesAChainOfFullJobs() {
        JobChainInputs in;
        in.totalSteps = 20000;
        in.stepSeconds = 1;
        in.checkpointSeconds = 10;
        in.maxTimeLimitSeconds = 3600;
        in.startupSeconds = 60;
        const JobChainPlan p = planJobChain(in);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.signalSeconds, 60.0); // 1 + 10 + 30 s, up to a whole minute
        // 3600 - 60 start-up - 60 signal = 3480 s, of which 3480 * 3478 / 3488 computes: 3470 steps.
        QCOMPARE(p.stepsPerJob, qint64(3470));
        QCOMPARE(p.jobs, 6);
        QCOMPARE(p.timeLimitSeconds, 3600.0);
        QCOMPARE(p.checkpointEverySteps, qint64(3470)); // Young/Daly's 3478 s does not fit in a job: one per job
        QVERIFY(double(p.jobs) * double(p.stepsPerJob) >= double(in.totalSteps));
    }

    void aShortRunAsksForLessThanTheLimit() {
        JobChainInputs in;
        in.totalSteps = 1000;
        in.stepSeconds = 1;
        in.checkpointSeconds = 10;
        in.maxTimeLimitSeconds = 3600;
        const JobChainPlan p = planJobChain(in);
        QVERIFY2(p.ok, qPrintable(p.error));
        QCOMPARE(p.jobs, 1);
        QCOMPARE(p.stepsPerJob, qint64(1000));
        QCOMPARE(p.checkpointEverySteps, qint64(1000));
        QCOMPARE(p.timeLimitSeconds, std::ceil((1.25 * 1000 * (1 + 10.0 / 3478.0) + 120) / 60) * 60); // 1380 s
    }

    void theSignalLeavesTimeForAStepAndACheckpoint() {
        JobChainInputs in;
        in.totalSteps = 100;
        in.stepSeconds = 100;
        in.checkpointSeconds = 50;
        const JobChainPlan p = planJobChain(in);
        QVERIFY(p.ok);
        QCOMPARE(p.signalSeconds, 180.0); // 100 + 50 + 30 = 180
        QVERIFY(p.signalSeconds >= in.stepSeconds + in.checkpointSeconds);
    }

    void impossibleInputsSayWhy() {
        JobChainInputs in;
        in.totalSteps = 1000;
        in.stepSeconds = 1;
        in.maxTimeLimitSeconds = 60; // start-up and the signal take it all
        JobChainPlan p = planJobChain(in);
        QVERIFY(!p.ok);
        QVERIFY2(p.error.contains(QStringLiteral("60")), qPrintable(p.error));
        in.maxTimeLimitSeconds = 0;
        in.stepSeconds = 0;
        p = planJobChain(in);
        QVERIFY(!p.ok);
        QVERIFY(!p.error.isEmpty());
        in.stepSeconds = std::nan("");
        QVERIFY(!planJobChain(in).ok);
        in.stepSeconds = 1;
        in.totalSteps = 0;
        QVERIFY(!planJobChain(in).ok);
    }
};

QTEST_GUILESS_MAIN(TestJobChain)
#include "tst_job_chain.moc"
