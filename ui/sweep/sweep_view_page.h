// SweepViewPage: the live view of one sweep: summary line, Pause/Resume/Stop and "Promote best" buttons,
// trials table (sortable), objective-by-trial scatter with the best-so-far line, parallel coordinates and
// parameter importance (docs/sweeps.md, "Parameter importance").
//
// Data comes from the workspace database (SweepStore), so the page shows a sweep run by this process (its controller
// lives in the RunService: refreshes on the controller's signals) or by another one (polls every 2 s while the sweep
// is not ended). Pause/Resume/Stop go through the RunService, which writes the state a controller of another process
// polls, or takes over a sweep whose controller died, as `diamondctl sweep resume|stop` does. Refreshes are
// coalesced: any number of controller events within 150 ms cause one read of the trial rows, which the table model
// applies incrementally.
#pragma once

#include "app/run/run_service.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_definition.h"
#include "app/sweep/sweep_store.h"
#include "ui/sweep/sweep_analysis.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace diamond::ui::sweep {

class ImportanceBars;
class ObjectiveScatterPlot;
class ParallelCoordinatesPlot;
class SweepTrialsModel;

class SweepViewPage : public QWidget {
    Q_OBJECT
public:
    /// `service` (and its workspace) must outlive the page.
    explicit SweepViewPage(app::RunService &service, QWidget *parent = nullptr);

    /// Shows a sweep: live when its controller runs in this process, else from the database; false with
    /// errorString().
    bool showSweep(qint64 sweepId);

    qint64 sweepId() const { return sweepId_; }
    app::sweep::SweepController *controller() const { return controller_; }
    QString errorString() const { return error_; }
    QPushButton *pauseButton() const { return pause_; }
    QPushButton *stopButton() const { return stop_; }
    /// Re-reads the trials now (what the coalescing timer calls).
    void refresh();

    /// Creates a draft run from the best trial: its spec and run config with the full budget
    /// (limits.budget_per_trial), named "<sweep> best (trial i)", in the sweep's project. Emits runCreated.
    std::optional<qint64> promoteBest();

    SweepTrialsModel *trialsModel() const { return model_; }
    QSortFilterProxyModel *proxyModel() const { return proxy_; }
    QTableView *trialsView() const { return table_; }
    ParallelCoordinatesPlot *parallelCoordinates() const { return parallel_; }
    ObjectiveScatterPlot *scatter() const { return scatter_; }
    ImportanceBars *importanceBars() const { return importance_; }
    /// Number of refreshes done (for tests of the coalescing).
    int refreshCount() const { return refreshes_; }

Q_SIGNALS:
    /// The user picked a trial (table, scatter point or parallel-coordinates line).
    void openRunRequested(qint64 runId);
    /// "Promote best" created a draft run.
    void runCreated(qint64 runId);

private:
    void scheduleRefresh();
    void openTrial(int trialIndex);
    void pauseOrResume();
    void stopSweep();
    void updateButtons();
    bool loadDefinition(qint64 sweepId);
    /// Follows the service's live controller of the shown sweep, if there is one now.
    void attachController();

    app::RunService &service_;
    app::Workspace &ws_;
    app::sweep::SweepStore store_;
    QPointer<app::sweep::SweepController> controller_;
    app::sweep::SweepDefinition def_;
    qint64 sweepId_ = 0;
    QString state_;
    QList<app::sweep::TrialRow> trials_;
    QString error_;
    int refreshes_ = 0;

    QLabel *title_, *summary_;
    QPushButton *pause_, *stop_, *promote_;
    SweepTrialsModel *model_;
    QSortFilterProxyModel *proxy_;
    QTableView *table_;
    ParallelCoordinatesPlot *parallel_;
    ObjectiveScatterPlot *scatter_;
    ImportanceBars *importance_;
    QTimer *coalesce_, *poll_;
};

} // namespace diamond::ui::sweep
