// The run set-up's compute rows: device (CPU / GPU), precision, how several processes share the work (each a part of
// every batch, or each a stage of the network with the batch in micro-batches), what data-parallel processes split
// between them (the optimizer state, and the gradients too), recomputing activations, and for a cluster target the
// nodes, GPUs per node and GPU type of its job. Device, precision, pipeline, sharding and recompute go into the run
// config ("device", "precision", "pipeline", "sharding", "recompute"); the cluster rows into execution["job"] (nodes,
// gpus_per_node, gpu_type). The widgets live in the page's "Where" form.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QWidget;

namespace diamond::ui {

class ComputeOptions : public QObject {
    Q_OBJECT
public:
    /// Adds the rows to `form` (their widgets are children of `parent`).
    ComputeOptions(QWidget *parent, QFormLayout *form);

    /// Shows the rows of the config's "device", "precision", "pipeline", "sharding" and "recompute" (absent: cpu, fp32,
    /// no pipeline, none, marked).
    void load(const QJsonObject &config);
    /// Sets "device", "precision", "pipeline", "sharding", "recompute" and "activation_budget_mb" of `config` (removes
    /// them at their defaults: cpu, fp32, no pipeline, none, marked, and no budget unless recompute is auto). A
    /// pipeline has one stage per process; the cut loaded with the config is kept while the number of stages matches
    /// it, else the engine chooses ("auto").
    void applyToConfig(QJsonObject &config) const;
    /// The parallelism and sharding rows are shown with more than one process.
    void setProcesses(int processes);
    /// The stages of the loaded or chosen pipeline (0: the processes share each batch).
    int pipelineStages() const;
    /// Pipeline stages (one per process, `microBatches` per batch, cut after the ids of `cut` when it names one per
    /// stage but the last; else where the designer shows it, or the engine chooses) or data parallelism.
    void setPipeline(bool on, int microBatches = 0, const QJsonArray &cut = {});
    /// Shows the run config's "sharding" value "none", "optimizer" or "gradients" (another: none); a plan that needs
    /// it to fit sets it.
    void setSharding(const QString &sharding);
    /// Shows the run config's "recompute" mode ("marked", "all", "auto", "none"; another: marked) and, when
    /// `budgetMb` >= 1, the activation budget of "auto" (a plan that needs recomputation to fit sets them).
    void setRecompute(const QString &mode, double budgetMb = 0);
    /// Sets nodes, gpus_per_node (a GPU run with "one per process" leaves it out: the cluster executor asks for one
    /// per process) and gpu_type of a cluster job.
    void applyToJob(QJsonObject &job) const;
    /// Cluster rows visible (a cluster target) with the GPU types its partitions report (for the GPU type list).
    void setCluster(bool cluster, const QStringList &gpuTypes = {});
    /// "cpu" or "cuda".
    QString device() const;
    /// Nodes of the cluster job.
    QSpinBox *nodes() const { return nodes_; }

Q_SIGNALS:
    void changed();

private:
    void updateRows();

    QFormLayout *form_;
    QComboBox *device_, *precision_, *gpuType_, *parallelism_, *sharding_, *recompute_;
    QSpinBox *nodes_, *gpus_, *activationBudget_, *microBatches_;
    QJsonArray cut_; ///< the loaded config's pipeline cut
    bool cluster_ = false;
    int processes_ = 1;
};

} // namespace diamond::ui
