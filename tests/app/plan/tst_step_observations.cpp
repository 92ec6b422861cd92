// Learning from finished runs (app/plan/step_observations.h): the shares of a prediction sum to 1; the correction
// comes from runs of the same kind (single- or multi-rank) with a similar make-up, needs kMinRuns of them, and is
// their weighted geometric mean ratio; "high" confidence only when they agree; the store keeps one line per run, the
// newest kMaxObservations, only the current calibration's, and skips damaged lines; a finished run is observed under
// the profile a plan would use.
#include "common/test_paths.h"

#include "app/plan/run_planner.h"
#include "app/plan/step_observations.h"
#include "app/workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace diamond;

class TestStepObservations : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static app::StepPrediction prediction(double conv, double elementwise, double overhead) {
        app::StepPrediction p;
        p.ok = true;
        p.nodes = {{QStringLiteral("c"), QStringLiteral("Conv2d"), conv, QStringLiteral("conv2d")},
                   {QStringLiteral("r"), QStringLiteral("ReLU"), elementwise, QStringLiteral("elementwise")},
                   {QStringLiteral("f"), QStringLiteral("Flatten"), 0, QStringLiteral("free")}};
        p.stepOverheadSeconds = overhead;
        p.computeSeconds = conv + elementwise;
        p.stepSeconds = conv + elementwise + overhead;
        p.samplesPerSecond = 32 / p.stepSeconds;
        p.confidence = QStringLiteral("medium");
        return p;
    }
    static app::StepObservation observed(const app::StepPrediction &p, double measured, int ranks = 1,
                                         qint64 batch = 32, qint64 run = 0) {
        app::StepObservation o;
        o.runId = run;
        o.profileMeasuredAt = QStringLiteral("2026-12-06T10:00:00Z");
        o.ranks = ranks;
        o.batch = batch;
        o.predictedSeconds = p.stepSeconds;
        o.measuredSeconds = measured;
        o.shares = app::predictionShares(p);
        o.at = QStringLiteral("2026-12-06T11:00:00Z");
        return o;
    }

