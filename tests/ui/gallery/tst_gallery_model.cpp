// GalleryModel (rows, roles, thumbnails, QAbstractItemModelTester), the card delegate's size and painting, and the
// pure helpers of the remote source: URL normalisation and the REST entry JSON. No processes.
#include "app/gallery/gallery_source.h"
#include "app/gallery/gallery_store.h"
#include "ui/gallery/gallery_card_delegate.h"
#include "ui/gallery/gallery_model.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QJsonArray>
#include <QListView>
#include <QPainter>
#include <QSignalSpy>
#include <QtTest>

using namespace diamond;
using app::gallery::GalleryEntry;

class TestGalleryModel : public QObject {
    Q_OBJECT

    static QByteArray png(const QColor &color) {
        QImage image(32, 32, QImage::Format_ARGB32);
        image.fill(color);
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        return bytes;
    }

    static GalleryEntry entry(qint64 id, const QString &name, std::optional<double> metric = {}) {
        GalleryEntry e;
        e.id = id;
        e.name = name;
        e.version = QStringLiteral("1.0.0");
        e.task = QStringLiteral("classification");
        e.domain = QStringLiteral("toy");
        e.tags = {QStringLiteral("a"), QStringLiteral("b")};
        e.keyMetric = metric;
        e.keyMetricName = QStringLiteral("val_accuracy");
        return e;
    }

private Q_SLOTS:
    void rolesAndThumbnails() {
        ui::GalleryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        GalleryEntry first = entry(7, QStringLiteral("seven"), 0.925);
        first.title = QStringLiteral("Seven");
        first.thumbnail = png(Qt::red);
        first.consistent = true;
        model.setEntries({first, entry(9, QStringLiteral("nine"))});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf(9), 1);
        QCOMPARE(model.rowOf(8), -1);
        const QModelIndex a = model.index(0);
        QCOMPARE(a.data().toString(), QStringLiteral("Seven")); // title wins over the name
        QCOMPARE(model.index(1).data().toString(), QStringLiteral("nine"));
        QCOMPARE(a.data(ui::GalleryModel::IdRole).toLongLong(), 7);
        QCOMPARE(a.data(ui::GalleryModel::ConsistentRole).toBool(), true);
        QCOMPARE(a.data(ui::GalleryModel::SubtitleRole).toString(), QStringLiteral("v1.0.0 · classification · toy"));
        QCOMPARE(a.data(ui::GalleryModel::TagsRole).toStringList(),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(a.data(Qt::DecorationRole).value<QImage>().pixelColor(3, 3), QColor(Qt::red));
        QVERIFY(!model.index(1).data(ui::GalleryModel::KeyMetricRole).isValid());
        QVERIFY(!model.index(1).data(Qt::DecorationRole).isValid());

        // A thumbnail arriving later changes only its row's decoration.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setThumbnail(9, png(Qt::blue));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
        QCOMPARE(model.index(1).data(Qt::DecorationRole).value<QImage>().pixelColor(1, 1), QColor(Qt::blue));
        model.setThumbnail(9, "not a png");
        model.setThumbnail(42, png(Qt::green));
        QCOMPARE(changed.size(), 1);

        // A new result keeps decoded thumbnails of ids it still shows.
        model.setEntries({entry(9, QStringLiteral("nine")), entry(10, QStringLiteral("ten"))});
        QCOMPARE(model.index(0).data(Qt::DecorationRole).value<QImage>().pixelColor(1, 1), QColor(Qt::blue));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.entryAt(0) == nullptr);
    }

    void metricText() {
        QCOMPARE(ui::GalleryModel::metricText(QStringLiteral("val_accuracy"), 0.8516), QStringLiteral("85.2 %"));
        QCOMPARE(ui::GalleryModel::metricText(QStringLiteral("val_loss"), 0.395759), QStringLiteral("0.3958"));
        QCOMPARE(ui::GalleryModel::metricText(QStringLiteral("accuracy"), 12.0), QStringLiteral("12"));
    }

    void cardsPaintInBothPalettes() {
        ui::GalleryModel model;
        GalleryEntry e = entry(1, QStringLiteral("a-very-long-model-name-that-must-be-elided-on-the-card"), 0.5);
        e.thumbnail = png(Qt::darkGreen);
        e.tags = {QStringLiteral("one"),  QStringLiteral("two"), QStringLiteral("three"), QStringLiteral("four"),
                  QStringLiteral("five"), QStringLiteral("six"), QStringLiteral("seven")};
        model.setEntries({e});
        QListView view;
        view.setModel(&model);
        ui::GalleryCardDelegate delegate;
        const QSize size = ui::GalleryCardDelegate::cardSize(view.font());
        QVERIFY(size.width() >= 220 && size.height() > size.width() / 2);
        QFont big = view.font();
        big.setPointSizeF(big.pointSizeF() * 2);
        QVERIFY(ui::GalleryCardDelegate::cardSize(big).height() > size.height()); // follows the font
        for (const QColor base : {QColor(Qt::white), QColor(30, 30, 30)}) {
            QImage image(size, QImage::Format_ARGB32);
            image.fill(Qt::transparent);
            QPainter painter(&image);
            QStyleOptionViewItem option;
            option.initFrom(&view);
            option.rect = QRect(QPoint(0, 0), size);
            option.palette.setColor(QPalette::Base, base);
            option.state |= QStyle::State_Selected;
            delegate.paint(&painter, option, model.index(0));
            painter.end();
            // The card body is filled with the palette's base colour.
            QCOMPARE(image.pixelColor(size.width() / 2, size.height() - 12), base);
        }
    }

    void remoteUrlsAndEntries() {
        using app::gallery::RemoteGallerySource;
        QCOMPARE(app::gallery::RemoteGallerySource::apiBase(QStringLiteral("http://127.0.0.1:8765")).toString(),
                 QStringLiteral("http://127.0.0.1:8765/api/v1"));
        QCOMPARE(app::gallery::RemoteGallerySource::apiBase(QStringLiteral("http://127.0.0.1:8765/api/v1/")).toString(),
                 QStringLiteral("http://127.0.0.1:8765/api/v1"));
        QCOMPARE(app::gallery::RemoteGallerySource::apiBase(QStringLiteral("https://lab.example/diamond")).toString(),
                 QStringLiteral("https://lab.example/diamond/api/v1"));
        QVERIFY(!app::gallery::RemoteGallerySource::apiBase(QStringLiteral("ftp://127.0.0.1")).isValid());
        QVERIFY(!app::gallery::RemoteGallerySource::apiBase(QString()).isValid());

        const QJsonObject json{
            {QStringLiteral("id"), 3},
            {QStringLiteral("name"), QStringLiteral("net")},
            {QStringLiteral("version"), QStringLiteral("2.0")},
            {QStringLiteral("tags"), QJsonArray{QStringLiteral("x"), QStringLiteral("y")}},
            {QStringLiteral("consistent"), true},
            {QStringLiteral("key_metric"), 0.75},
            {QStringLiteral("key_metric_name"), QStringLiteral("val_accuracy")},
            {QStringLiteral("package_sha256"), QStringLiteral("ab")},
            {QStringLiteral("card"), QStringLiteral("# Net")},
            {QStringLiteral("manifest"), QJsonObject{{QStringLiteral("license"), QStringLiteral("MIT")}}},
            {QStringLiteral("run_id"), QJsonValue()}};
        const GalleryEntry e = app::gallery::RemoteGallerySource::entryFromJson(json);
        QCOMPARE(e.id, 3);
        QCOMPARE(e.runId, 0);
        QCOMPARE(e.tags, (QStringList{QStringLiteral("x"), QStringLiteral("y")}));
        QVERIFY(e.consistent);
        QCOMPARE(e.keyMetric.value_or(-1), 0.75);
        QCOMPARE(e.card, QStringLiteral("# Net"));
        QCOMPARE(e.manifest.value(QStringLiteral("license")).toString(), QStringLiteral("MIT"));
        // Round trip through the app's own JSON of an entry.
        const GalleryEntry back = app::gallery::RemoteGallerySource::entryFromJson(app::gallery::entryJson(e, true));
        QCOMPARE(back.name, e.name);
        QCOMPARE(back.keyMetric, e.keyMetric);
        QCOMPARE(back.packageSha256, e.packageSha256);
    }

    void unreachableRemoteReportsAClearError() {
        // Port 9 on loopback: nothing listens (connection refused).
        app::gallery::RemoteGallerySource source(QStringLiteral("Nowhere"), QStringLiteral("http://127.0.0.1:9"),
                                                 QStringLiteral("t"));
        QSignalSpy spy(&source, &app::gallery::GallerySource::searched);
        const int request = source.search({});
        QVERIFY(spy.wait(20000));
        QCOMPARE(spy.first().at(0).toInt(), request);
        QVERIFY2(spy.first().at(3).toString().contains(QStringLiteral("Nowhere")),
                 qPrintable(spy.first().at(3).toString()));
        app::gallery::RemoteGallerySource invalid(QString(), QStringLiteral("not a url at all ::"), QString());
        QSignalSpy invalidSpy(&invalid, &app::gallery::GallerySource::searched);
        invalid.search({});
        QVERIFY(invalidSpy.wait(5000));
        QVERIFY(!invalidSpy.first().at(3).toString().isEmpty());
    }
};

QTEST_MAIN(TestGalleryModel)
#include "tst_gallery_model.moc"
