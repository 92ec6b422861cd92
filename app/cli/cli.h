// diamondctl command dispatch. Contract: every command prints results on stdout, errors on
// stderr, and returns 0 on success, 1 on a failed check or error, 2 on bad usage.
#pragma once

#include <QStringList>
#include <QTextStream>

namespace diamond::cli {

enum ExitCode : int { kOk = 0, kFailed = 1, kUsage = 2 };

struct Io {
    QTextStream out;
    QTextStream err;
    Io();
};

int run(const QStringList &arguments);

/// `diamondctl spec <check|info|schema> ...`; args start after "spec".
int runSpec(const QStringList &args, Io &io);

} // namespace diamond::cli
