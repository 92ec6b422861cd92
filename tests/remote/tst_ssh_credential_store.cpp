// MemoryCredentialStore: secrets kept in memory only, replaced and forgotten; the SSH layer's default store.
#include "remote/credential_store.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

using diamond::remote::MemoryCredentialStore;

class TestSshCredentialStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void storeReplaceForget();
    void keychainNeverFallsBackToPlainText();
};

void TestSshCredentialStore::storeReplaceForget() {
    MemoryCredentialStore store;
    QCOMPARE(store.describe(), QStringLiteral("memory only"));
    QVERIFY(!store.secret(QStringLiteral("password:a@h:22")).has_value());
    QString error;
    QVERIFY(store.store(QStringLiteral("password:a@h:22"), QStringLiteral("s3cret"), &error));
    QCOMPARE(store.secret(QStringLiteral("password:a@h:22")).value_or(QString()), QStringLiteral("s3cret"));
    QVERIFY(store.store(QStringLiteral("password:a@h:22"), QStringLiteral("other"), &error));
    QCOMPARE(store.secret(QStringLiteral("password:a@h:22")).value_or(QString()), QStringLiteral("other"));
    QVERIFY(!store.secret(QStringLiteral("password:b@h:22")).has_value());
    store.forget(QStringLiteral("password:a@h:22"));
    QVERIFY(!store.secret(QStringLiteral("password:a@h:22")).has_value());
    store.forget(QStringLiteral("never-stored")); // no-op
    // An empty secret (e.g. an empty passphrase) is a value, not "absent".
    QVERIFY(store.store(QStringLiteral("passphrase:/k"), QString(), &error));
    QVERIFY(store.secret(QStringLiteral("passphrase:/k")).has_value());
}

void TestSshCredentialStore::keychainNeverFallsBackToPlainText() {
    // Whatever keychain this machine has (none in CI: no D-Bus session), the secret never lands in a file.
    QTemporaryDir home;
    qputenv("HOME", home.path().toLocal8Bit());
    qputenv("XDG_CONFIG_HOME", home.filePath(QStringLiteral(".config")).toLocal8Bit());
    qputenv("XDG_DATA_HOME", home.filePath(QStringLiteral(".local/share")).toLocal8Bit());
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + home.filePath(QStringLiteral("no-bus")).toLocal8Bit());
    const QString secret = QStringLiteral("diamond-test-secret-%1").arg(QCoreApplication::applicationPid());
    diamond::remote::KeychainCredentialStore store(QStringLiteral("DiamondTest"));
    QString error;
    const bool stored = store.store(QStringLiteral("password:t@127.0.0.1:1"), secret, &error);
    if (stored) {
        QCOMPARE(store.secret(QStringLiteral("password:t@127.0.0.1:1")).value_or(QString()), secret);
        store.forget(QStringLiteral("password:t@127.0.0.1:1"));
    } else {
        qInfo("no keychain here, refused as it must be: %s", qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("keychain")), qPrintable(error));
        QVERIFY(!store.secret(QStringLiteral("password:t@127.0.0.1:1")).has_value());
    }
    QDirIterator it(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(secret.toUtf8()), qPrintable(f.fileName()));
    }
}

QTEST_GUILESS_MAIN(TestSshCredentialStore)
#include "tst_ssh_credential_store.moc"
