#include "remote/ssh_session.h"

#include "remote/credential_store.h"
#include "remote/known_hosts.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include <QThread>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

namespace diamond::remote {

namespace {

constexpr int kMaxPromptTries = 3;

QByteArray local8(const QString &s) { return s.toLocal8Bit(); }

} // namespace

QString shellQuote(const QString &s) {
    if (!s.isEmpty() && s.indexOf(QRegularExpression(QStringLiteral("[^A-Za-z0-9_./:=@%+,-]"))) < 0) return s;
    QString out = s;
    out.replace(QLatin1Char('\''), QLatin1String("'\"'\"'"));
    return QLatin1Char('\'') + out + QLatin1Char('\'');
}

// ---------------------------------------------------------------- options

SshConnectOptions SshConnectOptions::fromConfig(const SshHostConfig &config, const QString &defaultKnownHosts) {
    SshConnectOptions o;
    o.host = config.hostName;
    o.port = config.port;
    o.user = config.user;
    o.identityFiles = config.identityFiles;
    if (o.identityFiles.isEmpty()) { // OpenSSH's defaults (those that exist are tried)
        for (const char *name : {"id_ed25519", "id_ecdsa", "id_rsa"})
            o.identityFiles << QDir::home().filePath(QStringLiteral(".ssh/") + QLatin1String(name));
    }
    o.identitiesOnly = config.identitiesOnly;
    o.proxyJump = config.proxyJump;
    if (config.serverAliveIntervalSec > 0) o.keepaliveIntervalSec = config.serverAliveIntervalSec;
    o.knownHostsPath = config.userKnownHostsFile.isEmpty() ? defaultKnownHosts : config.userKnownHostsFile;
    return o;
}

QString SshConnectOptions::label() const { return QStringLiteral("%1@%2:%3").arg(user, host).arg(port); }

// ---------------------------------------------------------------- channel

SshChannel::~SshChannel() { close(); }

bool SshChannel::valid() const { return m_channel && m_session->m_generation == m_generation; }

bool SshChannel::write(const QByteArray &data, QString *error, int timeoutMs) {
    if (!valid()) {
        *error = QStringLiteral("the connection of this channel is gone");
        return false;
    }
    QElapsedTimer timer;
    timer.start();
    qsizetype pos = 0;
    while (pos < data.size()) {
        if (m_session->isCancelled()) {
            *error = QStringLiteral("cancelled");
            return false;
        }
        if (ssh_channel_window_size(m_channel) == 0) {
            // The window is used up. Draining the output lets libssh process incoming packets: with output
            // buffered, ssh_channel_poll and the timed polls return at once without reading the socket, so the
            // window adjustment would never be seen (a command that printed before reading all its input hung
            // here for good). Remote output is kept meanwhile, so neither side blocks the other.
            bool got = false;
            if (!drainOutput(&m_pendingOut, &m_pendingErr, &got, error)) return false;
            if (ssh_channel_window_size(m_channel) > 0) continue;
            if (atEnd()) { // the command ended without reading the rest
                m_inputRefused = true;
                return true;
            }
            if (timeoutMs > 0 && timer.elapsed() > timeoutMs) {
                *error = QStringLiteral("timed out after %1 ms waiting for the remote command to read its input")
                             .arg(timeoutMs);
                return false;
            }
            if (got) continue;
            const int fd = m_session->m_fd.load();
            pollfd p{fd, POLLIN, 0};
            if (fd < 0 || ::poll(&p, 1, 50) < 0) QThread::msleep(1);
            continue;
        }
        const uint32_t chunk = uint32_t(qMin<qsizetype>(data.size() - pos, 32768));
        const int n = ssh_channel_write(m_channel, data.constData() + pos, chunk);
        if (n == SSH_ERROR && m_session->isConnected()) {
            // The command may have ended meanwhile: libssh refuses writes once its close arrived, while
            // ssh_channel_is_eof stays false until the output buffered before it is read. Read it, then look again.
            bool got = false;
            QString readError;
            if (!atEnd() && !drainOutput(&m_pendingOut, &m_pendingErr, &got, &readError)) {
                *error = readError;
                return false;
            }
            if (atEnd()) { // the command ended without reading the rest
                m_inputRefused = true;
                return true;
            }
        }
        if (n == SSH_ERROR) break;
        pos += n;
    }
    if (pos < data.size()) {
        *error = QStringLiteral("writing to the remote command failed: %1").arg(m_session->libsshError());
        m_session->markDisconnected();
        return false;
    }
    return true;
}

bool SshChannel::drainOutput(QByteArray *out, QByteArray *err, bool *got, QString *error) {
    char buffer[65536];
    for (int stream = 0; stream < 2; ++stream) {
        for (;;) {
            const int n = ssh_channel_read_nonblocking(m_channel, buffer, sizeof buffer, stream);
            if (n == SSH_ERROR) {
                *error = QStringLiteral("connection lost: %1").arg(m_session->libsshError());
                m_session->markDisconnected();
                return false;
            }
            if (n <= 0) break;
            (stream ? err : out)->append(buffer, n);
            *got = true;
        }
    }
    return true;
}

void SshChannel::sendEof() {
    if (valid()) ssh_channel_send_eof(m_channel);
}

bool SshChannel::read(QByteArray *out, QByteArray *err, int timeoutMs, QString *error) {
    if (!valid()) {
        *error = QStringLiteral("the connection of this channel is gone");
        return false;
    }
    bool got = !m_pendingOut.isEmpty() || !m_pendingErr.isEmpty();
    out->append(m_pendingOut);
    err->append(m_pendingErr);
    m_pendingOut.clear();
    m_pendingErr.clear();
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        if (m_session->isCancelled()) {
            *error = QStringLiteral("cancelled");
            return false;
        }
        if (!drainOutput(out, err, &got, error)) return false;
        if (got || atEnd()) return true;
        const int left = timeoutMs - int(timer.elapsed());
        if (left <= 0) return true;
        if (ssh_channel_poll_timeout(m_channel, qMin(left, 100), 0) == SSH_ERROR) {
            *error = QStringLiteral("connection lost: %1").arg(m_session->libsshError());
            m_session->markDisconnected();
            return false;
        }
    }
}

