#include "app/learn/lesson_checks.h"

#include "app/cluster/cluster_store.h"
#include "app/gallery/gallery_store.h"
#include "app/learn/lesson_progress.h"
#include "app/run/class_server.h"
#include "app/run/leaderboard.h"
#include "app/run/run_store.h"
#include "app/sweep/sweep_store.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>

#include <cmath>
#include <optional>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::LessonChecks", text); }
QString trn(const char *text, int n) {
    return QCoreApplication::translate("diamond::app::LessonChecks", text, nullptr, n);
}

QString number(double v) { return QLocale().toString(v, 'g', 4); }

/// Parameter types per kind: 's' text, 'n' number, 'i' whole number >= 0, 'o' object.
const QHash<QString, QHash<QString, char>> &kindParams() {
    static const QHash<QString, QHash<QString, char>> all = {
        {QStringLiteral("manual"), {}},
        {QStringLiteral("design"),
         {{QStringLiteral("name_contains"), 's'},
          {QStringLiteral("input_features"), 'i'},
          {QStringLiteral("layer"), 'o'}}},
        {QStringLiteral("run_finished"),
         {{QStringLiteral("count"), 'i'},
          {QStringLiteral("metric"), 's'},
          {QStringLiteral("min"), 'n'},
          {QStringLiteral("max"), 'n'},
          {QStringLiteral("dataset"), 's'},
          {QStringLiteral("target"), 's'},
          {QStringLiteral("distinct"), 's'}}},
        {QStringLiteral("compared"), {{QStringLiteral("count"), 'i'}}},
        {QStringLiteral("sweep_finished"), {{QStringLiteral("min_trials"), 'i'}}},
        {QStringLiteral("gallery_model"), {}},
        {QStringLiteral("cluster_configured"), {}},
        {QStringLiteral("dataset_used"), {{QStringLiteral("dataset"), 's'}}},
    };
    return all;
}

const QHash<QString, char> kLayerParams = {{QStringLiteral("type"), 's'},
                                           {QStringLiteral("param"), 's'},
                                           {QStringLiteral("min"), 'n'},
                                           {QStringLiteral("max"), 'n'},
                                           {QStringLiteral("count"), 'i'}};

bool checkTypes(const QJsonObject &params, const QHash<QString, char> &types, const QString &prefix, QString *error) {
    for (auto it = params.begin(); it != params.end(); ++it) {
        const QString name = prefix + it.key();
        if (!types.contains(it.key())) {
            *error = tr("unknown parameter \"%1\".").arg(name);
            return false;
        }
        const QJsonValue v = it.value();
        bool ok = true;
        switch (types.value(it.key())) {
        case 's': ok = v.isString(); break;
        case 'n': ok = v.isDouble() && std::isfinite(v.toDouble()); break;
        case 'i':
            ok = v.isDouble() && v.toDouble() >= 0 && v.toDouble() <= 1e6 && v.toDouble() == std::floor(v.toDouble());
            break;
        case 'o': ok = v.isObject(); break;
        }
        if (!ok) {
            *error = tr("parameter \"%1\" has the wrong type.").arg(name);
            return false;
        }
    }
    return true;
}

/// The value at a dotted path ("optimizer.lr") of a JSON object.
QJsonValue valueAt(const QJsonObject &object, const QString &path) {
    QJsonValue v = object;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        if (!v.isObject()) return {};
        v = v.toObject().value(part);
    }
    return v;
}

/// "min" / "max" of a check's parameters; absent bounds are open.
struct Bounds {
    bool hasMin = false, hasMax = false;
    double min = 0, max = 0;
    bool contains(double v) const { return (!hasMin || v >= min) && (!hasMax || v <= max); }
};

Bounds boundsOf(const QJsonObject &p) {
    Bounds b;
    b.hasMin = p.contains(QStringLiteral("min"));
    b.hasMax = p.contains(QStringLiteral("max"));
    b.min = p.value(QStringLiteral("min")).toDouble();
    b.max = p.value(QStringLiteral("max")).toDouble();
    return b;
}

