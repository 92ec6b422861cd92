// Registered datasets on a real workspace (SQLite file, chunk store on disk): chunked manifests, versions with
// deduplicated content, references, local copies, removal, previews of the formats, and runs that name a dataset.
#include "common/dataset_files.h"

#include "app/data/content_manifest.h"
#include "app/data/dataset_inspector.h"
#include "app/data/dataset_stager.h"
#include "app/data/dataset_store.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app;

class TestDatasetStore : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Workspace ws_;

    static QByteArray randomBytes(qint64 size, quint32 seed) { return diamond::test::randomBytes(size, seed); }
    static bool write(const QString &path, const QByteArray &data) { return diamond::test::writeFile(path, data); }
    static QByteArray read(const QString &path) { return diamond::test::readFile(path); }
    /// A folder of `count` files of `size` bytes in two sub-folders.
    QString makeFolder(const QString &name, int count, qint64 size) {
        const QString root = dir_.filePath(name);
        for (int i = 0; i < count; ++i)
            write(QStringLiteral("%1/%2/f%3.bin")
                      .arg(root, i % 2 ? QStringLiteral("odd") : QStringLiteral("even"))
                      .arg(i),
                  randomBytes(size, quint32(i + 1)));
        return root;
    }
    qint64 storeBytes() const {
        qint64 total = 0;
        QDirIterator it(QDir(ws_.path()).filePath(QStringLiteral("datasets/.chunks")), QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            total += it.fileInfo().size();
        }
        return total;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(ws_.create(dir_.filePath(QStringLiteral("ws"))), qPrintable(ws_.errorString()));
    }

    void aChangedByteChangesExactlyOneChunk() {
        const QString file = dir_.filePath(QStringLiteral("one/big.bin"));
        QByteArray data = randomBytes(qint64(1) << 20, 7);
        QVERIFY(write(file, data));
        ChunkStore store(dir_.filePath(QStringLiteral("store")));
        QString error;
        const auto a = store.importPath(file, 64 * 1024, {}, &error);
        QVERIFY2(a, qPrintable(error));
        QCOMPARE(a->manifest.files.size(), 1);
        QCOMPARE(a->manifest.files[0].chunks.size(), 16);
        QCOMPARE(a->newBytes, qint64(1) << 20);
        QCOMPARE(a->manifest.files[0].sha256, Sha256::hex(data));
        data[300000] = char(data[300000] ^ 0x5a); // in chunk 4
        QVERIFY(write(file, data));
        const auto b = store.importPath(file, 64 * 1024, {}, &error);
        QVERIFY2(b, qPrintable(error));
        int differing = 0;
        for (int i = 0; i < 16; ++i)
            differing += a->manifest.files[0].chunks[i] != b->manifest.files[0].chunks[i];
        QCOMPARE(differing, 1);
        QVERIFY(a->manifest.files[0].chunks[4] != b->manifest.files[0].chunks[4]);
        QCOMPARE(b->newBytes, qint64(64 * 1024)); // only the changed chunk was stored
        QVERIFY(a->manifest.hash() != b->manifest.hash());
        // A file of exactly one chunk, and an empty file.
        QVERIFY(write(dir_.filePath(QStringLiteral("edge/exact.bin")), randomBytes(64 * 1024, 3)));
        QVERIFY(write(dir_.filePath(QStringLiteral("edge/empty.bin")), {}));
        const auto edge = store.importPath(dir_.filePath(QStringLiteral("edge")), 64 * 1024, {}, &error);
        QVERIFY2(edge, qPrintable(error));
        QCOMPARE(edge->manifest.files[0].path, QStringLiteral("empty.bin"));
        QCOMPARE(edge->manifest.files[0].chunks.size(), 1);
        QCOMPARE(edge->manifest.files[1].chunks.size(), 1);
        QVERIFY(ContentManifest::fromJson(edge->manifest.toJson(), &error));
    }

    void manifestsFromFilesAreChecked() {
        QString error;
        ContentManifest m;
        m.chunkBytes = 4096;
        const QByteArray h = Sha256::hex("x");
        m.files.append({QStringLiteral("../escape"), 1, h, {h}});
        QVERIFY(!ContentManifest::fromJson(m.toJson(), &error));
        QVERIFY2(error.contains(QStringLiteral("unsafe path")), qPrintable(error));
        m.files = {{QStringLiteral("b"), 1, h, {h}}, {QStringLiteral("a"), 1, h, {h}}};
        QVERIFY(!ContentManifest::fromJson(m.toJson(), &error));
        QVERIFY2(error.contains(QStringLiteral("sorted")), qPrintable(error));
        m.files = {{QStringLiteral("a"), 5000, h, {h}}}; // 5000 bytes need 2 chunks of 4096
        QVERIFY(!ContentManifest::fromJson(m.toJson(), &error));
        QVERIFY2(error.contains(QStringLiteral("2")), qPrintable(error));
        QVERIFY(!isSafeManifestPath(QStringLiteral("/abs")));
        QVERIFY(!isSafeManifestPath(QStringLiteral("a//b")));
        QVERIFY(!isSafeManifestPath(QStringLiteral("a/./b")));
        QVERIFY(isSafeManifestPath(QStringLiteral("a/b c.png")));
    }

    void versionsStoreOnlyChangedContent() {
        DatasetStore datasets(ws_);
        const QString folder = makeFolder(QStringLiteral("images"), 100, 8192); // 800 KiB
        bool unchanged = true;
        const auto v1 = datasets.addVersion(QStringLiteral("cells"), folder, {}, &unchanged);
        QVERIFY2(v1, qPrintable(datasets.errorString()));
        QVERIFY(!unchanged);
        QCOMPARE(v1->version, 1);
        QCOMPARE(v1->fileCount, 100);
        QCOMPARE(v1->sizeBytes, qint64(100 * 8192));
        QCOMPARE(v1->newBytes, qint64(100 * 8192));
        const qint64 before = storeBytes();

        // The same content again: no new version.
        const auto again = datasets.addVersion(QStringLiteral("cells"), folder, {}, &unchanged);
        QVERIFY(again && unchanged);
        QCOMPARE(again->version, 1);

        // 1 % of the files changed: only that 1 % is stored.
        QVERIFY(write(folder + QStringLiteral("/odd/f7.bin"), randomBytes(8192, 999)));
        const auto v2 = datasets.addVersion(QStringLiteral("cells"), folder, {}, &unchanged);
        QVERIFY2(v2, qPrintable(datasets.errorString()));
        QCOMPARE(v2->version, 2);
        QCOMPARE(v2->newBytes, qint64(8192));
        QCOMPARE(storeBytes() - before, qint64(8192));

        // References.
        QCOMPARE(datasets.resolve(QStringLiteral("cells"))->version, 2);
        QCOMPARE(datasets.resolve(QStringLiteral("cells@1"))->manifestHash, v1->manifestHash);
        QVERIFY(!datasets.resolve(QStringLiteral("cells@9")));
        QVERIFY2(datasets.errorString().contains(QStringLiteral("no version 9")), qPrintable(datasets.errorString()));
        QVERIFY(!datasets.resolve(QStringLiteral("nope")));
        QVERIFY(!datasets.resolve(QStringLiteral("../x")));
        QVERIFY(!datasets.addVersion(QStringLiteral("bad name"), folder));
        QCOMPARE(datasets.versions(QStringLiteral("cells")).size(), 2);
        QCOMPARE(datasets.list().size(), 1);
        QCOMPARE(datasets.list().first().versions, 2);

        // The local copy holds exactly the files of the version.
        const QString copy = datasets.localCopy(*v1);
        QVERIFY2(!copy.isEmpty(), qPrintable(datasets.errorString()));
        QCOMPARE(read(copy + QStringLiteral("/odd/f7.bin")), randomBytes(8192, 8));
        QCOMPARE(read(copy + QStringLiteral("/even/f0.bin")), randomBytes(8192, 1));
        const QString copy2 = datasets.localCopy(*v2);
        QCOMPARE(read(copy2 + QStringLiteral("/odd/f7.bin")), randomBytes(8192, 999));
        QCOMPARE(DatasetStore::dataPathIn(copy2, *v2, {}), copy2);
    }

    void removingADatasetFreesOnlyItsOwnContent() {
        DatasetStore datasets(ws_);
        const QString folder = dir_.filePath(QStringLiteral("images"));
        const auto shared = datasets.addVersion(QStringLiteral("cells-copy"), folder);
        QVERIFY(shared);
        QCOMPARE(shared->newBytes, qint64(0)); // every chunk is in the store already
        QVERIFY(write(dir_.filePath(QStringLiteral("solo/own.bin")), randomBytes(10000, 4242)));
        QVERIFY(datasets.addVersion(QStringLiteral("solo"), dir_.filePath(QStringLiteral("solo/own.bin"))));
        qint64 freed = -1;
        QVERIFY(datasets.remove(QStringLiteral("solo"), &freed));
        QCOMPARE(freed, qint64(10000));
        QVERIFY(datasets.remove(QStringLiteral("cells-copy"), &freed));
        QCOMPARE(freed, qint64(0)); // still used by "cells"
        QVERIFY(!datasets.remove(QStringLiteral("solo")));
        QVERIFY(datasets.resolve(QStringLiteral("cells@2")));
    }

    void previewsDescribeEachFormat() {
        DatasetStore datasets(ws_);
        // scikit-learn's layout: a line of counts above the table.
        QByteArray csv = "6,3,a,b\n";
        for (int i = 0; i < 6; ++i)
            csv += QByteArray::number(i) + ",7," + QByteArray::number(i * 2) + "," + QByteArray::number(i * 3) + "," +
                   (i < 3 ? "0" : "1") + "\n";
        QVERIFY(write(dir_.filePath(QStringLiteral("sk/table.csv")), csv));
        auto v = datasets.addVersion(QStringLiteral("sk"), dir_.filePath(QStringLiteral("sk/table.csv")));
        QVERIFY(v);
        QCOMPARE(v->format, QStringLiteral("csv"));
        QCOMPARE(v->rows, 6);
        QCOMPARE(v->schema.value(QStringLiteral("skip_rows")).toInt(), 1);
        QCOMPARE(v->schema.value(QStringLiteral("header")).toBool(), false);
        QCOMPARE(v->schema.value(QStringLiteral("columns")).toArray().size(), 5);
        const QString problems = v->problems.join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("skip_rows")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("same value in every row")), qPrintable(problems)); // column 1
        // Header, missing values, imbalance.
        QByteArray withHeader = "x,y,label\n";
        for (int i = 0; i < 40; ++i)
            withHeader += QByteArray::number(i) + "," + (i == 3 ? "" : "1.5") + "," + (i < 38 ? "a" : "b") + "\n";
        QVERIFY(write(dir_.filePath(QStringLiteral("h/h.csv")), withHeader));
        v = datasets.addVersion(QStringLiteral("h"), dir_.filePath(QStringLiteral("h/h.csv")));
        QVERIFY(v);
        QCOMPARE(v->schema.value(QStringLiteral("header")).toBool(), true);
        QCOMPARE(v->schema.value(QStringLiteral("target")).toString(), QStringLiteral("label"));
        QCOMPARE(v->schema.value(QStringLiteral("classes")).toObject().value(QStringLiteral("a")).toInt(), 38);
        const QString p2 = v->problems.join(QLatin1Char('\n'));
        QVERIFY2(p2.contains(QStringLiteral("'y' has 1 missing")), qPrintable(p2));
        QVERIFY2(p2.contains(QStringLiteral("imbalance")), qPrintable(p2));
        // Image folder: classes and their counts.
        for (int i = 0; i < 5; ++i)
            write(dir_.filePath(QStringLiteral("img/cat/%1.png").arg(i)), randomBytes(64, quint32(i)));
        for (int i = 0; i < 3; ++i)
            write(dir_.filePath(QStringLiteral("img/dog/%1.png").arg(i)), randomBytes(64, quint32(i + 50)));
        v = datasets.addVersion(QStringLiteral("pets"), dir_.filePath(QStringLiteral("img")));
        QVERIFY(v);
        QCOMPARE(v->format, QStringLiteral("image_folder"));
        QCOMPARE(v->rows, 8);
        QCOMPARE(v->schema.value(QStringLiteral("classes")).toObject().value(QStringLiteral("dog")).toInt(), 3);
        // NPY header.
        QByteArray npy("\x93NUMPY\x01\x00", 8);
        QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (12, 3), }";
        header += QByteArray(64 - 10 - header.size() - 1, ' ') + '\n';
        npy += char(header.size()) + QByteArray(1, '\0') + header + QByteArray(12 * 3 * 4, '\0');
        QVERIFY(write(dir_.filePath(QStringLiteral("arr/x.npy")), npy));
        v = datasets.addVersion(QStringLiteral("arr"), dir_.filePath(QStringLiteral("arr/x.npy")));
        QVERIFY(v);
        QCOMPARE(v->format, QStringLiteral("npy"));
        QCOMPARE(v->rows, 12);
        QCOMPARE(v->schema.value(QStringLiteral("shape")).toString(), QStringLiteral("(12, 3)"));
    }

    void runsPinTheVersionTheyTrainOn() {
        RunStore runs(ws_);
        const auto project = runs.createProject(QStringLiteral("p"));
        QVERIFY(project);
        const QJsonObject config{{QStringLiteral("format"), QStringLiteral("diamond.run/1")},
                                 {QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                                                      {QStringLiteral("dataset"), QStringLiteral("sk")},
                                                                      {QStringLiteral("target"), 4}}}};
        const auto run = runs.createRun(project->id, 0, QStringLiteral("r"), config, QStringLiteral("local"), {});
        QVERIFY2(run, qPrintable(runs.errorString()));
        QCOMPARE(run->datasetRef, QStringLiteral("sk@1"));
        QVERIFY(run->datasetVersionId > 0);
        QCOMPARE(run->config.value(QStringLiteral("data")).toObject().value(QStringLiteral("dataset")).toString(),
                 QStringLiteral("sk@1"));
        // A later version does not change what the run trains on.
        DatasetStore datasets(ws_);
        QVERIFY(write(dir_.filePath(QStringLiteral("sk/table.csv")), "1,2,3,4,0\n4,5,6,7,1\n"));
        QVERIFY(datasets.addVersion(QStringLiteral("sk"), dir_.filePath(QStringLiteral("sk/table.csv"))));
        QCOMPARE(runs.run(run->id)->datasetRef, QStringLiteral("sk@1"));

        QJsonObject missing = config;
        missing.insert(QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                                           {QStringLiteral("dataset"), QStringLiteral("nothing@2")}});
        QVERIFY(!runs.createRun(project->id, 0, QStringLiteral("r2"), missing, QStringLiteral("local"), {}));
        QVERIFY2(runs.errorString().contains(QStringLiteral("data.dataset")) &&
                     runs.errorString().contains(QStringLiteral("nothing")),
                 qPrintable(runs.errorString()));
        QJsonObject escape = config;
        escape.insert(QStringLiteral("data"),
                      QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                  {QStringLiteral("dataset"), QStringLiteral("sk")},
                                  {QStringLiteral("path"), QStringLiteral("../../etc/passwd")}});
        QVERIFY(!runs.createRun(project->id, 0, QStringLiteral("r3"), escape, QStringLiteral("local"), {}));
        QVERIFY2(runs.errorString().contains(QStringLiteral("data.path")), qPrintable(runs.errorString()));
    }

    void tarShardsUnpackWithTheSystemTar() {
        // The stager's shards and link archives, read back by GNU tar (what clusters run).
        TarWriter tar;
        tar.addDirectory(QStringLiteral("d"));
        tar.addFile(QStringLiteral("d/short"), "hello");
        const QString longName = QStringLiteral("d/") + QString(150, QLatin1Char('n'));
        tar.addFile(longName, randomBytes(1000, 5));
        tar.addHardLink(QStringLiteral("d/link"), QStringLiteral("d/short"));
        const QByteArray archive = tar.finish();
        QCOMPARE(archive.size() % 512, 0);
        const QString out = dir_.filePath(QStringLiteral("untar"));
        QDir().mkpath(out);
        QProcess p;
        p.setWorkingDirectory(out);
        p.start(QStringLiteral("tar"), {QStringLiteral("-x"), QStringLiteral("-f"), QStringLiteral("-")});
        p.write(archive);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QCOMPARE(read(out + QStringLiteral("/d/short")), QByteArray("hello"));
        QCOMPARE(read(out + QLatin1Char('/') + longName), randomBytes(1000, 5));
        QCOMPARE(read(out + QStringLiteral("/d/link")), QByteArray("hello"));
    }
};

QTEST_GUILESS_MAIN(TestDatasetStore)
#include "tst_dataset_store.moc"
