// RunSetupPage: everything a run needs besides the network: dataset (with a preview), optimizer, schedule, loss,
// metrics, epochs, batch size, validation split, seed, and where to run it. The engine's dry-run plan of the
// current network + settings is refreshed (debounced, asynchronously) whenever either changes, so the plan is on
// screen before Train is pressed.
//
// config() returns the run config (docs/run-config.md): the base config given to setConfig() with the form's
// fields written over it, so options the form does not show are kept.
#pragma once

#include "app/run/class_server.h"
#include "ui/run/run_recommendation_view.h"

#include <QJsonObject>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace diamond::app {
class EnginePlanJob;
}

namespace diamond::ui {

class ComputeOptions;
class DatasetPreviewWidget;

/// A registered dataset the form offers as data (from the workspace's DatasetStore).
struct RegisteredDataset {
    QString name;
    int version = 0;    ///< the newest
    QString format;     ///< the engine source: csv, npy, ...
    QJsonObject schema; ///< DatasetVersion::schema (target, skip_rows, header, classes)
};

class RunSetupPage : public QWidget {
    Q_OBJECT
public:
    explicit RunSetupPage(QWidget *parent = nullptr);

    void setConfig(const QJsonObject &config);
    QJsonObject config() const;
    /// Execution settings for RunStore::createRun: {"nproc": N, "threads": T} on this computer; for a cluster
    /// {"threads": T, "job": {"partition", "nodes": 1, "tasks_per_node": N, "time_limit_minutes"}}.
    QJsonObject execution() const;
    /// The clusters of a "first to start" target ("race:A,B", the last item when two or more clusters exist); empty
    /// for any other target.
    QStringList raceClusters() const;
    QString target() const;
    /// Fine-tuning: the run starts from these weights (a safetensors file); empty = fresh weights.
    void setInitialWeights(const QString &path, const QString &description = {});
    QString initialWeights() const { return initWeights_; }
    /// Compute targets besides this computer (cluster profile names).
    void setClusterTargets(const QStringList &names);
    /// The GPU types of a cluster's partitions, offered in the GPU type list (the main window: the Clusters page).
    void setGpuTypesProvider(std::function<QStringList(const QString &cluster)> provider) {
        gpuTypes_ = std::move(provider);
    }
    /// Signed-in class servers, offered as "Class server: NAME" (the server's computer) and "Class server: NAME ›
    /// CLUSTER" for each of its clusters (app::classServerTarget()).
    void setServerTargets(const QList<app::ClassServer> &servers);
    /// Selects a target by its value ("local", a cluster name, "server:NAME"); false when not offered.
    bool setTarget(const QString &target);

    /// Registered datasets, offered after the built-in sources as "name (registered)".
    void setRegisteredDatasets(const QList<RegisteredDataset> &datasets);
    /// Makes a registered dataset the run's data (data.dataset); false when there is none of that name.
    bool useDataset(const QString &name);
    /// Where a registered dataset ("name" or "name@N") is on this computer, for the preview and the dry-run plan.
    void setDataPathResolver(std::function<QString(const QString &ref)> resolver) {
        resolveData_ = std::move(resolver);
    }

    /// The network the plan is computed for.
    void setSpec(const QJsonObject &spec);
    QJsonObject plan() const { return plan_; }
    /// Where the planner's recommendation comes from (the main window: app::RunRecommender); none = not shown.
    void setRecommender(RunRecommender recommender);
    RunRecommendationView *recommendation() const { return advice_; }
    /// Starts measuring the widths for the form's run (the main window: app::RunRecommender::measureWidths); returns
    /// an error message, or empty when the measurement started (then call widthsMeasured()).
    using WidthMeasurer = std::function<QString(const QJsonObject &spec, const QJsonObject &config,
                                                const QJsonObject &dryRun, const QString &target, int threads)>;
    void setWidthMeasurer(WidthMeasurer measurer) { measureWidths_ = std::move(measurer); }
    /// The measurement ended: the recommendation is asked again (it now uses the measured times).
    void widthsMeasured();
    /// Asks the recommender again (its inputs changed: queue waits answered), without a new dry run.
    void refreshRecommendation();
    /// Copies a plan's choices into the form: processes, and on a cluster the partition, time limit, chain and
    /// stop-signal lead; the checkpoint interval goes into the config.
    void applyPlan(const QJsonObject &plan);
    /// Computes the plan again (after this computer's calibration, for instance).
    void refreshPlan() { schedulePlan(); }
    QString planText() const;
    bool isPlanPending() const;

