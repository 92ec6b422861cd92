// The cluster data front ends show and edit: profiles, partitions, queued jobs, and where secrets are kept. The
// desktop app (ui/) reaches the remote layer only through app/; these are the remote layer's value types under the
// application core's names.
#pragma once

#include "remote/cluster_profile.h"
#include "remote/credential_store.h"
#include "remote/scheduler.h"

namespace diamond::app {

using remote::ClusterProfile;
using remote::ContainerRuntime;
using remote::containerRuntimeFromName;
using remote::containerRuntimeName;
using remote::CredentialStore;
using remote::JobPhase;
using remote::jobPhaseName;
using remote::JobStatus;
using remote::KeychainCredentialStore;
using remote::MemoryCredentialStore;
using remote::PartitionInfo;
using remote::SchedulerKind;
using remote::schedulerKindFromName;
using remote::schedulerKindName;

} // namespace diamond::app
