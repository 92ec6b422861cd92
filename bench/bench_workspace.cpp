// Workspace (SQLite) speed: ingest metric points in batches, load one run's 1,000,000-point series,
// list 10,000 runs. Targets (issue #6): >= 100,000 points/s, <= 200 ms, <= 100 ms. Prints the numbers;
// exit code 1 when a target is missed.
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>

using namespace diamond::app;

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    Workspace ws;
    if (!ws.create(dir.filePath(QStringLiteral("ws")))) {
        std::fprintf(stderr, "cannot create workspace: %s\n", qPrintable(ws.errorString()));
        return 2;
    }
    RunStore store(ws);
    const auto project = store.createProject(QStringLiteral("bench"));
    const auto run = store.createRun(project->id, 0, QStringLiteral("big"), QJsonObject());
    if (!run) {
        std::fprintf(stderr, "cannot create run: %s\n", qPrintable(store.errorString()));
        return 2;
    }

    // Ingest: 1,000,000 points in batches of 2,000 (the ingestor writes one batch per ~100 ms poll).
    const int total = 1000000, batch = 2000;
    QElapsedTimer timer;
    timer.start();
    for (int start = 0; start < total; start += batch) {
        QList<MetricPoint> points;
        points.reserve(batch);
        for (int i = start; i < start + batch; ++i) {
            MetricPoint p;
            p.step = i;
            p.name = QStringLiteral("loss");
            p.value = 1.0 / (1.0 + i);
            p.wall = 1.7e9 + i * 1e-3;
            points.append(p);
        }
        store.addMetricPoints(run->id, points);
    }
    const double ingestSeconds = timer.elapsed() / 1000.0;
    const double pointsPerSecond = total / ingestSeconds;

    // Load the whole series.
    timer.start();
    const QList<MetricPoint> series = store.metricPoints(run->id, QStringLiteral("loss"), MetricSplit::Train);
    const qint64 loadMs = timer.elapsed();
    if (series.size() != total) {
        std::fprintf(stderr, "loaded %lld points, expected %d\n", static_cast<long long>(series.size()), total);
        return 2;
    }

    // 10,000 runs (inserted directly: creating run folders is not what is measured), then list them.
    {
        QSqlQuery q(ws.database());
        ws.database().transaction();
        q.prepare(
            QStringLiteral("INSERT INTO runs (project_id, name, state, config_json, target, created_at, updated_at) "
                           "VALUES (?, ?, 'finished', '{}', 'local', datetime('now'), datetime('now'))"));
        for (int i = 0; i < 9999; ++i) {
            q.addBindValue(project->id);
            q.addBindValue(QStringLiteral("run-%1").arg(i));
            if (!q.exec()) {
                std::fprintf(stderr, "insert failed (schema changed?)\n");
                return 2;
            }
        }
        ws.database().commit();
    }
    timer.start();
    const QList<Run> runs = store.runs();
    const qint64 listMs = timer.elapsed();

    std::printf("ingest   %9.0f points/s  (1,000,000 points in %.2f s; target >= 100,000)\n", pointsPerSecond,
                ingestSeconds);
    std::printf("load     %9lld ms        (1,000,000-point series; target <= 200)\n", static_cast<long long>(loadMs));
    std::printf("list     %9lld ms        (%lld runs; target <= 100)\n", static_cast<long long>(listMs),
                static_cast<long long>(runs.size()));
    return (pointsPerSecond >= 100000 && loadMs <= 200 && listMs <= 100) ? 0 : 1;
}
