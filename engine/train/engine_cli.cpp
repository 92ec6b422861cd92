#include "engine_cli.h"

#include "calibrate.h"
#include "compute_device.h"
#include "data/array_listing.h"
#include "export/predict.h"
#include "trial_pack.h"

#include "distributed.h"
#include "engine_error.h"
#include "events.h"
#include "export/export.h"
#include "run_config.h"
#include "trainer.h"

#include "diamond/spec/spec.h"
#include "diamond/version.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace diamond::engine {
namespace {

void printHelp() {
    std::cout
        << "Usage: diamond-train --spec SPEC.json --config RUN.json --run-dir DIR [options]\n"
           "       diamond-train export --spec SPEC.json --run-dir DIR [--checkpoint FILE] [--out DIR] [--samples N]\n"
           "       diamond-train pack --trials PACK.json [--threads N] [--device cpu|cuda]\n"
           "       diamond-train predict --spec SPEC.json --weights W.safetensors --inputs IN.safetensors\n"
           "                             --output OUT.safetensors [--threads N] [--device cpu|cuda]\n"
           "       diamond-train arrays FILE.h5|FILE.npz   (lists the file's arrays as JSON)\n"
           "       diamond-train calibrate [--threads N] [--dir D] [--device D] [--nproc N] [--quick]\n"
           "                             (times this device; prints a JSON device profile)\n"
           "\n"
           "Trains the network described by SPEC.json with the run configuration RUN.json and\n"
           "writes JSON-lines events (protocol "
        << kEventsProtocol
        << ") to stdout and DIR/events.jsonl.\n"
           "\n"
           "Options:\n"
           "  --spec FILE        network spec (diamond.spec/1)\n"
           "  --config FILE      run configuration (diamond.run/1)\n"
           "  --run-dir DIR      directory for events, checkpoints and exports (created if missing)\n"
           "  --resume           continue from the newest valid checkpoint in DIR\n"
           "  --init-weights W   start from the weights in W.safetensors (fine-tuning; a fresh optimizer, step 0)\n"
           "  --data-path P      the data file or folder (replaces data.path; where the launcher put data.dataset)\n"
           "  --dry-run          validate spec, config and data, time a few steps, print the plan\n"
           "  --threads N        intra-op threads (default: all physical cores)\n"
           "  --device cpu|cuda  compute device (default: from the config, else cpu)\n"
           "  --nproc N          data-parallel: launch N local ranks (c10d; Gloo on CPU, NCCL on CUDA)\n"
           "\n"
           "Several ranks also start from the environment: torchrun's RANK, WORLD_SIZE, LOCAL_RANK,\n"
           "MASTER_ADDR, MASTER_PORT, or Slurm's SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID and\n"
           "SLURM_JOB_NODELIST (srun). DIAMOND_DIST_TIMEOUT_S sets the rendezvous/collective timeout (60).\n"
           "  --version          print the engine and libtorch versions\n"
           "  --help             print this help\n"
           "\n"
           "pack: trains the runs listed in PACK.json one after another in this process (docs/trial-packing.md).\n"
           "predict: runs the network with the given weights on the given inputs (docs/export.md).\n"
           "\n"
           "Signals: SIGTERM, SIGINT and SIGUSR1 finish the current step, write a checkpoint and exit 85.\n"
           "Exit codes: 0 finished, 1 error, 2 bad command line, 85 checkpointed on request (requeue).\n";
}

struct Arguments {
    std::string spec, config, runDir, device, initWeights, dataPath;
    bool resume = false, dryRun = false;
    int threads = -1;
    int nproc = 1;
    std::vector<std::string> forwarded; ///< every argument but --nproc, for the ranks
};

Arguments parseArguments(int argc, char **argv) {
    Arguments a;
    auto value = [&](int &i, const std::string &flag) -> std::string {
        if (i + 1 >= argc) throw UsageError("Option " + flag + " needs a value.", flag);
        if (flag != "--nproc") a.forwarded.push_back(argv[i + 1]);
        return argv[++i];
    };
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--nproc") {
            const std::string v = value(i, arg);
            char *end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (!end || *end || n < 1 || n > 256)
                throw UsageError("--nproc must be a whole number from 1 to 256, got '" + v + "'.", "--nproc");
            a.nproc = static_cast<int>(n);
            continue;
        }
        a.forwarded.push_back(arg);
        if (arg == "--spec")
            a.spec = value(i, arg);
        else if (arg == "--config")
            a.config = value(i, arg);
        else if (arg == "--run-dir")
            a.runDir = value(i, arg);
        else if (arg == "--resume")
            a.resume = true;
        else if (arg == "--init-weights")
            a.initWeights = value(i, arg);
        else if (arg == "--data-path")
            a.dataPath = value(i, arg);
        else if (arg == "--dry-run")
            a.dryRun = true;
        else if (arg == "--device")
            a.device = parseDeviceOption(value(i, arg));
        else if (arg == "--threads")
            a.threads = parseThreadsOption(value(i, arg));
        else {
            throw UsageError("Unknown option '" + arg + "'. See diamond-train --help.", arg);
        }
    }
    if (a.spec.empty()) throw UsageError("--spec is required.", "--spec");
    if (a.config.empty()) throw UsageError("--config is required.", "--config");
    if (a.runDir.empty() && !a.dryRun) throw UsageError("--run-dir is required.", "--run-dir");
    return a;
}

