// diamondctl as a process: version/help and the `spec` commands on real files.
#include "common/test_paths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestDiamondctl : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out, err;
    };

    static Result ctl(const QStringList &args) {
        QProcess p;
        p.start(diamond::test::binary(QStringLiteral("diamondctl")), args);
        Result r;
        if (!p.waitForFinished(60000)) return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QTemporaryDir dir_;

    QString write(const QString &name, const QByteArray &content) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) return {};
        f.write(content);
        return path;
    }

    static QString tmpl(const char *name) {
        return diamond::test::sourcePath(QStringLiteral("resources/templates/") + QLatin1String(name));
    }

private Q_SLOTS:
    void versionAndHelp() {
        const Result v = ctl({QStringLiteral("--version")});
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.startsWith(QStringLiteral("diamondctl 0.")));
        QVERIFY(v.out.contains(QStringLiteral("libssh")));
        const Result h = ctl({QStringLiteral("--help")});
        QCOMPARE(h.exitCode, 0);
        QVERIFY(h.out.contains(QStringLiteral("spec check")));
        QCOMPARE(ctl({QStringLiteral("frobnicate")}).exitCode, 2);
    }

    void checkAcceptsTemplate() {
        const Result r = ctl({QStringLiteral("spec"), QStringLiteral("check"), tmpl("resnet18.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("11,689,512")), qPrintable(r.out));
    }

    void checkReportsSyntaxErrorWithLineAndColumn() {
        const QString path =
            write(QStringLiteral("broken.json"),
                  "{\n  \"format\": \"diamond.spec/1\",\n  \"nodes\": [\n    {\"id\": \"a\",}\n  ]\n}\n");
        const Result r = ctl({QStringLiteral("spec"), QStringLiteral("check"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(path + QStringLiteral(":4:")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("not valid JSON")));
    }

    void checkNamesTheNodeOnShapeErrors() {
        const QString path = write(QStringLiteral("rank.json"), R"({"format": "diamond.spec/1",
          "inputs": [{"name": "x", "shape": ["N", 3, 32, 32]}],
          "nodes": [{"id": "flatten1", "type": "Flatten", "inputs": ["x"]},
                    {"id": "conv3", "type": "Conv2d", "params": {"out_channels": 8, "kernel_size": 3}, "inputs": ["flatten1"]}],
          "outputs": [{"name": "y", "from": "conv3"}]})");
        const Result r = ctl({QStringLiteral("spec"), QStringLiteral("check"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("conv3")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("[N,3072]")), qPrintable(r.err));
    }

    void infoJsonHasTotalsAndLayers() {
        const Result r = ctl({QStringLiteral("spec"), QStringLiteral("info"), tmpl("cnn28.json"),
                              QStringLiteral("--batch"), QStringLiteral("64"), QStringLiteral("--optimizer"),
                              QStringLiteral("sgd_momentum"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("params")).toInteger(), 225034);
        QVERIFY(doc.value(QStringLiteral("flops")).toInteger() > 0);
        QVERIFY(doc.value(QStringLiteral("memory_bytes")).toInteger() > 225034 * 4 * 3);
        const QJsonArray layers = doc.value(QStringLiteral("layers")).toArray();
        QVERIFY(!layers.isEmpty());
        const QJsonObject last = layers.last().toObject();
        QCOMPARE(last.value(QStringLiteral("output_shape")).toArray(), (QJsonArray{QStringLiteral("N"), 10}));
        for (const auto &l : layers) {
            const QJsonObject o = l.toObject();
            for (const char *key : {"id", "type", "output_shape", "params", "flops"})
                QVERIFY2(o.contains(QLatin1String(key)), key);
        }
    }

    void infoTableShowsTotals() {
        const Result r = ctl({QStringLiteral("spec"), QStringLiteral("info"), tmpl("mlp.json")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("Parameters:   4,547")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("FLOPs/sample")));
    }

    /// `spec recompute`: the layers chosen for an activation budget, within it, and the spec written with exactly those
    /// marks (which the engine reads as "recompute": true); an impossible budget exits 1 and says so; a bad budget is a
    /// usage error.
    void recomputeChoosesLayersForABudget() {
        const QString out = dir_.filePath(QStringLiteral("unet-marked.json"));
        const Result r = ctl({QStringLiteral("spec"), QStringLiteral("recompute"), tmpl("unet.json"),
                              QStringLiteral("--activations-mb"), QStringLiteral("80"), QStringLiteral("--batch"),
                              QStringLiteral("16"), QStringLiteral("--output"), out, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(doc.value(QStringLiteral("fits")).toBool());
        QVERIFY(doc.value(QStringLiteral("activation_bytes")).toInteger() <= 80 * 1048576);
        const QJsonArray chosen = doc.value(QStringLiteral("recomputed")).toArray();
        QVERIFY2(chosen.size() > 0 && chosen.size() < 52, qPrintable(r.out));
        QVERIFY(doc.value(QStringLiteral("recomputed_flops")).toInteger() <
                doc.value(QStringLiteral("flops")).toInteger());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonArray marked;
        for (const QJsonValue &n :
             QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("nodes")).toArray())
            if (n.toObject().value(QStringLiteral("recompute")).toBool())
                marked.append(n.toObject().value(QStringLiteral("id")));
        QCOMPARE(marked, chosen);
        const Result check = ctl({QStringLiteral("spec"), QStringLiteral("check"), out});
        QCOMPARE(check.exitCode, 0);

        const Result tight = ctl({QStringLiteral("spec"), QStringLiteral("recompute"), tmpl("unet.json"),
                                  QStringLiteral("--activations-mb"), QStringLiteral("1")});
        QCOMPARE(tight.exitCode, 1);
        QVERIFY2(tight.out.contains(QStringLiteral("exceed the budget")), qPrintable(tight.out));
        const Result bad = ctl({QStringLiteral("spec"), QStringLiteral("recompute"), tmpl("unet.json"),
                                QStringLiteral("--activations-mb"), QStringLiteral("-3")});
        QCOMPARE(bad.exitCode, 2);
        // An output path that cannot be written: a clear error, and nothing else written.
        const QString nowhere = dir_.filePath(QStringLiteral("no-such-dir/marked.json"));
        const Result unwritable =
            ctl({QStringLiteral("spec"), QStringLiteral("recompute"), tmpl("unet.json"),
                 QStringLiteral("--activations-mb"), QStringLiteral("80"), QStringLiteral("--output"), nowhere});
        QCOMPARE(unwritable.exitCode, 1);
        QVERIFY2(unwritable.err.contains(QStringLiteral("cannot write")), qPrintable(unwritable.err));
        QVERIFY(!QFile::exists(nowhere));
    }

    void missingFileIsAClearError() {
        const Result r =
            ctl({QStringLiteral("spec"), QStringLiteral("check"), dir_.filePath(QStringLiteral("nope.json"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains(QStringLiteral("Cannot open")));
    }
};

QTEST_GUILESS_MAIN(TestDiamondctl)
#include "tst_diamondctl.moc"
