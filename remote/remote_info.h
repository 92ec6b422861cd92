// Facts about the remote layer's dependencies, for `--version` outputs and bug reports.
#pragma once

#include <QString>

namespace diamond::remote {

/// The libssh version linked at run time, e.g. "0.10.6".
QString libsshVersion();

} // namespace diamond::remote
