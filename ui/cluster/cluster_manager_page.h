// ClusterManagerPage: the cluster manager (a central tab). Left: the workspace's cluster profiles with Add,
// Duplicate and Remove. Right, tab "Profile": a form with every ClusterProfile field (partitions in an editable
// table), Save / Revert, "Test connection" and "Probe partitions"; tab "Jobs": the connected user's jobs on the
// selected cluster (refresh button, auto refresh every 10 s while the tab is visible, cancel a job).
//
// Profiles are read and written through app::ClusterStore on this thread (small SQLite rows). Everything that
// talks to a cluster goes through app::ClusterClient over the cluster's ClusterLink (in the app: the run service's
// links, so a cluster signed in to here is signed in for runs too), so the GUI never waits for SSH. Sign-in questions
// go to the links' prompter (SignInPrompter): an unknown host key opens a dialog with its SHA256 fingerprint
// (hostKeyDialog()); passphrases, passwords and MFA questions are asked in a dialog as they come. A changed host key
// is refused and reported (messageDialog()).
#pragma once

#include "app/cluster/cluster_client.h"
#include "app/cluster/cluster_types.h"

#include <QHash>
#include <QMessageBox>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <functional>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;

class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QCheckBox;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTimer;
class QTreeWidget;

namespace diamond::app {
class ClusterStore;
class Workspace;
} // namespace diamond::app

namespace diamond::ui {

class ClusterOverviewView;
class ClusterProfilesModel;
class JobQueueModel;
class PartitionsModel;
class SignInPrompter;

class ClusterManagerPage : public QWidget {
    Q_OBJECT
public:
    explicit ClusterManagerPage(QWidget *parent = nullptr);
    ~ClusterManagerPage() override;

    /// Opens the workspace in `folder` (its own connection) and lists its profiles; empty closes. False with
    /// statusText() when it cannot be opened.
    bool setWorkspaceFolder(const QString &folder);
    QString workspaceFolder() const;

    /// Names of the stored profiles, for the run set-up's target list (also sent as profilesChanged).
    QStringList clusterNames() const;
    /// The GPU types of a stored profile's partitions (for the run set-up's GPU type list).
    QStringList gpuTypes(const QString &cluster) const;

    // ---- editing ----
    /// Shows the stored profile `name` in the form; false when there is none.
    bool selectProfile(const QString &name);
    /// Name of the stored profile shown in the form; empty for a new, unsaved one.
    QString currentProfileName() const { return m_originalName; }
    /// Starts a new, unsaved profile with defaults.
    void addProfile();
    /// Starts a new, unsaved copy of the form's profile named "<name>-copy".
    void duplicateProfile();
    /// Removes the stored profile shown (asks first when `ask`).
    bool removeProfile(bool ask = true);
    /// Validates the form and stores it (add, update, or rename). False with the error shown under its field.
    bool save();
    /// Discards the form's changes.
    void revert();
    bool isModified() const { return m_modified; }
    /// The profile in the form (not validated); *error names a field that cannot be read (environment lines).
    app::ClusterProfile editedProfile(QString *error = nullptr) const;
    /// Fills the form (marks it modified; the stored profile is unchanged until save()).
    void setEditedProfile(const app::ClusterProfile &profile);
    /// The inline error shown under field `field` ("name", "host", "port", "user", "scratch_dir", ...; the
    /// JSON key of docs/clusters.md); empty when none.
    QString fieldError(const QString &field) const;

    // ---- talking to the cluster (asynchronous; results as signals and in the page) ----
    /// Runs the connection test on the form's profile; returns the request id, 0 when the form is invalid.
    int testConnection();
    /// Fills the partitions table from the scheduler; 0 when the form is invalid.
    int probe();
    /// Measures a node of the partition selected in the partitions table (none: the default partition) with a short
    /// job step, and hands the profile to the calibration saver; 0 when the profile is not saved or has no Slurm.
    int calibrate();
    /// Keeps a measured profile (the main window: app::saveClusterCalibration into the workspace); returns the
    /// names saved, or empty with *error.
    using CalibrationSaver = std::function<QStringList(const QString &cluster, const QString &partition,
                                                       const QJsonObject &profile, QString *error)>;
    void setCalibrationSaver(CalibrationSaver saver) { m_saveCalibration = std::move(saver); }
    QPushButton *calibrateButton() const { return m_calibrateButton; }
    /// Puts an engine on the saved profile's cluster (app/cluster/engine_deploy.h): this computer's engine as a
    /// bundle, or (`container`) an Apptainer image built there in a job on the partition selected in the partitions
    /// table; then stores the profile with the deployed engine. 0 when the profile is not saved.
    int deployEngine(bool container);
    /// "Deploy engine" with its menu (bundle / container).
    QPushButton *deployButton() const { return m_deployButton; }
    /// Refreshes the job list of the form's profile; 0 when the form is invalid or a refresh is running.
    int refreshQueue();
    /// Cancels the job `jobId` on the form's cluster.
    int cancelJob(const QString &jobId);
    /// Shows the "Jobs" tab (starts its auto refresh) or the "Profile" tab.
    void showJobsTab(bool jobs = true);
    /// The "All clusters" tab (every profile's reachability, load, your jobs, fair share).
    ClusterOverviewView *overviewTab() const { return m_overview; }
    void showOverviewTab();
    bool isBusy() const;
    /// Auto refresh of the job list while the Jobs tab is visible (10 s by default).
    QTimer *queueTimer() const { return m_queueTimer; }

