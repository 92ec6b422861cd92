// `diamondctl data add|list|show|versions|remove` and runs that name a registered dataset, with the real binaries
// on a real workspace: the run trains on the workspace's copy of the pinned version (the engine gets --data-path),
// `run show` names the version, and the engine alone explains what --data-path is for; a published model names the
// dataset by content hash and ships a small one, which a second workspace registers on import.
#include "common/data_file_builders.h"
#include "common/test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond;

class TestDiamondctlData : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    struct Result {
        int code = -1;
        QByteArray out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    };
    Result ctl(const QStringList &args) { return ctlIn(dir_.filePath(QStringLiteral("ws")), args); }
    Result ctlIn(const QString &ws, const QStringList &args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DIAMOND_TRAIN"), test::binary(QStringLiteral("diamond-train")));
        p.setProcessEnvironment(env);
        p.start(test::binary(QStringLiteral("diamondctl")), QStringList{QStringLiteral("--workspace"), ws} + args);
        Result r;
        if (!p.waitForFinished(180000)) return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }
    QString write(const QString &name, const QByteArray &data) {
        const QString path = dir_.filePath(name);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size()) return {};
        return path;
    }
    /// Two separable classes in 4 features, with scikit-learn's metadata line above the table.
    static QByteArray cancerCsv(int rows, quint32 seed) {
        QRandomGenerator g(seed);
        QByteArray text = QByteArray::number(rows) + ",4,malignant,benign\n";
        for (int i = 0; i < rows; ++i) {
            const int label = i % 2;
            for (int c = 0; c < 4; ++c)
                text += QByteArray::number(label * 3.0 + g.generateDouble(), 'f', 4) + ",";
            text += QByteArray::number(label) + "\n";
        }
        return text;
    }
    QString spec() {
        QFile f(test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")));
        if (!f.open(QIODevice::ReadOnly)) return {};
        QJsonObject s = QJsonDocument::fromJson(f.readAll()).object();
        QJsonArray inputs = s.value(QStringLiteral("inputs")).toArray();
        QJsonObject input = inputs[0].toObject();
        input.insert(QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 4});
        inputs[0] = input;
        s.insert(QStringLiteral("inputs"), inputs);
        QJsonArray nodes = s.value(QStringLiteral("nodes")).toArray();
        QJsonObject last = nodes.last().toObject();
        last.insert(QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), 2}});
        nodes[nodes.size() - 1] = last;
        s.insert(QStringLiteral("nodes"), nodes);
        return write(QStringLiteral("spec.json"), QJsonDocument(s).toJson());
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QCOMPARE(ctl({QStringLiteral("init"), QStringLiteral("--no-examples")}).code, 0);
    }

    void addListShowVersionsRemove() {
        const QString csv = write(QStringLiteral("src/cancer.csv"), cancerCsv(200, 1));
        Result r = ctl({QStringLiteral("data"), QStringLiteral("add"), csv, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject v = r.json();
        QCOMPARE(v.value(QStringLiteral("ref")).toString(), QStringLiteral("cancer@1"));
        QCOMPARE(v.value(QStringLiteral("format")).toString(), QStringLiteral("csv"));
        QCOMPARE(v.value(QStringLiteral("rows")).toInt(), 200);
        QCOMPARE(v.value(QStringLiteral("schema")).toObject().value(QStringLiteral("skip_rows")).toInt(), 1);
        QVERIFY(v.value(QStringLiteral("schema")).toObject().value(QStringLiteral("problems")).toArray().size() >= 1);
        r = ctl({QStringLiteral("data"), QStringLiteral("add"), csv, QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("unchanged")).toBool(), true);
        write(QStringLiteral("src/cancer.csv"), cancerCsv(240, 2));
        r = ctl(
            {QStringLiteral("data"), QStringLiteral("add"), csv, QStringLiteral("--name"), QStringLiteral("cancer")});
        QVERIFY2(r.code == 0 && r.out.contains("cancer@2"), r.out.constData());
        r = ctl({QStringLiteral("data"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("datasets")).toArray().size(), 1);
        QCOMPARE(r.json()
                     .value(QStringLiteral("datasets"))
                     .toArray()[0]
                     .toObject()
                     .value(QStringLiteral("versions"))
                     .toInt(),
                 2);
        r = ctl(
            {QStringLiteral("data"), QStringLiteral("versions"), QStringLiteral("cancer"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("versions")).toArray().size(), 2);
        r = ctl({QStringLiteral("data"), QStringLiteral("show"), QStringLiteral("cancer@1"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("rows")).toInt(), 200);
        QCOMPARE(
            r.json().value(QStringLiteral("manifest")).toArray()[0].toObject().value(QStringLiteral("path")).toString(),
            QStringLiteral("cancer.csv"));
        r = ctl({QStringLiteral("data"), QStringLiteral("show"), QStringLiteral("cancer@7")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no version 7"), r.err.constData());
        r = ctl({QStringLiteral("data"), QStringLiteral("add"), dir_.filePath(QStringLiteral("nothing-here"))});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("nothing-here"), r.err.constData());
        QCOMPARE(ctl({QStringLiteral("data"), QStringLiteral("bogus")}).code, 2);

        write(QStringLiteral("tmp/x.csv"), "a,b\n1,0\n2,1\n");
        QCOMPARE(ctl({QStringLiteral("data"), QStringLiteral("add"), dir_.filePath(QStringLiteral("tmp/x.csv"))}).code,
                 0);
        r = ctl({QStringLiteral("data"), QStringLiteral("remove"), QStringLiteral("x"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QCOMPARE(r.json().value(QStringLiteral("freed_bytes")).toInt(), 12);
        QCOMPARE(ctl({QStringLiteral("data"), QStringLiteral("show"), QStringLiteral("x")}).code, 1);
    }

    void aRunTrainsOnTheVersionItNames() {
        const QString config =
            write(QStringLiteral("run.json"),
                  QJsonDocument(
                      QJsonObject{
                          {QStringLiteral("format"), QStringLiteral("diamond.run/1")},
                          {QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QStringLiteral("csv")},
                                                               {QStringLiteral("dataset"), QStringLiteral("cancer@1")},
                                                               {QStringLiteral("skip_rows"), 1},
                                                               {QStringLiteral("header"), QStringLiteral("auto")},
                                                               {QStringLiteral("target"), 4}}},
                          {QStringLiteral("epochs"), 10},
                          {QStringLiteral("batch_size"), 16},
                          {QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")},
                                                                    {QStringLiteral("lr"), 0.01}}}})
                      .toJson());
        Result r = ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"), spec(),
                        QStringLiteral("--config"), config, QStringLiteral("--follow")});
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        r = ctl({QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json")});
        const QJsonObject run = r.json();
        QCOMPARE(run.value(QStringLiteral("dataset")).toString(), QStringLiteral("cancer@1"));
        QVERIFY2(
            run.value(QStringLiteral("final_metrics")).toObject().value(QStringLiteral("val_accuracy")).toDouble() >=
                0.9,
            r.out.constData());
        // 200 rows of version 1 (not the 240 of version 2): 160 training samples.
        QFile events(run.value(QStringLiteral("run_dir")).toString() + QStringLiteral("/events.jsonl"));
        QVERIFY(events.open(QIODevice::ReadOnly));
        const QByteArray all = events.readAll();
        QVERIFY2(all.contains("\"train_samples\":160"), all.left(2000).constData());
        r = ctl({QStringLiteral("run"), QStringLiteral("show"), QStringLiteral("1")});
        QVERIFY2(r.out.contains("Dataset:       cancer@1"), r.out.constData());

        // The engine on its own: data.dataset needs --data-path.
        QProcess engine;
        engine.start(test::binary(QStringLiteral("diamond-train")),
                     {QStringLiteral("--spec"), spec(), QStringLiteral("--config"), config, QStringLiteral("--run-dir"),
                      dir_.filePath(QStringLiteral("alone"))});
        QVERIFY(engine.waitForFinished(60000));
        QCOMPARE(engine.exitCode(), 1);
        const QByteArray err = engine.readAllStandardError();
        QVERIFY2(err.contains("data.dataset") && err.contains("--data-path"), err.constData());
    }

    /// Datasets of several files (an IDX images/labels pair, an NPY inputs/targets pair) and an NPZ file of arrays
    /// with other names than x and y train from a config that names only the dataset: the roles come from the
    /// import (the engine finds the files in the dataset's folder).
    void idxNpyAndNpzDatasetsTrainFromTheirNameAlone() {
        const int rows = 200;
        QRandomGenerator g(9);
        QByteArray images("\0\0\x08\x02", 4), labels("\0\0\x08\x01", 4), x, y;
        for (quint32 d : {quint32(rows), quint32(4)})
            images += QByteArray(1, char(d >> 24)) + char(d >> 16) + char(d >> 8) + char(d);
        labels += QByteArray(1, char(rows >> 24)) + char(rows >> 16) + char(rows >> 8) + char(rows);
        for (int i = 0; i < rows; ++i) {
            for (int c = 0; c < 4; ++c) {
                const float v = float((i % 2) * 100 + g.bounded(50));
                images += char(quint8(v));
                x += QByteArray(reinterpret_cast<const char *>(&v), 4);
            }
            labels += char(i % 2);
            const qint64 label = i % 2;
            y += QByteArray(reinterpret_cast<const char *>(&label), 8);
        }
        QVERIFY(!write(QStringLiteral("digits/train-images-idx2-ubyte"), images).isEmpty());
        QVERIFY(!write(QStringLiteral("digits/train-labels-idx1-ubyte"), labels).isEmpty());
        auto npy = [](const char *descr, const QByteArray &shape, const QByteArray &data) -> QByteArray {
            QByteArray header =
                "{'descr': '" + QByteArray(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
            header += QByteArray(64 - 10 - header.size() - 1, ' ') + '\n';
            return QByteArray("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header + data;
        };
        QVERIFY(!write(QStringLiteral("pair/features.npy"), npy("<f4", "(200, 4)", x)).isEmpty());
        QVERIFY(!write(QStringLiteral("pair/y.npy"), npy("<i8", "(200,)", y)).isEmpty());
        // The same arrays as members of an NPZ file, under names the engine's defaults (x, y) do not find.
        const std::string npz =
            test::files::zip({{"measurements.npy", test::files::npy("<f4", {rows, 4}, x.toStdString()), false},
                              {"labels.npy", test::files::npy("<i8", {rows}, y.toStdString()), true}});
        QVERIFY(!write(QStringLiteral("packed/cells.npz"), QByteArray::fromStdString(npz)).isEmpty());

        Result r = ctl({QStringLiteral("data"), QStringLiteral("add"), dir_.filePath(QStringLiteral("digits")),
                        QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonObject schema = r.json().value(QStringLiteral("schema")).toObject();
        QCOMPARE(r.json().value(QStringLiteral("format")).toString(), QStringLiteral("idx"));
        QCOMPARE(r.json().value(QStringLiteral("rows")).toInt(), rows);
        QCOMPARE(schema.value(QStringLiteral("images")).toString(), QStringLiteral("train-images-idx2-ubyte"));
        QCOMPARE(schema.value(QStringLiteral("labels")).toString(), QStringLiteral("train-labels-idx1-ubyte"));
        QCOMPARE(schema.value(QStringLiteral("classes")).toObject().value(QStringLiteral("1")).toInt(), rows / 2);
        QCOMPARE(schema.value(QStringLiteral("task")).toString(), QStringLiteral("classification"));
        r = ctl({QStringLiteral("data"), QStringLiteral("add"), dir_.filePath(QStringLiteral("pair")),
                 QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        schema = r.json().value(QStringLiteral("schema")).toObject();
        QCOMPARE(schema.value(QStringLiteral("inputs")).toString(), QStringLiteral("features.npy"));
        QCOMPARE(schema.value(QStringLiteral("targets")).toString(), QStringLiteral("y.npy"));
        r = ctl({QStringLiteral("data"), QStringLiteral("add"), dir_.filePath(QStringLiteral("packed/cells.npz")),
                 QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        schema = r.json().value(QStringLiteral("schema")).toObject();
        QCOMPARE(r.json().value(QStringLiteral("format")).toString(), QStringLiteral("npz"));
        QCOMPARE(r.json().value(QStringLiteral("rows")).toInt(), rows);
        QCOMPARE(schema.value(QStringLiteral("inputs")).toString(), QStringLiteral("measurements"));
        QCOMPARE(schema.value(QStringLiteral("targets")).toString(), QStringLiteral("labels"));

        for (const auto &[source, dataset] :
             {std::pair{"idx", "digits"}, std::pair{"npy", "pair"}, std::pair{"npz", "cells"}}) {
            const QString config = write(
                QStringLiteral("run-%1.json").arg(QLatin1String(source)),
                QJsonDocument(
                    QJsonObject{
                        {QStringLiteral("format"), QStringLiteral("diamond.run/1")},
                        {QStringLiteral("data"), QJsonObject{{QStringLiteral("source"), QLatin1String(source)},
                                                             {QStringLiteral("dataset"), QLatin1String(dataset)}}},
                        {QStringLiteral("epochs"), 10},
                        {QStringLiteral("batch_size"), 16},
                        {QStringLiteral("optimizer"),
                         QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}, {QStringLiteral("lr"), 0.01}}}})
                    .toJson());
            r = ctl({QStringLiteral("run"), QStringLiteral("start"), QStringLiteral("--spec"), spec(),
                     QStringLiteral("--config"), config, QStringLiteral("--follow"), QStringLiteral("--json")});
            QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
            r = ctl({QStringLiteral("run"), QStringLiteral("list"), QStringLiteral("--json")});
            QJsonObject last;
            for (const QJsonValue &v : r.json().value(QStringLiteral("runs")).toArray())
                if (v.toObject().value(QStringLiteral("dataset")).toString() ==
                    QString::fromLatin1(dataset) + QStringLiteral("@1"))
                    last = v.toObject();
            QVERIFY2(!last.isEmpty(), r.out.constData());
            QCOMPARE(last.value(QStringLiteral("state")).toString(), QStringLiteral("finished"));
            QVERIFY2(last.value(QStringLiteral("final_metrics"))
                             .toObject()
                             .value(QStringLiteral("val_accuracy"))
                             .toDouble() >= 0.9,
                     QJsonDocument(last).toJson().constData());
        }
    }

    void aPublishedModelShipsItsSmallDataset() {
        Result r =
            ctl({QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("1"), QStringLiteral("--name"),
                 QStringLiteral("cancer-mlp"), QStringLiteral("--unsigned"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        const QJsonObject entry = r.json();
        r = ctl({QStringLiteral("gallery"), QStringLiteral("show"),
                 QString::number(entry.value(QStringLiteral("id")).toInteger()), QStringLiteral("--json")});
        const QJsonObject dataset =
            r.json().value(QStringLiteral("manifest")).toObject().value(QStringLiteral("dataset")).toObject();
        QCOMPARE(dataset.value(QStringLiteral("reference")).toString(), QStringLiteral("cancer@1"));
        QCOMPARE(dataset.value(QStringLiteral("sha256_of")).toString(), QStringLiteral("dataset_manifest"));
        const QJsonObject registered = dataset.value(QStringLiteral("registered")).toObject();
        QCOMPARE(registered.value(QStringLiteral("shipped")).toBool(), true);
        const QString hash = registered.value(QStringLiteral("manifest_sha256")).toString();
        QCOMPARE(dataset.value(QStringLiteral("sha256")).toString(), hash);
        const QString package = dir_.filePath(QStringLiteral("cancer-mlp.diamond"));
        r = ctl({QStringLiteral("gallery"), QStringLiteral("export"),
                 QString::number(entry.value(QStringLiteral("id")).toInteger()), package});
        QVERIFY2(r.code == 0, r.err.constData());

        // Another workspace: importing the package registers the dataset with the same content.
        const QString other = dir_.filePath(QStringLiteral("other"));
        QCOMPARE(ctlIn(other, {QStringLiteral("init"), QStringLiteral("--no-examples")}).code, 0);
        r = ctlIn(other, {QStringLiteral("gallery"), QStringLiteral("import"), package, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, QByteArray(r.err + r.out).constData());
        QVERIFY2(r.out.contains("registered as cancer@1"), r.out.constData());
        r = ctlIn(other,
                  {QStringLiteral("data"), QStringLiteral("show"), QStringLiteral("cancer"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("manifest_sha256")).toString(), hash);
        QVERIFY(r.json().value(QStringLiteral("source")).toString().contains(QStringLiteral("cancer-mlp")));
    }
};

QTEST_GUILESS_MAIN(TestDiamondctlData)
#include "tst_diamondctl_data.moc"