/// --data-path: where the launcher put the registered dataset that data.dataset names (docs/datasets.md).
void applyDataPath(RunConfig &config, const std::string &dataPath) {
    nlohmann::json &data = config.data.options;
    const auto dataset = data.find("dataset");
    if (dataset != data.end() && !dataset->is_string())
        throw EngineError("'data.dataset' must be a dataset name such as \"cancer@2\" (got " + dataset->dump() + ").",
                          "data.dataset");
    if (dataPath.empty()) {
        if (dataset != data.end() && !data.contains("path"))
            throw EngineError("'data.dataset' names the registered dataset '" + dataset->get<std::string>() +
                                  "', but no --data-path says where it is on this machine.",
                              "data.dataset", {},
                              "Start the run with Diamond (the app or diamondctl), which puts the dataset in place "
                              "and passes --data-path, or give data.path instead.");
        return;
    }
    const std::filesystem::path where = std::filesystem::absolute(dataPath).lexically_normal();
    // npy (inputs, targets) and idx (images, labels) read several files: their options name files of the dataset,
    // relative to its folder. The other file sources read data.path.
    if (config.data.source == "npy" || config.data.source == "idx") {
        config.data.baseDir = (std::filesystem::is_directory(where) ? where : where.parent_path()).string();
        return;
    }
    data["path"] = where.string();
}

void emitError(EventWriter &events, const std::string &message, const std::string &field = {},
               const std::string &node = {}, const std::string &hint = {}) {
    nlohmann::json e = {{"event", "error"}, {"message", message}};
    if (const char *rank = std::getenv("RANK")) e["rank"] = std::atoi(rank);
    if (!field.empty()) e["field"] = field;
    if (!node.empty()) e["node"] = node;
    if (!hint.empty()) e["hint"] = hint;
    events.emitAlways(std::move(e));
    std::cerr << "diamond-train: " << message << (hint.empty() ? "" : " " + hint) << "\n";
}

