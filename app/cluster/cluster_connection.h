// Reaching a cluster profile's host: the CommandRunner for it (SSH, or this machine for host "local") and the
// connection test behind `diamondctl cluster test` and the cluster manager's "Test" button.
// Blocking (see CommandRunner): call from a worker thread or a command-line tool.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/command_runner.h"
#include "remote/ssh_session.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

namespace diamond::app {

/// The SSH settings for a profile: host, port, user (default $USER), identity file (~ expanded), known_hosts
/// (default ~/.ssh/known_hosts). Used by makeClusterRunner() and the GUI's cluster client alike.
remote::SshConnectOptions sshOptionsFor(const remote::ClusterProfile &profile);

/// True when the profile means this machine (host "local"): commands run here, no SSH.
bool isLocalProfile(const remote::ClusterProfile &profile);
/// A runner for the profile: LocalCommandRunner for host "local", else SshCommandRunner (keys from
/// identity_file and ssh-agent; known hosts from known_hosts_file or ~/.ssh/known_hosts; strict checking; password
/// and keyboard-interactive through `prompter`, none without one; secrets kept in memory for reconnects).
/// Front ends reach clusters through ClusterLink, which builds its runner with this.
std::unique_ptr<remote::CommandRunner> makeClusterRunner(const remote::ClusterProfile &profile,
                                                         remote::SshPrompter *prompter = nullptr);

/// One check of a connection test.
struct ClusterCheck {
    QString name; ///< "connect", "scheduler", "scratch_dir", "engine", "container"
    bool ok = false;
    QString detail; ///< what was found, or why it failed
};

/// Runs the checks: a command runs, the scheduler's client answers, the scratch folder is writable, the engine
/// (or the container runtime) starts and prints its version.
QList<ClusterCheck> testCluster(remote::CommandRunner &runner, const remote::ClusterProfile &profile);
QJsonObject checkJson(const ClusterCheck &check);

} // namespace diamond::app
