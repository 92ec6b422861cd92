#include "app/sweep/sweep_definition.h"

#include "app/run/run_config_defaults.h"
#include "remote/job_script.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace diamond::app::sweep {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::sweep", text); }

bool readObject(const QString &path, QJsonObject *out, QString *error, const QString &field) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("%1: cannot read %2: %3").arg(field, path, f.errorString());
        return false;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (!doc.isObject()) {
        *error = tr("%1: %2 is not a JSON object: %3").arg(field, path, pe.errorString());
        return false;
    }
    *out = doc.object();
    return true;
}

bool checkKnown(const QJsonObject &o, const QStringList &known, const QString &prefix, QString *error) {
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key())) {
            *error = tr("%1%2: unknown field (known: %3)").arg(prefix, it.key(), known.join(QStringLiteral(", ")));
            return false;
        }
    return true;
}

/// A positive number field; `integer` requires a whole number.
bool number(const QJsonObject &o, const char *key, const QString &prefix, double *out, bool integer, double min,
            QString *error) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isDouble() || (integer && v.toDouble() != std::floor(v.toDouble())) || v.toDouble() < min) {
        *error = tr("%1%2: must be %3 >= %4")
                     .arg(prefix, QLatin1String(key), integer ? tr("an integer") : tr("a number"))
                     .arg(min);
        return false;
    }
    *out = v.toDouble();
    return true;
}

} // namespace

QString SweepObjective::describe() const {
    return QStringLiteral("%1 %2 (%3)")
        .arg(validation ? QStringLiteral("val") : QStringLiteral("train"), metric,
             maximize ? QStringLiteral("max") : QStringLiteral("min"));
}

std::optional<SweepDefinition> SweepDefinition::fromFile(const QString &path, QString *error) {
    QJsonObject doc;
    if (!readObject(path, &doc, error, QFileInfo(path).fileName())) return std::nullopt;
    auto def = fromJson(doc, QFileInfo(path).absolutePath(), error);
    if (def && !doc.contains(QStringLiteral("name"))) def->name = QFileInfo(path).completeBaseName();
    return def;
}

