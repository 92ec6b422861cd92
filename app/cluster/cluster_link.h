// ClusterLink: this app session's one connection to one cluster, shared by everything that talks to it: the run
// service's jobs (staging, submission, event and state polling, cancel), sweeps, and the cluster manager's tests,
// probes and queue view. It is the only worker-thread design over a blocking connection in Diamond.
//
// Contract:
// - One worker thread per link owns the blocking remote::CommandRunner (SSH, or this computer for host "local")
//   and the scheduler on it. Work is posted as functions and runs there one after the other, in order; objects that
//   poll (ClusterExecutor's worker) live on thread() and call runner() from it.
// - Connecting may raise prompts (unknown host key, key passphrase, password, keyboard-interactive rounds such as
//   an MFA code). They go to the link's ClusterPrompter on the thread the link lives in (the GUI thread: a dialog;
//   diamondctl: the terminal); the worker waits for the answer. Without a prompter every prompt is declined.
// - One interactive login per cluster per session: passwords and passphrases that worked stay in this process's
//   memory (remote::MemoryCredentialStore) so a reconnect after a dropped connection asks again only for
//   keyboard-interactive answers; those (one-time codes) are never stored.
// - After the user declined a prompt, background work (Access::Background: polling) does not ask again; it fails
//   with signedOutMessage() until user-initiated work (Access::Interactive) signs in again.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/command_runner.h"

#include <QList>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

class QThread;

namespace diamond::remote {
class Scheduler;
class SshPrompter;
} // namespace diamond::remote

namespace diamond::app {

/// One question raised while connecting to a cluster.
struct ClusterPrompt {
    enum class Kind { HostKey, Passphrase, Password, Interactive };
    Kind kind = Kind::Password;
    QString cluster;     ///< the profile's name
    QString title;       ///< a short translated title ("Password", "Sign-in to hpc")
    QString instruction; ///< the server's instruction or "The password was wrong. Try again."
    QStringList prompts; ///< one answer is expected per prompt (none for HostKey)
    QList<bool> echo;    ///< echo[i]: the answer to prompts[i] may be shown while typed
    QString hostLabel;   ///< HostKey: "user@host:port"
    QString keyType;     ///< HostKey: e.g. "ssh-ed25519"
    QString fingerprint; ///< HostKey: "SHA256:..."
};

/// Answers ClusterPrompts for a front end. ask() is called on the link's thread of residence (not the worker);
/// `answer` must be called exactly once, at once or later (a dialog): with one string per prompt, with any list for
/// an accepted host key, or std::nullopt when the user declined.
class ClusterPrompter {
public:
    virtual ~ClusterPrompter() = default;
    virtual void ask(const ClusterPrompt &prompt, std::function<void(std::optional<QStringList>)> answer) = 0;
};

class ClusterLinkWorker;
class ClusterPromptBridge;

class ClusterLink : public QObject {
    Q_OBJECT
public:
    /// Builds the runner on the link's thread; `prompter` forwards prompts to the link's ClusterPrompter.
    using RunnerFactory = std::function<std::unique_ptr<remote::CommandRunner>(remote::SshPrompter *prompter)>;
    enum class Access {
        Interactive, ///< the user asked for this: may prompt, also after a declined prompt
        Background,  ///< polling: never prompts again after the user declined one
    };

    /// `factory` defaults to makeClusterRunner(profile) with the link's prompter and memory-only credentials.
    explicit ClusterLink(const remote::ClusterProfile &profile, RunnerFactory factory = {}, QObject *parent = nullptr);
    /// Declines an open prompt, aborts the running work and stops the thread.
    ~ClusterLink() override;

    const remote::ClusterProfile &profile() const { return profile_; }
    /// Prompts go here (not owned; may be nullptr: declined). Set it before posting work.
    void setPrompter(ClusterPrompter *prompter) { prompter_ = prompter; }
    ClusterPrompter *prompter() const { return prompter_; }
    /// The worker thread; objects living on it may call runner() and scheduler().
    QThread *thread() const { return thread_; }

    /// Runs `work` on the worker thread, after the work posted before it.
    void post(std::function<void()> work);
    /// Declines the open prompt and aborts the running and every later operation (the session ends). Thread-safe.
    void shutdown();

    // --- on the worker thread only ---
    /// The connected runner (connecting first, prompting per `access`), or nullptr with *error.
    remote::CommandRunner *runner(QString *error, Access access = Access::Interactive);
    /// The profile's scheduler over runner(), or nullptr with *error (no scheduler, not connected).
    remote::Scheduler *scheduler(QString *error, Access access = Access::Interactive);
    /// The last connect saw the server's host key refused as changed (never offered for acceptance).
    bool hostKeyRefused() const;
    /// The server key's fingerprint seen at the last connect, when SSH.
    QString hostKeyFingerprint() const;
    /// Closes the connection; the next runner() connects again (and may prompt).
    void disconnect();

    /// "Sign-in to <cluster> was cancelled" (what Background work reports after a declined prompt).
    QString signedOutMessage() const;

Q_SIGNALS:
    /// Connection and sign-in status lines ("Connecting to alice@hpc:22…") for status bars.
    void progress(const QString &message);
    /// Connected (true) or the connection was closed or failed (false).
    void connectionChanged(bool connected);

private:
    friend class ClusterLinkWorker;
    friend class ClusterPromptBridge;

    remote::ClusterProfile profile_;
    RunnerFactory factory_;
    QThread *thread_ = nullptr;
    ClusterLinkWorker *worker_ = nullptr; ///< lives on thread_
    std::shared_ptr<ClusterPromptBridge> bridge_;
    ClusterPrompter *prompter_ = nullptr;
};

/// The links of one app session, by profile name; a profile whose connection settings changed gets a new link (the
/// old one is kept until nothing uses it, i.e. until the registry goes). Lives on the GUI / main thread.
class ClusterLinks : public QObject {
    Q_OBJECT
public:
    explicit ClusterLinks(QObject *parent = nullptr);
    ~ClusterLinks() override;

    /// Prompter for every link, present and future (not owned).
    void setPrompter(ClusterPrompter *prompter);
    ClusterPrompter *prompter() const { return prompter_; }
    /// Runner factory for new links (tests); default: makeClusterRunner.
    void setRunnerFactory(ClusterLink::RunnerFactory factory) { factory_ = std::move(factory); }

    /// The link for `profile` (created on first use).
    ClusterLink *link(const remote::ClusterProfile &profile);
    /// Every link made so far.
    QList<ClusterLink *> links() const { return links_; }

private:
    QList<ClusterLink *> links_;
    ClusterPrompter *prompter_ = nullptr;
    ClusterLink::RunnerFactory factory_;
};

/// Runs `work` on the link's thread and waits for it while this thread keeps processing events (so that prompts are
/// answered). For command-line tools; never on the GUI thread.
void runAndWait(ClusterLink &link, const std::function<void()> &work);

/// Connection settings of a profile as one key: two profiles with the same key share a connection.
QString connectionKey(const remote::ClusterProfile &profile);

} // namespace diamond::app
