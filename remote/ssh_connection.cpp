#include "remote/ssh_connection.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QTimer>
#include <QWaitCondition>

#include <optional>

namespace diamond::remote {

namespace {

/// Runs `f` on the façade's thread: every signal of SshConnection is emitted there, in order.
template <typename F> void postToOwner(SshConnection *owner, F f) {
    QMetaObject::invokeMethod(owner, std::move(f), Qt::QueuedConnection);
}

} // namespace

/// SshPrompter for the worker thread: emits the façade's request signal and waits for the matching answer slot
/// (or a cancel / close). Shared with the façade so answers can arrive while the worker waits.
class PromptBridge : public SshPrompter {
public:
    explicit PromptBridge(SshConnection *owner) : m_owner(owner) {}

    bool acceptUnknownHostKey(const QString &hostLabel, const QString &keyType, const QString &fingerprint) override {
        const auto answer = ask(Kind::HostKey, [&] {
            postToOwner(m_owner, [o = m_owner, a0 = hostLabel, a1 = keyType, a2 = fingerprint] {
                Q_EMIT o->hostKeyUnknown(a0, a1, a2);
            });
        });
        return answer && answer->accept;
    }
    std::optional<QString> passphrase(const QString &keyPath, bool retry) override {
        const auto answer = ask(Kind::Passphrase, [&] {
            postToOwner(m_owner, [o = m_owner, a0 = keyPath, a1 = retry] { Q_EMIT o->passphraseRequested(a0, a1); });
        });
        if (!answer) return std::nullopt;
        return answer->text;
    }
    std::optional<QString> password(const QString &userAtHost, bool retry) override {
        const auto answer = ask(Kind::Password, [&] {
            postToOwner(m_owner, [o = m_owner, a0 = userAtHost, a1 = retry] { Q_EMIT o->passwordRequested(a0, a1); });
        });
        if (!answer) return std::nullopt;
        return answer->text;
    }
    std::optional<QStringList> interactive(const QString &name, const QString &instruction,
                                           const QList<SshPrompt> &prompts) override {
        QStringList texts;
        QList<bool> echo;
        for (const SshPrompt &p : prompts) {
            texts << p.text;
            echo << p.echo;
        }
        const auto answer = ask(Kind::Interactive, [&] {
            postToOwner(m_owner, [o = m_owner, a0 = name, a1 = instruction, a2 = texts, a3 = echo] {
                Q_EMIT o->interactivePrompts(a0, a1, a2, a3);
            });
        });
        if (!answer) return std::nullopt;
        return answer->list;
    }

    enum class Kind { None, HostKey, Passphrase, Password, Interactive };
    struct Answer {
        bool accept = false;
        QString text;
        QStringList list;
    };
    /// From the façade's thread: answers the open prompt if it is of `kind`; ignored otherwise.
    void answer(Kind kind, const Answer &a) {
        QMutexLocker lock(&m_mutex);
        if (m_open != kind) return;
        m_answer = a;
        m_open = Kind::None;
        m_ready.wakeAll();
    }
    /// Declines the open prompt; with `forever`, every later one too (closing).
    void cancel(bool forever) {
        QMutexLocker lock(&m_mutex);
        if (forever) m_closed = true;
        if (m_open != Kind::None) {
            m_answer.reset();
            m_open = Kind::None;
            m_ready.wakeAll();
        }
    }
    void reopen() {
        QMutexLocker lock(&m_mutex);
        m_closed = false;
    }

private:
    template <typename EmitFn> std::optional<Answer> ask(Kind kind, EmitFn emitRequest) {
        QMutexLocker lock(&m_mutex);
        if (m_closed) return std::nullopt;
        m_open = kind;
        m_answer.reset();
        lock.unlock();
        emitRequest(); // queued to the receivers' threads: never answered synchronously under our lock
        lock.relock();
        while (m_open == kind && !m_closed)
            m_ready.wait(&m_mutex);
        if (m_closed) m_open = Kind::None;
        return m_closed ? std::nullopt : m_answer;
    }

    SshConnection *m_owner;
    QMutex m_mutex;
    QWaitCondition m_ready;
    Kind m_open = Kind::None;
    std::optional<Answer> m_answer;
    bool m_closed = false;
};

/// Lives on the connection's thread and owns the blocking session (through an SshCommandRunner, which brings
/// reconnect with backoff).
class SshConnectionWorker : public QObject {
public:
    SshConnectionWorker(SshConnection *owner, const SshConnectOptions &options, PromptBridge *prompts,
                        CredentialStore *credentials)
        : m_owner(owner), m_runner(options, prompts, credentials) {
        m_runner.setReconnectObserver([this](int attempt, int delay) {
            postToOwner(m_owner, [o = m_owner, a0 = attempt, a1 = delay] { Q_EMIT o->reconnecting(a0, a1); });
        });
    }

