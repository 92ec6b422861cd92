#include "ui/main_window.h"

#include "app/data/dataset_store.h"
#include "app/gallery/model_package.h"
#include "app/plan/cluster_calibration.h"
#include "app/plan/run_recommender.h"
#include "app/run/run_service.h"
#include "app/workspace/app_info.h"
#include "app/workspace/sample_workspace.h"
#include "app/workspace/workspace.h"
#include "ui/cluster/cluster_manager_page.h"
#include "ui/cluster/sign_in_prompter.h"
#include "ui/data/datasets_page.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/gallery/gallery_page.h"
#include "ui/learn/learn_page.h"
#include "ui/learn/widget_highlight.h"
#include "ui/preferences_dialog.h"
#include "ui/presenter_mode.h"
#include "ui/run/compare_page.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_panel.h"
#include "ui/sweep/sweep_editor.h"
#include "ui/sweep/sweep_view_page.h"
#include "ui/sweep/sweeps_page.h"
#include "ui/workspace_panel.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>

namespace diamond::ui {

namespace {

QJsonObject readJsonFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

MainWindow::MainWindow(QWidget *parent, const QString &workspaceFolder) : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);
    tabs_->setTabsClosable(true);
    tabs_->setMovable(true);
    // The pages' own minimum sizes must not push the docks: the tab area asks for a fixed minimum, so docks keep
    // the width the user gave them whichever page is shown.
    tabs_->setMinimumSize(480, 360);
    designer_ = new DesignerPage(tabs_);
    runSetup_ = new RunSetupPage(tabs_);
    tabs_->addTab(designer_, tr("Designer"));
    tabs_->addTab(runSetup_, tr("Run set-up"));
    gallery_ = new GalleryPage(tabs_);
    tabs_->addTab(gallery_, tr("Gallery"));
    prompter_ = new SignInPrompter(this);
    connect(prompter_, &SignInPrompter::status, this, [this](const QString &t) { statusBar()->showMessage(t, 8000); });
    clusters_ = new ClusterManagerPage(this);
    clusters_->hide();
    data_ = new DatasetsPage(this);
    data_->hide();
    learn_ = new LearnPage(this);
    learn_->hide();
    learn_->setDesignProvider([this] { return designer_->specJson(); });
    highlight_ = new WidgetHighlight(this);
    connect(learn_, &LearnPage::showRequested, this, &MainWindow::showLessonPlace);
    connect(learn_, &LearnPage::lessonChanged, this, [this](const QString &project) { lessonProject_ = project; });
    connect(learn_, &LearnPage::stepCompleted, this, [this](const QString &lesson, const QString &step) {
        statusBar()->showMessage(tr("✓ %1: step \"%2\" done.").arg(lesson, step), 10000);
    });
    connect(data_, &DatasetsPage::datasetsChanged, this, &MainWindow::refreshDatasets);
    connect(data_, &DatasetsPage::statusMessage, this, [this](const QString &t) { statusBar()->showMessage(t, 8000); });
    connect(data_, &DatasetsPage::useInRunRequested, this, [this](const QString &name) {
        runSetup_->useDataset(name);
        tabs_->setCurrentWidget(runSetup_);
    });
    runSetup_->setDataPathResolver([this](const QString &ref) -> QString {
        if (!workspace_) return {};
        app::DatasetStore store(*workspace_);
        const auto version = store.resolve(ref);
        if (!version) return {};
        const QString copy = store.localCopy(*version);
        return copy.isEmpty() ? QString() : app::DatasetStore::dataPathIn(copy, *version, {});
    });
    connect(clusters_, &ClusterManagerPage::profilesChanged, runSetup_, &RunSetupPage::setClusterTargets);
    runSetup_->setGpuTypesProvider([this](const QString &cluster) { return clusters_->gpuTypes(cluster); });
    clusters_->setCalibrationSaver([this](const QString &cluster, const QString &partition, const QJsonObject &profile,
                                          QString *error) -> QStringList {
        if (!workspace_) return *error = tr("No workspace is open."), QStringList();
        const QStringList saved = app::saveClusterCalibration(*workspace_, cluster, partition, profile, error);
        if (!saved.isEmpty()) runSetup_->refreshPlan();
        return saved;
    });
    recommender_ = new app::RunRecommender(this);
    const auto planRequest = [](const QJsonObject &spec, const QJsonObject &config, const QString &target,
                                int threads) {
        app::RunPlanRequest request;
        request.spec = spec;
        request.config = config;
        request.target = target;
        request.threads = threads;
        return request;
    };
    runSetup_->setRecommender([this, planRequest](const QJsonObject &spec, const QJsonObject &config,
                                                  const QJsonObject &dryRun, const QString &target, int threads) {
        const app::RunRecommender::Recommendation r =
            recommender_->recommend(planRequest(spec, config, target, threads), dryRun);
        return RunAdvice{r.plan ? r.plan->document : QJsonObject(), r.error, r.calibrating};
    });
    runSetup_->setWidthMeasurer([this, planRequest](const QJsonObject &spec, const QJsonObject &config,
                                                    const QJsonObject &dryRun, const QString &target, int threads) {
        QString error;
        if (!recommender_->measureWidths(planRequest(spec, config, target, threads), dryRun, &error)) return error;
        statusBar()->showMessage(tr("Measuring the step time with 1, 2, 4 … processes (a few seconds each)…"));
        return QString();
    });
    connect(recommender_, &app::RunRecommender::widthsMeasured, this, [this](bool ok, const QString &message) {
        statusBar()->showMessage(ok ? tr("Processes measured: the recommendation now uses the measured step times.")
                                    : tr("Could not measure the processes: %1").arg(message),
                                 8000);
        runSetup_->widthsMeasured();
    });
    connect(recommender_, &app::RunRecommender::queueWaitsUpdated, runSetup_, &RunSetupPage::refreshRecommendation);
    connect(recommender_, &app::RunRecommender::calibrated, this, [this](bool ok, const QString &message) {
        statusBar()->showMessage(ok ? tr("This computer's speed is measured: plans now predict step times.")
                                    : tr("Could not measure this computer's speed: %1").arg(message),
                                 8000);
        runSetup_->refreshPlan();
    });
    for (int i = 0; i < 3; ++i)
        if (QWidget *button = tabs_->tabBar()->tabButton(i, QTabBar::RightSide)) button->hide();
    setCentralWidget(tabs_);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget *page = tabs_->widget(index);
        if (page == designer_ || page == runSetup_) return;
        if (page == clusters_ || page == sweeps_ || page == gallery_ || page == data_) { // kept; shown from menus
            tabs_->removeTab(index);
            return;
        }
        if (auto *monitor = qobject_cast<RunMonitorPage *>(page)) monitors_.remove(monitor->runId());
        if (page == compare_) compare_ = nullptr;
        tabs_->removeTab(index);
        page->deleteLater();
    });
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (tabs_->currentWidget() == runSetup_) runSetup_->setSpec(designer_->specJson());
        showDesignerDocks(tabs_->currentWidget() == designer_);
    });
    connect(designer_, &DesignerPage::modifiedChanged, this, &MainWindow::updateTitle);
    connect(designer_, &DesignerPage::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    connect(designer_->document(), &GraphDocument::analysisChanged, this,
            [this] { runSetup_->setSpec(designer_->specJson()); });
    connect(runSetup_, &RunSetupPage::trainRequested, this, [this] { train(); });

    workspacePanel_ = new WorkspacePanel(this);
    runsPanel_ = new RunsPanel(this);
    createActions();
    createDocks();
    presenter_ = new PresenterMode(this, {findChild<QDockWidget *>(QStringLiteral("workspaceDock")),
                                          findChild<QDockWidget *>(QStringLiteral("runsDock"))});
    QAction *presenterAction = action(QStringLiteral("presenterModeAction"));
    connect(presenterAction, &QAction::toggled, presenter_, &PresenterMode::setActive);
    connect(presenter_, &PresenterMode::activeChanged, this, [this, presenterAction](bool on) {
        presenterAction->setChecked(on);
        if (on) statusBar()->showMessage(tr("Presenter mode: press F5 to leave it."), 8000);
        for (RunMonitorPage *monitor : std::as_const(monitors_))
            monitor->setPresenting(on);
        if (tabs_->currentWidget() == designer_) designer_->zoomToFit();
    });
    connect(gallery_, &GalleryPage::openSpecRequested, this, [this](const QJsonObject &spec, const QString &title) {
        if (!confirmDiscardDesign()) return;
        QString error;
        if (!designer_->loadSpecJson(spec, title, &error)) {
            QMessageBox::warning(this, tr("Cannot open the network"), error);
            return;
        }
        specFile_.clear();
        tabs_->setCurrentWidget(designer_);
        updateTitle();
    });
    connect(gallery_, &GalleryPage::fineTuneRequested, this,
            [this](qint64, const QString &package) { fineTuneFromPackage(package); });
    connect(gallery_, &GalleryPage::statusMessage, this,
            [this](const QString &t) { statusBar()->showMessage(t, 6000); });
    openWorkspace(workspaceFolder);
    // A newcomer can press Train at once: the spirals example is on the canvas and in the run set-up.
    designer_->newFromTemplate(QStringLiteral(":/examples/spirals/spec.json"));
    runSetup_->setConfig(readJsonFile(QStringLiteral(":/examples/spirals/run.json")));
    runSetup_->setSpec(designer_->specJson());
    loadedProject_ = tr("Examples");
    updateTitle();

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("ui/geometry")).toByteArray())) resize(1400, 900);
    if (!restoreState(settings.value(QStringLiteral("ui/state")).toByteArray())) {
        // First start: most of the height for the canvas, a short runs list below it.
        if (auto *runs = findChild<QDockWidget *>(QStringLiteral("runsDock"))) resizeDocks({runs}, {170}, Qt::Vertical);
    }
}

