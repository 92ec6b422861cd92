#include "app/cluster/cluster_overview.h"

#include "app/cluster/cluster_connection.h"
#include "remote/command_runner.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace diamond::app {

namespace {
QString tr(const char *text) { return QCoreApplication::translate("diamond::app::ClusterOverview", text); }
} // namespace

QJsonObject ClusterStatusEntry::toJson() const {
    QJsonArray parts, jobList, shareList;
    for (const remote::PartitionLoad &p : partitions)
        parts.append(QJsonObject{{QStringLiteral("name"), p.name},
                                 {QStringLiteral("default"), p.isDefault},
                                 {QStringLiteral("nodes_allocated"), p.nodesAllocated},
                                 {QStringLiteral("nodes_idle"), p.nodesIdle},
                                 {QStringLiteral("nodes_other"), p.nodesOther},
                                 {QStringLiteral("nodes_total"), p.nodesTotal},
                                 {QStringLiteral("cpus_allocated"), p.cpusAllocated},
                                 {QStringLiteral("cpus_idle"), p.cpusIdle},
                                 {QStringLiteral("cpus_total"), p.cpusTotal}});
    for (const remote::JobStatus &j : jobs)
        jobList.append(QJsonObject{{QStringLiteral("job_id"), j.jobId},
                                   {QStringLiteral("phase"), remote::jobPhaseName(j.phase)},
                                   {QStringLiteral("state"), j.state},
                                   {QStringLiteral("reason"), j.reason},
                                   {QStringLiteral("run_s"), j.runSeconds},
                                   {QStringLiteral("nodes"), j.nodes}});
    for (const remote::FairShare &s : shares)
        shareList.append(QJsonObject{{QStringLiteral("account"), s.account},
                                     {QStringLiteral("fair_share"), s.fairShare},
                                     {QStringLiteral("effective_usage"), s.effectiveUsage}});
    QJsonObject o{{QStringLiteral("cluster"), cluster}, {QStringLiteral("reachable"), reachable},
                  {QStringLiteral("stale"), stale},     {QStringLiteral("partitions"), parts},
                  {QStringLiteral("jobs"), jobList},    {QStringLiteral("fair_share"), shareList}};
    if (!error.isEmpty()) o.insert(QStringLiteral("error"), error);
    if (refreshedAt.isValid()) {
        o.insert(QStringLiteral("refreshed_at"), refreshedAt.toString(Qt::ISODate));
        o.insert(QStringLiteral("read_s"), readSeconds);
    }
    if (!sharesNote.isEmpty()) o.insert(QStringLiteral("fair_share_note"), sharesNote);
    return o;
}

ClusterStatusEntry readClusterStatus(remote::Scheduler &scheduler, const QString &cluster) {
    QElapsedTimer clock;
    clock.start();
    ClusterStatusEntry e;
    e.cluster = cluster;
    QString error;
    const auto queue = scheduler.queue(&error);
    if (!queue) {
        e.error = error;
        return e;
    }
    e.reachable = true;
    e.stale = false;
    e.jobs = *queue;
    if (const auto load = scheduler.load(&error))
        e.partitions = *load;
    else
        e.error = error;
    if (const auto shares = scheduler.fairShare(&error))
        e.shares = *shares;
    else
        e.sharesNote = error;
    e.refreshedAt = QDateTime::currentDateTimeUtc();
    e.readSeconds = double(clock.elapsed()) / 1000.0;
    return e;
}

QList<ClusterStatusEntry> readAllClusterStatus(const QList<remote::ClusterProfile> &profiles, int timeoutMs) {
    struct Shared {
        std::mutex mutex;
        std::condition_variable done;
        QMap<QString, ClusterStatusEntry> read;
    };
    auto shared = std::make_shared<Shared>();
    for (const remote::ClusterProfile &profile : profiles) {
        std::thread([shared, profile] {
            ClusterStatusEntry e;
            e.cluster = profile.name;
            std::unique_ptr<remote::CommandRunner> runner = makeClusterRunner(profile);
            std::unique_ptr<remote::Scheduler> scheduler =
                runner ? remote::makeScheduler(profile.scheduler, *runner) : nullptr;
            if (scheduler)
                e = readClusterStatus(*scheduler, profile.name);
            else
                e.error = tr("No batch scheduler: nothing to show but the profile.");
            const std::lock_guard<std::mutex> lock(shared->mutex);
            shared->read.insert(profile.name, e);
            shared->done.notify_all();
        }).detach();
    }
    std::unique_lock<std::mutex> lock(shared->mutex);
    shared->done.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                          [&] { return shared->read.size() >= profiles.size(); });
    QList<ClusterStatusEntry> out;
    for (const remote::ClusterProfile &profile : profiles) {
        ClusterStatusEntry e = shared->read.value(profile.name);
        if (!shared->read.contains(profile.name)) {
            e.cluster = profile.name;
            e.error = tr("no answer within %1 s").arg(timeoutMs / 1000);
        }
        out << e;
    }
    return out;
}

