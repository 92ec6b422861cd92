// SweepViewPage: the live view of one sweep: summary line, Pause/Resume/Stop and "Promote best" buttons,
// trials table (sortable), objective-by-trial scatter with the best-so-far line, parallel coordinates and
// parameter importance (docs/sweeps.md, "Parameter importance").
//
// Data comes from the workspace database (SweepStore), so the page shows a sweep run by this process
// (setController: refreshes on the controller's signals) or by another one (showSweep: polls every 2 s while
// the sweep is not ended; Pause/Resume/Stop write the state its controller polls, and Resume or Stop of a sweep
// whose controller died takes the sweep over in this process, as `diamondctl sweep resume|stop` does). Refreshes are
// coalesced: any number of controller events within 150 ms cause one read of the trial rows, which the table model
// applies incrementally.
#pragma once

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
    /// `workspace` must stay open while the page lives.
    explicit SweepViewPage(app::Workspace &workspace, QWidget *parent = nullptr);

    /// Follows a sweep run by `controller` (loaded or created). Takes ownership when it has no parent.
    bool setController(app::sweep::SweepController *controller);
    /// Shows a sweep from the database (run by another process, or ended); false with errorString().
    bool showSweep(qint64 sweepId);

    qint64 sweepId() const { return sweepId_; }
    app::sweep::SweepController *controller() const { return controller_; }
    QString errorString() const { return error_; }
    /// Engine for a controller the page creates itself (Resume or Stop of a sweep whose controller died).
    void setEnginePath(const QString &path) { enginePath_ = path; }
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
    /// For a sweep shown from the database whose controller is dead: takes it over in this process.
    bool takeOver();

    app::Workspace &ws_;
    app::sweep::SweepStore store_;
    QPointer<app::sweep::SweepController> controller_;
    app::sweep::SweepDefinition def_;
    qint64 sweepId_ = 0;
    QString state_;
    QList<app::sweep::TrialRow> trials_;
    QString error_;
    QString enginePath_;
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
