#include "app/cluster/cluster_run.h"

#include "app/cluster/cluster_connection.h"
#include "app/cluster/cluster_store.h"

#include <QCoreApplication>

namespace diamond::app {

ClusterExecutor *makeClusterExecutor(Workspace &workspace, const QString &profileName, const QJsonObject &execution,
                                     ClusterLinks *links, QString *error) {
    ClusterStore store(workspace);
    const auto profile = store.profile(profileName);
    if (!profile) {
        *error = store.errorString();
        return nullptr;
    }
    const QJsonValue jobValue = execution.value(QStringLiteral("job"));
    if (!jobValue.isUndefined() && !jobValue.isObject()) {
        *error = QCoreApplication::translate("diamond::app::ClusterRun", "job: expected an object");
        return nullptr;
    }
    auto job = remote::jobRequestFromJson(jobValue.toObject(), error);
    if (!job) return nullptr;
    if (const int threads = execution.value(QStringLiteral("threads")).toInt(); threads > 0 && job->engine.threads == 0)
        job->engine.threads = threads;
    auto *executor = links ? new ClusterExecutor(*profile, links->link(*profile))
                           : new ClusterExecutor(*profile, [p = *profile] { return makeClusterRunner(p); });
    executor->setJobTemplate(*job);
    return executor;
}

} // namespace diamond::app
