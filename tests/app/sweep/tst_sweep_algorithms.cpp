// Sweep algorithms on scripted objectives: the grid covers the space once, TPE concentrates where a toy
// objective is good and proposes the l/g maximiser, ASHA's promotions follow the paper's rule on a scripted
// stream (hand-computed), Hyperband's brackets match Li et al. 2018's table for R = 81, eta = 3.
#include "app/sweep/algorithm.h"
#include "app/sweep/tpe.h"

#include <QJsonDocument>
#include <QSet>
#include <QtTest>

#include <cmath>

using namespace diamond::app::sweep;

namespace {

SearchSpace space(const char *json) {
    QString error;
    auto s = SearchSpace::fromJson(QJsonDocument::fromJson(json).array(), &error);
    if (!s) qWarning("%s", qPrintable(error));
    return s.value_or(SearchSpace());
}

const char *kUnit = R"([{"name":"x","target":"optimizer.lr","type":"uniform","low":0,"high":1}])";

/// Runs an algorithm sequentially (one worker) on f for n trials; returns the proposed x in order.
QList<double> runSequential(SweepAlgorithm &algo, int n, double (*f)(double)) {
    QList<double> xs;
    for (int i = 0; i < n; ++i) {
        const Job job = algo.next();
        if (job.kind != Job::NewTrial) break;
        algo.start(job);
        const double x = job.params.value(QStringLiteral("x")).toDouble();
        xs.append(x);
        algo.report(job.trial, job.rung, f(x));
    }
    return xs;
}

double quadratic(double x) { return (x - 0.3) * (x - 0.3); }

Job expectNext(const SweepAlgorithm &algo, Job::Kind kind, int trial, int rung = 0) {
    const Job job = algo.next();
    if (job.kind != kind || job.trial != trial || job.rung != rung)
        qWarning("expected kind %d trial %d rung %d, got kind %d trial %d rung %d", kind, trial, rung, job.kind,
                 job.trial, job.rung);
    return job;
}

} // namespace

