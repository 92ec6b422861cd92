#include "app/cluster/cluster_link.h"

#include "app/cluster/cluster_connection.h"
#include "remote/scheduler.h"
#include "remote/ssh_command_runner.h"
#include "remote/ssh_session.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ClusterLink", text); }

} // namespace

namespace {

/// Answers every question with "no" (a link without a prompter: scripts, servers without a terminal).
class DecliningPrompter : public ClusterPrompter {
public:
    void ask(const ClusterPrompt &, std::function<void(std::optional<QStringList>)> answer) override {
        answer(std::optional<QStringList>());
    }
};

ClusterPrompter &declineAll() {
    static DecliningPrompter instance;
    return instance;
}

} // namespace

QString connectionKey(const remote::ClusterProfile &p) {
    return QStringList{p.host,         QString::number(p.port), p.user,
                       p.identityFile, p.knownHostsFile,        remote::schedulerKindName(p.scheduler)}
        .join(QChar(0x1f));
}

/// The SshPrompter of the link's runner: forwards each question to the link's thread of residence, where the
/// ClusterPrompter answers it, and waits (on the worker thread) for the answer or for close().
class ClusterPromptBridge : public remote::SshPrompter, public std::enable_shared_from_this<ClusterPromptBridge> {
public:
    explicit ClusterPromptBridge(ClusterLink *link) : link_(link) {}

    void setAccess(ClusterLink::Access access) {
        std::lock_guard<std::mutex> lock(mutex_);
        access_ = access;
    }
    /// Forget the outcome of the last connect's prompts (before a new connect).
    void resetAsked() {
        std::lock_guard<std::mutex> lock(mutex_);
        askedHostKey_ = false;
    }
    bool askedHostKey() {
        std::lock_guard<std::mutex> lock(mutex_);
        return askedHostKey_;
    }
    bool signedOut() {
        std::lock_guard<std::mutex> lock(mutex_);
        return declined_;
    }
    void signedIn() {
        std::lock_guard<std::mutex> lock(mutex_);
        declined_ = false;
    }
    /// Declines the open prompt and every later one (the link is going away).
    void close() {
        std::lock_guard<std::mutex> lock(mutex_);
        link_ = nullptr;
        ++generation_;
        cv_.notify_all();
    }

    bool acceptUnknownHostKey(const QString &hostLabel, const QString &keyType, const QString &fingerprint) override {
        ClusterPrompt p;
        p.kind = ClusterPrompt::Kind::HostKey;
        p.title = tr("Unknown host key");
        p.hostLabel = hostLabel;
        p.keyType = keyType;
        p.fingerprint = fingerprint;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            askedHostKey_ = true;
        }
        return ask(p).has_value();
    }
    std::optional<QString> passphrase(const QString &keyPath, bool retry) override {
        ClusterPrompt p;
        p.kind = ClusterPrompt::Kind::Passphrase;
        p.title = tr("Key passphrase");
        p.instruction = retry ? tr("The passphrase was wrong. Try again.") : QString();
        p.prompts = {tr("Passphrase for %1:").arg(keyPath)};
        p.echo = {false};
        return first(ask(p));
    }
    std::optional<QString> password(const QString &userAtHost, bool retry) override {
        ClusterPrompt p;
        p.kind = ClusterPrompt::Kind::Password;
        p.title = tr("Password");
        p.instruction = retry ? tr("The password was wrong. Try again.") : QString();
        p.prompts = {tr("Password for %1:").arg(userAtHost)};
        p.echo = {false};
        return first(ask(p));
    }
    std::optional<QStringList> interactive(const QString &name, const QString &instruction,
                                           const QList<remote::SshPrompt> &prompts) override {
        ClusterPrompt p;
        p.kind = ClusterPrompt::Kind::Interactive;
        p.title = name.isEmpty() ? tr("Sign-in") : name;
        p.instruction = instruction;
        for (const auto &prompt : prompts) {
            p.prompts << prompt.text;
            p.echo << prompt.echo;
        }
        auto answers = ask(p);
        if (answers && answers->size() != prompts.size()) return std::nullopt;
        return answers;
    }

