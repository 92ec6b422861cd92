// Parameter importance (correlation ratio of binned marginal means) on synthetic objectives, and the best
// trial rule of the sweep view.
#include "ui/sweep/sweep_analysis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <cmath>

using namespace diamond::app::sweep;
using namespace diamond::ui::sweep;

class TestSweepAnalysis : public QObject {
    Q_OBJECT

    static SearchSpace space() {
        QString error;
        const auto s = SearchSpace::fromJson(QJsonDocument::fromJson(R"([
                {"name":"lr","target":"optimizer.lr","type":"log_uniform","low":1e-4,"high":1},
                {"name":"width","target":"spec:fc1.out_features","type":"int","low":4,"high":128,"log":true},
                {"name":"opt","target":"optimizer.name","type":"choice","values":["adam","sgd","rmsprop"]}])")
                                                 .array(),
                                             &error);
        if (!s) qFatal("%s", qPrintable(error));
        return *s;
    }

private Q_SLOTS:
    void importantParameterDominates_data() {
        QTest::addColumn<int>("seed");
        for (int seed : {1, 2, 3, 4, 5})
            QTest::newRow(qPrintable(QStringLiteral("seed %1").arg(seed))) << seed;
    }

    void importantParameterDominates() {
        // Objective = (log10 lr + 2)^2 + small noise: only lr matters, width and opt are irrelevant.
        QFETCH(int, seed);
        const SearchSpace s = space();
        Rng rng{std::uint64_t(seed)};
        QList<QJsonObject> values;
        QList<double> objectives;
        for (int i = 0; i < 60; ++i) {
            const QJsonObject sample = s.sample(rng);
            const double lr = sample.value(QStringLiteral("lr")).toDouble();
            values.append(sample);
            objectives.append(std::pow(std::log10(lr) + 2.0, 2) + 0.05 * rng.normal());
        }
        const QList<ParameterImportance> imp = parameterImportance(s, values, objectives);
        QCOMPARE(imp.size(), 3);
        QCOMPARE(imp.at(0).name, QStringLiteral("lr"));
        QVERIFY2(imp.at(0).importance > 0.7, qPrintable(QString::number(imp.at(0).importance)));
        QVERIFY2(imp.at(1).importance < 0.25, qPrintable(QString::number(imp.at(1).importance)));
        QVERIFY2(imp.at(2).importance < 0.25, qPrintable(QString::number(imp.at(2).importance)));
        QCOMPARE(imp.at(0).bins, 5);
        QCOMPARE(imp.at(2).bins, 3);
    }

    void choiceParameterDominates() {
        // Objective depends only on the optimizer choice: sgd is 1 worse.
        const SearchSpace s = space();
        Rng rng(7);
        QList<QJsonObject> values;
        QList<double> objectives;
        for (int i = 0; i < 48; ++i) {
            const QJsonObject sample = s.sample(rng);
            values.append(sample);
            objectives.append((sample.value(QStringLiteral("opt")).toString() == QLatin1String("sgd") ? 1.0 : 0.0) +
                              0.05 * rng.normal());
        }
        const QList<ParameterImportance> imp = parameterImportance(s, values, objectives);
        QVERIFY(imp.at(2).importance > 0.9);
        QVERIFY(imp.at(0).importance < 0.25);
        QVERIFY(imp.at(1).importance < 0.25);
    }

    void tooFewOrConstantGiveZero() {
        const SearchSpace s = space();
        Rng rng(3);
        QList<QJsonObject> values;
        for (int i = 0; i < 10; ++i)
            values.append(s.sample(rng));
        for (const ParameterImportance &p : parameterImportance(s, values.mid(0, 3), {1, 2, 3}))
            QCOMPARE(p.importance, 0.0);
        for (const ParameterImportance &p : parameterImportance(s, values, QList<double>(10, 0.5)))
            QCOMPARE(p.importance, 0.0);
    }

    void bestTrialUsesHighestRung() {
        // Trial 1 has the best value but only at rung 0; trial 2 reached rung 1: it is the best.
        const auto row = [](int index, int rung, double value) {
            TrialRow t;
            t.index = index;
            t.rung = rung;
            t.objective = value;
            QJsonObject values;
            for (int r = 0; r <= rung; ++r)
                values.insert(QString::number(r), value);
            t.info.insert(QStringLiteral("values"), values);
            return t;
        };
        QList<TrialRow> trials{row(0, 0, 0.5), row(1, 0, 0.9), row(2, 1, 0.7), row(3, 1, 0.6)};
        trials.append(TrialRow{}); // no result yet
        QCOMPARE(bestTrialRow(trials, true), std::optional<int>(2));
        QCOMPARE(bestTrialRow(trials, false), std::optional<int>(3));
        // A trial promoted to rung 2 and still running keeps its rung-1 result.
        TrialRow running = row(4, 1, 0.95);
        running.rung = 2;
        trials.append(running);
        QCOMPARE(bestTrialRow(trials, true), std::optional<int>(5));
        QCOMPARE(bestTrialRow({}, true), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestSweepAnalysis)
#include "tst_sweep_analysis.moc"