std::optional<SweepDefinition> SweepDefinition::fromJson(const QJsonObject &doc, const QString &baseDir,
                                                         QString *error) {
    SweepDefinition d;
    static const QStringList known{QStringLiteral("format"),    QStringLiteral("name"),       QStringLiteral("project"),
                                   QStringLiteral("spec"),      QStringLiteral("config"),     QStringLiteral("space"),
                                   QStringLiteral("algorithm"), QStringLiteral("objective"),  QStringLiteral("limits"),
                                   QStringLiteral("seed"),      QStringLiteral("target"),     QStringLiteral("job"),
                                   QStringLiteral("targets"),   QStringLiteral("target_jobs")};
    if (!checkKnown(doc, known, {}, error)) return std::nullopt;
    if (doc.value(QStringLiteral("format")).toString() != QLatin1String(kSweepFormat)) {
        *error = tr("format: must be \"%1\"").arg(QLatin1String(kSweepFormat));
        return std::nullopt;
    }
    d.name = doc.value(QStringLiteral("name")).toString(QStringLiteral("sweep"));
    d.project = doc.value(QStringLiteral("project")).toString(QStringLiteral("Default"));
    if (d.name.trimmed().isEmpty() || d.project.trimmed().isEmpty()) {
        *error = tr("name, project: must not be empty");
        return std::nullopt;
    }
    for (const char *key : {"spec", "config"}) {
        const QJsonValue v = doc.value(QLatin1String(key));
        QJsonObject *target = qstrcmp(key, "spec") == 0 ? &d.spec : &d.config;
        if (v.isObject()) {
            *target = v.toObject();
        } else if (v.isString() && !v.toString().isEmpty()) {
            const QString path = QDir(baseDir).filePath(v.toString());
            if (!readObject(path, target, error, QLatin1String(key))) return std::nullopt;
        } else {
            *error = tr("%1: required (a path relative to the sweep file, or an object)").arg(QLatin1String(key));
            return std::nullopt;
        }
    }
    auto space = SearchSpace::fromJson(doc.value(QStringLiteral("space")), error);
    if (!space) return std::nullopt;
    d.space = *space;

    // objective
    const QJsonValue objective = doc.value(QStringLiteral("objective"));
    if (!objective.isObject()) {
        *error = tr("objective: required object {\"metric\", \"split\", \"mode\"}");
        return std::nullopt;
    }
    const QJsonObject obj = objective.toObject();
    if (!checkKnown(obj, {QStringLiteral("metric"), QStringLiteral("split"), QStringLiteral("mode")},
                    QStringLiteral("objective."), error))
        return std::nullopt;
    d.objective.metric = obj.value(QStringLiteral("metric")).toString();
    if (d.objective.metric.isEmpty()) {
        *error = tr("objective.metric: required (e.g. \"accuracy\" or \"loss\")");
        return std::nullopt;
    }
    const QString split = obj.value(QStringLiteral("split")).toString(QStringLiteral("val"));
    if (split != QLatin1String("val") && split != QLatin1String("train")) {
        *error = tr("objective.split: must be \"val\" or \"train\"");
        return std::nullopt;
    }
    d.objective.validation = split == QLatin1String("val");
    const QString mode = obj.value(QStringLiteral("mode")).toString(QStringLiteral("min"));
    if (mode != QLatin1String("min") && mode != QLatin1String("max")) {
        *error = tr("objective.mode: must be \"min\" or \"max\"");
        return std::nullopt;
    }
    d.objective.maximize = mode == QLatin1String("max");

    // limits
    const QJsonObject limits = doc.value(QStringLiteral("limits")).toObject();
    if (!checkKnown(limits,
                    {QStringLiteral("max_trials"), QStringLiteral("max_concurrent"), QStringLiteral("budget_per_trial"),
                     QStringLiteral("budget_unit"), QStringLiteral("total_budget"), QStringLiteral("threads_per_trial"),
                     QStringLiteral("packing"), QStringLiteral("trials_per_pack"),
                     QStringLiteral("max_in_flight_per_target"), QStringLiteral("unreachable_after_s")},
                    QStringLiteral("limits."), error))
        return std::nullopt;
    const QString unit = limits.value(QStringLiteral("budget_unit"))
                             .toString(d.config.value(QStringLiteral("steps")).toInt(0) > 0 ? QStringLiteral("steps")
                                                                                            : QStringLiteral("epochs"));
    if (unit != QLatin1String("epochs") && unit != QLatin1String("steps")) {
        *error = tr("limits.budget_unit: must be \"epochs\" or \"steps\"");
        return std::nullopt;
    }
    d.budgetInSteps = unit == QLatin1String("steps");
    double maxTrials = 10, maxConcurrent = 1, threads = 1;
    // Without a budget in the base config, the run-config default length in epochs (also as the step count).
    double budget = d.config.value(d.budgetInSteps ? QStringLiteral("steps") : QStringLiteral("epochs"))
                        .toDouble(runConfigDefault(QStringLiteral("epochs")).toDouble());
    const QString lp = QStringLiteral("limits.");
    if (!number(limits, "max_trials", lp, &maxTrials, true, 1, error) ||
        !number(limits, "max_concurrent", lp, &maxConcurrent, true, 1, error) ||
        !number(limits, "budget_per_trial", lp, &budget, true, 1, error) ||
        !number(limits, "total_budget", lp, &d.totalBudget, false, 0, error) ||
        !number(limits, "threads_per_trial", lp, &threads, true, 0, error))
        return std::nullopt;
    const QJsonValue packing = limits.value(QStringLiteral("packing"));
    if (!packing.isUndefined() && !packing.isBool()) {
        *error = tr("limits.packing: must be true or false");
        return std::nullopt;
    }
    d.packing = packing.toBool(true);
    double perPack = d.trialsPerPack;
    if (!number(limits, "trials_per_pack", lp, &perPack, true, 1, error)) return std::nullopt;
    d.trialsPerPack = int(perPack);
    d.maxConcurrent = int(maxConcurrent);
    double perTarget = 0, unreachable = d.unreachableAfterSeconds;
    if (!number(limits, "max_in_flight_per_target", lp, &perTarget, true, 0, error) ||
        !number(limits, "unreachable_after_s", lp, &unreachable, false, 1, error))
        return std::nullopt;
    d.maxPerTarget = int(perTarget);
    d.unreachableAfterSeconds = unreachable;
    d.threadsPerTrial = int(threads);

    // algorithm
    const QJsonValue algo = doc.value(QStringLiteral("algorithm"));
    QJsonObject a = algo.isString() ? QJsonObject{{QStringLiteral("name"), algo.toString()}} : algo.toObject();
    if (!checkKnown(a,
                    {QStringLiteral("name"), QStringLiteral("grid_points"), QStringLiteral("startup_trials"),
                     QStringLiteral("gamma"), QStringLiteral("candidates"), QStringLiteral("prior_weight"),
                     QStringLiteral("eta"), QStringLiteral("min_resource")},
                    QStringLiteral("algorithm."), error))
        return std::nullopt;
    AlgorithmSettings &s = d.algorithm;
    s.name = a.value(QStringLiteral("name")).toString(QStringLiteral("random"));
    s.maxTrials = int(maxTrials);
    s.maxResource = budget;
    double gridPoints = s.gridPoints, startup = s.startupTrials, candidates = s.candidates, eta = s.eta;
    const QString ap = QStringLiteral("algorithm.");
    if (!number(a, "grid_points", ap, &gridPoints, true, 1, error) ||
        !number(a, "startup_trials", ap, &startup, true, 1, error) ||
        !number(a, "gamma", ap, &s.gamma, false, 0, error) ||
        !number(a, "candidates", ap, &candidates, true, 1, error) ||
        !number(a, "prior_weight", ap, &s.priorWeight, false, 0, error) ||
        !number(a, "eta", ap, &eta, true, 2, error) || !number(a, "min_resource", ap, &s.minResource, true, 1, error))
        return std::nullopt;
    s.gridPoints = int(gridPoints);
    s.startupTrials = int(startup);
    s.candidates = int(candidates);
    s.eta = int(eta);
    if (!SweepAlgorithm::create(d.space, s, 0, error)) return std::nullopt;
    const bool multiFidelity = s.name == QLatin1String("asha") || s.name == QLatin1String("hyperband");
    for (int i = 0; i < d.space.size(); ++i) {
        const SearchParameter &p = d.space.parameters().at(i);
        if (multiFidelity && p.targetKind == TargetKind::Config &&
            (p.path.first() == QLatin1String("epochs") || p.path.first() == QLatin1String("steps"))) {
            *error = tr("space[%1].target: %2 sets \"%3\", which %4 controls as the trial budget")
                         .arg(i)
                         .arg(s.name, p.target, s.name);
            return std::nullopt;
        }
    }
    if (!d.space.validateTargets(d.spec, d.config, error)) return std::nullopt;

    const QJsonValue seed = doc.value(QStringLiteral("seed"));
    if (!seed.isUndefined() &&
        (!seed.isDouble() || seed.toDouble() < 0 || seed.toDouble() != std::floor(seed.toDouble()))) {
        *error = tr("seed: must be a non-negative integer");
        return std::nullopt;
    }
    d.seed = std::uint64_t(seed.toDouble(0));

    // target and job (cluster sweeps)
    const QJsonValue target = doc.value(QStringLiteral("target"));
    if (!target.isUndefined() && (!target.isString() || target.toString().trimmed().isEmpty())) {
        *error = tr("target: must be \"local\" or the name of a cluster profile of the workspace");
        return std::nullopt;
    }
    d.target = target.toString(QStringLiteral("local")).trimmed();
    const QJsonValue targets = doc.value(QStringLiteral("targets"));
    if (!targets.isUndefined()) {
        if (!target.isUndefined()) {
            *error = tr("targets: \"target\" and \"targets\" exclude each other; list every cluster in \"targets\"");
            return std::nullopt;
        }
        const QJsonArray list = targets.toArray();
        if (!targets.isArray() || list.isEmpty() || list.size() > 64) {
            *error = tr("targets: must be a list of 1 to 64 cluster profile names");
            return std::nullopt;
        }
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString name = list.at(i).toString().trimmed();
            if (!list.at(i).isString() || name.isEmpty() || name == QLatin1String("local") ||
                d.targets.contains(name)) {
                *error = tr("targets[%1]: must name a cluster profile of the workspace, each once (\"local\" is not "
                            "one: trials of a multi-cluster sweep are batch jobs)")
                             .arg(i);
                return std::nullopt;
            }
            d.targets << name;
        }
        d.target = d.targets.first();
    }
    const QJsonValue targetJobs = doc.value(QStringLiteral("target_jobs"));
    if (!targetJobs.isUndefined()) {
        if (!targetJobs.isObject() || d.targets.isEmpty()) {
            *error = tr("target_jobs: an object of job resources by cluster name, with \"targets\"");
            return std::nullopt;
        }
        const QJsonObject byTarget = targetJobs.toObject();
        for (auto it = byTarget.begin(); it != byTarget.end(); ++it) {
            QString jobError;
            if (!d.targets.contains(it.key()) || !it.value().isObject() ||
                !remote::jobRequestFromJson(it.value().toObject(), &jobError)) {
                *error = tr("target_jobs.%1: %2")
                             .arg(it.key(), !d.targets.contains(it.key()) ? tr("not one of \"targets\"")
                                            : !it.value().isObject()      ? tr("must be an object")
                                                                          : jobError);
                return std::nullopt;
            }
        }
        d.targetJobs = byTarget;
    }
    const QJsonValue job = doc.value(QStringLiteral("job"));
    if (!job.isUndefined()) {
        if (!job.isObject()) {
            *error = tr("job: must be an object (partition, nodes, tasks_per_node, time_limit_minutes, ...)");
            return std::nullopt;
        }
        if (d.isLocal()) {
            *error = tr("job: only for a cluster target (set \"target\" to a cluster profile)");
            return std::nullopt;
        }
        QString jobError;
        if (!remote::jobRequestFromJson(job.toObject(), &jobError)) {
            *error = jobError.startsWith(QLatin1String("job")) ? jobError : tr("job: %1").arg(jobError);
            return std::nullopt;
        }
        d.job = job.toObject();
    }
    return d;
}

