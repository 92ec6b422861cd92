// The Clusters page's "All clusters" tab: every cluster profile in one tree — reachable or stale (with the reason),
// each partition's idle and allocated nodes, your jobs with their state and reason, and the fair share where the
// scheduler reports it. Read in the background through app::ClusterOverview, every 30 s while the tab is shown.
#pragma once

#include "app/cluster/cluster_overview.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace diamond::ui {

class ClusterOverviewView : public QWidget {
    Q_OBJECT
public:
    explicit ClusterOverviewView(QWidget *parent = nullptr);

    /// Reads through `links` (not owned); replaces the overview (and its figures).
    void setLinks(app::ClusterLinks *links);
    void setProfiles(const QList<remote::ClusterProfile> &profiles);
    app::ClusterOverview *overview() const { return overview_; }
    QTreeWidget *tree() const { return tree_; }
    /// Reads every cluster now.
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void rebuild();

    app::ClusterOverview *overview_ = nullptr;
    QList<remote::ClusterProfile> profiles_;
    QTreeWidget *tree_;
    QPushButton *refreshButton_;
    QLabel *summary_;
};

} // namespace diamond::ui
