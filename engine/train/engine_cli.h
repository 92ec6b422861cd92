// Command-line front end of diamond-train. Contract: never throws; every failure becomes an
// `error` event on stdout and a non-zero exit code.
#pragma once

#include <string>

namespace diamond::engine {

/// Exit codes of diamond-train.
enum ExitCode : int {
    kExitFinished = 0, ///< training finished
    kExitError = 1,    ///< error; an `error` event was written
    kExitUsage = 2,    ///< bad command line
    kExitRequeue = 85, ///< checkpointed on request (signal); requeue and resume
};

int runCli(int argc, char **argv);

/// The value of --threads: a whole number from 1 to 1024. Throws UsageError otherwise.
int parseThreadsOption(const std::string &value);
/// The value of --device: cpu, cuda or cuda:N. Throws UsageError otherwise.
std::string parseDeviceOption(const std::string &value);

} // namespace diamond::engine
