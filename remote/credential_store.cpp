#include "remote/credential_store.h"

#include <QEventLoop>
#include <QMutexLocker>

#include <qt6keychain/keychain.h>

namespace diamond::remote {

namespace {

void wipe(QString &s) {
    s.fill(QLatin1Char('\0'));
    s.clear();
}

/// Runs a QtKeychain job to completion on this thread.
void runJob(QKeychain::Job &job) {
    job.setAutoDelete(false);
    job.setInsecureFallback(false); // never a plain-text file
    QEventLoop loop;
    QObject::connect(&job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job.start();
    loop.exec();
}

} // namespace

MemoryCredentialStore::~MemoryCredentialStore() {
    for (QString &s : m_secrets)
        wipe(s);
}

std::optional<QString> MemoryCredentialStore::secret(const QString &key) {
    QMutexLocker lock(&m_mutex);
    const auto it = m_secrets.constFind(key);
    if (it == m_secrets.cend()) return std::nullopt;
    return *it;
}

bool MemoryCredentialStore::store(const QString &key, const QString &secret, QString *) {
    QMutexLocker lock(&m_mutex);
    auto it = m_secrets.find(key);
    if (it != m_secrets.end()) wipe(*it);
    m_secrets.insert(key, secret);
    return true;
}

void MemoryCredentialStore::forget(const QString &key) {
    QMutexLocker lock(&m_mutex);
    auto it = m_secrets.find(key);
    if (it == m_secrets.end()) return;
    wipe(*it);
    m_secrets.erase(it);
}

QString MemoryCredentialStore::describe() const { return QStringLiteral("memory only"); }

KeychainCredentialStore::KeychainCredentialStore(const QString &service) : m_service(service) {}

std::optional<QString> KeychainCredentialStore::secret(const QString &key) {
    QKeychain::ReadPasswordJob job(m_service);
    job.setKey(key);
    runJob(job);
    if (job.error() != QKeychain::NoError) return std::nullopt;
    return job.textData();
}

bool KeychainCredentialStore::store(const QString &key, const QString &secret, QString *error) {
    QKeychain::WritePasswordJob job(m_service);
    job.setKey(key);
    job.setTextData(secret);
    runJob(job);
    if (job.error() == QKeychain::NoError) return true;
    if (error) *error = QStringLiteral("system keychain refused to store %1: %2").arg(key, job.errorString());
    return false;
}

void KeychainCredentialStore::forget(const QString &key) {
    QKeychain::DeletePasswordJob job(m_service);
    job.setKey(key);
    runJob(job);
}

QString KeychainCredentialStore::describe() const { return QStringLiteral("system keychain"); }

} // namespace diamond::remote