    SshSession &session() { return m_runner.session(); }
    void setPolicy(const ReconnectPolicy &policy) { m_runner.setReconnectPolicy(policy); }

    void open() {
        session().resetCancel();
        QString error;
        openSession(&error);
    }
    /// Connects unless connected; emits connected() or failed().
    bool openSession(QString *error) {
        if (session().isConnected()) {
            postToOwner(m_owner, [o = m_owner] { Q_EMIT o->connected(); });
            return true;
        }
        if (!m_runner.ensureConnected(error)) {
            m_owner->setConnected(false);
            postToOwner(m_owner, [o = m_owner, a0 = *error] { Q_EMIT o->failed(a0); });
            return false;
        }
        m_owner->setConnected(true);
        startKeepalive();
        postToOwner(m_owner, [o = m_owner] { Q_EMIT o->connected(); });
        return true;
    }

    void run(int id, int generation, const QString &command, const QByteArray &input, int timeoutMs) {
        CommandResult result;
        if (generation != m_owner->m_generation.load()) {
            result.error = QStringLiteral("cancelled");
            postToOwner(m_owner, [o = m_owner, a0 = id, a1 = result] { Q_EMIT o->commandFinished(a0, a1); });
            return;
        }
        session().resetCancel();
        if (!m_everOpened) { // the first request connects (with its prompts) as open() would
            QString error;
            if (!openSession(&error)) {
                result.error = error;
                postToOwner(m_owner, [o = m_owner, a0 = id, a1 = result] { Q_EMIT o->commandFinished(a0, a1); });
                return;
            }
        }
        const int reconnectsBefore = m_runner.reconnectCount();
        result = m_runner.run(command, input, timeoutMs);
        afterOperation(reconnectsBefore);
        postToOwner(m_owner, [o = m_owner, a0 = id, a1 = result] { Q_EMIT o->commandFinished(a0, a1); });
    }

    void transfer(int id, int generation, bool up, const QString &from, const QString &to) {
        TransferStats stats;
        if (generation != m_owner->m_generation.load()) {
            postToOwner(m_owner, [o = m_owner, id, stats] {
                Q_EMIT o->transferFinished(id, false, QStringLiteral("cancelled"), stats);
            });
            return;
        }
        session().resetCancel();
        QString error;
        if (!m_everOpened && !openSession(&error)) {
            postToOwner(m_owner,
                        [o = m_owner, id, error, stats] { Q_EMIT o->transferFinished(id, false, error, stats); });
            return;
        }
        const int reconnectsBefore = m_runner.reconnectCount();
        QElapsedTimer sinceReport;
        sinceReport.start();
        const TransferProgress progress = [this, id, &sinceReport](qint64 done, qint64 total) {
            if (done == total || sinceReport.elapsed() >= 100) {
                sinceReport.restart();
                postToOwner(m_owner, [o = m_owner, id, done, total] { Q_EMIT o->transferProgress(id, done, total); });
            }
            return true; // cancelAll() cancels through the session
        };
        const bool ok =
            up ? m_runner.upload(from, to, &error, progress) : m_runner.download(from, to, &error, progress);
        stats = m_runner.lastTransfer();
        afterOperation(reconnectsBefore);
        postToOwner(m_owner, [o = m_owner, id, ok, error, stats] { Q_EMIT o->transferFinished(id, ok, error, stats); });
    }

    void keepalive() {
        if (!m_keepalive) return;
        QString error;
        if (session().isConnected() && session().sendKeepalive(&error)) return;
        m_owner->setConnected(false);
        postToOwner(m_owner, [o = m_owner, a0 = error.isEmpty() ? QStringLiteral("connection lost") : error] {
            Q_EMIT o->connectionLost(a0);
        });
        const int before = m_runner.reconnectCount();
        QString reconnectError;
        session().resetCancel();
        if (m_runner.ensureConnected(&reconnectError)) {
            afterOperation(before);
        } else {
            m_keepalive->stop();
            postToOwner(m_owner, [o = m_owner, a0 = reconnectError] { Q_EMIT o->failed(a0); });
        }
    }