    QPushButton *trainButton() const { return train_; }
    DatasetPreviewWidget *preview() const { return preview_; }

Q_SIGNALS:
    /// Train was pressed with a valid form.
    void trainRequested(const QJsonObject &config, const QJsonObject &execution, const QString &target);
    void planUpdated();

private:
    void buildUi();
    void loadForm(const QJsonObject &config);
    void sourceChanged();
    /// Fills the array pickers (HDF5, NPZ) from the preview's listing: the config's arrays, else the guessed ones.
    void fillArrayPickers();
    bool isArrayFileSource() const;
    void browse();
    void schedulePlan();
    void requestPlan();

    const RegisteredDataset *registered(const QString &name) const;
    /// The registered dataset chosen in the source box, or nullptr.
    const RegisteredDataset *currentDataset() const;

    QList<RegisteredDataset> datasets_;
    std::function<QString(const QString &)> resolveData_;
    QJsonObject base_;
    QJsonObject spec_;
    QJsonObject plan_;
    QString planError_;
    RunRecommender recommender_;
    std::function<QStringList(const QString &cluster)> gpuTypes_;
    ComputeOptions *compute_ = nullptr;
    WidthMeasurer measureWidths_;
    RunRecommendationView *advice_ = nullptr;
    int signalSeconds_ = 0; ///< the applied plan's stop-signal lead; 0 = from the time limit
    void updateAdvice();
    app::EnginePlanJob *planJob_ = nullptr;
    QTimer *planTimer_ = nullptr;
    bool loading_ = false;

    QComboBox *source_ = nullptr;
    QLineEdit *path_ = nullptr;
    QPushButton *browse_ = nullptr;
    QLineEdit *targetColumn_ = nullptr;
    QFormLayout *dataForm_ = nullptr;
    QComboBox *arrayInputs_ = nullptr;     ///< data.inputs of an HDF5 or NPZ file: one of its arrays
    QComboBox *arrayTargets_ = nullptr;    ///< data.targets
    QString wantedInputs_, wantedTargets_; ///< what the config names, until the listing arrives
    QSpinBox *samples_ = nullptr;
    QDoubleSpinBox *validationSplit_ = nullptr;
    DatasetPreviewWidget *preview_ = nullptr;
    QComboBox *optimizer_ = nullptr;
    QDoubleSpinBox *lr_ = nullptr;
    QDoubleSpinBox *weightDecay_ = nullptr;
    QDoubleSpinBox *momentum_ = nullptr;
    QComboBox *schedule_ = nullptr;
    QSpinBox *warmup_ = nullptr;
    QComboBox *loss_ = nullptr;
    QList<QCheckBox *> metrics_;
    QSpinBox *epochs_ = nullptr;
    QSpinBox *batch_ = nullptr;
    QSpinBox *seed_ = nullptr;
    QComboBox *target_ = nullptr;
    QSpinBox *threads_ = nullptr;
    QSpinBox *nproc_ = nullptr;
    QLineEdit *partition_ = nullptr;
    QWidget *partitionLabel_ = nullptr;
    QSpinBox *timeLimit_ = nullptr;
    QSpinBox *chainJobs_ = nullptr;
    QList<QWidget *> clusterOnly_; ///< job fields, shown for cluster targets
    QStringList clusterTargets_;
    QList<app::ClassServer> serverTargets_;
    void fillTargets();
    QString initWeights_;
    QLabel *initWeightsLabel_ = nullptr;
    QPushButton *clearInitWeights_ = nullptr;
    QLabel *planLabel_ = nullptr;
    QPushButton *train_ = nullptr;
};

} // namespace diamond::ui
