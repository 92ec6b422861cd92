// Sweep benchmark (docs/sweeps.md, issue "Sweeps"): on the spirals classroom task, the compute (total
// trial-epochs) random search, TPE and ASHA need until a trial reports a validation accuracy of at least
// --target, median over --seeds seeds; and the best accuracy after --best-after trials (TPE vs random).
//
// Method: each configuration the algorithms propose is trained once, for real, with diamond-train for R epochs
// (constant learning rate, one thread), and its per-epoch validation accuracy is cached (--workdir). The
// algorithms (the same classes the SweepController uses) are then driven sequentially (one worker) and shown
// the accuracy at each rung's budget. This replays exactly what a sweep observes: with a constant learning
// rate, a run resumed from its checkpoint at epoch r continues bit-identically to one trained straight through
// (docs/run-config.md, "Determinism and resume"). Compute is counted in granted trial-epochs: a new trial
// costs its first rung's budget, a promotion the difference to the next rung.
//
// Usage: bench_sweep [--engine PATH] [--seeds N] [--target ACC] [--workdir DIR] [--json FILE]
#include "app/sweep/algorithm.h"
#include "app/sweep/sweep_definition.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace diamond::app::sweep;

namespace {

constexpr int kR = 27; // epochs of a full trial; ASHA rungs 1, 3, 9, 27 (eta 3)

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

QJsonObject readJson(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeJson(const QString &path, const QJsonObject &o) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(o).toJson()) > 0;
}

/// Per-epoch validation accuracy of configurations, trained with the real engine and cached on disk.
class Curves {
public:
    Curves(const SweepDefinition &def, const QString &engine, const QString &dir)
        : def_(def), engine_(engine), dir_(dir), cachePath_(QDir(dir).filePath(QStringLiteral("curves.json"))) {
        cache_ = readJson(cachePath_);
    }
    int trained() const { return trained_; }
    double wallSeconds() const { return wall_; }

    /// Accuracy after each epoch 1..R (index epoch - 1); empty when the run failed (NaN loss, ...).
    QList<double> curve(const QJsonObject &params) {
        const QString key = QString::fromUtf8(QJsonDocument(params).toJson(QJsonDocument::Compact));
        if (cache_.contains(key)) return toList(cache_.value(key).toArray());
        QJsonObject spec, config;
        QString error;
        if (!def_.trialDocuments(params, kR, &spec, &config, &error)) qFatal("%s", qPrintable(error));
        const QString hash =
            QString::fromLatin1(QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
        QDir run(QDir(dir_).filePath(QStringLiteral("runs/") + hash));
        run.removeRecursively();
        QDir().mkpath(run.path());
        writeJson(run.filePath(QStringLiteral("spec.json")), spec);
        writeJson(run.filePath(QStringLiteral("run.json")), config);
        QProcess p;
        p.setStandardOutputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        p.start(engine_,
                {QStringLiteral("--spec"), run.filePath(QStringLiteral("spec.json")), QStringLiteral("--config"),
                 run.filePath(QStringLiteral("run.json")), QStringLiteral("--run-dir"), run.path()});
        if (!p.waitForStarted() || !p.waitForFinished(600000)) qFatal("cannot run %s", qPrintable(engine_));
        ++trained_;
        QList<double> acc(kR, std::numeric_limits<double>::quiet_NaN());
        QFile events(run.filePath(QStringLiteral("events.jsonl")));
        events.open(QIODevice::ReadOnly);
        while (!events.atEnd()) {
            const QJsonObject e = QJsonDocument::fromJson(events.readLine()).object();
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("finished"))
                wall_ += e.value(QStringLiteral("wall_s")).toDouble();
            if (e.value(QStringLiteral("event")).toString() != QLatin1String("metric") ||
                e.value(QStringLiteral("split")).toString() != QLatin1String("val") ||
                e.value(QStringLiteral("name")).toString() != QLatin1String("accuracy"))
                continue;
            const int epoch = e.value(QStringLiteral("epoch")).toInt();
            if (epoch >= 0 && epoch < kR) acc[epoch] = e.value(QStringLiteral("value")).toDouble();
        }
        run.removeRecursively();
        QJsonArray a;
        for (double v : acc)
            a.append(std::isnan(v) ? QJsonValue() : QJsonValue(v));
        cache_.insert(key, a);
        writeJson(cachePath_, cache_);
        return acc;
    }

private:
    static QList<double> toList(const QJsonArray &a) {
        QList<double> out;
        for (const QJsonValue &v : a)
            out.append(v.isNull() ? std::numeric_limits<double>::quiet_NaN() : v.toDouble());
        return out;
    }
    const SweepDefinition &def_;
    QString engine_, dir_, cachePath_;
    QJsonObject cache_;
    int trained_ = 0;
    double wall_ = 0;
};