QJsonObject SweepDefinition::toJson() const {
    const AlgorithmSettings &s = algorithm;
    QJsonObject algo{{QStringLiteral("name"), s.name}};
    if (s.name == QLatin1String("grid")) algo.insert(QStringLiteral("grid_points"), s.gridPoints);
    if (s.name == QLatin1String("tpe")) {
        algo.insert(QStringLiteral("startup_trials"), s.startupTrials);
        algo.insert(QStringLiteral("gamma"), s.gamma);
        algo.insert(QStringLiteral("candidates"), s.candidates);
        algo.insert(QStringLiteral("prior_weight"), s.priorWeight);
    }
    if (s.name == QLatin1String("asha") || s.name == QLatin1String("hyperband")) {
        algo.insert(QStringLiteral("eta"), s.eta);
        algo.insert(QStringLiteral("min_resource"), s.minResource);
    }
    QJsonObject doc{
        {QStringLiteral("format"), QLatin1String(kSweepFormat)},
        {QStringLiteral("name"), name},
        {QStringLiteral("project"), project},
        {QStringLiteral("spec"), spec},
        {QStringLiteral("config"), config},
        {QStringLiteral("space"), space.toJson()},
        {QStringLiteral("algorithm"), algo},
        {QStringLiteral("objective"),
         QJsonObject{{QStringLiteral("metric"), objective.metric},
                     {QStringLiteral("split"), objective.validation ? QStringLiteral("val") : QStringLiteral("train")},
                     {QStringLiteral("mode"), objective.maximize ? QStringLiteral("max") : QStringLiteral("min")}}},
        {QStringLiteral("limits"), QJsonObject{{QStringLiteral("max_trials"), s.maxTrials},
                                               {QStringLiteral("max_concurrent"), maxConcurrent},
                                               {QStringLiteral("budget_per_trial"), s.maxResource},
                                               {QStringLiteral("budget_unit"),
                                                budgetInSteps ? QStringLiteral("steps") : QStringLiteral("epochs")},
                                               {QStringLiteral("total_budget"), totalBudget},
                                               {QStringLiteral("threads_per_trial"), threadsPerTrial},
                                               {QStringLiteral("packing"), packing},
                                               {QStringLiteral("trials_per_pack"), trialsPerPack},
                                               {QStringLiteral("max_in_flight_per_target"), maxPerTarget},
                                               {QStringLiteral("unreachable_after_s"), unreachableAfterSeconds}}},
        {QStringLiteral("seed"), double(seed)}};
    if (!targets.isEmpty()) {
        doc.insert(QStringLiteral("targets"), QJsonArray::fromStringList(targets));
        if (!targetJobs.isEmpty()) doc.insert(QStringLiteral("target_jobs"), targetJobs);
    } else if (!isLocal()) {
        doc.insert(QStringLiteral("target"), target);
    }
    if (!isLocal() && !job.isEmpty()) doc.insert(QStringLiteral("job"), job);
    return doc;
}

