// MainWindow: the open workspace and its RunService, and the pages that show runs and sweeps (run monitors,
// compare, sweeps, sweep editor and views, clusters, gallery, publish). Every run operation goes through the service.
#include "ui/main_window.h"

#include "app/cluster/cluster_store.h"
#include "app/learn/lesson_progress.h"
#include "app/plan/run_recommender.h"
#include "app/run/run_service.h"
#include "app/run/run_store.h"
#include "app/workspace/sample_workspace.h"
#include "app/workspace/workspace.h"
#include "ui/cluster/cluster_manager_page.h"
#include "ui/cluster/sign_in_prompter.h"
#include "ui/connect_server_dialog.h"
#include "ui/data/datasets_page.h"
#include "ui/designer/designer_page.h"
#include "ui/designer/graph_document.h"
#include "ui/designer/inspector.h"
#include "ui/designer/layer_palette.h"
#include "ui/designer/summary_panel.h"
#include "ui/gallery/gallery_page.h"
#include "ui/gallery/publish_dialog.h"
#include "ui/gallery/server_publish_dialog.h"
#include "ui/learn/learn_page.h"
#include "ui/learn/widget_highlight.h"
#include "ui/presenter_mode.h"
#include "ui/run/compare_page.h"
#include "ui/run/run_monitor_page.h"
#include "ui/run/run_setup_page.h"
#include "ui/run/runs_panel.h"
#include "ui/sweep/sweep_editor.h"
#include "ui/sweep/sweep_view_page.h"
#include "ui/sweep/sweeps_page.h"
#include "ui/workspace_panel.h"

#include <QDir>
#include <QDockWidget>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace diamond::ui {

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
    data_->setWorkspaceFolder(workspace_ ? workspace_->path() : QString());
    learn_->setWorkspace(workspace_.get());
    refreshDatasets();
    runSetup_->setClusterTargets(clusters_->clusterNames());
    runSetup_->setServerTargets(service_ ? service_->classServers() : QList<app::ClassServer>());
}

ConnectServerDialog *MainWindow::connectToServer() {
    auto *dialog = new ConnectServerDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ConnectServerDialog::connected, this, &MainWindow::addClassServer);
    dialog->open();
    return dialog;
}

void MainWindow::addClassServer(const app::ClassServer &server) {
    if (!service_) {
        statusBar()->showMessage(tr("No workspace is open."), 6000);
        return;
    }
    service_->addClassServer(server);
    refreshClusterTargets();
    runSetup_->setTarget(app::classServerTarget(server.name));
    service_->followAll(); // runs started there earlier in this workspace
    if (!statusServer_) {
        statusServer_ = new QLabel(this);
        statusServer_->setObjectName(QStringLiteral("statusServer"));
        statusBar()->addPermanentWidget(statusServer_);
    }
    statusServer_->setText(tr("Class server: %1 (%2)").arg(server.name, server.role));
    statusBar()->showMessage(
        tr("Signed in to %1 as %2. Train now runs there; choose \"This computer\" in the run set-up to train here.")
            .arg(server.url.toDisplayString(), server.user),
        12000);
}

void MainWindow::showPage(QWidget *page, const QString &title) {
    if (tabs_->indexOf(page) < 0) tabs_->addTab(page, title);
    tabs_->setCurrentWidget(page);
}

ClusterManagerPage *MainWindow::showClusters() {
    showPage(clusters_, tr("Clusters"));
    return clusters_;
}

sweep::SweepsPage *MainWindow::showSweeps() {
    if (!sweeps_) {
        statusBar()->showMessage(tr("No workspace is open."), 6000);
        return nullptr;
    }
    showPage(sweeps_, tr("Sweeps"));
    return sweeps_;
}

DatasetsPage *MainWindow::showData() {
    showPage(data_, tr("Data"));
    return data_;
}

