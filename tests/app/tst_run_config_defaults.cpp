// The Qt side of the run-config library (app/run/run_config_defaults.h): the defaults the forms
// fall back to, per-field lookup, validation with the engine's messages, JSON conversion.
// Expected values are the literals of docs/run-config.md.
#include "app/run/engine_plan.h"
#include "app/run/run_config_defaults.h"

#include <QJsonArray>
#include <QtTest>

using namespace diamond;

namespace {

QJsonObject minimalConfig() {
    return {{QStringLiteral("format"), QStringLiteral("diamond.run/1")},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("spirals")}}}};
}

} // namespace

class TestRunConfigDefaults : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaultsAreTheLibrarys() {
        const QJsonObject d = app::runConfigDefaults();
        QCOMPARE(d.value(QStringLiteral("format")).toString(), QStringLiteral("diamond.run/1"));
        QCOMPARE(d.value(QStringLiteral("batch_size")).toDouble(), 32.0);
        QCOMPARE(d.value(QStringLiteral("epochs")).toDouble(), 10.0);
        QCOMPARE(d.value(QStringLiteral("steps")).toDouble(), 0.0);
        QCOMPARE(d.value(QStringLiteral("seed")).toDouble(), 0.0);
        QCOMPARE(d.value(QStringLiteral("threads")).toDouble(), 0.0);
        QCOMPARE(d.value(QStringLiteral("device")).toString(), QStringLiteral("cpu"));
        QCOMPARE(d.value(QStringLiteral("log_every_steps")).toDouble(), 10.0);
        const QJsonObject opt = d.value(QStringLiteral("optimizer")).toObject();
        QCOMPARE(opt.value(QStringLiteral("name")).toString(), QStringLiteral("adam"));
        QCOMPARE(opt.value(QStringLiteral("lr")).toDouble(), 0.001);
        QCOMPARE(opt.value(QStringLiteral("weight_decay")).toDouble(), 0.0);
        QCOMPARE(opt.value(QStringLiteral("betas")).toArray(), (QJsonArray{0.9, 0.999}));
        QCOMPARE(d.value(QStringLiteral("schedule")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("constant"));
        QCOMPARE(d.value(QStringLiteral("checkpoint")).toObject().value(QStringLiteral("keep_last")).toDouble(), 3.0);
        const QJsonObject data = d.value(QStringLiteral("data")).toObject();
        QCOMPARE(data.value(QStringLiteral("validation_split")).toDouble(), 0.2);
        QCOMPARE(data.value(QStringLiteral("standardize")).toBool(false), true);
        QVERIFY(!data.contains(QStringLiteral("source"))); // a default config names no data source
        QVERIFY(!d.value(QStringLiteral("loss")).toObject().contains(QStringLiteral("name"))); // by task
        QCOMPARE(d.value(QStringLiteral("metrics")).toArray(), QJsonArray());
    }

    void defaultByPath() {
        QCOMPARE(app::runConfigDefault(QStringLiteral("optimizer.lr")).toDouble(), 0.001);
        QCOMPARE(app::runConfigDefault(QStringLiteral("batch_size")).toInt(), 32);
        QCOMPARE(app::runConfigDefault(QStringLiteral("epochs")).toInt(), 10);
        QCOMPARE(app::runConfigDefault(QStringLiteral("optimizer.name")).toString(), QStringLiteral("adam"));
        QCOMPARE(app::runConfigDefault(QStringLiteral("data.validation_split")).toDouble(), 0.2);
        QVERIFY(app::runConfigDefault(QStringLiteral("loss.name")).isUndefined());
        QVERIFY(app::runConfigDefault(QStringLiteral("no.such.field")).isUndefined());
        QVERIFY(app::runConfigDefault(QStringLiteral("epochs.x")).isUndefined()); // epochs is no object
    }

    void valueFallsBackToTheDefault() {
        QJsonObject c = minimalConfig();
        c.insert(QStringLiteral("optimizer"),
                 QJsonObject{{QStringLiteral("lr"), 0.25}, {QStringLiteral("name"), QStringLiteral("sgd")}});
        c.insert(QStringLiteral("batch_size"), QStringLiteral("large")); // wrong type: the default
        c.insert(QStringLiteral("loss"), QJsonObject{{QStringLiteral("name"), QStringLiteral("mse")}});
        c.insert(QStringLiteral("epochs"), 2.5);           // not a whole number: the default
        c.insert(QStringLiteral("grad_clip_norm"), 2.5);   // a number field takes any number
        c.insert(QStringLiteral("log_every_steps"), 20.0); // a whole double is fine for an integer field
        QCOMPARE(app::runConfigValue(c, QStringLiteral("optimizer.lr")).toDouble(), 0.25);
        QCOMPARE(app::runConfigValue(c, QStringLiteral("optimizer.name")).toString(), QStringLiteral("sgd"));
        QCOMPARE(app::runConfigValue(c, QStringLiteral("batch_size")).toInt(), 32);
        QCOMPARE(app::runConfigValue(c, QStringLiteral("epochs")).toInt(), 10);
        QCOMPARE(app::runConfigValue(c, QStringLiteral("grad_clip_norm")).toDouble(), 2.5);
        QCOMPARE(app::runConfigValue(c, QStringLiteral("log_every_steps")).toInt(), 20);
        QCOMPARE(app::runConfigValue(c, QStringLiteral("data.validation_split")).toDouble(), 0.2);
        QCOMPARE(app::runConfigValue(c, QStringLiteral("loss.name")).toString(), QStringLiteral("mse"));
        QVERIFY(app::runConfigValue(minimalConfig(), QStringLiteral("loss.name")).isUndefined());
        QCOMPARE(app::runConfigValue({}, QStringLiteral("optimizer.name")).toString(), QStringLiteral("adam"));
    }