bool SshChannel::atEnd() const { return !valid() || ssh_channel_is_eof(m_channel) || ssh_channel_is_closed(m_channel); }

int SshChannel::exitStatus() {
    if (!valid()) return -1;
    const int status = ssh_channel_get_exit_status(m_channel);
    return status < 0 ? -1 : status;
}

void SshChannel::signal(const char *name) {
    if (valid()) ssh_channel_request_send_signal(m_channel, name);
}

void SshChannel::close() {
    if (!valid()) { // freed together with its session
        m_channel = nullptr;
        return;
    }
    if (m_session->isConnected()) ssh_channel_close(m_channel);
    ssh_channel_free(m_channel);
    m_channel = nullptr;
}

// ---------------------------------------------------------------- session

SshSession::SshSession(const SshConnectOptions &options, SshPrompter *prompter, CredentialStore *credentials)
    : m_options(options), m_prompter(prompter), m_credentials(credentials) {
    if (!m_credentials) {
        m_ownedCredentials = std::make_unique<MemoryCredentialStore>();
        m_credentials = m_ownedCredentials.get();
    }
}

SshSession::~SshSession() { disconnect(); }

QString SshSession::libsshError() const {
    return m_session ? QString::fromLocal8Bit(ssh_get_error(m_session)) : QStringLiteral("not connected");
}

bool SshSession::isConnected() const { return m_connected && m_session && ssh_is_connected(m_session); }

void SshSession::markDisconnected() {
    if (m_session && !ssh_is_connected(m_session)) m_connected = false;
}

void SshSession::cancel() { m_cancel.store(true); }

void SshSession::abort() {
    m_cancel.store(true);
    const int fd = m_fd.load();
    if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
}

void SshSession::resetCancel() { m_cancel.store(false); }

void SshSession::disconnect() {
    resetSftp();
    if (m_session) {
        if (ssh_is_connected(m_session)) ssh_disconnect(m_session);
        ssh_free(m_session);
        m_session = nullptr;
        ++m_generation;
    }
    m_fd.store(-1);
    m_connected = false;
}

bool SshSession::reconnect(QString *error) {
    disconnect();
    return connect(error);
}

void SshSession::applySocketOptions() {
    const int fd = ssh_get_fd(m_session);
    m_fd.store(fd);
    if (fd < 0) return; // a ProxyCommand connection has no socket of ours
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    int idle = qMax(1, m_options.keepaliveIntervalSec), interval = qMax(1, idle / 3), count = 3;
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
    // Blocking SFTP calls are not bounded by SSH_OPTIONS_TIMEOUT: a silently dropped link must fail the socket,
    // also while data is unacknowledged (where keepalive probes do not run).
    unsigned int userTimeoutMs = unsigned(idle + interval * count) * 1000u;
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &userTimeoutMs, sizeof userTimeoutMs);
}

