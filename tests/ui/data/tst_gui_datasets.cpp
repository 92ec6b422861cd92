// The Data page through the main window: View ▸ Data, "Add file…" with the real file dialog, a scikit-learn-style
// CSV (a line of counts above the table) imported on a worker thread with a progress bar; the page shows the
// problem and the skip_rows fix, the class balance and a preview; "Use in run set-up" makes it the run's data; Train
// trains on the pinned version and the run monitor names it. Screenshots go to <build>/screenshots.
#include "common/hdf5_file_builder.h"
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

    /// Shows `window` and opens View ▸ Data: the page, or nullptr.
    static ui::DatasetsPage *showDataPage(ui::MainWindow &window) {
        window.resize(1400, 900);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window)) return nullptr;
        window.action(QStringLiteral("showData"))->trigger();
        return qobject_cast<ui::DatasetsPage *>(window.tabs()->currentWidget());
    }
    /// Presses "Add file…", chooses `path` in the file dialog and waits for the import: the version's ref, or the
    /// error (a failed import fails the caller's comparison with it).
    QString addThroughFileDialog(ui::MainWindow &window, ui::DatasetsPage *page, const QString &path,
                                 const QString &button = QStringLiteral("addDatasetFile")) {
        auto *addFile = page->findChild<QPushButton *>(button);
        if (!addFile) return QStringLiteral("no Add file button");
        QTest::mouseClick(addFile, Qt::LeftButton);
        QFileDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = window.findChild<QFileDialog *>()) && dialog->isVisible(); }))
            return QStringLiteral("no file dialog");
        QSignalSpy finished(page, &ui::DatasetsPage::importFinished);
        dialog->selectFile(path);
        static_cast<QDialog *>(dialog)->accept();
        if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 30000)) return QStringLiteral("no import");
        return finished.first().at(0).toBool() ? finished.first().at(1).toString()
                                               : QStringLiteral("failed: ") + finished.first().at(1).toString();
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
        // The real datasets of a new workspace, each with its origin and licence.
        QCOMPARE(page->list()->count(), 4);
        QList<QListWidgetItem *> iris = page->list()->findItems(QStringLiteral("iris\n"), Qt::MatchStartsWith);
        QCOMPARE(iris.size(), 1);
        page->list()->setCurrentItem(iris.first());
        QTRY_COMPARE(page->currentVersion().name, QStringLiteral("iris"));
        QCOMPARE(page->currentVersion().rows, 150);
        bool licenceShown = false;
        for (QLabel *label : page->findChildren<QLabel *>())
            licenceShown = licenceShown || (label->isVisible() && label->text().contains(QStringLiteral("Fisher")) &&
                                            label->text().contains(QStringLiteral("Licence: CC BY 4.0")));
        QVERIFY(licenceShown);
        QCOMPARE(page->balanceView()->classes().size(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(page->preview()->summary().contains(QStringLiteral("150")), 30000);
        QCOMPARE(page->preview()->table()->horizontalHeaderItem(0)->text(), QStringLiteral("sepal_length_cm"));
        shoot(&window, "data-page-iris.png");

        // Add file… opens the file dialog; choosing the CSV imports it.
        QCOMPARE(addThroughFileDialog(window, page, csv), QStringLiteral("three_blobs@1"));
        QCOMPARE(page->list()->count(), 5);
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
        QVERIFY(!setup->findChild<QComboBox *>(QStringLiteral("arrayInputs"))->isVisible()); // HDF5 only
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

    /// An HDF5 file of two input arrays, labels and an array the engine cannot read: the Data page lists them with
    /// the guessed roles; in the run set-up the pickers offer the readable ones, and the one chosen is the run's.
    void hdf5ArraysArePickedForTheRun() {
        const QString path = dir_.filePath(QStringLiteral("src/cells.h5"));
        QDir().mkpath(QFileInfo(path).absolutePath());
        const int rows = 120;
        std::vector<float> x(rows * 2);
        std::vector<double> scaled(rows * 2);
        std::vector<qint64> labels(rows);
        QRandomGenerator g(5);
        for (int i = 0; i < rows; ++i) {
            labels[std::size_t(i)] = i % 3; // three classes: the default network's output
            for (int j = 0; j < 2; ++j) {   // two features: the default network's input
                x[std::size_t(i * 2 + j)] = float((i % 3) * 3 + g.generateDouble());
                scaled[std::size_t(i * 2 + j)] = x[std::size_t(i * 2 + j)] / 4.0;
            }
        }
        QVERIFY(test::writeHdf5File(path, {{"/features/x", H5T_NATIVE_FLOAT, {hsize_t(rows), 2}, x.data()},
                                           {"/features/x_scaled", H5T_NATIVE_DOUBLE, {hsize_t(rows), 2}, scaled.data()},
                                           {"/labels", H5T_NATIVE_INT64, {hsize_t(rows)}, labels.data()},
                                           {"/meta/ids", H5T_NATIVE_SHORT, {hsize_t(rows)}, nullptr}}));
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws-hdf5")));
        ui::DatasetsPage *page = showDataPage(window);
        QVERIFY(page);
        QCOMPARE(addThroughFileDialog(window, page, path), QStringLiteral("cells@1"));
        QCOMPARE(page->currentVersion().format, QStringLiteral("hdf5"));
        QCOMPARE(page->currentVersion().rows, rows);
        QCOMPARE(page->currentVersion().schema.value(QStringLiteral("inputs")).toString(),
                 QStringLiteral("/features/x"));
        QCOMPARE(page->currentVersion().schema.value(QStringLiteral("targets")).toString(), QStringLiteral("/labels"));
        // The preview lists every array with its shape, type and use.
        QTRY_COMPARE_WITH_TIMEOUT(page->preview()->table()->rowCount(), 4, 20000);
        QTableWidget *table = page->preview()->table();
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("/features/x"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("120 × 2"));
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("inputs"));
        QCOMPARE(table->item(2, 3)->text(), QStringLiteral("targets"));
        QCOMPARE(table->item(3, 2)->text(), QStringLiteral("int16"));
        QCOMPARE(table->item(3, 3)->text(), QStringLiteral("not readable"));
        shoot(&window, "data-page-hdf5.png");

        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("useDatasetInRun")), Qt::LeftButton);
        ui::RunSetupPage *setup = window.runSetup();
        QCOMPARE(window.tabs()->currentWidget(), setup);
        auto *inputs = setup->findChild<QComboBox *>(QStringLiteral("arrayInputs"));
        auto *targets = setup->findChild<QComboBox *>(QStringLiteral("arrayTargets"));
        QVERIFY(inputs && targets);
        QVERIFY(inputs->isVisible() && targets->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(inputs->count(), 3, 20000); // the int16 array is not offered
        QCOMPARE(inputs->currentData().toString(), QStringLiteral("/features/x"));
        QCOMPARE(targets->currentData().toString(), QStringLiteral("/labels"));
        // The scientist picks the scaled inputs: the run reads them.
        inputs->setCurrentIndex(inputs->findData(QStringLiteral("/features/x_scaled")));
        const QJsonObject data = setup->config().value(QStringLiteral("data")).toObject();
        QCOMPARE(data.value(QStringLiteral("dataset")).toString(), QStringLiteral("cells"));
        QCOMPARE(data.value(QStringLiteral("source")).toString(), QStringLiteral("hdf5"));
        QCOMPARE(data.value(QStringLiteral("inputs")).toString(), QStringLiteral("/features/x_scaled"));
        QCOMPARE(data.value(QStringLiteral("targets")).toString(), QStringLiteral("/labels"));
        QTableWidget *runTable = setup->preview()->table();
        QCOMPARE(runTable->item(1, 0)->text(), QStringLiteral("/features/x_scaled"));
        QCOMPARE(runTable->item(1, 3)->text(), QStringLiteral("inputs"));
        QCOMPARE(runTable->item(0, 3)->text(), QString());
        // The engine's dry run reads the picked arrays of the registered file.
        QTRY_VERIFY2_WITH_TIMEOUT(!setup->plan().isEmpty(), qPrintable(setup->planText()), 60000);
        QVERIFY2(setup->plan().value(QStringLiteral("train_samples")).toDouble() > 0, qPrintable(setup->planText()));
        shoot(&window, "run-setup-hdf5.png");
    }

    /// An MNIST-style IDX pair added with "Add folder…": the page shows the classes and their balance and the first
    /// images as thumbnails named by their labels; the run set-up page reads it without naming the files.
    void idxFolderShowsImagesAndBalanceAndFeedsTheRun() {
        const int n = 90, side = 8;
        QByteArray images("\0\0\x08\x03", 4), labels("\0\0\x08\x01", 4);
        for (quint32 d : {quint32(n), quint32(side), quint32(side)})
            images += QByteArray(1, char(d >> 24)) + char(d >> 16) + char(d >> 8) + char(d);
        labels += QByteArray(3, '\0') + char(n);
        for (int i = 0; i < n; ++i) {
            for (int p = 0; p < side * side; ++p) // class c: a bright band in rows of c
                images += char((p / side) % 3 == i % 3 ? 220 : 20);
            labels += char(i % 3);
        }
        const QString folder = dir_.filePath(QStringLiteral("src/bands"));
        QDir().mkpath(folder);
        for (const auto &[name, bytes] :
             {std::pair{"train-images-idx3-ubyte", images}, {"train-labels-idx1-ubyte", labels}}) {
            QFile f(QDir(folder).filePath(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        }
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws-idx")));
        ui::DatasetsPage *page = showDataPage(window);
        QVERIFY(page);
        QCOMPARE(addThroughFileDialog(window, page, folder, QStringLiteral("addDatasetFolder")),
                 QStringLiteral("bands@1"));
        QCOMPARE(page->currentVersion().format, QStringLiteral("idx"));
        QCOMPARE(page->currentVersion().rows, n);
        QCOMPARE(page->balanceView()->classes().size(), 3);
        QCOMPARE(page->balanceView()->classes().first().second, n / 3);
        QTRY_COMPARE_WITH_TIMEOUT(page->preview()->imageGrid()->count(), 32, 20000);
        QCOMPARE(page->preview()->imageGrid()->item(1)->text(), QStringLiteral("1")); // the label of image 1
        shoot(&window, "data-page-idx.png");

        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("useDatasetInRun")), Qt::LeftButton);
        ui::RunSetupPage *setup = window.runSetup();
        const QJsonObject data = setup->config().value(QStringLiteral("data")).toObject();
        QCOMPARE(data.value(QStringLiteral("images")).toString(), QStringLiteral("train-images-idx3-ubyte"));
        QCOMPARE(data.value(QStringLiteral("labels")).toString(), QStringLiteral("train-labels-idx1-ubyte"));
        // The default network reads 2 features: the plan names the mismatch with the 1 × 8 × 8 images, which
        // shows that the engine found and read both files of the dataset.
        QTRY_VERIFY_WITH_TIMEOUT(setup->planText().contains(QStringLiteral("[N,1,8,8]")), 60000);
    }
};

QTEST_MAIN(TestGuiDatasets)
#include "tst_gui_datasets.moc"
