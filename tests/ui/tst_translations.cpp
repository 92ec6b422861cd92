// Every user-visible string is translated to Chinese, and the embedded catalogues load.
#include "common/test_paths.h"
#include "ui/catalogue_translator.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
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

    /// Messages of the application core, the remote layer and helper-built UI text go through
    /// file-local tr() helpers with a fixed context (QCoreApplication::translate("ctx", text)):
    /// every literal passed to such a helper must come out translated in Chinese under that
    /// run-time context. (diamondctl and the REST server answer in English: app/cli, app/rest.)
    void helperMessagesAreTranslatedUnderTheirRuntimeContext() {
        diamond::ui::CatalogueTranslator translator;
        QVERIFY(translator.loadCatalogue(QLocale(QStringLiteral("zh_CN"))));
        QVERIFY2(translator.sourceCount() > 800, qPrintable(QString::number(translator.sourceCount())));
        QTranslator exactOnly;
        QVERIFY(exactOnly.load(QLocale(QStringLiteral("zh_CN")), QStringLiteral("diamond"), QStringLiteral("_"),
                               QStringLiteral(":/i18n")));

        const QRegularExpression helper(QString::fromLatin1(
            "QString tr\\(const char \\*\\w+[^)]*\\)\\s*\\{\\s*return QCoreApplication::translate\\(\"([^\"]+)\""));
        const QRegularExpression call(
            QString::fromLatin1("(?<![\\w:])tr\\(\\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\\s*)+)[,)]"));
        const QRegularExpression piece(QString::fromLatin1("\"((?:[^\"\\\\]|\\\\.)*)\""));
        int checked = 0, exactMisses = 0;
        QStringList untranslated;
        for (const char *folder : {"app", "remote", "ui"}) {
            QDirIterator files(diamond::test::sourcePath(QString::fromLatin1(folder)), {QStringLiteral("*.cpp")},
                               QDir::Files, QDirIterator::Subdirectories);
            while (files.hasNext()) {
                const QString path = files.next();
                if (path.contains(QLatin1String("/app/cli/")) || path.contains(QLatin1String("/app/rest/"))) continue;
                QFile file(path);
                QVERIFY(file.open(QIODevice::ReadOnly));
                const QString text = QString::fromUtf8(file.readAll());
                const QRegularExpressionMatch h = helper.match(text);
                if (!h.hasMatch()) continue;
                const QByteArray context = h.captured(1).toUtf8();
                for (auto m = call.globalMatch(text); m.hasNext();) {
                    QString literal;
                    for (auto p = piece.globalMatch(m.next().captured(1)); p.hasNext();)
                        literal += p.next().captured(1);
                    literal.replace(QLatin1String("\\n"), QLatin1String("\n"))
                        .replace(QLatin1String("\\\""), QLatin1String("\""))
                        .replace(QLatin1String("\\\\"), QLatin1String("\\"));
                    const QByteArray source = literal.toUtf8();
                    ++checked;
                    if (exactOnly.translate(context.constData(), source.constData()).isEmpty()) ++exactMisses;
                    if (translator.translate(context.constData(), source.constData()).isEmpty())
                        untranslated << QString::fromUtf8(context) + QStringLiteral(": ") + literal;
                }
            }
        }
        QVERIFY2(checked > 200, qPrintable(QString::number(checked)));
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join(QStringLiteral(" | "))));
        // What the fallback is for: the exact lookup alone misses many of them.
        QVERIFY2(exactMisses > 50, qPrintable(QString::number(exactMisses)));
        // The fallback does not invent: unknown text stays untranslated.
        QVERIFY(translator.translate("diamond::remote::ClusterProfile", "no such message").isEmpty());
        QCOMPARE(translator.translate("diamond::remote::ClusterProfile", "host: is required"),
                 QStringLiteral("host：为必填项"));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
