// ClusterManagerPage: the actions that talk to a cluster (connection test, probe, job list, cancel) and the
// prompts they raise (host key, passphrase, password, keyboard-interactive). All asynchronous via app::ClusterClient.
#include "ui/cluster/cluster_manager_page.h"

#include "app/cluster/cluster_store.h"
#include "ui/cluster/cluster_models.h"
#include "ui/cluster/cluster_overview_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTime>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace diamond::ui {

QWidget *ClusterManagerPage::buildJobsTab() {
    auto *tab = new QWidget;
    auto *v = new QVBoxLayout(tab);
    auto *bar = new QHBoxLayout;
    m_refreshButton = new QPushButton(tr("Refresh"));
    m_cancelJobButton = new QPushButton(tr("Cancel job"));
    m_autoRefresh = new QCheckBox(tr("Refresh every 10 s"));
    m_autoRefresh->setChecked(true);
    bar->addWidget(m_refreshButton);
    bar->addWidget(m_cancelJobButton);
    bar->addWidget(m_autoRefresh);
    bar->addStretch(1);
    v->addLayout(bar);
    m_jobsView = new QTableView;
    m_jobsView->setObjectName(QStringLiteral("jobsView"));
    m_jobsView->setModel(m_jobs);
    m_jobsView->verticalHeader()->hide();
    m_jobsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_jobsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_jobsView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_jobsView->horizontalHeader()->setStretchLastSection(true);
    m_jobsView->horizontalHeader()->setMinimumSectionSize(90);
    m_jobsView->setAlternatingRowColors(true);
    v->addWidget(m_jobsView, 1);
    m_jobsStatus = new QLabel;
    m_jobsStatus->setObjectName(QStringLiteral("jobsStatus"));
    m_jobsStatus->setWordWrap(true);
    m_jobsStatus->setTextFormat(Qt::PlainText); // errors quote the cluster
    v->addWidget(m_jobsStatus);
    connect(m_refreshButton, &QPushButton::clicked, this, [this] { refreshQueue(); });
    connect(m_cancelJobButton, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_jobsView->currentIndex();
        if (!current.isValid()) return;
        const QString jobId = m_jobs->jobs().at(current.row()).jobId;
        if (QMessageBox::question(this, tr("Cancel job"), tr("Cancel the job %1?").arg(jobId)) == QMessageBox::Yes)
            cancelJob(jobId);
    });
    connect(m_autoRefresh, &QCheckBox::toggled, this, &ClusterManagerPage::updateQueueTimer);
    connect(m_jobsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ClusterManagerPage::updateActions);
    return tab;
}

int ClusterManagerPage::testConnection() {
    app::ClusterProfile p;
    if (!validProfile(&p)) return 0;
    m_checks->clear();
    m_testRequest = m_client->testConnection(p);
    setStatus(tr("Testing the connection to %1…").arg(p.host));
    updateActions();
    return m_testRequest;
}

void ClusterManagerPage::onTestFinished(int id, const app::ClusterTestResult &result) {
    if (id != m_testRequest) return;
    m_testRequest = 0;
    m_checks->clear();
    const QIcon okIcon = style()->standardIcon(QStyle::SP_DialogApplyButton);
    const QIcon failIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    static const QHash<QString, const char *> names{{QStringLiteral("connect"), QT_TR_NOOP("Connection")},
                                                    {QStringLiteral("scheduler"), QT_TR_NOOP("Scheduler")},
                                                    {QStringLiteral("scratch_dir"), QT_TR_NOOP("Scratch folder")},
                                                    {QStringLiteral("engine"), QT_TR_NOOP("Engine")},
                                                    {QStringLiteral("container"), QT_TR_NOOP("Container")}};
    if (!result.error.isEmpty()) {
        auto *item = new QTreeWidgetItem(m_checks, {tr("Connection"), result.error});
        item->setIcon(0, failIcon);
        item->setData(0, Qt::UserRole, QStringLiteral("connect"));
        item->setToolTip(1, result.error);
    }
    int passed = 0;
    for (const auto &c : result.checks) {
        const char *name = names.value(c.name);
        auto *item = new QTreeWidgetItem(m_checks, {name ? tr(name) : c.name, c.detail});
        item->setIcon(0, c.ok ? okIcon : failIcon);
        item->setData(0, Qt::UserRole, c.name);
        item->setData(1, Qt::UserRole, c.ok);
        item->setToolTip(1, c.detail);
        passed += c.ok ? 1 : 0;
    }
    if (result.ok)
        setStatus(tr("Connection OK: all %n check(s) passed.", nullptr, int(result.checks.size())), false, true);
    else if (!result.error.isEmpty())
        setStatus(tr("Connection failed: %1").arg(result.error), true);
    else
        setStatus(
            tr("%1 of %n check(s) failed.", nullptr, int(result.checks.size())).arg(result.checks.size() - passed),
            true);
    if (result.hostKeyRefused)
        showMessage(tr("Host key changed"),
                    tr("The host key of %1 does not match the one remembered in the known hosts file. Diamond "
                       "refused to connect: someone may be intercepting the connection, or the cluster's key was "
                       "changed. Check with the cluster's administrators, then remove the old key from the known "
                       "hosts file.")
                        .arg(editedProfile().host),
                    result.error);
    updateActions();
    Q_EMIT testFinished(result.ok);
}

