// Where Diamond keeps SSH passwords and key passphrases between prompts. Contract: a secret is never written to
// disk in plain text: MemoryCredentialStore keeps it in this process only (wiped on forget() and destruction);
// KeychainCredentialStore hands it to the desktop's secret store through QtKeychain with its insecure
// plain-text fallback disabled, and fails rather than storing it elsewhere.
#pragma once

#include <QHash>
#include <QMutex>
#include <QString>

#include <optional>

namespace diamond::remote {

class CredentialStore {
public:
    virtual ~CredentialStore() = default;
    /// The secret stored under `key` (e.g. "password:alice@cluster:22", "passphrase:/home/a/.ssh/id_ed25519").
    virtual std::optional<QString> secret(const QString &key) = 0;
    /// Stores it; false with *error when the store refused.
    virtual bool store(const QString &key, const QString &secret, QString *error) = 0;
    virtual void forget(const QString &key) = 0;
    /// Human-readable name of the store ("memory only", "system keychain").
    virtual QString describe() const = 0;
};

/// Secrets in this process's memory only. Thread-safe.
class MemoryCredentialStore : public CredentialStore {
public:
    ~MemoryCredentialStore() override;
    std::optional<QString> secret(const QString &key) override;
    bool store(const QString &key, const QString &secret, QString *error) override;
    void forget(const QString &key) override;
    QString describe() const override;

private:
    QMutex m_mutex;
    QHash<QString, QString> m_secrets;
};

/// Secrets in the system keychain (Secret Service / KWallet / macOS Keychain / Windows Credential Store) via
/// QtKeychain, under service `service`. Blocking: call it from a worker thread (it runs a local event loop).
class KeychainCredentialStore : public CredentialStore {
public:
    explicit KeychainCredentialStore(const QString &service = QStringLiteral("Diamond"));
    std::optional<QString> secret(const QString &key) override;
    bool store(const QString &key, const QString &secret, QString *error) override;
    void forget(const QString &key) override;
    QString describe() const override;

private:
    QString m_service;
};

} // namespace diamond::remote
