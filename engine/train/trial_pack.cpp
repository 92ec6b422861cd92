#include "trial_pack.h"

#include "compute_device.h"

#include "distributed.h"
#include "engine_cli.h"
#include "engine_error.h"
#include "events.h"
#include "run_config.h"
#include "trainer.h"

#include "diamond/spec/spec.h"

#include <c10/util/Exception.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace diamond::engine {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct PackTrial {
    std::string spec, config, runDir;
    bool resume = false;
};

struct PackArguments {
    std::string trials;
    int threads = -1;
    std::string device;
};

PackArguments parsePackArguments(int argc, char **argv) {
    PackArguments a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError("Option '" + arg + "' needs a value.", arg);
            return argv[++i];
        };
        if (arg == "--trials")
            a.trials = value();
        else if (arg == "--device")
            a.device = parseDeviceOption(value());
        else if (arg == "--threads")
            a.threads = parseThreadsOption(value());
        else {
            throw UsageError("Unknown option '" + arg + "' for pack. See diamond-train --help.", arg);
        }
    }
    if (a.trials.empty()) throw UsageError("pack needs --trials PACK.json.", "--trials");
    return a;
}

std::vector<PackTrial> loadPack(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw UsageError("Cannot read the pack file " + path + ".", "--trials");
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::parse_error &e) {
        throw UsageError(path + ": not valid JSON (" + e.what() + ").", "--trials");
    }
    if (!doc.is_object() || doc.value("format", "") != "diamond.pack/1")
        throw UsageError(path + ": \"format\" must be \"diamond.pack/1\".", "format");
    if (!doc.contains("trials") || !doc["trials"].is_array() || doc["trials"].empty())
        throw UsageError(path + ": \"trials\" must be a non-empty list.", "trials");
    const fs::path base = fs::absolute(path).parent_path();
    auto resolve = [&](const std::string &p) { return fs::path(p).is_absolute() ? p : (base / p).string(); };
    std::vector<PackTrial> trials;
    for (std::size_t i = 0; i < doc["trials"].size(); ++i) {
        const json &t = doc["trials"][i];
        const std::string where = "trials[" + std::to_string(i) + "]";
        if (!t.is_object()) throw UsageError(path + ": " + where + " must be an object.", where);
        for (const char *key : {"spec", "config", "run_dir"})
            if (!t.contains(key) || !t[key].is_string() || t[key].get<std::string>().empty())
                throw UsageError(path + ": " + where + "." + key + " must be a path.", where + "." + key);
        for (auto it = t.begin(); it != t.end(); ++it)
            if (it.key() != "spec" && it.key() != "config" && it.key() != "run_dir" && it.key() != "resume")
                throw UsageError(path + ": " + where + " has the unknown field '" + it.key() + "'.",
                                 where + "." + it.key());
        trials.push_back({resolve(t["spec"]), resolve(t["config"]), resolve(t["run_dir"]), t.value("resume", false)});
    }
    return trials;
}

void emitTrialError(EventWriter &events, const std::string &message, const std::string &field = {},
                    const std::string &node = {}, const std::string &hint = {}) {
    json e = {{"event", "error"}, {"message", message}};
    if (!field.empty()) e["field"] = field;
    if (!node.empty()) e["node"] = node;
    if (!hint.empty()) e["hint"] = hint;
    events.emit(std::move(e));
}

/// One trial as a normal single-process run; errors become the trial's `error` event and exit code.
int runTrial(const PackTrial &trial, const PackArguments &args) {
    fs::create_directories(trial.runDir);
    EventWriter events((fs::path(trial.runDir) / "events.jsonl").string(), false, true);
    try {
        const spec::ParseResult parsed = spec::loadSpecFile(trial.spec);
        for (const auto &d : parsed.diagnostics)
            if (d.severity == spec::Severity::Error)
                throw EngineError(trial.spec + ": " + spec::formatDiagnostic(d), "spec", d.node, d.hint);
        const RunConfig config = loadRunConfig(trial.config);
        TrainerOptions options;
        options.runDir = trial.runDir;
        options.resume = trial.resume;
        options.threadsOverride = args.threads;
        options.deviceOverride = chooseDevice(args.device.empty() ? config.device : args.device,
                                              rendezvousFromEnvironment().localRank, deviceSupport());
        std::unique_ptr<Communicator> comm =
            connect(Rendezvous{}, std::chrono::milliseconds(60000), options.deviceOverride);
        return runTraining(parsed.spec, config, options, events, *comm);
    } catch (const UsageError &e) {
        emitTrialError(events, e.what(), e.field(), e.node(), e.hint());
        return kExitUsage;
    } catch (const EngineError &e) {
        emitTrialError(events, e.what(), e.field(), e.node(), e.hint());
    } catch (const c10::Error &e) {
        emitTrialError(events, std::string("libtorch: ") + e.what_without_backtrace());
    } catch (const std::exception &e) {
        emitTrialError(events, e.what());
    }
    return kExitError;
}

void printLine(const json &line) { std::cout << line.dump() << "\n" << std::flush; }

} // namespace

int runPack(int argc, char **argv) {
    const PackArguments args = parsePackArguments(argc, argv);
    const std::vector<PackTrial> trials = loadPack(args.trials);
    installStopSignalHandlers(true); // SIGUSR2: "stop this trial only"
    announceStopSignalsReady();
    bool stopped = false;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const PackTrial &trial = trials[i];
        json exitLine = {{"event", "trial_exit"}, {"index", i}, {"run_dir", trial.runDir}};
        if (stopped || fs::exists(fs::path(trial.runDir) / "cancel")) {
            exitLine["skipped"] = true;
            exitLine["reason"] = stopped ? "stopped" : "cancelled";
            printLine(exitLine);
            continue;
        }
        printLine({{"event", "trial_start"}, {"index", i}, {"run_dir", trial.runDir}});
        const int code = runTrial(trial, args);
        const int signal = gStopSignal.exchange(0);
        exitLine["exit_code"] = code;
        printLine(exitLine);
        if (signal != 0 && signal != SIGUSR2) stopped = true;
    }
    return stopped ? kExitRequeue : kExitFinished;
}

} // namespace diamond::engine
