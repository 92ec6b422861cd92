#include "ui/cluster/cluster_overview_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {
constexpr int kIntervalMs = 30000;
enum Column { Cluster, State, Nodes, Cpus, Jobs, FairShare, Updated, Problem, ColumnCount };
} // namespace

ClusterOverviewView::ClusterOverviewView(QWidget *parent) : QWidget(parent) {
    setObjectName(QStringLiteral("clusterOverview"));
    auto *v = new QVBoxLayout(this);
    tree_ = new QTreeWidget(this);
    tree_->setObjectName(QStringLiteral("overviewTree"));
    tree_->setColumnCount(ColumnCount);
    tree_->setHeaderLabels({tr("Cluster"), tr("State"), tr("Nodes idle / allocated"), tr("CPUs in use"),
                            tr("Your jobs"), tr("Fair share"), tr("Updated"), tr("Problem")});
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setSectionResizeMode(Problem, QHeaderView::Stretch);
    tree_->setAlternatingRowColors(true);
    tree_->setWordWrap(true);
    v->addWidget(tree_, 1);
    auto *bar = new QHBoxLayout;
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("overviewSummary"));
    refreshButton_ = new QPushButton(tr("&Refresh all"), this);
    refreshButton_->setObjectName(QStringLiteral("overviewRefresh"));
    refreshButton_->setToolTip(tr("Read every cluster now (also every 30 s while this tab is shown)"));
    bar->addWidget(summary_, 1);
    bar->addWidget(refreshButton_);
    v->addLayout(bar);
    connect(refreshButton_, &QPushButton::clicked, this, &ClusterOverviewView::refresh);
}

void ClusterOverviewView::setLinks(app::ClusterLinks *links) {
    delete overview_;
    overview_ = new app::ClusterOverview(links, this);
    overview_->setProfiles(profiles_);
    connect(overview_, &app::ClusterOverview::entryChanged, this, &ClusterOverviewView::rebuild);
    connect(overview_, &app::ClusterOverview::refreshFinished, this, &ClusterOverviewView::rebuild);
    if (isVisible()) overview_->setInterval(kIntervalMs);
    rebuild();
}

void ClusterOverviewView::setProfiles(const QList<remote::ClusterProfile> &profiles) {
    profiles_ = profiles;
    if (overview_) overview_->setProfiles(profiles);
    rebuild();
}

void ClusterOverviewView::refresh() {
    if (!overview_) return;
    summary_->setText(tr("Reading %n cluster(s)…", nullptr, int(profiles_.size())));
    overview_->refresh();
}

void ClusterOverviewView::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (!overview_) return;
    overview_->setInterval(kIntervalMs);
    refresh();
}

void ClusterOverviewView::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    if (overview_) overview_->setInterval(0);
}

void ClusterOverviewView::rebuild() {
    tree_->clear();
    if (!overview_) return;
    int reachable = 0, stale = 0;
    const QColor warn = palette().color(QPalette::Disabled, QPalette::WindowText);
    for (const app::ClusterStatusEntry &e : overview_->entries()) {
        auto *item = new QTreeWidgetItem(tree_);
        item->setText(Cluster, e.cluster);
        const bool never = !e.refreshedAt.isValid();
        item->setText(State, e.reachable && !e.stale      ? tr("reachable")
                             : never && e.error.isEmpty() ? tr("reading…")
                             : e.reachable                ? tr("stale")
                                                          : tr("unreachable"));
        item->setText(Problem, e.error);
        item->setToolTip(Problem, e.error);
        item->setToolTip(State, e.error);
        if (e.stale && !(never && e.error.isEmpty())) {
            ++stale;
            item->setForeground(State, QColor(0xb3, 0x26, 0x1e));
            for (int c = Nodes; c < ColumnCount; ++c)
                item->setForeground(c, warn);
        } else if (e.reachable) {
            ++reachable;
        }
        int idle = 0, allocated = 0;
        for (const remote::PartitionLoad &p : e.partitions) {
            idle += p.nodesIdle;
            allocated += p.nodesAllocated;
            auto *child = new QTreeWidgetItem(item);
            child->setText(Cluster, p.isDefault ? tr("%1 (default)").arg(p.name) : p.name);
            child->setText(Nodes, tr("%1 / %2 of %3").arg(p.nodesIdle).arg(p.nodesAllocated).arg(p.nodesTotal));
            child->setText(Cpus, tr("%1 of %2").arg(p.cpusAllocated).arg(p.cpusTotal));
            if (e.stale)
                for (int c = Cluster; c < ColumnCount; ++c)
                    child->setForeground(c, warn);
        }
        if (!e.partitions.isEmpty()) item->setText(Nodes, tr("%1 / %2").arg(idle).arg(allocated));
        QStringList jobs;
        for (const remote::JobStatus &j : e.jobs) {
            jobs << (j.reason.isEmpty() || j.reason == QLatin1String("None")
                         ? tr("%1 %2").arg(j.jobId, j.state)
                         : tr("%1 %2 (%3)").arg(j.jobId, j.state, j.reason));
        }
        item->setText(Jobs, e.refreshedAt.isValid() ? (jobs.isEmpty() ? tr("none") : jobs.join(QStringLiteral(", ")))
                                                    : QString());
        QStringList shares;
        for (const remote::FairShare &s : e.shares)
            shares << tr("%1: %2").arg(s.account, QLocale().toString(s.fairShare, 'f', 2));
        item->setText(FairShare, shares.isEmpty() && e.refreshedAt.isValid() ? tr("not reported")
                                                                             : shares.join(QStringLiteral(", ")));
        item->setToolTip(FairShare, e.sharesNote);
        item->setText(Updated, e.refreshedAt.isValid()
                                   ? QLocale().toString(e.refreshedAt.toLocalTime().time(), QLocale::ShortFormat)
                                   : QString());
        item->setExpanded(true);
    }
    if (overview_->pendingCount() == 0 || stale > 0)
        summary_->setText(
            tr("%1 reachable, %2 stale, %3 reading").arg(reachable).arg(stale).arg(overview_->pendingCount()));
}

} // namespace diamond::ui
