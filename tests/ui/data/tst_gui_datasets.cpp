// The Data page through the main window: View ▸ Data, "Add file…" with the real file dialog, a scikit-learn-style
// CSV (a line of counts above the table) imported on a worker thread with a progress bar; the page shows the
// problem and the skip_rows fix, the class balance and a preview; "Use in run set-up" makes it the run's data; Train
// trains on the pinned version and the run monitor names it. Screenshots go to <build>/screenshots.
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "ui/data/datasets_page.h"
#include "ui/run/dataset_preview.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestGuiDatasets : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString shots_;

    void shoot(QWidget *w, const char *name) {
        QDir().mkpath(shots_);
        QVERIFY(w->grab().save(QDir(shots_).filePath(QLatin1String(name))));
    }
    /// Three classes of points in the plane, with scikit-learn's metadata line above the table.
    QString writeCsv() {
        const QString path = dir_.filePath(QStringLiteral("src/three_blobs.csv"));
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return {};
        QRandomGenerator g(3);
        f.write("300,2,left,middle,right\n");
        for (int i = 0; i < 300; ++i) {
            const int c = i % 3;
            f.write(QByteArray::number(c * 2.0 + g.generateDouble() * 0.5, 'f', 4) + "," +
                    QByteArray::number(g.generateDouble(), 'f', 4) + "," + QByteArray::number(c) + "\n");
        }
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_datasets"));
        QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
        shots_ = QStringLiteral(DIAMOND_BINARY_DIR "/screenshots");
    }

    void importUseAndTrain() {
        const QString csv = writeCsv();
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // View ▸ Data.
        QAction *showData = window.action(QStringLiteral("showData"));
        QVERIFY(showData);
        showData->trigger();
        auto *page = qobject_cast<ui::DatasetsPage *>(window.tabs()->currentWidget());
        QVERIFY2(page, "View ▸ Data did not show the Data page");
        QCOMPARE(page->list()->count(), 0);

        // Add file… opens the file dialog; choosing the CSV imports it.
        auto *addFile = page->findChild<QPushButton *>(QStringLiteral("addDatasetFile"));
        QVERIFY(addFile);
        QTest::mouseClick(addFile, Qt::LeftButton);
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QFileDialog *>()) != nullptr && dialog->isVisible());
        QSignalSpy finished(page, &ui::DatasetsPage::importFinished);
        dialog->selectFile(csv);
        static_cast<QDialog *>(dialog)->accept();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("three_blobs@1"));
        QCOMPARE(page->list()->count(), 1);
        QCOMPARE(page->currentVersion().rows, 300);
        QVERIFY2(page->problemsLabel()->text().contains(QStringLiteral("skip_rows")),
                 qPrintable(page->problemsLabel()->text()));
        QCOMPARE(page->balanceView()->classes().size(), 3);
        QCOMPARE(page->balanceView()->classes().first().second, 100);
        // The preview leaves the metadata line out: 3 numbered columns, 300 rows.
        QTRY_VERIFY(page->preview()->summary().contains(QStringLiteral("300")));
        QCOMPARE(page->preview()->table()->columnCount(), 3);
        shoot(&window, "data-page.png");

        // Use in run set-up: the run's data is the registered dataset.
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("useDatasetInRun")), Qt::LeftButton);
        ui::RunSetupPage *setup = window.runSetup();
        QCOMPARE(window.tabs()->currentWidget(), setup);
        QJsonObject data = setup->config().value(QStringLiteral("data")).toObject();
        QCOMPARE(data.value(QStringLiteral("dataset")).toString(), QStringLiteral("three_blobs"));
        QCOMPARE(data.value(QStringLiteral("source")).toString(), QStringLiteral("csv"));
        QCOMPARE(data.value(QStringLiteral("skip_rows")).toInt(), 1);
        for (QSpinBox *box : setup->findChildren<QSpinBox *>())
            if (box->value() == 20) box->setValue(6); // epochs
        // The plan is computed on the dataset (the dry run gets --data-path).
        QTRY_VERIFY2_WITH_TIMEOUT(!setup->plan().isEmpty(), qPrintable(setup->planText()), 60000);
        shoot(&window, "run-setup-dataset.png");

        QTest::mouseClick(setup->trainButton(), Qt::LeftButton);
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY2(monitor, "Train did not open a run monitor");
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() != app::RunState::Running &&
                                     monitor->state() != app::RunState::Queued &&
                                     monitor->state() != app::RunState::Draft,
                                 120000);
        QVERIFY2(monitor->state() == app::RunState::Finished, qPrintable(monitor->logText()));
        QTRY_COMPARE(monitor->datasetLabel()->text(), QStringLiteral("Dataset: three_blobs@1"));
        QVERIFY(monitor->datasetLabel()->isVisible());
        shoot(&window, "run-monitor-dataset.png");
    }
};

QTEST_MAIN(TestGuiDatasets)
#include "tst_gui_datasets.moc"
