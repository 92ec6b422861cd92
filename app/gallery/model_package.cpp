#include "model_package.h"

#include "zip_archive.h"

#include "remote/engine_command.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>

#include <cmath>
#include <cstring>

namespace diamond::app::gallery {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::gallery", text); }

PackageCheck refuse(const char *code, const QString &message) {
    PackageCheck c;
    c.code = QString::fromLatin1(code);
    c.message = message;
    return c;
}

QString hex(const QByteArray &bytes) { return QString::fromLatin1(bytes.toHex()); }

/// The tensors of a safetensors file: name -> (dtype, shape, raw bytes). Minimal reader for comparisons; the
/// engine's reader (engine/train/export/safetensors.h) is the reference, this one only needs to be safe.
struct Tensor {
    QString dtype;
    QList<qint64> shape;
    QByteArray data;
};

bool readSafetensors(const QString &path, QMap<QString, Tensor> *out, QString *error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return *error = tr("cannot read %1: %2").arg(path, f.errorString()), false;
    const QByteArray bytes = f.readAll();
    if (bytes.size() < 8) return *error = tr("%1 is too short for a safetensors file").arg(path), false;
    quint64 n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<quint8>(bytes[i]);
    if (n > static_cast<quint64>(bytes.size() - 8))
        return *error = tr("%1: the safetensors header runs past the end of the file").arg(path), false;
    const QJsonDocument header = QJsonDocument::fromJson(bytes.mid(8, static_cast<qsizetype>(n)));
    if (!header.isObject()) return *error = tr("%1: the safetensors header is not a JSON object").arg(path), false;
    const QByteArray data = bytes.mid(8 + static_cast<qsizetype>(n));
    const QJsonObject h = header.object();
    for (auto it = h.begin(); it != h.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__")) continue;
        const QJsonObject t = it.value().toObject();
        const QJsonArray offsets = t.value(QStringLiteral("data_offsets")).toArray();
        const qint64 begin = offsets.size() == 2 ? offsets[0].toInteger(-1) : -1;
        const qint64 end = offsets.size() == 2 ? offsets[1].toInteger(-1) : -1;
        if (begin < 0 || end < begin || end > data.size())
            return *error = tr("%1: tensor \"%2\" has bad data offsets").arg(path, it.key()), false;
        Tensor tensor;
        tensor.dtype = t.value(QStringLiteral("dtype")).toString();
        for (const QJsonValue &d : t.value(QStringLiteral("shape")).toArray())
            tensor.shape.append(d.toInteger());
        tensor.data = data.mid(begin, end - begin);
        out->insert(it.key(), tensor);
    }
    return true;
}

bool elementAsDouble(const Tensor &t, qsizetype i, double *v) {
    if (t.dtype == QLatin1String("F32")) {
        float f;
        std::memcpy(&f, t.data.constData() + i * 4, 4);
        *v = f;
        return true;
    }
    if (t.dtype == QLatin1String("F64")) {
        std::memcpy(v, t.data.constData() + i * 8, 8);
        return true;
    }
    return false;
}

} // namespace

qint64 PackageLimits::limitFor(const QString &name) const {
    if (name == QLatin1String(kWeightsFile)) return maxWeightsBytes;
    if (name == QLatin1String(kTestInputsFile) || name == QLatin1String(kTestOutputsFile)) return maxTestBytes;
    if (name == QLatin1String(kManifestFile) || name == QLatin1String(kSpecFile) ||
        name == QLatin1String(kSignatureFile))
        return maxJsonBytes;
    if (name == QLatin1String(kThumbnailFile)) return maxThumbnailBytes;
    return maxOtherBytes;
}

QString fileSha256(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (!h.addData(&f)) return {};
    return hex(h.result());
}

