// The run-config library (diamond_run_config): documented defaults, toJson/parse round trip, one
// field name per validation error, data paths against baseDir, reading files. Expected values are
// literals from docs/run-config.md, never values computed by the code under test.
#include "diamond/config/run_config.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <string>

using diamond::config::ConfigError;
using diamond::config::RunConfig;
using nlohmann::json;

namespace {

/// A minimal valid document plus `extra` top-level fields (merged over it).
json minimal(const json &extra = json::object()) {
    json doc = {{"format", "diamond.run/1"}, {"data", {{"source", "spirals"}}}};
    doc.merge_patch(extra);
    return doc;
}

/// The ConfigError of parsing `doc`; fails the test when parsing succeeds.
struct Caught {
    bool thrown = false;
    std::string message, field, hint;
};

Caught parseError(const json &doc) {
    Caught c;
    try {
        diamond::config::parseRunConfig(doc, "/base");
    } catch (const ConfigError &e) {
        c.thrown = true;
        c.message = e.what();
        c.field = e.field();
        c.hint = e.hint();
    }
    return c;
}

QString q(const std::string &s) { return QString::fromStdString(s); }

} // namespace

class TestRunConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void minimalDocumentHasTheDocumentedDefaults() {
        const RunConfig c = diamond::config::parseRunConfig(minimal(), "/base");
        QCOMPARE(q(c.data.source), QStringLiteral("spirals"));
        QCOMPARE(c.data.validationSplit, 0.2);
        QCOMPARE(c.data.standardize, true);
        QCOMPARE(q(c.data.baseDir), QStringLiteral("/base"));
        QCOMPARE(c.batchSize, 32);
        QCOMPARE(c.epochs, 10);
        QCOMPARE(c.steps, 0);
        QCOMPARE(q(c.optimizer.name), QStringLiteral("adam"));
        QCOMPARE(c.optimizer.lr, 0.001);
        QCOMPARE(c.optimizer.momentum, 0.0);
        QCOMPARE(c.optimizer.nesterov, false);
        QCOMPARE(c.optimizer.weightDecay, 0.0);
        QCOMPARE(c.optimizer.beta1, 0.9);
        QCOMPARE(c.optimizer.beta2, 0.999);
        QCOMPARE(c.optimizer.eps, 1e-8);
        QCOMPARE(c.optimizer.alpha, 0.99);
        QCOMPARE(q(c.schedule.name), QStringLiteral("constant"));
        QCOMPARE(c.schedule.warmupSteps, 0);
        QCOMPARE(c.schedule.stepSize, 0);
        QCOMPARE(c.schedule.gamma, 0.1);
        QCOMPARE(c.schedule.minLr, 0.0);
        QCOMPARE(c.schedule.pctStart, 0.3);
        QCOMPARE(c.schedule.divFactor, 25.0);
        QCOMPARE(c.schedule.finalDivFactor, 10000.0);
        QCOMPARE(q(c.loss.name), QString());
        QCOMPARE(c.loss.labelSmoothing, 0.0);
        QCOMPARE(c.loss.delta, 1.0);
        QVERIFY(c.metrics.empty());
        QCOMPARE(c.seed, 0u);
        QCOMPARE(c.threads, 0);
        QCOMPARE(q(c.device), QStringLiteral("cpu"));
        QCOMPARE(c.flushDenormals, true);
        QCOMPARE(c.checkpoint.everySteps, 0);
        QCOMPARE(c.checkpoint.everySeconds, 0.0);
        QCOMPARE(c.checkpoint.keepLast, 3);
        QCOMPARE(c.earlyStopping.enabled, false);
        QCOMPARE(q(c.earlyStopping.metric), QStringLiteral("val_loss"));
        QCOMPARE(q(c.earlyStopping.mode), QStringLiteral("min"));
        QCOMPARE(c.earlyStopping.patience, 5);
        QCOMPARE(c.earlyStopping.minDelta, 0.0);
        QCOMPARE(c.gradClipNorm, 0.0);
        QCOMPARE(c.accumulationSteps, 1);
        QCOMPARE(c.logEverySteps, 10);
        QCOMPARE(c.evalEverySteps, 0);
    }

    void defaultConfigAsJsonListsTheDocumentedDefaults() {
        const json expected = json::parse(R"({
            "format": "diamond.run/1",
            "data": {"validation_split": 0.2, "standardize": true},
            "batch_size": 32, "epochs": 10, "steps": 0,
            "optimizer": {"name": "adam", "lr": 0.001, "momentum": 0.0, "nesterov": false, "weight_decay": 0.0,
                          "betas": [0.9, 0.999], "eps": 1e-8, "alpha": 0.99},
            "schedule": {"name": "constant", "warmup_steps": 0, "step_size": 0, "gamma": 0.1, "min_lr": 0.0,
                         "pct_start": 0.3, "div_factor": 25.0, "final_div_factor": 10000.0},
            "loss": {"label_smoothing": 0.0, "delta": 1.0},
            "metrics": [], "seed": 0, "threads": 0, "device": "cpu", "precision": "fp32", "sharding": "none", "recompute": "marked",
            "activation_budget_mb": 0.0, "pipeline": {"stages": 1, "micro_batches": 4, "cut": "auto"},
            "deterministic": false, "cudnn_benchmark": false, "flush_denormals": true,
            "checkpoint": {"every_steps": 0, "every_seconds": 0.0, "keep_last": 3},
            "early_stopping": {"enabled": false, "metric": "val_loss", "mode": "min", "patience": 5, "min_delta": 0.0},
            "grad_clip_norm": 0.0, "accumulation_steps": 1, "log_every_steps": 10, "eval_every_steps": 0
        })");
        const json actual = diamond::config::toJson(RunConfig{});
        QVERIFY2(actual == expected, actual.dump().c_str());
        QCOMPARE(q(diamond::config::kRunFormatV1), QStringLiteral("diamond.run/1"));
    }

    void adamwDefaultsToDecoupledWeightDecay() {
        const RunConfig c = diamond::config::parseRunConfig(minimal({{"optimizer", {{"name", "adamw"}}}}), {});
        QCOMPARE(c.optimizer.weightDecay, 0.01);
        const RunConfig explicitDecay =
            diamond::config::parseRunConfig(minimal({{"optimizer", {{"name", "adamw"}, {"weight_decay", 0}}}}), {});
        QCOMPARE(explicitDecay.optimizer.weightDecay, 0.0);
    }

    void earlyStoppingSectionEnablesIt() {
        const RunConfig c = diamond::config::parseRunConfig(minimal({{"early_stopping", json::object()}}), {});
        QCOMPARE(c.earlyStopping.enabled, true);
        QCOMPARE(c.earlyStopping.patience, 5);
    }

    void explicitValuesAreRead() {
        const RunConfig c = diamond::config::parseRunConfig(
            minimal({{"batch_size", 128},
                     {"epochs", 3},
                     {"seed", 42},
                     {"optimizer", {{"name", "sgd"}, {"lr", 0.5}, {"momentum", 0.9}, {"nesterov", true}}},
                     {"schedule", {{"name", "step"}, {"step_size", 100}, {"gamma", 0.5}}},
                     {"loss", {{"name", "huber"}, {"delta", 2.5}}},
                     {"metrics", {"mae", "r2"}},
                     {"checkpoint", {{"keep_last", 7}}},
                     {"data", {{"validation_split", 0.1}, {"standardize", false}}}}),
            {});
        QCOMPARE(c.batchSize, 128);
        QCOMPARE(c.epochs, 3);
        QCOMPARE(c.seed, 42u);
        QCOMPARE(q(c.optimizer.name), QStringLiteral("sgd"));
        QCOMPARE(c.optimizer.lr, 0.5);
        QCOMPARE(c.optimizer.momentum, 0.9);
        QCOMPARE(c.optimizer.nesterov, true);
        QCOMPARE(q(c.schedule.name), QStringLiteral("step"));
        QCOMPARE(c.schedule.stepSize, 100);
        QCOMPARE(c.schedule.gamma, 0.5);
        QCOMPARE(q(c.loss.name), QStringLiteral("huber"));
        QCOMPARE(c.loss.delta, 2.5);
        QCOMPARE(c.metrics.size(), std::size_t(2));
        QCOMPARE(q(c.metrics[1]), QStringLiteral("r2"));
        QCOMPARE(c.checkpoint.keepLast, 7);
        QCOMPARE(c.data.validationSplit, 0.1);
        QCOMPARE(c.data.standardize, false);
        QCOMPARE(q(c.data.source), QStringLiteral("spirals")); // merge_patch kept the source
    }

    void toJsonRoundTrips_data() {
        QTest::addColumn<QByteArray>("doc");
        QTest::newRow("minimal") << QByteArray(R"({"format": "diamond.run/1", "data": {"source": "moons"}})");
        QTest::newRow("csv options") << QByteArray(
            R"({"format": "diamond.run/1", "data": {"source": "csv", "path": "d.csv", "target": "y", "header": true}})");
        QTest::newRow("everything") << QByteArray(R"({
            "format": "diamond.run/1", "data": {"source": "blobs", "samples": 500, "validation_split": 0.25},
            "batch_size": 64, "epochs": 2, "steps": 300, "seed": 7, "threads": 2, "device": "cuda",
            "precision": "bf16", "sharding": "gradients", "recompute": "auto", "activation_budget_mb": 256.5, "deterministic": true, "cudnn_benchmark": true, "flush_denormals": false, "grad_clip_norm": 1.5, "accumulation_steps": 4, "log_every_steps": 5,
            "eval_every_steps": 50,
            "optimizer": {"name": "rmsprop", "lr": 0.01, "momentum": 0.5, "alpha": 0.9, "eps": 1e-6,
                          "weight_decay": 0.001},
            "schedule": {"name": "cosine", "warmup_steps": 20, "min_lr": 1e-5},
            "loss": {"name": "cross_entropy", "label_smoothing": 0.1},
            "metrics": ["accuracy", "top5"],
            "checkpoint": {"every_steps": 100, "every_seconds": 60, "keep_last": 2},
            "early_stopping": {"metric": "val_accuracy", "mode": "max", "patience": 3, "min_delta": 0.01}})");
        QTest::newRow("pipeline") << QByteArray(R"({
            "format": "diamond.run/1", "data": {"source": "moons"}, "batch_size": 64,
            "pipeline": {"stages": 3, "micro_batches": 8, "cut": ["fc1", "fc2"]}})");
        QTest::newRow("adamw one_cycle") << QByteArray(R"({
            "format": "diamond.run/1", "data": {"source": "sine"},
            "optimizer": {"name": "adamw", "betas": [0.8, 0.99]},
            "schedule": {"name": "one_cycle", "pct_start": 0.25, "div_factor": 10, "final_div_factor": 100}})");
    }

    void toJsonRoundTrips() {
        QFETCH(QByteArray, doc);
        const json input = json::parse(doc.toStdString());
        const json once = diamond::config::toJson(diamond::config::parseRunConfig(input, "/base"));
        const json twice = diamond::config::toJson(diamond::config::parseRunConfig(once, "/base"));
        QVERIFY2(once == twice, (once.dump() + "\n" + twice.dump()).c_str());
        // Every value the document set is kept (json compares 60 and 60.0 as equal numbers).
        const json flatIn = input.flatten();
        const json flatOut = once.flatten();
        for (auto it = flatIn.begin(); it != flatIn.end(); ++it) {
            QVERIFY2(flatOut.contains(it.key()), it.key().c_str());
            QVERIFY2(flatOut[it.key()] == it.value(), (it.key() + ": " + flatOut[it.key()].dump()).c_str());
        }
    }

    void invalidFieldIsNamed_data() {
        QTest::addColumn<QByteArray>("extra"); // merged over the minimal document
        QTest::addColumn<QString>("field");
        QTest::newRow("lr zero") << QByteArray(R"({"optimizer": {"lr": 0}})") << QStringLiteral("optimizer.lr");
        QTest::newRow("lr negative") << QByteArray(R"({"optimizer": {"lr": -0.1}})") << QStringLiteral("optimizer.lr");
        QTest::newRow("lr string") << QByteArray(R"({"optimizer": {"lr": "fast"}})") << QStringLiteral("optimizer.lr");
        QTest::newRow("optimizer unknown")
            << QByteArray(R"({"optimizer": {"name": "adagrad"}})") << QStringLiteral("optimizer.name");
        QTest::newRow("optimizer key unknown")
            << QByteArray(R"({"optimizer": {"learning_rate": 0.1}})") << QStringLiteral("optimizer.learning_rate");
        QTest::newRow("betas one") << QByteArray(R"({"optimizer": {"betas": [0.9]}})")
                                   << QStringLiteral("optimizer.betas");
        QTest::newRow("nesterov without momentum") << QByteArray(R"({"optimizer": {"name": "sgd", "nesterov": true}})")
                                                   << QStringLiteral("optimizer.nesterov");
        QTest::newRow("batch zero") << QByteArray(R"({"batch_size": 0})") << QStringLiteral("batch_size");
        QTest::newRow("batch fraction") << QByteArray(R"({"batch_size": 1.5})") << QStringLiteral("batch_size");
        QTest::newRow("epochs negative") << QByteArray(R"({"epochs": -3})") << QStringLiteral("epochs");
        QTest::newRow("steps negative") << QByteArray(R"({"steps": -1})") << QStringLiteral("steps");
        QTest::newRow("seed negative") << QByteArray(R"({"seed": -1})") << QStringLiteral("seed");
        QTest::newRow("device") << QByteArray(R"({"device": "tpu"})") << QStringLiteral("device");
        QTest::newRow("precision") << QByteArray(R"({"precision": "fp8"})") << QStringLiteral("precision");
        QTest::newRow("sharding") << QByteArray(R"({"sharding": "zero3"})") << QStringLiteral("sharding");
        QTest::newRow("recompute") << QByteArray(R"({"recompute": true})") << QStringLiteral("recompute");
        QTest::newRow("recompute auto without budget")
            << QByteArray(R"({"recompute": "auto"})") << QStringLiteral("activation_budget_mb");
        QTest::newRow("activation budget negative")
            << QByteArray(R"({"recompute": "auto", "activation_budget_mb": -5})")
            << QStringLiteral("activation_budget_mb");
        QTest::newRow("activation budget text")
            << QByteArray(R"({"activation_budget_mb": "lots"})") << QStringLiteral("activation_budget_mb");
        QTest::newRow("pipeline stages zero")
            << QByteArray(R"({"pipeline": {"stages": 0}})") << QStringLiteral("pipeline.stages");
        QTest::newRow("pipeline micro-batches zero") << QByteArray(R"({"pipeline": {"stages": 2, "micro_batches": 0}})")
                                                     << QStringLiteral("pipeline.micro_batches");
        QTest::newRow("pipeline micro-batches not dividing the batch")
            << QByteArray(R"({"batch_size": 30, "pipeline": {"stages": 2, "micro_batches": 4}})")
            << QStringLiteral("pipeline.micro_batches");
        QTest::newRow("pipeline cut not names")
            << QByteArray(R"({"pipeline": {"stages": 2, "cut": [3]}})") << QStringLiteral("pipeline.cut");
        QTest::newRow("pipeline cut word")
            << QByteArray(R"({"pipeline": {"stages": 2, "cut": "balanced"}})") << QStringLiteral("pipeline.cut");
        QTest::newRow("pipeline cut count")
            << QByteArray(R"({"pipeline": {"stages": 3, "cut": ["fc1"]}})") << QStringLiteral("pipeline.cut");
        QTest::newRow("pipeline with sharding")
            << QByteArray(R"({"sharding": "optimizer", "pipeline": {"stages": 2}})") << QStringLiteral("sharding");
        QTest::newRow("pipeline unknown key")
            << QByteArray(R"({"pipeline": {"stages": 2, "schedule": "1f1b"}})") << QStringLiteral("pipeline.schedule");
        QTest::newRow("pipeline not an object") << QByteArray(R"({"pipeline": 2})") << QStringLiteral("pipeline");
        QTest::newRow("deterministic") << QByteArray(R"({"deterministic": 1})") << QStringLiteral("deterministic");
        QTest::newRow("keep_last zero") << QByteArray(R"({"checkpoint": {"keep_last": 0}})")
                                        << QStringLiteral("checkpoint.keep_last");
        QTest::newRow("schedule unknown")
            << QByteArray(R"({"schedule": {"name": "linear"}})") << QStringLiteral("schedule.name");
        QTest::newRow("one_cycle warmup") << QByteArray(R"({"schedule": {"name": "one_cycle", "warmup_steps": 5}})")
                                          << QStringLiteral("schedule.warmup_steps");
        QTest::newRow("loss unknown") << QByteArray(R"({"loss": {"name": "hinge"}})") << QStringLiteral("loss.name");
        QTest::newRow("metric unknown") << QByteArray(R"({"metrics": ["f1"]})") << QStringLiteral("metrics");
        QTest::newRow("early stopping mode")
            << QByteArray(R"({"early_stopping": {"mode": "up"}})") << QStringLiteral("early_stopping.mode");
        QTest::newRow("unknown top-level key") << QByteArray(R"({"epoch": 5})") << QStringLiteral("epoch");
        QTest::newRow("section not an object") << QByteArray(R"({"checkpoint": 5})") << QStringLiteral("checkpoint");
        QTest::newRow("validation split")
            << QByteArray(R"({"data": {"validation_split": 0.95}})") << QStringLiteral("data.validation_split");
        QTest::newRow("no source") << QByteArray(R"({"data": {"source": null}})") << QStringLiteral("data.source");
        QTest::newRow("wrong format") << QByteArray(R"({"format": "diamond.run/2"})") << QStringLiteral("format");
        QTest::newRow("format not a string") << QByteArray(R"({"format": 1})") << QStringLiteral("format");
        QTest::newRow("no format") << QByteArray(R"({"format": null})") << QStringLiteral("format");
        QTest::newRow("no data") << QByteArray(R"({"data": null})") << QStringLiteral("data");
    }

    void invalidFieldIsNamed() {
        QFETCH(QByteArray, extra);
        QFETCH(QString, field);
        // merge_patch removes keys patched with null ("no format", "no data").
        const Caught c = parseError(minimal(json::parse(extra.toStdString())));
        QVERIFY2(c.thrown, extra.constData());
        QCOMPARE(q(c.field), field);
        QVERIFY2(!c.message.empty(), extra.constData());
    }

    void notAnObjectIsTheConfigField() {
        const Caught c = parseError(json::array({1, 2}));
        QVERIFY(c.thrown);
        QCOMPARE(q(c.field), QStringLiteral("config"));
        QCOMPARE(q(c.message), QStringLiteral("'config' must be an object."));
    }

    // diamond-train reports these texts in its error events; they must not drift.
    void messagesAndHintsAreTheEngines() {
        Caught c = parseError(minimal({{"optimizer", {{"lr", 0}}}}));
        QCOMPARE(q(c.message), QStringLiteral("'optimizer.lr' must be greater than 0 and at most 1e+06, got 0."));
        QCOMPARE(q(c.hint), QString());
        c = parseError(minimal({{"optimizer", {{"name", "adagrad"}}}}));
        QCOMPARE(q(c.message),
                 QStringLiteral("'optimizer.name' must be one of sgd, adam, adamw, rmsprop, got \"adagrad\"."));
        c = parseError(minimal({{"epochs", -3}}));
        QCOMPARE(q(c.message), QStringLiteral("'epochs' must be between 1 and 1000000, got -3."));
        c = parseError(json{{"data", {{"source", "spirals"}}}});
        QCOMPARE(q(c.message), QStringLiteral("The run config has no \"format\" field."));
        QCOMPARE(q(c.hint), QStringLiteral("Add \"format\": \"diamond.run/1\" at the top level."));
        c = parseError(minimal({{"epoch", 5}}));
        QCOMPARE(q(c.message), QStringLiteral("Unknown field 'epoch'."));
        QVERIFY2(q(c.hint).startsWith(QStringLiteral("Known fields here: ")), c.hint.c_str());
        QVERIFY2(q(c.hint).contains(QStringLiteral("batch_size")), c.hint.c_str());
    }

    void dataOptionsAreKeptForTheSource() {
        const RunConfig c = diamond::config::parseRunConfig(
            minimal({{"data", {{"source", "csv"}, {"path", "train.csv"}, {"whatever", 1}}}}), "/projects/p1");
        QCOMPARE(q(c.data.source), QStringLiteral("csv"));
        QCOMPARE(q(c.data.options.value("path", std::string())), QStringLiteral("train.csv"));
        QCOMPARE(c.data.options.value("whatever", 0), 1); // unknown data keys are the source's to check
        QCOMPARE(q(c.data.baseDir), QStringLiteral("/projects/p1"));
    }

    void relativeDataPathsResolveAgainstBaseDir_data() {
        QTest::addColumn<QString>("baseDir");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("resolved");
        QTest::newRow("relative") << QStringLiteral("/projects/p1") << QStringLiteral("train.csv")
                                  << QStringLiteral("/projects/p1/train.csv");
        QTest::newRow("subfolder") << QStringLiteral("/projects/p1") << QStringLiteral("data/./x.npy")
                                   << QStringLiteral("/projects/p1/data/x.npy");
        QTest::newRow("parent") << QStringLiteral("/projects/p1") << QStringLiteral("../shared/x.h5")
                                << QStringLiteral("/projects/shared/x.h5");
        QTest::newRow("absolute") << QStringLiteral("/projects/p1") << QStringLiteral("/data/x.csv")
                                  << QStringLiteral("/data/x.csv");
        QTest::newRow("no base dir") << QString() << QStringLiteral("x.csv") << QStringLiteral("x.csv");
    }

    void relativeDataPathsResolveAgainstBaseDir() {
        QFETCH(QString, baseDir);
        QFETCH(QString, path);
        QFETCH(QString, resolved);
        QCOMPARE(q(diamond::config::resolveDataPath(baseDir.toStdString(), path.toStdString())), resolved);
    }

    void loadRunConfigUsesTheFilesFolder() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("sub")));
        QFile f(dir.filePath(QStringLiteral("sub/run.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "diamond.run/1", "data": {"source": "csv", "path": "train.csv"}, "epochs": 4})");
        f.close();
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        const QString expectedBase = QDir::currentPath() + QStringLiteral("/sub");
        RunConfig c;
        bool ok = true;
        try {
            c = diamond::config::loadRunConfig("sub/run.json"); // relative: made absolute
        } catch (const ConfigError &) {
            ok = false;
        }
        QDir::setCurrent(previous);
        QVERIFY(ok);
        QCOMPARE(c.epochs, 4);
        QCOMPARE(q(c.data.baseDir), expectedBase);
        QCOMPARE(q(diamond::config::resolveDataPath(c.data.baseDir, c.data.options.value("path", std::string()))),
                 expectedBase + QStringLiteral("/train.csv"));
    }

    void unreadableFilesAreTheConfigField() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string missing = dir.filePath(QStringLiteral("missing.json")).toStdString();
        QFile f(dir.filePath(QStringLiteral("broken.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": ");
        f.close();
        for (const std::string &path : {missing, dir.filePath(QStringLiteral("broken.json")).toStdString()}) {
            try {
                diamond::config::loadRunConfig(path);
                QFAIL(path.c_str());
            } catch (const ConfigError &e) {
                QCOMPARE(q(e.field()), QStringLiteral("config"));
                QVERIFY2(q(e.what()).contains(q(path)), e.what());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRunConfig)
#include "tst_run_config.moc"
