// Publisher signatures of model packages (docs/model-package.md, "Signatures"; docs/security.md).
//
// A publisher is an Ed25519 key pair. The private key is a PEM file readable by its owner only (by default
// <GenericDataLocation>/Diamond/publisher-key.pem, or $DIAMOND_PUBLISHER_KEY), made on first use. A signed package
// holds signature.json: {"format": "diamond.signature/1", "publisher": NAME, "public_key": base64 (32 bytes),
// "signature": base64 (64 bytes)}, the signature over the exact bytes of manifest.json, which lists the SHA-256 of
// every other file. A package whose signature does not match is refused; an unsigned one is accepted and shown as
// unsigned. Whom to trust is the gallery's trust list (GalleryStore::trust()), by key fingerprint.
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace diamond::app::gallery {

inline constexpr const char *kSignatureFile = "signature.json";
inline constexpr const char *kSignatureFormat = "diamond.signature/1";

struct PublisherKey {
    QByteArray privateKeyPem;
    QByteArray publicKey; ///< raw Ed25519 public key, 32 bytes
};

/// "SHA256:<base64 without padding>" of a raw public key (the form ssh-keygen -l prints).
QString keyFingerprint(const QByteArray &publicKey);

/// The default key file: $DIAMOND_PUBLISHER_KEY, else <GenericDataLocation>/Diamond/publisher-key.pem.
QString defaultPublisherKeyPath();
/// Loads the key at `path`, creating it (mode 0600) when missing. Refuses a key file others can read.
std::optional<PublisherKey> loadOrCreatePublisherKey(const QString &path, QString *error);

/// signature.json for `manifestBytes`, signed by `key` as `publisher`; empty with *error on failure.
QByteArray signManifest(const PublisherKey &key, const QString &publisher, const QByteArray &manifestBytes,
                        QString *error);

struct SignatureCheck {
    bool present = false; ///< the package has signature.json
    bool valid = false;   ///< it matches manifest.json
    QString publisher;
    QByteArray publicKey;
    QString fingerprint;
    QString message; ///< why not valid
};
/// Checks signature.json (when `signatureJson` is not empty) against `manifestBytes`.
SignatureCheck checkSignature(const QByteArray &signatureJson, const QByteArray &manifestBytes);

} // namespace diamond::app::gallery
