// diamondctl gallery publish|import|list|search|show|export|remove|key|trust: the workspace's model gallery
// (app/gallery, docs/model-package.md; signatures and trust: docs/security.md). Errors: "diamondctl: ..." on stderr,
// exit 1 (refused package: the message starts with the stable code), 2 for bad usage; --json prints one JSON document.
#include "cli.h"

#include "app/gallery/gallery_store.h"
#include "app/gallery/package_signature.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace diamond::cli {

namespace {

using app::gallery::GalleryEntry;
using app::gallery::GalleryQuery;
using app::gallery::GalleryStore;

QString tr(const char *text) { return QCoreApplication::translate("diamondctl", text); }

QString galleryUsage() {
    return tr("Usage:\n"
              "  diamondctl gallery publish RUN_ID [--name NAME] [--version V] [--title TEXT] [--card FILE.md]\n"
              "                     [--license SPDX] [--tags a,b] [--domain D] [--task T] [--author NAME]\n"
              "                     [--citation TEXT] [--include-private-details] [--key FILE.pem]\n"
              "                     [--publisher NAME] [--unsigned] [--json]\n"
              "  diamondctl gallery import FILE.diamond [--json]\n"
              "  diamondctl gallery list [--task T] [--domain D] [--license L] [--consistent]\n"
              "                     [--sort date|metric|name] [--asc] [--limit N] [--json]\n"
              "  diamondctl gallery search QUERY [same options as list; default sort: relevance]\n"
              "  diamondctl gallery show ID [--json]\n"
              "  diamondctl gallery export ID FILE.diamond\n"
              "  diamondctl gallery remove ID\n"
              "  diamondctl gallery key [--key FILE.pem] [--json]     your publisher key (made on first use)\n"
              "  diamondctl gallery trust list [--json]\n"
              "  diamondctl gallery trust add ENTRY_ID|PUBLIC_KEY [--name NAME]\n"
              "  diamondctl gallery trust remove FINGERPRINT\n");
}

/// "trusted", "untrusted" or "unsigned".
QString signatureWord(const GalleryEntry &e) {
    if (e.fingerprint.isEmpty()) return tr("unsigned");
    return e.trusted ? tr("trusted") : tr("untrusted");
}

/// "signed by NAME (SHA256:..., trusted)" or "unsigned".
QString signatureLine(const GalleryEntry &e) {
    if (e.fingerprint.isEmpty()) return tr("unsigned");
    return tr("signed by %1 (%2, %3)").arg(e.publisher, e.fingerprint, signatureWord(e));
}

void printEntryLine(Io &io, const GalleryEntry &e) {
    io.out << QString::number(e.id).rightJustified(4) << "  " << (e.consistent ? tr("yes") : tr("no")).leftJustified(10)
           << "  " << signatureWord(e).leftJustified(9) << "  " << e.name.left(28).leftJustified(28) << "  "
           << e.version.leftJustified(8) << "  " << e.task.leftJustified(14) << "  "
           << (e.keyMetric ? QStringLiteral("%1=%2").arg(e.keyMetricName).arg(*e.keyMetric, 0, 'g', 4) : QString())
           << '\n';
}

int listOrSearch(GalleryStore &store, const CommandOptions &o, bool search, Io &io) {
    GalleryQuery q;
    if (search) {
        if (o.positional.isEmpty()) return io.err << tr("diamondctl: gallery search needs a QUERY\n"), kUsage;
        q.text = o.positional.join(QLatin1Char(' '));
        q.sort = GalleryQuery::Sort::Relevance;
    } else if (!o.positional.isEmpty()) {
        return io.err << tr("diamondctl: gallery list takes no arguments\n") << galleryUsage(), kUsage;
    }
    q.task = o.values.value(QStringLiteral("--task"));
    q.domain = o.values.value(QStringLiteral("--domain"));
    q.license = o.values.value(QStringLiteral("--license"));
    q.consistentOnly =
        o.flags.contains(QStringLiteral("--consistent")) || o.flags.contains(QStringLiteral("--verified"));
    q.ascending = o.flags.contains(QStringLiteral("--asc"));
    const QString sort = o.values.value(QStringLiteral("--sort"));
    if (sort == QLatin1String("metric"))
        q.sort = GalleryQuery::Sort::Metric;
    else if (sort == QLatin1String("date"))
        q.sort = GalleryQuery::Sort::Date;
    else if (sort == QLatin1String("name"))
        q.sort = GalleryQuery::Sort::Name;
    else if (sort == QLatin1String("relevance"))
        q.sort = GalleryQuery::Sort::Relevance;
    else if (!sort.isEmpty())
        return io.err << tr("diamondctl: unknown sort '%1'\n").arg(sort), kUsage;
    if (o.values.contains(QStringLiteral("--limit"))) q.limit = o.values.value(QStringLiteral("--limit")).toInt();
    int total = 0;
    const QList<GalleryEntry> entries = store.search(q, &total);
    if (!store.errorString().isEmpty()) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    if (o.json) {
        QJsonArray a;
        for (const GalleryEntry &e : entries)
            a.append(app::gallery::entryJson(e, false));
        printJson(io, {{QStringLiteral("total"), total}, {QStringLiteral("entries"), a}});
        return kOk;
    }
    io.out << tr("id").rightJustified(4) << "  " << tr("consistent").leftJustified(10) << "  "
           << tr("signature").leftJustified(9) << "  " << tr("name").leftJustified(28) << "  "
           << tr("version").leftJustified(8) << "  " << tr("task").leftJustified(14) << "  " << tr("key metric")
           << '\n';
    for (const GalleryEntry &e : entries)
        printEntryLine(io, e);
    return kOk;
}

int printImport(const app::gallery::ImportResult &r, GalleryStore &store, bool json, Io &io, const QString &verb) {
    if (!r.entry) return io.err << tr("diamondctl: %1: %2\n").arg(store.errorCode(), store.errorString()), kFailed;
    if (json) {
        QJsonObject doc = app::gallery::entryJson(*r.entry, false);
        doc.insert(QStringLiteral("already_present"), r.alreadyPresent);
        doc.insert(QStringLiteral("verify_message"), r.verifyMessage);
        printJson(io, doc);
        return kOk;
    }
    if (r.alreadyPresent)
        io.out << tr("Package already in the gallery as entry %1.\n").arg(r.entry->id);
    else
        io.out << tr("%1 gallery entry %2 \"%3\" %4 (sha256 %5)\n")
                      .arg(verb)
                      .arg(r.entry->id)
                      .arg(r.entry->name, r.entry->version, r.entry->packageSha256);
    io.out << (r.entry->consistent ? tr("Consistent: %1\n") : tr("NOT consistent: %1\n")).arg(r.verifyMessage)
           << tr("Signature:  %1\n").arg(signatureLine(*r.entry));
    return kOk;
}

/// `gallery key`: the publisher key's path, fingerprint and public key (what others add with `trust add`).
int printKey(const CommandOptions &o, Io &io) {
    const QString path = o.values.value(QStringLiteral("--key"), app::gallery::defaultPublisherKeyPath());
    QString error;
    const auto key = app::gallery::loadOrCreatePublisherKey(path, &error);
    if (!key) return io.err << tr("diamondctl: %1\n").arg(error), kFailed;
    const QString fingerprint = app::gallery::keyFingerprint(key->publicKey);
    const QString publicKey = QString::fromLatin1(key->publicKey.toBase64());
    if (o.json) {
        printJson(io, {{QStringLiteral("path"), path},
                       {QStringLiteral("fingerprint"), fingerprint},
                       {QStringLiteral("public_key"), publicKey}});
        return kOk;
    }
    io.out << tr("Key file:    %1\n").arg(path) << tr("Fingerprint: %1\n").arg(fingerprint)
           << tr("Public key:  %1\n").arg(publicKey)
           << tr("Others trust your packages with: diamondctl gallery trust add %1 --name NAME\n").arg(publicKey);
    return kOk;
}

/// `gallery trust list|add|remove`.
int runTrust(GalleryStore &store, const CommandOptions &o, Io &io) {
    const QString action = o.positional.value(0);
    if (action == QLatin1String("list") && o.positional.size() == 1) {
        const QList<app::gallery::TrustedKey> keys = store.trustedKeys();
        if (!store.errorString().isEmpty()) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
        if (o.json) {
            QJsonArray a;
            for (const auto &k : keys)
                a.append(QJsonObject{{QStringLiteral("fingerprint"), k.fingerprint},
                                     {QStringLiteral("public_key"), QString::fromLatin1(k.publicKey.toBase64())},
                                     {QStringLiteral("name"), k.name},
                                     {QStringLiteral("added_at"), k.addedAt}});
            printJson(io, {{QStringLiteral("keys"), a}});
            return kOk;
        }
        if (keys.isEmpty()) io.out << tr("No trusted publishers.\n");
        for (const auto &k : keys)
            io.out << k.fingerprint << "  " << k.name << "  " << tr("added %1").arg(k.addedAt) << '\n';
        return kOk;
    }
    if (action == QLatin1String("add") && o.positional.size() == 2) {
        const QString what = o.positional.at(1);
        QByteArray publicKey;
        QString name = o.values.value(QStringLiteral("--name"));
        bool isId = false;
        const qint64 id = what.toLongLong(&isId);
        if (isId) {
            const auto entry = store.entry(id);
            if (!entry) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
            if (entry->publisherKey.isEmpty())
                return io.err
                           << tr("diamondctl: gallery entry %1 is unsigned: there is no publisher to trust\n").arg(id),
                       kFailed;
            publicKey = entry->publisherKey;
            if (name.isEmpty()) name = entry->publisher;
        } else {
            publicKey = QByteArray::fromBase64(what.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            if (publicKey.size() != 32)
                return io.err << tr("diamondctl: '%1' is neither a gallery entry ID nor a public key (base64 of 32 "
                                    "bytes, as `diamondctl gallery key` prints it)\n")
                                     .arg(what),
                       kUsage;
        }
        if (!store.trust(publicKey, name)) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
        io.out << tr("Trusting %1 (%2).\n")
                      .arg(name.isEmpty() ? QStringLiteral("?") : name, app::gallery::keyFingerprint(publicKey));
        return kOk;
    }
    if (action == QLatin1String("remove") && o.positional.size() == 2) {
        if (!store.untrust(o.positional.at(1)))
            return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
        io.out << tr("No longer trusting %1.\n").arg(o.positional.at(1));
        return kOk;
    }
    return io.err << galleryUsage(), kUsage;
}

} // namespace

int runGallery(const QStringList &args, const QString &workspaceOption, Io &io) {
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.contains(QStringLiteral("--help"))) {
        (args.isEmpty() ? io.err : io.out) << galleryUsage();
        return args.isEmpty() ? kUsage : kOk;
    }
    const QString sub = args.first();
    static const QStringList known{QStringLiteral("publish"), QStringLiteral("import"), QStringLiteral("list"),
                                   QStringLiteral("search"),  QStringLiteral("show"),   QStringLiteral("export"),
                                   QStringLiteral("remove"),  QStringLiteral("key"),    QStringLiteral("trust")};
    if (!known.contains(sub))
        return io.err << tr("diamondctl: unknown gallery command '%1'\n").arg(sub) << galleryUsage(), kUsage;
    CommandOptions o;
    const QStringList valued{QStringLiteral("--name"),     QStringLiteral("--version"),  QStringLiteral("--title"),
                             QStringLiteral("--card"),     QStringLiteral("--license"),  QStringLiteral("--tags"),
                             QStringLiteral("--domain"),   QStringLiteral("--task"),     QStringLiteral("--author"),
                             QStringLiteral("--citation"), QStringLiteral("--sort"),     QStringLiteral("--limit"),
                             QStringLiteral("--key"),      QStringLiteral("--publisher")};
    const QStringList flags{QStringLiteral("--consistent"), QStringLiteral("--verified"), QStringLiteral("--asc"),
                            QStringLiteral("--include-private-details"), QStringLiteral("--unsigned")};
    if (!parseOptions(args.mid(1), valued, flags, &o, io)) return kUsage;
    if (sub == QLatin1String("key")) return printKey(o, io);
    app::Workspace ws;
    if (!openWorkspace(ws, workspaceOption, io)) return kFailed;
    GalleryStore store(ws);
    if (sub == QLatin1String("list") || sub == QLatin1String("search"))
        return listOrSearch(store, o, sub == QLatin1String("search"), io);
    if (sub == QLatin1String("trust")) return runTrust(store, o, io);

