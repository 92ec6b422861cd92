// SweepEditor: the document built from its widgets equals the expected diamond.sweep/1 JSON and parses;
// invalid ranges, non-numbers and unknown targets are shown inline on the offending cells.
#include "ui/sweep/sweep_editor.h"

#include "common/test_paths.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace diamond::ui::sweep;

class TestSweepEditor : public QObject {
    Q_OBJECT

    static QJsonObject readJson(const QString &relative) {
        QFile f(diamond::test::sourcePath(relative));
        if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(relative));
        return QJsonDocument::fromJson(f.readAll()).object();
    }

    QJsonObject spec_ = readJson(QStringLiteral("resources/examples/spirals/spec.json"));
    QJsonObject config_ = readJson(QStringLiteral("resources/examples/spirals/run.json"));

private Q_SLOTS:
    void candidatesListConfigAndGraph() {
        QStringList targets;
        for (const SweepEditor::Candidate &c : SweepEditor::candidates(spec_, config_))
            targets.append(c.target);
        for (const char *t : {"optimizer.lr", "optimizer.weight_decay", "optimizer.name", "batch_size", "epochs",
                              "data.samples", "spec:fc1.out_features", "spec:fc2.out_features"})
            QVERIFY2(targets.contains(QLatin1String(t)), t);
        QVERIFY(!targets.contains(QStringLiteral("seed")));
        QVERIFY(!targets.contains(QStringLiteral("checkpoint.every_steps")));
        QCOMPARE(targets.count(QStringLiteral("optimizer.lr")), 1);
    }

    void buildsTheExpectedDocument() {
        SweepEditor editor;
        editor.setBase(spec_, config_);
        editor.findChild<QLineEdit *>(QStringLiteral("sweepName"))->setText(QStringLiteral("spirals-asha"));
        editor.findChild<QLineEdit *>(QStringLiteral("sweepProject"))->setText(QStringLiteral("Sweeps"));
        QCOMPARE(editor.addParameter(QStringLiteral("optimizer.lr")), 0);
        QCOMPARE(editor.addParameter(QStringLiteral("spec:fc1.out_features")), 1);
        QCOMPARE(editor.addParameter(QStringLiteral("optimizer.name")), 2);
        editor.parameterTable()->item(1, SweepEditor::NameCol)->setText(QStringLiteral("width"));
        QComboBox *algo = editor.algorithmCombo();
        algo->setCurrentIndex(algo->findData(QStringLiteral("asha")));
        editor.findChild<QSpinBox *>(QStringLiteral("eta"))->setValue(3);
        editor.findChild<QSpinBox *>(QStringLiteral("minResource"))->setValue(1);
        auto *metric = editor.findChild<QComboBox *>(QStringLiteral("metric"));
        metric->setCurrentText(QStringLiteral("accuracy"));
        auto *mode = editor.findChild<QComboBox *>(QStringLiteral("mode"));
        mode->setCurrentIndex(mode->findData(QStringLiteral("max")));
        editor.findChild<QSpinBox *>(QStringLiteral("maxTrials"))->setValue(30);
        editor.findChild<QSpinBox *>(QStringLiteral("maxConcurrent"))->setValue(2);
        editor.findChild<QSpinBox *>(QStringLiteral("budgetPerTrial"))->setValue(27);
        editor.findChild<QSpinBox *>(QStringLiteral("seed"))->setValue(5);
        auto *packing = editor.findChild<QCheckBox *>(QStringLiteral("packing"));
        QVERIFY(packing->isChecked());
        packing->setChecked(false);
        QVERIFY2(editor.validate(), qPrintable(editor.errors().join(QLatin1Char('\n'))));

        const QJsonObject expected = QJsonDocument::fromJson(R"({
            "format": "diamond.sweep/1", "name": "spirals-asha", "project": "Sweeps",
            "space": [
              {"name": "lr", "target": "optimizer.lr", "type": "log_uniform", "low": 0.001, "high": 0.1},
              {"name": "width", "target": "spec:fc1.out_features", "type": "int", "log": true, "low": 16, "high": 256},
              {"name": "name", "target": "optimizer.name", "type": "choice", "values": ["adam", "sgd"]}],
            "algorithm": {"name": "asha", "eta": 3, "min_resource": 1},
            "objective": {"metric": "accuracy", "split": "val", "mode": "max"},
            "limits": {"max_trials": 30, "max_concurrent": 2, "budget_per_trial": 27, "budget_unit": "epochs",
                       "total_budget": 0, "threads_per_trial": 1, "packing": false, "trials_per_pack": 16},
            "seed": 5})")
                                         .object();
        QJsonObject doc = editor.document();
        QCOMPARE(doc.take(QStringLiteral("spec")).toObject(), spec_);
        QCOMPARE(doc.take(QStringLiteral("config")).toObject(), config_);
        QCOMPARE(QJsonDocument(doc).toJson(QJsonDocument::Indented),
                 QJsonDocument(expected).toJson(QJsonDocument::Indented));

        QString error;
        const auto def = editor.definition(&error);
        QVERIFY2(def, qPrintable(error));
        QCOMPARE(def->algorithm.name, QStringLiteral("asha"));
        QCOMPARE(def->algorithm.maxResource, 27.0);
        QCOMPARE(def->space.size(), 3);
        QVERIFY(def->space.parameters().at(1).isLogScale());
        QVERIFY(def->objective.maximize);
        QVERIFY(!def->packing);
        QVERIFY(editor.errors().isEmpty());
        QVERIFY(editor.findChild<QLabel *>(QStringLiteral("errors"))->text().isEmpty());
    }

    void severalClustersMakeAMultiClusterSweep() {
        SweepEditor editor;
        editor.setBase(spec_, config_);
        editor.addParameter(QStringLiteral("optimizer.lr"));
        editor.setClusters({QStringLiteral("alpha"), QStringLiteral("beta")});
        auto *list = editor.findChild<QListWidget *>(QStringLiteral("sweepTargets"));
        QVERIFY(list);
        QCOMPARE(list->count(), 3);
        QCOMPARE(editor.checkedTargets(), QStringList{QStringLiteral("local")});
        QVERIFY(!editor.document().contains(QStringLiteral("target")));
        auto *perTarget = editor.findChild<QSpinBox *>(QStringLiteral("maxInFlightPerTarget"));
        QVERIFY(!perTarget->isEnabled());
        // One cluster: a cluster sweep, this computer unchecked.
        list->item(1)->setCheckState(Qt::Checked);
        QCOMPARE(editor.checkedTargets(), QStringList{QStringLiteral("alpha")});
        QCOMPARE(editor.document().value(QStringLiteral("target")).toString(), QStringLiteral("alpha"));
        QVERIFY(!editor.findChild<QCheckBox *>(QStringLiteral("packing"))->isEnabled());
        // Two: a multi-cluster sweep with a per-cluster limit.
        list->item(2)->setCheckState(Qt::Checked);
        QVERIFY(perTarget->isEnabled());
        perTarget->setValue(3);
        const QJsonObject doc = editor.document();
        QCOMPARE(doc.value(QStringLiteral("targets")).toArray(),
                 (QJsonArray{QStringLiteral("alpha"), QStringLiteral("beta")}));
        QVERIFY(!doc.contains(QStringLiteral("target")));
        QCOMPARE(
            doc.value(QStringLiteral("limits")).toObject().value(QStringLiteral("max_in_flight_per_target")).toInt(),
            3);
        QString error;
        const auto def = editor.definition(&error);
        QVERIFY2(def, qPrintable(error));
        QVERIFY(def->isMultiTarget());
        QCOMPARE(def->inFlightLimit(), 3);
        editor.resize(1100, 800);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QVERIFY2(editor.validate(), qPrintable(editor.errors().join(QLatin1Char('\n'))));
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(editor.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/sweep-two-clusters.png")));
        // Back to this computer: the clusters are unchecked.
        list->item(0)->setCheckState(Qt::Checked);
        QCOMPARE(editor.checkedTargets(), QStringList{QStringLiteral("local")});
        QVERIFY(!editor.document().contains(QStringLiteral("targets")));
    }

    void invalidRangesAreShownInline() {
        SweepEditor editor;
        editor.setBase(spec_, config_);
        editor.addParameter(QStringLiteral("optimizer.lr"));
        editor.addParameter(QStringLiteral("spec:fc1.out_features"));
        QVERIFY(editor.validate());
        QTableWidget *t = editor.parameterTable();

        t->item(0, SweepEditor::HighCol)->setText(QStringLiteral("0.0001")); // below low
        t->item(1, SweepEditor::LowCol)->setText(QStringLiteral("abc"));
        QVERIFY(!editor.validate());
        QCOMPARE(editor.errors().size(), 2);
        QVERIFY2(editor.errors().at(0).startsWith(QStringLiteral("space[0].high")), qPrintable(editor.errors().at(0)));
        QVERIFY2(editor.errors().at(1).startsWith(QStringLiteral("space[1].low")), qPrintable(editor.errors().at(1)));
        QVERIFY(editor.cellHasError(0, SweepEditor::HighCol));
        QVERIFY(!editor.cellHasError(0, SweepEditor::LowCol));
        QVERIFY(editor.cellHasError(1, SweepEditor::LowCol));
        const QString shown = editor.findChild<QLabel *>(QStringLiteral("errors"))->text();
        QVERIFY(shown.contains(QStringLiteral("space[0].high")) && shown.contains(QStringLiteral("space[1].low")));
        QVERIFY(!editor.definition());

        // log-uniform needs low > 0
        t->item(0, SweepEditor::HighCol)->setText(QStringLiteral("0.1"));
        t->item(0, SweepEditor::LowCol)->setText(QStringLiteral("0"));
        t->item(1, SweepEditor::LowCol)->setText(QStringLiteral("16"));
        QVERIFY(!editor.validate());
        QCOMPARE(editor.errors().size(), 1);
        QVERIFY(editor.cellHasError(0, SweepEditor::LowCol));
        QVERIFY(!editor.cellHasError(1, SweepEditor::LowCol));

        // an unknown node is reported on the target cell
        t->item(0, SweepEditor::LowCol)->setText(QStringLiteral("0.001"));
        t->item(1, SweepEditor::TargetCol)->setText(QStringLiteral("spec:fc9.out_features"));
        QVERIFY(!editor.validate());
        QVERIFY2(editor.errors().first().contains(QStringLiteral("fc9")), qPrintable(editor.errors().first()));
        QVERIFY(editor.cellHasError(1, SweepEditor::TargetCol));
        QVERIFY(!editor.startButton()->isEnabled());
        editor.resize(1100, 760);
        QDir().mkpath(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots"));
        QVERIFY(editor.grab().save(QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/sweep-editor.png")));

        t->item(1, SweepEditor::TargetCol)->setText(QStringLiteral("spec:fc1.out_features"));
        QVERIFY(editor.validate());
        QVERIFY(!editor.cellHasError(1, SweepEditor::TargetCol));

        // ASHA cannot sweep the budget
        editor.addParameter(QStringLiteral("epochs"));
        editor.algorithmCombo()->setCurrentIndex(editor.algorithmCombo()->findData(QStringLiteral("asha")));
        QVERIFY(!editor.validate());
        QVERIFY2(editor.errors().first().contains(QStringLiteral("space[2].target")),
                 qPrintable(editor.errors().first()));

        editor.removeParameter(2);
        QVERIFY(editor.validate());
        editor.removeParameter(1);
        editor.removeParameter(0);
        QVERIFY(!editor.validate());
        QVERIFY(editor.errors().first().startsWith(QStringLiteral("space")));
    }
};

QTEST_MAIN(TestSweepEditor)
#include "tst_sweep_editor.moc"