struct Outcome {
    double epochsToTarget = std::numeric_limits<double>::infinity(); ///< inf: not reached within max trials
    int trials = 0;        ///< trials created when the target was reached (all, when not reached)
    double bestAfterN = 0; ///< best accuracy among the first N finished trials (single-rung algorithms)
};

/// Drives `algo` with one worker until a reported accuracy reaches `target` (and, for best-after-N, until N
/// trials have finished).
Outcome drive(SweepAlgorithm &algo, Curves &curves, double target, int bestAfter) {
    Outcome o;
    double spent = 0;
    QMap<int, double> granted;
    int finished = 0;
    for (;;) {
        const Job job = algo.next();
        if (job.kind != Job::NewTrial && job.kind != Job::Promote) break;
        const QJsonObject params = job.kind == Job::NewTrial ? job.params : algo.trials()[job.trial].params;
        algo.start(job);
        spent += job.budget - granted.value(job.trial, 0);
        granted[job.trial] = job.budget;
        const QList<double> c = curves.curve(params);
        const int epoch = int(std::lround(job.budget));
        const double acc = c.value(epoch - 1, std::numeric_limits<double>::quiet_NaN());
        if (std::isnan(acc)) {
            algo.markFailed(job.trial);
        } else {
            algo.report(job.trial, job.rung, -acc);
            if (acc >= target && std::isinf(o.epochsToTarget)) {
                o.epochsToTarget = spent;
                o.trials = algo.createdTrials();
            }
            if (job.rung == algo.topRung(job.bracket) && finished < bestAfter) {
                ++finished;
                o.bestAfterN = std::max(o.bestAfterN, acc);
            }
        }
        if (std::isinf(o.epochsToTarget)) o.trials = algo.createdTrials();
        const bool needBest = algo.topRung(job.bracket) == 0 && finished < bestAfter;
        if (!std::isinf(o.epochsToTarget) && !needBest) break;
    }
    return o;
}

double median(QList<double> v) {
    std::sort(v.begin(), v.end());
    if (v.isEmpty()) return std::numeric_limits<double>::quiet_NaN();
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : 0.5 * (v.at(n / 2 - 1) + v.at(n / 2));
}

