// Running the real diamond-train in tests: the process, its JSON-lines events, small JSON file helpers.
#pragma once

#include "common/test_paths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QStringList>

#include <csignal>

namespace diamond::test {

struct EngineRun {
    int exitCode = -1; ///< -1: timed out, -2: crashed
    QList<QJsonObject> events;
    QString stderrText;

    QList<QJsonObject> ofKind(const QString &kind) const {
        QList<QJsonObject> out;
        for (const auto &e : events)
            if (e.value(QStringLiteral("event")).toString() == kind) out << e;
        return out;
    }
    QJsonObject last(const QString &kind) const {
        const auto all = ofKind(kind);
        return all.isEmpty() ? QJsonObject() : all.last();
    }
    /// The finished event's weights_sha256 (empty when the run did not finish).
    QString weightsSha() const {
        return last(QStringLiteral("finished")).value(QStringLiteral("weights_sha256")).toString();
    }
};

inline QList<QJsonObject> parseEventLines(const QByteArray &bytes) {
    QList<QJsonObject> out;
    for (const QByteArray &line : bytes.split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        out << QJsonDocument::fromJson(line).object();
    }
    return out;
}

/// The events of one kind in <runDir>/events.jsonl (empty when the file is missing).
inline QList<QJsonObject> runDirEvents(const QString &runDir, const QString &kind) {
    QFile f(runDir + QStringLiteral("/events.jsonl"));
    QList<QJsonObject> out;
    if (!f.open(QIODevice::ReadOnly)) return out;
    for (const QJsonObject &e : parseEventLines(f.readAll()))
        if (e.value(QStringLiteral("event")).toString() == kind) out << e;
    return out;
}

/// The last event of one kind in <runDir>/events.jsonl (empty when there is none).
inline QJsonObject lastRunDirEvent(const QString &runDir, const QString &kind) {
    const QList<QJsonObject> all = runDirEvents(runDir, kind);
    return all.isEmpty() ? QJsonObject() : all.last();
}

/// The file of a shipped example, e.g. example("spirals", "run.json").
inline QString example(const char *name, const char *file) {
    return sourcePath(QStringLiteral("resources/examples/%1/%2").arg(QLatin1String(name), QLatin1String(file)));
}

/// The finished event's metrics.val_loss, or -1.
inline double finalValLoss(const EngineRun &r) {
    return r.last(QStringLiteral("finished"))
        .value(QStringLiteral("metrics"))
        .toObject()
        .value(QStringLiteral("val_loss"))
        .toDouble(-1);
}

/// --spec, --config, --run-dir and one thread.
inline QStringList trainArgs(const QString &spec, const QString &config, const QString &runDir) {
    return {QStringLiteral("--spec"),    spec,   QStringLiteral("--config"),  config,
            QStringLiteral("--run-dir"), runDir, QStringLiteral("--threads"), QStringLiteral("1")};
}

/// `args` with --nproc n when n > 1.
inline QStringList withRanks(QStringList args, int n) {
    if (n > 1) args << QStringLiteral("--nproc") << QString::number(n);
    return args;
}

inline EngineRun runEngine(const QStringList &args, int timeoutMs = 240000) {
    QProcess p;
    p.start(binary(QStringLiteral("diamond-train")), args);
    EngineRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.events = parseEventLines(p.readAllStandardOutput());
    r.stderrText = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline QString writeJson(const QString &path, const QJsonObject &doc) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QJsonDocument(doc).toJson());
    return path;
}

inline QJsonObject readJson(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// An example's run config for `steps` steps (no epochs) with a checkpoint every 20 steps (the last 5 kept) and
/// `extra` fields set, written to `path`; returns the path.
inline QString writeExampleConfig(const char *exampleName, const QString &path, int steps, const QJsonObject &extra) {
    QJsonObject c = readJson(example(exampleName, "run.json"));
    c.remove(QStringLiteral("epochs"));
    c[QStringLiteral("steps")] = steps;
    c[QStringLiteral("checkpoint")] =
        QJsonObject{{QStringLiteral("every_steps"), 20}, {QStringLiteral("keep_last"), 5}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        c[it.key()] = it.value();
    return writeJson(path, c);
}

/// The spirals example's MLP with `layers` hidden Linear + ReLU layers of `width` (then Linear to 3).
inline QJsonObject deepSpiralsSpec(int layers, int width) {
    QJsonObject spec = readJson(example("spirals", "spec.json"));
    spec.remove(QStringLiteral("layout"));
    QJsonArray nodes;
    QString previous = QStringLiteral("x");
    for (int i = 0; i < layers; ++i) {
        const QString fc = QStringLiteral("fc%1").arg(i), relu = QStringLiteral("relu%1").arg(i);
        nodes.append(QJsonObject{{QStringLiteral("id"), fc},
                                 {QStringLiteral("type"), QStringLiteral("Linear")},
                                 {QStringLiteral("inputs"), QJsonArray{previous}},
                                 {QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), width}}}});
        nodes.append(QJsonObject{{QStringLiteral("id"), relu},
                                 {QStringLiteral("type"), QStringLiteral("ReLU")},
                                 {QStringLiteral("inputs"), QJsonArray{fc}}});
        previous = relu;
    }
    nodes.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("out")},
                             {QStringLiteral("type"), QStringLiteral("Linear")},
                             {QStringLiteral("inputs"), QJsonArray{previous}},
                             {QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), 3}}}});
    spec[QStringLiteral("nodes")] = nodes;
    spec[QStringLiteral("outputs")] = QJsonArray{QJsonObject{{QStringLiteral("from"), QStringLiteral("out")},
                                                             {QStringLiteral("name"), QStringLiteral("logits")}}};
    return spec;
}

/// deepSpiralsSpec(layers, width) written to `path`; returns the path.
inline QString writeDeepSpiralsSpec(const QString &path, int layers, int width) {
    return writeJson(path, deepSpiralsSpec(layers, width));
}

/// Starts diamond-train with `args` and SIGKILLs it at its first event for which `killAt` is true; false when the
/// engine ended before such an event.
template <typename Predicate> bool runEngineUntilKilled(const QStringList &args, Predicate killAt) {
    QProcess p;
    p.start(binary(QStringLiteral("diamond-train")), args);
    if (!p.waitForStarted()) return false;
    bool killed = false;
    QByteArray pending;
    while (!killed && p.state() != QProcess::NotRunning) {
        p.waitForReadyRead(1000);
        pending += p.readAllStandardOutput();
        int nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QJsonObject e = QJsonDocument::fromJson(pending.left(nl)).object();
            pending.remove(0, nl + 1);
            if (killAt(e)) {
                ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
                killed = true;
                break;
            }
        }
    }
    p.waitForFinished();
    return killed;
}

} // namespace diamond::test
