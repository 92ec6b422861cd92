#include "ui/cluster/cluster_client.h"

#include "app/cluster_connection.h"
#include "remote/command_runner.h"
#include "remote/ssh_command_runner.h"
#include "remote/ssh_session.h"

#include <QCoreApplication>
#include <QDir>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace diamond::ui {

namespace {

/// Same connection settings as app::makeClusterRunner, so the GUI and `diamondctl cluster test` agree.
remote::SshConnectOptions sshOptions(const remote::ClusterProfile &profile) { return app::sshOptionsFor(profile); }

QString connectionKey(const remote::ClusterProfile &p) {
    return QStringList{p.host, QString::number(p.port), p.user, p.identityFile, p.knownHostsFile}.join(QChar(0x1f));
}

} // namespace

/// SshPrompter for the worker thread: forwards each question to the client's thread as a signal and waits for
/// the answer (or for close()).
class ClusterPromptBridge : public remote::SshPrompter {
public:
    explicit ClusterPromptBridge(ClusterClient *client) : m_client(client) {}

    bool acceptUnknownHostKey(const QString &hostLabel, const QString &keyType, const QString &fingerprint) override {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (!m_client) return false;
        m_askedHostKey = true;
        m_answered = false;
        ClusterClient *client = m_client;
        QMetaObject::invokeMethod(
            client,
            [client, hostLabel, keyType, fingerprint] {
                Q_EMIT client->hostKeyUnknown(hostLabel, keyType, fingerprint);
            },
            Qt::QueuedConnection);
        m_cv.wait(lock, [this] { return m_answered || !m_client; });
        return m_answered && m_hostKeyAccepted;
    }
    std::optional<QString> passphrase(const QString &keyPath, bool retry) override {
        const auto answers = ask(ClusterClient::SecretKind::Passphrase, ClusterClient::tr("Key passphrase"),
                                 retry ? ClusterClient::tr("The passphrase was wrong. Try again.") : QString(),
                                 {ClusterClient::tr("Passphrase for %1:").arg(keyPath)}, {false});
        return answers && !answers->isEmpty() ? std::optional<QString>(answers->first()) : std::nullopt;
    }
    std::optional<QString> password(const QString &userAtHost, bool retry) override {
        const auto answers = ask(ClusterClient::SecretKind::Password, ClusterClient::tr("Password"),
                                 retry ? ClusterClient::tr("The password was wrong. Try again.") : QString(),
                                 {ClusterClient::tr("Password for %1:").arg(userAtHost)}, {false});
        return answers && !answers->isEmpty() ? std::optional<QString>(answers->first()) : std::nullopt;
    }
    std::optional<QStringList> interactive(const QString &name, const QString &instruction,
                                           const QList<remote::SshPrompt> &prompts) override {
        QStringList texts;
        QList<bool> echo;
        for (const auto &p : prompts) {
            texts << p.text;
            echo << p.echo;
        }
        return ask(ClusterClient::SecretKind::Interactive, name.isEmpty() ? ClusterClient::tr("Sign-in") : name,
                   instruction, texts, echo);
    }

    void answerHostKey(bool accept) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_hostKeyAccepted = accept;
        m_answered = true;
        m_cv.notify_all();
    }
    void answerSecret(const std::optional<QStringList> &answers) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_secret = answers;
        m_answered = true;
        m_cv.notify_all();
    }
    /// Declines any open prompt and every later one.
    void close() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_client = nullptr;
        m_cv.notify_all();
    }
    void resetAsked() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_askedHostKey = false;
    }
    bool askedHostKey() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_askedHostKey;
    }

private:
    std::optional<QStringList> ask(ClusterClient::SecretKind kind, const QString &title, const QString &instruction,
                                   const QStringList &prompts, const QList<bool> &echo) {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (!m_client) return std::nullopt;
        m_answered = false;
        m_secret.reset();
        ClusterClient *client = m_client;
        QMetaObject::invokeMethod(
            client,
            [client, kind, title, instruction, prompts, echo] {
                Q_EMIT client->secretRequested(kind, title, instruction, prompts, echo);
            },
            Qt::QueuedConnection);
        m_cv.wait(lock, [this] { return m_answered || !m_client; });
        return m_answered ? m_secret : std::nullopt;
    }

    std::mutex m_mutex;
    std::condition_variable m_cv;
    ClusterClient *m_client;
    bool m_answered = false;
    bool m_hostKeyAccepted = false;
    bool m_askedHostKey = false;
    std::optional<QStringList> m_secret;
};

