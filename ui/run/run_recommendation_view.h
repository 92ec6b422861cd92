// RunRecommendationView: the planner's recommendation on the run set-up page (docs/planning.md): where the run
// should go, how many processes, the predicted time per step and to finish, memory per process, and the chain of
// jobs as a small Gantt chart (JobChainChart), with "Use these settings" to copy it into the form and, for this
// computer, "Measure processes" to replace the predicted step times by measured ones. The user's own
// settings stay in the form; the view never changes them by itself.
#pragma once

#include <QJsonObject>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;

namespace diamond::ui {

class JobChainChart;

/// What a recommender answers for the form's run (the main window asks app::RunRecommender).
struct RunAdvice {
    QJsonObject plan;     ///< `diamondctl run plan --json`'s document; empty when there is none
    QString message;      ///< why there is none, or what is happening (e.g. calibrating)
    bool pending = false; ///< an answer follows (refresh the plan when it comes)
};

/// spec, config, the dry run's plan event, target ("local" or a cluster), threads per process (0 = all cores).
using RunRecommender = std::function<RunAdvice(const QJsonObject &spec, const QJsonObject &config,
                                               const QJsonObject &dryRun, const QString &target, int threads)>;

class RunRecommendationView : public QWidget {
    Q_OBJECT
public:
    explicit RunRecommendationView(QWidget *parent = nullptr);

    void setAdvice(const RunAdvice &advice);
    void clear(const QString &message = {});
    const QJsonObject &plan() const { return advice_.plan; }
    QString text() const;
    QPushButton *applyButton() const { return apply_; }
    QPushButton *measureButton() const { return measure_; }
    /// The Measure processes button shows that probes run (disabled) or not.
    void setMeasuring(bool measuring);
    JobChainChart *chart() const { return chart_; }

Q_SIGNALS:
    /// "Use these settings" was pressed: copy plan() into the form.
    void applyRequested(const QJsonObject &plan);
    /// "Measure processes" was pressed: measure the widths on this computer (app::RunRecommender::measureWidths).
    void measureRequested();

private:
    RunAdvice advice_;
    QLabel *label_ = nullptr;
    JobChainChart *chart_ = nullptr;
    QPushButton *apply_ = nullptr;
    QPushButton *measure_ = nullptr;
};

} // namespace diamond::ui
