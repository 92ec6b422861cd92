#include "app/cluster/cluster_client.h"

#include "app/plan/cluster_calibration.h"
#include "remote/command_runner.h"

namespace diamond::app {

ClusterClient::ClusterClient(ClusterLinks *links, QObject *parent) : QObject(parent), links_(links) {
    qRegisterMetaType<ClusterTestResult>();
    qRegisterMetaType<ClusterProbeResult>();
    qRegisterMetaType<ClusterCalibrationResult>();
    qRegisterMetaType<ClusterQueueResult>();
    qRegisterMetaType<ClusterDeployResult>();
}

int ClusterClient::post(const remote::ClusterProfile &profile,
                        std::function<void(ClusterLink &, int, const Reply &)> work) {
    const int id = nextId_++;
    ++pending_;
    ClusterLink *link = links_->link(profile);
    if (!relayed_.contains(link)) {
        relayed_.insert(link);
        connect(link, &ClusterLink::progress, this, [this](const QString &m) { Q_EMIT progress(nextId_ - 1, m); });
    }
    Reply reply{links_, QPointer<ClusterClient>(this)};
    link->post([link, id, reply, work = std::move(work)] { work(*link, id, reply); });
    return id;
}

void ClusterClient::Reply::progress(int id, const QString &text) const {
    QMetaObject::invokeMethod(
        context,
        [self = client, id, text] {
            if (self) Q_EMIT self->progress(id, text);
        },
        Qt::QueuedConnection);
}

void ClusterClient::Reply::finish(std::function<void(ClusterClient *)> f) const {
    // Called on the link's thread. The registry outlives every link thread (its destructor joins them), so it is a
    // safe context; the client may be gone by the time the result arrives.
    QMetaObject::invokeMethod(
        context,
        [self = client, f = std::move(f)] {
            if (!self) return;
            --self->pending_;
            f(self);
        },
        Qt::QueuedConnection);
}

int ClusterClient::testConnection(const remote::ClusterProfile &profile) {
    return post(profile, [profile](ClusterLink &link, int id, const Reply &reply) {
        ClusterTestResult result;
        QString error;
        remote::CommandRunner *runner = link.runner(&error);
        result.fingerprint = link.hostKeyFingerprint();
        result.hostKeyRefused = link.hostKeyRefused();
        if (runner) {
            reply.progress(id, tr("Running the checks on %1…").arg(runner->describe()));
            result.checks = testCluster(*runner, profile);
            result.ok = !result.checks.isEmpty();
            for (const auto &c : std::as_const(result.checks))
                result.ok = result.ok && c.ok;
        } else {
            result.error = error;
        }
        reply.finish([id, result](ClusterClient *c) { Q_EMIT c->testFinished(id, result); });
    });
}

int ClusterClient::probe(const remote::ClusterProfile &profile) {
    return post(profile, [](ClusterLink &link, int id, const Reply &reply) {
        ClusterProbeResult result;
        QString error;
        if (remote::Scheduler *scheduler = link.scheduler(&error)) {
            if (auto partitions = scheduler->probe(&error)) {
                result.ok = true;
                result.partitions = *partitions;
            }
        }
        result.error = result.ok ? QString() : error;
        reply.finish([id, result](ClusterClient *c) { Q_EMIT c->probeFinished(id, result); });
    });
}

int ClusterClient::fetchQueue(const remote::ClusterProfile &profile) {
    return post(profile, [](ClusterLink &link, int id, const Reply &reply) {
        ClusterQueueResult result;
        QString error;
        // The queue view refreshes on a timer: it never asks for a sign-in the user declined.
        if (remote::Scheduler *scheduler = link.scheduler(&error, ClusterLink::Access::Background)) {
            if (auto jobs = scheduler->queue(&error)) {
                result.ok = true;
                result.jobs = *jobs;
            }
        }
        result.error = result.ok ? QString() : error;
        reply.finish([id, result](ClusterClient *c) { Q_EMIT c->queueFinished(id, result); });
    });
}

int ClusterClient::calibrate(const remote::ClusterProfile &profile, const QString &partition) {
    return post(profile, [profile, partition](ClusterLink &link, int id, const Reply &reply) {
        ClusterCalibrationResult result;
        result.partition = partition;
        reply.progress(id, tr("Calibrating a node of %1…").arg(partition.isEmpty() ? profile.name : partition));
        if (remote::CommandRunner *runner = link.runner(&result.error))
            if (auto measured = runClusterCalibration(*runner, profile, partition, &result.error)) {
                result.ok = true;
                result.profile = *measured;
            }
        reply.finish([id, result](ClusterClient *c) { Q_EMIT c->calibrateFinished(id, result); });
    });
}

int ClusterClient::cancelJob(const remote::ClusterProfile &profile, const QString &jobId) {
    return post(profile, [jobId](ClusterLink &link, int id, const Reply &reply) {
        QString error;
        bool ok = false;
        if (remote::Scheduler *scheduler = link.scheduler(&error)) ok = scheduler->cancel(jobId, &error);
        reply.finish([id, ok, error](ClusterClient *c) { Q_EMIT c->cancelFinished(id, ok, ok ? QString() : error); });
    });
}

int ClusterClient::deployEngine(const remote::ClusterProfile &profile, const EngineDeployOptions &options) {
    return post(profile, [profile, options](ClusterLink &link, int id, const Reply &reply) {
        ClusterDeployResult result;
        result.options = options;
        if (remote::CommandRunner *runner = link.runner(&result.error)) {
            auto deployed = app::deployEngine(
                *runner, profile, options, [&reply, id](const QString &step) { reply.progress(id, step); },
                &result.error);
            if (deployed) {
                result.ok = true;
                result.deployment = *deployed;
            }
        }
        reply.finish([id, result](ClusterClient *c) { Q_EMIT c->deployFinished(id, result); });
    });
}

void ClusterClient::disconnectHost(const remote::ClusterProfile &profile) {
    ClusterLink *link = links_->link(profile);
    link->post([link] { link->disconnect(); });
}

} // namespace diamond::app
