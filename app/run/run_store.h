// Projects, architectures, runs (with their state machine), metric points and events of a workspace.
//
// Run states and the allowed transitions (anything else is refused and nothing is written):
//
//   from        to
//   (created)   draft
//   draft       queued, cancelled
//   queued      running, failed, cancelled
//   running     finished, failed, cancelled, preempted
//   preempted   resumed, failed, cancelled
//   resumed     running, failed, cancelled
//   failed      resumed          (continue from the newest checkpoint)
//   cancelled   resumed          (continue from the newest checkpoint)
//   finished    -                (final)
//
// Every accepted transition is appended to run_transitions with a UTC timestamp. An engine exit code maps
// to a state with stateForExitCode(): 0 finished, 85 preempted, anything else failed.
//
// All methods use the workspace's connection (same thread as the Workspace). Methods returning bool or
// std::optional report failures through errorString() (translated).
#pragma once

#include "app/workspace/workspace.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace diamond::app {

enum class RunState { Draft, Queued, Running, Finished, Failed, Cancelled, Preempted, Resumed };

/// "draft", "queued", ... as stored in the database and printed by diamondctl.
QString runStateName(RunState state);
std::optional<RunState> runStateFromName(const QString &name);
/// True when the table in the file comment allows from -> to.
bool isRunTransitionAllowed(RunState from, RunState to);
/// 0 -> Finished, 85 (kPreemptedExitCode) -> Preempted, anything else -> Failed.
RunState stateForExitCode(int exitCode);
inline constexpr int kPreemptedExitCode = 85;

/// Split of a metric point: training or validation data.
enum class MetricSplit : int { Train = 0, Validation = 1 };
inline size_t qHash(MetricSplit split, size_t seed = 0) noexcept { return ::qHash(int(split), seed); }

struct Project {
    qint64 id = 0;
    QString name;
    QString description;
    QString createdAt;
    int runCount = 0;
};

struct ArchitectureVersion {
    qint64 id = 0;
    qint64 architectureId = 0;
    int version = 0;
    QString contentHash; ///< SHA-256, lower-case hex, of specJson
    QByteArray specJson; ///< canonical JSON text
};

struct Run {
    qint64 id = 0;
    qint64 projectId = 0;
    qint64 architectureVersionId = 0; ///< 0 when none
    QString name;
    QJsonObject config;    ///< the engine's run config (run.json, docs/run-config.md)
    QString target;        ///< "local" or a cluster profile name
    QJsonObject execution; ///< launch settings outside run.json: "nproc", "threads", "init_weights"; "job" (cluster)
    RunState state = RunState::Draft;
    QString createdAt, startedAt, finishedAt;
    std::optional<int> exitCode;
    QString exitMessage;
    QJsonObject finalMetrics;
    QString weightsHash;
    qint64 datasetVersionId = 0; ///< the registered dataset version it trains on (data.dataset), 0 when none
    QString datasetRef;          ///< "name@N" of that version; empty when none (or the dataset was removed)
    QString owner;               ///< the class-server user who started it (REST); empty: the workspace's owner
};

struct RunTransition {
    std::optional<RunState> from; ///< empty for the creation row
    RunState to = RunState::Draft;
    QString at;
    QString note;
};

/// A note about a run from the service that executes it (staging, continuation, a refused cancel).
struct RunMessage {
    QString at; ///< database timestamp
    QString text;
};

struct MetricPoint {
    qint64 step = 0;
    QString name;
    MetricSplit split = MetricSplit::Train;
    double value = 0.0;
    double wall = 0.0; ///< seconds since the Unix epoch
};

class RunStore {
public:
    /// `workspace` must be open and outlive this object.
    explicit RunStore(Workspace &workspace);

    QString errorString() const { return error_; }

    // --- projects ---
    /// Fails when the name is empty or already used.
    std::optional<Project> createProject(const QString &name, const QString &description = {});
    QList<Project> projects();
    std::optional<Project> projectByName(const QString &name);

    // --- architectures ---
    /// Compact JSON with object keys sorted (QJsonObject keeps them sorted): equal specs give equal text.
    static QByteArray canonicalSpecJson(const QJsonObject &spec);
    /// SHA-256 (lower-case hex) of canonicalSpecJson(spec).
    static QString specContentHash(const QJsonObject &spec);
    /// Returns the id of the project's architecture `name`, creating it when missing.
    std::optional<qint64> ensureArchitecture(qint64 projectId, const QString &name);
    /// Stores `spec` as the next version of the architecture, unless the newest version already has the same
    /// content hash, in which case that version is returned.
    std::optional<ArchitectureVersion> addArchitectureVersion(qint64 architectureId, const QJsonObject &spec);
    std::optional<ArchitectureVersion> architectureVersion(qint64 id);