bool SshSession::connect(QString *error) {
    disconnect();
    resetCancel();
    m_failure = Failure::Configuration;
    const QString label = m_options.label();
    if (m_options.host.isEmpty() || m_options.user.isEmpty()) {
        *error = QStringLiteral("SSH connection needs a host and a user (got '%1')").arg(label);
        return false;
    }
    if (m_options.knownHostsPath.isEmpty()) {
        *error = QStringLiteral("SSH connection to %1 needs a known_hosts file").arg(label);
        return false;
    }
    m_session = ssh_new();
    if (!m_session) {
        *error = QStringLiteral("libssh could not create a session");
        return false;
    }
    const QByteArray host = local8(m_options.host), user = local8(m_options.user),
                     knownHosts = local8(m_options.knownHostsPath);
    const unsigned int port = unsigned(m_options.port);
    const long timeoutSec = qMax(1, (m_options.connectTimeoutMs + 999) / 1000);
    const int nodelay = 1;            // without it every SFTP request and channel waits for Nagle (docs: libssh notes)
    const bool processConfig = false; // we resolve ~/.ssh/config ourselves (SshConfig)
    ssh_options_set(m_session, SSH_OPTIONS_HOST, host.constData());
    ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    ssh_options_set(m_session, SSH_OPTIONS_USER, user.constData());
    ssh_options_set(m_session, SSH_OPTIONS_KNOWNHOSTS, knownHosts.constData());
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeoutSec);
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &nodelay);
    ssh_options_set(m_session, SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
    if (!m_options.agentSocket.isEmpty()) {
        const QByteArray agent = local8(m_options.agentSocket);
        ssh_options_set(m_session, SSH_OPTIONS_IDENTITY_AGENT, agent.constData());
    }
    if (!m_options.proxyJump.isEmpty()) {
        // libssh 0.10 has no ProxyJump; OpenSSH's client forwards the connection (as ssh -J does).
        QStringList hops = m_options.proxyJump.split(QLatin1Char(','), Qt::SkipEmptyParts);
        const QString last = hops.takeLast();
        QStringList cmd{QStringLiteral("exec ssh -W '[%h]:%p' -o BatchMode=yes")};
        for (const QString &o : m_options.proxyJumpSshOptions)
            cmd << shellQuote(o);
        if (!hops.isEmpty()) cmd << QStringLiteral("-J") << shellQuote(hops.join(QLatin1Char(',')));
        cmd << shellQuote(QStringLiteral("ssh://") + last);
        const QByteArray proxy = local8(cmd.join(QLatin1Char(' ')));
        ssh_options_set(m_session, SSH_OPTIONS_PROXYCOMMAND, proxy.constData());
    }
    if (ssh_connect(m_session) != SSH_OK) {
        *error = QStringLiteral("cannot connect to %1: %2").arg(label, libsshError());
        m_failure = Failure::Network;
        disconnect();
        return false;
    }
    applySocketOptions();
    m_failure = Failure::HostKey;

    const QString hostLabel = QStringLiteral("%1:%2").arg(m_options.host).arg(m_options.port);
    const HostKeyCheck check = checkHostKey(m_session, hostLabel);
    m_fingerprint = check.fingerprint;
    if (check.state == HostKeyState::Unknown) {
        const bool accepted =
            m_prompter && m_prompter->acceptUnknownHostKey(hostLabel, check.keyType, check.fingerprint);
        if (!accepted) {
            *error = QStringLiteral("the host key of %1 (%2 %3) is not known and was not accepted")
                         .arg(hostLabel, check.keyType, check.fingerprint);
            disconnect();
            return false;
        }
        QString addError;
        if (!addHostKey(m_session, hostLabel, &addError)) {
            *error = addError;
            disconnect();
            return false;
        }
    } else if (check.state != HostKeyState::Known) {
        *error = check.message;
        disconnect();
        return false;
    }
    m_failure = Failure::Authentication;
    if (!authenticate(error)) {
        if (m_cancel)
            m_failure = Failure::Cancelled;
        else if (!ssh_is_connected(m_session))
            m_failure = Failure::Network;
        disconnect();
        return false;
    }
    m_connected = true;
    m_failure = Failure::None;
    return true;
}

