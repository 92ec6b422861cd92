// The run set-up's compute rows: device (CPU / GPU) and precision, and for a cluster target the nodes, GPUs per node
// and GPU type of its job. Device and precision go into the run config ("device", "precision"); the cluster rows
// into execution["job"] (nodes, gpus_per_node, gpu_type). The widgets live in the page's "Where" form.
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

    /// Shows the rows of the config's "device" and "precision" (absent: cpu, fp32).
    void load(const QJsonObject &config);
    /// Sets "device" and "precision" of `config` (removes them at their defaults, cpu and fp32).
    void applyToConfig(QJsonObject &config) const;
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
    QComboBox *device_, *precision_, *gpuType_;
    QSpinBox *nodes_, *gpus_;
    bool cluster_ = false;
};

} // namespace diamond::ui
