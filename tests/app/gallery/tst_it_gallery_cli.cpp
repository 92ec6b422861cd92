// diamondctl gallery publish|list|search|show|export|import|remove as processes, with the real diamond-train
// (spirals, 300 steps, 1 thread) in workspaces inside a temporary folder: the card from the run and the
// caller's overrides, exit codes and stable error codes for refused packages.
#include "common/test_paths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestGalleryCli : public QObject {
    Q_OBJECT

    struct Result {
        int exitCode = -1;
        QString out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
    };

    QTemporaryDir home_;
    QString ws_, other_;

    Result ctl(const QString &ws, QStringList args) {
        args = QStringList{QStringLiteral("--workspace"), ws} + args;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home_.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home_.filePath(QStringLiteral("xdg-data")));
        env.insert(QStringLiteral("DIAMOND_TRAIN"), diamond::test::binary(QStringLiteral("diamond-train")));
        p.setProcessEnvironment(env);
        p.start(diamond::test::binary(QStringLiteral("diamondctl")), args);
        Result r;
        if (!p.waitForFinished(180000)) return r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    QString write(const QString &name, const QByteArray &data) {
        QFile f(home_.filePath(name));
        f.open(QIODevice::WriteOnly);
        f.write(data);
        return f.fileName();
    }

    QString startRun(int steps, bool follow) {
        QFile f(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/run.json")));
        f.open(QIODevice::ReadOnly);
        QJsonObject c = QJsonDocument::fromJson(f.readAll()).object();
        c.insert(QStringLiteral("steps"), steps);
        c.insert(QStringLiteral("threads"), 1);
        const QString config = write(QStringLiteral("run-%1.json").arg(steps), QJsonDocument(c).toJson());
        QStringList args{QStringLiteral("run"),
                         QStringLiteral("start"),
                         QStringLiteral("--spec"),
                         diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json")),
                         QStringLiteral("--config"),
                         config,
                         QStringLiteral("--json")};
        if (follow) args << QStringLiteral("--follow");
        const Result r = ctl(ws_, args);
        return r.exitCode == 0 ? r.out : QString();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(home_.isValid());
        ws_ = home_.filePath(QStringLiteral("ws"));
        other_ = home_.filePath(QStringLiteral("other"));
        QCOMPARE(ctl(ws_, {QStringLiteral("init"), QStringLiteral("--no-examples")}).exitCode, 0);
        QCOMPARE(ctl(other_, {QStringLiteral("init"), QStringLiteral("--no-examples")}).exitCode, 0);
        QVERIFY(!startRun(300, true).isEmpty());
    }

    void publishWithDefaultsAndOverrides() {
        Result r = ctl(
            ws_, {QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(QStringLiteral("name")).toString(), QStringLiteral("Spirals classifier"));
        r = ctl(ws_,
                {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json")});
        const QString card = r.json().value(QStringLiteral("card")).toString();
        QVERIFY2(card.contains(QStringLiteral("val_accuracy")), qPrintable(card)); // prefilled from the run
        QVERIFY(card.contains(QStringLiteral("`x`")));
        QVERIFY(QFile::exists(r.json().value(QStringLiteral("package_file")).toString()));

        const QString cardFile = write(QStringLiteral("card.md"), "# My spirals\n\nHand-written card about arms.");
        r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("1"),
                      QStringLiteral("--name"), QStringLiteral("arms-net"), QStringLiteral("--version"),
                      QStringLiteral("2.0.0"), QStringLiteral("--card"), cardFile, QStringLiteral("--tags"),
                      QStringLiteral("spirals, toy"), QStringLiteral("--license"), QStringLiteral("MIT"),
                      QStringLiteral("--domain"), QStringLiteral("geometry"), QStringLiteral("--author"),
                      QStringLiteral("Ada"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const qint64 id = r.json().value(QStringLiteral("id")).toInteger();
        r = ctl(ws_,
                {QStringLiteral("gallery"), QStringLiteral("show"), QString::number(id), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("card")).toString(),
                 QStringLiteral("# My spirals\n\nHand-written card about arms."));
        const QJsonObject m = r.json().value(QStringLiteral("manifest")).toObject();
        QCOMPARE(m.value(QStringLiteral("version")).toString(), QStringLiteral("2.0.0"));
        QCOMPARE(m.value(QStringLiteral("authors")).toArray(), QJsonArray{QStringLiteral("Ada")});
        QCOMPARE(m.value(QStringLiteral("tags")).toArray(),
                 (QJsonArray{QStringLiteral("spirals"), QStringLiteral("toy")}));
        QVERIFY(m.value(QStringLiteral("provenance")).toObject().value(QStringLiteral("compute_hours")).toDouble() > 0);
        QCOMPARE(m.value(QStringLiteral("dataset")).toObject().value(QStringLiteral("sha256")).toString().size(), 64);
    }

    void listSearchFilters() {
        Result r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("total")).toInt(), 2);
        r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("search"), QStringLiteral("hand-written"),
                      QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("total")).toInt(), 1);
        QCOMPARE(r.json()
                     .value(QStringLiteral("entries"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("arms-net"));
        r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--license"),
                      QStringLiteral("MIT"), QStringLiteral("--json")});
        QCOMPARE(r.json().value(QStringLiteral("total")).toInt(), 1);
        r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--sort"),
                      QStringLiteral("name"), QStringLiteral("--asc")});
        QCOMPARE(r.exitCode, 0);
        // Names sort by bytes: 'S' < 'a'.
        QVERIFY(r.out.indexOf(QStringLiteral("Spirals classifier")) < r.out.indexOf(QStringLiteral("arms-net")));
        r = ctl(ws_,
                {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--sort"), QStringLiteral("name")});
        QVERIFY(r.out.indexOf(QStringLiteral("Spirals classifier")) > r.out.indexOf(QStringLiteral("arms-net")));
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--sort"),
                           QStringLiteral("size")})
                     .exitCode,
                 2);
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("search")}).exitCode, 2);
    }

    void exportImportRoundTrip() {
        const QString file = home_.filePath(QStringLiteral("out.diamond"));
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("export"), QStringLiteral("2"), file}).exitCode,
                 0);
        Result r = ctl(other_, {QStringLiteral("gallery"), QStringLiteral("import"), file, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(QStringLiteral("name")).toString(), QStringLiteral("arms-net"));
        QVERIFY(!r.json().value(QStringLiteral("verify_message")).toString().isEmpty());
        r = ctl(other_, {QStringLiteral("gallery"), QStringLiteral("import"), file});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains(QStringLiteral("already")));
        QCOMPARE(ctl(other_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--json")})
                     .json()
                     .value(QStringLiteral("total"))
                     .toInt(),
                 1);
    }

    void tamperedPackageRefused() {
        const QString file = home_.filePath(QStringLiteral("out.diamond"));
        const QString tampered = home_.filePath(QStringLiteral("tampered.diamond"));
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral("-c"),
                 QStringLiteral(
                     "import zipfile,sys\nsrc=zipfile.ZipFile(sys.argv[1]); dst=zipfile.ZipFile(sys.argv[2],'w')\n"
                     "for i in src.infolist():\n    d=src.read(i.filename)\n"
                     "    if i.filename=='weights.safetensors': d=d[:-4]+bytes(4)\n"
                     "    dst.writestr(i,d)\ndst.close()\n"),
                 file, tampered});
        QVERIFY(p.waitForFinished(30000) && p.exitCode() == 0);
        const Result r = ctl(other_, {QStringLiteral("gallery"), QStringLiteral("import"), tampered});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("package_hash_mismatch")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("weights.safetensors")));
        QCOMPARE(ctl(other_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--json")})
                     .json()
                     .value(QStringLiteral("total"))
                     .toInt(),
                 1);
    }

    void publishRefusals() {
        const QJsonObject started = QJsonDocument::fromJson(startRun(1000000, false).toUtf8()).object();
        const QString id = QString::number(started.value(QStringLiteral("id")).toInteger());
        Result r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("publish"), id});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("run_not_finished")), qPrintable(r.err));
        ctl(ws_, {QStringLiteral("run"), QStringLiteral("cancel"), id});
        r = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("99")});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("publish"), QStringLiteral("x")}).exitCode, 2);
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("frobnicate")}).exitCode, 2);
    }

    void removeEntry() {
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("remove"), QStringLiteral("1")}).exitCode, 0);
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1")}).exitCode, 1);
        QCOMPARE(ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("list"), QStringLiteral("--json")})
                     .json()
                     .value(QStringLiteral("total"))
                     .toInt(),
                 1);
    }
};

QTEST_GUILESS_MAIN(TestGalleryCli)
#include "tst_it_gallery_cli.moc"