bool SshSession::authenticate(QString *error) {
    const QString label = m_options.label();
    int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS) {
        m_authMethod = QStringLiteral("none");
        return true;
    }
    if (rc == SSH_AUTH_ERROR) {
        *error = QStringLiteral("authentication with %1 failed: %2").arg(label, libsshError());
        return false;
    }
    QStringList tried;
    bool agentDone = false, keysDone = false, kbdDone = false, passwordDone = false;
    for (int round = 0; round < 4; ++round) { // a PARTIAL success (multi-factor) asks for another method
        const int methods = ssh_userauth_list(m_session, nullptr);
        bool partial = false;
        QString why;
        auto finish = [&](int result, const QString &method) {
            if (result == SSH_AUTH_SUCCESS) {
                m_authMethod = method;
                return true;
            }
            if (result == SSH_AUTH_PARTIAL) partial = true;
            return false;
        };
        if ((methods & SSH_AUTH_METHOD_PUBLICKEY) && m_options.useAgent && !agentDone &&
            !(m_options.identitiesOnly && !m_options.identityFiles.isEmpty())) {
            agentDone = true;
            if (m_cancel) break;
            const int r = ssh_userauth_agent(m_session, nullptr);
            if (finish(r, QStringLiteral("agent"))) return true;
            tried << QStringLiteral("ssh-agent");
            if (partial) continue;
        }
        if ((methods & SSH_AUTH_METHOD_PUBLICKEY) && !keysDone) {
            keysDone = true;
            for (const QString &path : m_options.identityFiles) {
                if (m_cancel) break;
                if (authWithKeyFile(path, &why)) return true;
                tried << QStringLiteral("key %1").arg(path);
                if (m_authMethod == QLatin1String("partial")) {
                    partial = true;
                    break;
                }
            }
            if (partial) continue;
        }
        if ((methods & SSH_AUTH_METHOD_INTERACTIVE) && m_options.allowKeyboardInteractive && m_prompter && !kbdDone) {
            kbdDone = true;
            if (authKeyboardInteractive(&why)) return true;
            tried << QStringLiteral("keyboard-interactive");
            if (m_authMethod == QLatin1String("partial")) continue;
        }
        if ((methods & SSH_AUTH_METHOD_PASSWORD) && m_options.allowPassword && !passwordDone) {
            passwordDone = true;
            if (authWithPassword(&why)) return true;
            tried << QStringLiteral("password");
            if (m_authMethod == QLatin1String("partial")) continue;
        }
        if (!why.isEmpty()) tried << why;
        break;
    }
    m_authMethod.clear();
    if (m_cancel) {
        *error = QStringLiteral("connecting to %1 was cancelled").arg(label);
        return false;
    }
    *error = QStringLiteral("%1 refused every authentication method tried (%2)")
                 .arg(label, tried.isEmpty() ? QStringLiteral("the server offered none Diamond can use")
                                             : tried.join(QStringLiteral("; ")));
    return false;
}

bool SshSession::authWithKeyFile(const QString &path, QString *why) {
    const QByteArray file = local8(path);
    if (!QFileInfo::exists(path)) return false;
    // Ask the server about the public half first: no passphrase prompt for a key it would refuse anyway.
    ssh_key pub = nullptr;
    if (ssh_pki_import_pubkey_file(local8(path + QStringLiteral(".pub")).constData(), &pub) == SSH_OK) {
        const int r = ssh_userauth_try_publickey(m_session, nullptr, pub);
        ssh_key_free(pub);
        if (r != SSH_AUTH_SUCCESS) return false;
    }
    ssh_key key = nullptr;
    if (ssh_pki_import_privkey_file(file.constData(), nullptr, nullptr, nullptr, &key) != SSH_OK) {
        const QString credentialKey = QStringLiteral("passphrase:") + QFileInfo(path).absoluteFilePath();
        std::optional<QString> phrase = m_credentials->secret(credentialKey);
        for (int attempt = 0; !key && attempt <= kMaxPromptTries; ++attempt) {
            if (attempt > 0 || !phrase) {
                if (!m_prompter || m_cancel) break;
                phrase = m_prompter->passphrase(path, attempt > 0);
                if (!phrase) break;
            }
            const QByteArray p = phrase->toUtf8();
            if (ssh_pki_import_privkey_file(file.constData(), p.constData(), nullptr, nullptr, &key) != SSH_OK) {
                key = nullptr;
                m_credentials->forget(credentialKey);
            } else {
                m_credentials->store(credentialKey, *phrase, nullptr);
            }
        }
        if (!key) {
            *why = QStringLiteral("cannot load key %1 (it needs a passphrase, or it is no private key)").arg(path);
            return false;
        }
    }
    const int r = ssh_userauth_publickey(m_session, nullptr, key);
    ssh_key_free(key);
    if (r == SSH_AUTH_SUCCESS) {
        m_authMethod = QStringLiteral("publickey");
        return true;
    }
    if (r == SSH_AUTH_PARTIAL) m_authMethod = QStringLiteral("partial");
    return false;
}

