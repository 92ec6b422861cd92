// The main window opens with its menus, toolbar and docks, and remembers its layout.
#include "common/test_paths.h"
#include "ui/main_window.h"

#include "app/workspace/workspace.h"
#include "ui/preferences_dialog.h"
#include "ui/workspace_panel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDockWidget>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
        QSettings().clear();
    }

    void hasMenusAndDocks() {
        diamond::ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList menus;
        for (QAction *a : window.menuBar()->actions())
            menus << a->text().remove(QLatin1Char('&'));
        QCOMPARE(menus, (QStringList{QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("View"),
                                     QStringLiteral("Run"), QStringLiteral("Help")}));
        for (const char *name : {"workspaceDock", "paletteDock", "inspectorDock", "summaryDock", "runsDock"})
            QVERIFY2(window.findChild<QDockWidget *>(QLatin1String(name)), name);
    }

    void firstStartShowsTheSampleWorkspace() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("ws"));
        diamond::ui::MainWindow window(nullptr, folder);
        QVERIFY(window.workspace());
        QCOMPARE(window.workspace()->path(), folder);
        auto *panel = window.findChild<diamond::ui::WorkspacePanel *>();
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel->model()->rowCount(), 1);
        const QStandardItem *project = panel->model()->item(0);
        QCOMPARE(project->text(), QStringLiteral("Examples"));
        QCOMPARE(project->rowCount(), 4);
        QCOMPARE(project->child(0, 1)->text(), QStringLiteral("Draft"));
        // A second window on the same folder opens it without adding the examples again.
        diamond::ui::MainWindow again(nullptr, folder);
        QCOMPARE(again.findChild<diamond::ui::WorkspacePanel *>()->model()->item(0)->rowCount(), 4);
    }

    void restoresGeometryFromSettings() {
        {
            diamond::ui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(1200, 760);
            window.close();
        }
        QVERIFY(QSettings().contains(QStringLiteral("ui/geometry")));
        diamond::ui::MainWindow again;
        QCOMPARE(again.size(), QSize(1200, 760));
    }

    void preferencesStoreTheLanguageForTheNextStart() {
        diamond::ui::PreferencesDialog dialog;
        QComboBox *language = dialog.languageBox();
        language->setCurrentIndex(language->findData(QStringLiteral("zh_CN")));
        QVERIFY(dialog.save()); // changed: applied at the next start
        QCOMPARE(QSettings().value(QStringLiteral("ui/language")).toString(), QStringLiteral("zh_CN"));
        QVERIFY(!diamond::ui::PreferencesDialog().save()); // unchanged
        language->setCurrentIndex(0);                      // system language
        QVERIFY(dialog.save());
        QVERIFY(!QSettings().contains(QStringLiteral("ui/language")));
    }

    void executableAnswersVersionWithoutDisplay() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        p.setProcessEnvironment(env);
        p.start(diamond::test::binary(QStringLiteral("diamond")), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).startsWith(QStringLiteral("diamond 0.")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
