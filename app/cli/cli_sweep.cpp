// Placeholder until the command is implemented: refuses with a clear message.
#include "cli.h"

namespace diamond::cli {

int runSweep(const QStringList &, const QString &, Io &io) {
    io.err << QStringLiteral("diamondctl: this command is not available in this build yet\n");
    return kUsage;
}

} // namespace diamond::cli