bool writePackage(const QString &path, QJsonObject manifest, const QMap<QString, QByteArray> &files, QString *error,
                  const ManifestSigner &signer) {
    QJsonObject hashes;
    ZipWriter zip;
    for (auto it = files.begin(); it != files.end(); ++it) {
        if (it.key() == QLatin1String(kManifestFile)) continue;
        hashes.insert(it.key(), hex(QCryptographicHash::hash(it.value(), QCryptographicHash::Sha256)));
        // Weights and PNGs barely compress; storing them keeps publishing fast.
        const bool store = it.key().endsWith(QLatin1String(".png")) || it.key() == QLatin1String(kWeightsFile);
        zip.add(it.key(), it.value(), store);
    }
    manifest.insert(QStringLiteral("format"), QString::fromLatin1(kPackageFormat));
    manifest.insert(QStringLiteral("files"), hashes);
    const QByteArray manifestBytes = QJsonDocument(manifest).toJson(QJsonDocument::Indented);
    zip.add(QString::fromLatin1(kManifestFile), manifestBytes);
    if (signer) {
        const QByteArray signature = signer(manifestBytes);
        if (signature.isEmpty()) return *error = tr("cannot sign the package"), false;
        zip.add(QString::fromLatin1(kSignatureFile), signature);
    }
    if (!zip.write(path)) return *error = zip.errorString(), false;
    return true;
}

PackageCheck checkPackage(const QString &path, const QString &extractDir, const PackageLimits &limits) {
    const QFileInfo info(path);
    if (!info.isFile()) return refuse(ErrorCode::kNotZip, tr("%1 is not a file").arg(path));
    if (info.size() > limits.maxPackageBytes)
        return refuse(ErrorCode::kTooLarge, tr("%1 is %2 bytes; packages may be at most %3 bytes")
                                                .arg(path)
                                                .arg(info.size())
                                                .arg(limits.maxPackageBytes));
    ZipReader zip;
    if (!zip.open(path, limits.maxEntries, [&limits](const QString &n) { return limits.limitFor(n); })) {
        PackageCheck c;
        c.code = zip.errorCode();
        c.message = zip.errorString();
        return c;
    }
    QByteArray manifestBytes;
    if (!zip.contains(QString::fromLatin1(kManifestFile)))
        return refuse(ErrorCode::kMissingFile, tr("%1 has no manifest.json").arg(path));
    if (!zip.read(QString::fromLatin1(kManifestFile), &manifestBytes))
        return refuse(ErrorCode::kCorrupt, zip.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(manifestBytes, &parseError);
    if (!doc.isObject())
        return refuse(ErrorCode::kBadManifest,
                      tr("%1: manifest.json is not a JSON object: %2").arg(path, parseError.errorString()));
    const QJsonObject manifest = doc.object();
    const QString format = manifest.value(QStringLiteral("format")).toString();
    if (format != QLatin1String(kPackageFormat))
        return refuse(ErrorCode::kUnknownFormat, tr("%1: unknown package format \"%2\" (this version reads %3)")
                                                     .arg(path, format, QString::fromLatin1(kPackageFormat)));
    for (const char *field : {"name", "version"})
        if (manifest.value(QLatin1String(field)).toString().trimmed().isEmpty())
            return refuse(ErrorCode::kBadManifest,
                          tr("%1: manifest.json has no \"%2\"").arg(path, QString::fromLatin1(field)));
    const QJsonObject files = manifest.value(QStringLiteral("files")).toObject();
    for (const char *required : {kSpecFile, kWeightsFile, kTestInputsFile, kTestOutputsFile, kThumbnailFile})
        if (!files.contains(QLatin1String(required)))
            return refuse(ErrorCode::kBadManifest,
                          tr("%1: manifest.json does not list %2").arg(path, QString::fromLatin1(required)));
    for (const ZipEntry &e : zip.entries())
        if (e.name != QLatin1String(kManifestFile) && e.name != QLatin1String(kSignatureFile) &&
            !files.contains(e.name))
            return refuse(ErrorCode::kUnlistedFile, tr("%1: \"%2\" is not listed in manifest.json").arg(path, e.name));
    QByteArray signatureBytes;
    if (zip.contains(QString::fromLatin1(kSignatureFile)) &&
        !zip.read(QString::fromLatin1(kSignatureFile), &signatureBytes))
        return refuse(ErrorCode::kCorrupt, zip.errorString());
    const SignatureCheck signature = checkSignature(signatureBytes, manifestBytes);
    if (signature.present && !signature.valid)
        return refuse(ErrorCode::kBadSignature, tr("%1: %2").arg(path, signature.message));
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString name = it.key();
        if (!zip.contains(name))
            return refuse(ErrorCode::kMissingFile,
                          tr("%1: \"%2\" is listed in manifest.json but missing").arg(path, name));
        QCryptographicHash h(QCryptographicHash::Sha256);
        std::unique_ptr<QSaveFile> out;
        if (!extractDir.isEmpty()) {
            out = std::make_unique<QSaveFile>(QDir(extractDir).filePath(name));
            if (!out->open(QIODevice::WriteOnly))
                return refuse(ErrorCode::kCorrupt, tr("cannot write %1: %2").arg(out->fileName(), out->errorString()));
        }
        if (!zip.stream(name, [&](const char *data, qint64 n) {
                h.addData(QByteArrayView(data, n));
                if (out) out->write(data, n);
            }))
            return refuse(zip.errorCode().toLatin1().constData(), zip.errorString());
        const QString actual = hex(h.result());
        if (actual != it.value().toString().toLower())
            return refuse(
                ErrorCode::kHashMismatch,
                tr("%1: SHA-256 of \"%2\" is %3, the manifest says %4").arg(path, name, actual, it.value().toString()));
        if (out && !out->commit())
            return refuse(ErrorCode::kCorrupt, tr("cannot write %1: %2").arg(out->fileName(), out->errorString()));
    }
    PackageCheck c;
    c.ok = true;
    c.manifest = manifest;
    c.packageSha256 = fileSha256(path);
    c.signature = signature;
    return c;
}

