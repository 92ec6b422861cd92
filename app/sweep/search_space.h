// Search spaces of sweeps (docs/sweeps.md): parameters with a distribution and a target, sampling, grid
// discretisation and applying a sample to a (spec, run config) pair.
//
// A parameter targets a run-config field by JSON path ("optimizer.lr", "batch_size"), a spec parameter
// ("spec:<node id>.<param>[.<sub>...]") or a template placeholder ("template:<name>": every JSON string equal to
// "${<name>}" in the spec or the run config is replaced by the sampled value). Samples are JSON objects
// {parameter name: value}; choice values keep their JSON type, integers are JSON integers.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace diamond::app::sweep {

/// Deterministic random numbers (SplitMix64 seeding a xoshiro256** state); the same seed gives the same
/// sequence on every platform.
class Rng {
public:
    explicit Rng(std::uint64_t seed = 0);
    /// A generator for item `index` of stream `seed` (independent of how many items were drawn before).
    static Rng forIndex(std::uint64_t seed, std::uint64_t index);
    std::uint64_t next();
    /// Uniform in [0, 1).
    double uniform();
    /// Standard normal (Box-Muller).
    double normal();
    /// Uniform integer in [0, n).
    std::uint64_t below(std::uint64_t n);

private:
    std::uint64_t s_[4];
};

enum class ParamKind { Choice, Uniform, LogUniform, Integer };

enum class TargetKind { Config, Spec, Template };

struct SearchParameter {
    QString name;
    QString target; ///< as written in the sweep file
    ParamKind kind = ParamKind::Uniform;
    double low = 0, high = 1;
    bool log = false;   ///< Integer: sample log-uniformly
    QJsonArray values;  ///< Choice
    int gridPoints = 0; ///< points of this parameter in a grid; 0 = the grid default

    TargetKind targetKind = TargetKind::Config;
    QStringList path; ///< Config: field path; Spec: params path below the node; Template: {name}
    QString node;     ///< Spec: node id

    /// True for Uniform, LogUniform and Integer.
    bool isNumeric() const { return kind != ParamKind::Choice; }
    /// True when the parameter is modelled in log space (LogUniform, or Integer with log).
    bool isLogScale() const { return kind == ParamKind::LogUniform || (kind == ParamKind::Integer && log); }
    /// Draws one value from the parameter's distribution.
    QJsonValue sample(Rng &rng) const;
    /// The grid values: every choice; every integer when there are at most `points` of them, else `points`
    /// evenly (log-evenly) spaced distinct integers; `points` evenly (log-evenly) spaced reals otherwise.
    QList<QJsonValue> gridValues(int defaultPoints) const;
    /// Numeric value in model space (log for log-scale parameters); for a Choice, the index of the value.
    double toModel(const QJsonValue &value) const;
    /// Inverse of toModel (rounded to an integer for Integer parameters, clamped to the bounds).
    QJsonValue fromModel(double x) const;
    /// Bounds in model space (Choice: 0 .. values-1).
    double modelLow() const;
    double modelHigh() const;
    QJsonObject toJson() const;
};

class SearchSpace {
public:
    /// Parses the "space" array of a sweep file. Errors name the field, e.g.
    /// "space[1].high: must be greater than low (0.1)".
    static std::optional<SearchSpace> fromJson(const QJsonValue &space, QString *error);
    QJsonArray toJson() const;

    const QList<SearchParameter> &parameters() const { return params_; }
    int size() const { return static_cast<int>(params_.size()); }
    int indexOf(const QString &name) const;

    /// One value per parameter.
    QJsonObject sample(Rng &rng) const;
    /// Number of points of the full grid (saturates at 2^62).
    qint64 gridSize(int defaultPoints) const;
    /// Grid point `index` in [0, gridSize): mixed-radix order, the last parameter varies fastest.
    QJsonObject gridPoint(qint64 index, int defaultPoints) const;

    /// Checks that every target exists (or may be created) in the spec and config; errors name the parameter.
    bool validateTargets(const QJsonObject &spec, const QJsonObject &config, QString *error) const;
    /// Writes the sample's values into copies of spec and config. False, with the parameter named in *error,
    /// when a target path is invalid or a value is missing from the sample.
    bool apply(const QJsonObject &sample, QJsonObject *spec, QJsonObject *config, QString *error) const;

private:
    QList<SearchParameter> params_;
};

/// Top-level run-config fields (docs/run-config.md) a config target may start with.
const QStringList &runConfigFields();

} // namespace diamond::app::sweep
