#include "ui/main_window.h"

#include "app/app_info.h"
#include "app/cluster_run.h"
#include "app/executor.h"
#include "app/gallery/model_package.h"
#include "app/run_manager.h"
#include "app/sample_workspace.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_store.h"
#include "app/workspace.h"
#include "ui/cluster/cluster_manager_page.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/gallery/gallery_page.h"
#include "ui/preferences_dialog.h"
#include "ui/run/compare_page.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_panel.h"
#include "ui/sweep/sweep_editor.h"
#include "ui/sweep/sweep_view_page.h"
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
    designer_ = new DesignerPage(tabs_);
    runSetup_ = new RunSetupPage(tabs_);
    tabs_->addTab(designer_, tr("Designer"));
    tabs_->addTab(runSetup_, tr("Run set-up"));
    gallery_ = new GalleryPage(tabs_);
    tabs_->addTab(gallery_, tr("Gallery"));
    clusters_ = new ClusterManagerPage(this);
    clusters_->hide();
    connect(clusters_, &ClusterManagerPage::profilesChanged, runSetup_, &RunSetupPage::setClusterTargets);
    for (int i = 0; i < 3; ++i)
        if (QWidget *button = tabs_->tabBar()->tabButton(i, QTabBar::RightSide)) button->hide();
    setCentralWidget(tabs_);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget *page = tabs_->widget(index);
        if (page == designer_ || page == runSetup_ || page == gallery_) return;
        if (page == clusters_) {
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
    });
    connect(designer_, &DesignerPage::modifiedChanged, this, &MainWindow::updateTitle);
    connect(designer_, &DesignerPage::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 6000); });
    connect(designer_->document(), &GraphDocument::analysisChanged, this,
            [this] { runSetup_->setSpec(designer_->specJson()); });
    connect(runSetup_, &RunSetupPage::trainRequested, this, [this] { train(); });

    createActions();
    createDocks();
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
    deleteManagers();
    runsPanel_->setWorkspace(nullptr);
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
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = designer_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(QIcon::fromTheme(QStringLiteral("edit-undo")));
    QAction *redo = designer_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(QIcon::fromTheme(QStringLiteral("edit-redo")));
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
    edit->addSeparator();
    QAction *prefs = edit->addAction(tr("&Preferences…"), this, &MainWindow::showPreferences);
    prefs->setShortcut(QKeySequence::Preferences);
    prefs->setMenuRole(QAction::PreferencesRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    view->addSeparator();
    QAction *fit = view->addAction(tr("&Fit network in view"), designer_, &DesignerPage::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *layout = view->addAction(tr("&Automatic layout"), designer_, &DesignerPage::autoLayout);
    layout->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));

    QMenu *runMenu = menuBar()->addMenu(tr("&Run"));
    QAction *trainAction = runMenu->addAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("&Train"),
                                              this, [this] { train(); });
    trainAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return));
    runMenu->addAction(tr("Run &set-up"), this, [this] { tabs_->setCurrentWidget(runSetup_); });
    runMenu->addAction(tr("&Compare selected runs"), this, [this] { showCompare(runsPanel_->selectedRunIds()); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
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
    workspacePanel_ = new WorkspacePanel(this);
    runsPanel_ = new RunsPanel(this);
    addDock(QStringLiteral("workspaceDock"), tr("Workspace"), Qt::LeftDockWidgetArea, workspacePanel_);
    addDock(QStringLiteral("paletteDock"), tr("Layers"), Qt::LeftDockWidgetArea, designer_->palette());
    QDockWidget *inspector =
        addDock(QStringLiteral("inspectorDock"), tr("Inspector"), Qt::RightDockWidgetArea, designer_->inspector());
    QDockWidget *summary =
        addDock(QStringLiteral("summaryDock"), tr("Summary"), Qt::RightDockWidgetArea, designer_->summary());
    splitDockWidget(inspector, summary, Qt::Vertical);
    addDock(QStringLiteral("runsDock"), tr("Runs"), Qt::BottomDockWidgetArea, runsPanel_);
    connect(workspacePanel_, &WorkspacePanel::runActivated, this, [this](qint64 id) {
        if (!runManager_) return;
        const auto run = app::RunStore(*workspace_).run(id);
        if (run && run->state == app::RunState::Draft)
            loadRun(id);
        else
            showRunMonitor(id);
    });
    connect(runsPanel_, &RunsPanel::openRunRequested, this, [this](qint64 id) { showRunMonitor(id); });
    connect(runsPanel_, &RunsPanel::compareRequested, this, [this](const QList<qint64> &ids) { showCompare(ids); });
}

void MainWindow::deleteManagers() {
    qDeleteAll(clusterManagers_);
    clusterManagers_.clear();
    delete runManager_;
    runManager_ = nullptr;
}

app::RunManager *MainWindow::managerOf(qint64 runId) const {
    if (app::RunManager *cluster = clusterManagers_.value(runId)) return cluster;
    // A sweep trial is followed by its sweep controller's manager while the controller runs here.
    for (int i = 0; i < tabs_->count(); ++i)
        if (auto *sweep = qobject_cast<sweep::SweepViewPage *>(tabs_->widget(i)))
            if (sweep->controller() && sweep->controller()->runManager()->isActive(runId))
                return sweep->controller()->runManager();
    return runManager_;
}

bool MainWindow::isPermanentPage(QWidget *page) const {
    return page == designer_ || page == runSetup_ || page == gallery_ || page == clusters_;
}

void MainWindow::closeTransientPages() {
    for (int i = tabs_->count() - 1; i >= 0; --i) {
        QWidget *page = tabs_->widget(i);
        if (isPermanentPage(page)) continue;
        tabs_->removeTab(i);
        delete page;
    }
    monitors_.clear();
    compare_ = nullptr;
}

void MainWindow::refreshClusterTargets() {
    clusters_->setWorkspaceFolder(workspace_ ? workspace_->path() : QString());
    gallery_->setWorkspaceFolder(workspace_ ? workspace_->path() : QString());
    runSetup_->setClusterTargets(clusters_->clusterNames());
}

ClusterManagerPage *MainWindow::showClusters() {
    if (tabs_->indexOf(clusters_) < 0) tabs_->addTab(clusters_, tr("Clusters"));
    tabs_->setCurrentWidget(clusters_);
    return clusters_;
}

void MainWindow::openWorkspace(const QString &folder) {
    deleteManagers();
    runsPanel_->setWorkspace(nullptr);
    workspacePanel_->setWorkspace(nullptr);
    workspace_ = std::make_unique<app::Workspace>();
    if (!app::openWorkspaceWithExamples(*workspace_, folder)) {
        // Not modal: the window stays usable (designer, templates) without a workspace.
        statusBar()->showMessage(tr("Could not open the workspace: %1").arg(workspace_->errorString()));
        workspace_.reset();
        return;
    }
    auto *executor = new app::LocalExecutor;
    runManager_ = new app::RunManager(*workspace_, executor, this);
    connect(runManager_, &app::RunManager::runStateChanged, this, [this](qint64 id) {
        runsPanel_->refreshRun(id);
        workspacePanel_->reload();
    });
    workspacePanel_->setWorkspace(workspace_.get());
    runsPanel_->setWorkspace(workspace_.get());
    runManager_->reattach(); // runs started by diamondctl or a previous session keep streaming here
    // Cluster runs still going: follow their jobs again (ClusterExecutor::adopt()).
    for (const app::Run &run : app::RunStore(*workspace_).runs()) {
        if (run.state != app::RunState::Running || run.target.isEmpty() || run.target == QLatin1String("local"))
            continue;
        QString error;
        app::ClusterExecutor *executor = app::makeClusterExecutor(*workspace_, run.target, run.execution, &error);
        auto *manager = executor ? new app::RunManager(*workspace_, executor, this) : nullptr;
        if (!manager || !manager->adopt(run.id)) {
            statusBar()->showMessage(
                tr("Cannot follow cluster run %1: %2").arg(run.id).arg(manager ? manager->errorString() : error),
                10000);
            delete manager;
            continue;
        }
        connect(manager, &app::RunManager::runStateChanged, this, [this](qint64 id) {
            runsPanel_->refreshRun(id);
            workspacePanel_->reload();
        });
        clusterManagers_.insert(run.id, manager);
    }
    refreshClusterTargets();
    statusBar()->showMessage(tr("Workspace: %1").arg(QDir::toNativeSeparators(workspace_->path())));
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

qint64 MainWindow::train() {
    if (!workspace_ || !runManager_) {
        QMessageBox::warning(this, tr("Cannot train"), tr("No workspace is open."));
        return 0;
    }
    if (designer_->document()->nodeCount() == 0 || designer_->document()->errorCount() > 0) {
        QMessageBox::warning(this, tr("Cannot train"),
                             tr("The network has %n error(s); the designer marks them in red.", "",
                                designer_->document()->errorCount()));
        tabs_->setCurrentWidget(designer_);
        return 0;
    }
    QString project = workspacePanel_->currentProject();
    if (project.isEmpty()) project = loadedProject_.isEmpty() ? tr("My runs") : loadedProject_;
    QJsonObject execution = runSetup_->execution();
    if (!execution.contains(QStringLiteral("threads"))) {
        const int threads = QSettings().value(QStringLiteral("run/threads"), 0).toInt();
        if (threads > 0) execution.insert(QStringLiteral("threads"), threads);
    }
    app::RunStore store(*workspace_);
    const QJsonObject spec = designer_->specJson();
    const auto run = store.createRunWithSpec(project, spec, spec.value(QStringLiteral("name")).toString(), QString(),
                                             runSetup_->config(), runSetup_->target(), execution);
    if (!run) {
        QMessageBox::warning(this, tr("Cannot train"), store.errorString());
        return 0;
    }
    app::RunManager *manager = runManager_;
    if (run->target != QLatin1String("local")) {
        QString error;
        app::ClusterExecutor *executor = app::makeClusterExecutor(*workspace_, run->target, execution, &error);
        if (!executor) {
            QMessageBox::warning(this, tr("Cannot train"), error);
            return 0;
        }
        manager = new app::RunManager(*workspace_, executor, this);
        connect(manager, &app::RunManager::runStateChanged, this, [this](qint64 id) {
            runsPanel_->refreshRun(id);
            workspacePanel_->reload();
        });
        clusterManagers_.insert(run->id, manager);
    }
    runsPanel_->refreshRun(run->id);
    showRunMonitor(run->id);
    if (!manager->startRun(run->id)) QMessageBox::warning(this, tr("Cannot train"), manager->errorString());
    workspacePanel_->reload();
    return run->id;
}

RunMonitorPage *MainWindow::showRunMonitor(qint64 runId) {
    if (RunMonitorPage *existing = monitors_.value(runId)) {
        tabs_->setCurrentWidget(existing);
        return existing;
    }
    if (!workspace_ || !runManager_) return nullptr;
    auto *page = new RunMonitorPage(*workspace_, managerOf(runId), runId, tabs_);
    monitors_.insert(runId, page);
    const int index = tabs_->addTab(page, page->title());
    connect(page, &RunMonitorPage::titleChanged, this,
            [this, page](const QString &title) { tabs_->setTabText(tabs_->indexOf(page), title); });
    tabs_->setCurrentIndex(index);
    return page;
}

ComparePage *MainWindow::showCompare(const QList<qint64> &runIds) {
    if (!workspace_ || runIds.isEmpty()) return nullptr;
    if (!compare_) {
        compare_ = new ComparePage(*workspace_, tabs_);
        tabs_->addTab(compare_, tr("Compare"));
    }
    compare_->setRuns(runIds);
    tabs_->setCurrentWidget(compare_);
    return compare_;
}

void MainWindow::newSweep() {
    if (!workspace_) return;
    auto *editor = new sweep::SweepEditor(tabs_);
    editor->setWorkspace(workspace_.get());
    editor->setEnginePath(app::LocalExecutor::defaultEnginePath());
    editor->setBase(designer_->specJson(), runSetup_->config());
    tabs_->setCurrentIndex(tabs_->addTab(editor, tr("New sweep")));
    connect(editor, &sweep::SweepEditor::sweepStarted, this, [this, editor](app::sweep::SweepController *controller) {
        auto *page = new sweep::SweepViewPage(*workspace_, tabs_);
        page->setEnginePath(app::LocalExecutor::defaultEnginePath());
        page->setController(controller);
        connect(controller, &app::sweep::SweepController::trialStarted, this,
                [this](int, qint64 runId) { runsPanel_->refreshRun(runId); });
        connect(page, &sweep::SweepViewPage::openRunRequested, this, [this](qint64 id) { showRunMonitor(id); });
        connect(page, &sweep::SweepViewPage::runCreated, this, [this](qint64 id) {
            runsPanel_->refreshRun(id);
            if (loadRun(id)) tabs_->setCurrentWidget(runSetup_);
        });
        const int index = tabs_->indexOf(editor);
        tabs_->insertTab(index, page, tr("Sweep %1").arg(controller->sweepId()));
        tabs_->removeTab(tabs_->indexOf(editor));
        editor->deleteLater();
        tabs_->setCurrentWidget(page);
    });
}

void MainWindow::openSweep(qint64 sweepId) {
    if (!workspace_) return;
    auto *page = new sweep::SweepViewPage(*workspace_, tabs_);
    page->setEnginePath(app::LocalExecutor::defaultEnginePath());
    page->showSweep(sweepId);
    connect(page, &sweep::SweepViewPage::openRunRequested, this, [this](qint64 id) { showRunMonitor(id); });
    connect(page, &sweep::SweepViewPage::runCreated, this, [this](qint64 id) {
        runsPanel_->refreshRun(id);
        if (loadRun(id)) tabs_->setCurrentWidget(runSetup_);
    });
    tabs_->setCurrentIndex(tabs_->addTab(page, tr("Sweep %1").arg(sweepId)));
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
    int active = 0;
    if (workspace_ && runManager_)
        for (const app::Run &run : app::RunStore(*workspace_).runs())
            if (app::RunManager *m = managerOf(run.id);
                m->isActive(run.id) && m->executor()->status(run.id) != app::ProcessStatus::NotRunning)
                ++active;
    if (active > 0 &&
        QMessageBox::question(this, tr("Stop training?"),
                              tr("Closing Diamond stops %n running run(s). They can be resumed later from their "
                                 "newest checkpoint. Close anyway?",
                                 "", active)) != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("ui/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("ui/state"), saveState());
    event->accept();
}

} // namespace diamond::ui
