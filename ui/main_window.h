// The main window: menus, toolbar, docks and the central tab area (designer, run set-up, run monitors, compare).
// It owns the open workspace and the RunManager that trains on this computer; window geometry and dock layout
// are kept in QSettings.
#pragma once

#include <QHash>
#include <QMainWindow>

#include <memory>

class QAction;
class QLabel;
class QTabWidget;

namespace diamond::app {
class RunManager;
class Workspace;
} // namespace diamond::app

namespace diamond::ui {

class ClusterManagerPage;
class GalleryPage;
class ComparePage;
class DesignerPage;
class RunMonitorPage;
class RunSetupPage;
class RunsPanel;
class WorkspacePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// Opens the default workspace (created with the examples on first start) unless
    /// `workspaceFolder` names another one.
    explicit MainWindow(QWidget *parent = nullptr, const QString &workspaceFolder = {});
    ~MainWindow() override;

    app::Workspace *workspace() const { return workspace_.get(); }
    app::RunManager *runManager() const { return runManager_; }
    DesignerPage *designer() const { return designer_; }
    RunSetupPage *runSetup() const { return runSetup_; }
    RunsPanel *runsPanel() const { return runsPanel_; }
    QTabWidget *tabs() const { return tabs_; }

    /// Loads a run's spec into the designer and its config into the run set-up (the examples are such runs).
    bool loadRun(qint64 runId);
    /// Creates a run from the designer's network and the run set-up, starts it and shows its monitor.
    /// Returns the run id, 0 on failure (a message box / status message says why).
    qint64 train();
    /// Shows (creating if needed) the monitor tab of a run.
    RunMonitorPage *showRunMonitor(qint64 runId);
    ComparePage *showCompare(const QList<qint64> &runIds);
    ClusterManagerPage *showClusters();
    GalleryPage *gallery() const { return gallery_; }
    /// Opens the sweep editor on the designer's network and the run set-up's config.
    void newSweep();
    /// Shows a stored sweep (live when its controller runs in this process).
    void openSweep(qint64 sweepId);
    /// Loads a gallery package for fine-tuning: its spec into the designer, its training config into the run
    /// set-up, and its weights as the run's starting point. False (status message) when the package is refused.
    bool fineTuneFromPackage(const QString &packageFile);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createDocks();
    void showAbout();
    void showPreferences();
    void openSpecFile();
    bool saveSpecFile(bool askForName);
    void exportGraphImage();
    void chooseWorkspace();
    void updateTitle();
    bool confirmDiscardDesign();

    void openWorkspace(const QString &folder);
    void refreshClusterTargets();
    /// The manager that follows a run: the local one, or the one created for the run's cluster job.
    app::RunManager *managerOf(qint64 runId) const;
    void deleteManagers();
    /// Removes and deletes every tab but the permanent pages (designer, run set-up, gallery, clusters).
    void closeTransientPages();
    bool isPermanentPage(QWidget *page) const;

    QTabWidget *tabs_ = nullptr;
    DesignerPage *designer_ = nullptr;
    RunSetupPage *runSetup_ = nullptr;
    ComparePage *compare_ = nullptr;
    ClusterManagerPage *clusters_ = nullptr; ///< kept while the window lives; shown as a tab on demand
    GalleryPage *gallery_ = nullptr;
    WorkspacePanel *workspacePanel_ = nullptr;
    RunsPanel *runsPanel_ = nullptr;
    QLabel *statusRuns_ = nullptr;
    QHash<qint64, RunMonitorPage *> monitors_;
    std::unique_ptr<app::Workspace> workspace_;
    app::RunManager *runManager_ = nullptr;
    QHash<qint64, app::RunManager *> clusterManagers_; ///< one per cluster run started from this window
    QString specFile_;
    QString loadedProject_;
};

} // namespace diamond::ui
