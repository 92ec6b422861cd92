// Every user-visible string is translated to Chinese, and the embedded catalogues load.
#include "common/test_paths.h"

#include <QFile>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void catalogueIsComplete_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("en") << QStringLiteral("translations/diamond_en.ts");
        QTest::newRow("zh_CN") << QStringLiteral("translations/diamond_zh_CN.ts");
    }

    void catalogueIsComplete() {
        QFETCH(QString, file);
        QFile f(diamond::test::sourcePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        int messages = 0;
        QStringList unfinished;
        QString source;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement()) continue;
            if (xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.name() == QLatin1String("translation")) {
                ++messages;
                const bool markedUnfinished =
                    xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
                const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
                if (markedUnfinished || text.trimmed().isEmpty()) unfinished << source;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(messages > 10);
        QVERIFY2(unfinished.isEmpty(),
                 qPrintable(QStringLiteral("untranslated: ") + unfinished.join(QStringLiteral(" | "))));
    }

    void embeddedChineseCatalogueTranslatesMenus() {
        QTranslator translator;
        QVERIFY(translator.load(QLocale(QStringLiteral("zh_CN")), QStringLiteral("diamond"), QStringLiteral("_"),
                                QStringLiteral(":/i18n")));
        QCOMPARE(translator.translate("diamond::ui::MainWindow", "&File"), QStringLiteral("文件(&F)"));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
