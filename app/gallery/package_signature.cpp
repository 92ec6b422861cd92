#include "app/gallery/package_signature.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstring>
#include <memory>

namespace diamond::app::gallery {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::gallery", text); }

struct PkeyFree {
    void operator()(EVP_PKEY *k) const { EVP_PKEY_free(k); }
};
struct MdCtxFree {
    void operator()(EVP_MD_CTX *c) const { EVP_MD_CTX_free(c); }
};
struct BioFree {
    void operator()(BIO *b) const { BIO_free(b); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

QByteArray rawPublicKey(EVP_PKEY *key) {
    size_t length = 32;
    QByteArray out(32, Qt::Uninitialized);
    if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char *>(out.data()), &length) != 1 || length != 32)
        return {};
    return out;
}

Pkey readPrivateKey(const QByteArray &pem) {
    std::unique_ptr<BIO, BioFree> bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    if (!bio) return nullptr;
    Pkey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
    if (key && EVP_PKEY_id(key.get()) != EVP_PKEY_ED25519) return nullptr;
    return key;
}

} // namespace

QString keyFingerprint(const QByteArray &publicKey) {
    QByteArray b64 = QCryptographicHash::hash(publicKey, QCryptographicHash::Sha256).toBase64();
    while (b64.endsWith('='))
        b64.chop(1);
    return QStringLiteral("SHA256:") + QString::fromLatin1(b64);
}

QString defaultPublisherKeyPath() {
    const QString fromEnv = qEnvironmentVariable("DIAMOND_PUBLISHER_KEY");
    if (!fromEnv.isEmpty()) return fromEnv;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
        .filePath(QStringLiteral("Diamond/publisher-key.pem"));
}

std::optional<PublisherKey> loadOrCreatePublisherKey(const QString &path, QString *error) {
    QFile file(path);
    if (file.exists()) {
        const QFileDevice::Permissions others =
            QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
        if (file.permissions() & others) {
            *error = tr("%1 is readable by other users; run chmod 600 on it").arg(path);
            return std::nullopt;
        }
        if (file.size() > 64 * 1024 || !file.open(QIODevice::ReadOnly)) {
            *error = tr("cannot read the publisher key %1").arg(path);
            return std::nullopt;
        }
        PublisherKey k;
        k.privateKeyPem = file.readAll();
        const Pkey key = readPrivateKey(k.privateKeyPem);
        if (!key) {
            *error = tr("%1 is not an Ed25519 private key").arg(path);
            return std::nullopt;
        }
        k.publicKey = rawPublicKey(key.get());
        return k;
    }
    EVP_PKEY *generated = nullptr;
    std::unique_ptr<EVP_PKEY_CTX, void (*)(EVP_PKEY_CTX *)> ctx(EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr),
                                                                EVP_PKEY_CTX_free);
    if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &generated) != 1) {
        *error = tr("cannot make a publisher key");
        return std::nullopt;
    }
    const Pkey key(generated);
    std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
        *error = tr("cannot make a publisher key");
        return std::nullopt;
    }
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    PublisherKey k{QByteArray(data, int(length)), rawPublicKey(key.get())};
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile out(path);
    // Permissions first, secret second: the key is never in a file others could read.
    if (!out.open(QIODevice::WriteOnly) || !out.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        out.write(k.privateKeyPem) != k.privateKeyPem.size() || !out.commit()) {
        *error = tr("cannot write the publisher key %1").arg(path);
        return std::nullopt;
    }
    return k;
}

QByteArray signManifest(const PublisherKey &k, const QString &publisher, const QByteArray &manifestBytes,
                        QString *error) {
    const Pkey key = readPrivateKey(k.privateKeyPem);
    std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
    QByteArray signature(64, Qt::Uninitialized);
    size_t length = 64;
    if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char *>(signature.data()), &length,
                       reinterpret_cast<const unsigned char *>(manifestBytes.constData()),
                       size_t(manifestBytes.size())) != 1 ||
        length != 64) {
        *error = tr("cannot sign the package");
        return {};
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("format"), QString::fromLatin1(kSignatureFormat)},
                                     {QStringLiteral("publisher"), publisher},
                                     {QStringLiteral("public_key"), QString::fromLatin1(k.publicKey.toBase64())},
                                     {QStringLiteral("signature"), QString::fromLatin1(signature.toBase64())}})
        .toJson(QJsonDocument::Indented);
}

/// Whether a 32-byte point encoding is one of the Ed25519 points of small order (or a non-canonical form of one),
/// compared without the sign bit: with such a key, or such an R in a signature, a "signature" can hold for
/// messages nobody signed. OpenSSL does not refuse them; the list is libsodium's.
static bool smallOrderPoint(const QByteArray &p) {
    static const unsigned char blocklist[][32] = {
        {0},
        {1},
        {0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
         0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05},
        {0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
         0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a},
        {0xec, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
        {0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
        {0xee, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},
    };
    if (p.size() < 32) return true;
    const auto *b = reinterpret_cast<const unsigned char *>(p.constData());
    for (const auto &bad : blocklist)
        if (std::memcmp(b, bad, 31) == 0 && (b[31] & 0x7f) == bad[31]) return true;
    return false;
}

SignatureCheck checkSignature(const QByteArray &signatureJson, const QByteArray &manifestBytes) {
    SignatureCheck c;
    if (signatureJson.isEmpty()) return c;
    c.present = true;
    const QJsonObject o = QJsonDocument::fromJson(signatureJson).object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String(kSignatureFormat)) {
        c.message = tr("signature.json has an unknown format");
        return c;
    }
    c.publisher = o.value(QStringLiteral("publisher")).toString().left(200);
    c.publicKey = QByteArray::fromBase64(o.value(QStringLiteral("public_key")).toString().toLatin1());
    const QByteArray signature = QByteArray::fromBase64(o.value(QStringLiteral("signature")).toString().toLatin1());
    if (c.publicKey.size() != 32 || signature.size() != 64) {
        c.message = tr("signature.json holds no Ed25519 key and signature");
        return c;
    }
    c.fingerprint = keyFingerprint(c.publicKey);
    if (smallOrderPoint(c.publicKey) || smallOrderPoint(signature.left(32))) {
        c.message = tr("signature.json uses a weak Ed25519 key or signature");
        return c;
    }
    const Pkey key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                               reinterpret_cast<const unsigned char *>(c.publicKey.constData()), 32));
    std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
    c.valid = key && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
              EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char *>(signature.constData()), 64,
                               reinterpret_cast<const unsigned char *>(manifestBytes.constData()),
                               size_t(manifestBytes.size())) == 1;
    if (!c.valid) c.message = tr("the signature does not match manifest.json: the package was changed after signing");
    return c;
}

} // namespace diamond::app::gallery