void MainWindow::refreshDatasets() {
    QList<RegisteredDataset> choices;
    for (const app::DatasetSummary &s : data_->datasets())
        choices.append({s.name, s.latest.version, s.latest.format, s.latest.schema});
    runSetup_->setRegisteredDatasets(choices);
}

LearnPage *MainWindow::showLearn() {
    showPage(learn_, tr("Learn"));
    return learn_;
}

QWidget *MainWindow::showLessonPlace(const QString &page, const QString &widget) {
    if (page == QLatin1String("designer"))
        tabs_->setCurrentWidget(designer_);
    else if (page == QLatin1String("setup"))
        tabs_->setCurrentWidget(runSetup_);
    else if (page == QLatin1String("data"))
        showData();
    else if (page == QLatin1String("gallery"))
        showGallery();
    else if (page == QLatin1String("clusters"))
        showClusters();
    else if (page == QLatin1String("sweeps"))
        showSweeps();
    else if (page == QLatin1String("learn"))
        showLearn();
    else if (page == QLatin1String("runs")) {
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("runsDock"))) dock->show();
    }
    if (widget.isEmpty()) return nullptr;
    // A widget of that name that is on screen, else the toolbar button of an action of that name.
    QWidget *target = nullptr;
    for (QWidget *w : findChildren<QWidget *>(widget))
        if (w->isVisible()) target = w;
    if (QAction *a = action(widget); a && !target) {
        for (QToolBar *bar : findChildren<QToolBar *>())
            if (QWidget *button = bar->widgetForAction(a); button && button->isVisible()) target = button;
    }
    if (!target || !highlight_->showOver(target)) {
        statusBar()->showMessage(tr("Look for \"%1\" on this page.").arg(widget), 6000);
        return nullptr;
    }
    return target;
}

GalleryPage *MainWindow::showGallery() {
    showPage(gallery_, tr("Gallery"));
    return gallery_;
}

void MainWindow::closeWorkspace() {
    if (sweeps_) {
        tabs_->removeTab(tabs_->indexOf(sweeps_));
        delete sweeps_;
        sweeps_ = nullptr;
    }
    runsPanel_->setWorkspace(nullptr);
    workspacePanel_->setWorkspace(nullptr);
    learn_->setWorkspace(nullptr);
    // The cluster page talks through the service's links: back to its own before they go.
    if (clusters_) clusters_->setLinks(nullptr, nullptr);
    recommender_->setClusterLinks(nullptr);
    delete service_;
    service_ = nullptr;
    recommender_->setWorkspace(nullptr);
    workspace_.reset();
}