    void close() {
        if (m_keepalive) m_keepalive->stop();
        session().disconnect();
        m_owner->setConnected(false);
        postToOwner(m_owner, [o = m_owner] { Q_EMIT o->closed(); });
    }

private:
    void startKeepalive() {
        m_everOpened = true;
        if (!m_keepalive) {
            m_keepalive = new QTimer(this);
            QObject::connect(m_keepalive, &QTimer::timeout, this, [this] { keepalive(); });
        }
        m_keepalive->start(qMax(1, session().options().keepaliveIntervalSec) * 1000);
    }
    void afterOperation(int reconnectsBefore) {
        const bool now = session().isConnected();
        if (m_runner.reconnectCount() > reconnectsBefore && now) {
            m_owner->setConnected(true);
            postToOwner(m_owner, [o = m_owner] { Q_EMIT o->reconnected(); });
        } else if (!now && m_owner->isConnected()) {
            m_owner->setConnected(false);
            postToOwner(m_owner,
                        [o = m_owner, a0 = QStringLiteral("connection lost")] { Q_EMIT o->connectionLost(a0); });
        }
        if (now && m_keepalive && !m_keepalive->isActive()) startKeepalive();
    }

    SshConnection *m_owner;
    SshCommandRunner m_runner;
    QTimer *m_keepalive = nullptr;
    bool m_everOpened = false;
};

SshConnection::SshConnection(const SshConnectOptions &options, QObject *parent, CredentialStore *credentials)
    : QObject(parent), m_options(options), m_prompts(std::make_shared<PromptBridge>(this)) {
    qRegisterMetaType<diamond::remote::CommandResult>();
    qRegisterMetaType<diamond::remote::TransferStats>();
    m_thread.setObjectName(QStringLiteral("ssh %1").arg(options.label()));
    m_worker = new SshConnectionWorker(this, options, m_prompts.get(), credentials);
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

SshConnection::~SshConnection() {
    m_generation.fetch_add(1);
    m_prompts->cancel(true);
    m_worker->session().abort(); // unblocks a running command or transfer at once
    m_thread.quit();
    m_thread.wait();
}

void SshConnection::setReconnectPolicy(const ReconnectPolicy &policy) {
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, policy] { w->setPolicy(policy); }, Qt::QueuedConnection);
}

void SshConnection::open() {
    m_prompts->reopen();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->open(); }, Qt::QueuedConnection);
}

void SshConnection::close() {
    m_generation.fetch_add(1);
    m_prompts->cancel(true);
    m_worker->session().cancel();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->close(); }, Qt::QueuedConnection);
}

int SshConnection::runCommand(const QString &command, const QByteArray &input, int timeoutMs) {
    const int id = m_nextId.fetch_add(1);
    const int generation = m_generation.load();
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, generation, command, input, timeoutMs] {
            w->run(id, generation, command, input, timeoutMs);
        },
        Qt::QueuedConnection);
    return id;
}

int SshConnection::upload(const QString &localPath, const QString &remotePath) {
    const int id = m_nextId.fetch_add(1);
    const int generation = m_generation.load();
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, generation, localPath, remotePath] {
            w->transfer(id, generation, true, localPath, remotePath);
        },
        Qt::QueuedConnection);
    return id;
}

int SshConnection::download(const QString &remotePath, const QString &localPath) {
    const int id = m_nextId.fetch_add(1);
    const int generation = m_generation.load();
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, generation, localPath, remotePath] {
            w->transfer(id, generation, false, remotePath, localPath);
        },
        Qt::QueuedConnection);
    return id;
}

void SshConnection::acceptHostKey(bool accept) {
    PromptBridge::Answer a;
    a.accept = accept;
    m_prompts->answer(PromptBridge::Kind::HostKey, a);
}

void SshConnection::providePassphrase(const QString &passphrase) {
    PromptBridge::Answer a;
    a.text = passphrase;
    m_prompts->answer(PromptBridge::Kind::Passphrase, a);
}

void SshConnection::providePassword(const QString &password) {
    PromptBridge::Answer a;
    a.text = password;
    m_prompts->answer(PromptBridge::Kind::Password, a);
}

void SshConnection::provideInteractiveAnswers(const QStringList &answers) {
    PromptBridge::Answer a;
    a.list = answers;
    m_prompts->answer(PromptBridge::Kind::Interactive, a);
}

void SshConnection::cancelPrompt() { m_prompts->cancel(false); }

void SshConnection::cancelAll() {
    m_generation.fetch_add(1);
    m_worker->session().cancel();
}

} // namespace diamond::remote
