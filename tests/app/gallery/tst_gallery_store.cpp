// GalleryStore (app/gallery/gallery_store.h) on a real workspace database: FTS5 search over name, title,
// card and tags (prefix words, hostile query text), filters, sorting by metric/date/name, paging totals, the
// search index kept in sync on remove, package paths that cannot leave the packages folder, the trust list
// (a consistent package is trusted only when signed by a key on it) and what a publish shares by default.
#include "common/test_paths.h"

#include "app/gallery/gallery_store.h"
#include "app/gallery/model_package.h"
#include "app/gallery/package_signature.h"
#include "app/run/run_store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;
using namespace diamond::app::gallery;

namespace {

QByteArray safetensors(const QString &name, const QList<float> &values) {
    const QByteArray header =
        QJsonDocument(QJsonObject{{name, QJsonObject{{QStringLiteral("dtype"), QStringLiteral("F32")},
                                                     {QStringLiteral("shape"), QJsonArray{values.size()}},
                                                     {QStringLiteral("data_offsets"),
                                                      QJsonArray{0, static_cast<int>(values.size() * 4)}}}}})
            .toJson(QJsonDocument::Compact);
    QByteArray out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((static_cast<quint64>(header.size()) >> (8 * i)) & 0xff);
    out += header;
    for (float v : values)
        out.append(reinterpret_cast<const char *>(&v), 4);
    return out;
}

} // namespace

