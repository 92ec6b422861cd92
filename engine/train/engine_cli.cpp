#include "engine_cli.h"

#include "diamond/version.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <exception>
#include <iostream>
#include <string>

namespace diamond::engine {
namespace {

void printHelp() {
    std::cout << "Usage: diamond-train --spec SPEC.json --config RUN.json --run-dir DIR [options]\n"
                 "\n"
                 "Trains the network described by SPEC.json with the run configuration RUN.json and\n"
                 "writes JSON-lines events to stdout and DIR/events.jsonl.\n"
                 "\n"
                 "Options:\n"
                 "  --spec FILE        network spec (diamond.spec/1)\n"
                 "  --config FILE      run configuration\n"
                 "  --run-dir DIR      directory for events, checkpoints and exports\n"
                 "  --resume           continue from the newest valid checkpoint in DIR\n"
                 "  --dry-run          validate and print the plan without training\n"
                 "  --threads N        intra-op threads (default: all cores)\n"
                 "  --device cpu|cuda  compute device (default: cpu)\n"
                 "  --version          print the engine and libtorch versions\n"
                 "  --help             print this help\n"
                 "\n"
                 "Exit codes: 0 finished, 1 error, 2 bad command line, 85 checkpointed on request (requeue).\n";
}

void emitError(const std::string &message) {
    nlohmann::json event = {{"event", "error"}, {"message", message}};
    std::cout << event.dump() << std::endl;
}

} // namespace

int runCli(int argc, char **argv) {
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--help" || arg == "-h") {
                printHelp();
                return kExitFinished;
            }
            if (arg == "--version") {
                std::cout << "diamond-train " << DIAMOND_VERSION << " (libtorch " << TORCH_VERSION << ")\n";
                return kExitFinished;
            }
        }
        std::cerr << "diamond-train: training is not available in this build yet; see --help\n";
        emitError("training is not implemented in this build");
        return kExitUsage;
    } catch (const std::exception &e) {
        emitError(e.what());
        return kExitError;
    } catch (...) {
        emitError("unknown error");
        return kExitError;
    }
}

} // namespace diamond::engine
