#include "ui/catalogue_translator.h"

#include <QFile>
#include <QXmlStreamReader>

namespace diamond::ui {

namespace {

/// source -> translation of the finished messages of a Qt Linguist .ts file.
QHash<QString, QString> readCatalogueSource(const QString &path) {
    QHash<QString, QString> table;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return table;
    QXmlStreamReader xml(&file);
    QString source, translation;
    bool finished = false, numerusSeen = false, inTranslation = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == QLatin1String("message")) {
                source.clear();
                translation.clear();
                finished = true;
                numerusSeen = false;
            } else if (xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.name() == QLatin1String("translation")) {
                const auto type = xml.attributes().value(QLatin1String("type"));
                finished = type.isEmpty(); // not "unfinished", "vanished" or "obsolete"
                inTranslation = true;
            } else if (xml.name() == QLatin1String("numerusform")) {
                const QString form = xml.readElementText();
                if (!numerusSeen) translation = form; // languages with one form use the first
                numerusSeen = true;
            }
        } else if (xml.isCharacters() && inTranslation && !numerusSeen) {
            translation += xml.text();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("translation")) {
            inTranslation = false;
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            if (finished && !source.isEmpty() && !translation.isEmpty()) table.insert(source, translation);
        }
    }
    return xml.hasError() ? QHash<QString, QString>() : table;
}

} // namespace

bool CatalogueTranslator::loadCatalogue(const QLocale &locale, const QString &directory) {
    bySource_.clear();
    if (!load(locale, QStringLiteral("diamond"), QStringLiteral("_"), directory)) return false;
    QString source = filePath();
    if (source.endsWith(QLatin1String(".qm"))) source.chop(3);
    bySource_ = readCatalogueSource(source + QStringLiteral(".ts"));
    return true;
}

QString CatalogueTranslator::translate(const char *context, const char *sourceText, const char *disambiguation,
                                       int n) const {
    QString exact = QTranslator::translate(context, sourceText, disambiguation, n);
    if (!exact.isEmpty() || bySource_.isEmpty() || sourceText == nullptr) return exact;
    return bySource_.value(QString::fromUtf8(sourceText));
}

bool CatalogueTranslator::isEmpty() const { return QTranslator::isEmpty() && bySource_.isEmpty(); }

} // namespace diamond::ui
