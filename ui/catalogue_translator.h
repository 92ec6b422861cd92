#pragma once

#include <QHash>
#include <QLocale>
#include <QString>
#include <QTranslator>

namespace diamond::ui {

/// Diamond's own translations. Looks a message up in the compiled catalogue (.qm) by context and
/// source text first; when that misses, takes the translation of the same source text from any
/// context of the catalogue's source (.ts, embedded next to it). The application core and the
/// remote layer build many messages through file-local tr() helpers whose run-time context
/// ("diamond::app::ClusterProfile", ...) is not the one lupdate records for them (it files them
/// by the namespace or class it parses around the call), so an exact lookup misses them. The
/// catalogue holds one translation per source text (translations/glossary_zh_CN.tsv is keyed by
/// it), so the fallback gives the same text the exact lookup would.
class CatalogueTranslator : public QTranslator {
public:
    using QTranslator::QTranslator;

    /// Loads diamond_<language>.qm for `locale` from `directory` (as QTranslator::load) and the .ts
    /// of the same name beside it; false when there is no catalogue for the locale.
    bool loadCatalogue(const QLocale &locale, const QString &directory = QStringLiteral(":/i18n"));

    QString translate(const char *context, const char *sourceText, const char *disambiguation = nullptr,
                      int n = -1) const override;
    bool isEmpty() const override;

    /// Source texts with a translation in the loaded .ts.
    qsizetype sourceCount() const { return bySource_.size(); }

private:
    QHash<QString, QString> bySource_; ///< source text -> translation (the first numerus form)
};

} // namespace diamond::ui
