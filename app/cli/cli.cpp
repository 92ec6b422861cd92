#include "cli.h"

#include "app/workspace/app_info.h"

#include <cstdio>

namespace diamond::cli {

Io::Io() = default;

namespace {

QString usage() {
    return QStringLiteral(
        "Usage: diamondctl [--version] [--help] <command> [<args>]\n"
        "\n"
        "Diamond's command-line interface: everything the desktop app does, for scripts.\n"
        "\n"
        "Commands:\n"
        "  spec check FILE                 validate a network spec; exit 1 with diagnostics if invalid\n"
        "  spec info FILE [--batch N] [--optimizer NAME] [--json]\n"
        "                                  layer table with shapes, parameters, FLOPs and memory\n"
        "  spec schema                     print the JSON Schema of diamond.spec/1\n"
        "  init [--no-examples]            create the workspace (with the examples) if it does not exist\n"
        "  workspace info                  folder, schema version, projects and runs of the workspace\n"
        "  project list                    projects of the workspace\n"
        "  project create NAME [--description TEXT]\n"
        "                                  create a project\n"
        "  run start --spec FILE --config FILE [--project NAME] [--name NAME] [--follow]\n"
        "                                  train a network locally (--follow: print metrics, exit with\n"
        "                                  the result: 0 finished, 1 failed, 85 preempted)\n"
        "  run stages --spec FILE --config FILE [--stages N]\n"
        "                                  cut a network into pipeline stages (one process each)\n"
        "  run list | show ID | metrics ID [--csv] [--follow] | logs ID\n"
        "                                  runs, their state, metric points and engine events\n"
        "  run cancel ID | resume ID [--follow]\n"
        "                                  stop a run; continue one from its newest checkpoint\n"
        "  sweep start FILE [--follow] | list | status ID | best ID | pause ID | resume ID | stop ID\n"
        "                                  hyper-parameter sweeps (grid, random, TPE, ASHA, Hyperband)\n"
        "  gallery publish RUN | import FILE | list | search TEXT | show ID | export ID FILE | remove ID\n"
        "                                  the model gallery: signed, self-checking .diamond packages\n"
        "  data add PATH | list | show NAME[@V] | versions NAME | remove NAME | stage NAME[@V] --target C\n"
        "                                  registered datasets: versions, content hashes, staging to clusters\n"
        "  serve [--listen ADDR] [--port N] [--print-token]\n"
        "                                  the REST API (docs/rest-api.md), on 127.0.0.1 by default\n"
        "  user add NAME --role R | list | update NAME | token NAME | remove NAME\n"
        "                                  users of the REST API (student, instructor, admin)\n"
        "  cluster add|list|show|test|probe|remove ...\n"
        "                                  compute clusters over SSH (Slurm, PBS)\n"
        "  lesson list | show ID | check ID [--spec FILE] | reset ID\n"
        "                                  the lessons of the Learn page and this workspace's progress\n"
        "\n"
        "Options:\n"
        "  --workspace DIR                 workspace folder (default: $DIAMOND_WORKSPACE, else\n"
        "                                  ~/.local/share/Diamond/default)\n"
        "  --json                          machine-readable output (workspace, project and run commands)\n"
        "\n"
        "Run 'diamondctl <command> --help' for a command's options.\n");
}

} // namespace

int run(const QStringList &arguments) {
    app::setApplicationIdentity();
    Io io;
    QStringList args = arguments.mid(1);
    QString workspace;
    if (!takeWorkspaceOption(args, &workspace, io)) return kUsage;
    if (args.isEmpty()) {
        io.err << usage();
        return kUsage;
    }
    const QString &command = args.first();
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        io.out << usage();
        return kOk;
    }
    if (command == QLatin1String("--version")) {
        io.out << app::versionReport(QStringLiteral("diamondctl"));
        return kOk;
    }
    if (command == QLatin1String("spec")) return runSpec(args.mid(1), io);
    if (command == QLatin1String("init")) return runInit(args.mid(1), workspace, io);
    if (command == QLatin1String("workspace")) return runWorkspace(args.mid(1), workspace, io);
    if (command == QLatin1String("project")) return runProject(args.mid(1), workspace, io);
    if (command == QLatin1String("run")) return runRun(args.mid(1), workspace, io);
    if (command == QLatin1String("sweep")) return runSweep(args.mid(1), workspace, io);
    if (command == QLatin1String("cluster")) return runCluster(args.mid(1), workspace, io);
    if (command == QLatin1String("gallery")) return runGallery(args.mid(1), workspace, io);
    if (command == QLatin1String("data")) return runData(args.mid(1), workspace, io);
    if (command == QLatin1String("user")) return runUser(args.mid(1), workspace, io);
    if (command == QLatin1String("lesson")) return runLesson(args.mid(1), workspace, io);
    if (command == QLatin1String("serve")) return runServe(args.mid(1), workspace, io);
    io.err << QStringLiteral("diamondctl: unknown command '%1'\n\n").arg(command) << usage();
    return kUsage;
}

} // namespace diamond::cli