bool SshSession::authWithPassword(QString *why) {
    const QString credentialKey = QStringLiteral("password:") + m_options.label();
    std::optional<QString> password = m_credentials->secret(credentialKey);
    for (int attempt = 0; attempt <= kMaxPromptTries; ++attempt) {
        if (attempt > 0 || !password) {
            if (!m_prompter || m_cancel) break;
            password = m_prompter->password(m_options.label(), attempt > 0);
            if (!password) break;
        }
        const int r = ssh_userauth_password(m_session, nullptr, password->toUtf8().constData());
        if (r == SSH_AUTH_SUCCESS) {
            m_credentials->store(credentialKey, *password, nullptr);
            m_authMethod = QStringLiteral("password");
            return true;
        }
        m_credentials->forget(credentialKey);
        if (r == SSH_AUTH_PARTIAL) {
            m_authMethod = QStringLiteral("partial");
            return false;
        }
        if (r == SSH_AUTH_ERROR) {
            *why = QStringLiteral("password: %1").arg(libsshError());
            return false;
        }
    }
    return false;
}

bool isAccountPasswordPrompt(const QList<SshPrompt> &prompts) {
    return prompts.size() == 1 && !prompts.first().echo &&
           prompts.first().text.contains(QLatin1String("password"), Qt::CaseInsensitive);
}

bool SshSession::authKeyboardInteractive(QString *why) {
    // A round that only asks the account password is answered from (and remembered in) the credential store like
    // password authentication; every other round (one-time codes, tokens) is asked each time and never kept.
    const QString credentialKey = QStringLiteral("password:") + m_options.label();
    bool usedRemembered = false;
    std::optional<QString> typedPassword;
    int r = ssh_userauth_kbdint(m_session, nullptr, nullptr);
    while (r == SSH_AUTH_INFO && !m_cancel) {
        const QString name = QString::fromUtf8(ssh_userauth_kbdint_getname(m_session));
        const QString instruction = QString::fromUtf8(ssh_userauth_kbdint_getinstruction(m_session));
        const int n = ssh_userauth_kbdint_getnprompts(m_session);
        if (n > 0) {
            QList<SshPrompt> prompts;
            for (int i = 0; i < n; ++i) {
                char echo = 0;
                const char *text = ssh_userauth_kbdint_getprompt(m_session, unsigned(i), &echo);
                prompts << SshPrompt{QString::fromUtf8(text), echo != 0};
            }
            std::optional<QStringList> answers;
            const bool passwordRound = isAccountPasswordPrompt(prompts);
            if (passwordRound && !usedRemembered)
                if (const auto remembered = m_credentials->secret(credentialKey)) {
                    answers = QStringList{*remembered};
                    usedRemembered = true;
                }
            if (!answers) {
                answers = m_prompter->interactive(name, instruction, prompts);
                if (passwordRound && answers && answers->size() == 1) typedPassword = answers->first();
            }
            if (!answers || answers->size() != n) {
                *why = QStringLiteral("keyboard-interactive: cancelled");
                return false;
            }
            for (int i = 0; i < n; ++i)
                ssh_userauth_kbdint_setanswer(m_session, unsigned(i), answers->at(i).toUtf8().constData());
        }
        r = ssh_userauth_kbdint(m_session, nullptr, nullptr);
    }
    if (r == SSH_AUTH_SUCCESS) {
        if (typedPassword) m_credentials->store(credentialKey, *typedPassword, nullptr);
        m_authMethod = QStringLiteral("keyboard-interactive");
        return true;
    }
    if (usedRemembered) m_credentials->forget(credentialKey); // changed meanwhile: ask next time
    if (r == SSH_AUTH_PARTIAL) m_authMethod = QStringLiteral("partial");
    return false;
}

