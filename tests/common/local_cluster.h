// A private "HPC cluster" on 127.0.0.1 for integration tests: sshd (keys only, test user diamondtest)
// and optionally munge + slurmctld + slurmd, started by tests/fixtures/local-cluster/start.sh and stopped
// (folder removed) by stop.sh when the object is destroyed. Several instances may run at once.
//
//     diamond::test::LocalCluster cluster(diamond::test::LocalCluster::Mode::SshOnly);
//     QVERIFY2(cluster.start(), qPrintable(cluster.log()));   // fails with start.sh's output
//     ... cluster.host(), cluster.port(), cluster.user(), cluster.keyPath(), cluster.knownHostsPath() ...
//
// Needs root and the packages of packaging/install-deps.sh; start() returns false (never skips) otherwise.
// Set DIAMOND_KEEP_LOCAL_CLUSTER=1 to leave the instance running for debugging (its folder is in log()).
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <QThread>

#include <csignal>
#include <cstdlib>

namespace diamond::test {

class LocalCluster {
public:
    enum class Mode {
        SshOnly, ///< sshd only (~0.3 s)
        Slurm    ///< sshd + munged + slurmctld + slurmd (~1-4 s); SLURM_CONF is in environment()
    };

    explicit LocalCluster(Mode mode = Mode::Slurm) : m_mode(mode) {}
    /// Before start(): also create a user of this instance only that logs in by password or keyboard-interactive
    /// (passwordUser(), password()); sshd then runs with PAM.
    void enablePasswordUser() { m_passwordUser = true; }
    LocalCluster(const LocalCluster &) = delete;
    LocalCluster &operator=(const LocalCluster &) = delete;
    ~LocalCluster() { stop(); }

    static QString fixtureDir() { return QStringLiteral(DIAMOND_SOURCE_DIR "/tests/fixtures/local-cluster"); }

    /// Starts the instance (in a new folder, or again in the same folder after stopSshd()). False when it could
    /// not start; log() then holds the script's output.
    bool start(int timeoutMs = 120000) {
        QStringList args;
        if (m_mode == Mode::SshOnly) args << QStringLiteral("--ssh-only");
        if (m_passwordUser) args << QStringLiteral("--password-user");
        args << QStringLiteral("--owner-pid") << QString::number(QCoreApplication::applicationPid());
        const bool fresh = m_base.isEmpty();
        if (fresh) { // our own folder, so that a failed start can still be cleaned up
            QByteArray pattern = QDir::tempPath().toLocal8Bit() + "/diamond-lc.XXXXXX";
            if (!mkdtemp(pattern.data())) {
                m_log = QStringLiteral("cannot create a folder under %1").arg(QDir::tempPath());
                return false;
            }
            m_base = QString::fromLocal8Bit(pattern);
        }
        args << m_base;
        QByteArray out;
        QElapsedTimer timer;
        timer.start();
        const bool ok = runScript(QStringLiteral("start.sh"), args, timeoutMs, &out);
        m_startMs = timer.elapsed();
        if (!ok) {
            if (fresh) {
                const QString startLog = m_log;
                stop();
                m_log = startLog;
            }
            return false;
        }
        m_vars.clear();
        static const QRegularExpression line(QStringLiteral("^export ([A-Za-z_][A-Za-z0-9_]*)=(.*)$"));
        for (const QByteArray &l : out.split('\n')) {
            const auto match = line.match(QString::fromLocal8Bit(l));
            if (match.hasMatch()) m_vars.insert(match.captured(1), match.captured(2));
        }
        m_base = value(QStringLiteral("LOCAL_CLUSTER_BASE"));
        if (m_base.isEmpty() || port() <= 0) {
            m_log += QStringLiteral("\nstart.sh printed no LOCAL_CLUSTER_BASE / LOCAL_CLUSTER_SSH_PORT export lines");
            return false;
        }
        m_running = true;
        return true;
    }

    /// Stops every daemon of the instance and removes its folder (unless DIAMOND_KEEP_LOCAL_CLUSTER=1).
    bool stop(int timeoutMs = 60000) {
        if (m_base.isEmpty()) return true;
        if (qEnvironmentVariableIntValue("DIAMOND_KEEP_LOCAL_CLUSTER") == 1) return true;
        QByteArray out;
        const bool ok = runScript(QStringLiteral("stop.sh"), {QStringLiteral("--remove"), m_base}, timeoutMs, &out);
        QDir().rmdir(m_base); // still there (empty) when start.sh failed before making it an instance
        m_running = false;
        m_base.clear();
        return ok;
    }

    /// Stops only sshd and drops every open connection; start() brings it back on the same port and host key.
    bool stopSshd(int timeoutMs = 30000) {
        QByteArray out;
        return runScript(QStringLiteral("stop.sh"), {QStringLiteral("--sshd-only"), m_base}, timeoutMs, &out);
    }

