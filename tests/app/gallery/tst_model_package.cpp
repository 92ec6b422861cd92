// Model package format (app/gallery/model_package.h): writing, checking, every refusal (zip-slip, absolute
// paths, symlinks, oversize, unknown format, hash mismatch, unlisted/missing files), the output comparison of
// verifyOutputs(), the thumbnail, and publisher signatures (Ed25519 over manifest.json: signed packages check,
// any change to a signed package is refused, malformed signature files are refused, key files stay private). Hostile
// archives are built with Python's zipfile (a different writer than ours), so the reader is tested against archives it
// did not make.
#include "common/test_paths.h"

#include "app/gallery/model_package.h"
#include "app/gallery/package_signature.h"
#include "app/gallery/zip_archive.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace diamond::app::gallery;

namespace {

/// A safetensors file with one F32 tensor `name` of the given values.
QByteArray safetensors(const QString &name, const QList<float> &values) {
    const QByteArray header =
        QJsonDocument(QJsonObject{{name, QJsonObject{{QStringLiteral("dtype"), QStringLiteral("F32")},
                                                     {QStringLiteral("shape"), QJsonArray{values.size()}},
                                                     {QStringLiteral("data_offsets"),
                                                      QJsonArray{0, static_cast<int>(values.size() * 4)}}}}})
            .toJson(QJsonDocument::Compact);
    QByteArray out(8, '\0');
    const quint64 n = static_cast<quint64>(header.size());
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    out += header;
    for (float v : values)
        out.append(reinterpret_cast<const char *>(&v), 4);
    return out;
}

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestModelPackage : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QMap<QString, QByteArray> files_;

    QString path(const QString &name) const { return tmp_.filePath(name); }

    QJsonObject manifest() const {
        return {{QStringLiteral("name"), QStringLiteral("Spirals")},
                {QStringLiteral("version"), QStringLiteral("1.0.0")}};
    }

    /// Runs python3 to write a zip: `entries` is Python source of a list of (name, bytes, unix_mode).
    bool pythonZip(const QString &out, const QString &entries) {
        const QString script =
            QStringLiteral("import zipfile,sys\n"
                           "z=zipfile.ZipFile(sys.argv[1],'w')\n"
                           "for name,data,mode in %1:\n"
                           "    i=zipfile.ZipInfo(name); i.create_system=3; i.external_attr=mode<<16\n"
                           "    z.writestr(i,data)\n"
                           "z.close()\n")
                .arg(entries);
        QProcess p;
        p.start(QStringLiteral("python3"), {QStringLiteral("-c"), script, out});
        return p.waitForFinished(30000) && p.exitCode() == 0;
    }

    /// A valid package's files plus `extra` (name, data) entries, as Python source for pythonZip().
    QString validEntriesPlus(const QString &extra) {
        QJsonObject m = manifest();
        m.insert(QStringLiteral("format"), QStringLiteral("diamond.package/1"));
        QJsonObject hashes;
        QString list = QStringLiteral("[");
        for (auto it = files_.begin(); it != files_.end(); ++it) {
            hashes.insert(it.key(), QString::fromLatin1(
                                        QCryptographicHash::hash(it.value(), QCryptographicHash::Sha256).toHex()));
            list += QStringLiteral("('%1', bytes.fromhex('%2'), 0o100644),")
                        .arg(it.key(), QString::fromLatin1(it.value().toHex()));
        }
        m.insert(QStringLiteral("files"), hashes);
        list += QStringLiteral("('manifest.json', bytes.fromhex('%1'), 0o100644),")
                    .arg(QString::fromLatin1(QJsonDocument(m).toJson().toHex()));
        return list + extra + QLatin1Char(']');
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        files_.insert(QStringLiteral("spec.json"),
                      readFile(diamond::test::sourcePath(QStringLiteral("resources/examples/spirals/spec.json"))));
        QVERIFY(!files_.value(QStringLiteral("spec.json")).isEmpty());
        files_.insert(QStringLiteral("weights.safetensors"), safetensors(QStringLiteral("fc1.weight"), {1, 2, 3}));
        files_.insert(QStringLiteral("test_inputs.safetensors"), safetensors(QStringLiteral("x"), {0.5f, -0.5f}));
        files_.insert(QStringLiteral("test_outputs.safetensors"),
                      safetensors(QStringLiteral("logits"), {0.25f, 1.5f, -2}));
        files_.insert(QStringLiteral("thumbnail.png"), renderThumbnail(files_.value(QStringLiteral("spec.json"))));
    }