private:
    static std::optional<QString> first(const std::optional<QStringList> &answers) {
        return answers && !answers->isEmpty() ? std::optional<QString>(answers->first()) : std::nullopt;
    }

    std::optional<QStringList> ask(ClusterPrompt prompt) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!link_ || (declined_ && access_ == ClusterLink::Access::Background)) return std::nullopt;
        ClusterLink *link = link_;
        prompt.cluster = link->profile().name;
        const int generation = ++generation_;
        answered_ = false;
        answer_.reset();
        // The answer function may outlive this prompt, even the link (a dialog closed late): it only counts for its
        // generation, and only while the bridge exists.
        auto answer = [weak = weak_from_this(), generation](std::optional<QStringList> a) {
            const auto self = weak.lock();
            if (!self) return;
            std::lock_guard<std::mutex> l(self->mutex_);
            if (generation != self->generation_) return;
            self->answer_ = std::move(a);
            self->answered_ = true;
            self->cv_.notify_all();
        };
        QMetaObject::invokeMethod(
            link,
            [link, prompt, answer] {
                ClusterPrompter *prompter = link->prompter();
                if (!prompter) prompter = &declineAll();
                prompter->ask(prompt, answer);
            },
            Qt::QueuedConnection);
        cv_.wait(lock, [&] { return answered_ || generation != generation_; });
        if (!answered_ || generation != generation_) return std::nullopt;
        answered_ = false;
        if (!answer_) declined_ = true;
        return answer_;
    }

    std::mutex mutex_;
    std::condition_variable cv_;
    ClusterLink *link_;
    ClusterLink::Access access_ = ClusterLink::Access::Interactive;
    bool declined_ = false;
    bool askedHostKey_ = false;
    bool answered_ = false;
    int generation_ = 0;
    std::optional<QStringList> answer_;
};

/// Lives on the link's thread: owns the runner and the scheduler.
class ClusterLinkWorker : public QObject {
public:
    ClusterLinkWorker(ClusterLink *link, std::shared_ptr<ClusterPromptBridge> bridge)
        : link_(link), bridge_(std::move(bridge)) {}

    /// Thread-safe: aborts the running operation (the link is going away).
    void stop() {
        stopping_ = true;
        std::lock_guard<std::mutex> lock(sessionMutex_);
        if (session_) session_->abort();
    }

    remote::CommandRunner *runner(QString *error, ClusterLink::Access access) {
        if (stopping_) {
            *error = tr("cancelled");
            return nullptr;
        }
        if (!runner_) {
            runner_ = link_->factory_(bridge_.get());
            if (!runner_) {
                *error = tr("Cannot reach cluster '%1'.").arg(link_->profile_.name);
                return nullptr;
            }
            std::lock_guard<std::mutex> lock(sessionMutex_);
            ssh_ = dynamic_cast<remote::SshCommandRunner *>(runner_.get());
            session_ = ssh_ ? &ssh_->session() : nullptr;
        }
        bridge_->setAccess(access);
        if (!ssh_ || ssh_->session().isConnected()) return runner_.get();
        if (access == ClusterLink::Access::Background && bridge_->signedOut()) {
            *error = link_->signedOutMessage();
            return nullptr;
        }
        emitProgress(tr("Connecting to %1…").arg(runner_->describe()));
        bridge_->resetAsked();
        QString why;
        const bool ok = ssh_->ensureConnected(&why);
        fingerprint_ = ssh_->session().hostKeyFingerprint();
        hostKeyRefused_ =
            !ok && ssh_->session().lastFailure() == remote::SshSession::Failure::HostKey && !bridge_->askedHostKey();
        if (!ok) {
            *error = why.isEmpty() ? tr("Cannot connect to %1.").arg(runner_->describe()) : why;
            if (bridge_->signedOut()) *error = link_->signedOutMessage() + QStringLiteral(" (") + *error + u')';
            emitConnected(false);
            return nullptr;
        }
        bridge_->signedIn();
        emitConnected(true);
        return runner_.get();
    }

    remote::Scheduler *scheduler(QString *error, ClusterLink::Access access) {
        remote::CommandRunner *r = runner(error, access);
        if (!r) return nullptr;
        if (!scheduler_) scheduler_ = remote::makeScheduler(link_->profile_.scheduler, *r);
        if (!scheduler_)
            *error = tr("Cluster '%1' has no batch scheduler Diamond can use (scheduler %2).")
                         .arg(link_->profile_.name, remote::schedulerKindName(link_->profile_.scheduler));
        return scheduler_.get();
    }

    void disconnect() {
        if (ssh_) ssh_->session().disconnect();
        emitConnected(false);
    }

