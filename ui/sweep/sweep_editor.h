// SweepEditor: builds a sweep definition (diamond.sweep/1, docs/sweeps.md) from widgets: parameters picked
// from the run config and the network spec (numeric node parameters), each with a distribution and range;
// algorithm and its settings; objective; limits. Every change re-validates (coalesced); errors are shown
// inline: the offending parameter cells are marked red with the message as tool tip, and all messages are
// listed under the form. "Start" starts the sweep through the RunService (its controller runs in this process) and
// reports its id (sweepStarted).
#pragma once

#include "app/run/run_service.h"
#include "app/sweep/sweep_controller.h"
#include "app/sweep/sweep_definition.h"

#include <QJsonObject>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace diamond::ui::sweep {

class SweepEditor : public QWidget {
    Q_OBJECT
public:
    enum ParamColumn { NameCol, TargetCol, TypeCol, LowCol, HighCol, ValuesCol, GridCol, ColumnCount };

    struct Candidate {
        QString target; ///< "optimizer.lr", "spec:fc1.out_features"
        QJsonValue current;
    };

    explicit SweepEditor(QWidget *parent = nullptr);

    /// The base network spec and run config the sweep varies; fills the parameter picker.
    void setBase(const QJsonObject &spec, const QJsonObject &config);
    /// What Start uses (must outlive the editor); Start is disabled without one. Lists the workspace's clusters
    /// under "Run trials on".
    void setService(app::RunService *service);
    /// "Run trials on": this computer (the default) or one or more of these clusters (list "sweepTargets"; with two
    /// or more, a multi-cluster sweep, docs/sweeps.md "Several clusters").
    void setClusters(const QStringList &clusters);
    /// The checked targets: {"local"} or cluster names.
    QStringList checkedTargets() const;

    /// Parameters that can be swept: common run-config fields, numeric leaves of the config, and every numeric
    /// parameter of every spec node ("spec:<id>.<param>").
    static QList<Candidate> candidates(const QJsonObject &spec, const QJsonObject &config);

    /// Adds a parameter row for `target` with a distribution guessed from its current value; returns the row.
    int addParameter(const QString &target);
    void removeParameter(int row);

    /// The sweep document built from the widgets (spec and config embedded).
    QJsonObject document() const;
    /// Validates the document; false with the first error. Updates the inline error display.
    bool validate();
    /// The parsed definition, when valid.
    std::optional<app::sweep::SweepDefinition> definition(QString *error = nullptr) const;
    /// Current error messages (empty when valid).
    const QStringList &errors() const { return errors_; }
    /// Whether the cell of a parameter row is marked as erroneous.
    bool cellHasError(int row, int column) const;

    QTableWidget *parameterTable() const { return params_; }
    QComboBox *typeCombo(int row) const;
    QComboBox *algorithmCombo() const { return algorithm_; }
    QPushButton *startButton() const { return start_; }

    /// Validates, creates and starts a SweepController; emits sweepStarted. False with the error shown.
    bool start();

Q_SIGNALS:
    /// A sweep was created and started; the receiver takes ownership of `controller` (no parent).
    void sweepStarted(qint64 sweepId);
    void validityChanged(bool valid);

private:
    void changed();
    void updateAlgorithmRows();
    void setRowTarget(int row, const QString &target);
    void targetToggled(QListWidgetItem *item);
    QJsonObject parameterJson(int row, QString *error) const;

    QJsonObject spec_, config_;
    app::RunService *service_ = nullptr;
    QStringList errors_;
    QTimer *validate_;

    QLineEdit *name_, *project_;
    QComboBox *picker_;
    QTableWidget *params_;
    QComboBox *algorithm_;
    QFormLayout *algoForm_;
    QSpinBox *gridPoints_, *startup_, *candidates_, *eta_, *minResource_;
    QDoubleSpinBox *gamma_, *priorWeight_;
    QComboBox *metric_, *split_, *mode_, *unit_;
    QSpinBox *maxTrials_, *maxConcurrent_, *budget_, *threads_, *seed_, *trialsPerPack_;
    QCheckBox *packing_;
    QDoubleSpinBox *totalBudget_;
    QListWidget *targets_;
    QSpinBox *perTarget_;
    QLabel *errorLabel_, *algoHelp_ = nullptr;
    QPushButton *start_;
};

} // namespace diamond::ui::sweep