    void writeAndCheck() {
        QString error;
        QVERIFY2(writePackage(path(QStringLiteral("ok.diamond")), manifest(), files_, &error), qPrintable(error));
        QTemporaryDir out;
        const PackageCheck c = checkPackage(path(QStringLiteral("ok.diamond")), out.path());
        QVERIFY2(c.ok, qPrintable(c.code + QLatin1Char(' ') + c.message));
        QCOMPARE(c.manifest.value(QStringLiteral("format")).toString(), QStringLiteral("diamond.package/1"));
        QCOMPARE(c.packageSha256, fileSha256(path(QStringLiteral("ok.diamond"))));
        for (auto it = files_.begin(); it != files_.end(); ++it) {
            QCOMPARE(readFile(QDir(out.path()).filePath(it.key())), it.value());
            QCOMPARE(c.manifest.value(QStringLiteral("files")).toObject().value(it.key()).toString(),
                     QString::fromLatin1(QCryptographicHash::hash(it.value(), QCryptographicHash::Sha256).toHex()));
        }
        QCOMPARE(QDir(out.path()).entryList(QDir::Files).size(), files_.size()); // manifest itself not extracted
    }

    /// Packages are reproducible: the same files give the same bytes whenever they are written
    /// (the gallery recognises a package it already holds by its SHA-256). Every entry carries one
    /// fixed DOS date, 2000-01-01, instead of the time of writing.
    void samePackageGivesSameBytes() {
        QString error;
        QVERIFY(writePackage(path(QStringLiteral("r1.diamond")), manifest(), files_, &error));
        QVERIFY(writePackage(path(QStringLiteral("r2.diamond")), manifest(), files_, &error));
        QFile a(path(QStringLiteral("r1.diamond"))), b(path(QStringLiteral("r2.diamond")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray bytes = a.readAll();
        QCOMPARE(bytes, b.readAll());
        int headers = 0;
        for (qsizetype at = bytes.indexOf("PK\x03\x04"); at >= 0 && at + 14 <= bytes.size();
             at = bytes.indexOf("PK\x03\x04", at + 4)) {
            const auto u16 = [&](qsizetype i) { return quint16(quint8(bytes[i]) | quint8(bytes[i + 1]) << 8); };
            QCOMPARE(u16(at + 12), quint16((2000 - 1980) << 9 | 1 << 5 | 1)); // DOS date: 2000-01-01
            ++headers;
        }
        QCOMPARE(headers, files_.size() + 1); // the files and manifest.json
    }

    void pythonWrittenValidPackageIsAccepted() {
        QVERIFY(pythonZip(path(QStringLiteral("py.diamond")), validEntriesPlus({})));
        const PackageCheck c = checkPackage(path(QStringLiteral("py.diamond")));
        QVERIFY2(c.ok, qPrintable(c.message));
    }

    void refusals_data() {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("code");
        QTest::newRow("dotdot") << QStringLiteral("('../evil.txt', b'x', 0o100644)")
                                << QStringLiteral("package_path_traversal");
        QTest::newRow("nested dotdot") << QStringLiteral("('a/../../evil.txt', b'x', 0o100644)")
                                       << QStringLiteral("package_path_traversal");
        QTest::newRow("absolute") << QStringLiteral("('/tmp/evil.txt', b'x', 0o100644)")
                                  << QStringLiteral("package_absolute_path");
        QTest::newRow("windows absolute")
            << QStringLiteral("('C:\\\\evil.txt', b'x', 0o100644)") << QStringLiteral("package_absolute_path");
        QTest::newRow("symlink") << QStringLiteral("('link', b'/etc/passwd', 0o120777)")
                                 << QStringLiteral("package_symlink");
        QTest::newRow("subfolder") << QStringLiteral("('dir/file.txt', b'x', 0o100644)")
                                   << QStringLiteral("package_bad_entry_name");
        QTest::newRow("unlisted") << QStringLiteral("('extra.txt', b'x', 0o100644)")
                                  << QStringLiteral("package_unlisted_file");
        QTest::newRow("duplicate") << QStringLiteral("('spec.json', b'{}', 0o100644)")
                                   << QStringLiteral("package_duplicate_entry");
    }
    void refusals() {
        QFETCH(QString, extra);
        QFETCH(QString, code);
        static int counter = 0;
        const QString file = path(QStringLiteral("bad-%1.diamond").arg(++counter));
        QVERIFY(pythonZip(file, validEntriesPlus(extra)));
        QTemporaryDir out;
        const PackageCheck c = checkPackage(file, out.path());
        QVERIFY(!c.ok);
        QCOMPARE(c.code, code);
        QVERIFY(!c.message.isEmpty());
        // Nothing was written anywhere, inside or outside the extraction folder.
        QVERIFY(!QFile::exists(QDir(out.path()).filePath(QStringLiteral("../evil.txt"))));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/evil.txt")));
        QVERIFY(QDir(out.path()).entryList(QDir::Files | QDir::System | QDir::Hidden).isEmpty());
    }

    void unknownFormatRefused() {
        QJsonObject m = manifest();
        m.insert(QStringLiteral("format"), QStringLiteral("diamond.package/2"));
        QVERIFY(pythonZip(path(QStringLiteral("v2.diamond")),
                          QStringLiteral("[('manifest.json', bytes.fromhex('%1'), 0o100644)]")
                              .arg(QString::fromLatin1(QJsonDocument(m).toJson().toHex()))));
        const PackageCheck c = checkPackage(path(QStringLiteral("v2.diamond")));
        QCOMPARE(c.code, QStringLiteral("package_unknown_format"));
        QVERIFY(c.message.contains(QStringLiteral("diamond.package/2")));
    }

    void hashMismatchRefused() {
        QMap<QString, QByteArray> tampered = files_;
        QString error;
        QVERIFY(writePackage(path(QStringLiteral("t.diamond")), manifest(), files_, &error));
        // Rewrite the archive with the same manifest but other weights.
        ZipReader r;
        QVERIFY(r.open(path(QStringLiteral("t.diamond")), 32, [](const QString &) { return qint64(1) << 30; }));
        QByteArray manifestBytes;
        QVERIFY(r.read(QStringLiteral("manifest.json"), &manifestBytes));
        ZipWriter w;
        tampered[QStringLiteral("weights.safetensors")] = safetensors(QStringLiteral("fc1.weight"), {1, 2, 4});
        for (auto it = tampered.begin(); it != tampered.end(); ++it)
            w.add(it.key(), it.value());
        w.add(QStringLiteral("manifest.json"), manifestBytes);
        QVERIFY(w.write(path(QStringLiteral("t2.diamond"))));
        const PackageCheck c = checkPackage(path(QStringLiteral("t2.diamond")));
        QCOMPARE(c.code, QStringLiteral("package_hash_mismatch"));
        QVERIFY(c.message.contains(QStringLiteral("weights.safetensors")));
    }

    void signedPackageChecks() {
        QString error;
        const QString keyPath = path(QStringLiteral("keys/publisher.pem"));
        const auto key = loadOrCreatePublisherKey(keyPath, &error);
        QVERIFY2(key, qPrintable(error));
        QCOMPARE(key->publicKey.size(), 32);
        QCOMPARE(QFile(keyPath).permissions() & 0x7777,
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
        // The same key on the next load; a key file others can read is refused.
        QCOMPARE(loadOrCreatePublisherKey(keyPath, &error)->publicKey, key->publicKey);
        QFile(keyPath).setPermissions(QFile(keyPath).permissions() | QFileDevice::ReadOther);
        QVERIFY(!loadOrCreatePublisherKey(keyPath, &error));
        QVERIFY2(error.contains(keyPath), qPrintable(error));
        QFile(keyPath).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);

        QByteArray signature;
        const ManifestSigner signer = [&](const QByteArray &bytes) {
            return signature = signManifest(*key, QStringLiteral("Ada"), bytes, &error);
        };
        QVERIFY(writePackage(path(QStringLiteral("signed.diamond")), manifest(), files_, &error, signer));
        PackageCheck c = checkPackage(path(QStringLiteral("signed.diamond")));
        QVERIFY2(c.ok, qPrintable(c.message));
        QVERIFY(c.signature.present && c.signature.valid);
        QCOMPARE(c.signature.publisher, QStringLiteral("Ada"));
        QCOMPARE(c.signature.publicKey, key->publicKey);
        QCOMPARE(c.signature.fingerprint, keyFingerprint(key->publicKey));
        QVERIFY(c.signature.fingerprint.startsWith(QStringLiteral("SHA256:")));

        // Other weights with a manifest listing their hash, carrying the original signature: refused.
        QMap<QString, QByteArray> other = files_;
        other[QStringLiteral("weights.safetensors")] = safetensors(QStringLiteral("fc1.weight"), {0, 0, 0});
        const QByteArray original = signature;
        QVERIFY(writePackage(path(QStringLiteral("resigned.diamond")), manifest(), other, &error,
                             [&](const QByteArray &) { return original; }));
        c = checkPackage(path(QStringLiteral("resigned.diamond")));
        QCOMPARE(c.code, QStringLiteral("package_bad_signature"));
        QVERIFY2(c.message.contains(QStringLiteral("resigned.diamond")), qPrintable(c.message));
        // Unsigned is accepted and says so.
        QVERIFY(writePackage(path(QStringLiteral("unsigned.diamond")), manifest(), other, &error));
        c = checkPackage(path(QStringLiteral("unsigned.diamond")));
        QVERIFY(c.ok);
        QVERIFY(!c.signature.present);
        QVERIFY(c.signature.fingerprint.isEmpty());
    }

    void malformedSignaturesRefused_data() {
        QTest::addColumn<QByteArray>("signature");
        QTest::newRow("not json") << QByteArray("ed25519!");
        QTest::newRow("other format") << QByteArray(
            "{\"format\": \"x\", \"publisher\": \"a\", \"public_key\": \"AA==\","
            " \"signature\": \"AA==\"}");
        QTest::newRow("short key") << QByteArray("{\"format\": \"diamond.signature/1\", \"publisher\": \"a\","
                                                 " \"public_key\": \"AAAA\", \"signature\": \"AAAA\"}");
        const QByteArray zeros32 = QByteArray(32, '\0').toBase64();
        const QByteArray zeros64 = QByteArray(64, '\0').toBase64();
        QTest::newRow("zero signature") << QByteArray("{\"format\": \"diamond.signature/1\", \"publisher\": \"a\","
                                                      " \"public_key\": \"" +
                                                      zeros32 + "\", \"signature\": \"" + zeros64 + "\"}");
    }

    void malformedSignaturesRefused() {
        QFETCH(QByteArray, signature);
        QString error;
        QVERIFY(writePackage(path(QStringLiteral("bad-sig.diamond")), manifest(), files_, &error,
                             [&](const QByteArray &) { return signature; }));
        const PackageCheck c = checkPackage(path(QStringLiteral("bad-sig.diamond")));
        QVERIFY(!c.ok);
        QCOMPARE(c.code, QStringLiteral("package_bad_signature"));
    }

    void missingFileRefused() {
        QMap<QString, QByteArray> fewer = files_;
        fewer.remove(QStringLiteral("thumbnail.png"));
        QString error;
        QVERIFY(writePackage(path(QStringLiteral("m.diamond")), manifest(), fewer, &error));
        QCOMPARE(checkPackage(path(QStringLiteral("m.diamond"))).code, QStringLiteral("package_bad_manifest"));
    }

    void oversizeRefused() {
        QString error;
        QVERIFY(writePackage(path(QStringLiteral("big.diamond")), manifest(), files_, &error));
        PackageLimits entryLimit;
        entryLimit.maxWeightsBytes = 10;
        QCOMPARE(checkPackage(path(QStringLiteral("big.diamond")), {}, entryLimit).code,
                 QStringLiteral("package_entry_too_large"));
        PackageLimits fileLimit;
        fileLimit.maxPackageBytes = 100;
        QCOMPARE(checkPackage(path(QStringLiteral("big.diamond")), {}, fileLimit).code,
                 QStringLiteral("package_too_large"));
        // A zip bomb: 64 MiB of zeros compress to ~64 KiB.
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral("-c"),
                 QStringLiteral("import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)\n"
                                "z.writestr('weights.safetensors', bytes(64<<20))\nz.close()\n"),
                 path(QStringLiteral("bomb.diamond"))});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        QCOMPARE(checkPackage(path(QStringLiteral("bomb.diamond"))).code, QStringLiteral("package_entry_too_large"));
    }