class TestSweepAlgorithms : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void gridCoversTheSpaceExactlyOnce() {
        const SearchSpace s = space(R"([{"target":"optimizer.name","type":"choice","values":["adam","sgd","rmsprop"]},
                                       {"target":"batch_size","type":"int","low":8,"high":64,"log":true,"grid_points":4},
                                       {"target":"optimizer.lr","type":"log_uniform","low":1e-4,"high":1e-1}])");
        AlgorithmSettings settings;
        settings.name = QStringLiteral("grid");
        settings.maxTrials = 1000;
        settings.gridPoints = 5;
        GridAlgorithm grid(s, settings, 0);
        QCOMPARE(grid.plannedTrials(), 3 * 4 * 5);
        QSet<QString> seen;
        for (;;) {
            const Job job = grid.next();
            if (job.kind == Job::Done) break;
            QCOMPARE(job.kind, Job::NewTrial);
            grid.start(job);
            seen.insert(QString::fromUtf8(QJsonDocument(job.params).toJson(QJsonDocument::Compact)));
            grid.report(job.trial, 0, 1.0);
        }
        QCOMPARE(seen.size(), 60);
        QCOMPARE(grid.createdTrials(), 60);
    }

    void randomIsDeterministicAndBounded() {
        AlgorithmSettings settings;
        settings.maxTrials = 20;
        RandomAlgorithm a(space(kUnit), settings, 11), b(space(kUnit), settings, 11), c(space(kUnit), settings, 12);
        const QList<double> xa = runSequential(a, 20, quadratic), xb = runSequential(b, 20, quadratic),
                            xc = runSequential(c, 20, quadratic);
        QCOMPARE(xa, xb);
        QVERIFY(xa != xc);
        QCOMPARE(xa.size(), 20);
        QCOMPARE(a.next().kind, Job::Done);
    }

    void tpeConcentratesWhereTheObjectiveIsGood() {
        // 1-D quadratic with its minimum at 0.3; "good" region |x - 0.3| < 0.1 (20% of the range).
        AlgorithmSettings settings;
        settings.maxTrials = 50;
        settings.startupTrials = 10;
        int tpeGood = 0, randomGood = 0, total = 0;
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            settings.name = QStringLiteral("tpe");
            TpeAlgorithm tpe(space(kUnit), settings, seed);
            settings.name = QStringLiteral("random");
            RandomAlgorithm random(space(kUnit), settings, seed);
            const QList<double> xt = runSequential(tpe, 50, quadratic), xr = runSequential(random, 50, quadratic);
            for (int i = 20; i < 50; ++i) {
                tpeGood += std::abs(xt.at(i) - 0.3) < 0.1;
                randomGood += std::abs(xr.at(i) - 0.3) < 0.1;
                ++total;
            }
        }
        const double tpeFraction = double(tpeGood) / total, randomFraction = double(randomGood) / total;
        qInfo("good-region fraction of proposals 21-50: TPE %.2f, random %.2f", tpeFraction, randomFraction);
        QVERIFY(tpeFraction > 0.5);
        QVERIFY(tpeFraction > 2 * randomFraction);
    }

    void tpeProposesTheMaximumOfLOverG() {
        AlgorithmSettings settings;
        settings.name = QStringLiteral("tpe");
        settings.maxTrials = 30;
        settings.startupTrials = 10;
        TpeAlgorithm tpe(space(kUnit), settings, 3);
        runSequential(tpe, 15, quadratic);
        const Job job = tpe.next();
        QCOMPARE(job.kind, Job::NewTrial);
        const QList<QJsonObject> candidates = tpe.candidatesFor(job.trial);
        QCOMPARE(candidates.size(), settings.candidates);
        double best = -1e300;
        for (const QJsonObject &c : candidates)
            best = std::max(best, *tpe.score(c));
        QCOMPARE(*tpe.score(job.params), best);

        // The score is log l - log g from the densities of the good and bad observations.
        std::vector<double> good, bad;
        tpe.split(0, &good, &bad);
        QCOMPARE(int(good.size()), 4); // ceil(0.25 * 15)
        QCOMPARE(int(good.size() + bad.size()), 15);
        const SearchParameter &p = tpe.space().parameters().first();
        const ParzenEstimator l(p, good, 1.0), g(p, bad, 1.0);
        const double x = job.params.value(QStringLiteral("x")).toDouble();
        QVERIFY(std::abs(*tpe.score(job.params) - (l.logPdf(x) - g.logPdf(x))) < 1e-12);
        // Good observations are the ones nearest the optimum, and l is denser there than g.
        for (double v : good)
            for (double w : bad)
                QVERIFY(quadratic(v) <= quadratic(w));
        QVERIFY(l.logPdf(0.3) - g.logPdf(0.3) > l.logPdf(0.9) - g.logPdf(0.9));
        // Densities integrate to 1 on the bounds (truncated kernels), by the midpoint rule.
        double integral = 0;
        for (int i = 0; i < 10000; ++i)
            integral += std::exp(l.logPdf((i + 0.5) / 10000.0)) / 10000.0;
        QVERIFY2(std::abs(integral - 1.0) < 1e-3, qPrintable(QString::number(integral)));
    }

    void ashaFollowsThePromotionRule() {
        // eta = 3, r = 1, R = 9: rungs 1, 3, 9. Losses are scripted; expectations computed by hand from
        // Algorithm 2 of Li et al. 2020: promote the best of the top floor(n_k / eta) at rung k not yet promoted,
        // from the top rung down; otherwise start a new trial.
        AlgorithmSettings settings;
        settings.name = QStringLiteral("asha");
        settings.maxTrials = 7;
        settings.maxResource = 9;
        settings.minResource = 1;
        settings.eta = 3;
        AshaAlgorithm asha(space(kUnit), settings, 1, false);
        QCOMPARE(asha.topRung(asha.sMax()), 2);
        QCOMPARE(asha.rungBudget(asha.sMax(), 0), 1.0);
        QCOMPARE(asha.rungBudget(asha.sMax(), 2), 9.0);
        auto step = [&](Job::Kind kind, int trial, int rung, double loss) {
            const Job job = expectNext(asha, kind, trial, rung);
            QCOMPARE(job.kind, kind);
            QCOMPARE(job.trial, trial);
            QCOMPARE(job.rung, rung);
            asha.start(job);
            asha.report(trial, rung, loss);
        };
        step(Job::NewTrial, 0, 0, 5);   // rung 0: {0:5}            floor(1/3) = 0
        step(Job::NewTrial, 1, 0, 3);   // rung 0: {0:5, 1:3}       floor(2/3) = 0
        step(Job::NewTrial, 2, 0, 4);   // rung 0: 3 results -> top 1 = trial 1
        step(Job::Promote, 1, 1, 2.5);  // rung 1: {1:2.5}
        QVERIFY(!asha.isPromotable(0)); // 0 is not in the top third of rung 0
        step(Job::NewTrial, 3, 0, 1);   // rung 0: 4 results -> top 1 = trial 3
        step(Job::Promote, 3, 1, 0.5);  // rung 1: {1:2.5, 3:0.5}  floor(2/3) = 0
        step(Job::NewTrial, 4, 0, 6);   // rung 0: 5 results -> top 1 = trial 3 (promoted)
        step(Job::NewTrial, 5, 0, 2);   // rung 0: 6 results -> top 2 = trials 3, 5 -> 5 promotable
        QVERIFY(asha.isPromotable(5));
        step(Job::Promote, 5, 1, 1.5); // rung 1: 3 results -> top 1 = trial 3
        step(Job::Promote, 3, 2, 0.2); // top rung reached
        QCOMPARE(asha.trials()[3].phase, TrialPhase::Completed);
        step(Job::NewTrial, 6, 0, 0.1); // rung 0: 7 results -> top 2 = trials 6, 3 -> 6 promotable
        step(Job::Promote, 6, 1, 3.0);  // rung 1: 4 results -> top 1 = trial 3 (promoted)
        // Max trials reached, nothing running, nothing promotable: the sweep is done; the paused trials are
        // the ones the rule stopped.
        QCOMPARE(asha.next().kind, Job::Done);
        QList<int> paused;
        for (const auto &t : asha.trials())
            if (t.phase == TrialPhase::Paused) paused.append(t.index);
        QCOMPARE(paused, (QList<int>{0, 1, 2, 4, 5, 6}));
        QCOMPARE(*asha.bestTrial(), 3);
    }

    void ashaIsAsynchronous() {
        // While trials run, free workers get new trials; a result that makes a trial promotable is used at once.
        AlgorithmSettings settings;
        settings.name = QStringLiteral("asha");
        settings.maxTrials = 10;
        settings.maxResource = 9;
        settings.eta = 3;
        AshaAlgorithm asha(space(kUnit), settings, 1, false);
        Job a = asha.next(), b, c;
        asha.start(a);
        b = asha.next();
        asha.start(b);
        c = asha.next();
        asha.start(c);
        QCOMPARE(c.kind, Job::NewTrial);
        QCOMPARE(c.trial, 2);
        asha.report(2, 0, 1.0); // 1 result: no promotion yet, and two trials still run
        QCOMPARE(asha.next().kind, Job::NewTrial);
        asha.report(0, 0, 3.0);
        asha.report(1, 0, 2.0); // 3 results: trial 2 is in the top third
        const Job p = asha.next();
        QCOMPARE(p.kind, Job::Promote);
        QCOMPARE(p.trial, 2);
        QCOMPARE(p.budget, 3.0);
    }

    void hyperbandBracketsMatchThePaper() {
        // Li et al. 2018, Table 1 (R = 81, eta = 3): (n_i, r_i) per bracket s.
        const QList<HyperbandBracket> b = hyperbandBrackets(81, 1, 3);
        QCOMPARE(b.size(), 5);
        const QList<QList<QPair<int, double>>> expected{
            {{81, 1}, {27, 3}, {9, 9}, {3, 27}, {1, 81}},
            {{34, 3}, {11, 9}, {3, 27}, {1, 81}},
            {{15, 9}, {5, 27}, {1, 81}},
            {{8, 27}, {2, 81}},
            {{5, 81}},
        };
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(b.at(i).s, 4 - i);
            QCOMPARE(b.at(i).rungs, expected.at(i));
        }
        // The algorithm assigns new trials to brackets s = 4, 3, 2, 1, 0 with those sizes, then starts over.
        AlgorithmSettings settings;
        settings.name = QStringLiteral("hyperband");
        settings.maxTrials = 1000;
        settings.maxResource = 81;
        settings.eta = 3;
        AshaAlgorithm hb(space(kUnit), settings, 1, true);
        QMap<int, int> perBracket;
        for (int i = 0; i < 143; ++i) {
            const Job job = hb.next();
            QCOMPARE(job.kind, Job::NewTrial);
            QCOMPARE(job.budget, b.at(4 - job.bracket).r);
            hb.start(job);
            ++perBracket[job.bracket];
        }
        QCOMPARE(perBracket, (QMap<int, int>{{4, 81}, {3, 34}, {2, 15}, {1, 8}, {0, 5}}));
        QCOMPARE(hb.next().bracket, 4);
        QCOMPARE(hb.topRung(0), 0);
        QCOMPARE(hb.rungBudget(2, 1), 27.0);
    }

    void hyperbandPromotesWithinBrackets() {
        AlgorithmSettings settings;
        settings.name = QStringLiteral("hyperband");
        settings.maxTrials = 1000;
        settings.maxResource = 9;
        settings.eta = 3;
        AshaAlgorithm hb(space(kUnit), settings, 1, true); // brackets s=2 (n=9, r=1), s=1 (n=5, r=3), s=0 (n=3, r=9)
        for (int i = 0; i < 9; ++i) {
            const Job job = hb.next();
            QCOMPARE(job.kind, Job::NewTrial);
            QCOMPARE(job.bracket, 2);
            hb.start(job);
        }
        for (int i = 0; i < 9; ++i)
            hb.report(i, 0, 10.0 + i);
        // Trials 0, 1, 2 are the top third of bracket 2's rung 0: they are promoted, best first, before any
        // new trial starts.
        QList<int> promoted;
        for (int i = 0; i < 3; ++i) {
            const Job job = hb.next();
            QCOMPARE(job.kind, Job::Promote);
            hb.start(job);
            promoted.append(job.trial);
        }
        QCOMPARE(promoted, (QList<int>{0, 1, 2}));
        const Job next = hb.next();
        QCOMPARE(next.kind, Job::NewTrial);
        QCOMPARE(next.bracket, 1);
        QCOMPARE(next.budget, 3.0);
    }
};

QTEST_GUILESS_MAIN(TestSweepAlgorithms)
#include "tst_sweep_algorithms.moc"