    void shutdown() {
        scheduler_.reset();
        std::lock_guard<std::mutex> lock(sessionMutex_);
        session_ = nullptr;
        ssh_ = nullptr;
        runner_.reset();
    }

    bool hostKeyRefused() const { return hostKeyRefused_; }
    QString fingerprint() const { return fingerprint_; }

private:
    static QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ClusterLink", text); }
    void emitProgress(const QString &message) {
        QMetaObject::invokeMethod(
            link_, [l = link_, message] { Q_EMIT l->progress(message); }, Qt::QueuedConnection);
    }
    void emitConnected(bool connected) {
        if (connected == connected_) return;
        connected_ = connected;
        QMetaObject::invokeMethod(
            link_, [l = link_, connected] { Q_EMIT l->connectionChanged(connected); }, Qt::QueuedConnection);
    }

    ClusterLink *link_;
    std::shared_ptr<ClusterPromptBridge> bridge_;
    std::unique_ptr<remote::CommandRunner> runner_;
    std::unique_ptr<remote::Scheduler> scheduler_;
    remote::SshCommandRunner *ssh_ = nullptr;
    remote::SshSession *session_ = nullptr;
    std::mutex sessionMutex_; ///< guards session_ against stop() from another thread
    std::atomic<bool> stopping_{false};
    bool connected_ = false;
    bool hostKeyRefused_ = false;
    QString fingerprint_;
};

ClusterLink::ClusterLink(const remote::ClusterProfile &profile, RunnerFactory factory, QObject *parent)
    : QObject(parent), profile_(profile), factory_(std::move(factory)),
      bridge_(std::make_shared<ClusterPromptBridge>(this)) {
    if (!factory_) factory_ = [p = profile_](remote::SshPrompter *prompter) { return makeClusterRunner(p, prompter); };
    thread_ = new QThread;
    thread_->setObjectName(QStringLiteral("cluster-%1").arg(profile_.name));
    worker_ = new ClusterLinkWorker(this, bridge_);
    worker_->moveToThread(thread_);
    thread_->start();
}

void ClusterLink::shutdown() {
    bridge_->close();
    worker_->stop();
}

ClusterLink::~ClusterLink() {
    shutdown();
    QMetaObject::invokeMethod(
        worker_, [w = worker_] { w->shutdown(); }, Qt::BlockingQueuedConnection);
    thread_->quit();
    thread_->wait();
    delete worker_;
    delete thread_;
}

void ClusterLink::post(std::function<void()> work) {
    QMetaObject::invokeMethod(worker_, std::move(work), Qt::QueuedConnection);
}

remote::CommandRunner *ClusterLink::runner(QString *error, Access access) {
    Q_ASSERT(QThread::currentThread() == thread_);
    return worker_->runner(error, access);
}

remote::Scheduler *ClusterLink::scheduler(QString *error, Access access) {
    Q_ASSERT(QThread::currentThread() == thread_);
    return worker_->scheduler(error, access);
}

bool ClusterLink::hostKeyRefused() const { return worker_->hostKeyRefused(); }

QString ClusterLink::hostKeyFingerprint() const { return worker_->fingerprint(); }

void ClusterLink::disconnect() { worker_->disconnect(); }

QString ClusterLink::signedOutMessage() const {
    return tr("Sign-in to cluster '%1' was cancelled; connect again from the Clusters page.").arg(profile_.name);
}

void runAndWait(ClusterLink &link, const std::function<void()> &work) {
    QEventLoop loop;
    link.post([&loop, &work] {
        work();
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    loop.exec();
}

ClusterLinks::ClusterLinks(QObject *parent) : QObject(parent) {}

ClusterLinks::~ClusterLinks() {
    // Links stop their threads; anything living there (executor workers) must be gone already.
    qDeleteAll(links_);
}

void ClusterLinks::setPrompter(ClusterPrompter *prompter) {
    prompter_ = prompter;
    for (ClusterLink *l : std::as_const(links_))
        l->setPrompter(prompter);
}

ClusterLink *ClusterLinks::link(const remote::ClusterProfile &profile) {
    const QString key = connectionKey(profile);
    for (ClusterLink *l : std::as_const(links_))
        if (l->profile().name == profile.name && connectionKey(l->profile()) == key) return l;
    auto *l = new ClusterLink(profile, factory_);
    l->setPrompter(prompter_);
    links_.append(l);
    return l;
}

} // namespace diamond::app
