// The gallery browser against real back ends: a spirals run trained by the real diamond-train (through
// `diamondctl run start --follow`) in a temporary workspace, published with PublishDialog (engine export and
// verification re-run), listed by GalleryPage with its card, searched and filtered; a second workspace served
// by a real `diamondctl serve` on a free 127.0.0.1 port as a remote source: listed, downloaded with the progress
// bar reaching 100 %, imported and verified into the local gallery, exported, opened for the designer. Models
// are checked with QAbstractItemModelTester; screenshots go to <build>/screenshots/gallery*.png. Also: what the
// publish dialog says is shared (this computer's details only when ticked), the signature line and the Trust
// button of the detail view, and package text shown as text (no raw HTML, no links that open on one click).
#include "common/test_paths.h"

#include "app/gallery/gallery_source.h"
#include "app/gallery/gallery_store.h"
#include "app/gallery/model_package.h"
#include "app/workspace/workspace.h"
#include "remote/credential_store.h"
#include "ui/gallery/gallery_detail_view.h"
#include "ui/gallery/gallery_model.h"
#include "ui/gallery/gallery_page.h"
#include "ui/gallery/publish_dialog.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace diamond;

class TestGalleryPage : public QObject {
    Q_OBJECT

    QTemporaryDir home_;
    QString ws_, other_, shots_;
    QProcess server_;
    quint16 port_ = 0;
    QString token_;
    qint64 publishedId_ = 0;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HOME"), home_.path());
        e.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        e.insert(QStringLiteral("DIAMOND_TRAIN"), test::binary(QStringLiteral("diamond-train")));
        return e;
    }

    int ctl(const QString &ws, QStringList args, QString *out = nullptr) {
        args = QStringList{QStringLiteral("--workspace"), ws} + args;
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(test::binary(QStringLiteral("diamondctl")), args);
        if (!p.waitForFinished(240000)) return -1;
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        if (out) *out = text;
        if (p.exitCode() != 0)
            qWarning("diamondctl %s: %s", qPrintable(args.join(QLatin1Char(' '))),
                     p.readAllStandardError().constData());
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    }

    std::unique_ptr<ui::GalleryPage> makePage() {
        auto page = std::make_unique<ui::GalleryPage>(nullptr, std::make_shared<remote::MemoryCredentialStore>());
        page->resize(1400, 900);
        return page;
    }

    static bool waitLoaded(ui::GalleryPage &page, int ms = 30000) {
        QSignalSpy spy(&page, &ui::GalleryPage::loaded);
        return spy.wait(ms);
    }

    static QStringList names(const ui::GalleryPage &page) {
        QStringList out;
        for (int i = 0; i < page.model()->rowCount(); ++i)
            out << page.model()->index(i).data(ui::GalleryModel::NameRole).toString();
        return out;
    }

    void shoot(QWidget *w, const QString &name) {
        QDir().mkpath(shots_);
        QVERIFY(w->grab().save(QDir(shots_).filePath(name)));
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DiamondTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_gallery_page"));
        QSettings().clear();
        QVERIFY(home_.isValid());
        qputenv("DIAMOND_TRAIN", test::binary(QStringLiteral("diamond-train")).toLocal8Bit());
        // One publisher key for the dialog (in this process) and diamondctl (children inherit the variable).
        qputenv("DIAMOND_PUBLISHER_KEY", home_.filePath(QStringLiteral("publisher.pem")).toLocal8Bit());
        shots_ = QStringLiteral(DIAMOND_BINARY_DIR "/screenshots");
        ws_ = home_.filePath(QStringLiteral("ws"));
        other_ = home_.filePath(QStringLiteral("other"));
        QCOMPARE(ctl(ws_, {QStringLiteral("init"), QStringLiteral("--no-examples")}), 0);
        QCOMPARE(ctl(other_, {QStringLiteral("init"), QStringLiteral("--no-examples")}), 0);

        QFile f(test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject config = QJsonDocument::fromJson(f.readAll()).object();
        config.insert(QStringLiteral("steps"), 200);
        config.insert(QStringLiteral("threads"), 1);
        QFile c(home_.filePath(QStringLiteral("run.json")));
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write(QJsonDocument(config).toJson());
        c.close();
        QCOMPARE(ctl(ws_, {QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"),
                           test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")),
                           QStringLiteral("--config"), c.fileName(), QStringLiteral("--follow")}),
                 0);
    }

    void cleanupTestCase() {
        if (server_.state() != QProcess::NotRunning) {
            server_.terminate();
            if (!server_.waitForFinished(5000)) server_.kill();
            server_.waitForFinished(2000);
        }
    }

    void publishDialogRefusesUnfinishedRuns() {
        ui::PublishDialog dialog(ws_, 99);
        QSignalSpy spy(&dialog, &ui::PublishDialog::prefillFinished);
        QVERIFY(spy.wait(30000));
        QVERIFY(!dialog.errorString().isEmpty());
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("publishButton"))->isEnabled());
    }

    void publishFromTheDialog() {
        ui::PublishDialog dialog(ws_, 1);
        QSignalSpy prefill(&dialog, &ui::PublishDialog::prefillFinished);
        QVERIFY(prefill.wait(30000));
        QVERIFY2(dialog.errorString().isEmpty(), qPrintable(dialog.errorString()));
        QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("Spirals classifier"));
        const QString card = dialog.cardEdit()->toPlainText();
        QVERIFY2(card.contains(QStringLiteral("val_accuracy")), qPrintable(card)); // the run's final metrics
        QVERIFY(card.contains(QStringLiteral("Input `x`")));

        // Bad input is refused in the dialog, which stays open.
        dialog.versionEdit()->clear();
        dialog.publish();
        QVERIFY(!dialog.isBusy());
        QVERIFY(dialog.errorString().contains(QStringLiteral("version")));

        dialog.nameEdit()->setText(QStringLiteral("spiral-mlp"));
        dialog.versionEdit()->setText(QStringLiteral("1.2.0"));
        dialog.authorsEdit()->setText(QStringLiteral("Ada, Alan"));
        dialog.licenseBox()->setCurrentText(QStringLiteral("MIT"));
        dialog.tagsEdit()->setText(QStringLiteral("spirals, mlp, teaching"));
        dialog.domainEdit()->setText(QStringLiteral("toy"));
        dialog.cardEdit()->setPlainText(card + QStringLiteral("\nThe zebracorn arm is the hardest.\n"));
        // What is shared: the manifest as it will be written; this computer's details only when ticked.
        auto *tabs = dialog.findChild<QTabWidget *>();
        QVERIFY(tabs);
        tabs->setCurrentIndex(2);
        QVERIFY(!dialog.privateDetailsBox()->isChecked());
        QString shared = dialog.sharedView()->toPlainText();
        QVERIFY2(shared.contains(QStringLiteral("\"spiral-mlp\"")), qPrintable(shared)); // follows the fields
        QVERIFY(shared.contains(QStringLiteral("weights")));
        QVERIFY(shared.contains(QStringLiteral("publisher key made for you")));
        QVERIFY(!shared.contains(QStringLiteral("\"os\"")));
        dialog.privateDetailsBox()->setChecked(true);
        QVERIFY(dialog.sharedView()->toPlainText().contains(QStringLiteral("\"os\"")));
        QVERIFY(dialog.options().includePrivateDetails);
        dialog.resize(820, 760);
        shoot(&dialog, QStringLiteral("gallery-publish-shared.png"));
        dialog.privateDetailsBox()->setChecked(false);
        tabs->setCurrentIndex(0);
        dialog.resize(820, 760);
        shoot(&dialog, QStringLiteral("gallery-publish.png"));
        QSignalSpy published(&dialog, &ui::PublishDialog::published);
        dialog.publish();
        QVERIFY(dialog.isBusy());
        QVERIFY(dialog.progressBar()->isVisibleTo(&dialog));
        QCOMPARE(dialog.progressBar()->maximum(), 0); // busy indicator
        QVERIFY2(published.wait(240000), qPrintable(dialog.errorString()));
        publishedId_ = published.first().at(0).toLongLong();
        QVERIFY(publishedId_ > 0);
        QVERIFY2(published.first().at(1).toBool(), qPrintable(published.first().at(2).toString())); // verified

        app::Workspace ws;
        QVERIFY(ws.open(ws_));
        app::gallery::GalleryStore store(ws);
        const auto e = store.entry(publishedId_);
        QVERIFY(e.has_value());
        QCOMPARE(e->version, QStringLiteral("1.2.0"));
        QCOMPARE(e->license, QStringLiteral("MIT"));
        QCOMPARE(e->tags, (QStringList{QStringLiteral("spirals"), QStringLiteral("mlp"), QStringLiteral("teaching")}));
        QVERIFY(e->card.contains(QStringLiteral("zebracorn")));
        QCOMPARE(e->publisher, QStringLiteral("Ada")); // the first author signs
        QVERIFY(!e->fingerprint.isEmpty());
        QVERIFY(e->trusted); // one's own key
        QVERIFY(!e->manifest.value(QStringLiteral("provenance"))
                     .toObject()
                     .value(QStringLiteral("hardware"))
                     .toObject()
                     .contains(QStringLiteral("os")));
    }

    void localGalleryListsSearchesAndShowsTheCard() {
        QVERIFY(publishedId_ > 0);
        auto page = makePage();
        QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page->setWorkspaceFolder(ws_);
        QVERIFY(waitLoaded(*page));
        QCOMPARE(names(*page), QStringList{QStringLiteral("spiral-mlp")});
        const QModelIndex card = page->model()->index(0);
        QCOMPARE(card.data(ui::GalleryModel::ConsistentRole).toBool(), true);
        QCOMPARE(card.data(ui::GalleryModel::KeyMetricNameRole).toString(), QStringLiteral("val_accuracy"));
        QVERIFY(card.data(ui::GalleryModel::KeyMetricRole).toDouble() > 0.0);
        QVERIFY(!card.data(Qt::DecorationRole).value<QImage>().isNull()); // architecture thumbnail
        QVERIFY(page->taskFilter()->findData(QStringLiteral("classification")) > 0);

        QSignalSpy shown(page.get(), &ui::GalleryPage::entryShown);
        QVERIFY(page->selectEntry(publishedId_));
        QVERIFY(shown.wait(30000));
        ui::GalleryDetailView *detail = page->detailView();
        QCOMPARE(detail->entryId(), publishedId_);
        const QString rendered = detail->cardBrowser()->toPlainText();
        QVERIFY2(rendered.contains(QStringLiteral("The zebracorn arm is the hardest.")), qPrintable(rendered));
        QVERIFY(!rendered.contains(QStringLiteral("## Metrics"))); // Markdown rendered, not shown raw
        QVERIFY(detail->interfaceBrowser()->toPlainText().contains(QStringLiteral("val_accuracy")));
        QVERIFY(detail->provenanceBrowser()->toPlainText().contains(QStringLiteral("weights.safetensors")));
        QVERIFY(!detail->importButton()->isVisibleTo(detail));
        QVERIFY(detail->removeButton()->isEnabled());
        QVERIFY2(detail->signatureLabel()->text().contains(QStringLiteral("Signed by Ada, a publisher you trust")),
                 qPrintable(detail->signatureLabel()->text()));
        QCOMPARE(card.data(ui::GalleryModel::SignatureRole).toString(), QStringLiteral("trusted"));

        // Debounced full-text search.
        page->searchBox()->setText(QStringLiteral("zebra"));
        QVERIFY(!page->isLoading()); // not yet: the search waits for typing to pause
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 1);
        page->searchBox()->setText(QStringLiteral("unicornless"));
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 0);
        QVERIFY(page->detailView()->entryId() == 0);
        page->searchBox()->clear();
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 1);

        // Filters.
        page->licenseFilter()->setCurrentIndex(page->licenseFilter()->findData(QStringLiteral("MIT")));
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 1);
        page->taskFilter()->setCurrentIndex(0);
        page->domainFilter()->setCurrentIndex(page->domainFilter()->findData(QStringLiteral("toy")));
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 1);
        page->consistentOnlyBox()->setChecked(true);
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 1);
    }

    void remoteGalleryDownloadAndImport() {
        // A second model, published in the first workspace, moved to the second one, served over HTTP.
        QString out;
        QCOMPARE(
            ctl(ws_,
                {QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("1"), QStringLiteral("--name"),
                 QStringLiteral("arms-remote"), QStringLiteral("--tags"), QStringLiteral("remote, spirals"),
                 QStringLiteral("--domain"), QStringLiteral("geometry"), QStringLiteral("--json")},
                &out),
            0);
        const qint64 moved = QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("id")).toInteger();
        QVERIFY(moved > 0);
        const QString file = home_.filePath(QStringLiteral("arms.diamond"));
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("export"), QString::number(moved), file}), 0);
        QCOMPARE(ctl(other_, {QStringLiteral("gallery"), QStringLiteral("import"), file}), 0);
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("remove"), QString::number(moved)}), 0);

        server_.setProcessEnvironment(env());
        server_.start(test::binary(QStringLiteral("diamondctl")),
                      {QStringLiteral("--workspace"), other_, QStringLiteral("serve"), QStringLiteral("--port"),
                       QStringLiteral("0")});
        QElapsedTimer t;
        t.start();
        while (!server_.canReadLine() && t.elapsed() < 30000)
            server_.waitForReadyRead(1000);
        const QString line = QString::fromUtf8(server_.readLine());
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("127\\.0\\.0\\.1:(\\d+)/api/v1/")).match(line);
        QVERIFY2(m.hasMatch(), qPrintable(line));
        port_ = quint16(m.captured(1).toUInt());
        QCOMPARE(ctl(other_, {QStringLiteral("serve"), QStringLiteral("--print-token")}, &token_), 0);
        token_ = token_.trimmed();
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port_);

        auto page = makePage();
        QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page->setWorkspaceFolder(ws_);
        QVERIFY(waitLoaded(*page));

        // A wrong token: a clear 401 message, no cards.
        const int bad = page->addRemoteSource(QStringLiteral("Wrong token"), url, QStringLiteral("nope"));
        page->setCurrentSource(bad);
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 0);
        QVERIFY2(page->messageLabel()->text().contains(QStringLiteral("401")),
                 qPrintable(page->messageLabel()->text()));
        page->removeRemoteSource(bad);

        const int lab = page->addRemoteSource(QStringLiteral("Lab server"), url, token_);
        QCOMPARE(page->sourceCount(), 2);
        QCOMPARE(page->sourceList()->item(lab)->text(), QStringLiteral("Lab server"));
        page->setCurrentSource(lab);
        QVERIFY(waitLoaded(*page));
        QCOMPARE(names(*page), QStringList{QStringLiteral("arms-remote")});
        QTRY_VERIFY_WITH_TIMEOUT(!page->model()->index(0).data(Qt::DecorationRole).value<QImage>().isNull(), 20000);
        // Remembered: URL in the settings, the token not.
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("gallery/remotes/1/url")).toString(), url);
        for (const QString &key : settings.allKeys())
            QVERIFY(!settings.value(key).toString().contains(token_));

        const qint64 remoteId = page->model()->index(0).data(ui::GalleryModel::IdRole).toLongLong();
        // The serving gallery has not been told to trust the publisher.
        QCOMPARE(page->model()->index(0).data(ui::GalleryModel::SignatureRole).toString(), QStringLiteral("untrusted"));
        QSignalSpy shown(page.get(), &ui::GalleryPage::entryShown);
        QVERIFY(page->selectEntry(remoteId));
        QVERIFY(shown.wait(30000));
        ui::GalleryDetailView *detail = page->detailView();
        QVERIFY(detail->cardBrowser()->toPlainText().contains(QStringLiteral("Interface")));
        QVERIFY(detail->importButton()->isVisibleTo(detail));
        QVERIFY(!detail->fineTuneButton()->isEnabled());

        // Download and import, with the progress bar.
        QList<int> progress;
        connect(detail->progressBar(), &QProgressBar::valueChanged, this, [&progress](int v) { progress << v; });
        QSignalSpy imported(page.get(), &ui::GalleryPage::importFinished);
        page->importCurrent();
        QVERIFY(detail->progressBar()->isVisibleTo(detail));
        QVERIFY(imported.wait(240000));
        const qint64 localId = imported.first().at(0).toLongLong();
        QVERIFY2(localId > 0, qPrintable(imported.first().at(2).toString()));
        QVERIFY2(imported.first().at(1).toBool(), qPrintable(imported.first().at(2).toString())); // verified here
        QCOMPARE(detail->progressBar()->value(), 100);
        QVERIFY(!progress.isEmpty() && progress.last() == 100);
        QVERIFY(detail->statusLabel()->text().contains(QString::number(localId)));
        page->show();
        QVERIFY(QTest::qWaitForWindowExposed(page.get()));
        shoot(page.get(), QStringLiteral("gallery-remote.png"));
        {
            app::Workspace ws;
            QVERIFY(ws.open(ws_));
            app::gallery::GalleryStore store(ws);
            const auto e = store.entry(localId);
            QVERIFY(e.has_value());
            QCOMPARE(e->name, QStringLiteral("arms-remote"));
            QVERIFY(e->consistent);
            QCOMPARE(store.count(), 2);
        }

        // Export from the remote source: the same bytes as the server's package.
        const QString exported = home_.filePath(QStringLiteral("exported.diamond"));
        QSignalSpy exportedSpy(page.get(), &ui::GalleryPage::exportFinished);
        page->exportCurrent(exported);
        QVERIFY(exportedSpy.wait(60000));
        QVERIFY2(exportedSpy.first().at(1).toString().isEmpty(), qPrintable(exportedSpy.first().at(1).toString()));
        QCOMPARE(app::gallery::fileSha256(exported), app::gallery::fileSha256(file));

        // Open in designer: the checked spec.
        QSignalSpy open(page.get(), &ui::GalleryPage::openSpecRequested);
        page->openCurrentInDesigner();
        QVERIFY(open.wait(60000));
        QCOMPARE(open.first().at(0).toJsonObject().value(QStringLiteral("format")).toString(),
                 QStringLiteral("diamond.spec/1"));

        // The local gallery now lists both; fine-tune and remove act on local entries.
        page->setCurrentSource(0);
        QVERIFY(waitLoaded(*page));
        QCOMPARE(page->model()->rowCount(), 2);
        QVERIFY(page->selectEntry(localId));
        QTRY_COMPARE_WITH_TIMEOUT(page->detailView()->entryId(), localId, 30000);
        QSignalSpy fineTune(page.get(), &ui::GalleryPage::fineTuneRequested);
        page->fineTuneCurrent();
        QVERIFY(fineTune.wait(30000));
        QCOMPARE(fineTune.first().at(0).toLongLong(), localId);
        QVERIFY(QFile::exists(fineTune.first().at(1).toString()));
    }

    /// The publisher of a package imported into the second workspace is not trusted there until the user says
    /// so with the detail view's button; the card and the whole page follow.
    void trustAPublisherFromTheDetailView() {
        auto page = makePage();
        page->setWorkspaceFolder(other_);
        QVERIFY(waitLoaded(*page));
        QCOMPARE(names(*page), QStringList{QStringLiteral("arms-remote")});
        const qint64 id = page->model()->index(0).data(ui::GalleryModel::IdRole).toLongLong();
        QSignalSpy shown(page.get(), &ui::GalleryPage::entryShown);
        QVERIFY(page->selectEntry(id));
        QVERIFY(shown.wait(30000));
        ui::GalleryDetailView *detail = page->detailView();
        QVERIFY2(detail->signatureLabel()->text().contains(QStringLiteral("not on your trust list")),
                 qPrintable(detail->signatureLabel()->text()));
        QVERIFY(detail->trustButton()->isVisibleTo(detail));
        QCOMPARE(detail->trustButton()->text(), QStringLiteral("&Trust this publisher"));
        page->show();
        QVERIFY(QTest::qWaitForWindowExposed(page.get()));
        shoot(page.get(), QStringLiteral("gallery-untrusted.png"));
        // The detail view and the card follow (the page reloads both; wait for the state, not for one signal).
        page->toggleTrustCurrent(false);
        QTRY_VERIFY_WITH_TIMEOUT(detail->isTrusted(), 30000);
        QVERIFY(detail->signatureLabel()->text().contains(QStringLiteral("a publisher you trust")));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->index(0).data(ui::GalleryModel::SignatureRole).toString(),
                                  QStringLiteral("trusted"), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isLoading() && detail->trustButton()->isEnabled(), 30000);
        page->toggleTrustCurrent(false);
        QTRY_VERIFY_WITH_TIMEOUT(!detail->isTrusted(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->index(0).data(ui::GalleryModel::SignatureRole).toString(),
                                  QStringLiteral("untrusted"), 30000);
        {
            app::Workspace ws;
            QVERIFY(ws.open(other_));
            QVERIFY(app::gallery::GalleryStore(ws).trustedKeys().isEmpty());
        }
    }

    /// Titles are plain text; the card's Markdown shows raw HTML as text, loads nothing and opens no link on a click.
    void untrustedTextIsShownAsText() {
        ui::GalleryDetailView view;
        app::gallery::GalleryEntry e;
        e.id = 42;
        e.name = QStringLiteral("evil");
        e.title = QStringLiteral("<a href='file:///etc/passwd'>Click me</a>");
        e.card = QStringLiteral("# Card\n\n<b>bold?</b> <img src='file:///etc/hostname'> [a link](file:///bin/sh)\n");
        view.showEntry(e, false);
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("galleryDetailTitle"))->textFormat(), Qt::PlainText);
        const QString card = view.cardBrowser()->toPlainText();
        QVERIFY2(card.contains(QStringLiteral("<b>bold?</b>")), qPrintable(card)); // shown, not interpreted
        QVERIFY(card.contains(QStringLiteral("<img")));
        QVERIFY(card.contains(QStringLiteral("a link")));
        QVERIFY(!view.cardBrowser()->openLinks());
        QVERIFY(!view.cardBrowser()->openExternalLinks());
        QVERIFY(!view.cardBrowser()
                     ->loadResource(QTextDocument::ImageResource, QUrl(QStringLiteral("file:///etc/hostname")))
                     .isValid());
    }

    void screenshots() {
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("1"),
                           QStringLiteral("--name"), QStringLiteral("Spiral arms for the classroom, three-arm edition"),
                           QStringLiteral("--tags"), QStringLiteral("education, spirals, mlp, demo, toy"),
                           QStringLiteral("--domain"), QStringLiteral("education"), QStringLiteral("--license"),
                           QStringLiteral("CC0-1.0")}),
                 0);
        auto page = makePage();
        page->setWorkspaceFolder(ws_);
        QVERIFY(waitLoaded(*page));
        page->show();
        QVERIFY(QTest::qWaitForWindowExposed(page.get()));
        QVERIFY(page->selectEntry(publishedId_));
        QTRY_COMPARE_WITH_TIMEOUT(page->detailView()->entryId(), publishedId_, 30000);
        shoot(page.get(), QStringLiteral("gallery.png"));
        auto *tabs = page->detailView()->findChild<QTabWidget *>();
        QVERIFY(tabs);
        tabs->setCurrentIndex(1);
        shoot(page->detailView(), QStringLiteral("gallery-interface.png"));
        tabs->setCurrentIndex(2);
        shoot(page->detailView(), QStringLiteral("gallery-provenance.png"));
        tabs->setCurrentIndex(0);

        QPalette dark;
        dark.setColor(QPalette::Window, QColor(37, 37, 38));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        dark.setColor(QPalette::Button, QColor(51, 51, 55));
        dark.setColor(QPalette::ButtonText, QColor(230, 230, 230));
        dark.setColor(QPalette::Highlight, QColor(38, 120, 200));
        dark.setColor(QPalette::HighlightedText, Qt::white);
        dark.setColor(QPalette::Link, QColor(100, 170, 255));
        dark.setColor(QPalette::Mid, QColor(80, 80, 84));
        dark.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            dark.setColor(QPalette::Disabled, role, QColor(120, 120, 120));
        page->setPalette(dark);
        QTest::qWait(50);
        shoot(page.get(), QStringLiteral("gallery-dark.png"));
    }
};

QTEST_MAIN(TestGalleryPage)
#include "tst_gallery_page.moc"
