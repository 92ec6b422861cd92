// diamondctl command dispatch. Contract: every command prints results on stdout, errors on
// stderr, and returns 0 on success, 1 on a failed check or error, 2 on bad usage.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QStringList>
#include <QTextStream>

#include "terminal_text.h"

#include <optional>

namespace diamond::app {
class Workspace;
struct RunPlan;
struct RunPlanRequest;
} // namespace diamond::app

namespace diamond::cli {

enum ExitCode : int { kOk = 0, kFailed = 1, kUsage = 2 };

/// stdout and stderr of a command, both through TerminalSafeOutput (terminal_text.h).
struct Io {
    Io();
    Io(const Io &) = delete;
    Io &operator=(const Io &) = delete;

private:
    TerminalSafeOutput outDevice_{stdout};
    TerminalSafeOutput errDevice_{stderr};

public:
    QTextStream out{&outDevice_};
    QTextStream err{&errDevice_};
};

int run(const QStringList &arguments);

/// `diamondctl spec <check|info|schema> ...`; args start after "spec".
int runSpec(const QStringList &args, Io &io);

/// Removes every global `--workspace DIR` (or `--workspace=DIR`) from args and stores the last DIR in *dir.
/// Returns false, with a message on io.err, when the option has no value.
bool takeWorkspaceOption(QStringList &args, QString *dir, Io &io);
/// The workspace folder to use: `option` when set, else $DIAMOND_WORKSPACE, else Workspace::defaultPath().
QString resolveWorkspacePath(const QString &option);

/// The options of one command: --json, options with a value, flags, and positional arguments.
struct CommandOptions {
    bool json = false;
    QStringList positional;
    QMap<QString, QString> values;
    QSet<QString> flags;
};
/// Parses args; `valued` options take the next argument, `flags` none; --json is always accepted.
/// Returns false (message on io.err) on an unknown option or a missing value.
bool parseOptions(const QStringList &args, const QStringList &valued, const QStringList &flags, CommandOptions *out,
                  Io &io);

/// Reads a JSON object from `path`; false with a message on io.err naming the file.
bool readJsonObject(const QString &path, QJsonObject *out, Io &io);
/// `diamondctl run plan --spec FILE --config FILE [--target local|CLUSTER] [--partition P] [--nproc N]
/// [--threads N] [--measure-width] [--json]` (cli_plan.cpp): the performance model's prediction and the job chain for a
/// run.
int runPlan(const CommandOptions &o, app::Workspace &ws, Io &io);
/// `diamondctl run stages --spec FILE --config FILE [--stages N] [--micro-batches M] [--cut A,B] [--threads N]
/// [--output CONFIG] [--json]` (cli_plan.cpp): the pipeline cut the performance model chooses (or the one given), with
/// each stage's predicted time and memory; --output writes the config with that "pipeline".
int runStages(const CommandOptions &o, app::Workspace &ws, Io &io);
/// The planner's recommendation (app/plan/run_planner.h), saying on io.err when this computer is being calibrated
/// unless `quiet`; nothing with *error.
std::optional<app::RunPlan> planRun(app::Workspace &ws, const app::RunPlanRequest &request, bool quiet, Io &io,
                                    QString *error);

/// Prints `doc` as indented JSON on io.out.
void printJson(Io &io, const QJsonObject &doc);
/// Opens the existing workspace for a command (folder from resolveWorkspacePath(option)); on failure prints
/// the reason, with a hint to run `diamondctl init`, and returns false.
bool openWorkspace(app::Workspace &ws, const QString &option, Io &io);

/// `diamondctl init [--no-examples] [--json]`: creates the workspace (with the examples) or reports the
/// existing one. args start after "init".
int runInit(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl workspace info [--json]`; args start after "workspace".
int runWorkspace(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl project list|create NAME [--description TEXT] [--json]`; args start after "project".
int runProject(const QStringList &args, const QString &workspaceOption, Io &io);

/// `diamondctl run start|list|show|metrics|logs|cancel|resume ...` (cli_run.cpp); args start after "run".
int runRun(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl sweep start FILE | status ID | stop ID | resume ID | best ID` (cli_sweep.cpp).
int runSweep(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl cluster add|list|test|probe ...` (cli_cluster.cpp).
int runCluster(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl data add|list|show|versions|remove|stage ...` (cli_data.cpp).
int runData(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl user add|list|update|token|remove ...` (cli_user.cpp): users of the class server.
int runUser(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl lesson list|show|check|reset ...` (cli_lesson.cpp); args start after "lesson".
int runLesson(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl gallery publish|import|list|search|show|export ...` (cli_gallery.cpp).
int runGallery(const QStringList &args, const QString &workspaceOption, Io &io);
/// `diamondctl serve [--listen ADDR] [--port N] [--print-token]`: the REST API (cli_serve.cpp).
int runServe(const QStringList &args, const QString &workspaceOption, Io &io);

} // namespace diamond::cli