/// Lives on the client's worker thread; owns the runner of the last profile used.
class ClusterWorker : public QObject {
public:
    ClusterWorker(ClusterClient *client, std::shared_ptr<ClusterPromptBridge> prompts)
        : m_client(client), m_prompts(std::move(prompts)) {}

    /// Thread-safe: stops the running request and every queued one.
    void stop() {
        m_stopping = true;
        std::lock_guard<std::mutex> lock(m_sessionMutex);
        if (m_session) m_session->abort();
    }
    bool stopping() const { return m_stopping; }

    void reset() {
        std::lock_guard<std::mutex> lock(m_sessionMutex);
        m_session = nullptr;
        m_ssh = nullptr;
        m_runner.reset();
        m_key.clear();
    }

    /// The connected runner for `profile`, or nullptr with *error (and the host key outcome in *test).
    remote::CommandRunner *runnerFor(const remote::ClusterProfile &profile, int id, QString *error,
                                     ClusterTestResult *test = nullptr) {
        if (m_stopping) {
            *error = ClusterClient::tr("cancelled");
            return nullptr;
        }
        const QString key = connectionKey(profile);
        if (!m_runner || key != m_key) {
            reset();
            std::lock_guard<std::mutex> lock(m_sessionMutex);
            m_key = key;
            if (app::isLocalProfile(profile)) {
                m_runner = std::make_unique<remote::LocalCommandRunner>();
            } else {
                auto ssh = std::make_unique<remote::SshCommandRunner>(sshOptions(profile), m_prompts.get());
                ssh->setReconnectPolicy(remote::ReconnectPolicy{2, 250, 2000});
                m_ssh = ssh.get();
                m_session = &ssh->session();
                m_runner = std::move(ssh);
            }
        }
        if (!m_ssh) return m_runner.get();
        if (!m_session->isConnected())
            emitProgress(id, ClusterClient::tr("Connecting to %1…").arg(m_runner->describe()));
        m_prompts->resetAsked();
        QString why;
        const bool ok = m_ssh->ensureConnected(&why);
        if (test) test->fingerprint = m_session->hostKeyFingerprint();
        if (!ok) {
            const bool refused =
                m_session->lastFailure() == remote::SshSession::Failure::HostKey && !m_prompts->askedHostKey();
            if (test) test->hostKeyRefused = refused;
            *error = why.isEmpty() ? ClusterClient::tr("cannot connect to %1").arg(m_runner->describe()) : why;
            reset();
            return nullptr;
        }
        return m_runner.get();
    }

    void emitProgress(int id, const QString &message) {
        QMetaObject::invokeMethod(
            m_client, [c = m_client, id, message] { Q_EMIT c->progress(id, message); }, Qt::QueuedConnection);
    }
    template <typename F> void deliver(F &&f) {
        QMetaObject::invokeMethod(
            m_client,
            [c = m_client, f = std::forward<F>(f)] {
                c->finishOne();
                f(c);
            },
            Qt::QueuedConnection);
    }

private:
    ClusterClient *m_client;
    std::shared_ptr<ClusterPromptBridge> m_prompts;
    std::unique_ptr<remote::CommandRunner> m_runner;
    remote::SshCommandRunner *m_ssh = nullptr;
    remote::SshSession *m_session = nullptr;
    std::mutex m_sessionMutex; // guards m_session against stop() from the client's thread
    QString m_key;
    std::atomic<bool> m_stopping{false};
};