    if (o.positional.isEmpty())
        return io.err << tr("diamondctl: gallery %1: missing argument\n").arg(sub) << galleryUsage(), kUsage;
    if (sub == QLatin1String("import")) {
        if (o.positional.size() != 1) return io.err << galleryUsage(), kUsage;
        return printImport(store.importPackage(QFileInfo(o.positional.first()).absoluteFilePath()), store, o.json, io,
                           tr("Imported"));
    }
    bool ok = false;
    const qint64 id = o.positional.first().toLongLong(&ok);
    if (!ok || id <= 0) return io.err << tr("diamondctl: '%1' is not an ID\n").arg(o.positional.first()), kUsage;
    if (sub == QLatin1String("publish")) {
        app::gallery::PublishOptions p;
        p.name = o.values.value(QStringLiteral("--name"));
        p.version = o.values.value(QStringLiteral("--version"));
        p.title = o.values.value(QStringLiteral("--title"));
        p.license = o.values.value(QStringLiteral("--license"));
        p.domain = o.values.value(QStringLiteral("--domain"));
        p.task = o.values.value(QStringLiteral("--task"));
        p.citation = o.values.value(QStringLiteral("--citation"));
        p.includePrivateDetails = o.flags.contains(QStringLiteral("--include-private-details"));
        p.sign = !o.flags.contains(QStringLiteral("--unsigned"));
        p.keyPath = o.values.value(QStringLiteral("--key"));
        p.publisher = o.values.value(QStringLiteral("--publisher"));
        if (o.values.contains(QStringLiteral("--author"))) p.authors << o.values.value(QStringLiteral("--author"));
        for (const QString &t : o.values.value(QStringLiteral("--tags")).split(QLatin1Char(','), Qt::SkipEmptyParts))
            p.tags << t.trimmed();
        if (o.values.contains(QStringLiteral("--card"))) {
            QFile card(o.values.value(QStringLiteral("--card")));
            if (!card.open(QIODevice::ReadOnly))
                return io.err << tr("diamondctl: cannot read %1: %2\n").arg(card.fileName(), card.errorString()),
                       kFailed;
            p.card = QString::fromUtf8(card.readAll());
        }
        return printImport(store.publishRun(id, p), store, o.json, io, tr("Published"));
    }
    const auto entry = store.entry(id, true);
    if (!entry) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
    if (sub == QLatin1String("show")) {
        if (o.json) {
            QJsonObject doc = app::gallery::entryJson(*entry, true);
            doc.insert(QStringLiteral("package_file"), store.packageFile(*entry));
            printJson(io, doc);
            return kOk;
        }
        io.out << tr("Entry:      %1 \"%2\" version %3\n").arg(entry->id).arg(entry->name, entry->version)
               << tr("Title:      %1\n").arg(entry->title)
               << tr("Consistent: %1\n")
                      .arg(entry->consistent ? tr("yes (its test inputs reproduce its expected outputs)") : tr("no"))
               << tr("Signature:  %1\n").arg(signatureLine(*entry))
               << tr("Task:       %1   Domain: %2   License: %3\n").arg(entry->task, entry->domain, entry->license)
               << tr("Tags:       %1\n").arg(entry->tags.join(QStringLiteral(", ")))
               << tr("Package:    %1 (sha256 %2)\n").arg(store.packageFile(*entry), entry->packageSha256) << '\n'
               << entry->card << '\n';
        return kOk;
    }
    if (sub == QLatin1String("remove")) {
        if (!store.remove(id)) return io.err << tr("diamondctl: %1\n").arg(store.errorString()), kFailed;
        io.out << tr("Removed gallery entry %1.\n").arg(id);
        return kOk;
    }
    // export
    if (o.positional.size() != 2) return io.err << tr("diamondctl: gallery export needs ID and FILE\n"), kUsage;
    const QString source = store.packageFile(*entry);
    if (source.isEmpty()) return io.err << tr("diamondctl: the package file of entry %1 is missing\n").arg(id), kFailed;
    const QString target = o.positional.at(1);
    // Written to a temporary file and renamed: an existing file is replaced only by a complete copy.
    QFile in(source);
    QSaveFile out(target);
    bool copied = in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly);
    while (copied && !in.atEnd()) {
        const QByteArray chunk = in.read(1 << 20);
        copied = !chunk.isEmpty() && out.write(chunk) == chunk.size();
    }
    if (!copied || !out.commit()) return io.err << tr("diamondctl: cannot write %1\n").arg(target), kFailed;
    if (o.json)
        printJson(io, {{QStringLiteral("id"), id}, {QStringLiteral("path"), QFileInfo(target).absoluteFilePath()}});
    else
        io.out << tr("Exported gallery entry %1 to %2\n").arg(id).arg(target);
    return kOk;
}

} // namespace diamond::cli