    void validConfigHasNoProblem() {
        QJsonObject c = minimalConfig();
        c.insert(QStringLiteral("epochs"), 3.0); // a whole double is written as 3, an integer for the engine
        c.insert(QStringLiteral("seed"), 12345);
        const QJsonObject problem = app::checkRunConfig(c);
        QVERIFY2(problem.isEmpty(), qPrintable(problem.value(QStringLiteral("message")).toString()));
    }

    void invalidConfigNamesTheField_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("field");
        QTest::newRow("lr") << QStringLiteral("optimizer") << QJsonValue(QJsonObject{{QStringLiteral("lr"), 0}})
                            << QStringLiteral("optimizer.lr");
        QTest::newRow("batch") << QStringLiteral("batch_size") << QJsonValue(0) << QStringLiteral("batch_size");
        QTest::newRow("fractional epochs") << QStringLiteral("epochs") << QJsonValue(2.5) << QStringLiteral("epochs");
        QTest::newRow("unknown key") << QStringLiteral("epoch") << QJsonValue(3) << QStringLiteral("epoch");
        QTest::newRow("format") << QStringLiteral("format") << QJsonValue(QStringLiteral("diamond.run/0"))
                                << QStringLiteral("format");
    }

    void invalidConfigNamesTheField() {
        QFETCH(QString, key);
        QFETCH(QJsonValue, value);
        QFETCH(QString, field);
        QJsonObject c = minimalConfig();
        c.insert(key, value);
        const QJsonObject problem = app::checkRunConfig(c);
        QCOMPARE(problem.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(problem.value(QStringLiteral("field")).toString(), field);
        QVERIFY(!problem.value(QStringLiteral("message")).toString().isEmpty());
    }

    void problemReadsLikeTheEnginesError() {
        QJsonObject c = minimalConfig();
        c.insert(QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("lr"), 0}});
        const QJsonObject problem = app::checkRunConfig(c);
        QCOMPARE(problem.value(QStringLiteral("message")).toString(),
                 QStringLiteral("'optimizer.lr' must be greater than 0 and at most 1e+06, got 0."));
        QCOMPARE(app::describeEngineError(problem),
                 QStringLiteral("'optimizer.lr' must be greater than 0 and at most 1e+06, got 0. (field "
                                "'optimizer.lr')"));
        c.remove(QStringLiteral("format"));
        QCOMPARE(app::checkRunConfig(c).value(QStringLiteral("hint")).toString(),
                 QStringLiteral("Add \"format\": \"diamond.run/1\" at the top level."));
    }

    void jsonConversionKeepsValues() {
        const QJsonObject qt{{QStringLiteral("i"), 7},
                             {QStringLiteral("d"), 0.5},
                             {QStringLiteral("whole"), 4.0},
                             {QStringLiteral("big"), qint64(1) << 60},
                             {QStringLiteral("s"), QStringLiteral("grün")},
                             {QStringLiteral("b"), true},
                             {QStringLiteral("n"), QJsonValue::Null},
                             {QStringLiteral("a"), QJsonArray{1, QStringLiteral("x")}},
                             {QStringLiteral("o"), QJsonObject{{QStringLiteral("k"), 1}}}};
        const nlohmann::json n = app::toNlohmannJson(qt);
        QVERIFY(n.at("i").is_number_integer());
        QCOMPARE(n.at("i").get<int>(), 7);
        QVERIFY(n.at("d").is_number_float());
        QVERIFY(n.at("whole").is_number_integer()); // as in a file written by QJsonDocument
        QCOMPARE(n.at("big").get<std::int64_t>(), std::int64_t(1) << 60);
        QCOMPARE(QString::fromStdString(n.at("s").get<std::string>()), QStringLiteral("grün"));
        QVERIFY(n.at("n").is_null());
        QCOMPARE(n.at("a").size(), std::size_t(2));
        QCOMPARE(n.at("o").at("k").get<int>(), 1);
        QCOMPARE(app::toQJsonValue(n).toObject(), qt);
        QVERIFY(app::toNlohmannJson(QJsonValue(QJsonValue::Undefined)).is_null());
    }
};

QTEST_GUILESS_MAIN(TestRunConfigDefaults)
#include "tst_run_config_defaults.moc"