    // --- runs ---
    /// Creates a draft run (transition "-> draft" recorded) and its directory with spec.json (when an
    /// architecture version is given) and run.json.
    std::optional<Run> createRun(qint64 projectId, qint64 architectureVersionId, const QString &name,
                                 const QJsonObject &config, const QString &target = QStringLiteral("local"),
                                 const QJsonObject &execution = {});
    /// One step for front ends: finds or creates project `projectName` and architecture `architectureName`
    /// (spec's "name" when empty), stores `spec` as a version of it (reusing an identical one) and creates a
    /// draft run with the given engine config and execution settings. `runName` defaults to the architecture's.
    std::optional<Run> createRunWithSpec(const QString &projectName, const QJsonObject &spec,
                                         const QString &architectureName, const QString &runName,
                                         const QJsonObject &config, const QString &target = QStringLiteral("local"),
                                         const QJsonObject &execution = {});
    std::optional<Run> run(qint64 id);
    /// Runs of a project (all projects when projectId is 0), oldest first.
    QList<Run> runs(qint64 projectId = 0);
    /// Applies one state change if allowed (see the table), atomically with respect to other processes.
    /// Entering running sets started_at (first time only); entering finished/failed/cancelled/preempted sets
    /// finished_at and, when given, exit_code; entering resumed clears them.
    bool transition(qint64 runId, RunState to, const QString &note = {}, std::optional<int> exitCode = {});
    QList<RunTransition> transitions(qint64 runId);
    bool setRunResult(qint64 runId, const QJsonObject &finalMetrics, const QString &weightsHash,
                      const QString &exitMessage = {});
    /// Points the run at another target with its execution settings (a run moved between clusters); the caller makes
    /// sure nothing runs it.
    bool setRunTarget(qint64 runId, const QString &target, const QJsonObject &execution);
    /// Records the class-server user a run belongs to (app/rest/user_store.h).
    bool setOwner(qint64 runId, const QString &owner);
    /// Runs of `owner` that are queued, running or resumed (what a user's quota counts); -1 on error.
    int activeRunCount(const QString &owner);
    /// Removes the run with everything stored about it (transitions, metrics, events, messages, cluster jobs;
    /// gallery entries and sweep trials keep their rows without the link) and its folder. The caller makes sure
    /// nothing runs it (RunService::deleteRun()).
    bool deleteRun(qint64 runId);

    // --- messages ---
    bool addMessage(qint64 runId, const QString &text);
    /// Oldest first; at most the newest `limit`.
    QList<RunMessage> messages(qint64 runId, int limit = 200);

    // --- metrics and events ---
    /// Id of a metric name, created when missing.
    std::optional<qint64> metricNameId(const QString &name);
    /// Inserts points in one transaction; a point whose (run, name, split, step) exists is ignored.
    /// Returns the number of points inserted, or -1 on error.
    int addMetricPoints(qint64 runId, const QList<MetricPoint> &points);
    /// Points of one series ordered by step.
    QList<MetricPoint> metricPoints(qint64 runId, const QString &name, MetricSplit split);
    /// Every point of the run with step > sinceStep, ordered by step, split, name.
    QList<MetricPoint> metricPointsSince(qint64 runId, qint64 sinceStep = -1);
    int metricPointCount(qint64 runId);
    /// The (name, split) pairs the run has points for, by name.
    QList<QPair<QString, MetricSplit>> metricSeries(qint64 runId);
    /// Stored events of the run in file order, only those of `kind` when it is not empty; `metric` lines are
    /// left out unless includeMetrics.
    QList<QJsonObject> events(qint64 runId, const QString &kind = {}, bool includeMetrics = false);
    /// Stores one events.jsonl line; returns false on error. A second insert of the same offset is ignored.
    bool addEvent(qint64 runId, qint64 offset, const QString &kind, const QByteArray &json);
    /// Byte offset of the newest stored event of the run, or -1 when none.
    qint64 lastEventOffset(qint64 runId);

private:
    bool fail(const QString &message);
    QSqlDatabase db() const { return ws_.database(); }

    Workspace &ws_;
    QString error_;
};

} // namespace diamond::app