void MainWindow::openWorkspace(const QString &folder) {
    closeWorkspace();
    workspace_ = std::make_unique<app::Workspace>();
    if (!app::openWorkspaceWithExamples(*workspace_, folder)) {
        // Not modal: the window stays usable (designer, templates) without a workspace.
        statusBar()->showMessage(tr("Could not open the workspace: %1").arg(workspace_->errorString()));
        workspace_.reset();
        return;
    }
    service_ = new app::RunService(*workspace_, this);
    recommender_->setWorkspace(workspace_.get());
    recommender_->setClusterLinks(service_->clusterLinks());
    service_->clusterLinks()->setPrompter(prompter_);
    auto refresh = [this](qint64 id) {
        runsPanel_->refreshRun(id);
        workspacePanel_->reload();
    };
    connect(service_, &app::RunService::runStateChanged, this, refresh);
    connect(service_, &app::RunService::runCreated, this, refresh);
    connect(service_, &app::RunService::clusterJobChanged, runsPanel_, &RunsPanel::refreshRun);
    connect(service_, &app::RunService::runDeleted, this, [this](qint64 id) {
        if (RunMonitorPage *monitor = monitors_.take(id)) {
            tabs_->removeTab(tabs_->indexOf(monitor));
            monitor->deleteLater();
        }
        runsPanel_->reload();
        workspacePanel_->reload();
    });
    connect(service_, &app::RunService::cancelFailed, this, [this](qint64 id, const QString &error) {
        statusBar()->showMessage(tr("Run %1 was not stopped: %2").arg(id).arg(error), 15000);
    });
    connect(service_, &app::RunService::runMoved, this, [this](qint64 id, const QString &from, const QString &to) {
        statusBar()->showMessage(tr("Run %1 moved from %2 to %3.").arg(id).arg(from, to), 15000);
        runsPanel_->refreshRun(id);
    });
    connect(service_, &app::RunService::raceWon, this, [this](qint64 id, const QString &cluster) {
        statusBar()->showMessage(tr("Run %1 started first on %2; the other jobs are cancelled.").arg(id).arg(cluster),
                                 15000);
        runsPanel_->refreshRun(id);
    });
    connect(service_, &app::RunService::raceLost, this, [this](qint64 id, const QString &error) {
        statusBar()->showMessage(tr("Run %1 did not start: %2").arg(id).arg(error), 15000);
        runsPanel_->refreshRun(id);
    });
    connect(service_, &app::RunService::moveFailed, this, [this](qint64 id, const QString &error) {
        statusBar()->showMessage(tr("Run %1 was not moved: %2").arg(id).arg(error), 15000);
    });
    workspacePanel_->setWorkspace(workspace_.get());
    runsPanel_->setWorkspace(workspace_.get());
    clusters_->setLinks(service_->clusterLinks(), prompter_);
    sweeps_ = new sweep::SweepsPage(*service_, tabs_);
    sweeps_->hide();
    connect(sweeps_, &sweep::SweepsPage::newSweepRequested, this, &MainWindow::newSweep);
    connect(sweeps_, &sweep::SweepsPage::openSweepRequested, this, [this](qint64 id) { openSweep(id); });
    // Runs started by diamondctl, the REST server or a previous session keep streaming here; cluster jobs are
    // followed again (no second job is submitted).
    service_->followAll();
    refreshClusterTargets();
    statusBar()->showMessage(tr("Workspace: %1").arg(QDir::toNativeSeparators(workspace_->path())));
}

