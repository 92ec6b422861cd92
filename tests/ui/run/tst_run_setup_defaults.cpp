// RunSetupPage and the run-config library: a config that leaves fields out shows the library's
// defaults (docs/run-config.md), and an invalid config is reported in the plan without a dry run.
#include "ui/run/run_setup_page.h"

#include <QJsonArray>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

using namespace diamond;

class TestRunSetupDefaults : public QObject {
    Q_OBJECT

    static QJsonObject minimalConfig() {
        return {{QStringLiteral("format"), QStringLiteral("diamond.run/1")},
                {QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("moons")}}}};
    }

private Q_SLOTS:
    void initTestCase() {
        // No engine: a problem in the plan can only come from the page's own check of the config.
        qputenv("DIAMOND_TRAIN", QByteArray("/nonexistent/diamond-train"));
    }

    void emptyConfigShowsTheDefaults() {
        ui::RunSetupPage page;
        page.setConfig(minimalConfig());
        // config() is read back from the form's widgets.
        const QJsonObject c = page.config();
        QCOMPARE(c.value(QStringLiteral("epochs")).toInt(), 10);
        QCOMPARE(c.value(QStringLiteral("batch_size")).toInt(), 32);
        QCOMPARE(c.value(QStringLiteral("seed")).toInt(-1), 0);
        const QJsonObject opt = c.value(QStringLiteral("optimizer")).toObject();
        QCOMPARE(opt.value(QStringLiteral("name")).toString(), QStringLiteral("adam"));
        QCOMPARE(opt.value(QStringLiteral("lr")).toDouble(), 0.001);
        QVERIFY(!opt.contains(QStringLiteral("weight_decay")));
        QCOMPARE(c.value(QStringLiteral("schedule")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("constant"));
        QVERIFY(!c.contains(QStringLiteral("loss"))); // by task
        QVERIFY(!c.contains(QStringLiteral("metrics")));
        const QJsonObject data = c.value(QStringLiteral("data")).toObject();
        QCOMPARE(data.value(QStringLiteral("source")).toString(), QStringLiteral("moons"));
        QCOMPARE(data.value(QStringLiteral("validation_split")).toDouble(), 0.2);
    }

    void configValuesWinOverTheDefaults() {
        ui::RunSetupPage page;
        QJsonObject config = minimalConfig();
        config.insert(QStringLiteral("epochs"), 3);
        config.insert(QStringLiteral("batch_size"), 8);
        config.insert(QStringLiteral("optimizer"),
                      QJsonObject{{QStringLiteral("name"), QStringLiteral("sgd")}, {QStringLiteral("lr"), 0.05}});
        page.setConfig(config);
        const QJsonObject c = page.config();
        QCOMPARE(c.value(QStringLiteral("epochs")).toInt(), 3);
        QCOMPARE(c.value(QStringLiteral("batch_size")).toInt(), 8);
        QCOMPARE(c.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("sgd"));
        QCOMPARE(c.value(QStringLiteral("optimizer")).toObject().value(QStringLiteral("lr")).toDouble(), 0.05);
    }

    void invalidConfigIsReportedInThePlan() {
        ui::RunSetupPage page;
        QJsonObject config = minimalConfig();
        // A field the form does not show is kept from the base config, so the form cannot correct it.
        config.insert(QStringLiteral("checkpoint"), QJsonObject{{QStringLiteral("keep_last"), 0}});
        page.setConfig(config);
        QSignalSpy updated(&page, &ui::RunSetupPage::planUpdated);
        page.setSpec(QJsonObject{{QStringLiteral("format"), QStringLiteral("diamond.spec/1")}});
        QVERIFY(updated.wait(5000));
        const QString text = page.findChild<QLabel *>(QStringLiteral("planLabel"))->text();
        QVERIFY2(text.contains(QStringLiteral("checkpoint.keep_last")), qPrintable(text));
        QVERIFY(page.plan().isEmpty());
        QVERIFY(!page.isPlanPending());
    }
};

QTEST_MAIN(TestRunSetupDefaults)
#include "tst_run_setup_defaults.moc"