int train(int argc, char **argv, std::unique_ptr<EventWriter> &events) {
    Arguments args = parseArguments(argc, argv);
    if (args.nproc > 1) {
        // Launcher: split the cores between the ranks unless told otherwise.
        if (args.threads < 0) {
            args.forwarded.push_back("--threads");
            args.forwarded.push_back(std::to_string(std::max(1, physicalCoreCount() / args.nproc)));
        }
        return launchLocalRanks("/proc/self/exe", args.forwarded, args.nproc);
    }
    // From here on TERM/INT/USR1 only set the stop flag: a rank that srun stops because another rank failed
    // still gets to report its own error (the leader's is the one in events.jsonl) and exit 1, not die with 143.
    installStopSignalHandlers();
    const Rendezvous rendezvous = rendezvousFromEnvironment();
    const bool leader = rendezvous.rank == 0;
    if (!args.runDir.empty()) {
        if (leader) std::filesystem::create_directories(args.runDir);
        events =
            std::make_unique<EventWriter>((std::filesystem::path(args.runDir) / "events.jsonl").string(), true, leader);
    } else {
        events = std::make_unique<EventWriter>(std::string(), true, leader);
    }
    const spec::ParseResult parsed = spec::loadSpecFile(args.spec);
    for (const auto &d : parsed.diagnostics) {
        if (d.severity == spec::Severity::Error)
            throw EngineError(args.spec + ": " + spec::formatDiagnostic(d), "spec", d.node, d.hint);
    }
    RunConfig config = loadRunConfig(args.config);
    applyDataPath(config, args.dataPath);
    TrainerOptions options;
    options.runDir = args.runDir;
    options.resume = args.resume;
    options.initWeights = args.initWeights;
    options.dryRun = args.dryRun;
    options.threadsOverride = args.threads;
    // The rank's own device ("cuda" -> the GPU of its local rank), for the process group and the trainer alike.
    options.deviceOverride =
        chooseDevice(args.device.empty() ? config.device : args.device, rendezvous.localRank, deviceSupport());
    const char *timeoutEnv = std::getenv("DIAMOND_DIST_TIMEOUT_S");
    const auto timeout =
        std::chrono::milliseconds(static_cast<long>(1000 * (timeoutEnv ? std::atof(timeoutEnv) : 60.0)));
    std::unique_ptr<Communicator> comm = connect(rendezvous, timeout, options.deviceOverride);
    if (leader) announceStopSignalsReady(); // every rank installed its handlers before the rendezvous
    return runTraining(parsed.spec, config, options, *events, *comm);
}

} // namespace

int parseThreadsOption(const std::string &value) {
    char *end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || !end || *end || n < 1 || n > 1024)
        throw UsageError("--threads must be a whole number from 1 to 1024, got '" + value + "'.", "--threads");
    return static_cast<int>(n);
}

std::string parseDeviceOption(const std::string &value) {
    if (value != "cpu" && value != "cuda" && value.rfind("cuda:", 0) != 0)
        throw UsageError("--device must be cpu or cuda, got '" + value + "'.", "--device");
    return value;
}

int runCli(int argc, char **argv) {
    tuneAllocator();
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            printHelp();
            return kExitFinished;
        }
        if (arg == "--version") {
            std::cout << "diamond-train " << DIAMOND_VERSION << " (libtorch " << TORCH_VERSION << ", events "
                      << kEventsProtocol << ")\n";
            return kExitFinished;
        }
    }
    std::unique_ptr<EventWriter> events = std::make_unique<EventWriter>();
    try {
        if (argc > 1 && std::string(argv[1]) == "export") return runExport(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "pack") return runPack(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "predict") return runPredict(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "arrays") return data::runListArrays(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "calibrate") return runCalibrate(argc - 1, argv + 1);
        return train(argc, argv, events);
    } catch (const UsageError &e) {
        emitError(*events, e.what(), e.field(), e.node(), e.hint());
        return kExitUsage;
    } catch (const EngineError &e) {
        emitError(*events, e.what(), e.field(), e.node(), e.hint());
        return kExitError;
    } catch (const c10::Error &e) {
        emitError(*events, std::string("libtorch: ") + e.what_without_backtrace());
        return kExitError;
    } catch (const std::exception &e) {
        emitError(*events, e.what());
        return kExitError;
    } catch (...) {
        emitError(*events, "unknown error");
        return kExitError;
    }
}

} // namespace diamond::engine
