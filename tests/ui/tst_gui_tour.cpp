// A point-and-click tour of the main window: every page is reached only through the window's menus, toolbar and
// buttons (QAction triggers, clicks and keys; no page method is called to open anything): designer, run set-up, run
// monitor (a real training run), compare, sweep editor, sweep view, the sweeps list, clusters, gallery, the publish
// dialog (from the run monitor and from the runs table's menu) and preferences. The docks keep their width when a
// run monitor opens. Screenshots of every stop go to <build>/screenshots/tour/ (docs/screenshots are taken from
// there).
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_store.h"
#include "ui/cluster/cluster_manager_page.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/gallery/gallery_page.h"
#include "ui/gallery/publish_dialog.h"
#include "ui/preferences_dialog.h"
#include "ui/run/compare_page.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_model.h"
#include "ui/run/runs_panel.h"
#include "ui/sweep/sweep_editor.h"
#include "ui/sweep/sweep_view_page.h"
#include "ui/sweep/sweeps_page.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHash>
#include <QItemSelectionModel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace diamond;

class TestGuiTour : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString shots_;
    int shot_ = 0;

    QHash<QString, int> dockWidths_; ///< widths at the start of the tour

    /// The docks keep their width whichever page is shown.
    void checkDocks(QWidget *window, const QString &page) {
        for (QDockWidget *dock : window->findChildren<QDockWidget *>()) {
            if (!dock->isVisible()) continue;
            if (!dockWidths_.contains(dock->objectName())) dockWidths_.insert(dock->objectName(), dock->width());
            QVERIFY2(qAbs(dock->width() - dockWidths_.value(dock->objectName())) <= 2,
                     qPrintable(QStringLiteral("%1 changed from %2 to %3 px on the %4 page")
                                    .arg(dock->objectName())
                                    .arg(dockWidths_.value(dock->objectName()))
                                    .arg(dock->width())
                                    .arg(page)));
        }
    }
    void shoot(QWidget *w, const QString &name) {
        QDir().mkpath(shots_);
        QTest::qWait(150); // let charts and layouts settle
        if (qobject_cast<ui::MainWindow *>(w)) checkDocks(w, name);
        QVERIFY(w->grab().save(
            QDir(shots_).filePath(QStringLiteral("%1-%2.png").arg(++shot_, 2, 10, QLatin1Char('0')).arg(name))));
    }
    /// Triggers a menu entry the way a click does: it must be in a menu of the menu bar and enabled.
    static void trigger(ui::MainWindow &w, const QString &actionName) {
        QAction *a = w.action(actionName);
        QVERIFY2(a, qPrintable(actionName));
        bool inMenu = false;
        for (QAction *top : w.menuBar()->actions())
            if (top->menu() && top->menu()->actions().contains(a)) inMenu = true;
        QVERIFY2(inMenu, qPrintable(actionName + QStringLiteral(" is in no menu")));
        QVERIFY2(a->isEnabled(), qPrintable(actionName + QStringLiteral(" is disabled")));
        a->trigger();
    }
    template <typename Page> static Page *current(ui::MainWindow &w) {
        return qobject_cast<Page *>(w.tabs()->currentWidget());
    }
    /// Selects the runs table's rows of `runIds` by clicking them (Ctrl for the second).
    static void clickRuns(ui::MainWindow &w, const QList<qint64> &runIds) {
        QTableView *view = w.runsPanel()->view();
        bool first = true;
        for (qint64 id : runIds) {
            const int row = w.runsPanel()->model()->rowOfRun(id);
            const QModelIndex index = w.runsPanel()->proxy()->mapFromSource(w.runsPanel()->model()->index(row, 0));
            view->scrollTo(index);
            QTest::mouseClick(view->viewport(), Qt::LeftButton, first ? Qt::NoModifier : Qt::ControlModifier,
                              view->visualRect(index).center());
            first = false;
        }
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gui_tour"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
        shots_ = QStringLiteral(DIAMOND_BINARY_DIR "/screenshots/tour");
        QDir(shots_).removeRecursively();
    }

    void everyPageFromTheMenus() {
        ui::MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList menus;
        for (QAction *a : window.menuBar()->actions())
            menus << a->text().remove(QLatin1Char('&'));
        QCOMPARE(menus, (QStringList{QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("View"),
                                     QStringLiteral("Run"), QStringLiteral("Help")}));

        // Designer and run set-up.
        trigger(window, QStringLiteral("showDesigner"));
        QVERIFY(current<ui::DesignerPage>(window));
        shoot(&window, QStringLiteral("designer"));
        trigger(window, QStringLiteral("showRunSetup"));
        QVERIFY(current<ui::RunSetupPage>(window));
        QTRY_VERIFY_WITH_TIMEOUT(!window.runSetup()->plan().isEmpty(), 60000);
        shoot(&window, QStringLiteral("run-setup"));

        // Train (the toolbar's action; Ctrl+Return): a run monitor opens (the docks keep their width: shoot()).
        QCOMPARE(window.action(QStringLiteral("trainAction"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Return));
        QVERIFY(window.findChild<QToolBar *>(QStringLiteral("mainToolbar"))
                    ->actions()
                    .contains(window.action(QStringLiteral("trainAction"))));
        trigger(window, QStringLiteral("trainAction"));
        auto *monitor = current<ui::RunMonitorPage>(window);
        QVERIFY2(monitor, "Train opened no run monitor");
        const qint64 first = monitor->runId();
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() == app::RunState::Finished, 120000);
        QVERIFY(monitor->publishButton()->isEnabled());
        QVERIFY(monitor->jobText().isEmpty()); // a local run has no batch job
        shoot(&window, QStringLiteral("run-monitor"));

        // A second run with Ctrl+Return on the run set-up page (the key must not be ambiguous there), then both
        // compared through the Run menu.
        trigger(window, QStringLiteral("showRunSetup"));
        QTest::keyClick(window.runSetup(), Qt::Key_Return, Qt::ControlModifier);
        auto *second = current<ui::RunMonitorPage>(window);
        QVERIFY2(second && second->runId() != first, "Ctrl+Return did not train");
        QTRY_VERIFY_WITH_TIMEOUT(second->state() == app::RunState::Finished, 120000);
        clickRuns(window, {first, second->runId()});
        QCOMPARE(window.runsPanel()->selectedRunIds().size(), 2);
        trigger(window, QStringLiteral("compareAction"));
        QVERIFY(current<ui::ComparePage>(window));
        shoot(&window, QStringLiteral("compare"));

        // Publish from the runs table's menu (the Run menu shows the same actions), then from the run monitor.
        clickRuns(window, {first});
        trigger(window, QStringLiteral("publishRun"));
        auto *fromTable = window.findChild<ui::PublishDialog *>();
        QVERIFY2(fromTable && fromTable->isVisible(), "no publish dialog from the runs table");
        QCOMPARE(fromTable->runId(), first);
        QTRY_VERIFY_WITH_TIMEOUT(fromTable->isPrefilled(), 30000);
        fromTable->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->click();
        QTRY_VERIFY(!window.findChild<ui::PublishDialog *>());
        window.tabs()->setCurrentWidget(monitor);
        QTest::mouseClick(monitor->publishButton(), Qt::LeftButton);
        auto *dialog = window.findChild<ui::PublishDialog *>();
        QVERIFY2(dialog && dialog->isVisible(), "no publish dialog from the run monitor");
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isPrefilled(), 30000);
        shoot(dialog, QStringLiteral("publish"));
        QSignalSpy published(dialog, &ui::PublishDialog::published);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("publishButton")), Qt::LeftButton);
        QVERIFY2(published.wait(240000), qPrintable(dialog->errorString()));

        // Gallery: the published model.
        trigger(window, QStringLiteral("showGallery"));
        auto *gallery = current<ui::GalleryPage>(window);
        QVERIFY(gallery);
        QTRY_VERIFY_WITH_TIMEOUT(gallery->totalMatches() == 1, 30000);
        shoot(&window, QStringLiteral("gallery"));

        // A sweep from the Run menu: two trials of the learning rate, started with the editor's button.
        trigger(window, QStringLiteral("newSweepAction"));
        auto *editor = current<ui::sweep::SweepEditor>(window);
        QVERIFY(editor);
        auto *picker = editor->findChild<QComboBox *>(QStringLiteral("parameterPicker"));
        picker->setCurrentIndex(picker->findData(QStringLiteral("optimizer.lr")));
        QVERIFY(picker->currentIndex() >= 0);
        for (QPushButton *b : editor->findChildren<QPushButton *>())
            if (b->text() == QLatin1String("Add")) QTest::mouseClick(b, Qt::LeftButton);
        auto setSpin = [&](const char *name, int value) {
            auto *spin = editor->findChild<QSpinBox *>(QLatin1String(name));
            QVERIFY2(spin, name);
            spin->selectAll();
            QTest::keyClicks(spin, QString::number(value));
            QTest::keyClick(spin, Qt::Key_Tab);
            QCOMPARE(spin->value(), value);
        };
        setSpin("maxTrials", 2);
        setSpin("budgetPerTrial", 2);
        auto *start = editor->findChild<QPushButton *>(QStringLiteral("startButton"));
        QTRY_VERIFY_WITH_TIMEOUT(start->isEnabled(), 10000);
        shoot(&window, QStringLiteral("sweep-editor"));
        QTest::mouseClick(start, Qt::LeftButton);
        auto *view = current<ui::sweep::SweepViewPage>(window);
        QVERIFY2(view, "Start opened no sweep view");
        QVERIFY(view->controller());
        const qint64 sweepId = view->sweepId();
        QTRY_VERIFY_WITH_TIMEOUT(view->controller()->isFinished(), 180000);
        QTest::qWait(400);
        shoot(&window, QStringLiteral("sweep"));

        // The sweeps list (View menu), and Open from it.
        trigger(window, QStringLiteral("showSweeps"));
        auto *sweeps = current<ui::sweep::SweepsPage>(window);
        QVERIFY(sweeps);
        QTRY_COMPARE(sweeps->model()->rowCount(), 1);
        QCOMPARE(sweeps->model()->item(0, ui::sweep::SweepsPage::StateCol)->text(), QStringLiteral("completed"));
        QTest::mouseClick(sweeps->view()->viewport(), Qt::LeftButton, Qt::NoModifier,
                          sweeps->view()->visualRect(sweeps->model()->index(0, 1)).center());
        QCOMPARE(sweeps->selectedSweepId(), sweepId);
        shoot(&window, QStringLiteral("sweeps"));
        QTest::mouseClick(sweeps->openButton(), Qt::LeftButton);
        QCOMPARE(current<ui::sweep::SweepViewPage>(window), view); // the open view, not a second one

        // Clusters (toolbar and View menu).
        QVERIFY(window.findChild<QToolBar *>(QStringLiteral("mainToolbar"))
                    ->actions()
                    .contains(window.action(QStringLiteral("showClusters"))));
        trigger(window, QStringLiteral("showClusters"));
        QVERIFY(current<ui::ClusterManagerPage>(window));
        shoot(&window, QStringLiteral("clusters"));

        // Preferences (Edit menu).
        trigger(window, QStringLiteral("preferencesAction"));
        auto *prefs = window.findChild<ui::PreferencesDialog *>();
        QVERIFY(prefs && prefs->isVisible());
        shoot(prefs, QStringLiteral("preferences"));
        prefs->reject();

        // Deleting a run from the runs table's menu asks first; the store and the monitor tab follow.
        clickRuns(window, {second->runId()});
        const qint64 gone = second->runId();
        trigger(window, QStringLiteral("deleteRuns"));
        auto *question = window.findChild<QMessageBox *>(QStringLiteral("deleteRunsQuestion"));
        QVERIFY(question);
        question->button(QMessageBox::Yes)->click();
        QTRY_VERIFY(!app::RunStore(*window.workspace()).run(gone));
        QCOMPARE(window.runsPanel()->model()->rowOfRun(gone), -1);
        for (int i = 0; i < window.tabs()->count(); ++i)
            if (auto *m = qobject_cast<ui::RunMonitorPage *>(window.tabs()->widget(i))) QVERIFY(m->runId() != gone);
    }
};

QTEST_MAIN(TestGuiTour)
#include "tst_gui_tour.moc"