LessonCheckResult result(bool passed, const QString &status) { return {passed, false, status}; }

LessonCheckResult checkDesign(const QJsonObject &p, const std::optional<QJsonObject> &design) {
    if (!design || design->value(QStringLiteral("nodes")).toArray().isEmpty())
        return result(false, tr("No network is open in the designer."));
    const QString nameWanted = p.value(QStringLiteral("name_contains")).toString();
    if (!nameWanted.isEmpty()) {
        const QString name = design->value(QStringLiteral("name")).toString();
        if (!name.contains(nameWanted, Qt::CaseInsensitive))
            return result(false, tr("The network open is \"%1\".").arg(name));
    }
    if (p.contains(QStringLiteral("input_features"))) {
        const int wanted = p.value(QStringLiteral("input_features")).toInt();
        const QJsonArray shape =
            design->value(QStringLiteral("inputs")).toArray().at(0).toObject().value(QStringLiteral("shape")).toArray();
        const QJsonValue last = shape.isEmpty() ? QJsonValue() : shape.last();
        if (!last.isDouble() || last.toInt() != wanted)
            return result(false, tr("The input has %1 features; the data has %2.")
                                     .arg(last.isDouble() ? QString::number(last.toInt()) : tr("no fixed number of"))
                                     .arg(wanted));
    }
    if (p.contains(QStringLiteral("layer"))) {
        const QJsonObject layer = p.value(QStringLiteral("layer")).toObject();
        const QString type = layer.value(QStringLiteral("type")).toString();
        const QString param = layer.value(QStringLiteral("param")).toString();
        const Bounds bounds = boundsOf(layer);
        const int count = layer.value(QStringLiteral("count")).toInt(1);
        int found = 0;
        QStringList values;
        for (const QJsonValue &n : design->value(QStringLiteral("nodes")).toArray()) {
            const QJsonObject node = n.toObject();
            if (!type.isEmpty() && node.value(QStringLiteral("type")).toString() != type) continue;
            if (param.isEmpty()) {
                ++found;
                continue;
            }
            const QJsonValue v = node.value(QStringLiteral("params")).toObject().value(param);
            if (!v.isDouble()) continue;
            values << QStringLiteral("%1 %2").arg(node.value(QStringLiteral("id")).toString(), number(v.toDouble()));
            if (bounds.contains(v.toDouble())) ++found;
        }
        if (found < count) {
            if (param.isEmpty()) return result(false, trn("The network has %n %1 layer(s).", found).arg(type));
            return result(
                false,
                tr("%1 %2: %3").arg(type, param, values.isEmpty() ? tr("none") : values.join(QStringLiteral(", "))));
        }
    }
    return result(true, tr("The network \"%1\" matches.").arg(design->value(QStringLiteral("name")).toString()));
}

bool targetMatches(const QString &wanted, const QString &target) {
    if (wanted.isEmpty()) return true;
    if (wanted == QLatin1String("cluster")) // a cluster of this workspace or of a class server
        return isClassServerTarget(target) ? classServerRemoteTarget(target) != QLatin1String("local")
                                           : target != QLatin1String("local") && !target.isEmpty();
    if (wanted == QLatin1String("server")) return isClassServerTarget(target);
    return wanted == target;
}

QString datasetName(const Run &run) { return run.datasetRef.section(QLatin1Char('@'), 0, 0); }

