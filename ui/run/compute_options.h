// The run set-up's compute rows: device (CPU / GPU), precision, what the processes split between them (the optimizer
// state, and the gradients too), recomputing every layer's activations, and for a cluster target the nodes, GPUs per
// node and GPU type of its job. Device, precision, sharding and recompute go into the run config ("device",
// "precision", "sharding", "recompute"); the cluster rows into execution["job"] (nodes, gpus_per_node, gpu_type). The
// widgets live in the page's "Where" form.
#pragma once

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

    /// Shows the rows of the config's "device", "precision", "sharding" and "recompute" (absent: cpu, fp32, none,
    /// marked).
    void load(const QJsonObject &config);
    /// Sets "device", "precision", "sharding", "recompute" and "activation_budget_mb" of `config` (removes them at
    /// their defaults: cpu, fp32, none, marked, and no budget unless recompute is auto).
    void applyToConfig(QJsonObject &config) const;
    /// The sharding row is shown with more than one process.
    void setProcesses(int processes);
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
    QComboBox *device_, *precision_, *gpuType_, *sharding_, *recompute_;
    QSpinBox *nodes_, *gpus_, *activationBudget_;
    bool cluster_ = false;
    int processes_ = 1;
};

} // namespace diamond::ui
