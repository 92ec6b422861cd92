// The main window: menus, toolbar, docks and the central tab area (designer, run set-up, run monitors, compare,
// sweeps, clusters, gallery). It owns the open workspace and its app::RunService, through which every run and sweep
// is started, stopped, resumed, followed and deleted; sign-in questions of clusters are asked in its dialogs
// (SignInPrompter). Every page is reachable from the menus (View ▸ pages, Run) and the toolbar. Window geometry
// and dock layout are kept in QSettings; docks keep their width when pages change.
#pragma once

#include <QHash>
#include <QMainWindow>
#include <QSet>

#include <functional>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;

namespace diamond::app {
struct ClassServer;
class RunService;
class RunRecommender;
class Workspace;
} // namespace diamond::app

namespace diamond::ui {

class ClusterManagerPage;
class DatasetsPage;
class ConnectServerDialog;
class GalleryPage;
class ServerPublishDialog;
class LearnPage;
class WidgetHighlight;
class PresenterMode;
class PublishDialog;
class SignInPrompter;
class ComparePage;
class DesignerPage;
class RunMonitorPage;
class RunSetupPage;
class RunsPanel;
class WorkspacePanel;
namespace sweep {
class SweepsPage;
class SweepViewPage;
} // namespace sweep

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    /// Opens the default workspace (created with the examples on first start) unless
    /// `workspaceFolder` names another one.
    explicit MainWindow(QWidget *parent = nullptr, const QString &workspaceFolder = {});
    ~MainWindow() override;

    app::Workspace *workspace() const { return workspace_.get(); }
    app::RunService *runService() const { return service_; }
    SignInPrompter *signInPrompter() const { return prompter_; }
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
    sweep::SweepsPage *showSweeps();
    GalleryPage *showGallery();
    DatasetsPage *showData();
    /// File ▸ Connect to class server…: the (non-modal) dialog; once signed in, the server is a target of the run
    /// set-up ("Class server: user@host:port") and selected there.
    ConnectServerDialog *connectToServer();
    /// Makes a signed-in class server a target of this session (what the dialog does on success).
    void addClassServer(const app::ClassServer &server);
    /// Shows the Learn page (Help ▸ Lessons, F1).
    LearnPage *showLearn();
    LearnPage *learnPage() const { return learn_; }
    /// Shows a lesson step's page ("designer", "setup", "data", "gallery", "clusters", "sweeps", "runs", "learn")
    /// and highlights the widget or action named `widget` there; the highlighted widget, nullptr when none.
    QWidget *showLessonPlace(const QString &page, const QString &widget);
    DatasetsPage *dataPage() const { return data_; }
    PresenterMode *presenterMode() const { return presenter_; }
    GalleryPage *gallery() const { return gallery_; }
    /// Opens the sweep editor on the designer's network and the run set-up's config.
    void newSweep();
    /// Shows a stored sweep (live when its controller runs in this process).
    sweep::SweepViewPage *openSweep(qint64 sweepId);
    /// Opens the publish dialog for a finished run (the dialog publishes it to the workspace's gallery).
    /// (A run of a class server opens ServerPublishDialog instead and returns nullptr.)
    PublishDialog *publishRun(qint64 runId);
    /// The publish dialog for a run of a class server (its gallery); nullptr for other runs.
    ServerPublishDialog *publishOnServer(qint64 runId);
    /// The action of a menu or toolbar entry by object name ("trainAction", "showSweeps", ...), for tests and tours.
    QAction *action(const QString &objectName) const;
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
    void closeWorkspace();
    void refreshClusterTargets();
    void connectRunsPanel();
    /// Stop / resume / delete of the runs table's selection, through the service; problems in the status bar.
    void stopRuns(const QList<qint64> &runIds);
    void resumeRuns(const QList<qint64> &runIds);
    /// Asks where to (dialog "moveRunDialog": this computer or another cluster) and moves the run there.
    void moveRun(qint64 runId);
    void deleteRuns(const QList<qint64> &runIds);
    QAction *addPageAction(QMenu *menu, const QString &name, const QString &text, int key, std::function<void()> show);
    void showPage(QWidget *page, const QString &title);
    /// Shows the designer's docks (on the designer page) or hides them for the other pages.
    void showDesignerDocks(bool show);
    /// Removes and deletes every tab but the permanent pages (designer, run set-up, gallery, clusters).
    void closeTransientPages();
    bool isPermanentPage(QWidget *page) const;

    QTabWidget *tabs_ = nullptr;
    DesignerPage *designer_ = nullptr;
    RunSetupPage *runSetup_ = nullptr;
    ComparePage *compare_ = nullptr;
    ClusterManagerPage *clusters_ = nullptr; ///< kept while the window lives; shown as a tab on demand
    sweep::SweepsPage *sweeps_ = nullptr;    ///< per workspace; shown as a tab on demand
    GalleryPage *gallery_ = nullptr;
    DatasetsPage *data_ = nullptr; ///< kept while the window lives; shown as a tab on demand
    LearnPage *learn_ = nullptr;   ///< kept while the window lives; shown as a tab on demand
    WidgetHighlight *highlight_ = nullptr;
    QString lessonProject_; ///< project of the open lesson: new runs go there
    void refreshDatasets();
    SignInPrompter *prompter_ = nullptr;
    PresenterMode *presenter_ = nullptr;
    QList<QDockWidget *> designerDocks_; ///< layers, inspector, summary: shown with the designer only
    QSet<QDockWidget *> hiddenForPage_;  ///< designer docks hidden because another page is shown
    WorkspacePanel *workspacePanel_ = nullptr;
    RunsPanel *runsPanel_ = nullptr;
    QLabel *statusRuns_ = nullptr;
    QLabel *statusServer_ = nullptr; ///< "Class server: user@host" while signed in
    QHash<qint64, RunMonitorPage *> monitors_;
    std::unique_ptr<app::Workspace> workspace_;
    app::RunService *service_ = nullptr;         ///< of workspace_, deleted before it
    app::RunRecommender *recommender_ = nullptr; ///< the run set-up page's recommendation, for workspace_
    QString specFile_;
    QString loadedProject_;
};

} // namespace diamond::ui
