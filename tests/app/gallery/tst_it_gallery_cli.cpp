// diamondctl gallery publish|list|search|show|export|import|remove|key|trust as processes, with the real
// diamond-train (spirals, 300 steps, 1 thread) in workspaces inside a temporary folder: the card from the run and
// the caller's overrides, exit codes and stable error codes for refused packages, publisher signatures and the
// trust list, forged packages (zeroed weights with regenerated outputs), no private paths in a default publish,
// and no terminal control characters from a package reaching the terminal.
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

    /// Runs a Python script (standard library only) with arguments; true when it exits 0.
    bool python(const QString &script, const QStringList &args) {
        QProcess p;
        p.start(QStringLiteral("python3"), QStringList{QStringLiteral("-c"), script} + args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            qWarning() << p.readAllStandardError();
            return false;
        }
        return true;
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

        // Nothing about this computer by default: no data path, no operating system.
        const QByteArray shared = QJsonDocument(r.json().value(QStringLiteral("manifest")).toObject()).toJson();
        QVERIFY2(!shared.contains(home_.path().toUtf8()), shared.constData());
        QVERIFY(!shared.contains("\"os\""));

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

    void signaturesAndTrust() {
        const Result key = ctl(ws_, {QStringLiteral("gallery"), QStringLiteral("key"), QStringLiteral("--json")});
        QCOMPARE(key.exitCode, 0);
        const QString fingerprint = key.json().value(QStringLiteral("fingerprint")).toString();
        const QString publicKey = key.json().value(QStringLiteral("public_key")).toString();
        QVERIFY(fingerprint.startsWith(QStringLiteral("SHA256:")));
        QCOMPARE(QFile(key.json().value(QStringLiteral("path")).toString()).permissions() & 0x7777,
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
        // The publisher's own gallery trusts its key.
        Result r = ctl(
            ws_, {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("2"), QStringLiteral("--json")});
        QJsonObject signature = r.json().value(QStringLiteral("signature")).toObject();
        QCOMPARE(signature.value(QStringLiteral("fingerprint")).toString(), fingerprint);
        QCOMPARE(signature.value(QStringLiteral("publisher")).toString(), QStringLiteral("Ada"));
        QVERIFY(signature.value(QStringLiteral("trusted")).toBool());
        // Elsewhere the same package is signed by a key nobody has vouched for.
        r = ctl(other_, {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1")});
        QVERIFY2(r.out.contains(QStringLiteral("Signature:  signed by Ada (%1, untrusted)").arg(fingerprint)),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("Consistent: yes")));
        QVERIFY(
            ctl(other_, {QStringLiteral("gallery"), QStringLiteral("list")}).out.contains(QStringLiteral("untrusted")));
        r = ctl(other_,
                {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("add"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        auto trusted = [this] {
            return ctl(other_, {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1"),
                                QStringLiteral("--json")})
                .json()
                .value(QStringLiteral("signature"))
                .toObject()
                .value(QStringLiteral("trusted"))
                .toBool();
        };
        QVERIFY(trusted());
        r = ctl(other_,
                {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("list"), QStringLiteral("--json")});
        const QJsonArray keys = r.json().value(QStringLiteral("keys")).toArray();
        QCOMPARE(keys.size(), 1);
        QCOMPARE(keys.first().toObject().value(QStringLiteral("public_key")).toString(), publicKey);
        QCOMPARE(
            ctl(other_, {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("remove"), fingerprint})
                .exitCode,
            0);
        QVERIFY(!trusted());
        QCOMPARE(ctl(other_, {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("add"), publicKey,
                              QStringLiteral("--name"), QStringLiteral("Ada Lovelace")})
                     .exitCode,
                 0);
        QVERIFY(trusted());
        QCOMPARE(
            ctl(other_, {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("remove"), fingerprint})
                .exitCode,
            0);
        QCOMPARE(ctl(other_, {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("add"),
                              QStringLiteral("bm90IGEga2V5")})
                     .exitCode,
                 2);
        QCOMPARE(
            ctl(other_, {QStringLiteral("gallery"), QStringLiteral("trust"), QStringLiteral("remove"), fingerprint})
                .exitCode,
            1);
    }

    /// The review's forgery: weights zeroed, test outputs regenerated with the engine, manifest hashes updated. It
    /// agrees with itself, so it is "consistent"; with the publisher's signature kept it is refused, without one it
    /// is shown as unsigned: nothing claims it comes from the publisher.
    void forgedPackageIsNotPassedOffAsThePublishers() {
        const QString original = home_.filePath(QStringLiteral("out.diamond"));
        const QString dir = home_.filePath(QStringLiteral("forge"));
        QVERIFY(QDir().mkpath(dir));
        QVERIFY(python(
            QStringLiteral("import zipfile,sys,os\n"
                           "z=zipfile.ZipFile(sys.argv[1])\n"
                           "for n in z.namelist(): open(os.path.join(sys.argv[2],n),'wb').write(z.read(n))\n"
                           "w=open(os.path.join(sys.argv[2],'weights.safetensors'),'rb').read()\n"
                           "h=8+int.from_bytes(w[:8],'little')\n"
                           "open(os.path.join(sys.argv[2],'weights.safetensors'),'wb').write(w[:h]+bytes(len(w)-h))\n"),
            {original, dir}));
        QProcess predict;
        predict.start(diamond::test::binary(QStringLiteral("diamond-train")),
                      {QStringLiteral("predict"), QStringLiteral("--spec"), dir + QStringLiteral("/spec.json"),
                       QStringLiteral("--weights"), dir + QStringLiteral("/weights.safetensors"),
                       QStringLiteral("--inputs"), dir + QStringLiteral("/test_inputs.safetensors"),
                       QStringLiteral("--output"), dir + QStringLiteral("/test_outputs.safetensors"),
                       QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY(predict.waitForFinished(60000));
        QCOMPARE(predict.exitCode(), 0);
        const QString pack = QStringLiteral(
            "import zipfile,sys,os,json,hashlib\n"
            "d=sys.argv[1]; m=json.load(open(os.path.join(d,'manifest.json')))\n"
            "for n in m['files']: m['files'][n]=hashlib.sha256(open(os.path.join(d,n),'rb').read()).hexdigest()\n"
            "z=zipfile.ZipFile(sys.argv[2],'w')\n"
            "z.writestr('manifest.json',json.dumps(m,indent=4))\n"
            "for n in m['files']: z.write(os.path.join(d,n),n)\n"
            "if sys.argv[3]=='keep': z.write(os.path.join(d,'signature.json'),'signature.json')\n"
            "z.close()\n");
        const QString withSignature = home_.filePath(QStringLiteral("forged-signed.diamond"));
        const QString unsigned_ = home_.filePath(QStringLiteral("forged-unsigned.diamond"));
        QVERIFY(QFile::exists(dir + QStringLiteral("/signature.json")));
        QVERIFY(python(pack, {dir, withSignature, QStringLiteral("keep")}));
        QVERIFY(python(pack, {dir, unsigned_, QStringLiteral("drop")}));
        const QString third = home_.filePath(QStringLiteral("third"));
        QCOMPARE(ctl(third, {QStringLiteral("init"), QStringLiteral("--no-examples")}).exitCode, 0);
        Result r = ctl(third, {QStringLiteral("gallery"), QStringLiteral("import"), withSignature});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("package_bad_signature")), qPrintable(r.err));
        r = ctl(third, {QStringLiteral("gallery"), QStringLiteral("import"), unsigned_, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.json().value(QStringLiteral("consistent")).toBool(), qPrintable(r.out));
        QVERIFY(r.json().value(QStringLiteral("signature")).isNull());
        r = ctl(third, {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1")});
        QVERIFY2(r.out.contains(QStringLiteral("Signature:  unsigned")), qPrintable(r.out));
    }

    /// Escape sequences in a package's title, card and tags (set a terminal title, plant a link, clear the screen)
    /// reach the terminal as U+FFFD, and the JSON output keeps them escaped.
    void controlCharactersNeverReachTheTerminal() {
        const QString hostile = home_.filePath(QStringLiteral("hostile.diamond"));
        QVERIFY(python(
            QStringLiteral("import zipfile,sys,json\n"
                           "s=zipfile.ZipFile(sys.argv[1]); d=zipfile.ZipFile(sys.argv[2],'w')\n"
                           "m=json.loads(s.read('manifest.json'))\n"
                           "m['title']='Evil\\x1b]0;pwned\\x07 \\x1b]8;;http://127.0.0.1/\\x07click\\x1b]8;;\\x07'\n"
                           "m['card']='# Card\\x1b[2J\\x1b[31mred\\u009b31m\\u202eevil'\n"
                           "m['tags']=['a\\x1b[8mhidden']\n"
                           "d.writestr('manifest.json',json.dumps(m))\n"
                           "for n in s.namelist():\n"
                           "    if n not in ('manifest.json','signature.json'): d.writestr(n,s.read(n))\n"
                           "d.close()\n"),
            {home_.filePath(QStringLiteral("out.diamond")), hostile}));
        const QString fourth = home_.filePath(QStringLiteral("fourth"));
        QCOMPARE(ctl(fourth, {QStringLiteral("init"), QStringLiteral("--no-examples")}).exitCode, 0);
        Result r = ctl(fourth, {QStringLiteral("gallery"), QStringLiteral("import"), hostile});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const QStringList &args :
             {QStringList{QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1")},
              QStringList{QStringLiteral("gallery"), QStringLiteral("list")},
              QStringList{QStringLiteral("gallery"), QStringLiteral("search"), QStringLiteral("card")}}) {
            r = ctl(fourth, args);
            QCOMPARE(r.exitCode, 0);
            for (const QChar c : QString(r.out + r.err))
                QVERIFY2(
                    c == u'\n' || (c >= u' ' && c != u'\x7f' && !(c >= u'\x80' && c <= u'\x9f') && c != u'\u202e'),
                    qPrintable(
                        QStringLiteral("U+%1 in: %2").arg(c.unicode(), 4, 16, QLatin1Char('0')).arg(args.join(u' '))));
        }
        r = ctl(fourth, {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1")});
        QVERIFY2(r.out.contains(QStringLiteral("Evil\uFFFD]0;pwned\uFFFD")), qPrintable(r.out));
        r = ctl(fourth,
                {QStringLiteral("gallery"), QStringLiteral("show"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY(r.out.contains(QStringLiteral("\\u001b]0;pwned")));
        QVERIFY(r.json().value(QStringLiteral("title")).toString().startsWith(QStringLiteral("Evil\x1b]0;")));
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
