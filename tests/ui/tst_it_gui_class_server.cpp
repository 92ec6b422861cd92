// The desktop app on a class server: File ▸ Connect to class server… with a student's token against a real
// `diamondctl serve` on 127.0.0.1 (a wrong token is refused in the dialog), the server becomes the run set-up's
// target, Train sends the spirals example there, and the run monitor shows its curve as the server trains it. The
// server holds the run, owned by the student. Screenshots go to <build>/screenshots.
#include "common/rest_test_server.h"
#include "ui/main_window.h"

#include "app/run/run_store.h"
#include "app/workspace/workspace.h"
#include "ui/connect_server_dialog.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/gallery/server_publish_dialog.h"
#include "ui/run/compare_page.h"
#include "ui/run/curve_chart.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;
using test::RestTestServer;

class TestGuiClassServer : public QObject {
    Q_OBJECT
    QTemporaryDir home_;
    QString serverWs_;
    RestTestServer server_;
    QString token_;

    QProcessEnvironment env() const { return RestTestServer::environment(home_); }

    void shoot(QWidget *w, const char *name) {
        const QString dir = QStringLiteral(DIAMOND_BINARY_DIR "/screenshots");
        QDir().mkpath(dir);
        QVERIFY(w->grab().save(QDir(dir).filePath(QLatin1String(name))));
    }

    /// Opens File ▸ Connect to class server…, fills in the address and `token`, presses Connect; the dialog.
    ui::ConnectServerDialog *connectWith(ui::MainWindow &window, const QString &token) {
        window.action(QStringLiteral("connectServerAction"))->trigger();
        auto *dialog = window.findChild<ui::ConnectServerDialog *>();
        if (!dialog || !dialog->isVisible()) return nullptr;
        dialog->urlEdit()->setText(QStringLiteral("http://127.0.0.1:%1").arg(server_.port()));
        dialog->tokenEdit()->setText(token);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("serverConnect")), Qt::LeftButton);
        return dialog;
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_it_gui_class_server"));
        QSettings().clear();
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
        serverWs_ = home_.filePath(QStringLiteral("server-ws"));
        QCOMPARE(RestTestServer::ctl(env(), serverWs_, {QStringLiteral("init")}), 0);
        QString out;
        QCOMPARE(RestTestServer::ctl(env(), serverWs_,
                                     {QStringLiteral("user"), QStringLiteral("add"), QStringLiteral("alice"),
                                      QStringLiteral("--role"), QStringLiteral("student"), QStringLiteral("--json")},
                                     &out),
                 0);
        token_ = QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("token")).toString();
        QVERIFY(!token_.isEmpty());
        QVERIFY(server_.start(env(), serverWs_));
    }

    void studentTrainsSpiralsOnTheServer() {
        ui::MainWindow window(nullptr, home_.filePath(QStringLiteral("laptop-ws")));
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // A wrong token: the dialog says so and stays open.
        ui::ConnectServerDialog *dialog = connectWith(window, QStringLiteral("wrong-token"));
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->statusText().contains(QStringLiteral("does not accept")), 20000);
        QVERIFY(dialog->isVisible());
        dialog->close();
        QTRY_VERIFY(!window.findChild<ui::ConnectServerDialog *>());

        dialog = connectWith(window, token_);
        QVERIFY(dialog);
        shoot(dialog, "connect-server.png");
        QTRY_VERIFY_WITH_TIMEOUT(!window.findChild<ui::ConnectServerDialog *>(), 20000);
        const QString target = QStringLiteral("server:alice@127.0.0.1:%1").arg(server_.port());
        QCOMPARE(window.runSetup()->target(), target);
        QVERIFY(window.findChild<QLabel *>(QStringLiteral("statusServer"))->text().contains(QStringLiteral("alice")));

        window.runSetup()->findChild<QSpinBox *>(QStringLiteral("epochs"))->setValue(6);
        window.action(QStringLiteral("trainAction"))->trigger();
        auto *monitor = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY2(monitor, "Train did not open a run monitor");
        QTRY_VERIFY_WITH_TIMEOUT(monitor->chart(QStringLiteral("loss")) &&
                                     monitor->chart(QStringLiteral("loss"))->pointCount(QStringLiteral("loss/train")) >
                                         3,
                                 120000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->state() == app::RunState::Finished, 120000);
        QTRY_VERIFY(!monitor->chart(QStringLiteral("loss"))->hasPendingFrame());
        QVERIFY(monitor->pointCount(QStringLiteral("loss"), app::MetricSplit::Validation) >= 6);
        shoot(&window, "run-monitor-class-server.png");

        // The run lives on the server, owned by alice; the local copy names the server as its target.
        app::RunStore local(*window.workspace());
        QCOMPARE(local.run(monitor->runId())->target, target);
        const auto runs = server_.request("GET", QStringLiteral("/api/v1/runs"), {}, token_).json();
        const QJsonArray list = runs.value(QStringLiteral("runs")).toArray();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().toObject().value(QStringLiteral("owner")).toString(), QStringLiteral("alice"));
        QCOMPARE(list.first().toObject().value(QStringLiteral("state")).toString(), QStringLiteral("finished"));

        // A second run there with another learning rate; Compare draws both from the local mirror.
        window.runSetup()->findChild<QDoubleSpinBox *>(QStringLiteral("learningRate"))->setValue(0.05);
        window.action(QStringLiteral("trainAction"))->trigger();
        auto *second = qobject_cast<ui::RunMonitorPage *>(window.tabs()->currentWidget());
        QVERIFY(second && second != monitor);
        QTRY_VERIFY_WITH_TIMEOUT(second->state() == app::RunState::Finished, 120000);
        ui::ComparePage *compare = window.showCompare({monitor->runId(), second->runId()});
        QVERIFY(compare);
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isLoading() && compare->chart()->seriesKeys().size() >= 2, 30000);
        for (const QString &key : compare->chart()->seriesKeys())
            QVERIFY2(compare->chart()->pointCount(key) > 0, qPrintable(key));
        shoot(&window, "compare-class-server.png");

        // Publish… on the monitor publishes to the class gallery: refused until the instructor allows it.
        window.showRunMonitor(monitor->runId());
        QTest::mouseClick(monitor->findChild<QPushButton *>(QStringLiteral("publishRun")), Qt::LeftButton);
        auto *publish = window.findChild<ui::ServerPublishDialog *>();
        QVERIFY2(publish && publish->isVisible(), "Publish did not open the class-gallery dialog");
        publish->titleEdit()->setText(QStringLiteral("Alice's spirals"));
        QTest::mouseClick(publish->findChild<QPushButton *>(QStringLiteral("publishOnServer")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(publish->statusText().contains(QStringLiteral("ask your instructor")), 20000);
        QCOMPARE(RestTestServer::ctl(env(), serverWs_,
                                     {QStringLiteral("user"), QStringLiteral("update"), QStringLiteral("alice"),
                                      QStringLiteral("--publish")}),
                 0);
        QTest::mouseClick(publish->findChild<QPushButton *>(QStringLiteral("publishOnServer")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!window.findChild<ui::ServerPublishDialog *>(), 60000);
        const QJsonArray entries = server_.request("GET", QStringLiteral("/api/v1/gallery"), {}, token_)
                                       .json()
                                       .value(QStringLiteral("entries"))
                                       .toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.first().toObject().value(QStringLiteral("title")).toString(),
                 QStringLiteral("Alice's spirals"));
    }
};

QTEST_MAIN(TestGuiClassServer)
#include "tst_it_gui_class_server.moc"