ClusterClient::ClusterClient(QObject *parent)
    : QObject(parent), m_thread(new QThread), m_prompts(std::make_shared<ClusterPromptBridge>(this)) {
    qRegisterMetaType<ClusterTestResult>();
    qRegisterMetaType<ClusterProbeResult>();
    qRegisterMetaType<ClusterQueueResult>();
    qRegisterMetaType<SecretKind>();
    m_thread->setObjectName(QStringLiteral("cluster-client"));
    m_worker = new ClusterWorker(this, m_prompts);
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

ClusterClient::~ClusterClient() {
    m_prompts->close();
    m_worker->stop();
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
    delete m_thread;
}

int ClusterClient::post(std::function<void(ClusterWorker &, int)> job) {
    const int id = m_nextId++;
    ++m_pending;
    ClusterWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, id, job = std::move(job)] { job(*worker, id); }, Qt::QueuedConnection);
    return id;
}

int ClusterClient::testConnection(const remote::ClusterProfile &profile) {
    return post([profile](ClusterWorker &w, int id) {
        ClusterTestResult result;
        QString error;
        if (remote::CommandRunner *runner = w.runnerFor(profile, id, &error, &result)) {
            w.emitProgress(id, tr("Running the checks on %1…").arg(runner->describe()));
            result.checks = app::testCluster(*runner, profile);
            result.ok = !result.checks.isEmpty();
            for (const auto &c : std::as_const(result.checks))
                result.ok = result.ok && c.ok;
        } else {
            result.error = error;
        }
        w.deliver([id, result](ClusterClient *c) { Q_EMIT c->testFinished(id, result); });
    });
}

int ClusterClient::probe(const remote::ClusterProfile &profile) {
    return post([profile](ClusterWorker &w, int id) {
        ClusterProbeResult result;
        QString error;
        if (remote::CommandRunner *runner = w.runnerFor(profile, id, &error)) {
            const auto scheduler = remote::makeScheduler(profile.scheduler, *runner);
            if (!scheduler) {
                error = tr("the profile has no batch scheduler to probe");
            } else {
                w.emitProgress(id, tr("Reading the partitions of %1…").arg(runner->describe()));
                if (auto partitions = scheduler->probe(&error)) {
                    result.ok = true;
                    result.partitions = *partitions;
                }
            }
        }
        result.error = result.ok ? QString() : error;
        w.deliver([id, result](ClusterClient *c) { Q_EMIT c->probeFinished(id, result); });
    });
}

int ClusterClient::fetchQueue(const remote::ClusterProfile &profile) {
    return post([profile](ClusterWorker &w, int id) {
        ClusterQueueResult result;
        QString error;
        if (remote::CommandRunner *runner = w.runnerFor(profile, id, &error)) {
            const auto scheduler = remote::makeScheduler(profile.scheduler, *runner);
            if (!scheduler) {
                error = tr("the profile has no batch scheduler");
            } else if (auto jobs = scheduler->queue(&error)) {
                result.ok = true;
                result.jobs = *jobs;
            }
        }
        result.error = result.ok ? QString() : error;
        w.deliver([id, result](ClusterClient *c) { Q_EMIT c->queueFinished(id, result); });
    });
}

int ClusterClient::cancelJob(const remote::ClusterProfile &profile, const QString &jobId) {
    return post([profile, jobId](ClusterWorker &w, int id) {
        QString error;
        bool ok = false;
        if (remote::CommandRunner *runner = w.runnerFor(profile, id, &error)) {
            const auto scheduler = remote::makeScheduler(profile.scheduler, *runner);
            if (!scheduler)
                error = tr("the profile has no batch scheduler");
            else
                ok = scheduler->cancel(jobId, &error);
        }
        w.deliver([id, ok, error](ClusterClient *c) { Q_EMIT c->cancelFinished(id, ok, ok ? QString() : error); });
    });
}

void ClusterClient::disconnectHost() {
    ClusterWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker] { worker->reset(); }, Qt::QueuedConnection);
}

void ClusterClient::answerHostKey(bool accept) { m_prompts->answerHostKey(accept); }

void ClusterClient::answerSecret(const std::optional<QStringList> &answers) { m_prompts->answerSecret(answers); }

} // namespace diamond::ui