    app::ClusterClient *client() const { return m_client; }
    /// Talk to clusters through `links` (not owned; the app's run service's) and ask sign-in questions with
    /// `prompter` (not owned). nullptr links: back to the page's own links and prompter.
    void setLinks(app::ClusterLinks *links, SignInPrompter *prompter);
    SignInPrompter *prompter() const { return m_prompter; }
    ClusterProfilesModel *profilesModel() const { return m_profiles; }
    PartitionsModel *partitionsModel() const { return m_partitions; }
    JobQueueModel *queueModel() const { return m_jobs; }
    /// The last status line (progress, test summary, errors).
    QString statusText() const;
    /// The open unknown-host-key question, nullptr when none.
    QMessageBox *hostKeyDialog() const;
    /// The last error dialog (e.g. a changed host key refused), nullptr when none is open.
    QMessageBox *messageDialog() const { return m_messageDialog; }
    /// Lines of the last connection test: "connect: ok: ...", one per check.
    QStringList testResultLines() const;

Q_SIGNALS:
    void profilesChanged(const QStringList &names);
    void testFinished(bool ok);
    void probeFinished(bool ok);
    void calibrateFinished(bool ok);
    void deployFinished(bool ok);
    void queueRefreshed(bool ok);
    void jobCancelled(bool ok);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void buildUi();
    QWidget *buildListPane();
    QWidget *buildProfileTab();
    QWidget *buildJobsTab();
    QWidget *field(QWidget *editor, const QString &key);
    void reloadProfiles(const QString &select = {});
    void showProfile(const app::ClusterProfile &profile, const QString &originalName);
    void clearErrors();
    void showError(const QString &message);
    void setStatus(const QString &text, bool error = false, bool success = false);
    void markModified();
    void updateActions();
    bool validProfile(app::ClusterProfile *out);
    void onCurrentRowChanged(int row);
    void onTestFinished(int id, const app::ClusterTestResult &result);
    void onProbeFinished(int id, const app::ClusterProbeResult &result);
    void onCalibrateFinished(int id, const app::ClusterCalibrationResult &result);
    void onDeployFinished(int id, const app::ClusterDeployResult &result);
    void onQueueFinished(int id, const app::ClusterQueueResult &result);
    void connectClient();
    void showMessage(const QString &title, const QString &text, const QString &details);
    void updateQueueTimer();

    std::unique_ptr<app::Workspace> m_workspace;
    std::unique_ptr<app::ClusterStore> m_store;
    std::unique_ptr<app::ClusterLinks> m_ownLinks; ///< the page's own links, used until setLinks()
    SignInPrompter *m_ownPrompter = nullptr;       ///< asks for the page's own links
    SignInPrompter *m_prompter = nullptr;          ///< the prompter of the links in use
    app::ClusterClient *m_client = nullptr;
    ClusterProfilesModel *m_profiles = nullptr;
    PartitionsModel *m_partitions = nullptr;
    JobQueueModel *m_jobs = nullptr;

    QListView *m_list = nullptr;
    QPushButton *m_addButton = nullptr, *m_duplicateButton = nullptr, *m_removeButton = nullptr;
    QTabWidget *m_tabs = nullptr;
    QWidget *m_jobsTab = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_errorBanner = nullptr;
    QLineEdit *m_name = nullptr, *m_host = nullptr, *m_user = nullptr, *m_account = nullptr;
    QSpinBox *m_port = nullptr;
    QComboBox *m_scheduler = nullptr, *m_runtime = nullptr, *m_gpuDirective = nullptr;
    QLineEdit *m_identity = nullptr, *m_knownHosts = nullptr, *m_modules = nullptr, *m_image = nullptr,
              *m_containerOptions = nullptr, *m_containerCommand = nullptr, *m_scratch = nullptr, *m_engine = nullptr;
    QPlainTextEdit *m_environment = nullptr;
    QTableView *m_partitionsView = nullptr;
    QPushButton *m_addPartition = nullptr, *m_removePartition = nullptr;
    QPushButton *m_saveButton = nullptr, *m_revertButton = nullptr, *m_testButton = nullptr, *m_probeButton = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_checks = nullptr;
    QTableView *m_jobsView = nullptr;
    QPushButton *m_refreshButton = nullptr, *m_cancelJobButton = nullptr;
    QCheckBox *m_autoRefresh = nullptr;
    QLabel *m_jobsStatus = nullptr;
    QTimer *m_queueTimer = nullptr;
    QHash<QString, QLabel *> m_fieldErrors; ///< JSON key -> inline error label
    QHash<QString, QWidget *> m_fieldEditors;
    QPointer<QMessageBox> m_messageDialog;

    QString m_originalName; ///< stored name of the profile in the form; empty: new
    app::ClusterProfile m_original;
    bool m_modified = false;
    bool m_loading = false;
    int m_testRequest = 0, m_probeRequest = 0, m_queueRequest = 0, m_cancelRequest = 0, m_calibrateRequest = 0;
    QPushButton *m_calibrateButton = nullptr;
    int m_deployRequest = 0;
    QPushButton *m_deployButton = nullptr;
    ClusterOverviewView *m_overview = nullptr;
    CalibrationSaver m_saveCalibration;
};

} // namespace diamond::ui