qint64 MainWindow::train() {
    if (!service_) {
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
    app::RunService::NewRun n;
    // A lesson's runs go to its project (the lesson's leaderboard); otherwise the selected or loaded project.
    n.project = lessonProject_.isEmpty() ? workspacePanel_->currentProject() : lessonProject_;
    if (n.project.isEmpty()) n.project = loadedProject_.isEmpty() ? tr("My runs") : loadedProject_;
    n.execution = runSetup_->execution();
    if (!n.execution.contains(QStringLiteral("threads"))) {
        const int threads = QSettings().value(QStringLiteral("run/threads"), 0).toInt();
        if (threads > 0) n.execution.insert(QStringLiteral("threads"), threads);
    }
    n.spec = designer_->specJson();
    n.config = runSetup_->config();
    n.target = runSetup_->target();
    const QStringList race = runSetup_->raceClusters();
    if (!race.isEmpty()) n.target = race.first(); // re-pointed to the winner
    const auto run = service_->createRun(n);
    if (!run) {
        QMessageBox::warning(this, tr("Cannot train"), service_->errorString());
        return 0;
    }
    showRunMonitor(run->id);
    const bool started = race.isEmpty() ? service_->start(run->id) : service_->startRace(run->id, race);
    if (!started) QMessageBox::warning(this, tr("Cannot train"), service_->errorString());
    if (started && !race.isEmpty())
        statusBar()->showMessage(
            tr("Run %1 submitted to %2; the first to start keeps it.").arg(run->id).arg(race.join(u", ")), 15000);
    runsPanel_->refreshRun(run->id);
    workspacePanel_->reload();
    return run->id;
}

RunMonitorPage *MainWindow::showRunMonitor(qint64 runId) {
    if (RunMonitorPage *existing = monitors_.value(runId)) {
        tabs_->setCurrentWidget(existing);
        return existing;
    }
    if (!service_) return nullptr;
    auto *page = new RunMonitorPage(*workspace_, service_, runId, tabs_);
    monitors_.insert(runId, page);
    page->setPresenting(presenter_->isActive());
    const int index = tabs_->addTab(page, page->title());
    connect(page, &RunMonitorPage::titleChanged, this,
            [this, page](const QString &title) { tabs_->setTabText(tabs_->indexOf(page), title); });
    connect(page, &RunMonitorPage::publishRequested, this, [this](qint64 id) { publishRun(id); });
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
    // Lessons check that runs were compared; no other table records it.
    if (runIds.size() >= 2) {
        QJsonArray ids;
        for (qint64 id : runIds)
            ids.append(id);
        app::LessonProgressStore(*workspace_)
            .recordActivity(QStringLiteral("compare"), {{QStringLiteral("runs"), ids}});
    }
    tabs_->setCurrentWidget(compare_);
    return compare_;
}

ServerPublishDialog *MainWindow::publishOnServer(qint64 runId) {
    if (!workspace_) return nullptr;
    const auto run = app::RunStore(*workspace_).run(runId);
    if (!run || !app::isClassServerTarget(run->target)) return nullptr;
    auto *dialog = new ServerPublishDialog(*service_, runId, run->name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ServerPublishDialog::published, this, [this](const QJsonObject &entry) {
        statusBar()->showMessage(
            tr("Published to the class gallery (entry %1).").arg(entry.value(QStringLiteral("id")).toInteger()), 10000);
    });
    dialog->open();
    return dialog;
}

PublishDialog *MainWindow::publishRun(qint64 runId) {
    // A run of a class server has its weights there: it is published to that server's gallery.
    if (publishOnServer(runId)) return nullptr;
    PublishDialog *dialog = gallery_->publishRun(runId);
    if (!dialog) {
        statusBar()->showMessage(tr("No workspace is open."), 6000);
        return nullptr;
    }
    connect(dialog, &PublishDialog::published, this, [this](qint64 entryId, bool consistent) {
        statusBar()->showMessage(consistent
                                     ? tr("Published to the gallery (entry %1, signed and consistent).").arg(entryId)
                                     : tr("Published to the gallery (entry %1).").arg(entryId),
                                 10000);
    });
    return dialog;
}

void MainWindow::stopRuns(const QList<qint64> &runIds) {
    QStringList problems;
    for (qint64 id : runIds)
        if (!service_->cancel(id)) problems << service_->errorString();
    if (!problems.isEmpty()) statusBar()->showMessage(problems.join(QLatin1Char(' ')), 15000);
}

void MainWindow::resumeRuns(const QList<qint64> &runIds) {
    QStringList problems;
    for (qint64 id : runIds) {
        if (!service_->resume(id))
            problems << service_->errorString();
        else
            showRunMonitor(id);
    }
    if (!problems.isEmpty()) statusBar()->showMessage(problems.join(QLatin1Char(' ')), 15000);
}

void MainWindow::moveRun(qint64 runId) {
    if (!service_ || !workspace_) return;
    const auto run = app::RunStore(*workspace_).run(runId);
    if (!run) return;
    QStringList names, targets;
    if (run->target != QLatin1String("local") && !run->target.isEmpty()) {
        names << tr("This computer");
        targets << QStringLiteral("local");
    }
    for (const remote::ClusterProfile &p : app::ClusterStore(*workspace_).profiles())
        if (p.scheduler != remote::SchedulerKind::None && p.name != run->target) {
            names << p.name;
            targets << p.name;
        }
    if (targets.isEmpty()) {
        statusBar()->showMessage(
            tr("There is no other cluster to move run %1 to; add one on the Clusters page.").arg(runId), 10000);
        return;
    }
    auto *dialog = new QInputDialog(this);
    dialog->setObjectName(QStringLiteral("moveRunDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Move run"));
    dialog->setLabelText(tr("Run %1 \"%2\" is on %3.\nIt stops at a checkpoint, the checkpoint comes to this "
                            "computer, and the run continues from it on:")
                             .arg(runId)
                             .arg(run->name, run->target));
    if (auto *label = dialog->findChild<QLabel *>()) {
        label->setWordWrap(true);
        label->setMinimumWidth(460);
    }
    dialog->setComboBoxItems(names);
    dialog->setComboBoxEditable(false);
    dialog->setOkButtonText(tr("&Move"));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, runId, names, targets](const QString &choice) {
        const QString target = targets.value(names.indexOf(choice));
        if (target.isEmpty() || !service_) return;
        if (!service_->moveRun(runId, target)) {
            statusBar()->showMessage(service_->errorString(), 15000);
            return;
        }
        statusBar()->showMessage(service_->isMoving(runId)
                                     ? tr("Stopping run %1 at a checkpoint to move it to %2…").arg(runId).arg(choice)
                                     : tr("Run %1 moved to %2.").arg(runId).arg(choice),
                                 15000);
    });
    dialog->open();
}

