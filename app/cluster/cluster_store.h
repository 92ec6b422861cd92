// Cluster profiles of a workspace (table cluster_profiles: name, host, port, username, scheduler columns plus
// config_json for the rest of remote::ClusterProfile). Same threading rules as RunStore: the workspace's thread.
#pragma once

#include "app/workspace/workspace.h"
#include "remote/cluster_profile.h"

#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

class ClusterStore {
public:
    /// `workspace` must be open and outlive this object.
    explicit ClusterStore(Workspace &workspace) : ws_(workspace) {}

    QString errorString() const { return error_; }

    /// Stores a new profile (validated); fails when the name is taken.
    bool add(const remote::ClusterProfile &profile);
    /// Replaces the stored profile of the same name.
    bool update(const remote::ClusterProfile &profile);
    bool remove(const QString &name);
    /// nullopt with errorString() when there is no such profile (or its stored JSON is invalid).
    std::optional<remote::ClusterProfile> profile(const QString &name);
    /// All profiles by name; unreadable rows are skipped (errorString() names them).
    QList<remote::ClusterProfile> profiles();

private:
    bool fail(const QString &message);

    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app
