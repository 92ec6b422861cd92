// Benchmark: 32 trials of the spirals MLP (the example spec and run config, 2 epochs = 150 steps, 1 thread each),
// trained through RunManager (so ingestion into the workspace is included):
//   packed     — PackingLocalExecutor: one `diamond-train pack` process for all 32;
//   separate   — LocalExecutor: one diamond-train process per trial, one at a time;
//   separate_2 — LocalExecutor: one process per trial, two at a time (this machine has 2 cores).
// Reports trials per second and the packed/separate ratio (target >= 5). Needs DIAMOND_TRAIN or the build's
// bin/diamond-train next to bench/.
#include "app/run/pack_executor.h"
#include "app/run/run_manager.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace diamond::app;

namespace {

QJsonObject readJson(const QString &path) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

struct Setup {
    QTemporaryDir dir;
    Workspace ws;
    QList<qint64> runs;
};

void createRuns(Setup &s, int count, const QString &sourceDir) {
    s.ws.create(s.dir.filePath(QStringLiteral("ws")));
    RunStore store(s.ws);
    QJsonObject config = readJson(sourceDir + QStringLiteral("/resources/examples/spirals/run.json"));
    config.insert(QStringLiteral("epochs"), 2);
    config.insert(QStringLiteral("threads"), 1);
    const QJsonObject spec = readJson(sourceDir + QStringLiteral("/resources/examples/spirals/spec.json"));
    for (int i = 0; i < count; ++i) {
        config.insert(QStringLiteral("seed"), i + 1);
        s.runs << store
                      .createRunWithSpec(QStringLiteral("bench"), spec, QStringLiteral("spirals"),
                                         QStringLiteral("trial %1").arg(i), config)
                      ->id;
    }
}

/// Runs every trial with at most `concurrency` at once (0 = all in one batch); returns seconds.
double runAll(Setup &s, Executor *executor, int concurrency) {
    RunManager manager(s.ws, executor);
    QEventLoop loop;
    int next = 0, ended = 0;
    const int total = int(s.runs.size());
    QObject::connect(&manager, &RunManager::runEnded, &loop, [&](qint64, RunState state) {
        if (state != RunState::Finished) std::fprintf(stderr, "a trial ended %s\n", qPrintable(runStateName(state)));
        ++ended;
        if (next < total) manager.startRun(s.runs[next++]);
        if (ended == total) loop.quit();
    });
    QElapsedTimer clock;
    clock.start();
    if (concurrency == 0) {
        manager.startRuns(s.runs);
        next = total;
    } else {
        for (; next < std::min(concurrency, total); ++next)
            manager.startRun(s.runs[next]);
    }
    QTimer::singleShot(600000, &loop, &QEventLoop::quit);
    loop.exec();
    return clock.nsecsElapsed() / 1e9;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QString source = QStringLiteral(DIAMOND_SOURCE_DIR);
    if (qEnvironmentVariableIsEmpty("DIAMOND_TRAIN"))
        qputenv("DIAMOND_TRAIN", QDir(QCoreApplication::applicationDirPath())
                                     .filePath(QStringLiteral("../bin/diamond-train"))
                                     .toLocal8Bit());
    const int trials = 32;
    Setup packed, separate, separate2;
    createRuns(packed, trials, source);
    createRuns(separate, trials, source);
    createRuns(separate2, trials, source);
    const double tPacked = runAll(packed, new PackingLocalExecutor, 0);
    const double tSeparate = runAll(separate, new LocalExecutor, 1);
    const double tSeparate2 = runAll(separate2, new LocalExecutor, 2);
    const double ratio = tSeparate / tPacked;
    std::printf("{\"benchmark\":\"trial_packing\",\"trials\":%d,\"packed_s\":%.2f,\"separate_s\":%.2f,"
                "\"separate_2_at_once_s\":%.2f,\"packed_trials_per_s\":%.2f,\"separate_trials_per_s\":%.2f,"
                "\"separate_2_trials_per_s\":%.2f,\"ratio_packed_vs_separate\":%.2f,\"ratio_vs_2_at_once\":%.2f,"
                "\"target_ratio\":5}\n",
                trials, tPacked, tSeparate, tSeparate2, trials / tPacked, trials / tSeparate, trials / tSeparate2,
                ratio, tSeparate2 / tPacked);
    return ratio >= 5 ? 0 : 1;
}
