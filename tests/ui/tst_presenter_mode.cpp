// Presenter mode, driven through the main window's F5 key and View menu: larger fonts, a high-contrast palette,
// thicker chart curves, full screen with the side docks out of the way, and everything restored afterwards.
#include "ui/presenter_mode.h"

#include "ui/main_window.h"
#include "ui/run/curve_chart.h"

#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using diamond::ui::CurveChart;
using diamond::ui::MainWindow;
using diamond::ui::PresenterMode;

namespace {

/// Pixels of the image close to `color`.
int pixelsOf(const QImage &image, const QColor &color) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const QRgb *line = reinterpret_cast<const QRgb *>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            if (qAbs(qRed(line[x]) - color.red()) + qAbs(qGreen(line[x]) - color.green()) +
                    qAbs(qBlue(line[x]) - color.blue()) <
                60)
                ++n;
    }
    return n;
}

QDockWidget *dock(const MainWindow &window, const char *name) {
    return window.findChild<QDockWidget *>(QLatin1String(name));
}

} // namespace

class TestPresenterMode : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_presenter_mode"));
        QSettings().clear();
        QVERIFY(dir_.isValid());
    }

    void highContrastPaletteIsReadable() {
        const QPalette p = PresenterMode::highContrastPalette();
        const QList<QPair<QPalette::ColorRole, QPalette::ColorRole>> pairs = {
            {QPalette::Text, QPalette::Base},
            {QPalette::WindowText, QPalette::Window},
            {QPalette::ButtonText, QPalette::Button},
            {QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::ToolTipText, QPalette::ToolTipBase},
            {QPalette::PlaceholderText, QPalette::Base},
            {QPalette::Link, QPalette::Base}};
        for (const auto &[fg, bg] : pairs) {
            const double ratio =
                PresenterMode::contrastRatio(p.color(QPalette::Active, fg), p.color(QPalette::Active, bg));
            QVERIFY2(ratio >= 7.0, qPrintable(QStringLiteral("role %1 on %2: %3:1").arg(fg).arg(bg).arg(ratio)));
            const double disabled =
                PresenterMode::contrastRatio(p.color(QPalette::Disabled, fg), p.color(QPalette::Disabled, bg));
            QVERIFY2(disabled >= 4.5,
                     qPrintable(QStringLiteral("disabled role %1 on %2: %3:1").arg(fg).arg(bg).arg(disabled)));
        }
        QCOMPARE(qRound(PresenterMode::contrastRatio(Qt::black, Qt::white)), 21);
        QCOMPARE(PresenterMode::contrastRatio(Qt::gray, Qt::gray), 1.0);
    }

    void f5PresentsAndRestores() {
        MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QFont font = QApplication::font();
        const QPalette palette = QApplication::palette();
        const QRect geometry = window.geometry();
        QVERIFY(dock(window, "workspaceDock")->isVisible());
        QVERIFY(dock(window, "runsDock")->isVisible());

        // A chart in the window, as the run monitor and compare pages hold them.
        auto *chart = new CurveChart(&window);
        const QColor curve(0xd6, 0x27, 0x28);
        chart->addSeries(QStringLiteral("loss"), QStringLiteral("loss"), curve);
        QVector<QPointF> points;
        for (int i = 0; i < 200; ++i)
            points.append(QPointF(i, std::exp(-i / 50.0) + 0.1 * std::sin(i / 5.0)));
        chart->replacePoints(QStringLiteral("loss"), points);
        chart->resize(640, 400);
        const int thin = pixelsOf(chart->renderNow(), curve);
        QVERIFY(thin > 200);

        QAction *action = window.action(QStringLiteral("presenterModeAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::Key_F5));
        auto *viewMenu = window.menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"));
        QVERIFY(viewMenu->actions().contains(action));

        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(window.presenterMode()->isActive());
        QVERIFY(action->isChecked());
        QTRY_VERIFY(window.isFullScreen());
        QCOMPARE(QApplication::font().pointSizeF(), font.pointSizeF() * PresenterMode::kFontScale);
        QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
        QCOMPARE(QApplication::palette().color(QPalette::Text), QColor(Qt::black));
        QVERIFY(!dock(window, "workspaceDock")->isVisible());
        QVERIFY(!dock(window, "runsDock")->isVisible());
        QTRY_COMPARE(window.tabs()->font().pointSizeF(), QApplication::font().pointSizeF());
        QCOMPARE(PresenterMode::curveLineWidth(), PresenterMode::kCurveLineWidth);
        const int thick = pixelsOf(chart->renderNow(), curve);
        QVERIFY2(thick > 2 * thin,
                 qPrintable(QStringLiteral("curve pixels %1 presenting, %2 before").arg(thick).arg(thin)));

        // The menu entry leaves it as F5 does.
        action->trigger();
        QVERIFY(!window.presenterMode()->isActive());
        QTRY_VERIFY(!window.isFullScreen());
        QCOMPARE(QApplication::font(), font);
        QCOMPARE(QApplication::palette().color(QPalette::Base), palette.color(QPalette::Base));
        QCOMPARE(QApplication::palette().color(QPalette::Text), palette.color(QPalette::Text));
        QVERIFY(dock(window, "workspaceDock")->isVisible());
        QVERIFY(dock(window, "runsDock")->isVisible());
        QTRY_COMPARE(window.geometry().size(), geometry.size());
        QCOMPARE(PresenterMode::curveLineWidth(), 1.0);
        // Thin again (the axes' labels may take a few pixels more or less of the plot than at first).
        const int after = pixelsOf(chart->renderNow(), curve);
        QVERIFY2(qAbs(after - thin) < thin / 5,
                 qPrintable(QStringLiteral("%1 curve pixels, %2 at first").arg(after).arg(thin)));
    }

    void aDockTheUserClosedStaysClosed() {
        MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        dock(window, "runsDock")->hide();
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(!dock(window, "workspaceDock")->isVisible());
        QTest::keyClick(&window, Qt::Key_F5);
        QVERIFY(dock(window, "workspaceDock")->isVisible());
        QVERIFY(!dock(window, "runsDock")->isVisible());
    }

    void aWindowDeletedWhilePresentingGivesTheLookBack() {
        const QFont font = QApplication::font();
        const QColor base = QApplication::palette().color(QPalette::Base);
        {
            MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTest::keyClick(&window, Qt::Key_F5);
            QVERIFY(window.presenterMode()->isActive());
            QCOMPARE(PresenterMode::curveLineWidth(), PresenterMode::kCurveLineWidth);
        } // deleted without close()
        QCOMPARE(QApplication::font(), font);
        QCOMPARE(QApplication::palette().color(QPalette::Base), base);
        QCOMPARE(PresenterMode::curveLineWidth(), 1.0);
    }

    void closingWhilePresentingKeepsTheWindowLayout() {
        {
            MainWindow window(nullptr, dir_.filePath(QStringLiteral("ws")));
            window.resize(1100, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTest::keyClick(&window, Qt::Key_F5);
            QTRY_VERIFY(window.isFullScreen());
            QVERIFY(window.close());
            QVERIFY(!window.presenterMode()->isActive());
        }
        const QFont appFont = QApplication::font();
        MainWindow again(nullptr, dir_.filePath(QStringLiteral("ws")));
        QVERIFY(!again.isFullScreen());
        QCOMPARE(again.size(), QSize(1100, 700));
        QCOMPARE(appFont.pointSizeF(), QFont().pointSizeF());
    }
};

QTEST_MAIN(TestPresenterMode)
#include "tst_presenter_mode.moc"
