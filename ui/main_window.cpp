#include "ui/main_window.h"

#include "app/app_info.h"
#include "app/sample_workspace.h"
#include "app/workspace.h"
#include "ui/workspace_panel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace diamond::ui {

MainWindow::MainWindow(QWidget *parent, const QString &workspaceFolder) : QMainWindow(parent) {
    setWindowTitle(tr("Diamond"));
    setObjectName(QStringLiteral("MainWindow"));
    tabs_ = new QTabWidget(this);
    tabs_->setDocumentMode(true);

    auto *welcome = new QWidget(tabs_);
    auto *layout = new QVBoxLayout(welcome);
    auto *title = new QLabel(tr("<h1>Welcome to Diamond</h1>"), welcome);
    auto *text = new QLabel(tr("Draw a network, press Train, and watch the loss fall."), welcome);
    text->setAlignment(Qt::AlignCenter);
    layout->addStretch();
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->addWidget(text, 0, Qt::AlignHCenter);
    layout->addStretch();
    tabs_->addTab(welcome, tr("Welcome"));
    setCentralWidget(tabs_);

    createActions();
    createDocks();
    openWorkspace(workspaceFolder);

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("ui/geometry")).toByteArray())) resize(1280, 800);
    restoreState(settings.value(QStringLiteral("ui/state")).toByteArray());
}

void MainWindow::createActions() {
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    menuBar()->addMenu(tr("&Edit"));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Diamond"), this, &MainWindow::showAbout);

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->addAction(quit);
}

void MainWindow::createDocks() {
    QMenu *view = menuBar()->findChild<QMenu *>(QStringLiteral("viewMenu"));
    auto addDock = [&](const QString &name, const QString &title, Qt::DockWidgetArea area, QWidget *content = nullptr) {
        auto *dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        if (!content) {
            auto *placeholder = new QLabel(tr("Nothing here yet."), dock);
            placeholder->setAlignment(Qt::AlignCenter);
            placeholder->setWordWrap(true);
            placeholder->setMinimumWidth(180);
            placeholder->setForegroundRole(QPalette::PlaceholderText);
            content = placeholder;
        }
        dock->setWidget(content);
        addDockWidget(area, dock);
        if (view) view->addAction(dock->toggleViewAction());
    };
    workspacePanel_ = new WorkspacePanel(this);
    addDock(QStringLiteral("workspaceDock"), tr("Workspace"), Qt::LeftDockWidgetArea, workspacePanel_);
    addDock(QStringLiteral("paletteDock"), tr("Layers"), Qt::LeftDockWidgetArea);
    addDock(QStringLiteral("inspectorDock"), tr("Inspector"), Qt::RightDockWidgetArea);
    addDock(QStringLiteral("runsDock"), tr("Runs"), Qt::BottomDockWidgetArea);
}

MainWindow::~MainWindow() = default;

void MainWindow::openWorkspace(const QString &folder) {
    workspace_ = std::make_unique<app::Workspace>();
    if (!app::openWorkspaceWithExamples(*workspace_, folder)) {
        // Not modal: the window stays usable (designer, templates) without a workspace.
        statusBar()->showMessage(tr("Could not open the workspace: %1").arg(workspace_->errorString()));
        workspace_.reset();
        return;
    }
    workspacePanel_->setWorkspace(workspace_.get());
    statusBar()->showMessage(tr("Workspace: %1").arg(QDir::toNativeSeparators(workspace_->path())));
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Diamond"),
                       tr("<h3>Diamond %1</h3><p>Train neural networks on your laptop or an HPC cluster "
                          "without learning the cluster.</p>")
                           .arg(app::versionString()));
}

void MainWindow::closeEvent(QCloseEvent *event) {
    QSettings settings;
    settings.setValue(QStringLiteral("ui/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("ui/state"), saveState());
    event->accept();
}

} // namespace diamond::ui