OutputCheck verifyOutputs(const QString &dir, const QString &enginePath, double absTolerance, double relTolerance,
                          int timeoutMs) {
    OutputCheck result;
    QTemporaryDir tmp;
    if (!tmp.isValid()) return result.message = tr("cannot create a temporary folder"), result;
    const QString actualPath = tmp.filePath(QStringLiteral("outputs.safetensors"));
    const QDir d(dir);
    QProcess engine;
    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::Predict;
    command.specPath = d.filePath(QLatin1String(kSpecFile));
    command.weightsFile = d.filePath(QLatin1String(kWeightsFile));
    command.inputsFile = d.filePath(QLatin1String(kTestInputsFile));
    command.outputFile = actualPath;
    command.threads = 1;
    engine.start(enginePath, command.arguments());
    if (!engine.waitForStarted())
        return result.message = tr("cannot run the engine %1: %2").arg(enginePath, engine.errorString()), result;
    if (!engine.waitForFinished(timeoutMs)) {
        engine.kill();
        engine.waitForFinished();
        return result.message = tr("the engine did not finish the test inputs in time"), result;
    }
    if (engine.exitStatus() != QProcess::NormalExit || engine.exitCode() != 0) {
        QString why;
        for (const QByteArray &line : engine.readAllStandardOutput().split('\n')) {
            const QJsonObject event = QJsonDocument::fromJson(line).object();
            if (event.value(QStringLiteral("event")).toString() == QLatin1String("error"))
                why = event.value(QStringLiteral("message")).toString();
        }
        result.message = tr("the engine could not re-run the test inputs (`diamond-train predict`, exit code %1): %2")
                             .arg(engine.exitCode())
                             .arg(why.isEmpty() ? QString::fromUtf8(engine.readAllStandardError().trimmed()) : why);
        return result;
    }
    QMap<QString, Tensor> expected, actual;
    QString error;
    if (!readSafetensors(d.filePath(QLatin1String(kTestOutputsFile)), &expected, &error) ||
        !readSafetensors(actualPath, &actual, &error))
        return result.message = error, result;
    if (expected.isEmpty()) return result.message = tr("the package has no expected outputs"), result;
    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const auto a = actual.constFind(it.key());
        if (a == actual.constEnd())
            return result.message = tr("the engine produced no output \"%1\"").arg(it.key()), result;
        if (a->dtype != it->dtype || a->shape != it->shape || a->data.size() != it->data.size())
            return result.message = tr("output \"%1\" differs in type or shape").arg(it.key()), result;
        const int width = it->dtype == QLatin1String("F32") ? 4 : it->dtype == QLatin1String("F64") ? 8 : 0;
        if (width == 0) {
            if (a->data != it->data) return result.message = tr("output \"%1\" differs").arg(it.key()), result;
            continue;
        }
        for (qsizetype i = 0; i < it->data.size() / width; ++i) {
            double e = 0, v = 0;
            elementAsDouble(*it, i, &e);
            elementAsDouble(*a, i, &v);
            const double diff = std::isnan(e) && std::isnan(v) ? 0.0 : std::fabs(v - e);
            result.maxAbsDiff = std::max(result.maxAbsDiff, std::isnan(diff) ? INFINITY : diff);
            if (!(diff <= absTolerance + relTolerance * std::fabs(e)))
                return result.message =
                           tr("output \"%1\" element %2 is %3, expected %4 (tolerance %5 + %6 x |expected|)")
                               .arg(it.key())
                               .arg(i)
                               .arg(v, 0, 'g', 9)
                               .arg(e, 0, 'g', 9)
                               .arg(absTolerance)
                               .arg(relTolerance),
                       result;
        }
    }
    result.consistent = true;
    result.message = tr("test outputs match (max abs diff %1)").arg(result.maxAbsDiff, 0, 'g', 3);
    return result;
}