std::unique_ptr<SshChannel> SshSession::openExec(const QString &command, QString *error) {
    if (!isConnected()) {
        *error = QStringLiteral("not connected to %1").arg(m_options.label());
        return nullptr;
    }
    if (m_cancel) {
        *error = QStringLiteral("cancelled");
        return nullptr;
    }
    ssh_channel channel = ssh_channel_new(m_session);
    if (!channel) {
        *error = QStringLiteral("cannot create a channel: %1").arg(libsshError());
        return nullptr;
    }
    if (ssh_channel_open_session(channel) != SSH_OK) {
        *error = QStringLiteral("cannot open a channel to %1: %2").arg(m_options.label(), libsshError());
        ssh_channel_free(channel);
        markDisconnected();
        return nullptr;
    }
    if (ssh_channel_request_exec(channel, command.toUtf8().constData()) != SSH_OK) {
        *error = QStringLiteral("%1 refused to run the command: %2").arg(m_options.label(), libsshError());
        ssh_channel_close(channel);
        ssh_channel_free(channel);
        markDisconnected();
        return nullptr;
    }
    return std::unique_ptr<SshChannel>(new SshChannel(this, channel, m_generation));
}

CommandResult SshSession::exec(const QString &command, const QByteArray &input, int timeoutMs) {
    return execStreaming(command, inputOf(input), timeoutMs);
}

CommandResult SshSession::execStreaming(const QString &command, const InputSource &input, int timeoutMs) {
    CommandResult result;
    QElapsedTimer timer;
    timer.start();
    std::unique_ptr<SshChannel> channel = openExec(command, &result.error);
    if (!channel) return result;
    for (QByteArray block;;) {
        block.clear();
        if (!input(&block)) {
            channel->signal("TERM");
            result.error = QStringLiteral("the input of the command was stopped");
            return result;
        }
        if (block.isEmpty()) break;
        const int left = timeoutMs > 0 ? qMax(1, timeoutMs - int(timer.elapsed())) : 0;
        if (!channel->write(block, &result.error, left)) {
            channel->signal("TERM");
            return result;
        }
        if (channel->inputRefused()) break; // the command ended: its exit status and output tell why
        if (timeoutMs > 0 && timer.elapsed() > timeoutMs) {
            channel->signal("TERM");
            result.error = QStringLiteral("timed out after %1 ms").arg(timeoutMs);
            return result;
        }
    }
    channel->sendEof();
    while (!channel->atEnd()) {
        int slice = 200;
        if (timeoutMs > 0) {
            const int left = timeoutMs - int(timer.elapsed());
            if (left <= 0) {
                channel->signal("TERM");
                result.error = QStringLiteral("timed out after %1 ms").arg(timeoutMs);
                return result;
            }
            slice = qMin(slice, left);
        }
        if (!channel->read(&result.stdoutData, &result.stderrData, slice, &result.error)) {
            if (isCancelled() && isConnected()) channel->signal("TERM");
            return result;
        }
    }
    // Output that arrived together with the EOF.
    channel->read(&result.stdoutData, &result.stderrData, 0, &result.error);
    result.exitCode = channel->exitStatus();
    if (result.exitCode < 0 && result.error.isEmpty())
        result.error = QStringLiteral("the command ended without an exit status (killed by a signal?)");
    return result;
}

bool SshSession::sendKeepalive(QString *error) {
    if (!isConnected()) {
        *error = QStringLiteral("not connected to %1").arg(m_options.label());
        return false;
    }
    const int fd = m_fd.load();
    if (fd >= 0) {
        char byte;
        const ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
            m_connected = false;
            *error = QStringLiteral("the connection to %1 was closed").arg(m_options.label());
            return false;
        }
    }
    if (ssh_send_ignore(m_session, "keepalive") != SSH_OK) {
        m_connected = false;
        *error = QStringLiteral("connection to %1 lost: %2").arg(m_options.label(), libsshError());
        return false;
    }
    return true;
}

sftp_session_struct *SshSession::sftp(QString *error) {
    if (m_sftp) return m_sftp;
    if (!isConnected()) {
        *error = QStringLiteral("not connected to %1").arg(m_options.label());
        return nullptr;
    }
    sftp_session s = sftp_new(m_session);
    if (!s) {
        *error = QStringLiteral("cannot open SFTP on %1: %2").arg(m_options.label(), libsshError());
        markDisconnected();
        return nullptr;
    }
    if (sftp_init(s) != SSH_OK) {
        *error = QStringLiteral("SFTP on %1 failed to start (error %2): %3")
                     .arg(m_options.label())
                     .arg(sftp_get_error(s))
                     .arg(libsshError());
        sftp_free(s);
        markDisconnected();
        return nullptr;
    }
    m_sftp = s;
    return m_sftp;
}

void SshSession::resetSftp() {
    if (m_sftp) {
        sftp_free(m_sftp);
        m_sftp = nullptr;
    }
}

} // namespace diamond::remote