MainWindow::~MainWindow() {
    tabs_->disconnect(this);
    designer_->disconnect(this);
    designer_->document()->disconnect(this);
    // Pages refer to the manager and the workspace: remove them first, then the manager, then the workspace.
    closeTransientPages();
    delete gallery_;
    gallery_ = nullptr;
    delete clusters_;
    clusters_ = nullptr;
    closeWorkspace();
    // The designer's panels live in the docks: delete the page while they still exist.
    delete designer_;
    designer_ = nullptr;
}

void MainWindow::createActions() {
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QMenu *templates = file->addMenu(tr("&New from template"));
    const QStringList templateFiles = QDir(QStringLiteral(":/templates")).entryList({QStringLiteral("*.json")});
    for (const QString &name : templateFiles) {
        const QString path = QStringLiteral(":/templates/") + name;
        QString title = readJsonFile(path).value(QStringLiteral("name")).toString();
        if (title.isEmpty()) title = QFileInfo(name).completeBaseName();
        templates->addAction(title, this, [this, path] {
            if (confirmDiscardDesign()) {
                designer_->newFromTemplate(path);
                specFile_.clear();
                tabs_->setCurrentWidget(designer_);
                updateTitle();
            }
        });
    }
    QAction *open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open network…"), this,
                                    &MainWindow::openSpecFile);
    open->setShortcut(QKeySequence::Open);
    QAction *save = file->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save network"), this,
                                    [this] { saveSpecFile(false); });
    save->setShortcut(QKeySequence::Save);
    QAction *saveAs = file->addAction(tr("Save network &as…"), this, [this] { saveSpecFile(true); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    file->addAction(tr("&Export graph image…"), this, &MainWindow::exportGraphImage);
    file->addSeparator();
    file->addAction(tr("Open &workspace…"), this, &MainWindow::chooseWorkspace);
    QAction *connectServer = file->addAction(QIcon::fromTheme(QStringLiteral("network-workgroup")),
                                             tr("&Connect to class server…"), this, [this] { connectToServer(); });
    connectServer->setObjectName(QStringLiteral("connectServerAction"));
    connectServer->setToolTip(tr("Train on your course's server with your token; the curves come back here"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = designer_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
    undo->setIconText(tr("Undo")); // the toolbar's label; the menu says what is undone
    QAction *redo = designer_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));
    redo->setIconText(tr("Redo"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    // Clipboard actions act on the canvas only, so that text fields keep their own Ctrl+C/V.
    auto canvasAction = [&](const QString &text, QKeySequence::StandardKey key, void (DesignerPage::*slot)()) {
        QAction *a = edit->addAction(text, designer_, slot);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        designer_->addAction(a);
        return a;
    };
    canvasAction(tr("Cu&t"), QKeySequence::Cut, &DesignerPage::cut);
    canvasAction(tr("&Copy"), QKeySequence::Copy, &DesignerPage::copy);
    canvasAction(tr("&Paste"), QKeySequence::Paste, &DesignerPage::paste);
    canvasAction(tr("&Delete"), QKeySequence::Delete, &DesignerPage::deleteSelection);
    canvasAction(tr("Select &all"), QKeySequence::SelectAll, &DesignerPage::selectAll);
    QAction *recompute =
        edit->addAction(tr("\u21bb Rec&ompute in backward"), designer_, &DesignerPage::toggleRecompute);
    recompute->setObjectName(QStringLiteral("recomputeAction"));
    recompute->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    recompute->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    recompute->setToolTip(tr("Mark the selected layers to recompute their activations in backward (less memory, "
                             "about one more forward pass), or unmark them (Ctrl+Shift+R)"));
    designer_->addAction(recompute);
    QAction *budget =
        edit->addAction(tr("Recompute to fit a memory &budget…"), designer_, &DesignerPage::recomputeForBudget);
    budget->setObjectName(QStringLiteral("recomputeBudgetAction"));
    budget->setToolTip(tr("Mark the layers that save the most activation memory for the least computation, so that "
                          "training fits a budget you give"));
    QMenu *stages = edit->addMenu(tr("Pipeline &stages"));
    stages->setObjectName(QStringLiteral("pipelineStagesMenu"));
    stages->setToolTip(tr("Show how the network is cut into stages, one process each, for a pipeline run"));
    auto *stageGroup = new QActionGroup(stages);
    for (const int count : {0, 2, 3, 4}) {
        QAction *a = stages->addAction(count == 0 ? tr("&None") : tr("&%1 stages").arg(count), designer_,
                                       [this, count] { designer_->showPipelineStages(count); });
        a->setObjectName(QStringLiteral("pipelineStages%1").arg(count));
        a->setCheckable(true);
        a->setChecked(count == 0);
        stageGroup->addAction(a);
    }
    connect(designer_->document(), &GraphDocument::pipelineChanged, stages, [this, stages] {
        const int shown = designer_->document()->pipelineStages();
        for (QAction *a : stages->actions())
            a->setChecked(a->objectName() == QStringLiteral("pipelineStages%1").arg(shown));
    });
    QAction *endStage =
        edit->addAction(tr("&End the pipeline stage here"), designer_, &DesignerPage::endStageAtSelection);
    endStage->setObjectName(QStringLiteral("endStageAction"));
    endStage->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    endStage->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    endStage->setToolTip(tr("Move the cut so that the selected layer's stage ends at it (Ctrl+Shift+E)"));
    designer_->addAction(endStage);
    edit->addSeparator();
    QAction *prefs = edit->addAction(tr("&Preferences…"), this, &MainWindow::showPreferences);
    prefs->setObjectName(QStringLiteral("preferencesAction"));
    prefs->setShortcut(QKeySequence::Preferences);
    prefs->setMenuRole(QAction::PreferencesRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    view->addSeparator();
    addPageAction(view, QStringLiteral("showDesigner"), tr("&Designer"), Qt::Key_1,
                  [this] { tabs_->setCurrentWidget(designer_); });
    addPageAction(view, QStringLiteral("showRunSetup"), tr("&Run set-up"), Qt::Key_2,
                  [this] { tabs_->setCurrentWidget(runSetup_); });
    QAction *showSweepsAction =
        addPageAction(view, QStringLiteral("showSweeps"), tr("S&weeps"), Qt::Key_3, [this] { showSweeps(); });
    showSweepsAction->setIcon(QIcon::fromTheme(QStringLiteral("view-list-details")));
    QAction *showClustersAction =
        addPageAction(view, QStringLiteral("showClusters"), tr("&Clusters"), Qt::Key_4, [this] { showClusters(); });
    showClustersAction->setIcon(QIcon::fromTheme(QStringLiteral("network-server")));
    addPageAction(view, QStringLiteral("showGallery"), tr("&Gallery"), Qt::Key_5, [this] { showGallery(); });
    QAction *showDataAction =
        addPageAction(view, QStringLiteral("showData"), tr("D&ata"), Qt::Key_6, [this] { showData(); });
    showDataAction->setIcon(QIcon::fromTheme(QStringLiteral("folder-documents")));
    view->addSeparator();
    QAction *fit = view->addAction(tr("&Fit network in view"), designer_, &DesignerPage::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *layout = view->addAction(tr("&Automatic layout"), designer_, &DesignerPage::autoLayout);
    layout->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    view->addSeparator();
    QAction *presenting = view->addAction(QIcon::fromTheme(QStringLiteral("video-display")), tr("&Presenter mode"));
    presenting->setObjectName(QStringLiteral("presenterModeAction"));
    presenting->setCheckable(true);
    presenting->setShortcut(QKeySequence(Qt::Key_F5));
    presenting->setToolTip(tr("Large fonts, thick chart lines and high contrast for a projector (F5)"));

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    QAction *trainAction = runMenu->addAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("&Train"),
                                              this, [this] { train(); });
    trainAction->setObjectName(QStringLiteral("trainAction"));
    // One shortcut for Train everywhere (the run set-up's button shows the same); application-wide, so it works
    // from the designer's canvas too.
    trainAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    trainAction->setShortcutContext(Qt::ApplicationShortcut);
    QAction *newSweepAction = runMenu->addAction(QIcon::fromTheme(QStringLiteral("view-statistics")), tr("New &sweep…"),
                                                 this, [this] { newSweep(); });
    newSweepAction->setObjectName(QStringLiteral("newSweepAction"));
    newSweepAction->setToolTip(tr("Search hyper-parameters of the network and run set-up on screen"));
    runMenu->addSeparator();
    QAction *compare =
        runMenu->addAction(tr("&Compare selected runs"), this, [this] { showCompare(runsPanel_->selectedRunIds()); });
    compare->setObjectName(QStringLiteral("compareAction"));
    runMenu->addAction(runsPanel_->stopAction());
    runMenu->addAction(runsPanel_->resumeAction());
    runMenu->addAction(runsPanel_->moveAction());
    runMenu->addAction(runsPanel_->publishAction());
    runMenu->addAction(runsPanel_->deleteAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *learnAction = help->addAction(QIcon::fromTheme(QStringLiteral("help-contents")), tr("&Lessons"), this,
                                           [this] { showLearn(); });
    learnAction->setObjectName(QStringLiteral("showLearn"));
    learnAction->setShortcut(QKeySequence::HelpContents);
    learnAction->setToolTip(tr("Short lessons that check your work as you go (F1)"));
    help->addSeparator();
    help->addAction(tr("&About Diamond"), this, &MainWindow::showAbout);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(open);
    toolbar->addAction(save);
    toolbar->addSeparator();
    toolbar->addAction(undo);
    toolbar->addAction(redo);
    toolbar->addSeparator();
    toolbar->addAction(layout);
    toolbar->addAction(fit);
    toolbar->addSeparator();
    toolbar->addAction(trainAction);
    toolbar->addAction(newSweepAction);
    toolbar->addSeparator();
    toolbar->addAction(showSweepsAction);
    toolbar->addAction(showClustersAction);
    toolbar->addSeparator();
    toolbar->addAction(presenting);
    toolbar->addAction(learnAction);
}

void MainWindow::showDesignerDocks(bool show) {
    // The designer's docks (layers, inspector, summary) make room on the other pages and come back with the
    // designer, unless the user had closed them.
    for (QDockWidget *dock : std::as_const(designerDocks_)) {
        if (show && hiddenForPage_.remove(dock)) {
            dock->show();
        } else if (!show && dock->isVisible()) {
            hiddenForPage_.insert(dock);
            dock->hide();
        }
    }
}

QAction *MainWindow::addPageAction(QMenu *menu, const QString &name, const QString &text, int key,
                                   std::function<void()> show) {
    QAction *a = menu->addAction(text, this, std::move(show));
    a->setObjectName(name);
    a->setShortcut(QKeySequence(Qt::CTRL | key));
    return a;
}

QAction *MainWindow::action(const QString &objectName) const {
    for (QAction *a : findChildren<QAction *>(objectName))
        return a;
    return nullptr;
}

void MainWindow::createDocks() {
    QMenu *view = menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"));
    QAction *firstViewAction = view->actions().value(0);
    auto addDock = [&](const QString &name, const QString &title, Qt::DockWidgetArea area, QWidget *content) {
        auto *dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(content);
        addDockWidget(area, dock);
        view->insertAction(firstViewAction, dock->toggleViewAction());
        return dock;
    };
    addDock(QStringLiteral("workspaceDock"), tr("Workspace"), Qt::LeftDockWidgetArea, workspacePanel_);
    designerDocks_ << addDock(QStringLiteral("paletteDock"), tr("Layers"), Qt::LeftDockWidgetArea,
                              designer_->palette());
    QDockWidget *inspector =
        addDock(QStringLiteral("inspectorDock"), tr("Inspector"), Qt::RightDockWidgetArea, designer_->inspector());
    QDockWidget *summary =
        addDock(QStringLiteral("summaryDock"), tr("Summary"), Qt::RightDockWidgetArea, designer_->summary());
    splitDockWidget(inspector, summary, Qt::Vertical);
    designerDocks_ << inspector << summary;
    addDock(QStringLiteral("runsDock"), tr("Runs"), Qt::BottomDockWidgetArea, runsPanel_);
    connect(workspacePanel_, &WorkspacePanel::runActivated, this, [this](qint64 id) {
        if (!service_) return;
        const auto run = app::RunStore(*workspace_).run(id);
        if (run && run->state == app::RunState::Draft)
            loadRun(id);
        else
            showRunMonitor(id);
    });
    connectRunsPanel();
}

void MainWindow::connectRunsPanel() {
    connect(runsPanel_, &RunsPanel::openRunRequested, this, [this](qint64 id) { showRunMonitor(id); });
    connect(runsPanel_, &RunsPanel::compareRequested, this, [this](const QList<qint64> &ids) { showCompare(ids); });
    connect(runsPanel_, &RunsPanel::publishRequested, this, [this](qint64 id) { publishRun(id); });
    connect(runsPanel_, &RunsPanel::stopRequested, this, &MainWindow::stopRuns);
    connect(runsPanel_, &RunsPanel::resumeRequested, this, &MainWindow::resumeRuns);
    connect(runsPanel_, &RunsPanel::moveRequested, this, &MainWindow::moveRun);
    connect(runsPanel_, &RunsPanel::deleteRequested, this, &MainWindow::deleteRuns);
}

bool MainWindow::isPermanentPage(QWidget *page) const {
    return page == designer_ || page == runSetup_ || page == gallery_ || page == clusters_ || page == sweeps_ ||
           page == data_ || page == learn_;
}

void MainWindow::chooseWorkspace() {
    auto *dialog = new QFileDialog(this, tr("Open workspace folder"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &folder) {
        closeTransientPages();
        compare_ = nullptr;
        openWorkspace(folder);
    });
    dialog->open();
}

bool MainWindow::loadRun(qint64 runId) {
    if (!workspace_) return false;
    app::RunStore store(*workspace_);
    const auto run = store.run(runId);
    if (!run) return false;
    const QString dir = workspace_->runDirectory(runId);
    QString error;
    if (!designer_->openSpec(QDir(dir).filePath(QStringLiteral("spec.json")), &error)) {
        statusBar()->showMessage(error);
        return false;
    }
    specFile_.clear();
    runSetup_->setConfig(run->config);
    runSetup_->setSpec(designer_->specJson());
    for (const app::Project &p : store.projects())
        if (p.id == run->projectId) loadedProject_ = p.name;
    updateTitle();
    statusBar()->showMessage(tr("Loaded \"%1\": press Train to run it.").arg(run->name), 8000);
    return true;
}

bool MainWindow::fineTuneFromPackage(const QString &packageFile) {
    if (!workspace_) return false;
    const QString dir =
        QDir(workspace_->path()).filePath(QStringLiteral("fine-tune/") + QFileInfo(packageFile).completeBaseName());
    QDir().mkpath(dir);
    const app::gallery::PackageCheck check = app::gallery::checkPackage(packageFile, dir);
    if (!check.ok) {
        QMessageBox::warning(this, tr("Cannot fine-tune"), check.message);
        return false;
    }
    QString error;
    const QString name = check.manifest.value(QStringLiteral("name")).toString();
    if (!designer_->openSpec(QDir(dir).filePath(QStringLiteral("spec.json")), &error)) {
        QMessageBox::warning(this, tr("Cannot fine-tune"), error);
        return false;
    }
    const QJsonObject training = check.manifest.value(QStringLiteral("training")).toObject();
    if (!training.isEmpty()) runSetup_->setConfig(training);
    runSetup_->setInitialWeights(QDir(dir).filePath(QStringLiteral("weights.safetensors")), name);
    runSetup_->setSpec(designer_->specJson());
    tabs_->setCurrentWidget(runSetup_);
    statusBar()->showMessage(tr("Fine-tuning \"%1\": adjust the settings and press Train.").arg(name), 8000);
    return true;
}

bool MainWindow::confirmDiscardDesign() {
    if (!designer_->isModified()) return true;
    return QMessageBox::question(this, tr("Discard changes?"), tr("The network has unsaved changes. Discard them?")) ==
           QMessageBox::Yes;
}

void MainWindow::openSpecFile() {
    if (!confirmDiscardDesign()) return;
    auto *dialog = new QFileDialog(this, tr("Open network"), QString(), tr("Diamond networks (*.json)"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        QString error;
        if (!designer_->openSpec(path, &error)) {
            QMessageBox::warning(this, tr("Cannot open the network"), error);
            return;
        }
        specFile_ = path;
        tabs_->setCurrentWidget(designer_);
        updateTitle();
    });
    dialog->open();
}

bool MainWindow::saveSpecFile(bool askForName) {
    QString path = specFile_;
    if (askForName || path.isEmpty()) {
        path = QFileDialog::getSaveFileName(this, tr("Save network"),
                                            designer_->specJson().value(QStringLiteral("name")).toString() +
                                                QStringLiteral(".json"),
                                            tr("Diamond networks (*.json)"));
        if (path.isEmpty()) return false;
    }
    QString error;
    if (!designer_->saveSpec(path, &error)) {
        QMessageBox::warning(this, tr("Cannot save the network"), error);
        return false;
    }
    specFile_ = path;
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::exportGraphImage() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export graph image"), QString(),
                                                      tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    if (!designer_->exportImage(path, &error)) QMessageBox::warning(this, tr("Cannot export the image"), error);
}

void MainWindow::updateTitle() {
    setWindowTitle(
        tr("%1%2 — Diamond").arg(designer_->title(), designer_->isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Diamond"),
                       tr("<h3>Diamond %1</h3><p>Train neural networks on your laptop or an HPC cluster "
                          "without learning the cluster.</p>")
                           .arg(app::versionString()));
}

void MainWindow::showPreferences() {
    auto *dialog = new PreferencesDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->save())
            statusBar()->showMessage(tr("The new language is applied when Diamond starts again."), 8000);
    });
    dialog->open();
}

void MainWindow::closeEvent(QCloseEvent *event) {
    presenter_->setActive(false); // the window keeps the layout and geometry it had before presenting
    // Engines on this computer stop with the app; cluster jobs go on and are followed again at the next start.
    int active = 0;
    if (service_)
        for (const app::Run &run : app::RunStore(*workspace_).runs())
            if (run.target == QLatin1String("local") &&
                service_->processStatus(run.id) != app::ProcessStatus::NotRunning)
                ++active;
    if (active > 0 &&
        QMessageBox::question(this, tr("Stop training?"),
                              tr("Closing Diamond stops %n run(s) on this computer. They can be resumed later from "
                                 "their newest checkpoint. Close anyway?",
                                 "", active)) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    showDesignerDocks(true); // the layout is saved as the designer shows it
    QSettings settings;
    settings.setValue(QStringLiteral("ui/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("ui/state"), saveState());
    event->accept();
}

} // namespace diamond::ui