void MainWindow::deleteRuns(const QList<qint64> &runIds) {
    if (runIds.isEmpty() || !service_) return;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Delete runs"),
                                tr("Delete %n run(s) with their curves, checkpoints and folder? This cannot be undone.",
                                   "", int(runIds.size())),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("deleteRunsQuestion"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, runIds](int result) {
        if (result != QMessageBox::Yes || !service_) return;
        QStringList problems;
        for (qint64 id : runIds)
            if (!service_->deleteRun(id)) problems << service_->errorString();
        statusBar()->showMessage(problems.isEmpty() ? tr("Deleted %n run(s).", "", int(runIds.size()))
                                                    : problems.join(QLatin1Char(' ')),
                                 10000);
    });
    box->open();
}

void MainWindow::newSweep() {
    if (!service_) return;
    auto *editor = new sweep::SweepEditor(tabs_);
    editor->setService(service_);
    editor->setBase(designer_->specJson(), runSetup_->config());
    tabs_->setCurrentIndex(tabs_->addTab(editor, tr("New sweep")));
    connect(editor, &sweep::SweepEditor::sweepStarted, this, [this, editor](qint64 sweepId) {
        const int index = tabs_->indexOf(editor);
        tabs_->removeTab(index);
        editor->deleteLater();
        openSweep(sweepId);
    });
}

sweep::SweepViewPage *MainWindow::openSweep(qint64 sweepId) {
    if (!service_) return nullptr;
    for (int i = 0; i < tabs_->count(); ++i)
        if (auto *open = qobject_cast<sweep::SweepViewPage *>(tabs_->widget(i)); open && open->sweepId() == sweepId) {
            tabs_->setCurrentIndex(i);
            return open;
        }
    auto *page = new sweep::SweepViewPage(*service_, tabs_);
    if (!page->showSweep(sweepId)) {
        statusBar()->showMessage(page->errorString(), 10000);
        delete page;
        return nullptr;
    }
    connect(page, &sweep::SweepViewPage::openRunRequested, this, [this](qint64 id) { showRunMonitor(id); });
    connect(page, &sweep::SweepViewPage::runCreated, this, [this](qint64 id) {
        runsPanel_->refreshRun(id);
        if (loadRun(id)) tabs_->setCurrentWidget(runSetup_);
    });
    if (auto *controller = service_->sweepController(sweepId))
        connect(controller, &app::sweep::SweepController::trialStarted, this,
                [this](int, qint64 runId) { runsPanel_->refreshRun(runId); });
    tabs_->setCurrentIndex(tabs_->addTab(page, tr("Sweep %1").arg(sweepId)));
    return page;
}

} // namespace diamond::ui