class TestGalleryStore : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    Workspace ws_;
    QList<qint64> ids_;

    qint64 add(const QString &name, const QString &task, const QString &domain, const QString &license,
               std::optional<double> metric, const QString &card, const QStringList &tags, const QString &createdAt) {
        GalleryEntry e;
        e.name = name;
        e.version = QStringLiteral("1.0.0");
        e.title = name;
        e.task = task;
        e.domain = domain;
        e.license = license;
        e.keyMetric = metric;
        e.card = card;
        e.tags = tags;
        e.createdAt = createdAt;
        e.packagePath = QStringLiteral("gallery/packages/%1.diamond").arg(name);
        e.packageSha256 = name;
        GalleryStore store(ws_);
        const auto id = store.insert(e);
        return id ? *id : -1;
    }

    QStringList names(const GalleryQuery &q, int *total = nullptr) {
        GalleryStore store(ws_);
        QStringList out;
        for (const auto &e : store.search(q, total))
            out << e.name;
        return out;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        QVERIFY2(ws_.create(tmp_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
        ids_ << add(QStringLiteral("spirals-mlp"), QStringLiteral("classification"), QStringLiteral("toy"),
                    QStringLiteral("MIT"), 0.91, QStringLiteral("# Spirals\nAn MLP for three interleaved arms."),
                    {QStringLiteral("mlp"), QStringLiteral("tabular")}, QStringLiteral("2026-01-01T00:00:00.000Z"));
        ids_ << add(QStringLiteral("shapes-cnn"), QStringLiteral("classification"), QStringLiteral("vision"),
                    QStringLiteral("CC-BY-4.0"), 0.97, QStringLiteral("A small convolutional network for shapes."),
                    {QStringLiteral("cnn"), QStringLiteral("images")}, QStringLiteral("2026-02-01T00:00:00.000Z"));
        ids_ << add(QStringLiteral("sine-regressor"), QStringLiteral("regression"), QStringLiteral("toy"),
                    QStringLiteral("MIT"), std::nullopt, QStringLiteral("Fits a sine wave; résumé of the café data."),
                    {QStringLiteral("mlp")}, QStringLiteral("2026-03-01T00:00:00.000Z"));
        QVERIFY(!ids_.contains(-1));
    }

    void searchIndexRowidMatchesEntryId() {
        QSqlQuery q(ws_.database());
        QVERIFY(
            q.exec(QStringLiteral("SELECT count(*) FROM gallery_entries e JOIN gallery_search s ON s.rowid = e.id")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 3);
    }

    void fullText() {
        GalleryQuery q;
        q.text = QStringLiteral("convolutional");
        QCOMPARE(names(q), QStringList{QStringLiteral("shapes-cnn")});
        q.text = QStringLiteral("spir"); // prefix of a name word
        QCOMPARE(names(q), QStringList{QStringLiteral("spirals-mlp")});
        q.text = QStringLiteral("mlp"); // a tag
        q.sort = GalleryQuery::Sort::Name;
        q.ascending = true;
        QCOMPARE(names(q), (QStringList{QStringLiteral("sine-regressor"), QStringLiteral("spirals-mlp")}));
        q.text = QStringLiteral("mlp interleaved"); // every word must match
        QCOMPARE(names(q), QStringList{QStringLiteral("spirals-mlp")});
        q.text = QStringLiteral("cafe resume"); // diacritics folded
        QCOMPARE(names(q), QStringList{QStringLiteral("sine-regressor")});
        q.text = QStringLiteral("nothing-matches-this");
        QVERIFY(names(q).isEmpty());
    }

    void hostileQueryText() {
        GalleryStore store(ws_);
        for (const QString &text : {QStringLiteral("\" OR 1=1 --"), QStringLiteral("*"), QStringLiteral("NEAR("),
                                    QStringLiteral("name:spirals"), QStringLiteral("'; DROP TABLE gallery_entries;")}) {
            GalleryQuery q;
            q.text = text;
            store.search(q);
            QVERIFY2(store.errorString().isEmpty(), qPrintable(text + QStringLiteral(": ") + store.errorString()));
        }
        QCOMPARE(store.count(), 3);
        QCOMPARE(ftsExpression(QStringLiteral("a\"b c*")), QStringLiteral("\"a\"* \"b\"* \"c\"*"));
    }

    void filtersAndSorting() {
        GalleryQuery q;
        q.task = QStringLiteral("classification");
        q.sort = GalleryQuery::Sort::Metric;
        QCOMPARE(names(q), (QStringList{QStringLiteral("shapes-cnn"), QStringLiteral("spirals-mlp")}));
        q.ascending = true;
        QCOMPARE(names(q), (QStringList{QStringLiteral("spirals-mlp"), QStringLiteral("shapes-cnn")}));
        GalleryQuery d;
        d.sort = GalleryQuery::Sort::Date;
        QCOMPARE(names(d).first(), QStringLiteral("sine-regressor"));
        GalleryQuery m;
        m.sort = GalleryQuery::Sort::Metric; // entries without a metric come last
        QCOMPARE(names(m).last(), QStringLiteral("sine-regressor"));
        GalleryQuery l;
        l.license = QStringLiteral("mit");
        l.domain = QStringLiteral("toy");
        QCOMPARE(names(l).size(), 2);
        GalleryQuery page;
        page.limit = 1;
        page.offset = 1;
        page.sort = GalleryQuery::Sort::Name;
        page.ascending = true;
        int total = 0;
        QCOMPARE(names(page, &total), QStringList{QStringLiteral("sine-regressor")});
        QCOMPARE(total, 3);
        GalleryQuery consistent;
        consistent.consistentOnly = true;
        QVERIFY(names(consistent).isEmpty());
    }

    void packageFileStaysInside() {
        GalleryStore store(ws_);
        QDir(store.packagesDirectory()).mkpath(QStringLiteral("."));
        QFile inside(QDir(store.packagesDirectory()).filePath(QStringLiteral("x.diamond")));
        QVERIFY(inside.open(QIODevice::WriteOnly));
        inside.close();
        GalleryEntry e;
        e.packagePath = QStringLiteral("gallery/packages/x.diamond");
        QCOMPARE(store.packageFile(e), QFileInfo(inside).canonicalFilePath());
        e.packagePath = QStringLiteral("gallery/packages/../../diamond.db");
        QVERIFY(store.packageFile(e).isEmpty());
        e.packagePath = QStringLiteral("/etc/passwd");
        QVERIFY(store.packageFile(e).isEmpty());
        QVERIFY(QFile::link(QStringLiteral("/etc/hostname"),
                            QDir(store.packagesDirectory()).filePath(QStringLiteral("l.diamond"))));
        e.packagePath = QStringLiteral("gallery/packages/l.diamond");
        QVERIFY(store.packageFile(e).isEmpty());
    }

    /// A package whose files are given, written to `name` in the temporary folder.
    QString package(const QString &name, const QByteArray &spec, const QByteArray &expected,
                    const ManifestSigner &signer = {}) {
        QMap<QString, QByteArray> files;
        files.insert(QStringLiteral("spec.json"), spec);
        files.insert(QStringLiteral("weights.safetensors"), safetensors(QStringLiteral("fc1.weight"), {1, 2}));
        files.insert(QStringLiteral("test_inputs.safetensors"), safetensors(QStringLiteral("x"), {0.5f, 1}));
        files.insert(QStringLiteral("test_outputs.safetensors"), expected);
        files.insert(QStringLiteral("thumbnail.png"), renderThumbnail(spec));
        QJsonObject manifest{
            {QStringLiteral("name"), name},
            {QStringLiteral("version"), QStringLiteral("1")},
            {QStringLiteral("tags"), QJsonArray{QStringLiteral("importtag")}},
            {QStringLiteral("key_metric"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("accuracy")}, {QStringLiteral("value"), 0.5}}}};
        QString error;
        const QString path = tmp_.filePath(name + QStringLiteral(".diamond"));
        return writePackage(path, manifest, files, &error, signer) ? path : QString();
    }

    /// A stand-in engine whose `predict` writes `output` (the comparison is under test, not the engine).
    QString standInEngine(const QString &name, const QByteArray &output) {
        const QString data = tmp_.filePath(name + QStringLiteral(".out"));
        QFile o(data);
        o.open(QIODevice::WriteOnly);
        o.write(output);
        o.close();
        QFile s(tmp_.filePath(name + QStringLiteral(".sh")));
        s.open(QIODevice::WriteOnly);
        s.write(QStringLiteral("#!/bin/sh\n[ \"$1\" = predict ] || exit 2\nwhile [ $# -gt 0 ]; do\n"
                               "  if [ \"$1\" = --output ]; then cp '%1' \"$2\"; fi; shift\ndone\n")
                    .arg(data)
                    .toUtf8());
        s.close();
        s.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        return s.fileName();
    }

    void importVerifiesAgainstTheEngine() {
        QFile specFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QVERIFY(specFile.open(QIODevice::ReadOnly));
        const QByteArray spec = specFile.readAll();
        const QByteArray expected = safetensors(QStringLiteral("logits"), {0.25f, -1, 3});
        GalleryStore store(ws_);

        qputenv("DIAMOND_TRAIN", standInEngine(QStringLiteral("match"), expected).toLocal8Bit());
        ImportResult r = store.importPackage(package(QStringLiteral("good"), spec, expected));
        QVERIFY2(r.entry, qPrintable(store.errorString()));
        QVERIFY2(r.entry->consistent, qPrintable(r.verifyMessage));
        QCOMPARE(r.entry->keyMetric.value_or(-1), 0.5);
        QVERIFY(QFile::exists(store.packageFile(*r.entry)));
        QVERIFY(!store.entry(r.entry->id, true)->thumbnail.isEmpty());
        GalleryQuery q;
        q.text = QStringLiteral("importtag");
        q.consistentOnly = true;
        QCOMPARE(names(q), QStringList{QStringLiteral("good")});
        QVERIFY(store.importPackage(package(QStringLiteral("good"), spec, expected)).alreadyPresent);

        qputenv("DIAMOND_TRAIN",
                standInEngine(QStringLiteral("differ"), safetensors(QStringLiteral("logits"), {0.25f, -1, 3.01f}))
                    .toLocal8Bit());
        r = store.importPackage(package(QStringLiteral("drifted"), spec, expected));
        QVERIFY(r.entry);
        QVERIFY(!r.entry->consistent);
        QVERIFY2(r.verifyMessage.contains(QStringLiteral("element 2")), qPrintable(r.verifyMessage));

        r = store.importPackage(
            package(QStringLiteral("badspec"), "{\"format\": \"diamond.spec/1\", \"nodes\": 3}", expected));
        QVERIFY(!r.entry);
        QCOMPARE(store.errorCode(), QStringLiteral("package_invalid_spec"));
        qunsetenv("DIAMOND_TRAIN");
        for (const GalleryEntry &e : store.search(q))
            QVERIFY(store.remove(e.id));
        q.consistentOnly = false;
        for (const GalleryEntry &e : store.search(q))
            QVERIFY(store.remove(e.id));
    }

    /// The review's point: a package that agrees with itself says nothing about who made it. Consistent and
    /// unsigned, or signed by a key not on the list, is not trusted; trust follows the list, by key.
    void trustFollowsTheTrustList() {
        QFile specFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QVERIFY(specFile.open(QIODevice::ReadOnly));
        const QByteArray spec = specFile.readAll();
        const QByteArray expected = safetensors(QStringLiteral("logits"), {1, 2, 3});
        qputenv("DIAMOND_TRAIN", standInEngine(QStringLiteral("trust"), expected).toLocal8Bit());
        GalleryStore store(ws_);
        ImportResult r = store.importPackage(package(QStringLiteral("anonymous"), spec, expected));
        QVERIFY2(r.entry, qPrintable(store.errorString()));
        QVERIFY(r.entry->consistent);
        QVERIFY(r.entry->fingerprint.isEmpty());
        QVERIFY(!r.entry->trusted);
        QVERIFY(entryJson(*r.entry, false).value(QStringLiteral("signature")).isNull());

        QString error;
        const auto key = loadOrCreatePublisherKey(tmp_.filePath(QStringLiteral("eve.pem")), &error);
        QVERIFY2(key, qPrintable(error));
        r = store.importPackage(package(QStringLiteral("signed"), spec, expected, [&](const QByteArray &bytes) {
            return signManifest(*key, QStringLiteral("Eve"), bytes, &error);
        }));
        QVERIFY2(r.entry, qPrintable(store.errorString()));
        const qint64 id = r.entry->id;
        QCOMPARE(r.entry->publisher, QStringLiteral("Eve"));
        QCOMPARE(r.entry->fingerprint, keyFingerprint(key->publicKey));
        QVERIFY(!r.entry->trusted);
        QVERIFY(store.trust(key->publicKey, QStringLiteral("Eve from the lab")));
        QVERIFY(store.entry(id)->trusted);
        QCOMPARE(store.trustedKeys().size(), 1);
        QCOMPARE(store.trustedKeys().first().name, QStringLiteral("Eve from the lab"));
        const QJsonObject json = entryJson(*store.entry(id), false).value(QStringLiteral("signature")).toObject();
        QCOMPARE(json.value(QStringLiteral("publisher")).toString(), QStringLiteral("Eve"));
        QVERIFY(json.value(QStringLiteral("trusted")).toBool());
        QVERIFY(store.untrust(keyFingerprint(key->publicKey)));
        QVERIFY(!store.entry(id)->trusted);
        QVERIFY(!store.untrust(keyFingerprint(key->publicKey)));
        QCOMPARE(store.errorCode(), QStringLiteral("not_found"));
        QVERIFY(!store.trust(QByteArray(31, 'x'), QStringLiteral("short")));
        qunsetenv("DIAMOND_TRAIN");
        QVERIFY(store.remove(id));
        QVERIFY(store.remove(store.search({}).first().id));
    }

    /// A publish shares data files by name only and nothing about the computer unless asked.
    void previewLeavesPrivateDetailsOut() {
        RunStore runs(ws_);
        const auto project = runs.createProject(QStringLiteral("private"));
        QVERIFY2(project, qPrintable(runs.errorString()));
        const QJsonObject config{
            {QStringLiteral("steps"), 10},
            {QStringLiteral("data"),
             QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                         {QStringLiteral("path"), QStringLiteral("/home/ada/secret-project/patients.csv")}}}};
        QFile specFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        QVERIFY(specFile.open(QIODevice::ReadOnly));
        const auto run = runs.createRunWithSpec(QStringLiteral("private"),
                                                QJsonDocument::fromJson(specFile.readAll()).object(), {}, {}, config);
        QVERIFY2(run, qPrintable(runs.errorString()));
        GalleryStore store(ws_);
        PublishOptions o;
        const QByteArray shared = QJsonDocument(store.previewManifest(run->id, o)).toJson();
        QVERIFY2(!shared.isEmpty() && shared.contains("patients.csv"), shared.constData());
        QVERIFY2(!shared.contains("/home/ada"), shared.constData());
        QVERIFY(!shared.contains("\"os\""));
        o.includePrivateDetails = true;
        const QByteArray all = QJsonDocument(store.previewManifest(run->id, o)).toJson();
        QVERIFY(all.contains("/home/ada/secret-project/patients.csv"));
        QVERIFY(all.contains("\"os\""));
    }

    void removeKeepsIndexInSync() {
        GalleryStore store(ws_);
        QVERIFY(store.remove(ids_.at(1)));
        QSqlQuery q(ws_.database());
        QVERIFY(q.exec(QStringLiteral("SELECT count(*) FROM gallery_search")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2);
        GalleryQuery s;
        s.text = QStringLiteral("convolutional");
        QVERIFY(names(s).isEmpty());
        QVERIFY(!store.entry(ids_.at(1)));
        QCOMPARE(store.errorCode(), QStringLiteral("not_found"));
    }
};

QTEST_GUILESS_MAIN(TestGalleryStore)
#include "tst_gallery_store.moc"