QStringList SweepDefinition::allTargets() const { return targets.isEmpty() ? QStringList{target} : targets; }

int SweepDefinition::inFlightLimit() const { return maxPerTarget > 0 ? maxPerTarget : maxConcurrent; }

QJsonObject SweepDefinition::execution(const QString &on) const {
    if (isLocal()) return {};
    QJsonObject e{{QStringLiteral("threads"), threadsPerTrial}};
    const QJsonObject j = targetJobs.contains(on) ? targetJobs.value(on).toObject() : job;
    if (!j.isEmpty()) e.insert(QStringLiteral("job"), j);
    return e;
}

QJsonObject SweepDefinition::withBudget(QJsonObject config, double budget) const {
    const qint64 b = std::llround(budget);
    if (budgetInSteps) {
        config.insert(QStringLiteral("steps"), b);
    } else {
        config.insert(QStringLiteral("epochs"), b);
        config.remove(QStringLiteral("steps"));
    }
    return config;
}

bool SweepDefinition::trialDocuments(const QJsonObject &sample, double budget, QJsonObject *spec, QJsonObject *config,
                                     QString *error) const {
    *spec = this->spec;
    *config = withBudget(this->config, budget); // a sampled epochs/steps (grid, random, tpe) wins
    if (!space.apply(sample, spec, config, error)) return false;
    if (threadsPerTrial > 0) config->insert(QStringLiteral("threads"), threadsPerTrial);
    return true;
}

} // namespace diamond::app::sweep
