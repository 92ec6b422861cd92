// Search spaces and sweep files: parsing with field-named errors, sampling distributions (KS statistics,
// inclusive integer bounds, choice frequencies), grids, and applying samples to spec and run config.
#include "app/sweep/search_space.h"
#include "app/sweep/sweep_definition.h"
#include "common/test_paths.h"

#include <QFile>
#include <QJsonDocument>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace diamond::app::sweep;

namespace {

QJsonObject readJson(const QString &relative) {
    QFile f(diamond::test::sourcePath(relative));
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

SearchSpace space(const char *json) {
    QString error;
    auto s = SearchSpace::fromJson(QJsonDocument::fromJson(json).array(), &error);
    if (!s) qWarning("%s", qPrintable(error));
    return s.value_or(SearchSpace());
}

/// Kolmogorov-Smirnov statistic of samples against the uniform distribution on [0, 1].
double ksUniform(std::vector<double> u) {
    std::sort(u.begin(), u.end());
    double d = 0;
    const double n = double(u.size());
    for (std::size_t i = 0; i < u.size(); ++i)
        d = std::max({d, std::abs(double(i + 1) / n - u[i]), std::abs(u[i] - double(i) / n)});
    return d;
}

} // namespace

class TestSearchSpace : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parseErrorsNameTheField_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("field");
        QTest::newRow("empty") << "[]"
                               << "space:";
        QTest::newRow("no target") << R"([{"type":"uniform","low":0,"high":1}])"
                                   << "space[0].target";
        QTest::newRow("bad type") << R"([{"target":"optimizer.lr","type":"normal"}])"
                                  << "space[0].type";
        QTest::newRow("high<low") << R"([{"target":"optimizer.lr","type":"uniform","low":1,"high":0.5}])"
                                  << "space[0].high";
        QTest::newRow("log low<=0") << R"([{"target":"optimizer.lr","type":"log_uniform","low":0,"high":1}])"
                                    << "space[0].low";
        QTest::newRow("int bounds") << R"([{"target":"batch_size","type":"int","low":1.5,"high":8}])"
                                    << "space[0].low";
        QTest::newRow("unknown config field") << R"([{"target":"optimiser.lr","type":"uniform","low":0,"high":1}])"
                                              << "space[0].target";
        QTest::newRow("bad spec target") << R"([{"target":"spec:fc1","type":"int","low":1,"high":8}])"
                                         << "space[0].target";
        QTest::newRow("duplicate name")
            << R"([{"target":"seed","type":"int","low":1,"high":8},{"target":"seed","type":"int","low":1,"high":8}])"
            << "space[1].name";
        QTest::newRow("empty choice") << R"([{"target":"optimizer.name","type":"choice","values":[]}])"
                                      << "space[0].values";
        QTest::newRow("unknown field") << R"([{"target":"seed","type":"int","low":1,"high":8,"hi":3}])"
                                       << "space[0].hi";
    }
    void parseErrorsNameTheField() {
        QFETCH(QString, json);
        QFETCH(QString, field);
        QString error;
        QVERIFY(!SearchSpace::fromJson(QJsonDocument::fromJson(json.toUtf8()).array(), &error));
        QVERIFY2(error.startsWith(field), qPrintable(error));
    }

    void logUniformIsUniformInLogSpace() {
        const SearchSpace s = space(R"([{"target":"optimizer.lr","type":"log_uniform","low":1e-5,"high":1e-1}])");
        Rng rng(42);
        std::vector<double> u;
        const double a = std::log(1e-5), b = std::log(1e-1);
        for (int i = 0; i < 4000; ++i) {
            const double v = s.parameters().first().sample(rng).toDouble();
            QVERIFY(v >= 1e-5 && v <= 1e-1);
            u.push_back((std::log(v) - a) / (b - a));
        }
        // Critical value of the KS test at alpha = 0.01: 1.63 / sqrt(n).
        const double critical = 1.63 / std::sqrt(4000.0);
        QVERIFY2(ksUniform(u) < critical, qPrintable(QString::number(ksUniform(u))));
        // The same samples are far from uniform in linear space (a wrong, linear sampler would pass this).
        std::vector<double> linear;
        for (double x : u)
            linear.push_back((std::exp(a + x * (b - a)) - 1e-5) / (1e-1 - 1e-5));
        QVERIFY(ksUniform(linear) > 10 * critical);
    }

    void uniformPassesKs() {
        const SearchSpace s = space(R"([{"target":"optimizer.weight_decay","type":"uniform","low":-2,"high":3}])");
        Rng rng(7);
        std::vector<double> u;
        for (int i = 0; i < 4000; ++i)
            u.push_back((s.parameters().first().sample(rng).toDouble() + 2) / 5);
        QVERIFY(ksUniform(u) < 1.63 / std::sqrt(4000.0));
    }

    void integerBoundsAreInclusive() {
        const SearchSpace s = space(R"([{"target":"batch_size","type":"int","low":3,"high":7},
                                       {"target":"spec:fc1.out_features","type":"int","low":8,"high":512,"log":true}])");
        Rng rng(1);
        QMap<qint64, int> counts;
        qint64 logMin = 1000, logMax = 0;
        for (int i = 0; i < 5000; ++i) {
            const QJsonObject o = s.sample(rng);
            QVERIFY(o.value(QStringLiteral("batch_size")).isDouble());
            const qint64 v = o.value(QStringLiteral("batch_size")).toInteger();
            QVERIFY(v >= 3 && v <= 7);
            ++counts[v];
            const qint64 w = o.value(QStringLiteral("spec:fc1.out_features")).toInteger();
            QVERIFY(w >= 8 && w <= 512);
            logMin = std::min(logMin, w);
            logMax = std::max(logMax, w);
        }
        QCOMPARE(counts.size(), 5);
        for (int c : counts)
            QVERIFY2(std::abs(c - 1000) < 120, qPrintable(QString::number(c))); // 4 sigma of binomial(5000, 0.2)
        QCOMPARE(logMin, 8);
        QCOMPARE(logMax, 512);
    }

    void choiceFrequencies() {
        const SearchSpace s =
            space(R"([{"target":"optimizer.name","type":"choice","values":["adam","sgd","rmsprop"]}])");
        Rng rng(3);
        QMap<QString, int> counts;
        for (int i = 0; i < 6000; ++i)
            ++counts[s.sample(rng).value(QStringLiteral("optimizer.name")).toString()];
        QCOMPARE(counts.size(), 3);
        for (int c : counts)
            QVERIFY2(std::abs(c - 2000) < 150, qPrintable(QString::number(c)));
    }

    void sameSeedSameSamples() {
        const SearchSpace s = space(R"([{"target":"optimizer.lr","type":"log_uniform","low":1e-4,"high":1}])");
        Rng a = Rng::forIndex(9, 5), b = Rng::forIndex(9, 5), c = Rng::forIndex(9, 6);
        const QJsonObject x = s.sample(a);
        QCOMPARE(x, s.sample(b));
        QVERIFY(x != s.sample(c));
    }

    void gridCoversTheSpaceOnce() {
        const SearchSpace s = space(R"([{"target":"optimizer.name","type":"choice","values":["adam","sgd"]},
                                       {"target":"batch_size","type":"int","low":16,"high":18},
                                       {"target":"optimizer.lr","type":"log_uniform","low":1e-3,"high":1e-1,"grid_points":3}])");
        QCOMPARE(s.gridSize(5), 2 * 3 * 3);
        QSet<QString> seen;
        for (qint64 i = 0; i < s.gridSize(5); ++i)
            seen.insert(QString::fromUtf8(QJsonDocument(s.gridPoint(i, 5)).toJson(QJsonDocument::Compact)));
        QCOMPARE(seen.size(), 18);
        // Every combination of the per-parameter grids is present.
        for (const QString &name : {QStringLiteral("adam"), QStringLiteral("sgd")})
            for (int bs = 16; bs <= 18; ++bs)
                for (double lr : {1e-3, 1e-2, 1e-1}) {
                    bool found = false;
                    for (qint64 i = 0; i < 18 && !found; ++i) {
                        const QJsonObject p = s.gridPoint(i, 5);
                        found = p.value(QStringLiteral("optimizer.name")).toString() == name &&
                                p.value(QStringLiteral("batch_size")).toInt() == bs &&
                                std::abs(p.value(QStringLiteral("optimizer.lr")).toDouble() / lr - 1) < 1e-9;
                    }
                    QVERIFY2(found, qPrintable(QStringLiteral("%1 %2 %3").arg(name).arg(bs).arg(lr)));
                }
    }

    void applyWritesConfigSpecAndTemplate() {
        QJsonObject spec = readJson(QStringLiteral("resources/examples/spirals/spec.json"));
        QJsonObject config = readJson(QStringLiteral("resources/examples/spirals/run.json"));
        config.insert(QStringLiteral("seed"), QStringLiteral("${trial_seed}"));
        const SearchSpace s =
            space(R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":1e-4,"high":1e-1},
                                       {"name":"wd","target":"optimizer.weight_decay","type":"uniform","low":0,"high":0.1},
                                       {"name":"width","target":"spec:fc1.out_features","type":"int","low":8,"high":128},
                                       {"name":"trial_seed","target":"template:trial_seed","type":"int","low":1,"high":9}])");
        QString error;
        QVERIFY2(s.validateTargets(spec, config, &error), qPrintable(error));
        const QJsonObject sample{{QStringLiteral("lr"), 0.003},
                                 {QStringLiteral("wd"), 0.01},
                                 {QStringLiteral("width"), 32},
                                 {QStringLiteral("trial_seed"), 5}};
        QVERIFY2(s.apply(sample, &spec, &config, &error), qPrintable(error));
        QCOMPARE(config.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("lr")).toDouble(), 0.003);
        QCOMPARE(config.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("adam"));
        QCOMPARE(config.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("weight_decay")).toDouble(),
                 0.01);
        QCOMPARE(config.value(QStringLiteral("seed")).toInt(), 5);
        const QJsonObject fc1 = spec.value(QStringLiteral("nodes")).toArray().first().toObject();
        QCOMPARE(fc1.value(QStringLiteral("params")).toObject().value(QStringLiteral("out_features")).toInt(), 32);

        // Invalid paths are refused with the parameter's name.
        const SearchSpace badNode =
            space(R"([{"name":"w","target":"spec:nope.out_features","type":"int","low":1,"high":2}])");
        QVERIFY(!badNode.validateTargets(spec, config, &error));
        QVERIFY2(error.contains(QLatin1String("'w'")) && error.contains(QLatin1String("nope")), qPrintable(error));
        const SearchSpace notObject = space(R"([{"name":"b","target":"batch_size.x","type":"int","low":1,"high":2}])");
        QVERIFY(!notObject.validateTargets(spec, config, &error));
        QVERIFY2(error.contains(QLatin1String("'b'")), qPrintable(error));
        const SearchSpace noPlaceholder =
            space(R"([{"name":"d","target":"template:depth","type":"int","low":1,"high":2}])");
        QVERIFY(!noPlaceholder.validateTargets(spec, config, &error));
        QVERIFY2(error.contains(QLatin1String("${depth}")), qPrintable(error));
    }

    void sweepFileValidation_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<QString>("field");
        QTest::newRow("format") << R"({"format":"diamond.sweep/2"})"
                                << "format";
        QTest::newRow("unknown") << R"({"budget":3})"
                                 << "budget";
        QTest::newRow("objective") << R"({"objective":{"metric":"accuracy","mode":"up"}})"
                                   << "objective.mode";
        QTest::newRow("algorithm") << R"({"algorithm":{"name":"bayes"}})"
                                   << "algorithm.name";
        QTest::newRow("eta") << R"({"algorithm":{"name":"asha","eta":1}})"
                             << "algorithm.eta";
        QTest::newRow("min_resource") << R"({"algorithm":{"name":"asha","min_resource":50}})"
                                      << "algorithm.min_resource";
        QTest::newRow("max_trials") << R"({"limits":{"max_trials":0}})"
                                    << "limits.max_trials";
        QTest::newRow("unit") << R"({"limits":{"budget_unit":"hours"}})"
                              << "limits.budget_unit";
        QTest::newRow("asha epochs target")
            << R"({"algorithm":"asha","space":[{"target":"epochs","type":"int","low":1,"high":9}]})"
            << "space[0].target";
        QTest::newRow("spec missing") << R"({"spec":"missing.json"})"
                                      << "spec";
        QTest::newRow("packing") << R"({"limits":{"packing":"yes"}})"
                                 << "limits.packing";
        QTest::newRow("trials_per_pack") << R"({"limits":{"trials_per_pack":0}})"
                                         << "limits.trials_per_pack";
    }
    void sweepFileValidation() {
        QFETCH(QString, patch);
        QFETCH(QString, field);
        QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("spec"), QStringLiteral("spec.json")},
            {QStringLiteral("config"), QStringLiteral("run.json")},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(R"([{"target":"optimizer.lr","type":"log_uniform","low":1e-4,"high":1e-1}])")
                 .array()},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                      {QStringLiteral("mode"), QStringLiteral("max")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("budget_per_trial"), 9}}}};
        const QString dir = diamond::test::sourcePath(QStringLiteral("resources/examples/spirals"));
        QString error;
        QVERIFY2(SweepDefinition::fromJson(doc, dir, &error), qPrintable(error));
        const QJsonObject p = QJsonDocument::fromJson(patch.toUtf8()).object();
        for (auto it = p.begin(); it != p.end(); ++it)
            doc.insert(it.key(), it.value());
        QVERIFY(!SweepDefinition::fromJson(doc, dir, &error));
        QVERIFY2(error.startsWith(field), qPrintable(error));
    }

    void trialDocumentsSetBudgetAndThreads() {
        QString error;
        const QJsonObject doc{
            {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
            {QStringLiteral("spec"), QStringLiteral("spec.json")},
            {QStringLiteral("config"), QStringLiteral("run.json")},
            {QStringLiteral("algorithm"), QStringLiteral("asha")},
            {QStringLiteral("space"),
             QJsonDocument::fromJson(
                 R"([{"name":"lr","target":"optimizer.lr","type":"log_uniform","low":1e-4,"high":1e-1}])")
                 .array()},
            {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")}}},
            {QStringLiteral("limits"), QJsonObject{{QStringLiteral("budget_per_trial"), 9}}}};
        const auto def = SweepDefinition::fromJson(
            doc, diamond::test::sourcePath(QStringLiteral("resources/examples/spirals")), &error);
        QVERIFY2(def, qPrintable(error));
        QJsonObject spec, config;
        QVERIFY(def->trialDocuments({{QStringLiteral("lr"), 0.01}}, 3, &spec, &config, &error));
        QCOMPARE(config.value(QStringLiteral("epochs")).toInt(), 3);
        QCOMPARE(config.value(QStringLiteral("threads")).toInt(), 1);
        QVERIFY(def->packing); // default for local sweeps
        QCOMPARE(def->trialsPerPack, 16);
        // The stored (embedded) form parses back to the same definition.
        const auto again = SweepDefinition::fromJson(def->toJson(), {}, &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->toJson(), def->toJson());
    }
};

QTEST_GUILESS_MAIN(TestSearchSpace)
#include "tst_search_space.moc"