LessonCheckResult checkRunsFinished(const QJsonObject &p, Workspace &ws, const QString &since) {
    RunStore store(ws);
    const QList<Run> runs = store.runs();
    if (!store.errorString().isEmpty()) return result(false, store.errorString());
    const int count = qMax(1, p.value(QStringLiteral("count")).toInt(1));
    const QString metric = p.value(QStringLiteral("metric")).toString();
    const Bounds bounds = boundsOf(p);
    const QString dataset = p.value(QStringLiteral("dataset")).toString();
    const QString target = p.value(QStringLiteral("target")).toString();
    const QString distinct = p.value(QStringLiteral("distinct")).toString();
    int matching = 0, finished = 0;
    std::optional<double> best;
    QSet<QString> distinctValues;
    for (const Run &r : runs) {
        if (r.state != RunState::Finished || r.finishedAt < since) continue;
        if (!dataset.isEmpty() && datasetName(r) != dataset) continue;
        if (!targetMatches(target, r.target)) continue;
        ++finished;
        if (!metric.isEmpty()) {
            const QJsonValue v = r.finalMetrics.value(metric);
            if (!v.isDouble()) continue;
            const double value = v.toDouble();
            const bool higher = bounds.hasMin || (!bounds.hasMax && metricHigherIsBetter(metric));
            if (!best || (higher ? value > *best : value < *best)) best = value;
            if (!bounds.contains(value)) continue;
        }
        ++matching;
        if (!distinct.isEmpty())
            distinctValues.insert(QString::fromUtf8(QJsonDocument(QJsonArray{valueAt(r.config, distinct)}).toJson()));
    }
    const int have = distinct.isEmpty() ? matching : int(distinctValues.size());
    if (have >= count) {
        if (best) return result(true, tr("Best %1: %2.").arg(metric, number(*best)));
        return result(true, trn("%n run(s) finished.", have));
    }
    if (!distinct.isEmpty())
        return result(false, tr("%1 of %2 runs with different %3 finished.").arg(have).arg(count).arg(distinct));
    if (best)
        return result(false, tr("Best %1 so far: %2; the step needs %3.")
                                 .arg(metric, number(*best),
                                      bounds.hasMin ? QStringLiteral("≥ %1").arg(number(bounds.min))
                                                    : QStringLiteral("≤ %1").arg(number(bounds.max))));
    if (finished == 0) return result(false, tr("No run has finished since the lesson started."));
    return result(false, tr("%1 of %2 runs finished.").arg(matching).arg(count));
}

LessonCheckResult checkCompared(const QJsonObject &p, Workspace &ws, const QString &since) {
    const int count = qMax(2, p.value(QStringLiteral("count")).toInt(2));
    LessonProgressStore progress(ws);
    int most = 0;
    for (const LearningActivity &a : progress.activities(QStringLiteral("compare"), since))
        most = qMax(most, int(a.detail.value(QStringLiteral("runs")).toArray().size()));
    if (!progress.errorString().isEmpty()) return result(false, progress.errorString());
    if (most >= count) return result(true, trn("%n runs compared.", most));
    return result(false, most == 0 ? tr("No runs compared yet.") : trn("Only %n run(s) compared.", most));
}

LessonCheckResult checkSweep(const QJsonObject &p, Workspace &ws, const QString &since) {
    const int minTrials = qMax(1, p.value(QStringLiteral("min_trials")).toInt(1));
    sweep::SweepStore store(ws);
    int bestTrials = -1;
    for (const sweep::SweepRow &s : store.sweeps()) {
        if (s.createdAt < since) continue;
        int completed = 0;
        for (const sweep::TrialRow &t : store.trials(s.id))
            if (t.state == QLatin1String("completed")) ++completed;
        if (s.state == QLatin1String("completed") && completed >= minTrials)
            return result(true, trn("Sweep \"%1\" finished with %n trial(s).", completed).arg(s.name));
        bestTrials = qMax(bestTrials, completed);
    }
    if (!store.errorString().isEmpty()) return result(false, store.errorString());
    if (bestTrials < 0) return result(false, tr("No sweep started since the lesson started."));
    return result(false,
                  tr("%1 of %2 trials finished; the sweep has not finished yet.").arg(bestTrials).arg(minTrials));
}