    void notZipRefused() {
        QFile f(path(QStringLiteral("text.diamond")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a zip at all");
        f.close();
        QCOMPARE(checkPackage(f.fileName()).code, QStringLiteral("package_not_zip"));
    }

    /// verifyOutputs() with stand-in engines (shell scripts) that answer `predict` with known files: the
    /// comparison itself is what is tested here; the real engine is used in tst_it_rest_api.
    void outputComparison() {
        QTemporaryDir dir;
        for (auto it = files_.begin(); it != files_.end(); ++it) {
            QFile f(QDir(dir.path()).filePath(it.key()));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(it.value());
        }
        auto standIn = [&](const QString &name, const QByteArray &output) {
            const QString data = QDir(dir.path()).filePath(name + QStringLiteral(".out"));
            QFile o(data);
            o.open(QIODevice::WriteOnly);
            o.write(output);
            o.close();
            const QString script = QDir(dir.path()).filePath(name + QStringLiteral(".sh"));
            QFile s(script);
            s.open(QIODevice::WriteOnly);
            s.write(QStringLiteral("#!/bin/sh\n[ \"$1\" = predict ] || exit 2\nwhile [ $# -gt 0 ]; do\n"
                                   "  if [ \"$1\" = --output ]; then cp '%1' \"$2\"; fi; shift\ndone\n")
                        .arg(data)
                        .toUtf8());
            s.close();
            s.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
            return script;
        };
        const OutputCheck same = verifyOutputs(
            dir.path(), standIn(QStringLiteral("same"), files_.value(QStringLiteral("test_outputs.safetensors"))), 1e-5,
            1e-4);
        QVERIFY2(same.consistent, qPrintable(same.message));
        const OutputCheck close = verifyOutputs(
            dir.path(), standIn(QStringLiteral("close"), safetensors(QStringLiteral("logits"), {0.250001f, 1.5f, -2})),
            1e-5, 1e-4);
        QVERIFY2(close.consistent, qPrintable(close.message));
        const OutputCheck off = verifyOutputs(
            dir.path(), standIn(QStringLiteral("off"), safetensors(QStringLiteral("logits"), {0.26f, 1.5f, -2})), 1e-5,
            1e-4);
        QVERIFY(!off.consistent);
        QVERIFY2(off.message.contains(QStringLiteral("element 0")), qPrintable(off.message));
        const OutputCheck renamed = verifyOutputs(
            dir.path(), standIn(QStringLiteral("renamed"), safetensors(QStringLiteral("y"), {0.25f, 1.5f, -2})), 1e-5,
            1e-4);
        QVERIFY(!renamed.consistent);
        const OutputCheck shape = verifyOutputs(
            dir.path(), standIn(QStringLiteral("shape"), safetensors(QStringLiteral("logits"), {0.25f, 1.5f})), 1e-5,
            1e-4);
        QVERIFY(!shape.consistent);
        const OutputCheck missing =
            verifyOutputs(dir.path(), dir.filePath(QStringLiteral("no-such-engine")), 1e-5, 1e-4);
        QVERIFY(!missing.consistent);
    }

    void thumbnail() {
        const QByteArray png = files_.value(QStringLiteral("thumbnail.png"));
        QVERIFY(png.startsWith("\x89PNG"));
        const QImage image = QImage::fromData(png, "PNG");
        QCOMPARE(image.size(), QSize(256, 256));
        const QByteArray cnn = renderThumbnail(
            readFile(diamond::test::sourcePath(QStringLiteral("resources/examples/shapes_cnn/spec.json"))));
        QVERIFY(!cnn.isEmpty());
        QVERIFY(cnn != png);
        QVERIFY(renderThumbnail("not json").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestModelPackage)
#include "tst_model_package.moc"
