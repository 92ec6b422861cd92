// placeTrial(): the open target with the earliest predicted finish (queue wait + budget × measured seconds per
// unit), never a down or full one; ties to fewer in flight, then to where the trial's checkpoint is.
#include "app/sweep/trial_placement.h"

#include <QtTest>

using namespace diamond::app::sweep;

class TestTrialPlacement : public QObject {
    Q_OBJECT

    static TargetStanding standing(const QString &name, int inFlight = 0, std::optional<double> wait = {},
                                   std::optional<double> perUnit = {}) {
        TargetStanding t;
        t.name = name;
        t.inFlight = inFlight;
        t.limit = 3;
        t.queueWaitSeconds = wait;
        t.secondsPerUnit = perUnit;
        return t;
    }

private Q_SLOTS:
    void earliestFinishWins() {
        // alpha: no wait, 2 s per unit -> 20 s; beta: 5 s wait, 1 s per unit -> 15 s
        const auto p = placeTrial(
            {standing(QStringLiteral("alpha"), 0, 0.0, 2.0), standing(QStringLiteral("beta"), 2, 5.0, 1.0)}, 10);
        QVERIFY(p);
        QCOMPARE(p->target, QStringLiteral("beta"));
        QCOMPARE(p->predictedFinishSeconds, 15.0);
        QVERIFY2(p->reason.contains(QLatin1String("alpha: finish in 20 s")), qPrintable(p->reason));
    }

    void aLongQueueLosesToAFreeCluster() {
        const auto p = placeTrial({standing(QStringLiteral("alpha"), 0, 3600.0), standing(QStringLiteral("beta"))}, 10);
        QVERIFY(p);
        QCOMPARE(p->target, QStringLiteral("beta"));
    }

    void unmeasuredTargetsUseTheMeanSpeed() {
        // beta unmeasured: predicted at alpha's 1 s/unit, so alpha's 30 s wait makes beta first
        const auto p =
            placeTrial({standing(QStringLiteral("alpha"), 0, 30.0, 1.0), standing(QStringLiteral("beta"))}, 10);
        QVERIFY(p);
        QCOMPARE(p->target, QStringLiteral("beta"));
        QCOMPARE(p->predictedFinishSeconds, 10.0);
    }

    void downAndFullTargetsAreSkipped() {
        TargetStanding down = standing(QStringLiteral("alpha"));
        down.down = true;
        TargetStanding full = standing(QStringLiteral("beta"), 3);
        QVERIFY(!placeTrial({down, full}, 10));
        const auto p = placeTrial({down, full, standing(QStringLiteral("gamma"), 0, 900.0)}, 10);
        QVERIFY(p);
        QCOMPARE(p->target, QStringLiteral("gamma"));
        QVERIFY2(p->reason.contains(QLatin1String("alpha: unreachable")) &&
                     p->reason.contains(QLatin1String("beta: full (3 of 3 in flight)")),
                 qPrintable(p->reason));
    }

    void tiesGoToFewerInFlightThenToThePreferred() {
        auto p = placeTrial({standing(QStringLiteral("alpha"), 2), standing(QStringLiteral("beta"), 1)}, 10);
        QCOMPARE(p->target, QStringLiteral("beta"));
        p = placeTrial({standing(QStringLiteral("alpha"), 1), standing(QStringLiteral("beta"), 1)}, 10,
                       QStringLiteral("beta"));
        QCOMPARE(p->target, QStringLiteral("beta"));
        p = placeTrial({standing(QStringLiteral("alpha"), 1), standing(QStringLiteral("beta"), 1)}, 10);
        QCOMPARE(p->target, QStringLiteral("alpha"));
    }
};

QTEST_GUILESS_MAIN(TestTrialPlacement)
#include "tst_trial_placement.moc"