int ClusterManagerPage::probe() {
    app::ClusterProfile p;
    if (!validProfile(&p)) return 0;
    if (p.scheduler == app::SchedulerKind::None) {
        setStatus(tr("The scheduler is \"none\": there are no partitions to probe."), true);
        return 0;
    }
    m_probeRequest = m_client->probe(p);
    setStatus(tr("Probing the partitions of %1…").arg(p.host));
    updateActions();
    return m_probeRequest;
}

void ClusterManagerPage::onProbeFinished(int id, const app::ClusterProbeResult &result) {
    if (id != m_probeRequest) return;
    m_probeRequest = 0;
    if (result.ok) {
        m_partitions->setPartitions(result.partitions);
        m_modified = true;
        setStatus(tr("Found %n partition(s). Save to keep them.", nullptr, int(result.partitions.size())));
    } else {
        setStatus(tr("Probe failed: %1").arg(result.error), true);
    }
    updateActions();
    Q_EMIT probeFinished(result.ok);
}

int ClusterManagerPage::calibrate() {
    app::ClusterProfile p;
    if (!validProfile(&p) || m_originalName.isEmpty() || m_modified) {
        setStatus(tr("Save the profile before calibrating it."), true);
        return 0;
    }
    if (p.scheduler != app::SchedulerKind::Slurm) {
        setStatus(tr("Calibration runs as a Slurm job step; this cluster's scheduler is not Slurm."), true);
        return 0;
    }
    const QModelIndex selected = m_partitionsView->currentIndex();
    const QString partition =
        selected.isValid() ? m_partitions->index(selected.row(), PartitionsModel::Name).data().toString() : QString();
    m_calibrateRequest = m_client->calibrate(p, partition);
    setStatus(partition.isEmpty() ? tr("Calibrating a node of %1's default partition…").arg(p.name)
                                  : tr("Calibrating a node of partition %1…").arg(partition));
    updateActions();
    return m_calibrateRequest;
}

int ClusterManagerPage::deployEngine(bool container) {
    app::ClusterProfile p;
    if (!validProfile(&p) || m_originalName.isEmpty() || m_modified) {
        setStatus(tr("Save the profile before deploying the engine."), true);
        return 0;
    }
    app::EngineDeployOptions options;
    options.container = container;
    const QModelIndex selected = m_partitionsView->currentIndex();
    if (container && selected.isValid())
        options.partition = m_partitions->index(selected.row(), PartitionsModel::Name).data().toString();
    m_deployRequest = m_client->deployEngine(p, options);
    setStatus(container ? tr("Building an engine image on %1…").arg(p.name)
                        : tr("Copying this computer's engine to %1…").arg(p.name));
    updateActions();
    return m_deployRequest;
}

void ClusterManagerPage::onDeployFinished(int id, const app::ClusterDeployResult &result) {
    if (id != m_deployRequest) return;
    m_deployRequest = 0;
    bool ok = result.ok;
    if (!ok) {
        setStatus(tr("Deploying the engine failed: %1").arg(result.error), true);
    } else if (const app::ClusterProfile updated = app::withDeployment(m_original, result.options, result.deployment);
               !m_store || !m_store->update(updated)) {
        ok = false;
        setStatus(tr("The engine was deployed, but the profile could not be saved: %1")
                      .arg(m_store ? m_store->errorString() : tr("no workspace")),
                  true);
    } else {
        const QString name = m_originalName;
        reloadProfiles(name);
        showProfile(updated, name);
        setStatus(tr("Engine deployed in %1 s (%2 MB sent); this profile now uses it.")
                      .arg(result.deployment.seconds, 0, 'f', 1)
                      .arg(double(result.deployment.uploadedBytes) / 1e6, 0, 'f', 1),
                  false, true);
        m_status->setToolTip(
            result.deployment.version + QLatin1Char('\n') +
            (result.deployment.image.isEmpty() ? result.deployment.enginePath : result.deployment.image));
    }
    updateActions();
    Q_EMIT deployFinished(ok);
}

