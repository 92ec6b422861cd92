#include "app/cluster/cluster_connection.h"

#include "remote/job_script.h"
#include "remote/ssh_command_runner.h"

#include <QCoreApplication>
#include <QDir>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ClusterConnection", text); }

QString outputOf(const remote::CommandResult &r) {
    QString text = QString::fromUtf8(r.stdoutData + r.stderrData).trimmed();
    if (text.isEmpty()) text = r.error;
    return text.section(QLatin1Char('\n'), 0, 2).replace(QLatin1Char('\n'), QLatin1String("; "));
}

} // namespace

bool isLocalProfile(const remote::ClusterProfile &profile) { return profile.host == QLatin1String("local"); }

std::unique_ptr<remote::CommandRunner> makeClusterRunner(const remote::ClusterProfile &profile,
                                                         remote::SshPrompter *prompter) {
    if (isLocalProfile(profile)) return std::make_unique<remote::LocalCommandRunner>();
    return std::make_unique<remote::SshCommandRunner>(sshOptionsFor(profile), prompter);
}

remote::SshConnectOptions sshOptionsFor(const remote::ClusterProfile &profile) {
    remote::SshConnectOptions o;
    o.host = profile.host;
    o.port = profile.port;
    o.user = profile.user.isEmpty() ? qEnvironmentVariable("USER") : profile.user;
    if (!profile.identityFile.isEmpty()) {
        QString key = profile.identityFile;
        if (key.startsWith(QLatin1String("~/"))) key = QDir::home().filePath(key.mid(2));
        o.identityFiles << key;
    }
    o.knownHostsPath = profile.knownHostsFile.isEmpty() ? QDir::home().filePath(QStringLiteral(".ssh/known_hosts"))
                                                        : profile.knownHostsFile;
    return o;
}

QList<ClusterCheck> testCluster(remote::CommandRunner &runner, const remote::ClusterProfile &p) {
    QList<ClusterCheck> checks;
    remote::CommandResult r = runner.run(QStringLiteral("uname -srm"), {}, 30000);
    checks << ClusterCheck{QStringLiteral("connect"), r.ok(),
                           r.ok() ? tr("%1: %2").arg(runner.describe(), outputOf(r)) : outputOf(r)};
    if (!r.ok()) return checks;
    if (p.scheduler != remote::SchedulerKind::None) {
        const QString command = p.scheduler == remote::SchedulerKind::Slurm ? QStringLiteral("sinfo --version")
                                                                            : QStringLiteral("qstat --version");
        r = runner.run(command, {}, 30000);
        checks << ClusterCheck{QStringLiteral("scheduler"), r.ok(), outputOf(r)};
    }
    const QString probe = remote::shellWord(p.scratchDir + QStringLiteral("/.diamond-write-test"));
    r = runner.run(QStringLiteral("mkdir -p %1 && touch %2 && rm -f %2 && echo writable")
                       .arg(remote::shellWord(p.scratchDir), probe),
                   {}, 30000);
    checks << ClusterCheck{QStringLiteral("scratch_dir"), r.ok(), p.scratchDir + QStringLiteral(": ") + outputOf(r)};
    QString engineCommand = remote::shellWord(p.enginePath) + QStringLiteral(" --version");
    if (p.container.runtime != remote::ContainerRuntime::None) {
        const QString runtime = remote::shellWord(p.container.program());
        r = runner.run(QStringLiteral("%1 --version").arg(runtime), {}, 30000);
        checks << ClusterCheck{QStringLiteral("container"), r.ok(), outputOf(r)};
        engineCommand = QStringLiteral("%1 %2 %3 %4 --version")
                            .arg(runtime,
                                 p.container.runtime == remote::ContainerRuntime::Apptainer ||
                                         p.container.runtime == remote::ContainerRuntime::Singularity
                                     ? QStringLiteral("exec")
                                     : QStringLiteral("run --rm"),
                                 remote::shellWord(p.container.image), remote::shellWord(p.enginePath));
    }
    r = runner.run(engineCommand, {}, 120000);
    checks << ClusterCheck{QStringLiteral("engine"), r.ok() && r.stdoutData.contains("diamond-train"), outputOf(r)};
    return checks;
}

QJsonObject checkJson(const ClusterCheck &c) {
    return {{QStringLiteral("check"), c.name}, {QStringLiteral("ok"), c.ok}, {QStringLiteral("detail"), c.detail}};
}

} // namespace diamond::app
