#include "remote/remote_info.h"

#include <libssh/libssh.h>

namespace diamond::remote {

QString libsshVersion() {
    // ssh_version(0) returns the run-time version string without a minimum-version check.
    const char *version = ssh_version(0);
    return version ? QString::fromLatin1(version) : QString();
}

} // namespace diamond::remote
