// SweepsPage: every sweep of the workspace in one table (name, target, algorithm, state, trials, best objective),
// with New sweep, Open, Pause / Continue and Stop. The table is re-read when a sweep starts, every 2 s while the page
// is visible, and on demand. Pause, continue and stop go through the RunService (for sweeps controlled here or by
// another process alike); New and Open are requests the main window carries out (it owns the tabs).
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;
class QTimer;

namespace diamond::app {
class RunService;
}

namespace diamond::ui::sweep {

class SweepsPage : public QWidget {
    Q_OBJECT
public:
    enum Column { IdCol, NameCol, TargetCol, AlgorithmCol, StateCol, TrialsCol, BestCol, ColumnCount };

    /// `service` must outlive the page.
    explicit SweepsPage(app::RunService &service, QWidget *parent = nullptr);

    QTableView *view() const { return view_; }
    QStandardItemModel *model() const { return model_; }
    QPushButton *newButton() const { return new_; }
    QPushButton *openButton() const { return open_; }
    QPushButton *pauseButton() const { return pause_; }
    QPushButton *stopButton() const { return stop_; }
    /// The sweep of the selected row, 0 when none.
    qint64 selectedSweepId() const;
    /// Selects the row of a sweep (false when it is not listed).
    bool selectSweep(qint64 sweepId);

public Q_SLOTS:
    void reload();

Q_SIGNALS:
    void newSweepRequested();
    void openSweepRequested(qint64 sweepId);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void updateButtons();
    QString selectedState() const;

    app::RunService &service_;
    QStandardItemModel *model_;
    QTableView *view_;
    QLabel *status_;
    QPushButton *new_, *open_, *pause_, *stop_;
    QTimer *poll_;
};

} // namespace diamond::ui::sweep