    /// Stops only slurmctld (TERM to the pid in its pid file; true once it is gone): the scheduler stops answering.
    bool stopSlurmctld(int timeoutMs = 30000) {
        QFile pidFile(m_base + QStringLiteral("/slurm/run/slurmctld.pid"));
        if (!pidFile.open(QIODevice::ReadOnly)) return false;
        const pid_t pid = pid_t(pidFile.readAll().trimmed().toLong());
        if (pid <= 1 || ::kill(pid, SIGTERM) != 0) return false;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            if (::kill(pid, 0) != 0) return true;
            QThread::msleep(50);
        }
        return false;
    }

    bool isRunning() const { return m_running; }
    /// Output of the last script run (stderr and stdout), for failure messages.
    QString log() const { return m_log; }
    qint64 startMilliseconds() const { return m_startMs; }

    QString value(const QString &name) const { return m_vars.value(name); }
    QString baseDir() const { return m_base; }
    QString host() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_HOST")); }
    int port() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_PORT")).toInt(); }
    QString user() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_USER")); }
    QString keyPath() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_KEY")); }
    QString passphraseKeyPath() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_KEY_WITH_PASSPHRASE")); }
    QString keyPassphrase() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_KEY_PASSPHRASE")); }
    QString knownHostsPath() const { return value(QStringLiteral("LOCAL_CLUSTER_KNOWN_HOSTS")); }
    QString hostKeyPubPath() const { return value(QStringLiteral("LOCAL_CLUSTER_HOST_KEY_PUB")); }
    QString sshConfigPath() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_CONFIG")); }
    QString sshAlias() const { return value(QStringLiteral("LOCAL_CLUSTER_SSH_ALIAS")); }
    QString scratchDir() const { return value(QStringLiteral("LOCAL_CLUSTER_SCRATCH")); }
    QString userHome() const { return value(QStringLiteral("LOCAL_CLUSTER_USER_HOME")); }
    QString slurmConf() const { return value(QStringLiteral("SLURM_CONF")); }
    QString partition() const { return value(QStringLiteral("LOCAL_CLUSTER_SLURM_PARTITION")); }
    QString passwordUser() const { return value(QStringLiteral("LOCAL_CLUSTER_PASSWORD_USER")); }
    QString password() const {
        QFile f(value(QStringLiteral("LOCAL_CLUSTER_PASSWORD_FILE")));
        return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll().trimmed()) : QString();
    }
    /// This process's environment plus every export of start.sh (SLURM_CONF for local scontrol/squeue).
    QProcessEnvironment environment() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (auto it = m_vars.cbegin(); it != m_vars.cend(); ++it)
            env.insert(it.key(), it.value());
        return env;
    }

    /// Arguments for the OpenSSH client (`ssh ARGS command`): this instance's config file and host alias.
    QStringList sshArgs() const {
        return {QStringLiteral("-F"), sshConfigPath(), QStringLiteral("-o"), QStringLiteral("ConnectTimeout=10"),
                sshAlias()};
    }
    /// Runs `command` as the test user through the OpenSSH client; returns its exit code (-1: did not finish).
    int ssh(const QString &command, QByteArray *out = nullptr, QByteArray *err = nullptr, int timeoutMs = 60000) const {
        QProcess p;
        p.start(QStringLiteral("ssh"), sshArgs() << command);
        p.closeWriteChannel();
        const bool finished = p.waitForFinished(timeoutMs);
        if (!finished) {
            p.kill();
            p.waitForFinished(5000);
        }
        if (out) *out = p.readAllStandardOutput();
        if (err) *err = p.readAllStandardError();
        return finished && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

private:
    bool runScript(const QString &script, const QStringList &args, int timeoutMs, QByteArray *out) {
        const QString path = QDir(fixtureDir()).filePath(script);
        m_log = QStringLiteral("$ %1 %2\n").arg(path, args.join(QLatin1Char(' ')));
        if (!QFile::exists(path)) {
            m_log += QStringLiteral("fixture script not found");
            return false;
        }
        QProcess p;
        p.start(QStringLiteral("/bin/bash"), QStringList{path} << args);
        p.closeWriteChannel();
        if (!p.waitForStarted(10000)) {
            m_log += QStringLiteral("could not run bash: %1").arg(p.errorString());
            return false;
        }
        const bool finished = p.waitForFinished(timeoutMs);
        if (!finished) {
            p.kill();
            p.waitForFinished(5000);
        }
        *out = p.readAllStandardOutput();
        m_log += QString::fromLocal8Bit(p.readAllStandardError()) + QString::fromLocal8Bit(*out);
        if (!finished) {
            m_log += QStringLiteral("\n%1 timed out after %2 ms").arg(script).arg(timeoutMs);
            return false;
        }
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            m_log += QStringLiteral("\n%1 failed with exit code %2").arg(script).arg(p.exitCode());
            return false;
        }
        return true;
    }

    Mode m_mode;
    QString m_base;
    QHash<QString, QString> m_vars;
    QString m_log;
    qint64 m_startMs = 0;
    bool m_running = false;
    bool m_passwordUser = false;
};

} // namespace diamond::test
