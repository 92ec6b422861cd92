// One fuzz iteration over the model-package importer (app/gallery: zip checks, manifest, signature, hashes,
// extraction, then the spec as GalleryStore::importPackage() reads it), shared by the libFuzzer target
// fuzz_package and the corpus replay test tst_fuzz_package_corpus. Aborts when an invariant breaks: a file
// written outside the extraction folder, a non-flat or non-regular extracted entry, an accepted package whose
// extracted files do not match the manifest's hashes, a refusal without a code and a message.
#pragma once

#include "app/gallery/model_package.h"
#include "app/gallery/package_signature.h"
#include "app/gallery/zip_archive.h"
#include "diamond/spec/analysis.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

namespace diamond::app::gallery::fuzz {

/// Limits of every iteration: small, so that refusals are reached quickly; an input is at most 1 MiB.
inline PackageLimits limits() {
    PackageLimits l;
    l.maxPackageBytes = qint64(1) << 20;
    l.maxWeightsBytes = qint64(256) << 10;
    l.maxTestBytes = qint64(64) << 10;
    l.maxJsonBytes = qint64(64) << 10;
    l.maxThumbnailBytes = qint64(64) << 10;
    l.maxOtherBytes = qint64(64) << 10;
    l.maxEntries = 16;
    return l;
}

[[noreturn]] inline void broken(const char *what, const QString &detail = {}) {
    std::fprintf(stderr, "package fuzz invariant broken: %s %s\n", what, qPrintable(detail));
    std::abort();
}

/// Runs `bytes` as a .diamond file through checkPackage() with extraction, then parses and analyses spec.json
/// as the importer does. True when the package was accepted.
inline bool runOne(std::string_view bytes) {
    QTemporaryDir root;
    if (!root.isValid()) broken("no temporary folder");
    const QString package = root.filePath(QStringLiteral("in.diamond"));
    const QString extractDir = root.filePath(QStringLiteral("x"));
    {
        QFile f(package);
        if (!f.open(QIODevice::WriteOnly)) broken("cannot write the input");
        f.write(bytes.data(), static_cast<qint64>(bytes.size()));
    }
    QDir().mkdir(extractDir);
    const PackageCheck check = checkPackage(package, extractDir, limits());

    const QStringList top =
        QDir(root.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    if (top != QStringList{QStringLiteral("in.diamond"), QStringLiteral("x")})
        broken("something was written next to the extraction folder:", top.join(QLatin1Char(' ')));
    const QFileInfoList extracted =
        QDir(extractDir).entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QFileInfo &fi : extracted)
        if (fi.isSymLink() || !fi.isFile()) broken("extracted entry is not a regular file:", fi.fileName());

    if (!check.ok) {
        if (check.code.isEmpty() || check.message.isEmpty()) broken("refusal without code or message");
        return false;
    }
    const QJsonObject files = check.manifest.value(QStringLiteral("files")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it) {
        QFile f(QDir(extractDir).filePath(it.key()));
        if (!f.open(QIODevice::ReadOnly)) broken("accepted package lacks an extracted file:", it.key());
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(&f);
        if (QString::fromLatin1(h.result().toHex()) != it.value().toString())
            broken("accepted package's extracted file does not match its hash:", it.key());
    }
    QFile specFile(QDir(extractDir).filePath(QLatin1String(kSpecFile)));
    const QByteArray specText = specFile.open(QIODevice::ReadOnly) ? specFile.readAll() : QByteArray();
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specText.constData(), specText.size()));
    if (parsed.ok()) (void)spec::analyze(parsed.spec);
    return true;
}

/// Small valid packages (file name, bytes), one unsigned and one signed: the seeds of tests/fuzz/corpus/package.
/// runOne() accepts each.
inline std::vector<std::pair<QString, QByteArray>> seedPackages() {
    const QByteArray spec =
        "{\"format\":\"diamond.spec/1\",\"name\":\"MLP\",\"inputs\":[{\"axes\":[\"batch\",\"feature\"],\"dtype\":"
        "\"float32\",\"name\":\"x\",\"shape\":[\"N\",2]}],\"nodes\":[{\"id\":\"fc1\",\"inputs\":[\"x\"],\"params\":"
        "{\"out_features\":3},\"type\":\"Linear\"}],\"outputs\":[{\"from\":\"fc1\",\"name\":\"logits\"}]}";
    // Any bytes: the importer checks them by hash; the engine reads them (fuzz_safetensors covers that reader).
    const QByteArray tensors = QByteArray("\x08\0\0\0\0\0\0\0{}      ", 16);
    const QMap<QString, QByteArray> content{{QLatin1String(kSpecFile), spec},
                                            {QLatin1String(kWeightsFile), tensors},
                                            {QLatin1String(kTestInputsFile), tensors},
                                            {QLatin1String(kTestOutputsFile), tensors},
                                            {QLatin1String(kThumbnailFile), QByteArray("\x89PNG\r\n\x1a\n", 8)}};
    QJsonObject manifest{{QStringLiteral("name"), QStringLiteral("seed")},
                         {QStringLiteral("version"), QStringLiteral("1")},
                         {QStringLiteral("title"), QStringLiteral("Seed package")},
                         {QStringLiteral("tags"), QJsonArray{QStringLiteral("fuzz")}}};
    std::vector<std::pair<QString, QByteArray>> seeds;
    QTemporaryDir dir;
    QString error;
    auto add = [&](const QString &name, const ManifestSigner &signer) {
        const QString path = dir.filePath(name);
        if (!writePackage(path, manifest, content, &error, signer)) broken("cannot write a seed:", error);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) broken("cannot read a seed back");
        seeds.emplace_back(QStringLiteral("seed-") + name, f.readAll());
    };
    add(QStringLiteral("unsigned.diamond"), {});
    const auto key = loadOrCreatePublisherKey(dir.filePath(QStringLiteral("key.pem")), &error);
    if (!key) broken("cannot create a publisher key:", error);
    add(QStringLiteral("signed.diamond"), [&](const QByteArray &manifestBytes) {
        return signManifest(*key, QStringLiteral("Fuzz Publisher"), manifestBytes, &error);
    });
    return seeds;
}

} // namespace diamond::app::gallery::fuzz