QByteArray renderThumbnail(const QByteArray &specJson) {
    const QJsonObject spec = QJsonDocument::fromJson(specJson).object();
    if (spec.isEmpty()) return {};
    const QJsonArray nodes = spec.value(QStringLiteral("nodes")).toArray();
    const int outputs = static_cast<int>(spec.value(QStringLiteral("outputs")).toArray().size());
    const int rows = static_cast<int>(qMin<qsizetype>(nodes.size(), 40)) + 1 + (outputs > 0 ? 1 : 0);
    QImage image(256, 256, QImage::Format_RGB32);
    image.fill(QColor(250, 250, 252));
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const double rowHeight = 236.0 / qMax(rows, 1);
    auto colour = [](const QString &type) {
        if (type.contains(QLatin1String("Conv"))) return QColor(66, 133, 244);
        if (type.contains(QLatin1String("Linear"))) return QColor(52, 168, 83);
        if (type.contains(QLatin1String("Norm"))) return QColor(251, 188, 5);
        if (type.contains(QLatin1String("Pool"))) return QColor(0, 172, 193);
        if (type.contains(QLatin1String("LSTM")) || type.contains(QLatin1String("GRU"))) return QColor(171, 71, 188);
        if (type.contains(QLatin1String("Attention")) || type.contains(QLatin1String("Transformer")))
            return QColor(234, 67, 53);
        return QColor(158, 158, 158); // activations, reshapes, merges
    };
    auto box = [&](int row, double widthFraction, const QColor &c) {
        const double w = 40.0 + 180.0 * qBound(0.0, widthFraction, 1.0);
        const QRectF r((256.0 - w) / 2.0, 10.0 + row * rowHeight + rowHeight * 0.15, w, rowHeight * 0.7);
        p.setPen(QPen(c.darker(140), 1.0));
        p.setBrush(c);
        p.drawRoundedRect(r, 3, 3);
        if (row > 0) {
            p.setPen(QPen(QColor(120, 120, 120), 1.0));
            p.drawLine(QPointF(128, r.top() - rowHeight * 0.3), QPointF(128, r.top()));
        }
    };
    int row = 0;
    box(row++, 0.3, QColor(96, 125, 139)); // inputs
    for (int i = 0; i < nodes.size() && i < 40; ++i) {
        const QJsonObject n = nodes[i].toObject();
        const QJsonObject params = n.value(QStringLiteral("params")).toObject();
        double size = 0.5;
        for (const char *key : {"out_features", "out_channels", "hidden_size", "embed_dim", "d_model"})
            if (params.contains(QLatin1String(key)))
                size = std::log2(1.0 + params.value(QLatin1String(key)).toDouble()) / 11.0;
        box(row++, size, colour(n.value(QStringLiteral("type")).toString()));
    }
    if (outputs > 0) box(row, 0.3, QColor(96, 125, 139));
    p.end();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return png;
}

} // namespace diamond::app::gallery