private Q_SLOTS:
    void sharesSumToOne() {
        const auto s = app::predictionShares(prediction(3, 1, 0));
        QCOMPARE(s.value(QStringLiteral("conv2d")), 0.75);
        QCOMPARE(s.value(QStringLiteral("elementwise")), 0.25);
        double sum = 0;
        for (double v : s)
            sum += v;
        QCOMPARE(sum, 1.0);
        QCOMPARE(s.size(), 6);
    }

    void similarRunsCorrectThePrediction() {
        const app::StepPrediction convHeavy = prediction(0.008, 0.002, 0.0001);
        // Two convolutional runs measured 2x and 1.5x slower than predicted; a tiny-MLP-like run 1.1x.
        const QList<app::StepObservation> obs{observed(prediction(0.009, 0.002, 0.0001), 2 * 0.0111),
                                              observed(prediction(0.007, 0.002, 0.0001), 1.5 * 0.0091),
                                              observed(prediction(0, 0.0001, 0.001), 1.1 * 0.0011)};
        const app::LearnedCorrection c = app::learnedCorrection(convHeavy, 1, 32, obs);
        QCOMPARE(c.runs, 2); // the overhead-bound run is not similar
        QVERIFY2(c.factor > 1.5 && c.factor < 2.0, qPrintable(QString::number(c.factor)));
        QVERIFY(std::abs(c.spread - 2.0 / 1.5) < 1e-9);
        app::StepPrediction p = convHeavy;
        app::applyLearnedCorrection(&p, c);
        QVERIFY(std::abs(p.stepSeconds - convHeavy.stepSeconds * c.factor) < 1e-12);
        QCOMPARE(p.learnedRuns, 2);
        QCOMPARE(p.confidence, QStringLiteral("medium")); // 2.0 and 1.5 disagree by more than 25 %
        QVERIFY(p.notes.last().contains(QStringLiteral("2 similar finished run")));
        QVERIFY(p.toJson().value(QStringLiteral("learned_factor")).toDouble() > 1.5);

        // Agreeing runs: high confidence.
        const QList<app::StepObservation> agree{observed(prediction(0.009, 0.002, 0.0001), 1.30 * 0.0111),
                                                observed(prediction(0.007, 0.002, 0.0001), 1.20 * 0.0091)};
        p = convHeavy;
        app::applyLearnedCorrection(&p, app::learnedCorrection(convHeavy, 1, 32, agree));
        QCOMPARE(p.confidence, QStringLiteral("high"));
    }

    void tooFewOrUnlikeRunsChangeNothing() {
        const app::StepPrediction p = prediction(0.008, 0.002, 0.0001);
        QCOMPARE(app::learnedCorrection(p, 1, 32, {observed(p, 0.02)}).runs, 0); // one run is not enough
        // Runs of the other kind (2 ranks) and of a far batch do not count.
        const QList<app::StepObservation> unlike{observed(p, 0.02, 2), observed(p, 0.02, 4), observed(p, 0.02, 1, 4096),
                                                 observed(p, 0.02, 1, 8192)};
        const app::LearnedCorrection c = app::learnedCorrection(p, 1, 32, unlike);
        QCOMPARE(c.runs, 0);
        QCOMPARE(c.factor, 1.0);
        app::StepPrediction same = p;
        app::applyLearnedCorrection(&same, c);
        QCOMPARE(same.stepSeconds, p.stepSeconds);
        QCOMPARE(same.confidence, QStringLiteral("medium"));
    }

    void storeKeepsOneLinePerRunAndTheCurrentCalibration() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("store"))));
        app::StepObservationStore store(ws);
        const app::StepPrediction p = prediction(0.008, 0.002, 0.0001);
        QString error;
        QVERIFY(store.append(QStringLiteral("this-computer"), observed(p, 0.02, 1, 32, 7), &error));
        QVERIFY(store.append(QStringLiteral("this-computer"), observed(p, 0.03, 1, 32, 7), &error)); // again
        app::StepObservation old = observed(p, 0.04, 1, 32, 8);
        old.profileMeasuredAt = QStringLiteral("2026-01-01T00:00:00Z"); // an earlier calibration
        QVERIFY(store.append(QStringLiteral("this-computer"), old, &error));
        QList<app::StepObservation> now =
            store.load(QStringLiteral("this-computer"), QStringLiteral("2026-12-06T10:00:00Z"));
        QCOMPARE(now.size(), 1);
        QCOMPARE(now.first().measuredSeconds, 0.03);
        // Damaged lines (not JSON, negative or infinite times, shares out of range) are skipped.
        QFile f(store.pathOf(QStringLiteral("this-computer")));
        QVERIFY(f.open(QIODevice::Append));
        f.write("not json\n{\"run\":9,\"ranks\":1,\"batch\":32,\"predicted_step_s\":-1,\"measured_step_s\":1}\n");
        QJsonObject bad = observed(p, 0.02, 1, 32, 10).toJson();
        bad.insert(QStringLiteral("shares"), QJsonObject{{QStringLiteral("conv2d"), 7.0}});
        f.write(QJsonDocument(bad).toJson(QJsonDocument::Compact) + '\n');
        f.close();
        QCOMPARE(store.load(QStringLiteral("this-computer"), QStringLiteral("2026-12-06T10:00:00Z")).size(), 1);
        // The newest kMaxObservations are kept.
        for (int i = 0; i < app::kMaxObservations + 20; ++i)
            QVERIFY(store.append(QStringLiteral("busy"), observed(p, 0.02, 1, 32, 100 + i), &error));
        const auto kept = store.load(QStringLiteral("busy"), QStringLiteral("2026-12-06T10:00:00Z"));
        QCOMPARE(kept.size(), app::kMaxObservations);
        QCOMPARE(kept.last().runId, qint64(100 + app::kMaxObservations + 19));
    }

    void aFinishedRunIsObservedUnderThePlansProfile() {
        app::Workspace ws;
        QVERIFY(ws.create(dir_.filePath(QStringLiteral("observe"))));
        app::ObservedRun run;
        run.runId = 3;
        QFile spec(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QVERIFY(spec.open(QIODevice::ReadOnly));
        run.spec = QJsonDocument::fromJson(spec.readAll()).object();
        run.config = QJsonObject{{QStringLiteral("batch_size"), 32}};
        run.measuredStepSeconds = 0.0004;
        QString error;
        QVERIFY(!app::observeFinishedRun(ws, run, &error)); // no profile yet: nothing to compare with
        const QString profiles = QDir(ws.path()).filePath(QStringLiteral("device-profiles"));
        QVERIFY(QDir().mkpath(profiles));
        QVERIFY(QFile::copy(test::sourcePath(QStringLiteral("tests/app/plan/data/epyc-2ranks-1thread.json")),
                            profiles + QStringLiteral("/this-computer.json")));
        QVERIFY2(app::observeFinishedRun(ws, run, &error), qPrintable(error));
        app::DeviceProfileStore store(ws);
        const app::TargetProfiles target = store.forTarget(std::nullopt, &error);
        QVERIFY(target.base);
        const auto seen = target.observations.value(QStringLiteral("this-computer"));
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen.first().runId, qint64(3));
        QCOMPARE(seen.first().measuredSeconds, 0.0004);
        QVERIFY(seen.first().predictedSeconds > 0);
        run.measuredStepSeconds = -1;
        QVERIFY(!app::observeFinishedRun(ws, run, &error));
        // Profile names are file names inside device-profiles/: nothing is written elsewhere.
        for (const QString &bad : {QStringLiteral("../evil"), QStringLiteral("a/b"), QStringLiteral(".hidden"),
                                   QStringLiteral("x..y"), QString(200, QLatin1Char('a'))}) {
            QVERIFY2(!store.save(bad, QJsonObject{{QStringLiteral("format"), 1}}, &error), qPrintable(bad));
            QVERIFY(error.contains(QStringLiteral("Not a profile name")));
        }
        QVERIFY(!QFile::exists(QDir(ws.path()).filePath(QStringLiteral("evil.json"))));
    }
};

QTEST_GUILESS_MAIN(TestStepObservations)
#include "tst_step_observations.moc"