QString fmt(double v) { return std::isinf(v) ? QStringLiteral("not reached") : QString::number(v, 'g', 4); }

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption engineOpt(QStringLiteral("engine"), QStringLiteral("diamond-train binary"),
                                       QStringLiteral("path"), qEnvironmentVariable("DIAMOND_TRAIN"));
    const QCommandLineOption seedsOpt(QStringLiteral("seeds"), QStringLiteral("seeds (default 10)"),
                                      QStringLiteral("n"), QStringLiteral("10"));
    const QCommandLineOption targetOpt(QStringLiteral("target"), QStringLiteral("validation accuracy to reach"),
                                       QStringLiteral("acc"), QStringLiteral("0.97"));
    const QCommandLineOption bestOpt(QStringLiteral("best-after"), QStringLiteral("N for best-after-N (default 20)"),
                                     QStringLiteral("n"), QStringLiteral("20"));
    const QCommandLineOption workOpt(QStringLiteral("workdir"), QStringLiteral("run folders and the curve cache"),
                                     QStringLiteral("dir"), QDir::temp().filePath(QStringLiteral("bench_sweep")));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("write results here"),
                                     QStringLiteral("file"));
    parser.addOptions({engineOpt, seedsOpt, targetOpt, bestOpt, workOpt, jsonOpt});
    parser.process(app);
    const QString engine = parser.value(engineOpt);
    if (engine.isEmpty()) qFatal("set --engine or DIAMOND_TRAIN to the diamond-train binary");
    const int seeds = parser.value(seedsOpt).toInt();
    const double target = parser.value(targetOpt).toDouble();
    const int bestAfter = parser.value(bestOpt).toInt();
    QDir().mkpath(parser.value(workOpt));

    const QString examples = QStringLiteral(DIAMOND_SOURCE_DIR "/resources/examples/spirals");
    QJsonObject config = readJson(examples + QStringLiteral("/run.json"));
    config.remove(QStringLiteral("checkpoint")); // a final checkpoint is enough here
    const QJsonObject doc{
        {QStringLiteral("format"), QStringLiteral("diamond.sweep/1")},
        {QStringLiteral("spec"), readJson(examples + QStringLiteral("/spec.json"))},
        {QStringLiteral("config"), config},
        {QStringLiteral("space"), QJsonDocument::fromJson(R"([
            {"name": "lr", "target": "optimizer.lr", "type": "log_uniform", "low": 1e-5, "high": 1},
            {"name": "optimizer", "target": "optimizer.name", "type": "choice", "values": ["adam", "sgd"]},
            {"name": "width", "target": "spec:fc1.out_features", "type": "int", "low": 4, "high": 128, "log": true}
         ])")
                                      .array()},
        {QStringLiteral("objective"), QJsonObject{{QStringLiteral("metric"), QStringLiteral("accuracy")},
                                                  {QStringLiteral("mode"), QStringLiteral("max")}}},
        {QStringLiteral("limits"), QJsonObject{{QStringLiteral("budget_per_trial"), kR}}}};
    QString error;
    const auto def = SweepDefinition::fromJson(doc, {}, &error);
    if (!def) qFatal("%s", qPrintable(error));
    Curves curves(*def, engine, parser.value(workOpt));

    struct Algo {
        const char *name;
        int maxTrials;
    };
    const Algo algos[] = {{"random", 60}, {"tpe", 60}, {"asha", 300}};
    QJsonObject results;
    QMap<QString, QList<double>> epochs, best;
    for (const Algo &a : algos) {
        QJsonArray perSeed;
        for (int seed = 1; seed <= seeds; ++seed) {
            AlgorithmSettings s = def->algorithm;
            s.name = QString::fromLatin1(a.name);
            s.maxTrials = a.maxTrials;
            s.maxResource = kR;
            s.eta = 3;
            s.minResource = 1;
            auto algo = SweepAlgorithm::create(def->space, s, std::uint64_t(seed), &error);
            if (!algo) qFatal("%s", qPrintable(error));
            const Outcome o = drive(*algo, curves, target, s.name == QLatin1String("asha") ? 0 : bestAfter);
            epochs[s.name].append(o.epochsToTarget);
            if (s.name != QLatin1String("asha")) best[s.name].append(o.bestAfterN);
            perSeed.append(QJsonObject{{QStringLiteral("seed"), seed},
                                       {QStringLiteral("trial_epochs"),
                                        std::isinf(o.epochsToTarget) ? QJsonValue() : QJsonValue(o.epochsToTarget)},
                                       {QStringLiteral("trials"), o.trials},
                                       {QStringLiteral("best_after_n"), o.bestAfterN}});
            out() << a.name << " seed " << seed << ": " << fmt(o.epochsToTarget) << " trial-epochs, " << o.trials
                  << " trials";
            if (s.name != QLatin1String("asha")) out() << ", best after " << bestAfter << ": " << o.bestAfterN;
            out() << Qt::endl;
        }
        results.insert(QString::fromLatin1(a.name),
                       QJsonObject{{QStringLiteral("median_trial_epochs"), median(epochs[QString::fromLatin1(a.name)])},
                                   {QStringLiteral("seeds"), perSeed}});
    }
    const double random = median(epochs[QStringLiteral("random")]), asha = median(epochs[QStringLiteral("asha")]);
    out() << "\nmedian trial-epochs to val accuracy >= " << target << " over " << seeds << " seeds:\n"
          << "  random " << fmt(random) << "\n  tpe    " << fmt(median(epochs[QStringLiteral("tpe")])) << "\n  asha   "
          << fmt(asha) << "\n  asha / random = " << asha / random << " (target <= 0.333)\n"
          << "median best val accuracy after " << bestAfter << " trials: random "
          << median(best[QStringLiteral("random")]) << ", tpe " << median(best[QStringLiteral("tpe")]) << "\n"
          << "engine runs for this invocation: " << curves.trained() << " (" << curves.wallSeconds()
          << " s of training)" << Qt::endl;
    results.insert(QStringLiteral("asha_over_random"), asha / random);
    results.insert(QStringLiteral("target"), target);
    results.insert(QStringLiteral("best_after_n"),
                   QJsonObject{{QStringLiteral("n"), bestAfter},
                               {QStringLiteral("random"), median(best[QStringLiteral("random")])},
                               {QStringLiteral("tpe"), median(best[QStringLiteral("tpe")])}});
    if (parser.isSet(jsonOpt)) writeJson(parser.value(jsonOpt), results);
    return 0;
}