void ClusterManagerPage::onCalibrateFinished(int id, const app::ClusterCalibrationResult &result) {
    if (id != m_calibrateRequest) return;
    m_calibrateRequest = 0;
    bool ok = result.ok;
    if (!ok) {
        setStatus(tr("Calibration failed: %1").arg(result.error), true);
    } else {
        QString error;
        const QStringList saved = m_saveCalibration
                                      ? m_saveCalibration(m_originalName, result.partition, result.profile, &error)
                                      : QStringList();
        ok = !saved.isEmpty();
        if (ok)
            setStatus(tr("Calibrated node %1 in %2 s; plans for this cluster now use it (saved as %3).")
                          .arg(result.profile.value(QStringLiteral("host")).toString())
                          .arg(result.profile.value(QStringLiteral("calibration_seconds")).toDouble(), 0, 'f', 1)
                          .arg(saved.join(QStringLiteral(", "))));
        else
            setStatus(tr("The calibration could not be saved: %1").arg(error), true);
    }
    updateActions();
    Q_EMIT calibrateFinished(ok);
}

int ClusterManagerPage::refreshQueue() {
    if (m_queueRequest) return 0;
    app::ClusterProfile p;
    QString error;
    p = editedProfile(&error);
    if (error.isEmpty()) error = p.validate();
    if (!error.isEmpty()) {
        m_jobsStatus->setText(tr("Cannot list jobs: %1").arg(error));
        return 0;
    }
    if (p.scheduler == app::SchedulerKind::None) {
        m_jobsStatus->setText(tr("This cluster has no batch scheduler: there is no job queue."));
        return 0;
    }
    m_queueRequest = m_client->fetchQueue(p);
    m_refreshButton->setEnabled(false);
    m_jobsStatus->setText(tr("Refreshing the jobs of %1…").arg(p.host));
    return m_queueRequest;
}

void ClusterManagerPage::onQueueFinished(int id, const app::ClusterQueueResult &result) {
    if (id != m_queueRequest) return;
    m_queueRequest = 0;
    m_refreshButton->setEnabled(true);
    if (result.ok) {
        m_jobs->setJobs(result.jobs);
        for (int c = 0; c < JobQueueModel::Reason; ++c)
            m_jobsView->resizeColumnToContents(c);
        m_jobsStatus->setText(tr("%n job(s) queued or running — updated %1.", nullptr, int(result.jobs.size()))
                                  .arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
        m_jobsStatus->setStyleSheet({});
    } else {
        m_jobsStatus->setText(tr("Cannot list jobs: %1").arg(result.error));
        m_jobsStatus->setStyleSheet(QStringLiteral("color: #b3261e;"));
    }
    updateActions();
    Q_EMIT queueRefreshed(result.ok);
}

int ClusterManagerPage::cancelJob(const QString &jobId) {
    app::ClusterProfile p;
    QString error;
    p = editedProfile(&error);
    if (error.isEmpty()) error = p.validate();
    if (!error.isEmpty() || jobId.isEmpty()) return 0;
    m_cancelRequest = m_client->cancelJob(p, jobId);
    m_jobsStatus->setText(tr("Cancelling the job %1…").arg(jobId));
    updateActions();
    return m_cancelRequest;
}

void ClusterManagerPage::showJobsTab(bool jobs) { m_tabs->setCurrentIndex(jobs ? 1 : 0); }

void ClusterManagerPage::showOverviewTab() { m_tabs->setCurrentWidget(m_overview); }

bool ClusterManagerPage::isBusy() const { return m_client->pendingCount() > 0; }

void ClusterManagerPage::updateQueueTimer() {
    const bool active = m_jobsTab->isVisible() && m_autoRefresh->isChecked();
    if (active && !m_queueTimer->isActive()) {
        m_queueTimer->start();
        refreshQueue(); // at once when the tab appears
    } else if (!active) {
        m_queueTimer->stop();
    }
}

QStringList ClusterManagerPage::testResultLines() const {
    QStringList lines;
    for (int i = 0; i < m_checks->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = m_checks->topLevelItem(i);
        lines << QStringLiteral("%1: %2: %3")
                     .arg(item->data(0, Qt::UserRole).toString(),
                          item->data(1, Qt::UserRole).toBool() ? QStringLiteral("ok") : QStringLiteral("FAIL"),
                          item->text(1));
    }
    return lines;
}

void ClusterManagerPage::showMessage(const QString &title, const QString &text, const QString &details) {
    auto *box = new QMessageBox(QMessageBox::Critical, title, text, QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("clusterMessage"));
    if (!details.isEmpty()) box->setDetailedText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    m_messageDialog = box;
    box->open();
}

} // namespace diamond::ui