ClusterOverview::ClusterOverview(ClusterLinks *links, QObject *parent)
    : QObject(parent), links_(links), timer_(new QTimer(this)), deadline_(new QTimer(this)),
      alive_(std::make_shared<bool>(true)) {
    connect(timer_, &QTimer::timeout, this, &ClusterOverview::refresh);
    deadline_->setSingleShot(true);
    connect(deadline_, &QTimer::timeout, this, &ClusterOverview::checkDeadline);
}

ClusterOverview::~ClusterOverview() { *alive_ = false; }

void ClusterOverview::setProfiles(const QList<remote::ClusterProfile> &profiles) {
    profiles_ = profiles;
    QMap<QString, ClusterStatusEntry> kept;
    for (const remote::ClusterProfile &p : profiles) {
        ClusterStatusEntry e = entries_.value(p.name);
        e.cluster = p.name;
        kept.insert(p.name, e);
    }
    entries_ = kept;
    for (auto it = pending_.begin(); it != pending_.end();)
        it = entries_.contains(it.key()) ? std::next(it) : pending_.erase(it);
    for (auto it = again_.begin(); it != again_.end();)
        it = entries_.contains(*it) ? std::next(it) : again_.erase(it);
}

int ClusterOverview::deadlineMs() const {
    return intervalMs_ > 0 ? std::min(staleAfterMs_, intervalMs_) : staleAfterMs_;
}

void ClusterOverview::setInterval(int ms) {
    intervalMs_ = std::max(0, ms);
    if (intervalMs_ > 0)
        timer_->start(intervalMs_);
    else
        timer_->stop();
}

void ClusterOverview::refresh() {
    for (const remote::ClusterProfile &profile : std::as_const(profiles_)) {
        if (pending_.contains(profile.name)) {
            // Still reading what was asked before this refresh: read again once that answers, so that the result
            // reflects the cluster after the refresh was asked for; checkDeadline() marks it stale meanwhile.
            again_.insert(profile.name);
            continue;
        }
        if (profile.scheduler == remote::SchedulerKind::None) {
            ClusterStatusEntry &e = entries_[profile.name];
            e.error = tr("No batch scheduler: nothing to show but the profile.");
            e.stale = true;
            Q_EMIT entryChanged(profile.name);
            continue;
        }
        read(profile);
    }
    deadline_->start(deadlineMs());
    if (pending_.isEmpty()) Q_EMIT refreshFinished();
}

void ClusterOverview::read(const remote::ClusterProfile &profile) {
    pending_[profile.name].start();
    ClusterLink *link = links_->link(profile);
    const QString name = profile.name;
    QPointer<ClusterOverview> self(this);
    std::shared_ptr<bool> alive = alive_;
    link->post([link, name, self, alive, links = links_] {
        QString error;
        ClusterStatusEntry read;
        read.cluster = name;
        if (remote::Scheduler *scheduler = link->scheduler(&error, ClusterLink::Access::Background))
            read = readClusterStatus(*scheduler, name);
        else
            read.error = error;
        // The registry outlives every link thread: a safe context; the overview may be gone by then.
        QMetaObject::invokeMethod(
            links,
            [self, alive, read] {
                if (*alive && self) self->answered(read);
            },
            Qt::QueuedConnection);
    });
}

void ClusterOverview::answered(const ClusterStatusEntry &result) {
    if (!pending_.remove(result.cluster) || !entries_.contains(result.cluster)) return;
    ClusterStatusEntry &e = entries_[result.cluster];
    if (result.reachable) {
        e = result;
    } else {
        // Unreachable: stale at once, the last good figures kept for display.
        e.reachable = false;
        e.stale = true;
        e.error = result.error;
    }
    Q_EMIT entryChanged(result.cluster);
    if (again_.remove(result.cluster)) {
        for (const remote::ClusterProfile &profile : std::as_const(profiles_))
            if (profile.name == result.cluster) read(profile);
        if (!deadline_->isActive()) deadline_->start(deadlineMs());
    }
    if (pending_.isEmpty()) {
        deadline_->stop();
        Q_EMIT refreshFinished();
    }
}

void ClusterOverview::checkDeadline() {
    bool marked = false;
    qint64 next = -1; // the soonest deadline of a read not due yet (one asked again after its refresh)
    for (auto it = pending_.cbegin(); it != pending_.cend(); ++it) {
        const qint64 left = deadlineMs() - it.value().elapsed();
        if (left > 50) {
            next = next < 0 ? left : std::min(next, left);
            continue;
        }
        if (!entries_.contains(it.key())) continue;
        ClusterStatusEntry &e = entries_[it.key()];
        e.stale = true;
        e.error = tr("no answer for %1 s").arg((it.value().elapsed() + 500) / 1000);
        Q_EMIT entryChanged(it.key());
        marked = true;
    }
    if (next > 0) deadline_->start(int(next));
    if (marked) Q_EMIT refreshFinished();
}

QList<ClusterStatusEntry> ClusterOverview::entries() const {
    QList<ClusterStatusEntry> out;
    for (const remote::ClusterProfile &p : profiles_)
        out << entries_.value(p.name);
    return out;
}

ClusterStatusEntry ClusterOverview::entry(const QString &cluster) const { return entries_.value(cluster); }

} // namespace diamond::app
