#include "app/plan/width_probe.h"

#include "remote/engine_command.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("WidthProbe", text); }

bool writeJson(const QString &path, const QJsonObject &doc) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(doc).toJson()) > 0;
}

} // namespace

std::optional<QList<WidthProbe>> probeWidths(const WidthProbeRequest &request, QString *error) {
    QTemporaryDir dir;
    if (!dir.isValid()) return *error = tr("Cannot create a folder for the width probes."), std::nullopt;
    const qint64 batch = request.config.value(QStringLiteral("batch_size")).toInteger(32);
    const qint64 steps = std::clamp<qint64>(
        request.secondsPerStep > 0 ? qint64(std::ceil(request.probeSeconds / request.secondsPerStep)) : 50, 20, 400);
    // The same data and model; a fixed number of steps, no validation and no checkpoints of the user's.
    QJsonObject config = request.config;
    config.insert(QStringLiteral("steps"), steps);
    config.remove(QStringLiteral("epochs"));
    config.remove(QStringLiteral("checkpoint"));
    config.remove(QStringLiteral("early_stopping"));
    QJsonObject data = config.value(QStringLiteral("data")).toObject();
    data.insert(QStringLiteral("validation_split"), 0.0);
    config.insert(QStringLiteral("data"), data);
    const QString specPath = dir.filePath(QStringLiteral("spec.json"));
    const QString configPath = dir.filePath(QStringLiteral("run.json"));
    if (!writeJson(specPath, request.spec) || !writeJson(configPath, config))
        return *error = tr("Cannot write the width probes' files in %1.").arg(dir.path()), std::nullopt;

    QList<QPair<int, int>> runs; // (ranks, threads per rank)
    const int fixed = std::max(0, request.threadsPerRank);
    const int cores = std::max({1, request.cores, fixed});
    for (int ranks = 1; ranks * std::max(1, fixed) <= cores; ranks *= 2) {
        if (batch % ranks != 0) continue;
        const int threads = fixed > 0 ? fixed : cores / ranks;
        runs.append({ranks, threads});
        if (ranks > 1 && fixed == 0) runs.append({1, threads});
    }
    QList<WidthProbe> probes;
    for (const auto &[ranks, threads] : runs) {
        remote::EngineCommand command;
        command.mode = remote::EngineCommand::Mode::Train;
        command.specPath = specPath;
        command.configPath = configPath;
        command.runDir = dir.filePath(QStringLiteral("n%1t%2").arg(ranks).arg(threads));
        command.threads = threads;
        command.nproc = ranks;
        command.dataPath = request.dataPath;
        QProcess engine;
        engine.start(request.enginePath, command.arguments());
        if (!engine.waitForStarted(30000))
            return *error = tr("Cannot start %1: %2").arg(request.enginePath, engine.errorString()), std::nullopt;
        if (!engine.waitForFinished(request.timeoutMs)) {
            engine.kill();
            engine.waitForFinished(5000);
            return *error = tr("The probe with %1 processes of %2 threads took longer than %3 s and was stopped.")
                                .arg(ranks)
                                .arg(threads)
                                .arg(request.timeoutMs / 1000),
                   std::nullopt;
        }
        double stepsPerSecond = 0;
        for (const QByteArray &line : engine.readAllStandardOutput().split('\n')) {
            const QJsonObject e = QJsonDocument::fromJson(line).object();
            if (e.value(QStringLiteral("event")).toString() == QLatin1String("finished"))
                stepsPerSecond = e.value(QStringLiteral("steps_per_s")).toDouble();
        }
        if (engine.exitStatus() != QProcess::NormalExit || engine.exitCode() != 0 || !(stepsPerSecond > 0))
            return *error = tr("The probe with %1 processes of %2 threads failed: %3")
                                .arg(ranks)
                                .arg(threads)
                                .arg(QString::fromUtf8(engine.readAllStandardError().trimmed().right(400))),
                   std::nullopt;
        probes.append({ranks, threads, steps, 1.0 / stepsPerSecond});
    }
    return probes;
}

} // namespace diamond::app