LessonCheckResult checkGallery(Workspace &ws, const QString &since) {
    gallery::GalleryStore store(ws);
    gallery::GalleryQuery query;
    query.limit = 1000;
    for (const gallery::GalleryEntry &e : store.search(query))
        if (e.runId != 0 && e.createdAt >= since) return result(true, tr("\"%1\" is in the gallery.").arg(e.title));
    if (!store.errorString().isEmpty()) return result(false, store.errorString());
    return result(false, tr("No model published since the lesson started."));
}

LessonCheckResult checkCluster(Workspace &ws) {
    ClusterStore store(ws);
    const auto profiles = store.profiles();
    if (!profiles.isEmpty()) return result(true, trn("%n cluster(s) configured.", int(profiles.size())));
    if (!store.errorString().isEmpty()) return result(false, store.errorString());
    return result(false, tr("No cluster is configured."));
}

LessonCheckResult checkDatasetUsed(const QJsonObject &p, Workspace &ws, const QString &since) {
    const QString wanted = p.value(QStringLiteral("dataset")).toString();
    RunStore store(ws);
    for (const Run &r : store.runs()) {
        if (r.createdAt < since || r.datasetRef.isEmpty()) continue;
        if (wanted.isEmpty() || datasetName(r) == wanted)
            return result(true, tr("Run %1 uses %2.").arg(r.name, r.datasetRef));
    }
    if (!store.errorString().isEmpty()) return result(false, store.errorString());
    return result(false, wanted.isEmpty() ? tr("No run has used a registered dataset yet.")
                                          : tr("No run has used the dataset %1 yet.").arg(wanted));
}

} // namespace

QStringList lessonCheckKinds() {
    QStringList kinds = kindParams().keys();
    kinds.sort();
    return kinds;
}

bool validateLessonCheck(const LessonCheck &check, QString *error) {
    const auto kind = kindParams().constFind(check.kind);
    if (kind == kindParams().constEnd()) {
        *error =
            tr("unknown kind \"%1\"; known kinds: %2.").arg(check.kind, lessonCheckKinds().join(QStringLiteral(", ")));
        return false;
    }
    if (!checkTypes(check.params, *kind, {}, error)) return false;
    if (check.params.contains(QStringLiteral("layer")) &&
        !checkTypes(check.params.value(QStringLiteral("layer")).toObject(), kLayerParams, QStringLiteral("layer."),
                    error))
        return false;
    if (check.kind == QLatin1String("run_finished") &&
        (check.params.contains(QStringLiteral("min")) || check.params.contains(QStringLiteral("max"))) &&
        !check.params.contains(QStringLiteral("metric"))) {
        *error = tr("\"min\" and \"max\" need a \"metric\".");
        return false;
    }
    return true;
}

LessonCheckResult evaluateLessonCheck(const LessonCheck &check, const LessonCheckContext &context) {
    if (check.kind == QLatin1String("manual")) return {false, true, tr("Press Next when you are ready.")};
    if (check.kind == QLatin1String("design")) return checkDesign(check.params, context.design);
    if (!context.workspace || !context.workspace->isOpen()) return result(false, tr("No workspace is open."));
    Workspace &ws = *context.workspace;
    if (check.kind == QLatin1String("run_finished")) return checkRunsFinished(check.params, ws, context.since);
    if (check.kind == QLatin1String("compared")) return checkCompared(check.params, ws, context.since);
    if (check.kind == QLatin1String("sweep_finished")) return checkSweep(check.params, ws, context.since);
    if (check.kind == QLatin1String("gallery_model")) return checkGallery(ws, context.since);
    if (check.kind == QLatin1String("cluster_configured")) return checkCluster(ws);
    if (check.kind == QLatin1String("dataset_used")) return checkDatasetUsed(check.params, ws, context.since);
    return result(false, tr("Unknown check \"%1\".").arg(check.kind));
}

} // namespace diamond::app
