// JobChainChart: the run plan's chain of scheduler jobs as a small Gantt chart (docs/planning.md). One row per job
// on a shared time axis: start-up (grey), training (the palette's highlight), and the checkpoint before the time
// limit (orange) where the next job takes over; the dashed frame is the job's time limit. Past kMaxRows jobs, the
// last row stands for the rest. Paints from the plan's JSON (`diamondctl run plan --json`) only.
#pragma once

#include <QJsonObject>
#include <QWidget>

namespace diamond::ui {

class JobChainChart : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxRows = 6;

    explicit JobChainChart(QWidget *parent = nullptr);

    /// The plan to draw; an empty object clears the chart.
    void setPlan(const QJsonObject &plan);

    struct Bar {
        double start = 0, startup = 0, compute = 0, checkpoint = 0; ///< seconds
        double limit = 0;                                           ///< the job's time limit; 0 = none
        QString label;
    };
    /// The rows drawn, in seconds from the first job's start (for tests and the tooltip).
    const QList<Bar> &bars() const { return bars_; }
    double totalSeconds() const { return total_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<Bar> bars_;
    double total_ = 0;
};

} // namespace diamond::ui
